"""Age of Industry as a person at the terminal reads it: the table, each choice's price, what each move did.

Everything here is computed from the reference engine's public state and methods (no rules of its own): a
choice's price is found by playing it on a copy of the game and comparing, and a move's effect by comparing the
position before and after it. A viewer ``seat`` is told only what that seat may see: its own hand and draws,
the cards the table saw taken face up, and everything public; never another hand or the deck order.
"""

from __future__ import annotations

from typing import Any

from .components import IMPORT_SPACE, MARKET_SPACE, TILE_ACCEPTS
from .rules import (
    COAL,
    COAL_MINE,
    EMPTY_DEMAND_PRICE,
    GOODS,
    INDUSTRY_LABELS,
    IRON,
    NUM_INDUSTRIES,
    PORT,
    RAILS_PER_PLAYER,
    RESOURCES,
    SPACE_SYMBOLS,
)
from .state import ACTION

Game = Any  # a reference Game (reference.Game reaches render, which stays free of this module)

LEGEND = ("A space reads '1 free' (a blank space: cotton mill, factory or iron works), '1 coal: free' (coal mines "
          "only; likewise port, ship), or its counter: '1 coal mine 2 of player 1, 3 coal' (level 2). 'flipped': the "
          "counter has paid its income (a mine or iron works emptied, a mill or factory sold, a port sold to). A "
          "market buys what it names once, then reads 'used'.")  # fmt: skip


# ---------------------------------------------------------------------------------------------- words
def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 loan"``, ``"2 loans"``, ``"0 cubes"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def dollars(n: int) -> str:
    """``"$5"``, ``"-$3"``."""
    return f"-${-n}" if n < 0 else f"${n}"


def whose(q: int, viewer: int | None) -> str:
    """``"your"`` for the viewer's own, else ``"player 2's"``."""
    return "your" if q == viewer else f"player {q}'s"


def industry(i: int) -> str:
    """``"cotton mill"``: an industry as the rulebook writes it."""
    return INDUSTRY_LABELS[i]


def card_name(game: Game, k: int) -> str:
    """A card kind as printed: ``"cotton mill"`` or ``"brown"`` (a location card)."""
    c = game.components
    return industry(c.CARD_INDUSTRY[k]) if c.CARD_INDUSTRY[k] >= 0 else c.colours[c.CARD_COLOUR[k]]


def cards_text(game: Game, counts: list[int]) -> str:
    """``"coal mine x3, blue"`` for counts per card kind; ``"none"`` when empty."""
    parts = [card_name(game, k) + (f" x{n}" if n > 1 else "") for k, n in enumerate(counts) if n > 0]
    return ", ".join(parts) or "none"


def short_map_name(game: Game) -> str:
    """The map's name without its source (``"New England"``)."""
    return game.map.name.split(" (")[0]


def counter_text(game: Game, sp: int) -> str:
    """``"coal mine 2 of player 1, 3 coal, flipped"``: the counter on a build space."""
    s = game.s
    i = s.space_industry[sp]
    parts = [f"{industry(i)} {s.space_level[sp]} of player {s.space_owner[sp]}"]
    if s.space_cubes[sp]:
        parts.append(f"{s.space_cubes[sp]} {RESOURCES[COAL if i == COAL_MINE else IRON]}")
    if s.space_flipped[sp]:
        parts.append("flipped")
    if s.space_no_flip[sp]:
        parts.append("never flips")
    return ", ".join(parts)


def market_text(game: Game, sp: int) -> str:
    """``"market: buys cotton"``, ``"market: buys cotton and goods"``, ``"market: no demand"``, ``"market: used"``."""
    s = game.s
    if s.space_flipped[sp]:
        return "market: used"
    accepts = [GOODS[g] for g, ok in enumerate(TILE_ACCEPTS[s.space_tile[sp]]) if ok]
    return "market: buys " + " and ".join(accepts) if accepts else "market: no demand"


