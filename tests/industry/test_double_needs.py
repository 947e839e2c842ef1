"""A field that needs the same resource twice (``needs = ["Glass", "Glass"]``): the loader, the rule, every engine.

The rule (ruling 7, docs/industry/rules.md): each needed unit is paid separately, so two Glass are two payments, each
choosing its own way (a Joker token pays one unit; a Taler to the bank or to a producer pays one); a player's own
developed factory pays both. The rule clauses run on the reference engine with a copy of the frozen rules board
(``tests/industry/positions/board_rules.toml``) whose Brewery (2I: cost 2, 3 points) needs Glass twice; the same
positions are then replayed in both batched backends. The differential test plays random games on a copy of the
shipped board where fourteen fields need a resource twice and two more joker fields give Wood and Iron (so a player
can hold two jokers of one resource), and compares the reference, the numpy rules and the numba kernel step by step.
"""

from __future__ import annotations

import re
from importlib import resources

import numpy as np
import pytest

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine as E
from industry_env.games.industry.components import Board, parse_board
from industry_env.games.industry.observation import observe_game
from industry_env.games.industry.reference import Game, IllegalActionError
from industry_env.games.industry.texts import board_markdown

from .helpers import BOARD, BOARD_TEXT, F, R, hand, legal_names, play, position

try:
    import numba  # noqa: F401

    BACKENDS = ("numpy", "numba")
except ImportError:  # the compiled backend is optional
    BACKENDS = ("numpy",)


def edit_fields(text: str, changes: dict[str, str]) -> str:
    """``text`` (a board file) with one line set per field: ``{"2I": 'needs = ["Glass", "Glass"]'}``.

    The line replaces the field's line of the same key (or is added after its id), whatever value it had.
    """
    for fid, line in changes.items():
        key = line.split("=")[0].strip()
        m = re.search(rf'\[\[field\]\]\nid = "{fid}"\n(.*?)(?=\n\[\[|\Z)', text, re.S)
        assert m, fid
        body = [x for x in m.group(1).split("\n") if not x.startswith(f"{key} =")]
        text = text[: m.start(1)] + "\n".join([line, *body]) + text[m.end(1) :]
    return text


# The rules board with the Brewery (2I) needing Glass twice.
GLASS2 = parse_board(edit_fields(BOARD_TEXT, {"2I": 'needs = ["Glass", "Glass"]'}), "brewery_glass_x2.toml")

# The shipped board with doubled needs on factories, technologies and bonus fields of every era, and two more
# jokers of a kind (2A gives Wood, 3B gives Iron) so that two jokers can pay both units of one field.
DOUBLED = {
    "1G": "Wood", "1H": "Stone", "1K": "Stone", "1L": "Wood", "2C": "Wood", "2I": "Glass", "2J": "Iron",
    "2K": "Iron", "3C": "Iron", "3I": "Iron", "4G": "Steel", "4K": "Cable", "5G": "Computers", "5L": "Plastic",
}  # fmt: skip


def doubled_board() -> Board:
    """The shipped board with the fields of ``DOUBLED`` needing their resource twice."""
    text = resources.files("industry_env.games.industry.data").joinpath("board.toml").read_text(encoding="utf-8")
    changes = {fid: f'needs = ["{r}", "{r}"]' for fid, r in DOUBLED.items()}
    changes |= {"2A": 'joker = "Wood"', "3B": 'joker = "Iron"'}
    return parse_board(edit_fields(text, changes), "doubled_needs.toml")


# ---------------------------------------------------------------- the loader and the pictures
def test_loader_reads_a_doubled_need_as_two_units_in_order():
    b = doubled_board()
    for fid, name in DOUBLED.items():
        r = b.resource_names.index(name)
        assert b.NEEDS[F(fid)].tolist() == [r, r], fid
        assert np.flatnonzero(b.NEEDS_MASK[F(fid)]).tolist() == [r], fid
        assert b.need_labels(F(fid)) == [f"{name} x2"]
    assert b.JOKER_KIND[F("2A")] == b.JOKER_KIND[F("1A")] == b.resource_names.index("Wood")


def test_board_table_shows_a_doubled_need_once_with_its_count():
    md = board_markdown(GLASS2)
    (row,) = [line for line in md.splitlines() if line.startswith("| 2I ")]
    assert "| Glass x2 |" in row
    assert "| Iron, Stone |" in [line for line in md.splitlines() if line.startswith("| 2K ")][0]


