"""The game protocol (:class:`industry_env.core.spec.GameSpec`): what every game must declare is checked when it is
registered, every missing member named in one message; the optional parts have defaults that work; the registry
registers the Gymnasium ids from its light declarations, so ``import industry_env`` loads no game.

A toy game (Nim: take one or two counters, who takes the last wins) declares only what is required and gets
everything else from the defaults.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from industry_env.core.spec import (
    REQUIRED_ATTRIBUTES,
    REQUIRED_METHODS,
    GameSpec,
    HiddenInformationGame,
    Piece,
    ReferenceGame,
    layout,
)
from industry_env.registry import available_games, declaration, gym_ids, load_game, register_game

GAMES = available_games(include_hidden=True)
PILE = 5


class NimGame:
    """Two players take one or two counters in turn from a pile of five; who takes the last wins."""

    def __init__(self, num_players: int = 2, seed: int = 0) -> None:
        self.num_players, self.seed, self.pile, self.mover = num_players, seed, PILE, 0

    @property
    def current_player(self) -> int:
        return -1 if self.is_over else self.mover

    @property
    def is_over(self) -> bool:
        return self.pile == 0

    def legal_actions(self) -> list[int]:
        return [a for a in (0, 1) if a + 1 <= self.pile]

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(2, bool)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is illegal")
        self.pile -= action + 1
        if self.pile:
            self.mover = 1 - self.mover

    def scores(self) -> list[int]:
        return [int(self.is_over and p == self.mover) for p in range(2)]

    def winners(self) -> list[int]:
        return [self.mover] if self.is_over else []

    def returns(self) -> list[float]:
        return [0.0, 0.0] if not self.is_over else [1.0 if p == self.mover else -1.0 for p in range(2)]

    def observe(self, seat: int) -> np.ndarray:
        return np.array([self.pile / PILE, float(seat == self.mover)], np.float32)

    def clone(self) -> NimGame:
        return NimGame.from_json(self.to_json())

    def to_json(self) -> str:
        return json.dumps({"seed": self.seed, "pile": self.pile, "mover": self.mover})

    @classmethod
    def from_json(cls, text: str) -> NimGame:
        doc = json.loads(text)
        game = cls(2, doc["seed"])
        game.pile, game.mover = doc["pile"], doc["mover"]
        return game

    def __str__(self) -> str:
        return f"pile {self.pile}, player {self.mover} to move"


class NimSpec(GameSpec):
    """Only the required members."""

    id = "toy_nim"
    name = "Nim"
    version = 0
    citation = "a folk game"
    min_players = max_players = default_players = 2
    hidden_information = False
    engine_module = None
    reference_class = f"{__name__}:NimGame"

    def num_actions(self, **options: Any) -> int:
        return 2

    def observation_layout(self, **options: Any) -> tuple[Piece, ...]:
        return layout([("pile", 1, "counters left / 5"), ("to_move", 1, "1 if the seat moves")])

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(2, np.float32), np.ones(2, np.float32)

    def max_game_length(self, num_players: int, **options: Any) -> int:
        return PILE  # each decision takes at least one counter

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        return NimGame.from_json(text)

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        return f"take {action + 1}"

    def string_to_action(self, text: str, game: ReferenceGame | None = None, **options: Any) -> int:
        return ["take 1", "take 2"].index(text)

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        return 2, game.seed, {}  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_every_required_member(game: str) -> None:
    spec = load_game(game)
    assert spec.missing() == []
    spec.check_declaration()


@pytest.mark.parametrize("game", GAMES)
def test_every_reference_game_answers_what_the_defaults_call(game: str) -> None:
    """``observe`` for every game, ``resample`` where information is hidden: the spec's defaults call them."""
    spec = load_game(game)
    reference = spec.reference()
    assert isinstance(reference, ReferenceGame)
    if spec.hidden_information:
        assert isinstance(reference, HiddenInformationGame)
    seen = spec.observe(reference, 0)
    assert seen.dtype == np.float32 and seen.shape == (spec.observation_size(),)


