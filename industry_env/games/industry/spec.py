"""Industry's declaration to the suite (:data:`SPEC`): what ``industry_env.load_game("industry")`` returns.

Michael Schacht's *Industry* (Ystari 2009, a re-edition of *Industria*, Queen Games 2003): 3 or 4 players, perfect
information but for the bag's order, options ``balanced_draws`` (the rulebook's recommended draws of Eras 4
and 5) and ``board`` (a board file; the shipped reconstructed board by default).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.spec import GameSpec, Option, Piece, ReferenceGame, layout
from . import actions as A
from . import observation as O
from .components import Board, load_board
from .rules import MAX_BID, MAX_DEVELOPMENTS, MAX_PLAYERS, MIN_PLAYERS, NUM_RESOURCES


def _check_board(value: Any) -> Board:
    """A Board, a board file's path, or None (the shipped board)."""
    if value is None or isinstance(value, Board):
        return value if value is not None else load_board()
    if isinstance(value, (str, Path)):
        return load_board(value)
    raise ValueError("must be a Board, the path of a board file, or None for the shipped board")


def _check_bool(value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError("must be True or False")
    return bool(value)


class IndustrySpec(GameSpec):
    """Industry (Michael Schacht): the auction game of fields, resources and networks over five eras."""

    id = "industry"
    name = "Industry"
    version = 0
    citation = "Michael Schacht, Industry (Ystari 2009, a re-edition of Industria, Queen Games 2003)"
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, MAX_PLAYERS
    hidden_information = False  # only the future is hidden (the bag's order): every seat sees the whole table
    has_pictures = True
    options = (
        Option("balanced_draws", True, "the rulebook's recommended draws of Eras 4 and 5", _check_bool),
        Option("board", None, "the board: a Board, a board file's path, or None for the shipped reconstructed board",
               _check_board, data=True),
    )  # fmt: skip
    shipped_policy = "industry_env.games.industry.data:ppo_industry.npz"
    engine_module = "industry_env.games.industry.engine"
    reference_class = "industry_env.games.industry.reference:Game"
    agents = {
        "heuristic": "industry_env.agents.industry.heuristic:HeuristicAgent",
        "heuristic-v0": "industry_env.agents.industry.heuristic:HeuristicV0Agent",
        "mcts": "industry_env.agents.industry.mcts:MCTSAgent",
        "ppo": "industry_env.agents.ppo:PPOAgent",
        "az": "industry_env.agents.az:AZAgent",
        "net": "industry_env.agents.az:NetAgent",
    }
    # its own command-line tools: `industry-env board` (a board file checked, printed, templated) and `balance`
    tools = {"board": "industry_env.games.industry.board_tool", "balance": "industry_env.games.industry.balance"}
    play_table = "industry_env.games.industry.playtable:IndustryTable"  # industry-env play
    web_view = "industry_env.games.industry.webview:IndustryView"  # industry-env serve

    def num_actions(self, **options: Any) -> int:
        return A.NUM_ACTIONS

    def observation_layout(self, **options: Any) -> tuple[Piece, ...]:
        return layout([(name, shape, "") for name, shape in O.LAYOUT])

    def observation_bounds(self, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        return O.bounds()

    def max_game_length(self, num_players: int, **options: Any) -> int:
        # At most 20 rounds. A round holds at most one auction per player, each opened once, raised by at most
        # MAX_BID bids (every bid beats the last), passed at most once by each other player, then sold or kept;
        # and one development turn per player: at most MAX_DEVELOPMENTS fields, each with at most two resources
        # of every kind to pay, then "done"; and the one Subsidy of each player in the game.
        n = self.check_num_players(num_players)
        auction = 1 + MAX_BID + (n - 1) + 1
        development = MAX_DEVELOPMENTS * (1 + 2 * NUM_RESOURCES) + 1
        return 20 * n * (auction + development) + n

    def exploration_weights(self, **options: Any) -> np.ndarray:
        """The "developer": develops often and bids low, the subsidy rarely, so that every phase (payments,
        subsidies, the Bank discount) is reached often."""
        w = np.ones(A.NUM_ACTIONS)
        w[A.PASS] = 4.0
        w[A.BID : A.SELL] = 2.0 / np.arange(1, A.SELL - A.BID + 1)
        w[A.DEVELOP : A.DONE] = 25.0
        w[A.SUBSIDY] = 0.05
        return w

    def variants(self) -> list[dict[str, Any]]:
        return [{"balanced_draws": True}, {"balanced_draws": False}]

    def data_digests(self, **options: Any) -> dict[str, dict[str, str]]:
        board = self.check_options(options)["board"]
        return {"board": {"name": Path(board.path).name, "sha256": board.sha256}}

    def setup_of(self, game: ReferenceGame) -> tuple[int, int, dict[str, Any]]:
        s = game.s
        return s.num_players, s.seed, {"balanced_draws": bool(s.balanced_draws), "board": game.board}

    def describe_action(self, game: ReferenceGame, action: int) -> str:
        from .render import describe_action

        return describe_action(game, action)

    def reference_from_json(self, text: str, **options: Any) -> ReferenceGame:
        from .reference import Game

        board = self.check_options(options)["board"]
        return Game.from_json(text, board=board)

    def action_to_string(self, action: int, game: ReferenceGame | None = None, **options: Any) -> str:
        board = game.board if game is not None else self.check_options(options)["board"]
        return A.action_to_string(action, board.resource_names)

    def string_to_action(self, text: str, game: ReferenceGame | None = None, **options: Any) -> int:
        board = game.board if game is not None else self.check_options(options)["board"]
        return A.string_to_action(text, board.resource_names)

    def render_text(self, game: ReferenceGame) -> str:
        from .render import render_text

        return render_text(game)

    def picture_key(self, game: ReferenceGame) -> Any:
        s = game.s  # the picture shows claims, owners and developments, and the era; bids and passes change none
        return (tuple(s.claimed), tuple(s.owner), tuple(s.developed), s.era, game.is_over)

    def to_rgb_array(self, game: ReferenceGame, seat: int | None = None) -> np.ndarray:
        from .picture import to_rgb_array

        return to_rgb_array(game)  # every seat sees the whole table

    def doc_figures(self) -> list[Any]:
        from .docfigure import figures

        return figures()

    def gif_writer(self, path: Any, frame_ms: int = 400, last_ms: int = 3000, scale: float = 1.0) -> Any:
        from .picture import GifWriter

        return GifWriter(path, frame_ms=frame_ms, last_ms=last_ms, scale=scale)  # the players' colours kept

    def rules_text(self) -> str:
        from importlib import resources

        return resources.files("industry_env.games.industry.data").joinpath("rules.md").read_text(encoding="utf-8")

    def components_text(self) -> str:
        from .texts import board_markdown

        return board_markdown(load_board())

    def show(self, game: ReferenceGame) -> None:
        from .picture import show

        show(game)


SPEC = IndustrySpec()
