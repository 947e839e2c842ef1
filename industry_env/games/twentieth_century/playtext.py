"""The words of 20th Century for people (``industry-env play``, ``industry-env serve``): the whole position, each
choice with what it costs and what it scores, what every step of a move did (each effect under the step that
caused it), a look-up of any tile of any nation or offer, the offers, the catastrophe, a nation's map and the
scoring by source. Everything here is public (ruling 36): no text shows the seed, the stacks' order or a face-down
catastrophe."""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Any

from . import actions as A
from .components import CITY_NAMES, SIDES, Ability
from .geometry import STEP, Placed, local_components, opposite, railed, recycling_reaches
from .reference import Game as ReferenceGame
from .rules import (
    BONUS_ROUNDS,
    CATASTROPHE_BID_MAX,
    LAST_FULL_ROUND,
    R2_CARD_C_CLEAN_TILE,
    R4_CARD_A_PER_CENTRE,
    ROUNDS,
    consolation,
    extra_cube_penalty,
)
from .state import SCORE_SOURCES

if TYPE_CHECKING:
    from .reference import Game

ROMAN = ("", "I", "II", "III", "IV", "V", "VI")
SCORE_WORDS = {"production": "production", "quality_of_life": "quality of life", "round_2_card": "round II card",
               "round_4_card": "round IV card", "land_tiles": "land tiles", "pollution": "pollution track",
               "coins": "coins ranking", "science": "science ranking"}  # fmt: skip
DECISIONS = {
    "lead": "you lead the land auction: put a tile up, or withdraw for the round",
    "open": "the opening bid on the tile put up", "bid": "raise, pass on this tile, or withdraw for the round",
    "tech": "you withdrew: buy one technology, or none", "catastrophe": "bid science on a catastrophe column",
    "attach_pick": "maintenance: which new tile to attach", "attach_cell": "maintenance: where to attach it",
    "attach_rotate": "maintenance: how to turn it",
    "citizen": "maintenance: which city of the new tile gets its citizen",
    "garbage": "maintenance: where a garbage cube goes", "use": "maintenance: use a technology, or 'done'",
    "use_target": "maintenance: the technology's target", "use_target2": "maintenance: the technology's second target",
    "bridge": "maintenance: where the bridge goes", "recycle": "production: remove a cube with a recycling centre, or "
    "'done'",
}  # fmt: skip
AUCTION_PHASES = frozenset({"lead", "open", "bid", "tech"})
# The decision awaited, said of whoever makes it (the picture's header, the board's first line).
PHASE_WORDS = {
    "lead": "the land auction: the leader puts a tile up or withdraws", "open": "the land auction: the opening bid",
    "bid": "the land auction: raise, pass or withdraw", "tech": "the land auction: a player who withdrew buys a "
    "technology or none", "catastrophe": "preventing the catastrophe: science bids on its columns",
    "attach_pick": "maintenance: which new tile to attach", "attach_cell": "maintenance: where to attach it",
    "attach_rotate": "maintenance: how to turn it", "citizen": "maintenance: which city gets the new citizen",
    "garbage": "maintenance: where a garbage cube goes", "use": "maintenance: use a technology or finish",
    "use_target": "maintenance: the technology's target", "use_target2": "maintenance: the technology's second "
    "target", "bridge": "maintenance: where the bridge goes", "recycle": "production: recycling", "over": "game over",
}  # fmt: skip

def decision_words(game: Game, words: dict[str, str] = DECISIONS) -> str:
    """The decision awaited, in ``words`` (DECISIONS, said to the player; PHASE_WORDS, said of him); a bidder who
    bid 31 or more is asked what to add (ruling 19), not to raise, pass or withdraw."""
    if game.phase == "bid" and game.raising_own_bid():
        return f"the land auction: say what to add to the bid of {game.high_bid} coins"
    return words.get(game.phase, game.phase)


# The scoring cards as the rulebook words them (Fase 6, Punteggio bonus), by round and card (a, b, c).
CARD_TEXT = {
    2: ("1 VP for each coin and each science produced in round II",
        "as many VP as you have (your points doubled)",
        f"{R2_CARD_C_CLEAN_TILE} VP for each land tile without cubes"),
    4: (f"{R4_CARD_A_PER_CENTRE} VP for each working recycling centre and 1 VP for each coin produced in round IV",
        "the pollution track's number if it is positive, and the VP produced in round IV again",
        "2, 3 or 4 VP (by your pollution) for each land tile without cubes, 1 VP less for each cube, and 1 VP for "
        "each science produced in round IV"),
}  # fmt: skip
FINAL_TEXT = ("each land tile without cubes scores 2, 3 or 4 VP (by your pollution), with 1 cube 0, "
              "with k >= 2 cubes -5 x (k - 1); the pollution track's number; and 8, 5, 3, 1 VP by coins and again by "
              "science (the fewest 0)")  # fmt: skip

# What each ability does, one clause each (the rules doc's "Technologies", X2-X15).
ABILITY_TEXT = {
    "mine": "an institution to attach: each occupied coin city on a land tile beside it, joined to it by rail, makes "
            "{bonus} more {coins}",
    "laboratory": "an institution to attach: each occupied science city on a land tile beside it, joined to it by "
                  "rail, makes {bonus} more science",
    "hospital": "an institution to attach: each occupied VP city on a land tile beside it, joined to it by rail, "
                "makes {bonus} more VP",
    "workers": "once: a new citizen on any free city of your nation",
    "bridge": "once: a bridge on one of your tiles, joining its rails (for trains, institutions, recycling)",
    "separated_collection": "once: remove a garbage cube from any land tile, free",
    "park": "nothing to use: only its pollution step at purchase",
    "train": "each maintenance: move a citizen to a free city joined to it by rail through no other city",
    "garbage_truck": "each maintenance: move a garbage cube from one land tile to another",
    "recycling": "each maintenance: pay {cost} coins to remove a garbage cube from any land tile",
    "cleanup": "each maintenance: pay {cost} coins to move your pollution marker one step right (better)",
    "quality_of_life": "each maintenance: pay {cost} coins for {vp} VP",
}  # fmt: skip


def plural(n: int, word: str) -> str:
    many = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{n} {word if n == 1 else many}"


def players_text(seats: list[int]) -> str:
    """'player 2', 'players 1 and 3', 'players 0, 1 and 3'."""
    if len(seats) == 1:
        return f"player {seats[0]}"
    return f"players {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def spoil(steps: int) -> str:
    """A catastrophe column's pollution: steps to the left on the pollution track."""
    return f"pollution -{steps}" if steps else "no pollution"