def space_text(game: Game, sp: int, numbered: bool = True) -> str:
    """One space as the board shows it (see :data:`LEGEND`)."""
    s, m = game.s, game.map
    sym = m.SPACE_SYMBOL[sp]
    if sym == MARKET_SPACE:
        return market_text(game, sp)
    if sym == IMPORT_SPACE:
        return f"import: {plural(s.space_cubes[sp], 'coal', 'coal')}"
    number = f"{m.LOC_SPACES[m.SPACE_LOC[sp]].index(sp) + 1} " if numbered else ""
    kind = "" if SPACE_SYMBOLS[sym] == "blank" else f"{SPACE_SYMBOLS[sym]}: "
    if s.space_owner[sp] < 0:
        return f"{number}{kind}free"
    return f"{number}{counter_text(game, sp)}"


def location_line(game: Game, loc: int) -> str:
    """``"Pennsylvania: 1 coal: free | 2 free | 3 free"``, a ship space with the import and market it serves."""
    m = game.map
    flags = []
    if m.LOC_DISTANT_PORT[loc]:
        flags.append("distant port")
    if m.LOC_NO_THROUGH[loc]:
        flags.append("rails end here")
    name = m.location_names[loc] + (f" ({', '.join(flags)})" if flags else "")
    parts = [space_text(game, sp) for sp in m.LOC_SPACES[loc]]
    for sp in m.LOC_SPACES[loc]:
        served = [x for x in (m.SHIP_IMPORT[sp], m.SHIP_MARKET[sp]) if x >= 0]
        if served:
            parts.append("serves " + ", ".join(f"{m.location_names[m.SPACE_LOC[x]]} ({space_text(game, x)})"
                                               for x in served))  # fmt: skip
    return f"{name}: {' | '.join(parts)}"


# ---------------------------------------------------------------------------------------------- the table
def display_text(game: Game, q: int) -> str:
    """The counters left on player ``q``'s display, by industry: ``"cotton mill 1 1 2 2 3 3"``; the next to build
    first."""
    c, row = game.components, game.s.display[q]
    parts = []
    for i in range(NUM_INDUSTRIES):
        levels = [str(c.SLOT_LEVEL[d]) for d in c.SLOTS_OF[i] for _ in range(row[d])]
        parts.append(f"{industry(i)} {' '.join(levels) if levels else '-'}")
    return "; ".join(parts)


def display_table(game: Game, q: int) -> str:
    """Player ``q``'s display as a table: each level left with its count, cost, coal, iron, cubes and income."""
    c, row = game.components, game.s.display[q]
    lines = [
        f"player {q}'s display (counters are built lowest level first; level 0 cannot be built):",
        "  industry      level  left  cost  coal  iron  cubes  income",
    ]
    for d in range(c.num_slots):
        if row[d]:
            lines.append(f"  {industry(c.SLOT_INDUSTRY[d]):<12}  {c.SLOT_LEVEL[d]:>5}  {row[d]:>4}  "
                         f"{dollars(c.SLOT_COST[d]):>4}  {c.SLOT_COAL[d]:>4}  {c.SLOT_IRON[d]:>4}  "
                         f"{c.SLOT_CUBES[d]:>5}  {dollars(c.SLOT_INCOME[d]):>6}")  # fmt: skip
    return "\n".join(lines)


def player_lines(game: Game, seat: int | None) -> list[str]:
    """Every player's money, loans, rails, cards (the hand only for ``seat``) and display."""
    s = game.s
    lines = []
    for q in range(s.num_players):
        you = " (you)" if q == seat else ""
        if seat is None or q == seat:
            hand = f"hand: {cards_text(game, s.hand[q])}"
        else:
            known = cards_text(game, s.known[q])
            hand = f"{plural(sum(s.hand[q]), 'card')} in hand" + ("" if known == "none" else f" (known: {known})")
        lines.append(f"player {q}{you}: {dollars(s.money[q])}, {plural(s.loans[q], 'loan')}, "
                     f"{plural(s.rails_left[q], 'rail')} left, {hand}")  # fmt: skip
        lines.append(f"    counters left: {display_text(game, q)}")
    return lines


