"""The one flat action encoding of Industry, shared by every engine, environment and agent.

Every decision of the game is one integer in ``[0, NUM_ACTIONS)``; a legal-action mask says which are allowed.

=================  =========  ======================  ================================================
block              offset     count                   readable form
=================  =========  ======================  ================================================
AUCTION            0          60 (field)              ``auction 3F``: the auctioneer offers field 3F
PASS               60         1                       ``pass``: a bidder declines to bid
BID                61         MAX_BID = 112           ``bid 5``: a bid of 5 Talers (action 60 + k)
SELL               173        1                       ``sell``: the auctioneer lets the highest bidder claim
KEEP               174        1                       ``keep``: the auctioneer claims, paying the highest bid
DEVELOP            175        60 (field)              ``develop 2C``: develop an own undeveloped field
DONE               235        1                       ``done``: end one's development turn
PAY                236        11 x 7 (resource, how)  ``pay Glass: joker`` / ``? joker`` / ``bank`` /
                                                      ``player 2``: how a required resource is paid
SUBSIDY            313        1                       ``subsidy``: take the Subsidy token (+3 Talers)
=================  =========  ======================  ================================================

``NUM_ACTIONS = 314`` for 3 and 4 players alike (with 3 players, ``pay ...: player 3`` is never legal).
Field ``f`` is ``era * 12 + column`` (0-based), written ``<era><column>`` with era 1-5 and column A-L.
Players are numbered 0 to 3 clockwise. The bid cap ``MAX_BID`` is all the money that can exist in a game
(:func:`industry_env.games.industry.rules.money_bound`), so it never binds: no player can hold more.
"""

from __future__ import annotations

import re

from .components import field_id, field_index, load_board
from .rules import MAX_BID, MAX_PLAYERS, NUM_FIELDS, NUM_RESOURCES

AUCTION = 0
PASS = AUCTION + NUM_FIELDS
BID = PASS + 1  # "bid k" is BID + k - 1, k = 1..MAX_BID
SELL = BID + MAX_BID
KEEP = SELL + 1
DEVELOP = KEEP + 1
DONE = DEVELOP + NUM_FIELDS
PAY = DONE + 1
# How a required resource is paid: a joker of that resource, the "?" joker, the bank, or player k.
PAY_JOKER, PAY_WILD, PAY_BANK, PAY_PLAYER = 0, 1, 2, 3
NUM_PAY_WAYS = PAY_PLAYER + MAX_PLAYERS
SUBSIDY = PAY + NUM_RESOURCES * NUM_PAY_WAYS
NUM_ACTIONS = SUBSIDY + 1

_PAY_WORDS = ("joker", "? joker", "bank")


def auction(f: int) -> int:
    """Action: offer field ``f`` for auction."""
    return AUCTION + f


def bid(k: int) -> int:
    """Action: bid ``k`` Talers (1 <= k <= MAX_BID)."""
    if not 1 <= k <= MAX_BID:
        raise ValueError(f"bid {k} is out of range 1..{MAX_BID}")
    return BID + k - 1


def develop(f: int) -> int:
    """Action: develop own field ``f``."""
    return DEVELOP + f


def pay(resource: int, way: int) -> int:
    """Action: pay ``resource`` by ``way`` (PAY_JOKER, PAY_WILD, PAY_BANK, or PAY_PLAYER + player)."""
    return PAY + resource * NUM_PAY_WAYS + way


def action_to_string(action: int, resource_names: tuple[str, ...] | None = None) -> str:
    """The readable name of ``action``, e.g. ``bid 5``, ``auction 3F``, ``pay Glass: player 2``."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
    if a < PASS:
        return f"auction {field_id(a - AUCTION)}"
    if a == PASS:
        return "pass"
    if a < SELL:
        return f"bid {a - BID + 1}"
    if a == SELL:
        return "sell"
    if a == KEEP:
        return "keep"
    if a < DONE:
        return f"develop {field_id(a - DEVELOP)}"
    if a == DONE:
        return "done"
    if a < SUBSIDY:
        r, way = divmod(a - PAY, NUM_PAY_WAYS)
        names = resource_names or load_board().resource_names
        how = _PAY_WORDS[way] if way < PAY_PLAYER else f"player {way - PAY_PLAYER}"
        return f"pay {names[r]}: {how}"
    return "subsidy"


_PAY_RE = re.compile(r"^pay\s+(.+?)\s*:\s*(joker|\?\s*joker|bank|player\s+(\d+))$")


def string_to_action(text: str, resource_names: tuple[str, ...] | None = None) -> int:
    """Parse a readable action name back to its integer (inverse of :func:`action_to_string`).

    Case and extra spaces are forgiven; anything else raises ValueError saying what was expected.
    """
    t = " ".join(text.strip().lower().split())
    simple = {"pass": PASS, "sell": SELL, "keep": KEEP, "done": DONE, "subsidy": SUBSIDY}
    if t in simple:
        return simple[t]
    word, _, rest = t.partition(" ")
    try:
        if word == "auction":
            return auction(field_index(rest))
        if word == "develop":
            return develop(field_index(rest))
        if word == "bid" and rest.isdigit():
            return bid(int(rest))
    except ValueError as exc:
        raise ValueError(f"cannot read action {text!r}: {exc}") from None
    m = _PAY_RE.match(t)
    if m:
        names = [n.lower() for n in (resource_names or load_board().resource_names)]
        if m.group(1) not in names:
            raise ValueError(f"cannot read action {text!r}: unknown resource {m.group(1)!r}")
        r = names.index(m.group(1))
        how = m.group(2)
        if m.group(3) is not None:
            p = int(m.group(3))
            if not 0 <= p < MAX_PLAYERS:
                raise ValueError(f"cannot read action {text!r}: no player {p}")
            return pay(r, PAY_PLAYER + p)
        return pay(r, {"joker": PAY_JOKER, "bank": PAY_BANK}.get(how, PAY_WILD))
    raise ValueError(
        f"cannot read action {text!r}: expected 'auction 3F', 'pass', 'bid 5', 'sell', 'keep', 'develop 2C', "
        "'done', 'pay Glass: joker|? joker|bank|player 2' or 'subsidy'"
    )
