"""What the browser shows of a game, from one seat: the picture, whose decision it is, the choices grouped as the
game's decisions are (each with what it costs or scores), a look-up of any field or location, and the scoring.

Every text comes from the game's own functions, the ones ``industry-env play`` prints (Industry's
:mod:`~industry_env.games.industry.render`, Age of Industry's :mod:`~industry_env.games.age_of_industry.playtext`
and ``picture.describe_decision``); a game without its own view here shows its spec's text picture. Nothing a
view returns depends on what its seat may not see: the pictures and texts of a seat are the game's seat views.
"""

from __future__ import annotations

import threading
from typing import Any

from ..core.spec import GameSpec, ReferenceGame
from ..core import svg

# The headings of the groups of choices, by the first word of an action's name (a word not listed is its own
# group, headed by the word).
HEADINGS = {
    # Industry
    "auction": "Put a field up for auction",
    "subsidy": "Take the subsidy instead",
    "bid": "Bid for the field",
    "pass": "Pass",
    "sell": "Sell the field to the highest bidder, or keep it",
    "keep": "Sell the field to the highest bidder, or keep it",
    "develop": "Develop",
    "pay": "Pay for a resource",
    "done": "Done",
    # Age of Industry
    "build": "Build",
    "rail": "Build a rail link",
    "draw": "Draw cards",
    "source": "Take coal or iron from",
    "remove": "Remove a counter from your display",
    "repay": "Repay a loan",
}


class View:
    """A game seen in the browser through its spec: its text picture, the actions' names, the final scores."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

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
            key = label.split(" at ", 1)[0] if " at " in label else HEADINGS.get(word, word)
            title = key if " at " in label else HEADINGS.get(word, word[:1].upper() + word[1:])
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


class _Pictured(View):
    """A game whose picture is its board (drawn once) and its position's primitives."""

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        self._static: dict[Any, tuple[Any, list[tuple[float, str]]]] = {}
        self._lock = threading.Lock()

    def board_of(self, game: ReferenceGame) -> tuple[Any, list[tuple]]:
        """The object the printed board is made from and a function drawing it (keyed by identity)."""
        raise NotImplementedError

    def sketch(self, game: ReferenceGame, seat: int | None) -> list[tuple]:
        """The position's primitives from ``seat``'s view."""
        raise NotImplementedError

    def picture(self, game: ReferenceGame, seat: int | None) -> str | None:
        key, draw = self.board_of(game)
        with self._lock:
            cached = self._static.get(id(key))
            if cached is None or cached[0] is not key:
                if len(self._static) >= 8:
                    self._static.pop(next(iter(self._static)))
                cached = self._static[id(key)] = (key, svg.layered(draw()))
        return svg.document(cached[1], self.sketch(game, seat), title=self.spec.name)


class IndustryView(_Pictured):
    """Industry: the board's grid, what each choice costs, a field's look-up, the scoring table."""

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        from ..games.industry import picture, render

        self.P, self.R = picture, render

    def board_of(self, game: Any) -> tuple[Any, Any]:
        return game.board, lambda: self.P.sketch_board(game.board)

    def sketch(self, game: Any, seat: int | None) -> list[tuple]:
        return [p for items in self.P.sketch_position(game).values() for p in items]

    def decision(self, game: Any) -> str:
        return self.R.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.R.describe_choice(game, action)

    def places(self, game: Any) -> list[dict[str, str]]:
        from ..games.industry.board import field_id

        return [{"key": field_id(f), "label": f"{field_id(f)} {name}"} for f, name in enumerate(game.board.field_names)]

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        from ..games.industry.board import field_index

        try:
            f = field_index(key)
        except ValueError:
            raise ValueError(f"no field {key!r}: give its id, era 1-5 and column A-L ('1E')") from None
        return self.R.field_info(game, f, seat)

    def find(self, game: Any, key: str) -> str | None:
        from ..games.industry.board import field_index

        parts = key.split("-")  # network-river-1B, road-1D-1E: the first field named
        for part in parts:
            try:
                field_index(part)
                return part
            except ValueError:
                continue
        return None

    def final(self, game: Any) -> str:
        return self.R.score_table(game)


class AgeOfIndustryView(_Pictured):
    """Age of Industry: the map, the seat's own hand only, each choice's price, a location's look-up, the scoring."""

    def __init__(self, spec: GameSpec) -> None:
        super().__init__(spec)
        from ..games.age_of_industry import picture, playtext

        self.P, self.T = picture, playtext

    def board_of(self, game: Any) -> tuple[Any, Any]:
        return game.map, lambda: self.P.sketch_map(game.map, game.components.colours)

    def sketch(self, game: Any, seat: int | None) -> list[tuple]:
        return [p for items in self.P.sketch_position(game, seat).values() for p in items]

    def decision(self, game: Any) -> str:
        return self.P.describe_decision(game)

    def choice_text(self, game: Any, action: int) -> str:
        return self.T.choice_text(game, action)

    def places(self, game: Any) -> list[dict[str, str]]:
        return [{"key": name, "label": name.replace("_", " ")} for name in game.map.location_names]

    def lookup(self, game: Any, key: str, seat: int | None) -> str:
        names = list(game.map.location_names)
        if key in names:
            found = [names.index(key)]
        else:
            found = self.T.find_locations(game, key)  # ValueError naming the text when nothing matches
        # a location's look-up ends with what the seat could build there, from its own hand: the public view
        # (no seat) leaves that out by asking for the game over
        if seat is None:
            return "\n".join(self.T.location_info(game, x, 0).split("\n  you could build here now:")[0] for x in found)
        return "\n".join(self.T.location_info(game, x, seat) for x in found)

    def find(self, game: Any, key: str) -> str | None:
        slug = {name.replace(" ", "_"): name for name in game.map.location_names}
        for prefix in ("location-", "space-"):
            if key.startswith(prefix):
                rest = key[len(prefix) :]
                name = rest.rsplit("-", 1)[0] if prefix == "space-" else rest
                return slug.get(name)
        return None

    def move_start(self, game: Any) -> Any:
        return game.clone()

    def move_done(self, game: Any, mover: int) -> bool:
        return game.is_over or game.phase == "action" or game.current_player != mover

    def move_effects(self, game: Any, start: Any, actions: list[int], mover: int, seat: int) -> list[str]:
        """The terminal's summary of a move (``industry-env play``): money, loans, counters, cubes, cards as the
        seat may know them, then the end of the round if it ended (turn order, interest)."""
        ended = game.is_over or game.s.round != start.s.round
        moved = self.T.action_result(start, actions) if ended else game
        words = self.T.effect_phrases(game, start.s, moved.s, mover, seat, actions=actions)
        lines = [", ".join(words)] if words else []
        if ended:
            lines += [line.strip() for line in self.T.round_end_lines(moved.s, game.s, game, seat)]
        return lines

    def final(self, game: Any) -> str:
        return self.T.score_table(game)


_VIEWS: dict[str, type[View]] = {"industry": IndustryView, "age_of_industry": AgeOfIndustryView}
_made: dict[str, View] = {}


def view_of(spec: GameSpec) -> View:
    """The browser's view of ``spec``'s game (one for each game, made once)."""
    if spec.id not in _made:
        _made[spec.id] = _VIEWS.get(spec.id, View)(spec)
    return _made[spec.id]