def city_text(city: Any) -> str:
    """A city's printed production: '2 coins 1 science', 'recycling centre'."""
    parts = [plural(v, w) if w == "coin" else f"{v} {w}" for v, w in
             zip((city.coins, city.science, city.vp), ("coin", "science", "VP"), strict=True) if v]  # fmt: skip
    if city.recycling:
        parts.append("recycling centre")
    return " ".join(parts) or "nothing"


def tile_name(game: Game, code: int) -> str:
    d = game.data
    return d.land[code].id if d.is_land(code) else d.technologies[code - len(d.land)].name


# ---------------------------------------------------------------------------------------------- cells
# A nation's tiles are addressed by slot (the order attached) and sit on cells x,y counted from the starting tile's
# 0,0 (x east, y south, either negative); a person reads and types cells, the agents' names use the slots.
def cell_name(cell: tuple[int, int]) -> str:
    """A cell as a person reads and types it: '1,-2'."""
    return f"{cell[0]},{cell[1]}"


def action_cell(game: Game, action: int, p: int | None = None) -> tuple[int, int] | None:
    """The cell of seat ``p``'s nation (the player to move by default) an action acts on: where a ``place`` action
    attaches, the tile of a ``tile`` or ``city`` action; None for any other action (or a slot still empty)."""
    name, i = A.block_of(action)
    p = game.to_move if p is None else p
    if p < 0 or name not in ("place", "tile", "city"):
        return None
    slot = i // (A.NUM_DIRECTIONS if name == "place" else A.MAX_CITIES if name == "city" else 1)
    if slot >= game.slots(p):
        return None
    return game.placed_cell(p, i) if name == "place" else game.cell_of(p, slot)


def action_name(game: Game, action: int, p: int | None = None) -> str:
    """An action as a person reads and types it (``Game.string_to_action`` reads it back): a place or a tile by its
    cell ('cell 1,-1'), a city by its tile's cell ('city 0,1 b'); any other as the game names it ('bid +2 (7
    coins)'). ``p``: whose nation the cells are of (the player to move by default)."""
    cell = action_cell(game, action, p)
    if cell is None:
        return game.action_to_string(action)
    name, i = A.block_of(action)
    if name == "city":
        return f"city {cell_name(cell)} {CITY_NAMES[i % A.MAX_CITIES]}"
    return f"cell {cell_name(cell)}"


# ---------------------------------------------------------------------------------------------- cards, technologies
def card_text(round_: int, card: int) -> str:
    """A scoring card in words: 'round II card c: 6 VP for each land tile without cubes'."""
    if card < 0:
        return f"round {ROMAN[round_]}: no card (the first-game variant: nothing scored after round {ROMAN[round_]})"
    return f"round {ROMAN[round_]} card {'abc'[card]}: {CARD_TEXT[round_][card]}"


def scoring_lines(game: Game) -> list[str]:
    """The two scoring cards and the final scoring, a line each, the ones already scored marked."""
    out = []
    for r, card in ((2, game.r2), (4, game.r4)):
        done = " (scored)" if game.round > r or game.is_over else ""
        out.append(card_text(r, card) + done)
    return [*out, "final scoring, after round VI: " + FINAL_TEXT]


def ability_text(a: Ability) -> str:
    """What an ability does, in one clause."""
    text = ABILITY_TEXT.get(a.kind, a.kind.replace("_", " "))
    return text.format(bonus=a.bonus, cost=a.cost, vp=a.vp, coins="coin" if a.bonus == 1 else "coins")


def purchase_text(tech: Any) -> str:
    """A technology's immediate effect at purchase: garbage cubes to place, pollution steps ('' if none)."""
    extra = []
    if tech.garbage:
        extra.append(f"{plural(tech.garbage, 'garbage cube')} to place this round")
    if tech.pollution:
        side = "right, better" if tech.pollution > 0 else "left, worse"
        extra.append(f"pollution {tech.pollution:+d} ({plural(abs(tech.pollution), 'step')} {side})")
    return ", ".join(extra)


def tech_text(game: Game, t: int) -> str:
    """A technology: its name, what each of its abilities does, and its effect at purchase."""
    tech = game.data.technologies[t]
    what = "; and ".join(ability_text(a) for a in tech.abilities)
    extra = purchase_text(tech)
    return f"{tech.name} [{tech.id}]: {what}" + (f"; on purchase: {extra}" if extra else "")


def land_text(game: Game, code: int) -> str:
    tile = game.data.land[code]
    cities = "; ".join(f"{CITY_NAMES[j]}: {city_text(c)}" for j, c in enumerate(tile.cities))
    return f"{tile.id} ({tile.stack}) cities {cities}"


def railed_sides(tile: Any, rotation: int, bridge: int = -1) -> str:
    sides = sorted({s for c in local_components(tile, rotation, bridge) for s in c.sides})
    return "".join(SIDES[s] for s in sides) or "none"


# ---------------------------------------------------------------------------------------------- what a choice scores
def tile_points(game: Game, p: int, cubes: int) -> int:
    """What a land tile with ``cubes`` scores at the end at ``p``'s pollution now (F2)."""
    d = game.data
    return d.clean_tile[game.pollution[p] - d.pollution_low] if cubes == 0 else extra_cube_penalty(cubes)


def _card_ahead(game: Game, round_: int) -> int:
    """The card of ``round_`` (2 or 4) if it is still to be scored, else -1."""
    card = game.r2 if round_ == 2 else game.r4
    return card if not game.is_over and game.round <= round_ else -1


def cubes_text(game: Game, p: int, cell: int, new: int) -> str:
    """A tile's cubes changing: 'L12, 1 -> 2 cubes: at the end 0 -> -5 VP' and what the coming card makes of it
    (``cell``: the tile's slot)."""
    old = game.grid_cubes[p][cell]
    name = tile_name(game, game.grid_tile[p][cell])
    a, b = tile_points(game, p, old), tile_points(game, p, new)
    out = f"{name}, {old} -> {plural(new, 'cube')}: at the end {a:+d} -> {b:+d} VP"
    clean = (new == 0) - (old == 0)
    if _card_ahead(game, 2) == 2 and clean:
        out += f"; round II card c {R2_CARD_C_CLEAN_TILE * clean:+d} VP"
    if _card_ahead(game, 4) == 2:
        d = game.data
        card = d.clean_tile[game.pollution[p] - d.pollution_low] * clean - (new - old)
        out += f"; round IV card c {card:+d} VP"
    return out


def new_tile_cubes(game: Game, p: int, k: int) -> str:
    """The cubes a player's k-th land tile of the round comes with, and what it would score with them."""
    worth = tile_points(game, p, k)
    tail = f"0 VP at the end, {tile_points(game, p, 0)} if cleaned" if k == 1 else \
        f"{worth:+d} VP at the end unless cleaned"  # fmt: skip
    return f"your {ordinal(k)} land tile this round comes with {plural(k, 'garbage cube')} ({tail})"


