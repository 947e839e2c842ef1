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


def played_to(phase: str, players: int, seed: int, moves_seed: int) -> Game:
    """Game ``seed`` of ``players`` played by random choices (seeded ``moves_seed``) until ``phase``."""
    g, rng = Game(players, seed=seed), random.Random(moves_seed)
    while g.phase != phase:
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_whole_game_against_random_players_ends_with_the_points_by_source() -> None:
    text = play(["info 0,0", "info 0,0 1", "info land 0", "info tech 0", "offers", "catastrophe", "nation 2"])
    assert "final scores:" in text and ("Winner" in text or "You win" in text or "You tie" in text)
    final = text[text.rfind("final scores:") :]
    for source in [*SCORE_SOURCES, "total", "cubes"]:
        assert T.SCORE_WORDS.get(source, source) in final
    # moves are echoed with their effects, the person's choices with their costs
    assert "  -> player " in text and "coins" in text
    assert "you have 10 coins, 10 science" in text
    assert "player 0's 0,0: land tile S (start)" in text and "player 1's 0,0: land tile S (start)" in text
    assert "catastrophe C" in text and "land offer (round I" in text and "player 2's nation (x across" in text
    assert "taken back: cell " in text  # 'back' from how to turn a tile to where to attach it
    assert "Traceback" not in text


def test_bad_input_is_named_and_the_game_goes_on() -> None:
    text = play(["info 9,-9", "info 0,0 7", "info land 9", "info x", "nation 5", "frobnicate", "bid +99", "quit"])
    assert "player 0's 9,-9: empty" in text  # a nation has no bound (ruling 18): any cell is looked up
    assert "info 0,0 7: no player '7' (players are 0 to 2)" in text
    assert "info land 9: no land 9 in the offer" in text
    assert "info 'x': say a cell" in text
    assert "no player '5': players are 0 to 2" in text
    assert "'frobnicate' is neither a choice nor a command" in text
    assert "bid +99" in text and "is not below 32" in text
    assert "leaving the game" in text


def test_help_lists_this_games_commands_with_its_own_examples() -> None:
    text = play(["help", "cards", "quit"])
    assert "round II card" in text and "final scoring, after round VI: each land tile without cubes" in text
    for command in ("info X,Y [PLAYER]", "info land N", "offers", "catastrophe", "nation [PLAYER]", "cards",
                    "'catastrophe column 2 bid 4'", "back"):  # fmt: skip
        assert command in text


def test_each_choice_says_what_it_costs() -> None:
    g = Game(3, seed=5)
    while g.phase != "bid":
        g.apply(g.legal_actions()[0])
    seat = g.to_move
    texts = [T.choice_text(g, a) for a in g.legal_actions()]
    assert any(t.startswith("bid +0") and "coins): you have" in t for t in texts)
    withdraw = next(t for t in texts if t.startswith("withdraw"))
    assert f"one technology for {g.tech_price()} science" in withdraw and "consolation" in withdraw
    g.apply(A.WITHDRAW)
    assert g.phase == "tech" and g.to_move == seat
    techs = [T.choice_text(g, a) for a in g.legal_actions() if A.block_of(a)[0] == "tech"]
    assert techs and all(f"for {g.tech_price()} science (you have {g.science[seat]})" in t for t in techs)


def test_catastrophe_choices_name_the_column_and_the_science() -> None:
    g = played_to("catastrophe", players=4, seed=3, moves_seed=0)
    text = T.choice_text(g, g.legal_actions()[0])
    assert "pay 0 science (you have" in text and "for column 0: " in text and "at the end" in text


def test_back_restores_the_position_before_the_move() -> None:
    g = played_to("attach_cell", players=3, seed=7, moves_seed=7)
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
    out += [T.cell_info(g, p, x, y) for p in range(g.n) for x in range(-1, 2) for y in range(-1, 2)]
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
    bidder, start = g.to_move, table.begin_move()
    tile = g.data.land[g.land_offer[g.auction_slot]].id
    g.apply(A.BID + 1)
    assert table.name(A.BID + 1) == "bid +1" and table.action_done(bidder)
    said = table.summary(start, [A.BID + 1], bidder)
    assert said == [f"  -> player {bidder} bids {g.min_land_price() + 1} coins on {tile}"]


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


# ---------------------------------------------------------------------------------------------- issue 46: readable
def _positions(seeds: range, n: int = 4) -> list[Game]:
    """Positions of random games, one at each decision."""
    out = []
    for seed in seeds:
        g, rng = Game(n, seed=seed), random.Random(seed)
        while not g.is_over:
            out.append(g.clone())
            g.apply(rng.choice(g.legal_actions()))
        out.append(g)
    return out


