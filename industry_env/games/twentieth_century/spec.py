"""20th Century's declaration to the suite (:data:`SPEC`): what ``industry_env.load_game("twentieth_century")``
returns.

Vladimír Suchý's *20th Century* (Czech Games Edition 2010): 3 to 5 players. The readable reference engine
(``load_game("twentieth_century").reference(...)``) and the batched engine (:mod:`.engine`) play it; the two agreed
on 100,000 games before it was listed by ``available_games()`` (docs/twentieth-century/engine.md).
Options ``r2`` and ``r4``: the round-II and round-IV scoring cards ("random", the
default, draws each at set-up; "a", "b", "c" fix one; "none" is the rulebook's first-game variant, ruling 35);
``data``: the components (None, the shipped reconstructed ones; or an owner's files, ``tools.write_template``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.spec import GameSpec, OlderLayout, Option, Piece, ReferenceGame, layout
from . import actions as A
from .actions import MAX_ABILITIES, MAX_TECHS, NUM_ACTIONS, NUM_CAT_BIDS, action_to_string, string_to_action
from .components import MAX_CITIES, GameData, load_data
from .geometry import MAX_TILES
from .observation import layout as observation_pieces
from .rules import CONSOLATION_EXTRA, LAST_FULL_ROUND, MAX_LAND_OFFER, MAX_PLAYERS, MIN_LAND_PRICE, MIN_PLAYERS, OFFERS
from .state import CARD_CHOICES

# Pieces that may be negative (victory points); every other entry is >= 0. Pieces that are one-hot codes or flags
# lie in [0, 1]; the rest are counts scaled by a nominal size whose largest value no rule fixes (coins, science,
# cubes and production have no upper limit: 'Non c'è un limite massimo alla produzione', ruling 33).
SIGNED = frozenset({"seat_vp"})
FLAGS = frozenset({"num_players", "round", "phase", "to_move", "seat_present", "scoring_cards", "pending", "unseen"})


def _check_data(value: Any) -> GameData:
    """The components: None (the shipped, reconstructed ones), a GameData, a tiles file's path (the shipped tracks
    and catastrophes), or a (tiles, components) pair of paths; an owner's files are checked, every error listed."""
    if value is None or isinstance(value, GameData):
        return value if value is not None else load_data()
    if isinstance(value, (str, Path)):
        return load_data(value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, (str, Path)) for v in value):
        return load_data(*value)
    raise ValueError("must be None (the shipped components), a GameData, a tiles file's path, or (tiles, components)")


def _check_card(value: Any) -> str:
    if value not in CARD_CHOICES:
        raise ValueError(f"must be one of {', '.join(CARD_CHOICES)}")
    return str(value)


