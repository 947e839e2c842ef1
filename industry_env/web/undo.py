"""Taking a decision back against agents, and what forbids it: anything hidden that came to light since.

A person alone at a table of agents may take back their last decision (and the agents' moves after it) as long as
nothing they could not see before it has been shown since: otherwise they would play it again knowing what the
draw or the deal brought. What counts is read, step by step, from the position before and after each decision, in
the state every reference engine writes (``to_json``: the state the engines publish and their records replay):

- **Industry**: a column token drawn from the bag (the bag's contents change; a new era refills it).
- **Age of Industry**: a card drawn from the deck (the deck's position moves: a draw, the face-up cards refilled,
  a new round's hands), and a card another seat played from its hand that the table did not know was there (the
  discard pile grows by a kind that seat held no known card of: ``known``).
- **20th Century**: a catastrophe turned (the catastrophe stack), tiles dealt from the land or technology stacks
  (a new round's offers).

A game the table below does not name takes nothing back. A take-back is refused, with the reason, where one of
these happened at or after the decision taken back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: one step: the state before and after it (parsed to_json), who made it and the seat asking; the reveal's words
Rule = Callable[[dict[str, Any], dict[str, Any], int, int], "str | None"]


def _industry(before: dict[str, Any], after: dict[str, Any], mover: int, seat: int) -> str | None:
    if before["era"] != after["era"]:
        return "a new era's column tokens were put in the bag and drawn"
    if before["bag"] != after["bag"]:
        return "a column token was drawn from the bag"
    return None


def _age_of_industry(before: dict[str, Any], after: dict[str, Any], mover: int, seat: int) -> str | None:
    if before["deck_pos"] != after["deck_pos"]:
        return "a card was drawn from the deck"
    if mover != seat:
        for kind, (was, now) in enumerate(zip(before["discard"], after["discard"], strict=True)):
            if now > was and before["known"][mover][kind] < now - was:
                return f"player {mover} played a card from a hand you could not see"
    return None


def _twentieth_century(before: dict[str, Any], after: dict[str, Any], mover: int, seat: int) -> str | None:
    if before["cat_stack"] != after["cat_stack"] or before["cat_revealed"] != after["cat_revealed"]:
        return "a catastrophe was turned"
    if before["land_stacks"] != after["land_stacks"] or before["tech_stacks"] != after["tech_stacks"]:
        return "tiles were dealt from the stacks"
    return None


RULES: dict[str, Rule] = {"industry": _industry, "age_of_industry": _age_of_industry,
                          "twentieth_century": _twentieth_century}  # fmt: skip


def first_reveal(game_id: str, position: Any, actions: list[int], seat: int) -> str | None:
    """Why ``actions`` played from ``position`` (a reference game, not changed) may not be taken back by ``seat``:
    the first thing hidden from it that they showed, with the decision that showed it; None if nothing was."""
    rule = RULES.get(game_id)
    if rule is None:
        return "this game does not say what shows its hidden information, so no decision of it is taken back"
    game = position.clone()
    before = json.loads(game.to_json())
    for k, action in enumerate(actions):
        mover = int(game.current_player)
        game.apply(action)
        after = json.loads(game.to_json())
        why = rule(before, after, mover, seat)
        if why is not None:
            when = "with your decision itself" if k == 0 else f"{k} decision{'s' if k > 1 else ''} after it"
            return f"{why} ({when})"
        before = after
    return None


__all__ = ["RULES", "first_reveal"]