def test_the_board_reads_in_words_with_no_python_tuple_sentinel_or_bare_numbers() -> None:
    """The board printed `pawns [(-1, 0), ...]`, `high bid 0 by seat -1`, `production 3/2/0` and `L35[a:2c0s2v]`,
    'seat 0' beside 'player 0' and 'round 1' beside 'round I'."""
    seen = set()
    positions = _positions(range(2))
    for g in positions[::7] + positions[-1:]:  # the game's end among them
        text = TwentiethCenturyTable(SPEC, g, 0).board()
        dump = r"\(-?\d+, -?\d+\)|\[\(|(player|by|seat) -1|\bseat\b|\d+/\d+/\d+|\d+c\d+s\d+v|round \d"
        assert not re.search(dump, text), text
        assert "scoring:" in text and "round II card" in text and "final scoring, after round VI" in text
        assert re.search(r"player 0 \(you\): -?\d+ VP; \d+ coins, \d+ science; produces \d+ coins, \d+ science, \d+ VP "
                         r"a round; pollution [+-]\d+", text), text  # fmt: skip
        if g.phase == "bid":
            assert re.search(r"up for auction: land \d \(L\d\d\), high bid \d+ coins by player \d", text)
            seen.add("auction")
        if g.phase == "catastrophe" and any(c >= 0 for c in g.cat_col):
            assert re.search(r"column \d: \d+ cubes?, (no pollution|pollution -\d): player \d bid \d+", text)
            seen.add("catastrophe")
        if g.is_over:
            assert "the game is over" in text
            seen.add("over")
    assert seen == {"auction", "catastrophe", "over"}