def pollution_text(game: Game, p: int, steps: int) -> str:
    """The pollution marker moved by ``steps`` (stopping at the ends): where it goes and what that scores."""
    d = game.data
    old = game.pollution[p]
    new = max(d.pollution_low, min(d.pollution_high, old + steps))
    if new == old:
        return f"pollution stays {old:+d} (the end of the track)"
    fa, fb = d.pollution_final[old - d.pollution_low], d.pollution_final[new - d.pollution_low]
    out = f"pollution {old:+d} -> {new:+d}: at the end {fa:+d} -> {fb:+d} VP"
    ca, cb = d.clean_tile[old - d.pollution_low], d.clean_tile[new - d.pollution_low]
    if ca != cb:
        out += f", a clean land tile {ca} -> {cb} VP"
    if _card_ahead(game, 4) == 1 and max(0, fa) != max(0, fb):
        out += f"; round IV card b {max(0, fb) - max(0, fa):+d} VP"
    return out


def production_text(before: Game, after: Game, p: int) -> str:
    """What a change to a nation does to its production a round and to its working recycling centres ('' if
    nothing), with what the coming scoring card makes of it."""
    a, b = before.production(p), after.production(p)
    ca, cb = len(before.working_centres(p)), len(after.working_centres(p))
    parts = [f"{v - u:+d} {'coin' if w == 'coins' and abs(v - u) == 1 else w}"
             for u, v, w in zip(a, b, ("coins", "science", "VP"), strict=True) if u != v]  # fmt: skip
    out = []
    if parts:
        out.append(f"production {', '.join(parts)} a round (then {b[0]} coins, {b[1]} science, {b[2]} VP)")
    if ca != cb:
        out.append(f"working recycling centres {ca} -> {cb} (each removes a cube in production)")
    card2, card4 = _card_ahead(before, 2), _card_ahead(before, 4)
    notes = []
    if card2 == 0 and (a[0] + a[1]) != (b[0] + b[1]):
        notes.append(f"round II card a {(b[0] + b[1]) - (a[0] + a[1]):+d} VP")
    if card4 == 0 and (a[0] != b[0] or ca != cb):
        notes.append(f"round IV card a {(b[0] - a[0]) + R4_CARD_A_PER_CENTRE * (cb - ca):+d} VP")
    if card4 == 1 and a[2] != b[2]:
        notes.append(f"round IV card b {b[2] - a[2]:+d} VP")
    if card4 == 2 and a[1] != b[1]:
        notes.append(f"round IV card c {b[1] - a[1]:+d} VP")
    return "; ".join(out + notes)


def _after(game: Game, action: int) -> Game:
    g = game.clone()
    g.apply(action)
    return g


def recycling_text(game: Game, p: int, cell: int) -> str:
    """Which recycling centres reach the land tile in slot ``cell`` (its own and its neighbours', RECYCLE), and
    which tiles its own centres reach: '' if none."""
    d = game.data
    if cell < 0 or game.grid_tile[p][cell] < 0:
        return ""
    nation = game.nation(p)
    here = game.cell_of(p, cell)
    cells = [c for c, code in enumerate(game.grid_tile[p]) if code >= 0]
    out = []
    tile = d.tile(game.grid_tile[p][cell])
    own = [j for j, city in enumerate(tile.cities) if city.recycling]
    if own:
        reached = [game.cell_of(p, c) for c in cells if d.is_land(game.grid_tile[p][c]) and
                   any(recycling_reaches(nation, here, j, game.cell_of(p, c)) for j in own)]  # fmt: skip
        out.append("its recycling centre reaches " + ", ".join(f"{x},{y}" for x, y in reached))
    if d.is_land(game.grid_tile[p][cell]):
        by = []
        for c in cells:
            other = d.tile(game.grid_tile[p][c])
            if c != cell and any(city.recycling and recycling_reaches(nation, game.cell_of(p, c), j, here)
                                 for j, city in enumerate(other.cities)):  # fmt: skip
                by.append(f"{cell_name(game.cell_of(p, c))} ({other.id})")
        if by:
            out.append("the recycling centre of " + ", ".join(by) + " reaches it")
    return "; ".join(out)


def rail_joins(game: Game, p: int, cell: tuple[int, int], tile: Any, rotation: int) -> str:
    """Where a tile turned by ``rotation`` on ``cell`` (x, y) meets its neighbours' rails (ruling 1: both railed on
    the shared side): 'rails join 0,0 (S) to the W'."""
    x, y = cell
    placed = Placed(tile, rotation, -1)
    out = []
    for side, (dx, dy) in STEP.items():
        c = game.slot_at(p, (x + dx, y + dy))
        if c < 0 or not railed(placed, side):
            continue
        code = game.grid_tile[p][c]
        if railed(Placed(game.data.tile(code), game.grid_rot[p][c], game.grid_bridge[p][c]), opposite(side)):
            out.append(f"{x + dx},{y + dy} ({tile_name(game, code)}) to the {SIDES[side]}")
    return "rails join " + ", ".join(out) if out else "rails join no neighbour"


