"""What a policy's network reads and gives, and which game, variant or older layout that is: the sizes of a game's
variants and older layouts, the piece of cells a cell encoder reads, the options an actor was made for, and an older
layout's logits spread to today's actions (:func:`spread_logits`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from industry_env.core.spec import OlderLayout
from industry_env.registry import load_game

from .base import AgentInputError

GAME = "industry"  # the default game whose observation and actions the policy files' networks read and give


def cell_piece(game: str, piece: str, observation_size: int | None = None) -> Any:
    """The piece ``piece`` of ``game``'s observation (of its variant of ``observation_size`` floats, if given, or
    of its older layout of that size, :func:`older_layout_of`) that a cell encoder reads: its last axis one cell's
    features, the axes before it the cells (20th Century's ``grids``: 5 seats x 46 tiles x 56 features; in its
    older window layout 5 seats x 81 cells x 54 features). AgentInputError naming the pieces there are if it has
    none such."""
    spec = load_game(game)
    for v in spec.variants():
        if observation_size is None or spec.observation_size(**v) == observation_size:
            for p in spec.observation_layout(**v):
                if p.name == piece and len(p.shape) >= 2:
                    return p
    for older in game_older_layouts(game) if observation_size is not None else ():  # a policy of an older layout
        if older.observation_size == observation_size:
            for p in older.pieces:
                if p.name == piece and len(p.shape) >= 2:
                    return p
    names = [p.name for p in spec.observation_layout() if len(p.shape) >= 2]
    raise AgentInputError(f"{spec.name}'s observation has no piece {piece!r} of cells to encode (its pieces of two "
                          f"axes or more: {', '.join(names) or 'none'})")  # fmt: skip


def is_encoder(module: Any) -> bool:
    """Whether an actor's module is a cell encoder (torch's or numpy's)."""
    return hasattr(module, "cells") and hasattr(module, "piece") and hasattr(module, "layers")


def encoder_of(actor: Any) -> Any | None:
    """The cell encoder an actor starts with (torch's or numpy's), or None for a plain MLP."""
    first = next(iter(actor), None)
    return first if first is not None and is_encoder(first) else None


def variant_sizes(game: str = GAME) -> list[tuple[int, int]]:
    """(observation size, number of actions) of each variant of ``game`` (a map may change both)."""
    spec = load_game(game)
    return [(spec.observation_size(**v), spec.num_actions(**v)) for v in spec.variants()]


def game_older_layouts(game: str = GAME) -> list[OlderLayout]:
    """The older layouts of ``game``'s observation and actions that it translates today's positions into
    (``GameSpec.older_layouts`` over its variants), one per size, none of a current variant's sizes."""
    spec, current = load_game(game), set(variant_sizes(game))
    out: dict[tuple[int, int], OlderLayout] = {}
    for v in spec.variants():
        for older in spec.older_layouts(**v):
            sizes = (older.observation_size, older.num_actions)
            if sizes not in current:
                out.setdefault(sizes, older)
    return list(out.values())


def policy_sizes(game: str = GAME) -> list[tuple[int, int]]:
    """(observation size, number of actions) a policy of ``game`` may have: each variant's, then each older
    layout's (:func:`game_older_layouts`)."""
    return variant_sizes(game) + [(o.observation_size, o.num_actions) for o in game_older_layouts(game)]


def older_layout_of(actor: Any, game: str = GAME) -> OlderLayout | None:
    """The older layout of ``game`` (``GameSpec.older_layouts``) whose sizes the actor's network reads and gives,
    or None where they are a current variant's (or the actor has no layers)."""
    sizes = io_sizes(actor)
    if sizes is None or sizes in variant_sizes(game):
        return None
    return next((o for o in game_older_layouts(game) if (o.observation_size, o.num_actions) == sizes), None)


