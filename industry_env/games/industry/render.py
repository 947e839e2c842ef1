"""Text pictures of a position, for the terminal game, notebooks and debugging (no rules here).

:func:`render_text` is the board as a grid with the players' holdings; :func:`field_info` tells everything about
one field, :func:`era_table` an era's fields in a table, :func:`describe_choice` what a legal action costs the
player to move, and :func:`score_table` the final scoring by source.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .components import field_id
from .rules import (
    BONUS,
    COLUMN_LETTERS,
    FACTORY,
    JOKER,
    JOKER_POINTS,
    LINK_POINTS,
    NUM_COLUMNS,
    NUM_ERAS,
    NUM_FIELDS,
    NUM_RESOURCES,
    RESOURCE_PRICE,
    SUBSIDY_MONEY,
    SUBSIDY_POINTS,
    TECHNOLOGY,
)
from .texts import _describe, _network_label

Game = Any  # a reference Game (reference.Game renders through this module, so it is not imported back)

_KIND_MARK = {FACTORY: "F", TECHNOLOGY: "T", BONUS: "B", JOKER: "J"}


LEGEND = (
    "F factory, T technology, B bonus, J joker",
    ". not claimed;  + can be auctioned this round;  ^ on auction now",
    "<player>o owned, not developed yet;  <player>* developed;  J- joker taken",
)


def talers(n: int) -> str:
    """``"1 Taler"``, ``"3 Talers"``."""
    return f"{n} Taler" if n == 1 else f"{n} Talers"


def points(n: int) -> str:
    """``"1 point"``, ``"5 points"``."""
    return f"{n} point" if n in (1, -1) else f"{n} points"


def _state_mark(game: Game, f: int) -> str:
    """``^`` on auction now, ``+`` can be auctioned this round, else ``.`` (not claimed)."""
    s, b = game.s, game.board
    if s.lot == f and game.phase in ("bid", "sell_or_keep"):
        return "^"
    if b.ERA[f] == s.era and s.face_up[f % NUM_COLUMNS] and not game.is_over:
        return "+"
    return "."


def cell(game: Game, f: int) -> str:
    """Up to three characters for field ``f``: kind letter, then owner and state.

    ``F.``: factory not claimed; ``F2*``: owned by player 2, developed; ``F2o``: owned, undeveloped (clock side
    up); ``J-``: a joker already taken; ``F+``: can be auctioned this round; ``F^``: on auction now.
    """
    s, b = game.s, game.board
    mark = _KIND_MARK[int(b.KIND[f])]
    if s.claimed[f]:
        if b.KIND[f] == JOKER:
            return f"{mark}-"
        return f"{mark}{s.owner[f]}{'*' if s.developed[f] else 'o'}"
    return mark + _state_mark(game, f)


def render_text(game: Game) -> str:
    """The board grid, every player's money, points, jokers and subsidy, and the decision awaited."""
    s, b = game.s, game.board
    lines = ["     " + "".join(f"{c:<5}" for c in COLUMN_LETTERS)]
    for e in range(NUM_ERAS):
        row = "".join(f"{cell(game, e * NUM_COLUMNS + c):<5}" for c in range(NUM_COLUMNS))
        lines.append(f"{'>' if e == s.era else ' '}{e + 1}   {row}")
    lines += [f"     {text}" for text in LEGEND]
    for p in range(s.num_players):
        jokers = [b.resource_names[r] for r in range(NUM_RESOURCES) for _ in range(s.jokers[p][r])]
        jokers += ["?"] * s.jokers[p][NUM_RESOURCES]
        tags = [t for t, on in (("start", p == s.starting_player), ("subsidy", s.subsidy[p])) if on]
        lines.append(
            f"player {p}: {talers(s.money[p]):>10} {points(game.scores()[p]):>10}"
            f"  jokers: {', '.join(jokers) or '-'}" + (f"  [{', '.join(tags)}]" if tags else "")
        )
    lines.append(f"era {s.era + 1}, round {s.round}: {describe_decision(game)}")
    return "\n".join(lines)


