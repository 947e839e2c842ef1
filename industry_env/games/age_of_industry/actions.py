"""The one flat action encoding of Age of Industry, derived from the live components and map.

Every decision is one integer in ``[0, num_actions(map))``; a legal-action mask says which are allowed. Large
decisions are sequences of small ones: what to do (with which card), then where and which industry, then, when
two sources of coal or iron are equally near, which one.

================  ===================  ===============================================================
block             count                readable form
================  ===================  ===============================================================
BUILD             K card kinds         ``build with brown``: play a card to build (Costruire un'industria)
BUILD_ANY         K                    ``build anywhere with port``: the combined build (both actions)
RAIL              L_rail rail links    ``rail Regensburg-Bohemia``: build a rail link
SELL              S spaces             ``sell from Köln:1``: sell from an own cotton mill or factory
DEVELOP           K                    ``develop with ship``: discard a card to develop
DRAW              3                    ``draw deck``, ``draw face-up 1``, ``draw face-up 2`` (each card drawn)
PASS              K                    ``pass with grey``: discard a card to pass
PASS_FREE         1                    ``pass``: with no card in hand and none left in the deck
BUILD_AT          S x 6 industries     ``build cotton_mill at Köln:1``
SOURCE            S + 1                ``source Poland:1`` / ``source demand track``: which cube of equally near ones
SELL_TO           S                    ``sell to Hamburg:1``: the port or market the goods go to
REMOVE            D display slots      ``remove factory 0``: the counter a development removes
DONE              1                    ``done``: end the sell action
REPAY             1                    ``repay loan``: repay one loan (any decision of one's own turn)
================  ===================  ===============================================================

Every bound is a count of the live data: K the card kinds of the components file (industries, then location
colours), S the spaces of the map (a build, a sale, a source and a market are all spaces, so S covers each),
L_rail its potential rail links (sea lanes carry no counter), D the slots of the player display, 6 the industries
of the rulebook, and 3 the deck and the two face-up cards. Nothing depends on the number of players (3-5 share one
space). The blocks' order is the table's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .components import Components, GameMap, name_key
from .rules import INDUSTRIES, NUM_FACE_UP, NUM_INDUSTRIES

BLOCKS = ("BUILD", "BUILD_ANY", "RAIL", "SELL", "DEVELOP", "DRAW", "PASS", "PASS_FREE", "BUILD_AT", "SOURCE",
          "SELL_TO", "REMOVE", "DONE", "REPAY")  # fmt: skip
DRAW_SOURCES = 1 + NUM_FACE_UP  # the deck, then each face-up card


@dataclass(frozen=True)
class ActionSpace:
    """Offsets and sizes of every block for one (components, map) pair; see the module docstring."""

    num_card_kinds: int
    num_spaces: int
    num_rail_links: int
    num_slots: int
    offsets: dict[str, int]
    sizes: dict[str, int]
    card_labels: tuple[str, ...]
    space_labels: tuple[str, ...]
    link_labels: tuple[str, ...]
    slot_labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return sum(self.sizes.values())

    def __getattr__(self, name: str) -> int:  # BUILD, RAIL, ...: the offset of a block
        offsets = self.__dict__.get("offsets", {})
        if name in offsets:
            return offsets[name]
        raise AttributeError(name)

    def block(self, action: int) -> tuple[str, int]:
        """(block name, index within the block) of ``action``."""
        a = int(action)
        for name in BLOCKS:
            if self.offsets[name] <= a < self.offsets[name] + self.sizes[name]:
                return name, a - self.offsets[name]
        raise ValueError(f"action {action} is out of range 0..{self.size - 1}")

    # readable constructors
    def build_at(self, space: int, industry: int) -> int:
        return self.BUILD_AT + space * NUM_INDUSTRIES + industry

    def source(self, space: int) -> int:
        """``space`` = -1 for the demand track."""
        return self.SOURCE + (self.num_spaces if space < 0 else space)


@lru_cache(maxsize=16)
def action_space(components: Components, game_map: GameMap) -> ActionSpace:
    """The action space of a components file and a map (cached: both are immutable)."""
    K, S, D = components.num_card_kinds, game_map.num_spaces, components.num_slots
    L = game_map.num_rail_links  # rail links come first in GameMap's link order
    sizes = dict(BUILD=K, BUILD_ANY=K, RAIL=L, SELL=S, DEVELOP=K, DRAW=DRAW_SOURCES, PASS=K, PASS_FREE=1,
                 BUILD_AT=S * NUM_INDUSTRIES, SOURCE=S + 1, SELL_TO=S, REMOVE=D, DONE=1, REPAY=1)  # fmt: skip
    offsets, at = {}, 0
    for name in BLOCKS:
        offsets[name] = at
        at += sizes[name]
    return ActionSpace(
        num_card_kinds=K, num_spaces=S, num_rail_links=L, num_slots=D, offsets=offsets, sizes=sizes,
        card_labels=components.card_labels, space_labels=tuple(game_map.space_label(s) for s in range(S)),
        link_labels=tuple(game_map.link_label(li) for li in range(L)),
        slot_labels=tuple(components.slot_label(d) for d in range(D)),
    )  # fmt: skip


def num_actions(game_map: GameMap, components: Components | None = None) -> int:
    """Size of the flat action space on ``game_map`` (the same for 3, 4 and 5 players)."""
    from .components import load_components

    return action_space(components or load_components(), game_map).size


_DRAW_WORDS = ("draw deck",) + tuple(f"draw face-up {i + 1}" for i in range(NUM_FACE_UP))


def resolve_space(where: object = "germany") -> ActionSpace:
    """The action space of ``where``: an ActionSpace, a game (anything with ``.space``), a GameMap or a map name."""
    from .components import load_components, load_map

    if isinstance(where, ActionSpace):
        return where
    if isinstance(getattr(where, "space", None), ActionSpace):
        return where.space  # type: ignore[union-attr]
    if isinstance(where, GameMap):
        return action_space(load_components(), where)
    if isinstance(where, str):
        return action_space(load_components(), load_map(where))
    raise ValueError(f"{where!r}: expected an ActionSpace, a Game, a GameMap or a map name")


def action_to_string(action: int, space: ActionSpace | GameMap | str | object = "germany") -> str:
    """The readable name of ``action``, e.g. ``build with brown``, ``build port at Kiel:1``, ``rail Köln-Ruhr``.

    ``space`` is the action space, or a game, a map or a map name (default: Germany)."""
    space = resolve_space(space)
    name, i = space.block(action)
    if name == "BUILD":
        return f"build with {space.card_labels[i]}"
    if name == "BUILD_ANY":
        return f"build anywhere with {space.card_labels[i]}"
    if name == "RAIL":
        return f"rail {space.link_labels[i]}"
    if name == "SELL":
        return f"sell from {space.space_labels[i]}"
    if name == "DEVELOP":
        return f"develop with {space.card_labels[i]}"
    if name == "DRAW":
        return _DRAW_WORDS[i]
    if name == "PASS":
        return f"pass with {space.card_labels[i]}"
    if name == "PASS_FREE":
        return "pass"
    if name == "BUILD_AT":
        s, ind = divmod(i, NUM_INDUSTRIES)
        return f"build {INDUSTRIES[ind]} at {space.space_labels[s]}"
    if name == "SOURCE":
        return "source demand track" if i == space.num_spaces else f"source {space.space_labels[i]}"
    if name == "SELL_TO":
        return f"sell to {space.space_labels[i]}"
    if name == "REMOVE":
        return f"remove {space.slot_labels[i]}"
    return "done" if name == "DONE" else "repay loan"


def _norm(text: str) -> str:
    return name_key(text)


def string_to_action(text: str, space: ActionSpace | GameMap | str | object = "germany") -> int:
    """Parse a readable action name back to its integer (inverse of :func:`action_to_string`).

    Case and extra spaces are forgiven, and a rail link may name its ends in either order; anything else raises
    ValueError saying what was expected.
    """
    space = resolve_space(space)
    if not isinstance(text, str):
        raise ValueError(f"cannot read action {text!r}: not a text")
    t = _norm(text)
    cards = [c.lower() for c in space.card_labels]
    spaces = [s.lower() for s in space.space_labels]

    def card(word: str) -> int:
        if word not in cards:
            raise ValueError(f"cannot read action {text!r}: unknown card {word!r} (cards: {', '.join(cards)})")
        return cards.index(word)

    def where(word: str) -> int:
        if word not in spaces:
            raise ValueError(f"cannot read action {text!r}: unknown space {word!r} (spaces are written 'Köln:1')")
        return spaces.index(word)

    simple = {"pass": space.PASS_FREE, "done": space.DONE, "repay loan": space.REPAY,
              "source demand track": space.SOURCE + space.num_spaces}  # fmt: skip
    if t in simple:
        return simple[t]
    if t in _DRAW_WORDS:
        return space.DRAW + _DRAW_WORDS.index(t)
    for prefix, block in (("build anywhere with ", "BUILD_ANY"), ("build with ", "BUILD"),
                          ("develop with ", "DEVELOP"), ("pass with ", "PASS")):  # fmt: skip
        if t.startswith(prefix):
            return space.offsets[block] + card(t[len(prefix):])
    for prefix, block in (("sell from ", "SELL"), ("sell to ", "SELL_TO"), ("source ", "SOURCE")):
        if t.startswith(prefix):
            return space.offsets[block] + where(t[len(prefix):])
    m = re.match(r"^build (\w+) at (.+)$", t)
    if m:
        if m.group(1) not in INDUSTRIES:
            raise ValueError(f"cannot read action {text!r}: unknown industry {m.group(1)!r} ({', '.join(INDUSTRIES)})")
        return space.build_at(where(m.group(2)), INDUSTRIES.index(m.group(1)))
    if t.startswith("rail "):
        ends = t[5:]
        for li, label in enumerate(space.link_labels):
            a, b = label.lower().split("-", 1)
            if ends in (f"{a}-{b}", f"{b}-{a}"):
                return space.RAIL + li
        raise ValueError(f"cannot read action {text!r}: no potential rail link {ends!r} on this map")
    if t.startswith("remove "):
        slots = [s.lower() for s in space.slot_labels]
        if t[7:] in slots:
            return space.REMOVE + slots.index(t[7:])
        raise ValueError(f"cannot read action {text!r}: no display slot {t[7:]!r} (e.g. 'remove factory 0')")
    raise ValueError(
        f"cannot read action {text!r}: expected 'build with <card>', 'build anywhere with <card>', "
        "'build <industry> at <space>', 'rail <A>-<B>', 'sell from <space>', 'sell to <space>', 'done', "
        "'develop with <card>', 'remove <industry> <level>', 'draw deck', 'draw face-up 1|2', 'pass with <card>', "
        "'pass', 'source <space>', 'source demand track' or 'repay loan'"
    )


def ranges_markdown(space: ActionSpace) -> str:
    """The blocks with their action ranges on one map, as a markdown table (docs/age-of-industry/actions.md)."""
    examples = {"BUILD": space.BUILD, "BUILD_ANY": space.BUILD_ANY, "RAIL": space.RAIL, "SELL": space.SELL,
                "DEVELOP": space.DEVELOP, "DRAW": space.DRAW, "PASS": space.PASS, "PASS_FREE": space.PASS_FREE,
                "BUILD_AT": space.BUILD_AT, "SOURCE": space.SOURCE, "SELL_TO": space.SELL_TO,
                "REMOVE": space.REMOVE, "DONE": space.DONE, "REPAY": space.REPAY}  # fmt: skip
    lines = ["| block | actions | count | first action |", "|---|---|---|---|"]
    for name in BLOCKS:
        lo, n = space.offsets[name], space.sizes[name]
        lines.append(f"| {name} | {lo}-{lo + n - 1} | {n} | `{action_to_string(examples[name], space)}` |")
    lines.append(f"| all | 0-{space.size - 1} | {space.size} | |")
    return "\n".join(lines) + "\n"