def test_a_declaration_missing_members_is_refused_with_every_one_named() -> None:
    class Half(GameSpec):
        id = "half"
        name = "Half"

        def num_actions(self, **options: Any) -> int:
            return 1

    with pytest.raises(TypeError) as exc:
        Half().check_declaration()
    message = str(exc.value)
    assert message.count("missing ") == 1  # one message for all of them
    named = message.partition("missing ")[2].split("; ")[0].split(", ")
    assert named == [a for a in REQUIRED_ATTRIBUTES if a not in ("id", "name")] + [
        f"{m}()" for m in REQUIRED_METHODS if m != "num_actions"
    ]


def test_a_declared_value_of_the_wrong_kind_is_named() -> None:
    class Odd(NimSpec):
        version = "1"
        min_players, default_players, max_players = 3, 2, 4

    with pytest.raises(TypeError, match=r"version = '1' is not a int.*min_players <= default_players"):
        Odd().check_declaration()


def test_registering_an_incomplete_spec_names_what_is_missing(scratch_registry) -> None:
    class NoSizes(NimSpec):
        num_actions = None  # not defined: a member that cannot be called is missing
        observation_bounds = None

    with pytest.raises(TypeError, match=r"missing num_actions\(\), observation_bounds\(\)"):
        register_game("no_sizes", NoSizes())
    with pytest.raises(ValueError, match="not a game of the suite"):
        load_game("no_sizes")


def test_a_registered_spec_must_match_its_id(scratch_registry) -> None:
    with pytest.raises(TypeError, match="declares id = 'toy_nim'"):
        register_game("not_nim", NimSpec())


def test_the_optional_parts_have_defaults_that_work() -> None:
    spec = NimSpec()
    game = spec.reference()
    assert spec.variants() == [{}] and spec.options == () and spec.data_digests() == {}
    assert spec.exploration_weights() is None and spec.tools == {} and spec.play_table is None
    assert spec.observe(game, 0).tolist() == [1.0, 1.0]
    other = spec.resample(game, 1)  # no hidden information: the position itself
    assert other is not game and other.to_json() == game.to_json()
    assert spec.render_text(game) == "pile 5, player 0 to move"
    assert spec.describe_action(game, 1) == "take 2"
    assert "# Nim" in spec.rules_text() and "a folk game" in spec.rules_text()
    assert "| pile | 0 | 1 |" in spec.components_text() and "2 actions" in spec.components_text()
    assert spec.picture_key(game) is None and not spec.has_pictures
    pytest.importorskip("PIL")
    rgb = spec.to_rgb_array(game)
    assert rgb.dtype == np.uint8 and rgb.shape == (800, 1280, 3) and (rgb < 255).any()  # the text, drawn


@pytest.fixture
def scratch_registry(monkeypatch):
    """The registry as it is, given back after the test (a game registered in it is forgotten)."""
    import industry_env.registry as registry

    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))


def test_a_game_registered_at_run_time_is_played_by_the_generic_tools(tmp_path, scratch_registry) -> None:
    from industry_env import records

    register_game("toy_nim", NimSpec(), hidden=True)
    assert "toy_nim" in available_games(include_hidden=True) and "toy_nim" not in available_games()
    spec = load_game("toy_nim")
    game = spec.reference(seed=3)
    recorder = records.Recorder.for_game(game, spec)
    while not game.is_over:
        action = game.legal_actions()[0]
        game.apply(action)
        recorder.append(action)
    record = recorder.record(game.scores())
    again = records.replay(records.Record.from_json(record.to_json()))
    assert again.to_json() == game.to_json()
    writer = spec.gif_writer(tmp_path / "nim.gif") if _has_pillow() else None
    if writer is not None:
        writer.add(spec.to_rgb_array(game))
        writer.close()
        assert (tmp_path / "nim.gif").stat().st_size > 0


def _has_pillow() -> bool:
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


class OtherNimSpec(NimSpec):
    id = "other_nim"


OTHER_NIM = OtherNimSpec()


def test_a_game_registered_by_path_is_checked_and_declared(scratch_registry) -> None:
    register_game("other_nim", f"{__name__}:OTHER_NIM", hidden=True)
    assert load_game("other_nim") is OTHER_NIM and declaration("other_nim").batched is False
    assert "other_nim" not in gym_ids()  # no batched engine: no Gymnasium id
    with pytest.raises(ValueError, match="already a game of the suite"):
        register_game("other_nim", OTHER_NIM)
    with pytest.raises(ValueError, match="a GameSpec, or 'module:attr'"):
        register_game("third_nim", "not a path")


