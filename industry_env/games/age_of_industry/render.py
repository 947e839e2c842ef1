"""A text picture of a position, for the terminal, notebooks and debugging (no rules here).

Counters read ``cotton_mill 2 (player 1, flipped)``; a market space says what it buys (``market[buys cotton]``,
``market[used]`` once sold to); the demand track shows its cubes. Hands are shown only for ``seat`` (everything if
``seat`` is None: the debugging view). The terminal game's fuller view is :mod:`.playtext`.
"""

from __future__ import annotations

from typing import Any

from .components import ALL_SYMBOLS, IMPORT_SPACE, MARKET_KINDS, MARKET_SPACE
from .rules import INDUSTRIES

Game = Any  # a reference Game (reference.Game reaches this module, so it is not imported back)

_MARKET_WORDS = {"cotton": "buys cotton", "goods": "buys goods", "both": "buys cotton and goods",
                 "no_demand": "no demand"}  # fmt: skip


def space_text(game: Game, sp: int) -> str:
    """One space: its symbol and what stands on it."""
    s, m = game.s, game.map
    sym = m.SPACE_SYMBOL[sp]
    if sym == MARKET_SPACE:
        if s.space_flipped[sp]:
            return "market[used]"
        return f"market[{_MARKET_WORDS[MARKET_KINDS[s.space_tile[sp]]]}]"
    if sym == IMPORT_SPACE:
        return f"import[{s.space_cubes[sp]} coal]"
    if s.space_owner[sp] < 0:
        return f"{ALL_SYMBOLS[sym]}[ ]"
    flags = [f"player {s.space_owner[sp]}"]
    if s.space_flipped[sp]:
        flags.append("flipped")
    if s.space_cubes[sp]:
        flags.append(f"{s.space_cubes[sp]} {'cube' if s.space_cubes[sp] == 1 else 'cubes'}")
    if s.space_no_flip[sp]:
        flags.append("never flips")
    return f"{ALL_SYMBOLS[sym]}[{INDUSTRIES[s.space_industry[sp]]} {s.space_level[sp]} ({', '.join(flags)})]"


def render_text(game: Game, seat: int | None = None) -> str:
    """The whole position as text; other seats' hands only when ``seat`` is None (``seat=-1``, no player's seat:
    the public view, every hand as a count)."""
    s, m, c = game.s, game.map, game.components
    who = "game over" if game.is_over else f"player {game.current_player} to move ({game.phase})"
    lines = [f"Age of Industry on {m.name.split(' (')[0]}: {s.num_players} players, round {s.round}, {who}",
             "turn order: " + " ".join(str(q) for q in s.order)
             + "   spent: " + " ".join(f"{s.spent[q]}" for q in s.order)]  # fmt: skip
    for q in range(s.num_players):
        hand = ", ".join(f"{c.card_label(k)} x{h}" for k, h in enumerate(s.hand[q]) if h) or "no cards"
        n = sum(s.hand[q])
        shown = hand if seat is None or seat == q else f"{n} {'card' if n == 1 else 'cards'}"
        loans = f"{s.loans[q]} {'loan' if s.loans[q] == 1 else 'loans'}"
        rails = f"{s.rails_left[q]} {'rail' if s.rails_left[q] == 1 else 'rails'} left"
        lines.append(f"player {q}: ${s.money[q]}, {loans}, {rails}, hand: {shown}")
    face = ", ".join(c.card_label(k) if k >= 0 else "-" for k in s.face_up)
    discard = ", ".join(f"{c.card_label(k)} x{d}" for k, d in enumerate(s.discard) if d)
    left = len(s.deck) - s.deck_pos
    lines.append(f"deck {left} {'card' if left == 1 else 'cards'}; face up: {face}; discards: {discard or 'none'}")
    lines.append(f"demand track: coal {s.demand[0]}/{len(c.DEMAND_PRICES[0])}, "
                 f"iron {s.demand[1]}/{len(c.DEMAND_PRICES[1])}")  # fmt: skip
    for loc in range(m.num_locations):
        if m.LOC_VILLAGE[loc]:
            continue
        colour = c.colours[m.LOC_COLOUR[loc]] if m.LOC_COLOUR[loc] >= 0 else "-"
        extra = " (distant port)" if m.LOC_DISTANT_PORT[loc] else ""
        spaces = " ".join(space_text(game, sp) for sp in m.LOC_SPACES[loc])
        lines.append(f"  {m.location_names[loc]} ({colour}){extra}: {spaces}")
    rails = [f"{m.link_label(li)}: player {s.link_owner[li]}" for li in range(m.num_links) if s.link_owner[li] >= 0]
    lines.append("rails: " + ("; ".join(rails) if rails else "none"))
    if game.is_over:
        for q in range(s.num_players):
            points = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in game.score_breakdown(q).items())
            lines.append(f"player {q} final: {points} = {game.scores()[q]} points")
    return "\n".join(lines)