def describe_decision(game: Game) -> str:
    """One line saying who decides what."""
    s, b = game.s, game.board
    p = game.current_player
    if game.is_over:
        return f"game over; scores {game.scores()}; winners {game.winners()}"
    if game.phase == "auction":
        return f"player {p} (auctioneer) chooses a field to auction"
    if game.phase == "bid":
        high = f"highest bid {s.high_bid} by player {s.high_bidder}" if s.high_bidder >= 0 else "no bid yet"
        return f"auction of {b.field_label(s.lot)}: player {p} bids or passes ({high})"
    if game.phase == "sell_or_keep":
        return (f"auction of {b.field_label(s.lot)}: player {p} sells to player {s.high_bidder} "
                f"for {s.high_bid} or keeps it")  # fmt: skip
    if game.phase == "develop":
        return f"development: player {p} develops a field ({s.developments} of 2 done) or is done"
    names = ", ".join(b.resource_names[r] for r in s.pending)
    return f"development of {field_id(s.developing)} {b.field_names[s.developing]}: player {p} pays {names}"


def describe_action(game: Game, action: int) -> str:
    """The action's readable name with the field's name added, e.g. ``auction 2E (Iron Ore Mine)``."""
    text = A.action_to_string(action, game.board.resource_names)
    a = int(action)
    if A.AUCTION <= a < A.PASS or A.DEVELOP <= a < A.DONE:
        f = a - (A.AUCTION if a < A.PASS else A.DEVELOP)
        text += f" ({game.board.field_names[f]})"
    return text


def _facts(game: Game, f: int) -> str:
    """``factory, cost 2, 2 points, needs Wood, produces Iron, tracks``: what the board prints on field ``f``."""
    b, d = game.board, _describe(game.board, f)
    if b.KIND[f] == JOKER:
        kind = "?" if b.JOKER_KIND[f] >= NUM_RESOURCES else b.resource_names[b.JOKER_KIND[f]]
        what = "resource" if kind == "?" else kind
        return f"joker: {kind} (pays for one {what}, or {points(JOKER_POINTS)} at the end if kept)"
    parts = [d["kind"]]
    if d["cost"] != "-":
        parts.append(f"cost {d['cost']}")
    if d["points"] != "-":
        parts.append(points(int(d["points"])))
    if d["needs"] != "-":
        parts.append(f"needs {d['needs']}")
    if d["effect"] != "-":
        parts.append(d["effect"])
    if b.KIND[f] in (FACTORY, BONUS) and b.networks[f]:
        parts.append(("on " if b.KIND[f] == FACTORY else "serves ") + ", ".join(map(_network_label, b.networks[f])))
    return ", ".join(parts)


def _holder(game: Game, f: int) -> str:
    """Who holds field ``f`` and in what state, or where it stands in the game."""
    s, b = game.s, game.board
    if s.claimed[f]:
        if b.KIND[f] == JOKER:
            return "joker taken"
        return f"player {s.owner[f]}, {'developed' if s.developed[f] else 'not developed yet'}"
    mark = _state_mark(game, f)
    if mark == "^":
        return "on auction now"
    if mark == "+":
        return "can be auctioned this round"
    if b.ERA[f] < s.era or game.is_over:
        return "never auctioned"
    return "not yet drawn" if b.ERA[f] == s.era else f"comes in era {b.ERA[f] + 1}"


def era_table(game: Game, era: int) -> str:
    """The 12 fields of ``era`` (0-based), one a line: id, name, what is printed on it, and who holds it."""
    b = game.board
    fields = range(era * NUM_COLUMNS, (era + 1) * NUM_COLUMNS)
    width = max(len(b.field_names[f]) for f in fields)
    lines = [f"era {era + 1}{' (now)' if era == game.s.era else ''}:"]
    for f in fields:
        lines.append(f"  {cell(game, f):<3} {field_id(f)} {b.field_names[f]:<{width}}  {_facts(game, f)}; "
                     f"{_holder(game, f)}")  # fmt: skip
    return "\n".join(lines)