@pytest.mark.parametrize("game", GAMES)
def test_the_registry_declaration_agrees_with_the_spec(game: str) -> None:
    spec, declared = load_game(game), declaration(game)
    assert declared.version == spec.version and declared.batched == (spec.engine_module is not None)
    assert gym_ids().get(game) == (spec.gym_id if declared.batched else None)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_tools_run_and_configure(game: str) -> None:
    import importlib

    for name, module in load_game(game).tools.items():
        tool = importlib.import_module(module)
        assert callable(tool.run), (game, name)
        if name != "board":  # a subcommand of the game's own: its parser and help come from it
            assert callable(tool.configure) and isinstance(tool.HELP, str), (game, name)


def _fresh(code: str) -> Any:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_industry_env_loads_no_game() -> None:
    """``import industry_env`` registers every game's Gymnasium id from the registry's declarations alone."""
    code = (
        "import industry_env, gymnasium, json, sys; print(json.dumps({'games': sorted(m for m in sys.modules if "
        "m.startswith(('industry_env.games.', 'industry_env.agents.'))), 'numba': 'numba' in sys.modules, "
        "'ids': sorted(k for k in gymnasium.registry if k.startswith('industry_env/'))}))"
    )
    seen = _fresh(code)
    assert seen["games"] == [] and seen["numba"] is False
    assert seen["ids"] == sorted(gym_ids().values())


def test_one_game_is_loaded_without_the_others() -> None:
    code = (
        "import industry_env, json, sys; industry_env.load_game('age_of_industry'); import industry_env.agents; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('industry_env.games.'))))"
    )
    loaded = _fresh(code)
    assert loaded and all(m.startswith("industry_env.games.age_of_industry") for m in loaded), loaded


def test_the_old_top_level_names_still_import() -> None:
    from industry_env.agents import AGENTS, HeuristicAgent, agents_of

    import industry_env

    assert industry_env.Board.__module__ == "industry_env.games.industry.components"
    assert AGENTS["heuristic"] is HeuristicAgent
    assert list(agents_of("age_of_industry")) == ["random", *load_game("age_of_industry").agents]


def test_an_environments_opponents_receive_the_games_options() -> None:
    """Age of Industry's agents were left to guess the map from the observation's width: the environments now
    hand every opponent the game's options."""
    from industry_env.envs.common import OpponentPool, Opponents

    options = load_game("age_of_industry").check_options({"map": "new_england"})
    seats = Opponents("heuristic", 3, 0, 2, game="age_of_industry", options=options)
    assert seats.members[0].options == {"map": "new_england"}
    pool = OpponentPool(["heuristic"], seed=0, game="age_of_industry", options=options)
    assert pool.agents[0].options == {"map": "new_england"}
    from industry_env.agents import make_agent

    germany = make_agent("heuristic", seed=0, game="age_of_industry", map="germany")
    with pytest.raises(ValueError, match="map = 'germany'"):  # an agent of another map is refused, naming both
        Opponents(germany, 3, 0, 2, game="age_of_industry", options=options)


def test_board_of_a_game_without_its_own_tool_prints_its_components(capsys, monkeypatch) -> None:
    """Every listed game has its own board tool now: a copy of 20th Century's spec without it stands for a game
    that has none."""
    import copy

    import industry_env.registry as registry
    from industry_env.cli import main

    spec = copy.copy(load_game("twentieth_century"))
    spec.tools = {k: v for k, v in spec.tools.items() if k != "board"}
    monkeypatch.setattr(registry, "load_game", lambda game, *a, **k: spec if game == spec.id else load_game(game))
    assert main(["board", "--game", "twentieth_century"]) == 0
    assert capsys.readouterr().out == spec.components_text()
    assert main(["board", "--game", "twentieth_century", "--template", "x.toml"]) == 2
    assert "--template: 20th Century has no data files to check or type in yet" in capsys.readouterr().err