def cards_line(game: Game) -> str:
    """The deck, the face-up cards and the discards (all public)."""
    s = game.s
    face = ", ".join(f"{j + 1} {card_name(game, k)}" if k >= 0 else f"{j + 1} -" for j, k in enumerate(s.face_up))
    left = len(s.deck) - s.deck_pos
    return f"deck: {plural(left, 'card')}; face up: {face}; discarded: {cards_text(game, s.discard)}"


def demand_line(game: Game) -> str:
    """The demand track: cubes on it and the price of the next one bought."""
    s, c = game.s, game.components
    parts = []
    for r, name in enumerate(RESOURCES):
        n = s.demand[r]
        price = dollars(game.demand_price(r))
        parts.append(f"{name} {n} of {len(c.DEMAND_PRICES[r])} (next bought for {price})")
    return "demand track: " + ", ".join(parts)


def map_lines(game: Game) -> list[str]:
    """The map by colour: every location with its spaces, a ship space with what it serves; rails at the end."""
    s, m, c = game.s, game.map, game.components
    served = {m.SPACE_LOC[x] for sp in range(m.num_spaces) for x in (m.SHIP_IMPORT[sp], m.SHIP_MARKET[sp]) if x >= 0}
    groups: dict[str, list[int]] = {}
    for loc in range(m.num_locations):
        if m.LOC_VILLAGE[loc] or loc in served:
            continue
        colour = c.colours[m.LOC_COLOUR[loc]] if m.LOC_COLOUR[loc] >= 0 else "no colour"
        groups.setdefault(colour, []).append(loc)
    lines = []
    for colour, locs in groups.items():
        lines.append(f"  {colour}:")
        lines += [f"    {location_line(game, loc)}" for loc in locs]
    lines.append("  rails:" + ("" if max(s.link_owner, default=-1) >= 0 else " none yet"))
    for q in range(s.num_players):
        rails = [m.link_label(li) for li in range(m.num_links) if s.link_owner[li] == q]
        if rails:
            lines.append(f"    player {q}: {', '.join(rails)}")
    return lines


def board_text(game: Game, seat: int | None) -> str:
    """The whole table as ``seat`` may see it: round and turn order, players, cards, demand track and the map."""
    s = game.s
    if game.is_over:
        now = "game over"
    else:
        left = plural(s.actions_left, "action")
        now = f"player {game.current_player} to move ({left} left in the turn)"
    spent = ", ".join(f"{q}: {dollars(s.spent[q])}" for q in s.order)
    lines = [f"Age of Industry on {short_map_name(game)}, {s.num_players} players, round {s.round}: {now}",
             f"turn order: {' '.join(map(str, s.order))} (spent this round, which sets the next order: {spent})",
             *player_lines(game, seat), cards_line(game), demand_line(game), "map ('info <place>' for one place, "
             "'links' for the rail links; 'help' explains the marks):", *map_lines(game)]  # fmt: skip
    return "\n".join(lines)


def links_text(game: Game) -> str:
    """Every location's links: the rail links (with the owner of a rail built) and the sea lanes."""
    m = game.map
    lines = ["links of each place (a rail built names its owner; a sea lane opens once its ship is built):"]
    for loc in range(m.num_locations):
        if m.LOC_COLOUR[loc] < 0 and not m.LOC_VILLAGE[loc]:
            continue  # an import or a market beyond the sea: its ship space lists it
        lines.append(f"  {m.location_names[loc]}: {_links_of(game, loc)}")
    return "\n".join(lines)


def _links_of(game: Game, loc: int) -> str:
    """``"rail to Portland, Canada (player 1); sea to Gulf of Maine"``."""
    m = game.map
    rails = [_link_end(game, li, loc) for li in m.LOC_LINKS[loc] if not m.LINK_SEA[li]]
    sea = [_link_end(game, li, loc) for li in m.LOC_LINKS[loc] if m.LINK_SEA[li]]
    return "; ".join(x for x in (f"rail to {', '.join(rails)}" if rails else "",
                                 f"sea to {', '.join(sea)}" if sea else "") if x)  # fmt: skip