def test_picture_writes_a_doubled_need_with_its_count():
    picture = pytest.importorskip("industry_env.games.industry.picture")
    pytest.importorskip("matplotlib")
    import xml.etree.ElementTree as ET

    root = ET.fromstring(picture.to_svg(Game(4, seed=0, board=GLASS2)))
    text = " ".join(" ".join(" ".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")).split())
    assert "needs Glass x2" in text and "needs Iron + Stone" in text


# ---------------------------------------------------------------- the rule, on the reference engine
def _brewery(**kw) -> Game:
    """Era 2, player 0's development turn; he owns the undeveloped Brewery 2I (cost 2, needs Glass twice)."""
    owned = {"2I": 0} | kw.pop("owned", {})
    jokers = [hand(kw.pop("hand", {}))] + [hand({})] * 3
    return position(4, board=GLASS2, developer=0, starting_player=0, past_owner=3, owned=owned, jokers=jokers,
                    **{"era": 1, "phase": "develop", **kw})  # fmt: skip


def test_own_factory_pays_both_units():
    # "You have an already developed Factory that produces the required resource. In this case the resource is
    # automatically regarded as being paid": his Glassworks pays both Glass; he pays only the construction cost.
    g = _brewery(owned={"2G": (0, True)}, money=[5, 5, 5, 5])
    play(g, "develop 2I")
    assert g.phase == "develop" and g.s.developed[F("2I")]
    assert g.s.money == [3, 5, 5, 5] and g.s.points[0] == 3


def test_each_unit_is_one_payment_and_a_joker_pays_one():
    # A Glass joker and Talers; player 2's Glassworks makes Glass. Two payments: the joker pays one, then the
    # joker is gone and only player 2 can sell the second.
    g = _brewery(owned={"2G": (2, True)}, money=[5, 5, 5, 5], hand={"Glass": 1})
    play(g, "develop 2I")
    assert g.phase == "pay" and g.s.pending == [R("Glass"), R("Glass")]
    assert legal_names(g) == ["pay Glass: joker", "pay Glass: player 2", "subsidy"]
    play(g, "pay Glass: joker")
    assert g.s.pending == [R("Glass")] and g.s.jokers[0][R("Glass")] == 0
    assert legal_names(g) == ["pay Glass: player 2", "subsidy"]
    with pytest.raises(IllegalActionError):
        play(g, "pay Glass: joker")
    play(g, "pay Glass: player 2")
    assert g.s.developed[F("2I")] and g.s.money == [2, 5, 6, 5] and g.s.points[0] == 3


def test_both_units_bought_from_the_producer_cost_two_talers():
    g = _brewery(owned={"2G": (2, True)}, money=[4, 5, 5, 5])
    play(g, "develop 2I", "pay Glass: player 2", "pay Glass: player 2")
    assert g.s.developed[F("2I")] and g.s.money == [0, 5, 7, 5]
    # one Taler short of the second Glass: he may not develop at all
    assert legal_names(_brewery(owned={"2G": (2, True)}, money=[3, 5, 5, 5])) == ["done", "subsidy"]


def test_one_joker_cannot_pay_two_units():
    # Era 2: nobody makes Glass and the bank sells it only from era 3; a single Glass joker is not enough.
    assert legal_names(_brewery(money=[5, 5, 5, 5], hand={"Glass": 1})) == ["done", "subsidy"]
    # two Glass jokers pay both
    g = _brewery(money=[2, 5, 5, 5], hand={"Glass": 2})
    play(g, "develop 2I", "pay Glass: joker", "pay Glass: joker")
    assert g.s.developed[F("2I")] and g.s.jokers[0][R("Glass")] == 0 and g.s.money[0] == 0
    # a Glass joker and the "?" joker pay one each, in either order
    for first, second in (("joker", "? joker"), ("? joker", "joker")):
        g = _brewery(money=[2, 5, 5, 5], hand={"Glass": 1, "?": 1})
        play(g, "develop 2I")
        assert legal_names(g) == ["pay Glass: joker", "pay Glass: ? joker", "subsidy"]
        play(g, f"pay Glass: {first}")
        assert legal_names(g) == [f"pay Glass: {second}", "subsidy"]
        play(g, f"pay Glass: {second}")
        assert g.s.developed[F("2I")] and sum(g.s.jokers[0]) == 0


def test_bank_sells_each_unit_for_a_taler():
    # Era 3: nobody makes Glass, the bank sells it. Cost 2 + 2 Glass = 4 Talers; 3 Talers and a "?" joker also do.
    g = _brewery(era=2, money=[4, 5, 5, 5])
    play(g, "develop 2I", "pay Glass: bank")
    assert legal_names(g) == ["pay Glass: bank", "subsidy"]
    play(g, "pay Glass: bank")
    assert g.s.developed[F("2I")] and g.s.money[0] == 0 and g.s.points[0] == 0  # not in its own era: no points
    assert legal_names(_brewery(era=2, money=[3, 5, 5, 5])) == ["done", "subsidy"]
    g = _brewery(era=2, money=[3, 5, 5, 5], hand={"?": 1})
    play(g, "develop 2I")
    # the "?" joker first leaves a Taler for the bank; the bank first leaves the "?" joker
    assert legal_names(g) == ["pay Glass: ? joker", "pay Glass: bank", "subsidy"]


def _pay_position(**kw) -> Game:
    """A saved game in the middle of paying the Brewery: both Glass still pending."""
    return _brewery(phase="pay", developing=F("2I"), pending=[R("Glass")] * 2, **kw)


def test_saved_game_may_owe_a_resource_twice_but_not_three_times():
    g = _pay_position(money=[5, 5, 5, 5], hand={"Glass": 1, "?": 1})
    assert legal_names(g) == ["pay Glass: joker", "pay Glass: ? joker", "subsidy"]
    from industry_env.games.industry.reference import GameStateError

    with pytest.raises(GameStateError, match="pending"):
        _brewery(phase="pay", developing=F("2I"), pending=[R("Glass")] * 3, money=[5, 5, 5, 5])
    with pytest.raises(GameStateError, match="pending"):
        _brewery(phase="pay", developing=F("2K"), owned={"2K": 0}, pending=[R("Iron")] * 2, money=[5, 5, 5, 5])


# ---------------------------------------------------------------- the batched engines on the same positions
RULE_POSITIONS = [
    # (position, actions played from it)
    (lambda: _brewery(owned={"2G": (0, True)}, money=[5, 5, 5, 5]), ["develop 2I"]),
    (lambda: _brewery(owned={"2G": (2, True)}, money=[5, 5, 5, 5], hand={"Glass": 1}),
     ["develop 2I", "pay Glass: joker", "pay Glass: player 2"]),
    (lambda: _brewery(owned={"2G": (2, True)}, money=[3, 5, 5, 5]), []),
    (lambda: _brewery(money=[5, 5, 5, 5], hand={"Glass": 1}), []),
    (lambda: _brewery(money=[2, 5, 5, 5], hand={"Glass": 2}), ["develop 2I", "pay Glass: joker", "pay Glass: joker"]),
    (lambda: _brewery(money=[2, 5, 5, 5], hand={"Glass": 1, "?": 1}), ["develop 2I", "pay Glass: ? joker"]),
    (lambda: _brewery(era=2, money=[3, 5, 5, 5], hand={"?": 1}), ["develop 2I", "pay Glass: bank"]),
    (lambda: _brewery(era=2, money=[3, 5, 5, 5]), []),
    # owing two Glass with one Glass joker and nothing else: the joker may not pay the first (none is legal)
    (lambda: _pay_position(money=[0, 5, 5, 5], hand={"Glass": 1}), []),
    (lambda: _pay_position(money=[1, 5, 5, 5], hand={"Glass": 1}, era=2), ["pay Glass: joker", "pay Glass: bank"]),
]  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", range(len(RULE_POSITIONS)))
def test_batched_engine_plays_the_rule_positions_like_the_reference(backend: str, case: int):
    make, actions = RULE_POSITIONS[case]
    g = make()
    with E.use_backend(backend):
        s = E.from_games([g])
        for name in [*actions, None]:
            assert E.legal_action_mask(s)[0].tolist() == g.legal_action_mask().tolist(), (case, name)
            if name is None:
                break
            play(g, name)
            s = E.step(s, [A.string_to_action(name, g.board.resource_names)])
        assert E.to_game(s, 0).to_json() == g.to_json()


# ---------------------------------------------------------------- random games in every engine
def _weights() -> np.ndarray:
    """Favour developing and low bids, so that payments (the point of this test) come often: the "developer" that
    ``industry-env verify`` plays too."""
    from industry_env.registry import load_game

    return load_game("industry").exploration_weights()


def _first_difference(a: np.ndarray, b: np.ndarray, rows: np.ndarray) -> int:
    """The first of ``rows`` where ``a`` and ``b`` differ (-1: none); rows of many games compared at once."""
    bad = rows[(a[rows] != b[rows]).reshape(rows.size, -1).any(axis=1)]
    return int(bad[0]) if bad.size else -1


def test_reference_and_both_backends_agree_step_by_step_on_a_board_with_doubled_needs():
    """100 games (``make slow``: 3,000 more): at every step the mask, the player to move, one seat's observation,
    rewards and terminal flags; at the end the scores and the whole position. Counts show the doubled needs were
    really paid every way."""
    seen = _agree(100, 7_000)
    assert min(seen.values()) >= 10, seen


@pytest.mark.slow
def test_reference_and_both_backends_agree_on_doubled_needs_long():
    for first in range(100_000, 103_000, 1_000):
        _agree(1_000, first)


def _agree(num: int, first_seed: int) -> dict[str, int]:
    """Play ``num`` games (seeds ``first_seed + i``) on the doubled board in every engine, asserting agreement
    at every step; return how often the doubled needs were developed and paid each way."""
    board = doubled_board()
    i = np.arange(num)
    seeds, players, balanced = first_seed + i, np.where(i % 2 == 0, 3, 4), (i // 2) % 2 == 0
    policy = (i // 4) % 2  # 0: uniform legal actions, 1: the developing weights
    games = [Game(int(n), seed=int(sd), board=board, balanced_draws=bool(bl))
             for n, sd, bl in zip(players, seeds, balanced, strict=True)]  # fmt: skip
    states = {}
    for name in BACKENDS:
        with E.use_backend(name):
            states[name] = E.init(num, num_players=players, seed=seeds, board=board, balanced_draws=balanced)
    twice = (board.NEEDS[:, 0] == board.NEEDS[:, 1]) & (board.NEEDS[:, 0] >= 0)
    seen = {"developed twice-needing": 0, "free by own factory": 0, "first unit by joker": 0,
            "second unit by joker": 0, "a unit by ? joker": 0, "a unit by Taler": 0}  # fmt: skip
    rng = np.random.default_rng(first_seed)
    w = _weights()
    ref_mask = np.zeros((num, A.NUM_ACTIONS), bool)
    ref_obs = np.zeros((num, E.observe(states[BACKENDS[0]]).shape[1]), np.float32)
    ref_player = np.full(num, -1)
    t = 0
    while not all(g.is_over for g in games):
        live = np.array([k for k in range(num) if not games[k].is_over])
        seat = t % players
        for k in live:
            ref_mask[k] = games[k].legal_action_mask()
            ref_obs[k] = observe_game(games[k], int(seat[k]))
            ref_player[k] = games[k].current_player
        for name, s in states.items():
            with E.use_backend(name):
                got = {"player": s.current_player, "mask": E.legal_action_mask(s), "obs": E.observe(s, seat)}
            for what, want in (("player", ref_player), ("mask", ref_mask), ("obs", ref_obs)):
                k = _first_difference(got[what], want, live)
                assert k < 0, f"{name}: {what} differs from the reference, seed {seeds[k]}, step {t}"
        wt = ref_mask * np.where(policy[:, None] == 1, w[None, :], 1.0)
        cs = np.cumsum(wt, axis=1)
        actions = np.argmax(cs > (rng.random(num) * cs[:, -1])[:, None], axis=1)
        for k in live:
            g, a = games[k], int(actions[k])
            if g.phase == "develop" and A.DEVELOP <= a < A.DONE and twice[a - A.DEVELOP]:
                seen["developed twice-needing"] += 1
                seen["free by own factory"] += g._produces(g.current_player, int(board.NEEDS[a - A.DEVELOP, 0]))
            if g.phase == "pay" and twice[g.s.developing] and a != A.SUBSIDY:
                way = (a - A.PAY) % A.NUM_PAY_WAYS
                unit = "first" if len(g.s.pending) == 2 else "second"
                seen[f"{unit} unit by joker"] += way == A.PAY_JOKER
                seen["a unit by ? joker"] += way == A.PAY_WILD
                seen["a unit by Taler"] += way >= A.PAY_BANK
            g.apply(a)
        want_over = np.array([g.is_over for g in games])
        want_rewards = np.zeros((num, 4), np.float32)
        for k in live:
            want_rewards[k, : games[k].num_players] = games[k].returns()
        for name in states:
            with E.use_backend(name):
                s = states[name] = E.step(states[name], actions)
            assert _first_difference(s.terminated, want_over, live) < 0, (name, t)
            assert _first_difference(s.rewards, want_rewards, live) < 0, (name, t)
        t += 1
    for name, s in states.items():
        with E.use_backend(name):
            scores = E.scores(s)
            for k, g in enumerate(games):
                assert scores[k, : g.num_players].tolist() == g.scores(), (name, k)
                assert E.to_game(s, k).to_json() == g.to_json(), (name, k)
    return seen


# ---------------------------------------------------------------- agents value and pay a doubled need
def test_agents_count_a_doubled_need_as_two_units():
    from industry_env.agents.industry.heuristic import field_values
    from industry_env.agents.industry.heuristic_v0 import ReferenceHeuristicV0
    from industry_env.agents.industry.strong_heuristic import StrongParams, assessment

    # player 0 makes no Glass, player 2 does (the same position on the rules board and on its Glass x2 copy)
    def state(board):
        g = position(4, board=board, era=1, phase="develop", developer=0, starting_player=0, past_owner=3,
                     owned={"2I": 0, "2G": (2, True)}, money=[5, 5, 5, 5])  # fmt: skip
        return g, E.from_games([g])

    (g1, s1), (g2, s2) = state(BOARD), state(GLASS2)
    f = F("2I")
    for p, extra in ((0, 1.0), (2, 0.0)):  # a Taler more for the second Glass, nothing for its maker
        v1, v2 = field_values(s1, np.array([p]))[0], field_values(s2, np.array([p]))[0]
        assert v1[f] - v2[f] == extra
        assert ReferenceHeuristicV0(0).value(g1, p, f) - ReferenceHeuristicV0(0).value(g2, p, f) == extra
        d1, d2 = assessment(s1, StrongParams()).devcost[0, p, f], assessment(s2, StrongParams()).devcost[0, p, f]
        assert d2 - d1 == extra


def test_strong_heuristic_sees_a_single_joker_short_of_a_doubled_need():
    # Era 2, nobody makes Glass, the bank does not sell it: the Brewery's 3 points count in full with two Glass
    # jokers, at the UNOBTAINABLE share with one.
    from industry_env.agents.industry.strong_heuristic import UNOBTAINABLE, StrongParams, assessment

    def now(jokers: int) -> float:
        g = _brewery(money=[5, 5, 5, 5], hand={"Glass": jokers})
        return float(assessment(E.from_games([g]), StrongParams()).now[0, 0, F("2I")])

    assert (now(1), now(2)) == (3 * UNOBTAINABLE, 3.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_agents_play_legal_games_on_a_board_with_doubled_needs(backend: str):
    """Heuristic v0 (batched, and its readable twin on every 7th position) and the strong heuristic play 24 games
    to the end on the doubled board; every action they choose is legal."""
    from industry_env.agents.industry.heuristic import heuristic_actions
    from industry_env.agents.industry.heuristic_v0 import ReferenceHeuristicV0
    from industry_env.agents.industry.strong_heuristic import strong_actions

    board = doubled_board()
    with E.use_backend(backend):
        s = E.init(24, num_players=np.where(np.arange(24) % 2 == 0, 3, 4), seed=500, board=board)
        twin, t = ReferenceHeuristicV0(3), 0
        while not s.terminated.all():
            live = np.flatnonzero(~s.terminated)
            sub = E.take(s, live)
            mask = E.legal_action_mask(sub)
            v0 = heuristic_actions(sub, 3, mask)
            strong = strong_actions(sub, 3, mask)
            for k in range(0, live.size, 7) if t % 7 == 0 else ():
                assert twin.act(E.to_game(sub, k)) == v0[k]
            assert mask[np.arange(live.size), v0].all() and mask[np.arange(live.size), strong].all()
            actions = np.zeros(s.batch_size, np.int64)
            actions[live] = np.where(live % 2 == 0, v0, strong)
            s = E.step(s, actions)
            t += 1
    assert (E.scores(s) > 0).any(axis=1).all()


@pytest.mark.skipif("numba" not in BACKENDS, reason="the compiled strong heuristic needs numba")
def test_compiled_strong_heuristic_chooses_as_the_numpy_form_on_a_board_with_doubled_needs():
    """The numba twin reads the needs as counts too: the same action in every position of 16 games (a third of
    the moves random, so that many positions are reached)."""
    from industry_env.agents.industry.strong_heuristic import strong_actions

    with E.use_backend("numba"):
        s = E.init(16, num_players=np.where(np.arange(16) % 2 == 0, 3, 4), seed=900, board=doubled_board())
        rng, positions = np.random.default_rng(0), 0
        while not s.terminated.all():
            live = np.flatnonzero(~s.terminated)
            sub = E.take(s, live)
            mask = E.legal_action_mask(sub)
            slow = strong_actions(sub, 5, mask, compiled=False)
            np.testing.assert_array_equal(strong_actions(sub, 5, mask, compiled=True), slow)
            positions += live.size
            actions = np.zeros(s.batch_size, np.int64)
            actions[live] = np.where(rng.random(live.size) < 0.3, E.sample_legal(mask, rng), slow)
            s = E.step(s, actions)
    assert positions > 5000
