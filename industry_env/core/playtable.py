"""The terminal table of ``industry-env play``: one game as the person at one seat sees it, through its spec.

:class:`PlayTable` shows any game from its spec (its text, its actions' names); a game may bring its own table
(``GameSpec.play_table``, a subclass) with richer text: what each choice costs, what a move did, lookups.
"""

from __future__ import annotations

from typing import Any


class PlayTable:
    """One game as the person at ``seat`` sees it, through the game's spec."""

    intro = ("Type a choice's number or the action as listed; 'help' lists the commands, 'board' shows the game, "
             "'quit' leaves.")  # fmt: skip
    # The game's own commands ((typed, what it does), for help); answered by :meth:`command`.
    commands: tuple[tuple[str, str], ...] = (("<number> or an action", "play that choice: '2', or its name as listed"),
                                             ("board  (b)", "the game as you may see it"))  # fmt: skip
    verbs: frozenset[str] = frozenset()  # first words of the game's actions (other words are not actions)

    def __init__(self, spec: Any, game: Any, seat: int) -> None:
        self.spec, self.game, self.seat = spec, game, seat

    def board(self) -> str:
        """The position, as much of it as the seat may see."""
        if self.spec.hidden_information:
            return self.spec.render_text(self.game, seat=self.seat)
        return self.spec.render_text(self.game)

    def command(self, word: str, rest: str) -> str | None:
        """The answer to one of the game's own commands (None: ``word`` is not one); ValueError for a bad one."""
        if word in ("board", "b") and not rest:
            return self.board()
        return None

    def decision(self) -> str:
        """Who decides now."""
        return f"player {self.game.current_player} to move"

    def name(self, action: int) -> str:
        """The action's readable name."""
        return self.spec.action_to_string(action, self.game)

    def choices(self, legal: list[int]) -> list[str]:
        """One line a choice, numbered as the person types them."""
        return [f"  [{i}] {self.name(a)}" for i, a in enumerate(legal)]

    def parse(self, text: str) -> int:
        """The action typed, or ValueError saying why it cannot be read."""
        return int(self.spec.string_to_action(text, self.game))

    def scores(self) -> str:
        """The points so far."""
        return "points so far: " + ", ".join(f"player {p}: {v}" for p, v in enumerate(self.game.scores()))

    def final(self) -> str:
        """The final scores, one row a player."""
        g, win = self.game, self.game.winners()
        rows = [f"  player {p}: {v:>4}{'  wins' if p in win else ''}" for p, v in enumerate(g.scores())]
        return "\n".join(["final scores:", *rows])

    # A move is one or more decisions of one player (Age of Industry: a card, then where to build, then which
    # cube). The loop groups them: ``snapshot`` before each decision, ``after`` for what one decision did,
    # ``action_done`` when the move is complete, ``begin_move`` before its first decision, ``summary`` for what the
    # whole move did.
    def snapshot(self) -> Any:
        """What :meth:`after` uses (taken before each decision)."""
        return None

    def after(self, action: int, before: Any) -> str | None:
        """What one decision did that its name does not say (None: nothing)."""
        return None

    def action_done(self, mover: int) -> bool:
        """Is ``mover``'s move complete (the next decision is a new move)?"""
        return True

    def begin_move(self) -> Any:
        """What :meth:`summary` and :meth:`restore` use (taken before a move's first decision)."""
        return None

    def summary(self, start: Any, actions: list[int], mover: int) -> list[str]:
        """What the whole move did, as lines (from :meth:`begin_move`'s snapshot)."""
        return []

    def reveals(self, action: int) -> bool:
        """Does ``action`` show the person something hidden (a card drawn): then it can never be taken back."""
        return False

    def restore(self, start: Any, actions: list[int]) -> None:
        """Put the game back where ``start`` was taken, before ``actions``; ValueError if it cannot be."""
        raise ValueError("this game cannot take a choice back")