def _link_end(game: Game, li: int, loc: int) -> str:
    s, m = game.s, game.map
    other = m.LINK_B[li] if m.LINK_A[li] == loc else m.LINK_A[li]
    name = m.location_names[other]
    if m.LINK_SEA[li]:
        return name + (" (open)" if game.lane_open(li) else "")
    return name + (f" (player {s.link_owner[li]})" if s.link_owner[li] >= 0 else "")


def find_locations(game: Game, text: str) -> list[int]:
    """Locations named by ``text``: the whole name, else its start, else a part (any case); ValueError if none."""
    names, low = game.map.location_names, text.strip().lower().split(":")[0]
    if not low:
        raise ValueError("name a place: 'info Boston' or 'info bost'")
    found = ([x for x, n in enumerate(names) if n.lower() == low]
             or [x for x, n in enumerate(names) if n.lower().startswith(low)]
             or [x for x, n in enumerate(names) if low in n.lower()])  # fmt: skip
    if not found:
        raise ValueError(f"no place {text.strip()!r} on {short_map_name(game)}: give part of its name ('info bost'); "
                         f"'board' lists them")  # fmt: skip
    return found


def location_info(game: Game, loc: int, seat: int) -> str:
    """Everything about one location: colour, spaces and counters, links, and what ``seat`` could build there."""
    s, m, c = game.s, game.map, game.components
    colour = c.colours[m.LOC_COLOUR[loc]] if m.LOC_COLOUR[loc] >= 0 else "no colour"
    lines = [f"{m.location_names[loc]} ({colour}{', a village' if m.LOC_VILLAGE[loc] else ''})"]
    if m.LOC_DISTANT_PORT[loc]:
        lines.append("  a distant port: cubes may come from the demand track to places connected to it")
    if m.LOC_NO_THROUGH[loc]:
        lines.append("  rails may reach it but never pass through it")
    if m.LOC_BUILD_SPACES[loc]:
        lines.append(f"  {plural(m.LOC_BUILD_SPACES[loc], 'build space')}: a player may hold at most "
                     f"{1 if m.LOC_BUILD_SPACES[loc] < 4 else 2} of them")  # fmt: skip
    for sp in m.LOC_SPACES[loc]:
        lines.append(f"  {m.space_label(sp)}: {space_text(game, sp, numbered=False)}")
        if s.space_owner[sp] >= 0 and m.SPACE_SYMBOL[sp] not in (MARKET_SPACE, IMPORT_SPACE):
            d = game.slot_of[(s.space_industry[sp], s.space_level[sp])]
            paid = "paid its owner {} when it flipped" if s.space_flipped[sp] else "pays its owner {} when it flips"
            lines.append(f"      it {paid.format(dollars(c.SLOT_INCOME[d]))}")
    if m.LOC_LINKS[loc]:
        lines.append(f"  links: {_links_of(game, loc)}")
    if not game.is_over and m.LOC_BUILD_SPACES[loc]:
        here = set(m.LOC_SPACES[loc])
        can = sorted({(sp, i) for k in range(c.num_card_kinds) if s.hand[seat][k]
                      for sp, i in game.build_options(seat, k, False) if sp in here})  # fmt: skip
        if can:
            lines.append("  you could build here now: " + ", ".join(
                f"{industry(i)} at {m.space_label(sp)}" for sp, i in can))  # fmt: skip
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- effects
def _rotated(game: Game) -> Game:
    """A copy of ``game`` where the player to move plays first in the turn order, so that finishing the action
    ends no round: what the action itself does, apart from the turn order and interest."""
    g = game.clone()
    p = game.current_player
    g.s.order = [p, *(q for q in g.s.order if q != p)]
    g.s.turn = 0
    g.forget_cached()
    return g


def action_result(game: Game, actions: list[int]) -> Game:
    """The game after ``actions`` played from ``game``'s position by the player to move, the round never ending
    (see :func:`_rotated`); ``game`` is unchanged."""
    g = _rotated(game)
    for a in actions:
        g.apply(a)
    return g


