"""Every game with a batched engine, through every kind of environment: what leaves an env besides its observation.

- infos: numbers and numpy arrays only (replay buffers such as Tianshou's store them as arrays), over whole games,
  at their ends and after an illegal action;
- renders: a learner's env renders only what the learner's seat sees, a multi-agent env the public view by
  default (checked by drawing the hidden part again, :meth:`GameSpec.resample`: a view that changes with it leaks);
- copies: a running env deep-copies and pickles, and the copy plays on independently of the original.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import industry_env
from industry_env.envs.aec import raw_env
from industry_env.envs.common import GameSetup
from industry_env.envs.single import LearnerEnv
from industry_env.envs.vector import LearnerVectorEnv
from industry_env.registry import available_games, load_game
from industry_env.wrappers import SharedPolicyEnv

GAMES = [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None]
HIDDEN = [g for g in GAMES if load_game(g).hidden_information]


def numeric(value: Any) -> bool:
    """A number, a numpy number or numeric array, or a dict of them (Gymnasium's vector ``final_info``)."""
    if isinstance(value, dict):
        return all(numeric(v) for v in value.values())
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf"
    return isinstance(value, (bool, int, float, np.bool_, np.number))


def not_numeric(info: dict) -> dict:
    return {k: v for k, v in info.items() if not numeric(v)}


# ---------------------------------------------------------------------------------------------- drivers
class Driver:
    """One kind of environment, driven the same way: reset, a legal action for each of its games, step."""

    kind = ""

    def __init__(self, game: str, opponents: str = "random") -> None:
        self.game = game
        self.opponents = opponents  # of the learner envs
        self.env = self.make()

    def make(self) -> Any:
        raise NotImplementedError

    def reset(self, seed: int) -> None:
        raise NotImplementedError

    def legal(self) -> list[np.ndarray]:
        """The legal actions of each game of the env (one list for a single game)."""
        raise NotImplementedError

    def step(self, actions: list[int]) -> list[dict]:
        """Play one action per game; the infos given out (one dict per agent or game)."""
        raise NotImplementedError

    def seen(self) -> list[np.ndarray]:
        """What the env gives out as observations now."""
        raise NotImplementedError

    def over(self) -> bool:
        raise NotImplementedError


class AEC(Driver):
    kind = "aec"

    def make(self) -> Any:
        return industry_env.env(game=self.game, num_players=3)

    def reset(self, seed: int) -> list[dict]:
        self.env.reset(seed=seed)
        return list(self.env.infos.values())

    def legal(self) -> list[np.ndarray]:
        return [np.flatnonzero(self.env.observe(self.env.agent_selection)["action_mask"])]

    def step(self, actions: list[int]) -> list[dict]:
        self.env.step(int(actions[0]))
        return list(self.env.infos.values())

    def seen(self) -> list[np.ndarray]:
        return [self.env.observe(a)["observation"] for a in self.env.possible_agents]

    def over(self) -> bool:
        return all(self.env.terminations.values())


class AECInfoMask(AEC):
    kind = "aec-mask-in-info"

    def make(self) -> Any:
        return industry_env.env(game=self.game, action_mask="info")

    def legal(self) -> list[np.ndarray]:
        return [np.flatnonzero(self.env.infos[self.env.agent_selection]["action_mask"])]

    def seen(self) -> list[np.ndarray]:
        return [self.env.observe(a) for a in self.env.possible_agents]


class Single(Driver):
    kind = "gymnasium"

    def make(self) -> Any:
        return gymnasium.make(load_game(self.game).gym_id, opponents=self.opponents)

    def reset(self, seed: int) -> list[dict]:
        self.obs, info = self.env.reset(seed=seed)
        self.mask, self.done = info["action_mask"], False
        return [info]

    def legal(self) -> list[np.ndarray]:
        return [np.flatnonzero(self.mask)]

    def step(self, actions: list[int]) -> list[dict]:
        self.obs, _, self.done, _, info = self.env.step(int(actions[0]))
        self.mask = info["action_mask"]
        return [info]

    def seen(self) -> list[np.ndarray]:
        return [self.obs]

    def over(self) -> bool:
        return self.done


class Vector(Driver):
    kind = "vector"
    mode = "next_step"

    def make(self) -> Any:
        return LearnerVectorEnv(3, game=self.game, opponents=self.opponents, autoreset_mode=self.mode)

    def reset(self, seed: int) -> list[dict]:
        self.obs, info = self.env.reset(seed=seed)
        self.mask, self.ended = info["action_mask"], np.zeros(3, bool)
        return [info]

    def legal(self) -> list[np.ndarray]:
        return [np.flatnonzero(m) for m in self.mask]

    def step(self, actions: list[int]) -> list[dict]:
        self.obs, _, terminated, _, info = self.env.step(np.array(actions, np.int64))
        self.mask, self.ended = info["action_mask"], self.ended | terminated
        return [info]

    def seen(self) -> list[np.ndarray]:
        return [self.obs]

    def over(self) -> bool:
        return bool(self.ended.all())


class VectorSameStep(Vector):
    kind = "vector-same-step"
    mode = "same_step"


class SB3(Driver):
    kind = "sb3"

    def make(self) -> Any:
        sb3 = pytest.importorskip("industry_env.sb3", exc_type=ImportError)  # its ImportError names the extra
        return sb3.make_vec_env(3, game=self.game, opponents=self.opponents)  # in its VecMonitor, as by default

    def reset(self, seed: int) -> list[dict]:
        self.env.seed(seed)
        self.obs, self.ended = self.env.reset(), np.zeros(3, bool)
        return list(self.env.reset_infos)

    def legal(self) -> list[np.ndarray]:
        return [np.flatnonzero(m) for m in self.env.env_method("action_masks")]

    def step(self, actions: list[int]) -> list[dict]:
        self.obs, _, dones, infos = self.env.step(np.array(actions, np.int64))
        self.ended |= dones
        return list(infos)

    def seen(self) -> list[np.ndarray]:
        return [self.obs]

    def over(self) -> bool:
        return bool(self.ended.all())


class Shared(Single):
    kind = "shared-policy"

    def make(self) -> Any:
        return SharedPolicyEnv(industry_env.env(game=self.game), opponent=self.opponents)


class RLlib(Driver):
    kind = "rllib"

    def make(self) -> Any:
        pytest.importorskip("ray.rllib")
        from industry_env.rllib import make_env

        return make_env({"game": self.game})

    def reset(self, seed: int) -> list[dict]:
        self.obs, infos = self.env.reset(seed=seed)
        self.done = False
        return list(infos.values())

    def legal(self) -> list[np.ndarray]:
        ((_, view),) = self.obs.items()
        return [np.flatnonzero(view["action_mask"])]

    def step(self, actions: list[int]) -> list[dict]:
        ((agent, _),) = self.obs.items()
        self.obs, _, terms, _, infos = self.env.step({agent: int(actions[0])})
        self.done = terms["__all__"]
        return list(infos.values())

    def seen(self) -> list[np.ndarray]:
        return [v["observations"] for v in self.obs.values()]

    def over(self) -> bool:
        return self.done


DRIVERS: list[type[Driver]] = [AEC, AECInfoMask, Single, Vector, VectorSameStep, SB3, Shared, RLlib]
# One driver per env class: AECInfoMask makes the same class as AEC (``raw_env``, the mask put in the infos) and
# VectorSameStep the same as Vector (``LearnerVectorEnv``, another autoreset mode). An option changes what an env
# gives out, which the infos test follows through every driver; it does not change how the object copies and
# pickles, so the copies test runs once per class.
ENV_CLASSES: list[type[Driver]] = [d for d in DRIVERS if d not in (AECInfoMask, VectorSameStep)]


def play(driver: Driver, rng: np.random.Generator, moves: int, check: Callable[[list[dict]], None]) -> None:
    """``moves`` random legal moves (or until every game has ended), ``check`` on every step's infos."""
    for _ in range(moves):
        if driver.over():
            return
        check(driver.step([int(rng.choice(a)) if a.size else 0 for a in driver.legal()]))


# ---------------------------------------------------------------------------------------------- infos
@pytest.mark.parametrize("kind", DRIVERS, ids=lambda d: d.kind)
@pytest.mark.parametrize("game", GAMES)
def test_every_info_value_of_every_env_is_numeric_through_whole_games(game: str, kind: type[Driver]) -> None:
    driver = kind(game)
    rng = np.random.default_rng(0)
    keys: set[str] = set()

    def check(infos: list[dict]) -> None:
        for info in infos:
            assert not not_numeric(info), f"{kind.kind}: info values that are not numeric: {not_numeric(info)}"
            keys.update(info)

    check(driver.reset(seed=1))
    play(driver, rng, 5000, check)
    assert driver.over()
    assert keys & {"scores", "final_info"}  # the end of a game was seen, with its infos


@pytest.mark.parametrize("game", GAMES)
def test_the_aec_env_ends_with_a_flag_per_seat_for_the_winners(game: str) -> None:
    env = raw_env(game=game, num_players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    reference = env.game()
    for k, agent in enumerate(env.possible_agents):
        info = env.infos[agent]
        assert info["winners"].dtype == bool and np.flatnonzero(info["winners"]).tolist() == reference.winners()
        assert info["scores"].tolist() == reference.scores() and info["score"] == reference.scores()[k]
        assert info["win"] == (k in reference.winners())


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_gives_numeric_infos_too(game: str) -> None:
    pytest.importorskip("ray.rllib")
    from industry_env.rllib import make_env

    env = make_env({"game": game})
    for seed in range(1, 50):  # a first position with an illegal action (every action of Nim's may be legal)
        obs, _ = env.reset(seed=seed)
        ((agent, view),) = obs.items()
        if not view["action_mask"].all():
            break
    _, _, _, _, infos = env.step({agent: int(np.flatnonzero(view["action_mask"] == 0)[0])})
    flags = infos[agent]["illegal_action"]
    assert flags.dtype == bool and np.flatnonzero(flags).tolist() == [env.possible_agents.index(agent)]
    assert all(not not_numeric(i) for i in infos.values())


# ---------------------------------------------------------------------------------------------- renders
def resampled(spec: Any, game: Any, seat: int, count: int = 3) -> list[Any]:
    """Positions ``seat`` cannot tell from ``game``: its hidden part drawn again."""
    return [spec.resample(game, seat, np.random.default_rng(k)) for k in range(count)]


def midgame(game: str, moves: int = 12, seed: int = 4) -> tuple[Any, Any]:
    """An AEC env (ansi) a few random moves in, and its reference game."""
    env = raw_env(game=game, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    return env, env.game()


@pytest.mark.parametrize("game", HIDDEN)
def test_a_view_changes_with_nothing_its_seat_cannot_see_and_the_full_view_does(game: str) -> None:
    spec = load_game(game)
    env, position = midgame(game)
    setup = env.setup
    public = env.render()
    assert env.render(view="public") == public
    for seat in range(env.num_players):
        others = resampled(spec, position, seat)
        assert all(setup.render_text(g, "public") == public for g in others)
        mine = env.render(view=seat)
        assert env.render(view=f"player_{seat}") == mine
        assert (mine != public) == spec.private_information  # a seat's own secrets, where it holds some
        assert all(setup.render_text(g, seat) == mine for g in others)
    # the full view shows what the others cannot see: it changes with the hands drawn again (the test can fail)
    full = env.render(view="full")
    assert any(setup.render_text(g, "full") != full for g in resampled(spec, position, 0, 8))
    with pytest.raises(ValueError, match="render_view=7"):
        raw_env(game=game, render_view=7)


@pytest.mark.parametrize("game", HIDDEN)
def test_learner_envs_render_the_learners_view_and_multi_agent_envs_the_public_one(game: str) -> None:
    spec = load_game(game)
    single = LearnerEnv(game=game, render_mode="ansi", learner_seat=2, opponents="random")
    single.reset(seed=5)
    position = single.game()
    views = {GameSetup(game, None, {}).render_text(g, 2) for g in [position, *resampled(spec, position, 2)]}
    assert views == {single.render()}

    vec = LearnerVectorEnv(2, game=game, render_mode="ansi", learner_seat=1, opponents="random")
    vec.reset(seed=5)
    position = spec.engine.to_game(vec.games.state, 0)
    views = {vec.setup.render_text(g, 1) for g in [position, *resampled(spec, position, 1)]}
    assert views == {vec.render()}

    shared = SharedPolicyEnv(industry_env.env(game=game, render_mode="ansi"), seat=3)
    shared.reset(seed=5)
    position = shared.aec.unwrapped.game()
    views = {shared.aec.unwrapped.setup.render_text(g, 3) for g in [position, *resampled(spec, position, 3)]}
    assert views == {shared.render()}

    aec = industry_env.env(game=game, render_mode="ansi")
    aec.reset(seed=5)
    position = aec.unwrapped.game()
    public = aec.render()
    assert all(aec.unwrapped.setup.render_text(g, "public") == public for g in resampled(spec, position, 0))
    assert public != aec.unwrapped.render(view="full")


@pytest.mark.parametrize("game", HIDDEN)
def test_the_rllib_env_renders_the_public_view_unless_told(game: str) -> None:
    pytest.importorskip("ray.rllib")
    from industry_env.rllib import make_env

    env = make_env({"game": game})
    env.reset(seed=6)
    spec, position = load_game(game), env.game_env.game()
    assert {env.setup.render_text(g, "public") for g in [position, *resampled(spec, position, 1)]} == {env.render()}
    seat = make_env({"game": game, "render_view": "player_1"})
    seat.reset(seed=6)
    assert seat.render() == env.setup.render_text(position, 1)
    assert (seat.render() != env.render()) == spec.private_information


@pytest.mark.parametrize("game", [g for g in HIDDEN if load_game(g).has_pictures])
def test_pictures_of_a_learner_show_only_what_its_seat_sees(game: str) -> None:
    pytest.importorskip("matplotlib")
    spec = load_game(game)
    env = LearnerEnv(game=game, render_mode="rgb_array", learner_seat=0, opponents="random")
    env.reset(seed=7)
    picture, position = env.render(), env.game()
    assert all(np.array_equal(spec.to_rgb_array(same_seed(g, position), seat=0), picture)
               for g in resampled(spec, position, 0, 2))  # fmt: skip
    aec = raw_env(game=game, render_mode="rgb_array")
    aec.reset(seed=7)
    public, position = aec.render(), aec.game()
    assert all(np.array_equal(spec.to_rgb_array(same_seed(g, position)), public)
               for g in resampled(spec, position, 1, 2))  # fmt: skip


def same_seed(game: Any, like: Any) -> Any:
    """``game`` with ``like``'s seed: the seed printed in a picture's title is the pictures' own matter (issue 28
    asks for it to go); these tests look at the hands."""
    holder, source = (game.s, like.s) if hasattr(game, "s") else (game, like)  # a State's fields, or the game's
    holder.seed = source.seed
    return game


# ---------------------------------------------------------------------------------------------- copies
def fingerprint(driver: Driver) -> list[bytes]:
    return [np.ascontiguousarray(o).tobytes() for o in driver.seen()]


@pytest.mark.parametrize("kind", ENV_CLASSES, ids=lambda d: d.kind)
@pytest.mark.parametrize("game", GAMES)
def test_a_running_env_copies_and_pickles_and_the_copy_plays_on_independently(game: str, kind: type[Driver]) -> None:
    # an agent with a state of its own (its generator) copied too: the game's heuristic, where it has one
    driver = kind(game, opponents="heuristic" if "heuristic" in load_game(game).agents else "random")
    driver.reset(seed=3)
    rng = np.random.default_rng(3)
    play(driver, rng, 6, lambda infos: None)
    for duplicate in (copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
        twin = copy.copy(driver)
        twin.__dict__ = copy.deepcopy({k: v for k, v in driver.__dict__.items() if k != "env"})
        twin.env = duplicate(driver.env)
        assert fingerprint(twin) == fingerprint(driver)
        # the same moves on both: the same observations all along
        for _ in range(5):
            if driver.over():
                break
            actions = [int(a[0]) if a.size else 0 for a in driver.legal()]
            assert [a.tolist() for a in twin.legal()] == [a.tolist() for a in driver.legal()]
            driver.step(actions)
            twin.step(actions)
            assert fingerprint(twin) == fingerprint(driver)
        # other moves on the copy: the original does not change
        before = fingerprint(driver)
        for _ in range(5):
            if twin.over():
                break
            twin.step([int(a[-1]) if a.size else 0 for a in twin.legal()])
        assert fingerprint(driver) == before
        assert fingerprint(twin) != before or twin.over()


@pytest.mark.parametrize("game", [g for g in HIDDEN if load_game(g).has_pictures])
def test_the_human_mode_shows_the_learners_view_and_the_aec_env_the_public_one(game: str, monkeypatch) -> None:
    spec, shown = load_game(game), []
    monkeypatch.setattr(spec, "show", lambda position, seat=None: shown.append(seat))  # no window in a test
    env = LearnerEnv(game=game, render_mode="human", learner_seat=1, opponents="random")
    env.reset(seed=8)
    env.render()
    aec = raw_env(game=game, render_mode="human")
    aec.reset(seed=8)
    aec.render()
    assert shown == [1, None]  # the pictures' seat None is the public view
