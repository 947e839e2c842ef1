"""``industry-env play --game twentieth_century``: a person against agents through the game's own table; every
choice says what it costs, every move is echoed with its effect, any tile of any nation can be looked up, bad
input is named, ``back`` undoes a multi-step choice, and the game ends with the points by source; no screen
changes when what no seat may see is redealt."""

from __future__ import annotations

import io
import random
import re

import numpy as np

from industry_env import load_game
from industry_env.cli import build_parser
from industry_env.games.twentieth_century import actions as A
from industry_env.games.twentieth_century import playtext as T
from industry_env.games.twentieth_century.playtable import TwentiethCenturyTable
from industry_env.games.twentieth_century.reference import Game
from industry_env.games.twentieth_century.state import SCORE_SOURCES
from industry_env.play import cmd_play

SPEC = load_game("twentieth_century")


class Person(io.TextIOBase):
    """A terminal where a person types ``script`` first, then the number of a choice picked at random (and 'back'
    once, the first time she is asked how to turn a tile)."""

    def __init__(self, out: io.StringIO, script: list[str], seed: int = 1) -> None:
        self.out, self.script, self.rng, self.backed = out, list(script), random.Random(seed), False

    def readline(self, *args: object) -> str:  # type: ignore[override]
        if self.script:
            return self.script.pop(0) + "\n"
        screen = self.out.getvalue()
        screen = screen[screen.rfind("your turn") :]
        if "how to turn it" in screen and not self.backed:
            self.backed = True
            return "back\n"
        return f"{self.rng.randrange(max(1, screen.count(chr(10) + '  [')))}\n"


def play(script: list[str], players: int = 3, seed: int = 5) -> str:
    args = build_parser().parse_args(["play", "--game", "twentieth_century", "--players", str(players), "--seed",
                                      str(seed), "--record", "none"])  # fmt: skip
    out = io.StringIO()
    assert cmd_play(args, stdin=Person(out, script), stdout=out) == 0
    return out.getvalue()


def test_a_whole_game_against_random_players_ends_with_the_points_by_source() -> None:
    text = play(["info 4,4", "info 4,4 1", "info land 0", "info tech 0", "offers", "catastrophe", "nation 2"])
    assert "final scores:" in text and ("Winner" in text or "You win" in text or "You tie" in text)
    final = text[text.rfind("final scores:") :]
    for source in [*SCORE_SOURCES, "total", "cubes"]:
        assert T.SCORE_WORDS.get(source, source) in final
    # moves are echoed with their effects, the person's choices with their costs
    assert "  -> player " in text and "coins" in text
    assert "you have 10 coins, 10 science" in text
    assert "player 0's 4,4: land tile S (start)" in text and "player 1's 4,4: land tile S (start)" in text
    assert "catastrophe C" in text and "land offer (round I" in text and "player 2's nation:" in text
    assert "taken back: cell " in text  # 'back' from how to turn a tile to where to attach it
    assert "Traceback" not in text


def test_bad_input_is_named_and_the_game_goes_on() -> None:
    text = play(["info 9,9", "info 4,4 7", "info land 9", "info x", "nation 5", "frobnicate", "bid +99", "quit"])
    assert "cell 9,9 is outside the nation's 9 x 9 window" in text
    assert "info 4,4 7: no player '7' (players are 0 to 2)" in text
    assert "info land 9: no land 9 in the offer" in text
    assert "info 'x': say a cell" in text
    assert "no player '5': players are 0 to 2" in text
    assert "'frobnicate' is neither a choice nor a command" in text
    assert "bid +99" in text and "is not below 32" in text
    assert "leaving the game" in text


def test_help_lists_this_games_commands_with_its_own_examples() -> None:
    text = play(["help", "quit"])
    for command in ("info X,Y [PLAYER]", "info land N", "offers", "catastrophe", "nation [PLAYER]",
                    "'catastrophe column 2 bid 4'", "back"):  # fmt: skip
        assert command in text