# ---------------------------------------------------------------------------------------------- the choices
def choice_text(game: Game, action: int) -> str:
    """A choice with what it costs, and what it scores where it changes the score (one line)."""
    p, ph, d = game.to_move, game.phase, game.data
    name, i = A.block_of(action)
    base = action_name(game, action)
    if name == "land" and ph == "lead":
        k = game.won[p] + 1
        if [q for q in range(game.n) if not game.withdrawn[q]] == [p]:
            return (f"{base}: buy {land_text(game, game.land_offer[i])} for {game.min_land_price()} coins (you are "
                    f"alone in the auction; you have {game.coins[p]}); {new_tile_cubes(game, p, k)}")  # fmt: skip
        return (f"{base}: put up {land_text(game, game.land_offer[i])} (opening bid at least {game.min_land_price()} "
                f"coins, you have {game.coins[p]}); if you win it, {new_tile_cubes(game, p, k)}")  # fmt: skip
    if name == "bid":  # ruling 19: 'bid +31' is 31 or more, and the bidder then says what to add
        adding = f", adding {i} to your bid of {game.high_bid}" if game.raising_own_bid() else ""
        more = ", then say what to add to it" if i == A.NUM_BIDS - 1 else ""
        return (f"{base}{adding}{more}: you have {game.coins[p]}; if you win, "
                f"{new_tile_cubes(game, p, game.won[p] + 1)}")  # fmt: skip
    if name == "pass":
        return f"{base}: pass on this tile (you stay in the auction)"
    if name == "withdraw":
        comfort = (f"; having won no land tile, you get {consolation(game.round)} coins' consolation when the auction "
                   f"ends") if not game.won[p] else ""  # fmt: skip
        return (f"{base}: leave the auction for this round (then buy one technology for {game.tech_price()} science, "
                f"you have {game.science[p]}){comfort}")  # fmt: skip
    if name == "tech" and ph == "tech":
        tech = d.technologies[game.tech_offer[i]]
        what = "; and ".join(ability_text(a) for a in tech.abilities)
        extra = purchase_text(tech)
        score = f" ({pollution_text(game, p, tech.pollution)})" if tech.pollution else ""
        return (f"{base}: buy {tech.name} [{tech.id}] for {game.tech_price()} science (you have {game.science[p]}): "
                f"{what}" + (f"; on purchase: {extra}{score}" if extra else ""))  # fmt: skip
    if name == "catastrophe":
        c, b = divmod(i, A.NUM_CAT_BIDS)
        return f"{base}: pay {b} science (you have {game.science[p]}) for column {c}: {column_text(game, p, c)}"
    if name in ("land", "tech") and ph == "attach_pick":
        code, _, cubes = next(e for e in game.pending[p] if e[1] == i and d.is_land(e[0]) == (name == "land"))
        tech = d.technologies[code - len(d.land)] if not d.is_land(code) else None
        what = f"land tile {land_text(game, code)}, {plural(cubes, 'garbage cube')} on it" if tech is None \
            else f"{tech.name} [{tech.id}]: " + "; and ".join(ability_text(a) for a in tech.abilities)  # fmt: skip
        return f"{base}: attach {what}"
    if name in ("place", "tile"):
        return f"{base}: {cell_choice(game, i)}"
    if name == "rotate":
        code, cell = game.sel[0], game.placed_cell(p, game.sel[1])
        tile = d.tile(code)
        out = f"{base}: turn it {90 * i} degrees (rails leave by {railed_sides(tile, i)}; " \
              f"{rail_joins(game, p, cell, tile, i)})"  # fmt: skip
        after = _after(game, action)
        reach = recycling_text(after, p, after.slot_at(p, cell))
        change = "; ".join(x for x in (production_text(game, after, p), reach) if x)
        return out + (f"; {change}" if change else "")
    if name == "city":
        return f"{base}: {city_choice(game, i)}"
    if name == "use":
        h, k = divmod(i, A.MAX_ABILITIES)
        tech = d.technologies[game.techs[p][h]]
        a = tech.abilities[k]
        out = f"{base}: {tech.name}: {ability_text(a)}"
        if a.kind == "cleanup":
            out += f"; {pollution_text(game, p, 1)}"
        if a.cost:
            out += f" (you have {game.coins[p]} coins)"
        return out
    if name == "bridge":
        tile = d.tile(game.grid_tile[game.to_move][game.sel[2]])
        ends = "-".join(tile.bridges[i])
        change = production_text(game, _after(game, action), p)
        return f"{base}: the bridge joins {ends} on {tile.id}" + (f"; {change}" if change else "")
    if name == "done":
        return {"tech": f"{base}: buy no technology", "use": f"{base}: end your maintenance",
                "recycle": f"{base}: end your recycling"}.get(ph, base)  # fmt: skip
    return base


def bid_heading(game: Game) -> str:
    """The block of land bids: the tile, the coins the bidder has, the cubes the tile would come with."""
    p = game.to_move
    tile = game.data.land[game.land_offer[game.auction_slot]].id
    high = f"high bid {game.high_bid} by player {game.high_bidder}" if game.high_bidder >= 0 else "no bid yet"
    return (f"bid on land {game.auction_slot} ({tile}; {high}), in coins (you have {game.coins[p]}); if you win it, "
            f"{new_tile_cubes(game, p, game.won[p] + 1)}")  # fmt: skip


def column_heading(game: Game, c: int) -> str:
    """A block of catastrophe bids on column ``c``: what the column gives, the science the bidder has."""
    p = game.to_move
    there = sorted((game.cat_bid[q], q) for q in range(game.n) if game.cat_col[q] == c)
    held = ("bids there: " + ", ".join(f"player {q} {b}" for b, q in there) + (" (on top)" if len(there) > 1 else "")
            if there else "no bid there yet")  # fmt: skip
    return (f"catastrophe column {c}: {column_text(game, p, c)}; {held}; bid in science (you have "
            f"{game.science[p]})")  # fmt: skip


def column_text(game: Game, p: int, c: int) -> str:
    """What taking catastrophe column ``c`` means for ``p``: its cubes, its pollution, the lead of the next round."""
    g, steps = game.data.catastrophes[game.cat_current].columns[c]
    parts = [f"{plural(g, 'garbage cube')} to place" if g else "no garbage"]
    parts.append(pollution_text(game, p, -steps) if steps else "no pollution")
    if c == min(game.data.columns_used(game.n)):
        parts.append("and you lead the next round")
    return ", ".join(parts)


def cell_choice(game: Game, cell: int) -> str:
    """A cell choice, by the decision: where a tile goes, where a cube goes or comes from, a bridge's tile.
    ``cell``: in ``attach_cell`` the placement (slot x 8 + direction: ``A.PLACE + cell`` is the action), otherwise
    the slot of the tile chosen (``A.TILE + cell``)."""
    p, ph = game.to_move, game.phase
    if ph == "attach_cell":
        x, y = game.placed_cell(p, cell)
        near = [game.slot_at(p, (x + dx, y + dy)) for dx, dy in STEP.values()]
        beside = sorted({tile_name(game, game.grid_tile[p][c]) for c in near if c >= 0})
        side = f"beside {', '.join(beside)}" if beside else "touching your nation by a corner only"
        return f"attach {tile_name(game, game.sel[0])} at {x},{y} ({side})"
    x, y = game.cell_of(p, cell)
    here = game.grid_tile[p][cell]
    what = f"{tile_name(game, here)}, {plural(game.grid_cubes[p][cell], 'cube')}" if here >= 0 else "empty"
    cubes = game.grid_cubes[p][cell]
    if ph == "garbage":
        return f"put the garbage cube on {x},{y} ({cubes_text(game, p, cell, cubes + 1)})"
    if ph == "recycle":
        return f"recycle a cube from {x},{y} ({cubes_text(game, p, cell, cubes - 1)})"
    if ph == "bridge":
        return f"a bridge on {x},{y} ({what})"
    verb = target_verb(game)
    kind = game.ability(p, game.sel[0], game.sel[1]).kind
    if kind in ("separated_collection", "recycling") or (kind == "garbage_truck" and ph == "use_target"):
        return f"{verb} {x},{y} ({cubes_text(game, p, cell, cubes - 1)})"
    if kind == "garbage_truck":
        return f"{verb} {x},{y} ({cubes_text(game, p, cell, cubes + 1)})"
    return f"{verb} {x},{y} ({what})"


