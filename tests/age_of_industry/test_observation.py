"""Hidden information: each seat sees its own hand and everything public, never another hand or the deck's order;
resampling redeals exactly what the seat cannot know."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from industry_env.games.age_of_industry import Game, load_components, load_map
from industry_env.games.age_of_industry.measuring import random_player
from industry_env.games.age_of_industry.observation import layout, observation_size, views


def midgame(n: int, seed: int, game_map: str = "germany", steps: int = 60) -> Game:
    g = Game(n, seed, game_map)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(random_player(g, rng))
    return g


@pytest.mark.parametrize("name", ["germany", "new_england"])
def test_observation_size_depends_only_on_the_map(name):
    m = load_map(name)
    size = observation_size(m)
    assert all(Game(n, 1, name).observe(q).shape == (size,) for n in (3, 4, 5) for q in range(n))
    assert sum(int(np.prod(shape)) for _, shape, _ in layout(load_components(), m)) == size


def test_seats_are_egocentric_and_padded_absent_seats_zero():
    g = midgame(3, 4)
    c, m = g.components, g.map
    for seat in range(3):
        v = views(g.observe(seat), c, m)
        assert list(v["seat_present"]) == [1, 1, 1, 0, 0]
        assert v["money"][0] == g.s.money[seat] / 10 and v["money"][1] == g.s.money[(seat + 1) % 3] / 10
        assert list(v["own_hand"]) == g.s.hand[seat]
        assert not v["display"][3:].any() and not v["known_cards"][3:].any()


def _swap_unseen(g: Game, holder: int) -> Game | None:
    """A copy where one card of ``holder`` that nobody knows is swapped with a different card of the deck."""
    h = g.clone()
    s = h.s
    for k in range(h.components.num_card_kinds):
        if s.hand[holder][k] - s.known[holder][k] > 0:
            for pos in range(s.deck_pos, len(s.deck)):
                if s.deck[pos] != k:
                    s.hand[holder][k] -= 1
                    s.hand[holder][s.deck[pos]] += 1
                    s.deck[pos] = k
                    h.forget_cached()
                    return h
    return None


# The hypothesis tests below try 30 positions each in CI; ``make slow`` repeats them on 500.
POSITIONS = (st.integers(0, 10_000), st.sampled_from([3, 4, 5]), st.sampled_from(["germany", "new_england"]))


@settings(max_examples=30)
@given(*POSITIONS, st.integers(0, 80))
def test_swapping_an_unseen_card_between_another_hand_and_the_deck_never_changes_an_observation(seed, n, name, steps):
    _swapped_card_unseen(seed, n, name, steps)


@pytest.mark.slow
@settings(max_examples=500)
@given(*POSITIONS, st.integers(0, 80))
def test_slow_swapping_an_unseen_card_never_changes_an_observation_on_many_positions(seed, n, name, steps):
    _swapped_card_unseen(seed, n, name, steps)


def _swapped_card_unseen(seed: int, n: int, name: str, steps: int) -> None:
    g = midgame(n, seed, name, steps)
    holder = seed % n
    h = _swap_unseen(g, holder)
    if h is None:
        return
    for seat in range(n):
        if seat != holder:
            assert np.array_equal(g.observe(seat), h.observe(seat))
    assert not np.array_equal(g.observe(holder), h.observe(holder))  # the holder sees his own hand change


@settings(max_examples=30)
@given(*POSITIONS)
def test_every_resampled_state_gives_the_same_observation_and_its_hands_vary(seed, n, name):
    _resampled_states_look_alike(seed, n, name)


@pytest.mark.slow
@settings(max_examples=500)
@given(*POSITIONS)
def test_slow_every_resampled_state_gives_the_same_observation_on_many_positions(seed, n, name):
    _resampled_states_look_alike(seed, n, name)


def _resampled_states_look_alike(seed: int, n: int, name: str) -> None:
    g = midgame(n, seed, name, 40)
    seat = seed % n
    before = g.to_json()
    seen = set()
    for draw in range(6):
        r = g.resample(seat, np.random.default_rng(draw))
        assert np.array_equal(r.observe(seat), g.observe(seat))
        assert r.s.hand[seat] == g.s.hand[seat]
        assert all(r.s.known[q] == g.s.known[q] for q in range(n))
        assert all(all(kn <= h for kn, h in zip(r.s.known[q], r.s.hand[q], strict=True)) for q in range(n))
        assert r.legal_actions() == g.legal_actions() if g.current_player == seat else True
        seen.add(repr(r.s.hand) + repr(r.s.deck))
        Game.from_json(r.to_json())  # a consistent position: every card accounted for
    assert g.to_json() == before  # the game itself is untouched
    assert len(seen) > 1  # the unseen pool is really redealt


def test_resample_keeps_cards_known_from_the_face_up_row_and_hides_the_seed():
    g = Game(4, 2)
    seat_to_move = g.current_player
    face = g.s.face_up[0]
    g.apply(g.string_to_action("draw face-up 1"))
    g.apply(g.string_to_action("draw deck"))
    observer = (seat_to_move + 1) % 4
    for draw in range(5):
        r = g.resample(observer, draw)
        assert r.s.hand[seat_to_move][face] >= 1 and r.s.seed != g.s.seed
    with pytest.raises(ValueError, match="seat"):
        g.resample(7, 0)
    with pytest.raises(ValueError, match="rng"):
        g.resample(0, "abc")


def test_observation_never_holds_the_deck_order_or_the_seed():
    g = midgame(4, 9)
    h = g.clone()
    rest = h.s.deck[h.s.deck_pos :]
    h.s.deck[h.s.deck_pos :] = rest[::-1]
    h.s.seed = 12345
    assert all(np.array_equal(g.observe(q), h.observe(q)) for q in range(4))


def test_full_view_is_separate_and_shows_every_hand():
    g = midgame(4, 3)
    full = g.full_view()
    assert full["hand"] == g.s.hand and full["deck"] == g.s.deck


def test_resample_takes_a_numpy_generator_a_seed_or_a_random_random_and_repeats_with_the_same_stream():
    import random

    g = midgame(4, 21)
    a, b = g.resample(2, 5), g.resample(2, np.random.default_rng(5))
    assert a.to_json() == b.to_json()
    assert np.array_equal(g.resample(2, random.Random(1)).observe(2), g.observe(2))


def test_the_full_information_view_is_off_by_default_and_shows_every_hand_when_asked():
    g = midgame(4, 8)
    c, m = g.components, g.map
    v = views(g.observe(0, full_information=True), c, m)
    assert [list(v["known_cards"][k]) for k in range(4)] == [g.s.hand[(0 + k) % 4] for k in range(4)]
    assert sum(v["unseen_cards"]) == len(g.s.deck) - g.s.deck_pos
    assert not np.array_equal(g.observe(0), g.observe(0, full_information=True))


def test_playing_a_card_of_a_known_kind_tells_the_others_one_fewer_whatever_else_the_hand_held():
    # Ruling 18: seat 1 took a blue card face up (known), and holds a second card, blue or grey, unseen. When it
    # plays blue, the others cannot tell which copy left: they know one fewer blue, in both positions alike.
    from .helpers import play, position

    games = [position(3, to_move=1, hands={1: hand}) for hand in ({"blue": 2}, {"blue": 1, "grey": 1})]
    blue = games[0].components.card_labels.index("blue")
    for g in games:
        g.s.known[1][blue] = 1
        g.forget_cached()
        play(g, "pass with blue")
        assert g.s.known[1][blue] == 0
    assert all(np.array_equal(games[0].observe(q), games[1].observe(q)) for q in (0, 2))


def _same_public_moves(g: Game, r: Game, seat: int, rng: np.random.Generator, steps: int) -> int:
    """Play the same random moves in ``g`` and in ``r`` (``r`` redealt for ``seat``), checking after each that
    ``seat`` observes the same in both. The moves are drawn from those legal in both, leaving out the two that
    would show ``seat`` a redealt card: a face-up card taken (its refill comes from the deck) and ``seat``'s own
    draw from the deck. Returns the moves checked."""
    checked = 0
    A = g.space
    for _ in range(steps):
        if g.is_over:
            break
        hidden = [A.DRAW + 1 + j for j in range(2)] + ([A.DRAW] if g.current_player == seat else [])
        common = sorted(set(g.legal_actions()) & set(r.legal_actions()) - set(hidden))
        if not common:
            break
        a = common[int(rng.integers(len(common)))]
        g.apply(a)
        r.apply(a)
        assert np.array_equal(g.observe(seat), r.observe(seat)), (seat, g.action_to_string(a))
        if g.current_player == seat:
            assert g.legal_actions() == r.legal_actions()
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["germany", "new_england"])
def test_every_observation_is_a_function_of_what_the_seat_has_seen(name):
    # Positions a seat cannot tell apart (a redeal of what it cannot see) give it the same observation after the
    # same public moves, for as long as those moves are possible in both and no redealt card comes to light.
    checked = 0
    for seed in range(6):
        n = 3 + seed % 3
        g = midgame(n, seed, name, 30 + 7 * seed)
        rng = np.random.default_rng(seed)
        for seat in range(n):
            checked += _same_public_moves(g.clone(), g.resample(seat, rng), seat, np.random.default_rng(seat), 60)
    assert checked > 100  # the walks are long enough to mean something