def test_each_choice_says_what_it_costs() -> None:
    g = Game(3, seed=5)
    while g.phase != "bid":
        g.apply(g.legal_actions()[0])
    seat = g.to_move
    texts = [T.choice_text(g, a) for a in g.legal_actions()]
    assert any(t.startswith("bid +0") and "coins), you have" in t for t in texts)
    withdraw = next(t for t in texts if t.startswith("withdraw"))
    assert f"a technology for {g.tech_price()} science" in withdraw and "consolation" in withdraw
    g.apply(A.WITHDRAW)
    assert g.phase == "tech" and g.to_move == seat
    techs = [T.choice_text(g, a) for a in g.legal_actions() if A.block_of(a)[0] == "tech"]
    assert techs and all(f"for {g.tech_price()} science (you have {g.science[seat]})" in t for t in techs)


def test_catastrophe_choices_name_the_column_and_the_science() -> None:
    g, rng = Game(4, seed=3), random.Random(0)
    while g.phase != "catastrophe":
        g.apply(rng.choice(g.legal_actions()))
    text = T.choice_text(g, g.legal_actions()[0])
    assert "science on column" in text and "you have" in text


def test_back_restores_the_position_before_the_move() -> None:
    g, rng = Game(3, seed=7), random.Random(7)
    while g.phase != "attach_cell":
        g.apply(rng.choice(g.legal_actions()))
    seat = g.to_move
    table = TwentiethCenturyTable(SPEC, g, seat)
    start = table.begin_move()
    before = g.to_json()
    g.apply(g.legal_actions()[0])
    assert g.to_json() != before and not table.action_done(seat)
    table.restore(start, [])
    assert g.to_json() == before


def _screens(g: Game, seat: int) -> list[str]:
    table = TwentiethCenturyTable(SPEC, g, seat)
    out = [table.board(), T.offers_text(g), T.catastrophe_text(g), table.scores(), table.decision()]
    out += table.choices(g.legal_actions())
    out += [T.cell_info(g, p, x, y) for p in range(g.n) for x in range(3, 6) for y in range(3, 6)]
    return out


def test_every_screen_is_the_same_after_a_redeal_of_what_no_seat_may_see() -> None:
    g, rng = Game(5, seed=9), random.Random(9)
    changed = 0  # redeals that changed the hidden future (none is left in the last rounds)
    for step in range(2000):
        if g.is_over:
            break
        if step % 40 == 0:
            seat = g.to_move
            redealt = g.resample(seat, np.random.default_rng(step))
            changed += redealt.land_stacks != g.land_stacks or redealt.cat_stack != g.cat_stack
            assert _screens(redealt, seat) == _screens(g, seat)
        g.apply(rng.choice(g.legal_actions()))
    assert changed >= 3


def test_a_bid_is_echoed_with_the_coins_it_offered_not_the_next_bids_price() -> None:
    g = Game(3, seed=5)
    while g.phase != "open":
        g.apply(g.legal_actions()[0])
    table = TwentiethCenturyTable(SPEC, g, g.to_move)
    bidder, before = g.to_move, table.snapshot()
    g.apply(A.BID + 1)
    assert table.name(A.BID + 1) == "bid +1"
    assert table.after(A.BID + 1, before) == f"  -> player {bidder} bids {g.min_land_price() + 1} coins"


def test_every_choice_is_listed_once_by_its_number_bids_in_blocks() -> None:
    g, rng = Game(4, seed=3), random.Random(0)
    seen_blocks = 0
    while not g.is_over:
        legal = g.legal_actions()
        lines = TwentiethCenturyTable(SPEC, g, g.to_move).choices(legal)
        numbers = [int(x) for line in lines for x in re.findall(r"\[(\d+)\]", line)]
        assert numbers == list(range(len(legal)))
        seen_blocks += any(line.endswith(":") for line in lines)
        g.apply(rng.choice(legal))
    assert seen_blocks > 0


def test_a_technologys_targets_say_what_is_done_to_them() -> None:
    """Workers: 'a new citizen in' a free city; a garbage truck: 'take a cube from', then 'put it on'; ..."""
    said = set()
    for seed in range(6):
        g, rng = Game(4, seed=seed), random.Random(seed)
        while not g.is_over:
            if g.phase in ("use_target", "use_target2"):
                for a in g.legal_actions():
                    text = T.choice_text(g, a)
                    verb = T.target_verb(g)
                    assert verb != "the target" and f": {verb} " in text, text
                    said.add(verb)
            g.apply(rng.choice(g.legal_actions()))
    assert len(said) >= 3