def spread_logits(logits: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """float32[B, A]: the logits float32[B, A_old] of a policy of an older layout spread to today's actions through
    the layout's map ``actions`` (int64[B, A], :attr:`OlderLayout.actions`): today's action a gets ``logits[b,
    actions[b, a]]``; one with no equivalent (-1) a logit below every logit of its row (the row's least less
    max(1, its size), at least float32's lowest), so that the choice among legal actions falls on one the policy
    sees where there is one, and is a legal action all the same where there is none."""
    old = np.asarray(logits, np.float32)
    mapped = actions >= 0
    got = np.take_along_axis(old, np.where(mapped, actions, 0), axis=1)
    least = old.min(axis=1, keepdims=True)
    floor = np.maximum(least - np.maximum(np.float32(1), np.abs(least)), np.finfo(np.float32).min)
    return np.where(mapped, got, floor).astype(np.float32)


def linear_layers(actor: Any) -> list[Any]:
    """The Linear layers of an actor (nn.Sequential or NumpyActor), in order."""
    return [m for m in actor if hasattr(m, "in_features") and hasattr(m, "out_features")]


def io_sizes(actor: Any) -> tuple[int, int] | None:
    """(observation floats, actions) an actor reads and gives (None: no Linear layers)."""
    lins, encoder = linear_layers(actor), encoder_of(actor)
    if not lins:
        return None
    return (int(encoder.observation_size) if encoder is not None else lins[0].in_features), lins[-1].out_features


def options_of_actor(actor: Any, game: str = GAME) -> dict[str, Any] | None:
    """The options of ``game`` whose sizes the actor's network reads and gives (None: every variant's)."""
    spec = load_game(game)
    sizes = io_sizes(actor)
    fits = [v for v in spec.variants() if (spec.observation_size(**v), spec.num_actions(**v)) == sizes]
    if len(fits) == len(spec.variants()) or not fits:
        return None
    return {k: v for k, v in fits[0].items() if all(f.get(k) == v for f in fits)}  # only what the sizes tell


def game_of_sizes(inputs: int, outputs: int) -> list[str]:
    """The games of the suite (ids) one of whose variants has ``inputs`` observation floats and ``outputs``
    actions: whose network a policy of those sizes is."""
    from industry_env.registry import available_games

    return [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None
            and (inputs, outputs) in policy_sizes(g)]  # fmt: skip


def refuse_another_game(inputs: int, outputs: int | None, where: str, game: str) -> None:
    """AgentInputError naming the game a network of these sizes plays, if it is not ``game`` (None: any)."""
    others = [g for g in game_of_sizes(inputs, outputs) if g != game] if outputs is not None else []
    if outputs is None:
        from industry_env.registry import available_games

        others = [g for g in available_games(include_hidden=True) if g != game and load_game(g).engine_module
                  is not None and inputs in {o for o, _ in policy_sizes(g)}]  # fmt: skip
    if others:
        names = " or ".join(load_game(g).name for g in others)
        raise AgentInputError(f"{where}: a policy of {names} (its network reads {inputs} floats), not of "
                              f"{load_game(game).name}: load it with game={others[0]!r} (--game {others[0]} on the "
                              f"command line)")  # fmt: skip


def check_actor(actor: Any, where: str, game: str = GAME) -> None:
    """AgentInputError unless the actor reads and gives the sizes of one of ``game``'s variants or older layouts;
    one of another game's sizes is named as that game's."""
    sizes = io_sizes(actor)
    if sizes is None or sizes not in policy_sizes(game):
        if sizes is not None:
            refuse_another_game(*sizes, where, game)
        raise AgentInputError(f"{where}: not a policy of {load_game(game).name} (expected observation size and "
                              f"actions {' or '.join(map(str, sorted(set(policy_sizes(game)))))})")  # fmt: skip


def features_width(actor: Any) -> int:
    """The width of the features an actor's MLP reads (its cell encoder's output, or the observation)."""
    encoder = encoder_of(actor)
    return int(encoder.size) if encoder is not None else int(linear_layers(actor)[0].in_features)