def city_choice(game: Game, index: int) -> str:
    """A city choice: the new citizen's city, a Workers citizen's, a train's start or end; with what it produces.
    ``index``: the tile's slot x 3 + the city (``A.CITY + index`` is the action)."""
    p, ph, d = game.to_move, game.phase, game.data
    cell, j = divmod(index, 3)
    x, y = game.cell_of(p, cell)
    tile = d.tile(game.grid_tile[p][cell] if game.grid_tile[p][cell] >= 0 else game.sel[0])
    where = f"city {CITY_NAMES[j]} at {x},{y} ({city_text(tile.cities[j])})"
    if ph == "use_target":
        kind = game.ability(p, game.sel[0], game.sel[1]).kind
        if kind == "train":  # the move is complete only with its end: what it does is said there
            return f"{target_verb(game)} {where}"
    action = A.CITY + index
    change = production_text(game, _after(game, action), p)
    head = where if ph == "citizen" else f"{target_verb(game)} {where}"
    return head + (f"; {change}" if change else "; production unchanged")


# What a technology's target is, by the ability's kind and the step (first or second target).
TARGET_VERBS = {
    ("workers", 1): "a new citizen in", ("train", 1): "move the citizen of", ("train", 2): "to the free",
    ("garbage_truck", 1): "take a cube from", ("garbage_truck", 2): "put it on", ("bridge", 1): "a bridge on",
    ("separated_collection", 1): "remove a cube from", ("recycling", 1): "remove a cube from",
}  # fmt: skip


def target_verb(game: Game) -> str:
    """What the target of the technology in use is for ('take a cube from', 'a new citizen in')."""
    h, k = game.sel[:2]
    kind = game.ability(game.to_move, h, k).kind
    return TARGET_VERBS.get((kind, 2 if game.phase == "use_target2" else 1), "the target")


# ---------------------------------------------------------------------------------------------- the position
def auction_line(game: Game) -> str:
    """The auction under way and who is out of it ('' if none)."""
    parts = []
    if game.auction_slot >= 0:
        tile = game.data.land[game.land_offer[game.auction_slot]].id
        high = f"high bid {game.high_bid} coins by player {game.high_bidder}" if game.high_bidder >= 0 \
            else "no bid yet"  # fmt: skip
        parts.append(f"up for auction: land {game.auction_slot} ({tile}), {high}")
        passed = [p for p in range(game.n) if game.passed[p]]
        if passed:
            parts.append(f"passed on it: player {', '.join(map(str, passed))}")
    out = sorted((game.withdrawn[p], p) for p in range(game.n) if game.withdrawn[p])
    if out:
        parts.append(f"withdrawn this round (in order): player {', '.join(str(p) for _, p in out)}")
    won = [f"player {p} {game.won[p]}" for p in range(game.n) if game.won[p]]
    if won:
        parts.append(f"land tiles won this round: {', '.join(won)}")
    return "; ".join(parts)


def offers_text(game: Game) -> str:
    """The land and technology offers with their prices, and the auction under way."""
    if game.is_over or game.round > LAST_FULL_ROUND:
        return "no offers: the auctions are over"
    era_track = " ".join(str(v) for v in game.data.tech_cost[_era(game)])
    lines = [f"land offer (round {ROMAN[game.round]}: opening bid at least {game.min_land_price()} coins; a player's "
             f"k-th land tile of the round comes with k garbage cubes):"]  # fmt: skip
    lines += [f"  land {s}: {land_text(game, t)}{'  <- up for auction' if s == game.auction_slot else ''}"
              for s, t in enumerate(game.land_offer) if t >= 0]  # fmt: skip
    if game.phase in AUCTION_PHASES and auction_line(game):
        lines.append(f"  {auction_line(game)}")
    lines.append(f"technology offer (price {game.tech_price()} science now; the cost track {era_track}: its marker "
                 f"moves one space right after each land tile sold; one technology for each player who withdraws):")
    lines += [f"  tech {s}: {tech_text(game, t)}" for s, t in enumerate(game.tech_offer) if t >= 0]
    return "\n".join(lines)


def _era(game: Game) -> str:
    return "I-II" if game.round <= 2 else ("III-IV" if game.round <= 4 else "V")


def catastrophe_text(game: Game) -> str:
    """The catastrophe card: its columns (the unused ones marked), the pawns and their bids."""
    if game.cat_current < 0 or game.is_over or game.round > LAST_FULL_ROUND:
        return "no catastrophe this round"
    d = game.data
    card = d.catastrophes[game.cat_current]
    used = d.columns_used(game.n)
    lines = [
        f"catastrophe {card.id} ({card.era}): one pawn a used column, bids in science from 0 to "
        f"{CATASTROPHE_BID_MAX}, each pays his bid and takes his column's cubes and pollution; the leftmost pawn's "
        "player leads the next auction"
    ]
    for c, (g, pol) in enumerate(card.columns):
        pawns = [f"player {p} bid {game.cat_bid[p]}" for p in range(game.n) if game.cat_col[p] == c]
        state = ", ".join(pawns) if c in used else "not used with this many players"
        lines.append(f"  column {c}: {plural(g, 'cube')}, {spoil(pol)}: {state or 'empty'}")
    return "\n".join(lines)


def phase_words(game: Game) -> str:
    """Where the game is, in words: 'round II of VI, the land auction: the opening bid; player 3 to move'."""
    if game.is_over:
        return "the game is over"
    return (f"round {ROMAN[game.round]} of {ROMAN[ROUNDS]}, {decision_words(game, PHASE_WORDS)}; player "
            f"{game.to_move} to move")  # fmt: skip


