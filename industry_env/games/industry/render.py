"""Text pictures of a position, for the terminal game, notebooks and debugging (no rules here)."""

from __future__ import annotations

from typing import Any

from . import actions as A
from .board import field_id
from .rules import BONUS, COLUMN_LETTERS, FACTORY, JOKER, NUM_COLUMNS, NUM_ERAS, NUM_RESOURCES, TECHNOLOGY

Game = Any  # a reference Game (reference.Game renders through this module, so it is not imported back)

_KIND_MARK = {FACTORY: "F", TECHNOLOGY: "T", BONUS: "B", JOKER: "J"}


def cell(game: Game, f: int) -> str:
    """Five characters for field ``f``: kind letter, then owner and state.

    ``F.``: factory not yet auctioned; ``F2*``: owned by player 2, developed; ``F2o``: owned, undeveloped
    (clock side up); ``J-``: a joker already taken; ``F^``: available for auction this round.
    """
    s, b = game.s, game.board
    mark = _KIND_MARK[int(b.KIND[f])]
    if s.claimed[f]:
        if b.KIND[f] == JOKER:
            return f"{mark}-"
        return f"{mark}{s.owner[f]}{'*' if s.developed[f] else 'o'}"
    if b.ERA[f] == s.era and s.face_up[f % NUM_COLUMNS]:
        return f"{mark}^"
    return f"{mark}."


def render_text(game: Game) -> str:
    """The board grid, every player's money, points, jokers and subsidy, and the decision awaited."""
    s, b = game.s, game.board
    lines = ["     " + "".join(f"{c:<5}" for c in COLUMN_LETTERS)]
    for e in range(NUM_ERAS):
        row = "".join(f"{cell(game, e * NUM_COLUMNS + c):<5}" for c in range(NUM_COLUMNS))
        lines.append(f"{'>' if e == s.era else ' '}{e + 1}   {row}")
    lines.append(
        "     F factory, T technology, B bonus, J joker; ^ for auction now; <player>o owned, <player>* developed"
    )
    for p in range(s.num_players):
        jokers = [b.resource_names[r] for r in range(NUM_RESOURCES) for _ in range(s.jokers[p][r])]
        jokers += ["?"] * s.jokers[p][NUM_RESOURCES]
        tags = [t for t, on in (("start", p == s.starting_player), ("subsidy", s.subsidy[p])) if on]
        lines.append(
            f"player {p}: {s.money[p]:>3} Talers {game.scores()[p]:>4} points"
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