def effect_phrases(
    game: Game,
    before: Any,
    after: Any,
    mover: int,
    viewer: int,
    preview: bool = False,
    actions: list[int] | None = None,
) -> list[str]:
    """What a move of ``mover`` did, from the position ``before`` to ``after`` (States), phrase by phrase, as
    ``viewer`` may know it: counters and rails placed, cubes moved, flips, cards, money and loans. ``actions``, the
    decisions of the move, name the face-up cards taken (a card taken and replaced by one of its kind leaves no
    difference between the positions)."""
    m, c = game.map, game.components
    b, a = before, after
    out: list[str] = []
    built = [sp for sp in range(m.num_spaces) if a.space_owner[sp] >= 0 and (a.space_owner[sp], a.space_industry[sp],
             a.space_level[sp]) != (b.space_owner[sp], b.space_industry[sp], b.space_level[sp])]  # fmt: skip
    for sp in built:
        was = ""
        if b.space_owner[sp] >= 0:
            was = (
                f" (replacing {whose(b.space_owner[sp], viewer)} {industry(b.space_industry[sp])} {b.space_level[sp]})"
            )
        if a.space_cubes[sp] and m.SPACE_SYMBOL[sp] != IMPORT_SPACE:
            r = RESOURCES[COAL if a.space_industry[sp] == COAL_MINE else IRON]
            was += f" ({a.space_cubes[sp]} {r} on it)"
        out.append(f"{industry(a.space_industry[sp])} {a.space_level[sp]} at {m.space_label(sp)}{was}")
    out += [f"rail on {m.link_label(li)}" for li in range(m.num_links) if a.link_owner[li] >= 0 > b.link_owner[li]]
    if not built:
        out += [f"{c.slot_label(d).replace('_', ' ')} off the display" for d in range(c.num_slots)
                if a.display[mover][d] < b.display[mover][d]]  # fmt: skip
    got = [0, 0]  # cubes of each resource the move took from the map and the demand track
    for sp in range(m.num_spaces):
        if sp in built or a.space_cubes[sp] >= b.space_cubes[sp]:
            continue
        n = b.space_cubes[sp] - a.space_cubes[sp]
        if m.SPACE_SYMBOL[sp] == IMPORT_SPACE:
            got[COAL] += n
            out.append(f"{n} coal from the {m.location_names[m.SPACE_LOC[sp]]} import")
        else:
            r = COAL if b.space_industry[sp] == COAL_MINE else IRON
            got[r] += n
            out.append(f"{n} {RESOURCES[r]} from {whose(b.space_owner[sp], viewer)} {industry(b.space_industry[sp])} "
                       f"at {m.space_label(sp)}")  # fmt: skip
    for r in (COAL, IRON):
        got[r] += max(0, b.demand[r] - a.demand[r])
        extra = _cubes_needed(game, b, a, mover, built)[r] - got[r]
        if extra > 0:  # "È possibile acquistare materie prime anche se non sono più disponibili cubetti"
            out.append(f"{extra} {RESOURCES[r]} bought for {dollars(extra * EMPTY_DEMAND_PRICE)} (the demand track is "
                       f"empty)")  # fmt: skip
    for r, name in enumerate(RESOURCES):
        prices = c.DEMAND_PRICES[r]
        if a.demand[r] < b.demand[r]:
            paid = sum(prices[j] for j in range(a.demand[r], b.demand[r]))
            out.append(f"{b.demand[r] - a.demand[r]} {name} from the demand track ({dollars(paid)})")
        elif a.demand[r] > b.demand[r]:
            got = sum(prices[j] for j in range(b.demand[r], a.demand[r]))
            out.append(f"{a.demand[r] - b.demand[r]} {name} to the demand track (+{dollars(got)})")
    for sp in range(m.num_spaces):
        if a.space_flipped[sp] and not b.space_flipped[sp]:
            if m.SPACE_SYMBOL[sp] == MARKET_SPACE:
                out.append(f"the market at {m.location_names[m.SPACE_LOC[sp]]} is used")
            elif a.space_owner[sp] >= 0:
                d = game.slot_of[(a.space_industry[sp], a.space_level[sp])]
                counter = f"{industry(a.space_industry[sp])} at {m.space_label(sp)}"
                out.append(f"{whose(a.space_owner[sp], viewer)} {counter} flips (+{dollars(c.SLOT_INCOME[d])})")
    out += _card_phrases(game, b, a, mover, viewer, actions)
    out += _money_phrases(game, b, a, mover, viewer, preview)
    return out