def _clause(g: Game, action: int, text: str) -> str | None:
    """What a choice's text must say besides its name (its cost, what it scores), or None if it says it."""
    name, i = A.block_of(action)
    p, ph = g.to_move, g.phase
    need = []
    if name == "land" and ph == "lead":
        need = ["coins", f"{g.won[p] + 1}", "garbage cube", "VP at the end"]
    elif name == "bid":  # 'bid +31' is 31 or more, then the bidder says what to add (ruling 19)
        coins = "coins or more), then say what to add to it: you have" if i == A.NUM_BIDS - 1 else "coins): you have"
        need = [coins, "garbage cube", "VP at the end"]
    elif name == "withdraw":
        need = [f"one technology for {g.tech_price()} science"] + (["coins' consolation"] if not g.won[p] else [])
    elif name == "tech" and ph == "tech":
        tech = g.data.technologies[g.tech_offer[i]]
        need = [f"for {g.tech_price()} science (you have", T.ability_text(tech.abilities[0])]
        need += ["at the end"] if tech.pollution else []
    elif name == "catastrophe":
        garbage, steps = g.data.catastrophes[g.cat_current].columns[i // A.NUM_CAT_BIDS]
        need = [f"pay {i % A.NUM_CAT_BIDS} science"] + (["garbage cube"] if garbage else []) + \
            (["at the end"] if steps else [])  # fmt: skip
    elif name == "tile" and ph in ("garbage", "recycle"):
        need = ["cube", "at the end", "VP"]
    elif name == "tile" and ph in ("use_target", "use_target2") and \
            g.ability(p, g.sel[0], g.sel[1]).kind in ("garbage_truck", "recycling", "separated_collection"):
        need = ["at the end", "VP"]
    elif name == "city" and (ph in ("citizen", "use_target2") or
                             (ph == "use_target" and g.ability(p, g.sel[0], g.sel[1]).kind == "workers")):  # fmt: skip
        need = ["production"]
    elif name == "use":
        ab = g.ability(p, *divmod(i, A.MAX_ABILITIES))
        need = [T.ability_text(ab)] + (["at the end"] if ab.kind == "cleanup" else [])
    missing = [w for w in need if w not in text]
    return f"{text!r} lacks {missing}" if missing else None


def test_every_choice_says_what_it_costs_and_what_it_scores() -> None:
    """A garbage cube's choice never said that a tile with 2 cubes scores -5 at the end (a seat lost 70 points
    without a word); the land and bid choices never said the cubes a tile comes with; technologies were their names."""
    counted: dict[str, int] = {}
    for g in _positions(range(3)):
        for a in g.legal_actions():
            text = T.choice_text(g, a)
            assert _clause(g, a, text) is None, _clause(g, a, text)
            counted[g.phase] = counted.get(g.phase, 0) + 1
    assert {"lead", "open", "bid", "tech", "catastrophe", "garbage", "citizen", "recycle", "use"} <= set(counted)


def test_a_garbage_cube_on_a_tile_with_one_says_it_will_cost_five_at_the_end() -> None:
    for g in _positions(range(6)):
        if g.phase != "garbage":
            continue
        for a in g.legal_actions():
            cell = a - A.TILE
            if g.grid_cubes[g.to_move][cell] == 1:
                assert "1 -> 2 cubes: at the end +0 -> -5 VP" in T.choice_text(g, a)
                return
    raise AssertionError("no garbage cube offered onto a tile with one cube")


def test_each_technology_says_what_it_does_in_a_clause() -> None:
    """`Bridge [T07]: bridge`, `Workers [T05]: workers`: a name, not what it does."""
    g = Game(3, seed=1)
    for t, tech in enumerate(g.data.technologies):
        text = T.tech_text(g, t)
        for ab in tech.abilities:
            clause = T.ability_text(ab)
            assert clause in text and len(clause.split()) >= 6, text
            assert clause.startswith(("once:", "each maintenance:", "an institution to attach:", "nothing to use:"))
        if tech.pollution:
            assert f"pollution {tech.pollution:+d}" in text


def test_the_scoring_cards_are_in_words_on_the_board_in_the_offers_and_in_the_final_table() -> None:
    for r2, r4 in (("a", "b"), ("c", "a"), ("b", "c")):
        g = Game(3, seed=2, r2=r2, r4=r4)
        board = TwentiethCenturyTable(SPEC, g, 0).board()
        for r, card in ((2, r2), (4, r4)):
            words = T.CARD_TEXT[r]["abc".index(card)]
            assert f"round {T.ROMAN[r]} card {card}: {words}" in board and words in " ".join(T.score_table(g).split())
    g = Game(3, seed=2, r2="none", r4="none")
    assert "round II: no card (the first-game variant" in TwentiethCenturyTable(SPEC, g, 0).board()


def _moves(seed: int, n: int = 4) -> list[tuple[Game, list[int], Game, list[str]]]:
    """A random game cut into moves as the terminal cuts it: (start, decisions, end, what the move said)."""
    g, rng = Game(n, seed=seed), random.Random(seed)
    table = TwentiethCenturyTable(SPEC, g, 0)
    out, move, start = [], [], None
    while not g.is_over:
        if not move:
            start, mover = table.begin_move(), g.current_player
        move.append(rng.choice(g.legal_actions()))
        g.apply(move[-1])
        if table.action_done(mover):
            out.append((start, list(move), g.clone(), table.summary(start, move, mover)))
            move = []
    return out


def test_each_effect_is_said_under_the_step_that_caused_it() -> None:
    """The withdrawal consolation appeared under the next player's `tech` line as a bare `coins 3->7`, and a
    catastrophe's cubes where maintenance happened to place them: each is said where it happens, in words."""
    said = {"consolation": 0, "settled": 0, "production": 0, "round": 0}
    for seed in range(3):
        for start, decisions, end, lines in _moves(seed):
            text = "\n".join(lines)
            ended_auction = start.phase in T.AUCTION_PHASES and end.phase not in T.AUCTION_PHASES
            assert ("the land auction is over" in text) == ended_auction, (decisions, text)
            for q in range(start.n):
                if ended_auction and end.round == start.round and end.won[q] == 0:
                    assert f"{q}" in text.split("the land auction is over")[1].split("\n")[0], text
                    said["consolation"] += "consolation" in text
            settled = start.phase == "catastrophe" and end.phase != "catastrophe"
            assert ("settled" in text) == settled
            if settled:
                said["settled"] += 1
                card = start.data.catastrophes[start.cat_current]
                for q in range(start.n):
                    garbage, _ = card.columns[end.cat_col[q]]
                    assert f"player {q} pays {end.cat_bid[q]} science for column {end.cat_col[q]}: " + \
                        (f"{T.plural(garbage, 'garbage cube')} to place" if garbage else "no garbage") in text, text
            said["production"] += "production of round" in text
            said["round"] += " begins: " in text
            # nobody's holdings change without a line naming the player
            for q in range(start.n):
                if (start.coins[q], start.science[q], start.total_cubes(q)) != (end.coins[q], end.science[q],
                                                                                   end.total_cubes(q)):  # fmt: skip
                    assert f"player {q}" in text or "players" in text, (q, decisions, text)
    assert all(said.values()), said


def test_a_catastrophe_bid_is_a_move_of_its_own_though_the_bidder_maintains_next() -> None:
    """The last bid and the bidder's first attachment were one move ('catastrophe column 0 bid 3 -> cell 3,5 ->
    rotate 0 -> city 3,5 a'), the settlement printed under the attachment."""
    for seed in range(6):
        for start, decisions, _, lines in _moves(seed):
            if start.phase == "catastrophe":
                assert len(decisions) == 1, decisions
                if "settled" in "\n".join(lines) and len(start.pending[start.to_move]) == 1:
                    return
    raise AssertionError("no catastrophe settled by a player with one tile to attach")


def test_a_decision_that_played_itself_is_said_to_be_the_only_choice() -> None:
    """A leader's opening bid forced by his coins was printed as if he had chosen it."""
    for seed in range(4):
        for start, decisions, _, _ in _moves(seed):
            for before, action, after, forced in T.steps(start, decisions[0]):
                said = T.step_lines(before, action, after, forced)
                own = said[: len(said) - len(T.phase_end_lines(before, after))]
                if forced and own:
                    assert all("(the only choice)" in line for line in own), own
                    return
    raise AssertionError("no forced decision said anything")


def test_the_land_choices_say_once_what_any_tile_won_brings_and_the_garbage_how_many_cubes_wait() -> None:
    g = Game(4, seed=2024)
    table = TwentiethCenturyTable(SPEC, g, g.to_move)
    lines = table.choices(g.legal_actions())
    assert lines[0].startswith("  whichever you put up: if you win it, your 1st land tile this round comes with 1")
    assert sum("garbage cube" in line for line in lines) == 1
    for g in _positions(range(3)):
        if g.phase == "garbage":
            text = TwentiethCenturyTable(SPEC, g, g.to_move).decision()
            assert f"{T.plural(g.pending_cubes[g.to_move], 'garbage cube')} to place, on " in text
            return
    raise AssertionError("no garbage decision")


def test_turning_a_tile_says_which_recycling_centres_reach_it() -> None:
    said = 0
    for g in _positions(range(4), n=3):
        if g.phase != "attach_rotate":
            continue
        mine = any(c.recycling for c in g.data.tile(g.sel[0]).cities)
        for a in g.legal_actions():
            text = T.choice_text(g, a)
            assert ("its recycling centre reaches" in text) == mine, text
            said += "reaches it" in text
    assert said


# ---------------------------------------------------------------------------------------------- cells, not slots
def test_a_person_reads_and_types_cells_from_the_starting_tile_and_the_agents_names_still_work() -> None:
    """The nation has no bound (ruling 18): its tiles are addressed by slot, but a person sees 'cell 1,-1' and
    'city 0,1 b' (x east, y south of the starting tile's 0,0) and types them back; 'place 0 NE' and 'tile 3' too."""
    kinds: set[str] = set()
    negative = False
    for g in _positions(range(3), n=3):
        if g.is_over:
            continue
        table = TwentiethCenturyTable(SPEC, g, g.to_move)
        for a in g.legal_actions():
            name, _ = A.block_of(a)
            if name not in ("place", "tile", "city"):
                continue
            said = T.action_name(g, a)
            x, y = T.action_cell(g, a)
            assert said == (f"cell {x},{y}" if name != "city" else f"city {x},{y} {'abc'[(a - A.CITY) % 3]}"), said
            assert T.choice_text(g, a).startswith(said + ": ")
            assert table.parse(said) == a and table.parse(A.action_to_string(a)) == a
            assert table.parse(g.action_to_string(a)) == a  # 'place 0 NE (cell 1,-1)' as the agents name it
            kinds.add(name)
            negative |= x < 0 or y < 0
    assert kinds == {"place", "tile", "city"} and negative


def test_a_move_is_echoed_with_the_cells_of_the_movers_nation() -> None:
    g = played_to("attach_cell", players=3, seed=7, moves_seed=7)
    mover = g.to_move
    table = TwentiethCenturyTable(SPEC, g, mover)
    table.begin_move()
    place = g.legal_actions()[-1]
    cell = g.placed_cell(mover, place - A.PLACE)
    g.apply(place)
    while g.to_move == mover and g.phase in ("attach_rotate", "citizen"):
        g.apply(g.legal_actions()[0])
    assert table.name(place) == f"cell {cell[0]},{cell[1]}"
    assert T.cell_info(g, mover, *cell).startswith(f"player {mover}'s {cell[0]},{cell[1]}: ")


def test_typed_cells_are_played_and_a_cell_off_the_nation_is_named() -> None:
    """At the terminal: 'cell X,Y' where a tile cannot go says so; 'cell X,Y' of a legal choice plays it."""
    g = played_to("attach_cell", players=3, seed=7, moves_seed=7)
    table = TwentiethCenturyTable(SPEC, g, g.to_move)
    try:
        table.parse("cell 9,-9")
    except ValueError as exc:
        assert "cell 9,-9 is not an empty cell touching the nation" in str(exc)
    else:
        raise AssertionError("cell 9,-9 read as a place to attach")
    x, y = g.placed_cell(g.to_move, g.legal_actions()[0] - A.PLACE)
    assert table.parse(f"cell {x},{y}") == g.legal_actions()[0]
    assert "cell" in table.verbs and "place" in table.verbs and "tile" in table.verbs
