"""``industry-env play``: a person plays one seat in the terminal against agents."""

from __future__ import annotations

import argparse
import sys

from .games.industry import actions as A
from .games.industry.board import load_board


def cmd_play(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    """A person plays one seat against random or heuristic opponents; bad input is answered, never a crash."""
    from .agents import make_agent
    from .games.industry.reference import Game
    from .games.industry.render import describe_action, describe_decision
    from .records import Recorder

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    game = Game(args.players, seed=args.seed, board=load_board(args.board), balanced_draws=not args.plain_draws)
    seat = args.seat if args.seat is not None else 0
    if not 0 <= seat < args.players:
        say(f"--seat {seat}: there are only seats 0 to {args.players - 1}")
        return 2
    choose = make_agent(args.opponents, seed=args.seed + 1).act_game  # every opponent seat: one seeded agent
    names = game.board.resource_names
    recorder = Recorder.for_game(game)

    def finish(code: int) -> int:
        """Save the game played so far as a record (--record), saying where; a failed write is reported only."""
        path = _record_path(args)
        if path is not None:
            try:
                recorder.save(path, game.scores() if game.is_over else None)
                say(f"game record saved to {path} (replay it with: industry-env replay {path})")
            except OSError as exc:
                say(f"could not save the game record to {path}: {exc.strerror or exc}")
        return code

    say(f"You are player {seat}. Type an action as listed (e.g. 'bid 3', 'auction 1D', 'pay Wood: bank'),")
    say("its number in the list, 'board' to see the board, 'help' for the list again, or 'quit'.")
    say(game.render())
    while not game.is_over:
        p = game.current_player
        legal = game.legal_actions()
        if p != seat:
            a = choose(game)
            say(f"player {p}: {describe_action(game, a)}")
            _apply_and_report(game, a, say)
            recorder.append(a)
            continue
        say("")
        say(describe_decision(game))
        for i, a in enumerate(legal):
            say(f"  [{i}] {describe_action(game, a)}")
        while True:
            out.write("> ")
            out.flush()
            line = stdin.readline()
            if not line:  # end of input
                say("\nend of input: leaving the game")
                return finish(0)
            text = line.strip()
            if text in ("quit", "exit", "q"):
                say("leaving the game")
                return finish(0)
            if text in ("board", "b"):
                say(game.render())
                continue
            if text in ("help", "?", ""):
                for i, a in enumerate(legal):
                    say(f"  [{i}] {describe_action(game, a)}")
                continue
            if text.lstrip("+-").isdigit():
                if text.isdigit() and int(text) < len(legal):
                    action = legal[int(text)]
                    break
                say(f"there is no choice [{text}]: pick 0 to {len(legal) - 1}")
                continue
            try:
                action = A.string_to_action(text, names)
            except ValueError as exc:
                say(str(exc))
                continue
            if action not in legal:
                say(f"'{A.action_to_string(action, names)}' is not legal now; type 'help' for the choices")
                continue
            break
        _apply_and_report(game, action, say)
        recorder.append(action)
    say(game.render())
    for p in range(game.num_players):
        say(f"player {p}: {game.score_breakdown(p)}")
    say("You win!" if seat in game.winners() else f"Winners: {game.winners()}")
    return finish(0)


def _apply_and_report(game, action: int, say) -> None:
    """Apply ``action`` and say who claimed a field, and for how much, if an auction just ended."""
    s = game.s
    lot, price, bidder, auctioneer = s.lot, s.high_bid, s.high_bidder, s.auctioneer
    game.apply(action)
    if lot >= 0 and game.s.claimed[lot]:
        if action == A.SELL:
            say(
                f"  -> player {bidder} claims {game.board.field_label(lot)} "
                f"for {price} Talers paid to player {auctioneer}"
            )
        elif action == A.KEEP:
            say(
                f"  -> player {auctioneer} keeps {game.board.field_label(lot)}, "
                f"paying {price} Talers out around the table"
            )
        else:
            say(f"  -> nobody bid: player {auctioneer} claims {game.board.field_label(lot)} for nothing")


def _record_path(args: argparse.Namespace) -> str | None:
    """Where ``play`` saves its record: --record PATH, none for --record none, else a new industry-game-<seed>.json."""
    from pathlib import Path

    chosen = getattr(args, "record", None)
    if chosen is not None:
        return None if chosen.lower() in ("none", "-") else chosen
    path, k = Path(f"industry-game-{args.seed}.json"), 1
    while path.exists():  # never overwrite an earlier game's record
        path, k = Path(f"industry-game-{args.seed}-{k}.json"), k + 1
    return str(path)