def _cubes_needed(game: Game, b: Any, a: Any, mover: int, built: list[int]) -> list[int]:
    """Coal and iron the counters built and the rail laid by a move needed (a player's first rail needs none)."""
    c, m = game.components, game.map
    need = [0, 0]
    for sp in built:
        d = game.slot_of[(a.space_industry[sp], a.space_level[sp])]
        need[COAL] += c.SLOT_COAL[d]
        need[IRON] += c.SLOT_IRON[d]
    for li in range(m.num_links):
        if a.link_owner[li] == mover and b.link_owner[li] < 0 and b.rails_left[mover] < RAILS_PER_PLAYER:
            need[COAL] += 1
            need[IRON] += 1
    return need


def _card_phrases(game: Game, b: Any, a: Any, mover: int, viewer: int, actions: list[int] | None) -> list[str]:
    """The cards a move played, took face up and drew (by name only for the viewer's own draws)."""
    c = game.components
    out = []
    played = [k for k in range(c.num_card_kinds) for _ in range(a.discard[k] - b.discard[k])]
    out += [f"{card_name(game, k)} card discarded" for k in played]
    if actions is None:
        slots = [j for j, k in enumerate(b.face_up) if k >= 0 and a.face_up[j] != k]
    else:  # face-up cards are replaced only once the draw action ends: each slot is taken from the position before
        slots = [i - 1 for name, i in map(game.space.block, actions) if name == "DRAW" and i > 0]
    taken = [b.face_up[j] for j in slots]
    out += [f"{card_name(game, k)} taken face up" for k in taken]
    from_deck = sum(a.hand[mover]) - sum(b.hand[mover]) + len(played) - len(taken)
    if from_deck > 0 and mover == viewer:
        gained = [a.hand[mover][k] - b.hand[mover][k] + played.count(k) - taken.count(k)
                  for k in range(c.num_card_kinds)]  # fmt: skip
        out.append(f"drew {cards_text(game, gained)} from the deck")
    elif from_deck > 0:
        out.append(f"drew {plural(from_deck, 'card')} from the deck")
    new_face = [a.face_up[j] for j in slots if a.face_up[j] >= 0]
    if new_face:
        out.append(f"new face up: {', '.join(card_name(game, k) for k in new_face)}")
    return out


def _money_phrases(game: Game, b: Any, a: Any, mover: int, viewer: int, preview: bool = False) -> list[str]:
    """The mover's payments, repaid and new loans, everyone's income, and the mover's money after (if it changed);
    ``preview``: worded as what a choice would do."""
    c = game.components
    out = []
    loans = a.loans[mover] - b.loans[mover]
    spent = a.spent[mover] - b.spent[mover]
    repaid = max(0, -loans)
    if repaid:
        out.append(f"{plural(repaid, 'loan')} repaid ({dollars(repaid * c.LOAN_REPAY)})")
    if spent:
        borrowed = f" (taking {plural(loans, 'loan')} of {dollars(c.LOAN_VALUE)})" if loans > 0 else ""
        out.append(f"{'costs' if preview else 'paid'} {dollars(spent)}{borrowed}")
    for q in range(len(a.money)):
        took = max(0, a.loans[q] - b.loans[q]) * c.LOAN_VALUE
        gain = a.money[q] - b.money[q] - took
        if q == mover:
            gain += spent + repaid * c.LOAN_REPAY
        if gain:
            out.append(f"{'you' if q == viewer else f'player {q}'} {'would receive' if preview else 'received'} "
                       f"{dollars(gain)}")  # fmt: skip
    if not preview and (a.money[mover], a.loans[mover]) != (b.money[mover], b.loans[mover]):
        owner = "you now have" if mover == viewer else f"player {mover} now has"
        out.append(f"{owner} {dollars(a.money[mover])} and {plural(a.loans[mover], 'loan')}")
    return out