def field_info(game: Game, f: int, player: int | None = None) -> str:
    """Everything about field ``f``: what is printed on it, its links and bonus connections, who holds it, and, for
    ``player``, what developing it would cost now."""
    s, b = game.s, game.board
    lines = [f"{b.field_label(f)}: {_facts(game, f)}", f"  {_holder(game, f)}"]
    linked = [(g, "road") for a, c in b.ROADS.tolist() for g in (a, c) if f in (a, c) and g != f]
    linked += [(g, "technology link") for a, c in b.TECH_LINKS.tolist() for g in (a, c) if f in (a, c) and g != f]
    for g, how in linked:
        lines.append(f"  {how} to {b.field_label(g)} ({points(LINK_POINTS)} at the end to whoever develops both)")
    if b.KIND[f] == BONUS:
        served = [g for g in range(NUM_FIELDS) if b.BONUS_CONNECT[f, g]]
        if served:
            lines.append(f"  at the end: {b.MULTIPLIER[f]} points for each of these factories its owner has "
                         f"developed: {', '.join(field_id(g) for g in served)}")  # fmt: skip
    elif b.KIND[f] == FACTORY:
        ports = [g for g in range(NUM_FIELDS) if b.BONUS_CONNECT[g, f]]
        if ports:
            lines.append(f"  connected to the bonus fields {', '.join(b.field_label(g) for g in ports)}")
    if b.KIND[f] == FACTORY and b.ERA[f] < s.era:
        lines.append("  its points are scored only when developed in its own era: now none")
    if player is not None and b.KIND[f] in (FACTORY, TECHNOLOGY, BONUS) and not game.is_over:
        cost = game.construction_cost(player, f)
        pay = [b.resource_names[r] for r in game._resources_to_pay(player, f)]
        lines.append(f"  to develop it, player {player} would pay {talers(cost)}"
                     + (f" and {', '.join(pay)}" if pay else ""))  # fmt: skip
    return "\n".join(lines)


def describe_choice(game: Game, action: int) -> str:
    """A legal ``action`` of the player to move, with what it costs or gives, e.g. ``bid 5 (5 Talers if you win;
    you have 8)``."""
    s, b = game.s, game.board
    p, a = game.current_player, int(action)
    text = A.action_to_string(a, b.resource_names)
    if A.AUCTION <= a < A.PASS:
        f = a - A.AUCTION
        return f"{text}: {b.field_names[f]} ({_facts(game, f)})"
    if A.BID <= a < A.SELL:
        k = a - A.BID + 1
        return f"{text}: pay {talers(k)} if you win (you have {talers(s.money[p])})"
    if a == A.PASS:
        return f"{text}: no bid on {b.field_label(s.lot)}"
    if a == A.SELL:
        return f"{text}: player {s.high_bidder} pays you {talers(s.high_bid)} and claims {b.field_label(s.lot)}"
    if a == A.KEEP:
        back = s.high_bid // s.num_players  # one Taler to each player in turn, you last: every n-th comes back
        comes = f"{talers(back)} of it comes back to you" if back else "none of it comes back to you"
        return (f"{text}: you claim {b.field_label(s.lot)}, paying {talers(s.high_bid)} out one by one around the "
                f"table, starting at your left ({comes})")  # fmt: skip
    if A.DEVELOP <= a < A.DONE:
        f = a - A.DEVELOP
        pay = [b.resource_names[r] for r in game._resources_to_pay(p, f)]
        if b.KIND[f] == BONUS:
            gain = f"{points(int(b.MULTIPLIER[f]))} at the end for each developed factory of yours it serves"
        elif b.KIND[f] == FACTORY and b.ERA[f] != s.era:
            gain = "no points (a factory scores only in its own era)"
        else:
            gain = f"{points(int(b.POINTS[f]))} now"
        cost = game.construction_cost(p, f)
        price = [talers(cost)] if cost else []
        return f"{text}: {b.field_names[f]}, costs {' and '.join([*price, *pay]) or 'nothing'}; {gain}"
    if a == A.DONE:
        return f"{text}: end your development turn"
    if A.PAY <= a < A.SUBSIDY:
        r, way = divmod(a - A.PAY, A.NUM_PAY_WAYS)
        if way == A.PAY_JOKER:
            return f"{text}: uses your {b.resource_names[r]} joker ({points(JOKER_POINTS)} at the end if kept)"
        if way == A.PAY_WILD:
            return f"{text}: uses your ? joker ({points(JOKER_POINTS)} at the end if kept)"
        if way == A.PAY_BANK:
            return f"{text}: {talers(RESOURCE_PRICE)} to the bank"
        return f"{text}: {talers(RESOURCE_PRICE)} to player {way - A.PAY_PLAYER}"
    return f"{text}: take {talers(SUBSIDY_MONEY)} now, {points(SUBSIDY_POINTS)} at the end"


def score_table(game: Game) -> str:
    """The final scoring as a table: one row a player, one column a source of points, the total and who won."""
    parts = [game.score_breakdown(p) for p in range(game.num_players)]
    keys = list(parts[0])
    heads = ["player", *(k.replace("_", " ") for k in keys), "total", ""]
    winners = game.winners()
    rows = [[str(p), *(str(parts[p][k]) for k in keys), str(game.scores()[p]), "wins" if p in winners else ""]
            for p in range(game.num_players)]  # fmt: skip
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
    return "\n".join([line(heads), *(line(r) for r in rows)])
