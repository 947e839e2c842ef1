"""Age of Industry's declaration to the suite (:data:`SPEC`): what ``industry_env.load_game("age_of_industry")``
returns.

Martin Wallace's *Age of Industry* (Treefrog Games 2010, second edition): 3 to 5 players, hidden hands of cards
(agents see observations; search players draw positions with ``resample``), options ``map`` (``"germany"`` or
``"new_england"``) and ``edition`` (2, or 1 for the first edition's differences).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...core.spec import GameSpec, Option, Piece, ReferenceGame, layout
from .actions import action_to_string, num_actions, string_to_action
from .components import MAPS, GameMap, load_components, load_map
from .observation import layout as observation_pieces
from .rules import ACTIONS_PER_TURN, MAX_PLAYERS, MIN_PLAYERS, RAILS_PER_PLAYER

# Pieces of the observation that are one-hot codes or flags (within [0, 1]); the others are counts, >= 0, whose
# largest value no rule fixes (money and loans are unlimited: docs/age-of-industry/rules.md), left unbounded.
FLAGS = frozenset({
    "num_players", "first_edition", "first_round", "phase", "to_move", "seat_present", "turn_position",
    "turn_done", "face_up", "space_owner", "space_industry", "space_flipped", "space_no_flip", "space_tile",
    "link_owner", "link_completed", "card", "combined", "build_space", "build_industry", "rail_link", "sell_from",
    "rails_left",  # rails left / 12: at most the 12 each player starts with
    "actions_left",  # actions left in the turn / 2
})  # fmt: skip


def _check_map(value: Any) -> str:
    if not isinstance(value, str) or value not in MAPS:
        raise ValueError(f"must be one of {', '.join(MAPS)}")
    return value


def _check_edition(value: Any) -> int:
    if isinstance(value, bool) or value not in (1, 2):
        raise ValueError("must be 2 (the second edition) or 1 (the first edition's differences)")
    return int(value)


@lru_cache(maxsize=8)
def _map(name: str) -> GameMap:
    return load_map(name)


class AgeOfIndustrySpec(GameSpec):
    """Age of Industry (Martin Wallace): building industries and rail links on a map, hidden hands of cards."""

    id = "age_of_industry"
    name = "Age of Industry"
    version = 0
    citation = "Martin Wallace, Age of Industry (Treefrog Games 2010, second edition)"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    hidden_information = True
    options = (
        Option("map", "germany", "the map: 'germany' or 'new_england'", _check_map),
        Option("edition", 2, "2 (the second edition's rules) or 1 (the first edition's differences)", _check_edition),
    )
    engine_module = "industry_env.games.age_of_industry.engine"
    # MaskablePPO self-play, 4 players on Germany: train/ppo_age_of_industry.toml, docs/age-of-industry/agents.md
    shipped_policy = "industry_env.games.age_of_industry.data:ppo_age_of_industry.npz"
    reference_class = "industry_env.games.age_of_industry.reference:Game"
    agents = {
        "heuristic": "industry_env.agents.age_of_industry.heuristic:HeuristicAgent",
        "ismcts": "industry_env.agents.age_of_industry.ismcts:ISMCTSAgent",
        "ppo": "industry_env.agents.ppo:PPOAgent",
        "az": "industry_env.agents.az:AZAgent",
        "net": "industry_env.agents.az:NetAgent",
    }
    # its own command-line tools: `industry-env board --game age_of_industry` (components, maps, templates) and
    # `balance` (final points, loans unpaid and rail income of each policy, on both maps)
    tools = {"board": "industry_env.games.age_of_industry.board_tool",
             "balance": "industry_env.games.age_of_industry.balance"}
    observation_check = "industry_env.agents.age_of_industry.checks:check_game_observations"  # entry by entry
    play_table = "industry_env.games.age_of_industry.playtable:AgeOfIndustryTable"  # industry-env play
    web_view = "industry_env.games.age_of_industry.webview:AgeOfIndustryView"  # industry-env serve

    def num_actions(self, map: str = "germany", **options: Any) -> int:  # noqa: A002 (the option's name)
        return num_actions(_map(map))

    def observation_layout(self, map: str = "germany", **options: Any) -> tuple[Piece, ...]:  # noqa: A002
        return layout(observation_pieces(load_components(), _map(map)))

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        pieces = self.observation_layout(**options)
        size = pieces[-1].offset + pieces[-1].size
        low, high = np.zeros(size, np.float32), np.full(size, np.inf, np.float32)
        for p in pieces:
            if p.name in FLAGS:
                high[p.slice] = 1.0
        return low, high

    def max_game_length(self, num_players: int, **options: Any) -> int:
        # Every action but a rail, a sale and a free pass spends a card, and a draw takes one from the deck or the
        # face-up cards, which are never refilled from discards: at most C of each (C cards in the game). A
        # player lays at most 12 rails; each sale flips a counter some build placed (at most C); a free pass
        # (no card, empty deck) ends the game with its round: at most 2 per player. Each action asks at most 16
        # decisions (card, space, industry, a source per cube, the sales' buyers, a repaid loan at each) and each
        # round's turn order and interest ask none; the factor 2 covers the loans repaid between actions.
        n = self.check_num_players(num_players)
        cards = sum(load_components().CARD_COUNT)
        actions = 4 * cards + RAILS_PER_PLAYER * n + ACTIONS_PER_TURN * n
        return 2 * 16 * actions

    def variants(self) -> list[dict[str, Any]]:
        return [{"map": m, "edition": e} for e in (2, 1) for m in MAPS]

    def data_digests(self, **options: Any) -> dict[str, dict[str, str]]:
        checked = self.check_options(options)
        game_map = _map(checked["map"])
        components = load_components()
        return {"components": {"name": Path(components.path).name, "sha256": components.sha256},
                "map": {"name": Path(game_map.path).name, "sha256": game_map.sha256}}  # fmt: skip

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        s = game.s
        return int(s.num_players), int(s.seed), {"map": game.map.key, "edition": int(s.edition)}

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        from .reference import Game

        return Game.from_json(text, game_map=self.check_options(options)["map"] if "map" in options else None)

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        if game is not None:
            return game.action_to_string(action)
        return action_to_string(action, self.check_options(options)["map"])

    def string_to_action(self, text: str, game: ReferenceGame | None = None, **options: Any) -> int:
        if game is not None:
            return game.string_to_action(text)
        return string_to_action(text, self.check_options(options)["map"])

    def render_text(self, game: ReferenceGame, seat: int | None = None) -> str:
        """The position as text; with ``seat``, only what that seat may see (the other hands as card counts)."""
        from .render import render_text

        return render_text(game, seat)

    has_pictures = True

    def picture_key(self, game: ReferenceGame) -> Any:
        from .picture import picture_key

        return picture_key(game)  # counters, rails, cubes, money, cards on the table; not the steps of a decision

    def to_rgb_array(self, game: ReferenceGame, seat: int | None = None) -> np.ndarray:
        from .picture import to_rgb_array

        return to_rgb_array(game, seat)  # seat None: the public view; else that seat's own hand too

    def show(self, game: ReferenceGame, seat: int | None = None) -> None:
        from .picture import show

        show(game, seat)  # seat None: the public view, as to_rgb_array

    def doc_figures(self) -> list[Any]:
        from .docfigure import figures

        return figures()

    def gif_writer(self, path: Any, frame_ms: int = 400, last_ms: int = 3000, scale: float = 1.0) -> Any:
        from .picture import GifWriter

        return GifWriter(path, frame_ms=frame_ms, last_ms=last_ms, scale=scale)  # the players' colours kept

    def rules_text(self) -> str:
        from .texts import rules_text

        return rules_text()

    def components_text(self) -> str:
        from .texts import components_markdown

        return components_markdown()


SPEC = AgeOfIndustrySpec()
