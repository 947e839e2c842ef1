"""What a front end (``industry-env serve``) shows of a game, from one seat: the picture, whose decision it is, the
choices grouped as the game's decisions are (each with what it costs or scores), a look-up of any field or
location, and the scoring.

:class:`View` works for any game through its spec (its text picture, the actions' names); a game with texts and
pictures of its own subclasses it in its package and names the class in ``GameSpec.web_view``, with every text from
the functions ``industry-env play`` prints. Nothing a view returns depends on what its seat may not see: the
pictures and texts of a seat are the game's seat views.
"""

from __future__ import annotations

import threading
from typing import Any

from . import svg
from .spec import GameSpec, ReferenceGame

# The headings of the groups of choices, by the first word of an action's name (a word not listed is its own
# group, headed by the word); a game's view adds its own words to these.
HEADINGS = {"pass": "Pass", "done": "Done"}


class View:
    """A game seen in the browser through its spec: its text picture, the actions' names, the final scores."""

    #: the game's headings of groups of choices, added to :data:`HEADINGS`
    headings: dict[str, str] = {}

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self._headings = {**HEADINGS, **self.headings}

    # ----------------------------------------------------------------------------------------------- pictures
    def picture(self, game: ReferenceGame, seat: int | None) -> str | None:
        """The position as an SVG document from ``seat``'s view (None: the public view); None: no pictures."""
        return None

    def text(self, game: ReferenceGame, seat: int | None, full: bool = False) -> str:
        """The position as text: ``seat``'s view, the public one (None), or everything (``full``)."""
        if full or not self.spec.hidden_information:
            return self.spec.render_text(game)
        return self.spec.render_text(game, seat=-1 if seat is None else seat)

    # ----------------------------------------------------------------------------------------------- decisions
    def decision(self, game: ReferenceGame) -> str:
        """Whose decision it is and what is decided."""
        return "game over" if game.is_over else f"player {game.current_player} to move"

    def choice_text(self, game: ReferenceGame, action: int) -> str:
        """A legal action with what it costs or scores."""
        return self.spec.action_to_string(action, game)

    def choices(self, game: ReferenceGame) -> list[dict[str, Any]]:
        """The legal choices grouped as the game's decisions are: ``[{"title", "choices": [{"action", "label",
        "detail"}]}]``, in the order the game lists them."""
        groups: dict[str, dict[str, Any]] = {}
        for action in game.legal_actions():
            label = self.spec.action_to_string(action, game)
            full = self.choice_text(game, action)
            detail = full[len(label) + 2 :] if full.startswith(label + ": ") else ("" if full == label else full)
            word = label.split(" ", 1)[0].lower()
            key = label.split(" at ", 1)[0] if " at " in label else self._headings.get(word, word)
            title = key if " at " in label else self._headings.get(word, word[:1].upper() + word[1:])
            group = groups.setdefault(key, {"title": title, "choices": []})
            group["choices"].append({"action": int(action), "label": label, "detail": detail})
        return list(groups.values())

    # ----------------------------------------------------------------------------------------------- look-up
    def places(self, game: ReferenceGame) -> list[dict[str, str]]:
        """What can be looked up: ``[{"key", "label"}]`` (fields, locations...)."""
        return []

    def lookup(self, game: ReferenceGame, key: str, seat: int | None) -> str:
        """Everything about one field or location, as ``seat`` may know it; ValueError naming a bad key."""
        raise ValueError(f"{self.spec.name} has nothing to look up here")

    def find(self, game: ReferenceGame, key: str) -> str | None:
        """The look-up key an element id of the picture names (``location-Köln``), or None."""
        return None

    # ----------------------------------------------------------------------------------------------- moves
    # A move is one or more decisions of one player (Age of Industry: a card, then where to build, then which
    # cube); the history says what a whole move did once it is complete, as the terminal does.
    def move_start(self, game: ReferenceGame) -> Any:
        """What :meth:`move_effects` needs, taken before a move's first decision."""
        return None

    def move_done(self, game: ReferenceGame, mover: int) -> bool:
        """Is ``mover``'s move complete (the next decision starts a new one)?"""
        return True

    def move_effects(self, game: ReferenceGame, start: Any, actions: list[int], mover: int, seat: int) -> list[str]:
        """What the move did, as ``seat`` may know it (nothing another seat holds)."""
        return []

    # ----------------------------------------------------------------------------------------------- scores
    def final(self, game: ReferenceGame) -> str:
        """The final scores by source, as a table."""
        breakdown = getattr(game, "score_breakdown", None)
        rows = [f"player {p}: {breakdown(p) if breakdown else v}" for p, v in enumerate(game.scores())]
        return "\n".join(rows)


class PicturedView(View):
    """A game whose picture is its board (drawn once) and its position's primitives."""

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self._static: dict[Any, tuple[Any, list[tuple[float, str]]]] = {}
        self._lock = threading.Lock()

    def board_of(self, game: ReferenceGame) -> tuple[Any, Any]:
        """The object the printed board is made from and a function drawing it (keyed by identity); a pictured
        game's view must say."""
        raise TypeError(f"{type(self).__name__} draws pictures but does not say what its board is (board_of)")

    def sketch(self, game: ReferenceGame, seat: int | None) -> list[tuple]:
        """The position's primitives from ``seat``'s view; a pictured game's view must say."""
        raise TypeError(f"{type(self).__name__} draws pictures but does not say how a position looks (sketch)")

    def picture(self, game: ReferenceGame, seat: int | None) -> str | None:
        key, draw = self.board_of(game)
        with self._lock:
            cached = self._static.get(id(key))
            if cached is None or cached[0] is not key:
                if len(self._static) >= 8:
                    self._static.pop(next(iter(self._static)))
                cached = self._static[id(key)] = (key, svg.layered(draw()))
        return svg.document(cached[1], self.sketch(game, seat), title=self.spec.name)
