"""Shared helpers for the rules tests: positions built from JSON, saved positions, a custom board.

A position is built the way a player would describe it: start from ``Game(...).to_json()`` (a real starting
position), override entries of the saved-game dict (``money``, ``phase``, ``era``, ``face_up``, ...), say who owns
which field with ``owned={"1D": (0, True)}`` (player 0, developed), and load it back with ``Game.from_json``, so
that every hand-built position passes the same consistency checks as a saved game.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from hypothesis import settings

from industry_env.games.industry.components import field_index, load_board, parse_board
from industry_env.games.industry.reference import Game
from industry_env.games.industry.rules import JOKER, NUM_COLUMNS, NUM_FIELDS, NUM_JOKER_KINDS, WILD_JOKER

# Hypothesis runs the same examples on every machine and every run.
settings.register_profile("industry", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("industry")

POSITIONS = Path(__file__).parent / "positions"
# The rules tests play on a frozen copy of the board (see the file's header), not on the shipped board, which is
# still being rebalanced: a rule test must not change when a field's points do.
BOARD_TEXT = (POSITIONS / "board_rules.toml").read_text(encoding="utf-8")
BOARD = parse_board(BOARD_TEXT, "tests/industry/positions/board_rules.toml")
SHIPPED_BOARD = load_board()


def R(name: str) -> int:
    """Index of a resource by name (``R("Glass")``)."""
    return BOARD.resource_names.index(name)


def F(fid: str) -> int:
    """Index of a field by id (``F("3F")``)."""
    return field_index(fid)


def hand(counts: dict[str, int]) -> list[int]:
    """One player's joker counts from ``{"Wood": 1, "?": 1}``."""
    row = [0] * NUM_JOKER_KINDS
    for name, k in counts.items():
        row[WILD_JOKER if name == "?" else R(name)] = k
    return row


def position_doc(
    num_players: int = 4,
    *,
    seed: int = 0,
    balanced_draws: bool = True,
    board=None,
    owned: dict[str, int | tuple[int, bool]] | None = None,
    jokers_taken: tuple[str, ...] = (),
    past_owner: int | None = None,
    **entries,
) -> dict:
    """The saved-game dict of a hand-built position (see :func:`position`)."""
    board = board if board is not None else BOARD
    doc = json.loads(Game(num_players, seed, board=board, balanced_draws=balanced_draws).to_json())
    start_bag = list(doc["bag"]) + [c for c in range(NUM_COLUMNS) if doc["face_up"][c]]
    doc.update(entries)
    era = doc["era"]
    claimed = [False] * NUM_FIELDS if "claimed" not in entries else list(doc["claimed"])
    owner = [-1] * NUM_FIELDS if "owner" not in entries else list(doc["owner"])
    developed = [False] * NUM_FIELDS if "developed" not in entries else list(doc["developed"])
    for fid, spec in (owned or {}).items():
        p, dev = spec if isinstance(spec, tuple) else (spec, False)
        f = F(fid)
        claimed[f], owner[f], developed[f] = True, p, dev
    for fid in jokers_taken:
        claimed[F(fid)] = True
    # Every field of a past era (of all eras once the game is over) was auctioned: jokers were taken, the rest
    # belong to ``past_owner`` (undeveloped).
    for f in range(NUM_FIELDS if doc["phase"] == "over" else era * NUM_COLUMNS):
        if not claimed[f]:
            claimed[f] = True
            if board.KIND[f] != JOKER:
                owner[f] = num_players - 1 if past_owner is None else past_owner
    doc["claimed"], doc["owner"], doc["developed"] = claimed, owner, developed
    if "face_up" not in entries:
        if doc["phase"] in ("develop", "pay", "over"):
            doc["face_up"] = [False] * NUM_COLUMNS
        else:
            doc["face_up"] = [up and not claimed[era * NUM_COLUMNS + c] for c, up in enumerate(doc["face_up"])]
    if "bag" not in entries:
        order = start_bag if era == 0 else list(range(NUM_COLUMNS))
        doc["bag"] = [c for c in order if not claimed[era * NUM_COLUMNS + c] and not doc["face_up"][c]]
        if doc["phase"] == "over":
            doc["bag"] = []
    return doc


def position(num_players: int = 4, *, board=None, **kw) -> Game:
    """A hand-built position as a Game, checked by ``Game.from_json`` like any saved game.

    ``owned`` maps field ids to an owner or ``(owner, developed)``; ``jokers_taken`` lists joker fields already
    auctioned; fields of past eras not listed go to ``past_owner`` (default: the last player), undeveloped.
    Any other keyword overrides that entry of the saved game (``money=[...]``, ``phase="develop"``, ...).
    """
    board = board if board is not None else BOARD
    doc = position_doc(num_players, board=board, **kw)
    return Game.from_json(json.dumps(doc), board=board)


def load_position(name: str, board=None, **entries) -> Game:
    """A saved position from ``positions/<name>.json`` beside this file (on the frozen board), entries optionally
    overridden."""
    doc = json.loads((POSITIONS / f"{name}.json").read_text(encoding="utf-8"))
    doc.update(entries)
    return Game.from_json(json.dumps(doc), board=board if board is not None else BOARD)


def board_text_with(field: str, extra: str) -> str:
    """The shipped board's TOML text with ``extra`` lines added to field ``field``'s table."""
    pattern = re.compile(rf'(\[\[field\]\]\nid = "{field}"\n)')
    text, n = pattern.subn(lambda m: m.group(1) + extra.rstrip("\n") + "\n", BOARD_TEXT)
    assert n == 1, field
    return text


@cache
def two_stone_board():
    """The shipped board, except that the Textile Mill (1I) also produces Stone: two Stone producers."""
    return parse_board(board_text_with("1I", 'produces = "Stone"'), "two_stone_board.toml")


def play(game: Game, *actions) -> Game:
    """Apply readable actions (``"bid 3"``, ``"keep"``, ``"pay Glass: player 2"``) in turn."""
    from industry_env.games.industry.actions import string_to_action

    for a in actions:
        game.apply(string_to_action(a, game.board.resource_names) if isinstance(a, str) else a)
    return game


def legal_names(game: Game) -> list[str]:
    """The legal actions as readable strings."""
    from industry_env.games.industry.actions import action_to_string

    return [action_to_string(a, game.board.resource_names) for a in game.legal_actions()]