def round_end_lines(before: Any, after: Any, game: Game, viewer: int) -> list[str]:
    """What the end of a round did between two States: the new turn order and each player's interest."""
    c = game.components
    if game.is_over:
        lines = ["the game is over (the deck is empty and a player's hand too, at the end of a round): the final "
                 "scoring follows"]  # fmt: skip
    else:
        lines = [f"round {after.round} begins; turn order: {' '.join(map(str, after.order))} (who spent least "
                 f"plays first)"]  # fmt: skip
    for q in range(len(after.money)):
        paid = before.money[q] + (after.loans[q] - before.loans[q]) * c.LOAN_VALUE - after.money[q]
        if paid:
            new = after.loans[q] - before.loans[q]
            extra = f", taking {plural(new, 'loan')} to pay it" if new else ""
            lines.append(f"  {'you pay' if q == viewer else f'player {q} pays'} {dollars(paid)} interest "
                         f"on {plural(before.loans[q], 'loan')}{extra}")  # fmt: skip
    return lines


# ---------------------------------------------------------------------------------------------- choices
_NEXT = {
    "coal_source": "then you choose which of the nearest coal cubes to take",
    "iron_source": "then you choose which of the nearest iron cubes to take",
    "sell_to": "then you choose where to sell",
    "sell_more": "then you may sell again or stop",
    "develop_which": "then you choose the counter to remove",
    "draw_second": "then you draw a second card",
    "build_where": "then you choose where to build",
}


def _preview(game: Game, action: int) -> str:
    """What playing ``action`` would do, up to the player's next decision (a cube source, another sale), as short
    phrases: played on a copy of the game."""
    p = game.current_player
    after = action_result(game, [action])
    words = effect_phrases(game, game.s, after.s, p, p, preview=True)
    words = [w for w in words if " at " not in w.split(" (")[0] or "from" in w or "flips" in w]
    words = [w for w in words if not w.startswith("rail on ")]
    if after.s.phase != ACTION and after.current_player == p and after.phase in _NEXT:
        words.append(_NEXT[after.phase])
    return "; ".join(words)


def _build_card_text(game: Game, k: int, combined: bool) -> str:
    """Where card ``k`` lets the player to move build: the industries, and the places (named when few)."""
    m, p = game.map, game.current_player
    places = game.build_options(p, k, combined)
    kinds = sorted({i for _, i in places})
    locs = list(dict.fromkeys(m.location_names[m.SPACE_LOC[sp]] for sp, _ in places))
    what = " or ".join(f"{industry(i)} {game.components.SLOT_LEVEL[game.lowest_counter(p, i)]}" for i in kinds)
    where = ", ".join(locs) if len(locs) <= 6 else f"{len(locs)} places"
    return f"{what} at {where} ({plural(len(places), 'space')})"


