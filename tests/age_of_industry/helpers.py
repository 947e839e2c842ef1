"""Hand-built Age of Industry positions for the rules tests.

A position starts from a real set-up (``Game(n, seed, map).to_json()``), then entries are overridden the way a
player would describe the table: ``hands={0: {"brown": 1}}``, ``money=[...]``, counters with
``counters={"Köln:1": (0, "cotton_mill", 1)}`` (seat, industry, level; options ``flipped``, ``cubes``), rails with
``rails={"Regensburg-Bohemia": 1}``, counters developed away with ``removed={0: ["factory 0"]}``. The counters
and rails come off the seats' displays, the cards out of the deck,
and the result is loaded with ``Game.from_json``, so every hand-built position passes the checks of a saved game.
"""

from __future__ import annotations

import json
from typing import Any

from industry_env.games.age_of_industry import Game, load_components, load_map
from industry_env.games.age_of_industry.rules import INDUSTRIES
from industry_env.games.age_of_industry.state import PHASES

C = load_components()
KIND = {label: k for k, label in enumerate(C.card_labels)}


def space(game_map: Any, label: str) -> int:
    return [game_map.space_label(s) for s in range(game_map.num_spaces)].index(label)


def link(game_map: Any, label: str) -> int:
    a, b = label.split("-")
    for li in range(game_map.num_links):
        ends = {game_map.location_names[game_map.LINK_A[li]], game_map.location_names[game_map.LINK_B[li]]}
        if ends == {a, b}:
            return li
    raise KeyError(label)


def position(
    num_players: int = 4,
    game_map: str = "germany",
    seed: int = 0,
    *,
    hands: dict[int, dict[str, int]] | None = None,
    counters: dict[str, tuple] | None = None,
    rails: dict[str, int] | None = None,
    removed: dict[int, list[str]] | None = None,
    round: int = 2,  # noqa: A002
    to_move: int = 0,
    phase: str = "action",
    **entries: Any,
) -> Game:
    """A position; ``to_move`` is the seat whose turn it is (the turn order starts with it, then clockwise)."""
    doc = json.loads(Game(num_players, seed, game_map).to_json())
    m = load_map(game_map)
    n = num_players
    doc["round"] = round
    doc["actions_left"] = 1 if round == 1 else 2
    doc["order"] = [(to_move + i) % n for i in range(n)]
    doc["turn"] = 0
    doc["phase"] = PHASES.index(phase)
    if hands is not None:  # every hand as given; cards taken from (or put back into) the deck to keep 66
        pool = [k for k in doc["deck"][doc["deck_pos"]:]] + [k for q in range(n) for k, h in
                                                               enumerate(doc["hand"][q]) for _ in range(h)]
        for q in range(n):
            want = hands.get(q, {})
            doc["hand"][q] = [0] * C.num_card_kinds
            for label, count in want.items():
                for _ in range(count):
                    pool.remove(KIND[label])
                    doc["hand"][q][KIND[label]] += 1
        doc["known"] = [[0] * C.num_card_kinds for _ in range(n)]
        doc["deck"] = [-1] * (len(doc["deck"]) - len(pool)) + pool
        doc["deck_pos"] = len(doc["deck"]) - len(pool)
    for label, spec in (counters or {}).items():
        seat, industry, level, *rest = spec
        opts = rest[0] if rest else {}
        sp = space(m, label)
        i = INDUSTRIES.index(industry)
        doc["space_owner"][sp], doc["space_industry"][sp], doc["space_level"][sp] = seat, i, level
        doc["space_flipped"][sp] = int(opts.get("flipped", 0))
        doc["space_cubes"][sp] = opts.get("cubes", 0)
        slot = next(d for d in range(C.num_slots) if C.SLOT_INDUSTRY[d] == i and C.SLOT_LEVEL[d] == level)
        doc["display"][seat][slot] -= 1
    for seat, slots in (removed or {}).items():  # counters developed away: "remove cotton_mill 1"
        for label in slots:
            doc["display"][seat][[C.slot_label(d) for d in range(C.num_slots)].index(label)] -= 1
    for label, seat in (rails or {}).items():
        doc["link_owner"][link(m, label)] = seat
        doc["rails_left"][seat] -= 1
    for key, value in entries.items():
        doc[key] = value
    return Game.from_json(json.dumps(doc))


def play(game: Game, *names: str) -> Game:
    """Apply actions by their readable names."""
    for name in names:
        game.apply(game.string_to_action(name))
    return game


def legal_names(game: Game) -> list[str]:
    return [game.action_to_string(a) for a in game.legal_actions()]


def sp(game: Game, label: str) -> int:
    return space(game.map, label)