class TwentiethCenturySpec(GameSpec):
    """20th Century (Vladimír Suchý): land auctions, technologies, catastrophes and the garbage of growing nations."""

    id = "twentieth_century"
    name = "20th Century"
    version = 0
    citation = "Vladimír Suchý, 20th Century (Czech Games Edition 2010)"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    hidden_information = True  # the stacks' order and the face-down catastrophes (ruling 36)
    private_information = False  # hidden from every seat alike: a seat's view is the public one
    options = (
        Option("r2", "random", "the round-II scoring card: random, a, b, c or none (first game)", _check_card),
        Option("r4", "random", "the round-IV scoring card: random, a, b, c or none (first game)", _check_card),
        Option("data", None, "the components: None for the shipped reconstructed ones, a tiles file's path, or a "
               "(tiles, components) pair of paths", _check_data, data=True),
    )  # fmt: skip
    # the batched engine, verified against the reference on 100,000 games (docs/twentieth-century/engine.md)
    engine_module = "industry_env.games.twentieth_century.engine"
    reference_class = "industry_env.games.twentieth_century.reference:Game"
    play_table = "industry_env.games.twentieth_century.playtable:TwentiethCenturyTable"  # industry-env play
    action_encoding = 2  # 2: a nation's tiles by slot (ruling 18, 2026-11-29); 1: its 9 x 9 window (window.py)
    # `industry-env board`: the components as tables, an owner's data file checked, or a template to type them in
    tools = {"board": "industry_env.games.twentieth_century.board_tool"}
    web_view = "industry_env.games.twentieth_century.webview:TwentiethCenturyView"  # industry-env serve
    has_pictures = True
    # the trained MaskablePPO actor (cell encoder), weights only: make_agent("ppo", game="twentieth_century")
    shipped_policy = "industry_env.games.twentieth_century.data:ppo_twentieth_century.npz"
    # the game's own agents (docs/twentieth-century/agents.md); random is every game's
    agents = {"heuristic": "industry_env.agents.twentieth_century.heuristic:HeuristicAgent",
              "ismcts": "industry_env.agents.twentieth_century.ismcts:ISMCTSAgent",
              "ppo": "industry_env.agents.ppo:PPOAgent", "az": "industry_env.agents.az:AZAgent",
              "net": "industry_env.agents.az:NetAgent"}  # fmt: skip
    observation_check = "industry_env.agents.twentieth_century.checks:check_game_observations"  # entry by entry

    def num_actions(self, **options: Any) -> int:
        return NUM_ACTIONS

    def observation_layout(self, data: Any = None, **options: Any) -> tuple[Piece, ...]:
        return layout(observation_pieces(_check_data(data)))

    def older_layouts(self, data: Any = None, **options: Any) -> tuple[OlderLayout, ...]:
        """The 9 x 9 window of cells around each starting tile that the shipped policy was trained on, before ruling
        18 was lifted (:mod:`.window`): it keeps playing through it."""
        from .window import older_layout

        return (older_layout(_check_data(data)),)

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        pieces = self.observation_layout(**options)
        size = pieces[-1].offset + pieces[-1].size
        low, high = np.zeros(size, np.float32), np.full(size, np.inf, np.float32)
        for p in pieces:
            if p.name in SIGNED:
                low[p.slice] = -np.inf
            if p.name in FLAGS:
                high[p.slice] = 1.0
        # cells / 8, counted from the starting tile's 0,0: at most MAX_TILES away (ruling 18: a line of every tile,
        # and the cell beside its end)
        reach = MAX_TILES / 8
        grids = next(p for p in pieces if p.name == "grids")
        cells = np.arange(grids.offset, grids.offset + grids.size).reshape(grids.shape)[..., -2:]
        select = next(p for p in pieces if p.name == "selection").offset + np.array([1, 2])
        for at in (cells.ravel(), select):
            low[at], high[at] = -reach, reach
        return low, high

    def max_game_length(self, num_players: int, **options: Any) -> int:
        # Decisions asked (forced ones play themselves). Coins: a player ends a round with at most what he had plus
        # the largest production the data allows (every land tile's richest city, every mine boosting 12 cities)
        # plus the consolation; so C bounds any bid. Per round: each of at most 8 auctions asks a lead and at most
        # 2 C + 1 bids (each raises the price by 1 or more, or closes a bid the 'bid +31' before it raised by 31 or
        # more: ruling 19) and n passes or withdrawals; n withdrawals and
        # n technology choices; the catastrophe bidding at most n + (n - 1) + 5 x 26 bids (each rebid fills an
        # empty column or raises a column's top bid, at most 26 times a column); maintenance per player at most 4
        # decisions for each of 9 pending tiles, one per pending cube (at most 5 + 9), 3 per ability use (10
        # abilities) and a done; recycling per player one per working centre (3 cities x 46 tiles) and a done.
        n = self.check_num_players(num_players)
        d = _check_data(options.get("data"))
        richest = sum(max((c.coins for c in t.cities), default=0) for t in d.land)
        mines = sum(a.bonus for t in d.technologies for a in t.abilities if a.kind == "mine")
        per_round_income = richest + 4 * MAX_CITIES * mines + max(MIN_LAND_PRICE.values()) + CONSOLATION_EXTRA
        coins = 10 + LAST_FULL_ROUND * per_round_income
        auctions = MAX_LAND_OFFER * (2 + 2 * coins + n)
        catastrophe = n + (n - 1) + 5 * NUM_CAT_BIDS
        cubes = 5 + max(g for c in d.catastrophes for g, _ in c.columns)
        maintenance = n * (4 * (OFFERS[n][0] + 1) + cubes + 3 * MAX_TECHS * MAX_ABILITIES + 1)
        recycling = n * (MAX_CITIES * (len(d.land) + MAX_TECHS) + 1)
        return (LAST_FULL_ROUND + 1) * (auctions + 2 * n + catastrophe + maintenance + recycling)

    def variants(self) -> list[dict[str, Any]]:
        return [{"r2": c, "r4": c} for c in ("a", "b", "c", "none")]

    def data_digests(self, **options: Any) -> dict[str, dict[str, str]]:
        data = self.check_options(options)["data"]
        return {"data": {"name": "tiles.toml+components.toml", "sha256": data.sha256}}

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        g: Any = game
        return int(g.n), int(g.seed), {**g.options, "data": g.data}

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        from .reference import Game

        return Game.from_json(text, data=self.check_options(options)["data"])

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        if game is not None:
            return game.action_to_string(action)  # type: ignore[attr-defined]
        return action_to_string(action)

    def string_to_action(self, text: str, game: ReferenceGame | None = None, **options: Any) -> int:
        """The action ``text`` names; with a ``game``, a cell of its nation too (``cell 1,-1``, ``city 0,0 b``)."""
        if game is not None:
            return game.string_to_action(text)  # type: ignore[attr-defined]
        return string_to_action(text)

    def upgrade_action(self, game: ReferenceGame, action: int, encoding: int) -> int:
        """An action of encoding 1 (a nation's 9 x 9 window, before ruling 18 was lifted on 2026-11-29; records of
        that time hold them) as today's: the window's cell (x + 4, y + 4) is today's cell (x, y), named in the
        position (``window.py`` keeps that layout)."""
        from . import window as W

        if encoding != 1:
            return super().upgrade_action(game, action, encoding)
        if not 0 <= action < W.WINDOW_NUM_ACTIONS:
            raise ValueError(f"{action} is not an action of encoding 1 (0 to {W.WINDOW_NUM_ACTIONS - 1})")
        if action < W.WINDOW_CELL:
            return action
        if action >= W.WINDOW_USE:  # use, bridge and done kept their order
            return A.USE + action - W.WINDOW_USE
        if W.WINDOW_ROTATE <= action < W.WINDOW_CITY:
            return A.ROTATE + action - W.WINDOW_ROTATE
        cell, city = (action - W.WINDOW_CELL, -1) if action < W.WINDOW_ROTATE else divmod(action - W.WINDOW_CITY, 3)
        x, y = cell % W.WINDOW - W.HALF, cell // W.WINDOW - W.HALF
        name = f"cell {x},{y}" if city < 0 else f"city {x},{y} {'abc'[city]}"
        return game.string_to_action(name)  # type: ignore[attr-defined]

    def render_text(self, game: ReferenceGame, seat: int | None = None) -> str:
        """The position as text: a seat's view is the public one (no seat holds a secret: ruling 36); the full view
        (``seat=None``) adds the undealt stacks and the catastrophes to come."""
        from .render import render_text

        return render_text(game, full=seat is None)

    def picture_key(self, game: ReferenceGame) -> Any:
        from .picture import picture_key

        return picture_key(game)  # the position without the seed and the stacks' order

    def to_rgb_array(self, game: ReferenceGame, seat: int | None = None) -> np.ndarray:
        from .picture import to_rgb_array

        return to_rgb_array(game, seat)  # everything drawn is public (ruling 36); seat marks whose view it is

    def show(self, game: ReferenceGame, seat: int | None = None) -> None:
        from .picture import show

        show(game, seat)

    def doc_figures(self) -> list[Any]:
        from .docfigure import figures

        return figures()

    def gif_writer(self, path: Any, frame_ms: int = 400, last_ms: int = 3000, scale: float = 1.0) -> Any:
        from .picture import GifWriter

        return GifWriter(path, frame_ms=frame_ms, last_ms=last_ms, scale=scale)

    def rules_text(self) -> str:
        from .texts import rules_text

        return rules_text()

    def components_text(self) -> str:
        from .texts import components_markdown

        return components_markdown()


SPEC = TwentiethCenturySpec()