def player_lines(game: Game, p: int, seat: int | None) -> list[str]:
    """A player's holdings, production, pollution, garbage, technologies and tiles, in words."""
    d = game.data
    prod = game.production(p)
    pol = game.pollution[p]
    final = d.pollution_final[pol - d.pollution_low]
    clean = d.clean_tile[pol - d.pollution_low]
    you = " (you)" if p == seat else ""
    lines = [f"player {p}{you}: {sum(game.vp[p].values())} VP; {game.coins[p]} coins, {game.science[p]} science; "
             f"produces {prod[0]} coins, {prod[1]} science, {prod[2]} VP a round; pollution {pol:+d} (at the end "
             f"{final:+d} VP, a clean land tile {clean} VP); {plural(game.total_cubes(p), 'garbage cube')} on its "
             f"tiles"]  # fmt: skip
    techs = []
    for h, t in enumerate(game.techs[p]):
        tech = d.technologies[t]
        used = game.used[p][h] if h < len(game.used[p]) else []
        single = [a.single_use for a in tech.abilities]
        state = ""
        if used and all(used):
            state = " (used)" if all(single) else " (used this maintenance)"
        techs.append(tech.name + state)
    lines.append(f"    technologies: {', '.join(techs) or 'none'}")
    pending = [tile_name(game, c) + (f" ({plural(k, 'cube')})" if d.is_land(c) else "")
               for c, _, k in game.pending[p]]  # fmt: skip
    if pending or game.pending_cubes[p]:
        waiting = f"to attach: {', '.join(pending)}" if pending else ""
        cubes = f"garbage cubes to place: {game.pending_cubes[p]}" if game.pending_cubes[p] else ""
        lines.append(f"    {'; '.join(x for x in (waiting, cubes) if x)} (in this round's maintenance)")
    tiles = []
    for c, code in enumerate(game.grid_tile[p]):
        if code < 0:
            continue
        x, y = game.cell_of(p, c)
        if d.is_land(code):
            occ = [CITY_NAMES[j] for j in range(3) if game.grid_citizens[p][c] >> j & 1]
            who = f"citizens in {' '.join(occ)}" if len(occ) > 1 else f"citizen in {occ[0]}" if occ else "no citizen"
            cubes = f", {plural(game.grid_cubes[p][c], 'cube')}" if game.grid_cubes[p][c] else ""
            tiles.append(f"{tile_name(game, code)} at {x},{y} ({who}{cubes})")
        else:
            tiles.append(f"{tile_name(game, code)} at {x},{y}")
    lines.append(f"    tiles: {'; '.join(tiles)}")
    return lines


def board_text(game: Game, seat: int | None) -> str:
    """The whole public position in words: where the game is, the scoring cards, the offers and the auction, the
    catastrophe, every player, then the person's nation as a map."""
    lines = [f"20th Century, {game.n} players: {phase_words(game)}", "scoring:"]
    lines += [f"  {line}" for line in scoring_lines(game)]
    if not game.is_over and game.round <= LAST_FULL_ROUND:
        lines.append(offers_text(game))
        lines.append(catastrophe_text(game))
    lines.append("players:")
    for p in range(game.n):
        lines += [f"  {line}" for line in player_lines(game, p, seat)]
    return "\n".join(lines) + "\n" + nation_map(game, 0 if seat is None else seat)