def choice_text(game: Game, action: int) -> str:
    """A legal ``action`` of the player to move, with what it costs or gives, e.g. ``build coal_mine at
    Pennsylvania:1: level 1, $4; paid $4 with 1 new loan of $10; ...``."""
    s, m, c, A = game.s, game.map, game.components, game.space
    p = game.current_player
    name = game.action_to_string(action)
    block, i = A.block(action)
    if block == "BUILD":
        return f"{name}: play the card to build {_build_card_text(game, i, False)}"
    if block == "BUILD_ANY":
        return f"{name}: both actions, discarding the card: build {_build_card_text(game, i, True)}"
    if block == "DEVELOP":
        return f"{name}: discard the card, then remove a counter from your display (to reach higher levels)"
    if block == "PASS":
        return f"{name}: discard the card and do nothing"
    if block == "PASS_FREE":
        return f"{name}: do nothing (no card in hand, none in the deck)"
    if block == "DRAW" and i == 0:
        return f"{name}: the top card ({plural(len(s.deck) - s.deck_pos, 'card')} left; the others do not see it)"
    if block == "DRAW":
        return f"{name}: take the face-up {card_name(game, s.face_up[i - 1])} (everyone sees it)"
    if block == "SELL":
        d = game.slot_of[(s.space_industry[i], s.space_level[i])]
        buyers = ", ".join(m.space_label(t) for t in game.sale_targets(i))
        return f"{name}: it flips, paying you {dollars(c.SLOT_INCOME[d])}; buyers: {buyers}"
    if block == "SELL_TO" and s.space_industry[i] == PORT:
        d = game.slot_of[(PORT, s.space_level[i])]
        if s.space_owner[i] == p:
            return f"{name}: your port flips, paying you {dollars(c.SLOT_INCOME[d])} too"
        return f"{name}: player {s.space_owner[i]}'s port flips, paying him {dollars(c.SLOT_INCOME[d])}"
    if block == "SELL_TO":
        return f"{name}: {market_text(game, i)}; it is used up by this sale"
    if block == "REMOVE":
        text = f"{name}: the {c.slot_label(i).replace('_', ' ')} counter leaves your display"
        left = [d for d in c.SLOTS_OF[c.SLOT_INDUSTRY[i]] for _ in range(s.display[p][d] - (d == i))]
        if left and left[0] != game.lowest_counter(p, c.SLOT_INDUSTRY[i]):
            text += f"; your next {industry(c.SLOT_INDUSTRY[i])} is level {c.SLOT_LEVEL[left[0]]}"
        if c.SLOT_LEVEL[i] == 0:
            text += " (a level-0 counter can never be built)"
        return text
    if block == "DONE":
        return f"{name}: stop selling"
    if block == "REPAY":
        return f"{name}: pay {dollars(c.LOAN_REPAY)}, one loan fewer (you have {plural(s.loans[p], 'loan')})"
    text = _preview(game, action)  # BUILD_AT, RAIL, SOURCE: played on a copy
    if block == "BUILD_AT":
        ind = i % NUM_INDUSTRIES
        d = game.lowest_counter(p, ind)
        needs = [f"{n} {r}" for n, r in ((c.SLOT_COAL[d], "coal"), (c.SLOT_IRON[d], "iron")) if n]
        head = f"level {c.SLOT_LEVEL[d]}, {dollars(c.SLOT_COST[d])}" + (f" + {' + '.join(needs)}" if needs else "")
        head += f", pays {dollars(c.SLOT_INCOME[d])} when it flips"
        return f"{name}: {head}; {text}"
    if block == "RAIL" and s.rails_left[p] == RAILS_PER_PLAYER:
        text += "; your first rail needs no coal or iron"
    return f"{name}: {text}" if text else name


def score_table(game: Game) -> str:
    """The final scoring as a table in points, one row a player, and each player's dollars behind the money
    points."""
    n = game.num_players
    parts = [game.score_breakdown(q) for q in range(n)]
    keys = list(parts[0])
    heads = ["player", *(k.replace("_", " ") for k in keys), "total", ""]
    winners = game.winners()
    rows = [[str(q), *(str(parts[q][k]) for k in keys), str(game.scores()[q]), "wins" if q in winners else ""]
            for q in range(n)]  # fmt: skip
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]

    def line(cells: list[str]) -> str:
        return "  ".join(x.rjust(w) for x, w in zip(cells, widths, strict=True)).rstrip()

    out = ["points by source:", line(heads), *(line(r) for r in rows), "money, in dollars (each $5 is a point):"]
    c = game.components
    for q in range(n):
        acc = game.final_accounts(q)
        cash = game.s.money[q]
        repaid = acc.get("loans_repaid", 0)
        out.append(
            f"  player {q}: {dollars(cash)} + rail income {dollars(acc.get('rail_income', 0))}"
            f" - {plural(repaid, 'loan')} repaid ({dollars(repaid * c.LOAN_REPAY)})"
            f" = {dollars(acc.get('money_left', 0))}; {plural(game.s.loans[q] - repaid, 'loan')} unpaid"
        )
    return "\n".join(out)