def nation_map(game: Game, p: int) -> str:
    """A nation as a map of cells (x across, y down, from the starting tile's 0,0): each tile's id, its cubes after a
    colon; '.' is empty. The map is the nation's bounding box and one cell around it (where tiles may go)."""
    slots = {game.cell_of(p, c): c for c, code in enumerate(game.grid_tile[p]) if code >= 0}
    xs = [x for x, _ in slots]
    ys = [y for _, y in slots]
    x0, x1 = min(xs) - 1, max(xs) + 1
    y0, y1 = min(ys) - 1, max(ys) + 1
    rows = ["     " + "".join(f"{x:^8}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            c = slots.get((x, y), -1)
            code = game.grid_tile[p][c] if c >= 0 else -1
            if code < 0:
                row.append(f"{'.':^8}")
                continue
            label = game.data.tile(code).id if game.data.is_land(code) else tile_name(game, code)[:5]
            cubes = game.grid_cubes[p][c]
            row.append(f"{label + (f':{cubes}' if cubes else ''):^8}")
        rows.append(f"{y:>3}  " + "".join(row))
    return (f"player {p}'s nation (x across, y down, a cell named 'x,y' from the starting tile's 0,0; a tile's garbage "
            "cubes after ':'):\n"
            + "\n".join(rows))  # fmt: skip


def cell_info(game: Game, p: int, x: int, y: int) -> str:
    """Everything about one cell of player ``p``'s nation (x east, y south of the starting tile's 0,0, either
    negative): its tile, cities, citizens, production, rails, bridge, cubes, and what its cities make now with the
    institutions' bonuses."""
    c = game.slot_at(p, (x, y))
    if c < 0:
        near = " (it touches the nation: a tile may be attached there)" if (x, y) in game.placement_cells(p) else ""
        return f"player {p}'s {x},{y}: empty{near}"
    code = game.grid_tile[p][c]
    d = game.data
    tile = d.tile(code)
    rot, bridge = game.grid_rot[p][c], game.grid_bridge[p][c]
    lines = [f"player {p}'s {x},{y}: " + (f"land tile {tile.id} ({tile.stack})" if d.is_land(code)
                                          else tech_text(game, code - len(d.land)))]  # fmt: skip
    cubes = game.grid_cubes[p][c]
    worth = f" (at the end {tile_points(game, p, cubes):+d} VP as things stand)" if d.is_land(code) else ""
    lines.append(f"  turned {90 * rot} degrees, rails leave by {railed_sides(tile, rot, bridge)}; "
                 f"{plural(cubes, 'garbage cube')}{worth}")  # fmt: skip
    if bridge >= 0:
        lines.append(f"  bridge placed: {'-'.join(tile.bridges[bridge])}")
    elif tile.bridges:
        lines.append(f"  bridge places: {', '.join('-'.join(b) for b in tile.bridges)}")
    for j, city in enumerate(tile.cities):
        busy = game.grid_citizens[p][c] >> j & 1
        made = game.city_production(p, c, j)
        now = f"makes {plural(made[0], 'coin')} {made[1]} science {made[2]} VP" if busy else "free (makes nothing)"
        lines.append(f"  city {CITY_NAMES[j]}: {city_text(city)}; {'citizen' if busy else 'no citizen'}, {now}")
    return "\n".join(lines)


def parse_info(game: Game, seat: int, rest: str) -> str:
    """'info X,Y [PLAYER]' (a cell from the starting tile's 0,0, 'info 1,-1 2'), 'info land N', 'info tech N': the
    look-up asked for; ValueError saying what is wrong."""
    words = rest.replace(", ", ",").split()
    if len(words) == 2 and words[0] in ("land", "tech") and words[1].isdigit():
        offer = game.land_offer if words[0] == "land" else game.tech_offer
        s = int(words[1])
        if not 0 <= s < len(offer) or offer[s] < 0:
            raise ValueError(f"info {rest}: no {words[0]} {s} in the offer (type 'offers')")
        return land_text(game, offer[s]) if words[0] == "land" else tech_text(game, offer[s])
    if words and "," in words[0] and len(words) <= 2:
        p = seat
        if len(words) == 2:
            if not (words[1].isascii() and words[1].isdigit() and int(words[1]) < game.n):
                raise ValueError(f"info {rest}: no player {words[1]!r} (players are 0 to {game.n - 1})")
            p = int(words[1])
        m = re.fullmatch(r"(-?\d{1,3}),(-?\d{1,3})", words[0])
        if m:
            return cell_info(game, p, int(m[1]), int(m[2]))
    raise ValueError(f"info {rest!r}: say a cell (x,y from your starting tile's 0,0) and optionally a player "
                     "('info 0,0', 'info 1,-1 2') or an offer ('info land 2', 'info tech 0')")  # fmt: skip


# ---------------------------------------------------------------------------------------------- moves and effects
# A move is one decision, or a decision and those that complete it: where a tile goes and how it is turned (and its
# citizen), a technology's targets. These continue a move; every other decision starts one.
CONTINUATIONS = frozenset({"attach_rotate", "citizen", "use_target", "use_target2", "bridge"})


def move_done(game: Game, mover: int) -> bool:
    """Is ``mover``'s move complete, the next decision a new move? Choosing where a tile goes continues the choice
    of which tile (when there was a choice: two tiles or more waiting)."""
    if game.is_over or game.current_player != mover:
        return True
    if game.phase == "attach_cell":
        return len(game.pending[mover]) < 2
    return game.phase not in CONTINUATIONS


class _Stepping(ReferenceGame):
    """A reference game whose forced decisions (ruling 20) wait to be played one at a time, so that each effect is
    said under the step that caused it."""

    def _advance(self) -> None:
        return None


def steps(start: Game, action: int) -> list[tuple[Game, int, Game, bool]]:
    """``action`` played on a copy of ``start``, then each forced decision that follows: (before, action, after,
    forced) for each step, the positions ordinary reference games."""
    game = start.clone()
    game.__class__ = _Stepping
    out, forced = [], False
    while True:
        before = game.clone()  # a copy is an ordinary game (Game.__deepcopy__)
        game.apply(action)
        out.append((before, action, game.clone(), forced))
        legal = [] if game.is_over else game.legal_actions()
        if len(legal) != 1:
            return out
        action, forced = legal[0], True


def effect_lines(start: Game, actions: list[int], game: Game) -> list[str]:
    """What a move did, every step of it in order (the forced decisions that followed too), each effect under the
    step that caused it: a land tile won, a technology bought, the consolation when the auction ends, the
    catastrophe settled, a tile attached, cubes placed and removed, production, the bonus scoring, a new round."""
    out: list[str] = []
    now = start
    for action in actions:
        for before, a, after, forced in steps(now, action):
            out += [f"  -> {line}" for line in step_lines(before, a, after, forced)]
            now = after
    if now.to_json() != game.to_json():  # not the move that was played: say nothing rather than something wrong
        return []
    return out


def step_lines(b: Game, action: int, a: Game, forced: bool = False) -> list[str]:
    """What one decision (``b`` before, ``a`` after) did, then what the end of a phase it caused did."""
    p, ph, d = b.to_move, b.phase, b.data
    name, i = A.block_of(action)
    who = f"player {p}"
    only = " (the only choice)" if forced else ""
    out = []
    if ph == "lead" and name == "land":
        if sum(a.won) == sum(b.won):
            out.append(f"{who} puts up {d.land[b.land_offer[i]].id} for auction")
    elif ph in ("open", "bid") and name == "bid":
        out.append(f"{who} bids {a.high_bid} coins on {d.land[b.land_offer[b.auction_slot]].id}")
    elif name == "withdraw" and forced:
        out.append(f"{who} withdraws from the auction for this round{only}")
    elif ph == "tech" and name == "tech":
        t = b.tech_offer[i]
        tech = d.technologies[t]
        extra = f"; {pollution_text(b, p, tech.pollution)}" if tech.pollution else ""
        garbage = f", {plural(tech.garbage, 'garbage cube')} to place" if tech.garbage else ""
        out.append(f"{who} buys {tech.name} [{tech.id}] for {b.science[p] - a.science[p]} science{garbage}{extra}")
    elif ph == "tech" and name == "done" and forced:
        out.append(f"{who} buys no technology{only}")
    elif ph == "attach_rotate":
        code, placement = b.sel
        x, y = b.placed_cell(p, placement)
        cubes = a.grid_cubes[p][a.slot_at(p, (x, y))]
        on = f", {plural(cubes, 'garbage cube')} on it" if d.is_land(code) else ""
        out.append(f"{who} attaches {tile_name(b, code)} at {x},{y} turned {90 * i} degrees{on}")
        change = production_text(b, a, p)
        if change:
            out.append(f"{who}: {change}")
    elif ph == "citizen" or (ph in ("use_target", "use_target2") and name == "city"):
        out += _citizen_lines(b, a, p, i, only)
    elif ph == "garbage":
        x, y = b.cell_of(p, i)
        out.append(f"{who} puts a garbage cube on {x},{y} ({cubes_text(b, p, i, b.grid_cubes[p][i] + 1)}){only}")
    elif ph == "use" and name == "use":
        ab = b.ability(p, *divmod(i, A.MAX_ABILITIES))
        if ab.kind == "cleanup":
            out.append(f"{who} pays {ab.cost} coins for a cleanup: {pollution_text(b, p, 1)}")
        elif ab.kind == "quality_of_life":
            out.append(f"{who} pays {ab.cost} coins for {ab.vp} VP (quality of life)")
    elif ph in ("use_target", "use_target2") and name == "tile":
        out += _cube_use_lines(b, a, p, i, only)
    elif ph == "bridge":
        cell = b.sel[2]
        x, y = b.cell_of(p, cell)
        out.append(f"{who} builds a bridge on {x},{y} ({tile_name(b, b.grid_tile[p][cell])}){only}")
        change = production_text(b, a, p)
        if change:
            out.append(f"{who}: {change}")
    elif ph == "recycle" and name == "tile":
        x, y = b.cell_of(p, i)
        out.append(f"{who} recycles a cube from {x},{y} ({cubes_text(b, p, i, b.grid_cubes[p][i] - 1)}){only}")
    if forced:  # a decision that played itself (ruling 20), said as such once
        out = [line if line.endswith(only) or only + ":" in line else line + only for line in out]
    return out + phase_end_lines(b, a)


def _citizen_lines(b: Game, a: Game, p: int, index: int, only: str) -> list[str]:
    cell, j = divmod(index, 3)
    x, y = b.cell_of(p, cell)
    where = f"city {CITY_NAMES[j]} at {x},{y}"
    if b.phase == "citizen":
        head = f"player {p}'s new citizen works {where}{only}"
    elif b.phase == "use_target2":  # a train's end
        c0, j0 = divmod(b.sel[2], 3)
        x0, y0 = b.cell_of(p, c0)
        head = f"player {p}'s train moves the citizen of city {CITY_NAMES[j0]} at {x0},{y0} to {where}{only}"
    elif b.ability(p, b.sel[0], b.sel[1]).kind == "workers":
        head = f"player {p}'s workers put a new citizen in {where}{only}"
    else:
        return []  # a train's start: said with its end
    change = production_text(b, a, p)
    return [head + (f": {change}" if change else "")]


def _cube_use_lines(b: Game, a: Game, p: int, cell: int, only: str) -> list[str]:
    kind = b.ability(p, b.sel[0], b.sel[1]).kind
    x, y = b.cell_of(p, cell)
    if kind == "garbage_truck" and b.phase == "use_target":
        return []  # said with where it goes
    if kind == "garbage_truck":
        first = b.sel[2]
        fx, fy = b.cell_of(p, first)
        after_first = b.grid_cubes[p][first] - 1
        return [f"player {p}'s garbage truck moves a cube from {fx},{fy} ({cubes_text(b, p, first, after_first)}) "
                f"to {x},{y} ({cubes_text(b, p, cell, b.grid_cubes[p][cell] + 1)}){only}"]  # fmt: skip
    paid = b.coins[p] - a.coins[p]
    how = f"pays {paid} coins to recycle" if kind == "recycling" else "uses its separated collection to remove"
    return [f"player {p} {how} a cube from {x},{y} ({cubes_text(b, p, cell, b.grid_cubes[p][cell] - 1)}){only}"]


def phase_end_lines(b: Game, a: Game) -> list[str]:
    """What the end of a phase did, when this step ended one: a land tile won, the auction over (consolation), the
    catastrophe settled, production, the bonus scoring, a new round."""
    d, n = b.data, b.n
    out = []
    same_round = a.round == b.round
    if same_round and sum(a.won) > sum(b.won):
        q = next(q for q in range(n) if a.won[q] > b.won[q])
        code, _, cubes = a.pending[q][-1] if a.pending[q] else (b.land_offer[b.auction_slot], 0, a.won[q])
        price = b.coins[q] - a.coins[q]
        how = "buys" if b.phase == "lead" else "wins"
        alone = " (alone in the auction, at the minimum price)" if b.phase == "lead" else ""
        out.append(f"player {q} {how} {tile_name(b, code)} for {price} coins{alone}: its {ordinal(a.won[q])} land "
                   f"tile this round, with {plural(cubes, 'garbage cube')}")  # fmt: skip
    if b.phase in AUCTION_PHASES and (a.phase not in AUCTION_PHASES or not same_round):
        comforted = [q for q in range(n) if (a.won[q] if same_round else b.won[q]) == 0]
        got = f": {players_text(comforted)} {'gets' if len(comforted) == 1 else 'get'} {consolation(b.round)} " \
              "coins' consolation (no land tile won this round)" if comforted else ""  # fmt: skip
        out.append(f"the land auction is over{got}")
    if b.phase == "catastrophe" and a.phase != "catastrophe":
        card = d.catastrophes[b.cat_current]
        cols, bids = a.cat_col, a.cat_bid  # the pawns stay on the card until the next round
        lead = min(range(n), key=lambda q: cols[q])
        out.append(f"catastrophe {card.id} settled: player {lead}, in the leftmost column, leads the next round")
        for q in sorted(range(n), key=lambda q: cols[q]):
            garbage, steps = card.columns[cols[q]]
            what = [f"{plural(garbage, 'garbage cube')} to place" if garbage else "no garbage"]
            if steps:
                what.append(pollution_text(b, q, -steps))
            out.append(f"player {q} pays {bids[q]} science for column {cols[q]}: {', '.join(what)}")
    if b.phase != "recycle" and a.phase == "recycle":
        made = []
        for q in range(n):
            coins, science = a.coins[q] - b.coins[q], a.science[q] - b.science[q]
            vp = a.vp[q]["production"] - b.vp[q]["production"]
            made.append(f"player {q} {coins:+d} coins {science:+d} science {vp:+d} VP" if b.round <= LAST_FULL_ROUND
                        else f"player {q} {vp:+d} VP")  # fmt: skip
        out.append(f"production of round {ROMAN[b.round]}: {'; '.join(made)}")
    if a.round != b.round or (a.is_over and not b.is_over):
        if b.round in BONUS_ROUNDS:
            out += _bonus_lines(b, a)
        if a.is_over:
            out.append("the game is over")
        elif a.round > LAST_FULL_ROUND:
            out.append(f"round {ROMAN[a.round]} begins: no auction and no catastrophe; maintenance is the use of "
                       "technologies, production gives VP only, then the final scoring")  # fmt: skip
        else:
            out.append(f"round {ROMAN[a.round]} begins: {plural(sum(t >= 0 for t in a.land_offer), 'land tile')} and "
                       f"{plural(sum(t >= 0 for t in a.tech_offer), 'technology')} offered, catastrophe "
                       f"{d.catastrophes[a.cat_current].id}; player {a.to_move} leads")  # fmt: skip
    return out


def _bonus_lines(b: Game, a: Game) -> list[str]:
    """The bonus scoring after round II (its card), IV (its card) or VI (the final scoring, by source)."""
    gains = {s: [a.vp[q][s] - b.vp[q][s] for q in range(b.n)] for s in SCORE_SOURCES}
    if b.round in (2, 4):
        source, card = ("round_2_card", b.r2) if b.round == 2 else ("round_4_card", b.r4)
        if card < 0:
            return [card_text(b.round, card)]
        return [f"{card_text(b.round, card)}: " + "; ".join(f"player {q} {v:+d} VP"
                                                            for q, v in enumerate(gains[source]))]  # fmt: skip
    out = ["final scoring:"]
    for q in range(b.n):
        parts = ", ".join(f"{SCORE_WORDS[s]} {gains[s][q]:+d}" for s in ("land_tiles", "pollution", "coins", "science"))
        out.append(f"player {q}: {parts} VP")
    return out


def score_table(game: Game) -> str:
    """Every player's points by source, the total and the cubes (fewer cubes break a tie)."""
    n = game.n
    head = f"  {'':<26}" + "".join(f"{f'player {p}':>10}" for p in range(n))
    rows = [head]
    for s in SCORE_SOURCES:
        rows.append(f"  {SCORE_WORDS[s]:<26}" + "".join(f"{game.vp[p][s]:>10}" for p in range(n)))
    rows.append(f"  {'total':<26}" + "".join(f"{v:>10}" for v in game.scores()))
    rows.append(f"  {'cubes (fewer win a tie)':<26}" + "".join(f"{game.total_cubes(p):>10}" for p in range(n)))
    if game.is_over:
        rows.append(f"  {'':<26}" + "".join(f"{'wins' if p in game.winners() else '':>10}" for p in range(n)))
    for r, c in ((2, game.r2), (4, game.r4)):  # a line of the table's width, so that the table stays narrow
        rows += textwrap.wrap(card_text(r, c), width=len(head), initial_indent="  ", subsequent_indent="    ")
    return "\n".join(rows)


