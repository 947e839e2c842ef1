"""``PPOAgent``: a policy trained with MaskablePPO (``industry_env.train``) as an Agent.

``make_agent("ppo")`` plays the shipped policy of Industry (``industry_env/games/industry/data/ppo_industry.npz``,
loaded on first use), ``make_agent("ppo", game=...)`` a game's shipped policy (``GameSpec.shipped_policy``);
``make_agent("ppo", path=..., game=...)`` plays your own. Only the actor is kept: a tanh (or the saved
activation) MLP from the game's observation floats to one logit per action, after a **cell encoder** where the
policy was trained with one (``encoder = "cells"``: :func:`cell_encoder`, one small ReLU network shared by every
cell of an observation piece such as 20th Century's ``grids``, its outputs flattened after the rest of the
observation); illegal actions get ``-inf`` before the choice. Deterministic by default
(the most probable legal action); ``deterministic=False`` samples from the masked softmax with the agent's own
seeded generator.

Files it reads, none of them by unpickling (nothing in them can run code):

- the **policy file** (``.npz``, :func:`export_policy` and :meth:`PPOAgent.save` write it): a JSON description
  (format, activation, layer sizes, the game it plays; with a cell encoder, format ``industry_env-ppo-actor/3``
  and the piece it encodes, its activation and sizes) and the weights as plain arrays (``weight_k``, ``bias_k``;
  ``cell_weight_k``, ``cell_bias_k``), read with ``numpy.load(allow_pickle=False)``; a policy-value file
  (:func:`export_policy_value`, for the ``az`` agent) holds a value network besides (``value`` in the
  description, ``value_weight_k``, ``value_bias_k``), which the actor's readers skip (:func:`load_value_head`);
- a MaskablePPO ``.zip`` as ``model.save`` writes it: only its JSON ``data`` (the activation's name, the piece a
  cell encoder reads) and its
  ``policy.pth`` (by ``torch.load(weights_only=True)``) are read; the pickled objects it also holds are not
  (``MaskablePPO.load`` unpickles them: only load zips you trust with it);
- an older ``PPOAgent.save`` file (``.pt``, format ``industry_env-ppo-actor/1``), by ``torch.load(weights_only=True)``.

Every file is checked when loaded: the layers must chain from the game's observation size (or from a cell
encoder's features, the encoder's piece one of the game's pieces of cells, its first layer taking a cell's
features) to its number of actions (read from the game's spec), with finite weights.

A policy trained on an **older layout** of its game's observation and actions still plays, where the game can
translate today's positions into that layout (``GameSpec.older_layouts``: 20th Century's shipped policy sees each
nation through the 9 x 9 window of cells it was trained on, from before ruling 18 was lifted). A policy whose sizes
are an older layout's, and no current variant's, is loaded and checked against that layout; it acts on the
layout's translation of each observation, and its logits are spread to today's actions through the layout's map
(:func:`spread_logits`): each of today's actions gets the logit of the older action naming the same move, and one
with no equivalent there (20th Century: a cell outside the window) a logit below all of those, so the policy plays
a legal move whatever the position, preferring the moves it can see.

What needs torch (the ``train`` extra): a policy file (``.npz``, both games' shipped policies among them) plays with
numpy alone where torch is not installed (:class:`NumpyActor`: the same float32 layers and activations; its logits
are torch's to float32 rounding, 1e-5 relative, and its actions torch's on every position tested); where torch is
installed, torch runs them, as before. A numpy actor multiplies on ``threads`` OpenBLAS threads
(:func:`blas_controller`, threadpoolctl). A MaskablePPO ``.zip``
and a ``.pt`` file are read by ``torch.load``, so they need torch, as do :meth:`PPOAgent.from_policy` and
:func:`export_policy` of a model, a zip or a ``.pt`` file (they read torch models); exporting or saving an agent
or a policy file does not.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import math
import os
import re
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.aliases import moved_file
from industry_env.core.outputs import atomic_file
from industry_env.core.spec import OlderLayout, import_path
from industry_env.registry import load_game

from .base import Agent, AgentInputError, check_seed

GAME = "industry"  # the default game whose observation and actions the policy files' networks read and give
SHIPPED = "ppo_industry.npz"  # in Industry's data folder: the actor of ppo_industry.zip, exported by export_policy
SHIPPED_SB3 = "ppo_industry.zip"  # the whole MaskablePPO save it came from (Adam state too: to continue training)
WEIGHTS_FORMAT = "industry_env-ppo-actor/1"  # the older torch weights file (.pt), still read
POLICY_FORMAT = "industry_env-ppo-actor/2"  # the policy file (.npz): JSON description + plain arrays
ENCODER_FORMAT = "industry_env-ppo-actor/3"  # a policy file whose actor starts with a cell encoder (its own format,
# so that a reader of /2 files refuses it by its format rather than by its first layer's width)
CELL_ACTIVATION = "ReLU"  # the cell encoder's activation, after each of its layers (a 1x1 convolution's usual one)
_SELU_ALPHA = 1.6732632423543772848170429916717  # torch.nn.SELU's constants (Klambauer et al. 2017)
_SELU_SCALE = 1.0507009873554804934193349852946
_erf = np.vectorize(math.erf, otypes=[np.float64])  # numpy has no erf; GELU is rare enough for a Python loop


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)), without overflow for large |x|."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _softplus(x: np.ndarray) -> np.ndarray:
    """torch.nn.Softplus(beta=1, threshold=20): log(1 + exp(x)), and x itself above the threshold."""
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


# Each torch.nn activation a policy file may name (built with no arguments, so with torch's defaults), in numpy as
# torch's documentation defines it; ACTIVATIONS, the names a file may use, are its keys.
NUMPY_ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0),
    "LeakyReLU": lambda x: np.where(x >= 0, x, x * 0.01),  # negative_slope=0.01
    "ELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),  # alpha=1
    "SELU": lambda x: _SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(np.minimum(x, 0))),
    "CELU": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),  # alpha=1: max(0,x) + min(0, exp(x) - 1)
    "GELU": lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),  # approximate='none': x * Phi(x)
    "SiLU": lambda x: x * _sigmoid(x),
    "Mish": lambda x: x * np.tanh(_softplus(x)),
    "Sigmoid": _sigmoid,
    "Softplus": _softplus,
    "Hardtanh": lambda x: np.clip(x, -1, 1),  # min_val=-1, max_val=1
    "Identity": lambda x: x,
}
ACTIVATIONS = tuple(NUMPY_ACTIVATIONS)  # torch.nn activations a policy file may name


class TrainExtraMissing(ImportError, ValueError):
    """torch (or Stable-Baselines3) is not installed: the PPO agent needs ``pip install 'industry_env[train]'``."""


def _torch(needs: str = "this") -> Any:
    """torch, or TrainExtraMissing saying that ``needs`` needs it (and that a policy file does not)."""
    try:
        import torch
    except ImportError as exc:
        raise TrainExtraMissing(f"{needs} needs torch: pip install 'industry_env[train]' (the train extra) ({exc}); "
                                f"the 'ppo' agent plays a policy file (.npz, weights only) without it, and "
                                f"export_policy writes one where torch is installed") from None  # fmt: skip
    return torch


def _torch_if_installed() -> Any | None:
    """torch where it is installed, else None (a policy file then plays with numpy)."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def shipped_path(game: str = GAME) -> Path:
    """Where ``game``'s shipped policy file (weights only, ``.npz``) lives inside the installed package; a
    ValueError if the game ships none."""
    spec = load_game(game)
    if spec.shipped_policy is None:
        raise AgentInputError(f"{spec.name} ships no trained policy yet: pass path= (a policy file or a "
                              f"MaskablePPO .zip of your own, trained with industry-env train)")  # fmt: skip
    package, _, file = spec.shipped_policy.partition(":")
    return Path(str(resources.files(package).joinpath(file)))


def shipped_sb3_path() -> Path:
    """The shipped MaskablePPO save the policy file was exported from (for continuing training; unpickles)."""
    return shipped_path(GAME).with_name(SHIPPED_SB3)


class NumpyLinear:
    """``x @ weight.T + bias`` as torch.nn.Linear computes it: weight float32[out, in], bias float32[out]."""

    def __init__(self, weight: np.ndarray, bias: np.ndarray) -> None:
        self.weight, self.bias = weight, bias
        self.out_features, self.in_features = (int(n) for n in weight.shape)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return x @ self.weight.T + self.bias

    def __repr__(self) -> str:
        return f"NumpyLinear(in_features={self.in_features}, out_features={self.out_features})"


class NumpyActivation:
    """One of :data:`ACTIVATIONS` (torch's defaults), applied in numpy to float32 arrays."""

    def __init__(self, name: str) -> None:
        self.name, self._f = name, NUMPY_ACTIVATIONS[name]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self._f(x), dtype=np.float32)

    def __repr__(self) -> str:
        return f"NumpyActivation({self.name!r})"


class NumpyCellEncoder:
    """A cell encoder (:func:`cell_encoder`) in numpy: the same per-cell layers on float32 arrays, the same order
    of the features it gives (the observation without the piece, then each cell's encoding, cell by cell)."""

    def __init__(self, piece: Any, layers: list[tuple[np.ndarray, np.ndarray]], activation: str,
                 observation_size: int) -> None:  # fmt: skip
        self.piece, self.offset, self.activation = piece.name, piece.offset, activation
        self.features, self.cells = int(piece.shape[-1]), int(piece.size // piece.shape[-1])
        self.observation_size = observation_size
        self.linears = tuple(NumpyLinear(*_frozen(w, b)) for w, b in layers)
        self.act = NumpyActivation(activation)
        self.size = observation_size - self.cells * self.features + self.cells * self.linears[-1].out_features

    def __call__(self, x: np.ndarray) -> np.ndarray:
        end = self.offset + self.cells * self.features
        g = x[:, self.offset : end].reshape(x.shape[0], self.cells, self.features)
        used = g[..., 0] != 0  # the others are empty: they get the encoding of an all-zero cell
        h = np.broadcast_to(self._encode(np.zeros((1, self.features), np.float32)),
                            (x.shape[0], self.cells, self.linears[-1].out_features)).copy()  # fmt: skip
        h[used] = self._encode(g[used])
        return np.concatenate([x[:, : self.offset], x[:, end:], h.reshape(x.shape[0], -1)], axis=1)

    def _encode(self, cells: np.ndarray) -> np.ndarray:
        """float32[n, features] -> float32[n, out]: the per-cell layers, each followed by the activation."""
        for lin in self.linears:
            cells = self.act(lin(cells))
        return cells

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(weights, biases) of each per-cell layer."""
        return [(m.weight, m.bias) for m in self.linears]

    def __repr__(self) -> str:
        sizes = [self.features] + [m.out_features for m in self.linears]
        return f"NumpyCellEncoder(piece={self.piece!r}, cells={self.cells}, sizes={sizes}, {self.activation})"


def _frozen(w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 read-only copies (agents share the shipped actor)."""
    w, b = np.array(w, np.float32), np.array(b, np.float32)
    w.setflags(write=False)
    b.setflags(write=False)
    return w, b


class NumpyActor:
    """The actor of a policy file in numpy, for where torch is not installed: a cell encoder first if the policy
    has one, then Linear layers with ``activation`` between them (none after the last); iterates over its modules
    as nn.Sequential does, and maps float32[B, obs] to float32[B, actions] logits. Its arrays are read-only:
    agents share the shipped actor."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str,
                 encoder: NumpyCellEncoder | None = None) -> None:  # fmt: skip
        self.activation = activation
        mods: list[NumpyCellEncoder | NumpyLinear | NumpyActivation] = [] if encoder is None else [encoder]
        for k, (w, b) in enumerate(layers):
            mods.append(NumpyLinear(*_frozen(w, b)))
            if k < len(layers) - 1:
                mods.append(NumpyActivation(activation))
        self.modules = tuple(mods)

    def __iter__(self) -> Any:
        return iter(self.modules)

    def __len__(self) -> int:
        return len(self.modules)

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(observations, np.float32)
        for m in self.modules:
            x = m(x)
        return x

    def __repr__(self) -> str:
        return f"NumpyActor({', '.join(map(repr, self.modules))})"


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
    for older in _older_layouts(game) if observation_size is not None else ():  # a policy of an older layout
        if older.observation_size == observation_size:
            for p in older.pieces:
                if p.name == piece and len(p.shape) >= 2:
                    return p
    names = [p.name for p in spec.observation_layout() if len(p.shape) >= 2]
    raise AgentInputError(f"{spec.name}'s observation has no piece {piece!r} of cells to encode (its pieces of two "
                          f"axes or more: {', '.join(names) or 'none'})")  # fmt: skip


def cell_encoder(piece: Any, arch: list[int], observation_size: int, activation: str = CELL_ACTIVATION) -> Any:
    """A torch module that encodes every cell of the observation piece ``piece`` (:func:`cell_piece`) with one
    small network shared by all the cells (``arch``: its layer sizes, ``activation`` after each; a 1x1
    convolution), and gives the rest of the observation followed by each cell's encoding, flattened in the
    piece's order: float32[B, obs] -> float32[B, obs - cells * features + cells * arch[-1]] (its ``size``).

    A cell whose first feature is 0 is empty (20th Century's ``present`` flag; the game writes nothing else into
    an empty cell): it gets the encoding of an all-zero cell, computed once, since most cells of a batch are
    empty (97% in random games), which makes the encoder several times faster. :class:`NumpyCellEncoder` does
    the same."""
    torch = _torch("a cell encoder")
    return _cell_encoder_class(torch)(piece, list(arch), observation_size, activation)


@functools.cache
def _cell_encoder_class(torch: Any) -> type:
    """The torch module class of :func:`cell_encoder`, made once torch is imported (this module needs no torch)."""

    class CellEncoder(torch.nn.Module):
        """See :func:`cell_encoder`; ``piece``, ``offset``, ``cells``, ``features``, ``size`` as NumpyCellEncoder's."""

        def __init__(self, piece: Any, arch: list[int], observation_size: int, activation: str) -> None:
            super().__init__()
            self.piece, self.offset, self.activation = piece.name, piece.offset, activation
            self.features, self.cells = int(piece.shape[-1]), int(piece.size // piece.shape[-1])
            self.observation_size = observation_size
            mods, width = [], self.features
            for h in arch:
                mods += [torch.nn.Linear(width, h), getattr(torch.nn, activation)()]
                width = h
            self.net = torch.nn.Sequential(*mods)
            self.size = observation_size - self.cells * self.features + self.cells * width

        def forward(self, x: Any) -> Any:
            end = self.offset + self.cells * self.features
            g = x[:, self.offset : end].reshape(x.shape[0], self.cells, self.features)
            used = g[..., 0] != 0  # the others are empty: they get the encoding of an all-zero cell
            empty = self.net(g.new_zeros(1, 1, self.features))
            h = torch.index_put(empty.expand(x.shape[0], self.cells, -1), (used,), self.net(g[used]))
            return torch.cat([x[:, : self.offset], x[:, end:], h.flatten(1)], dim=1)

        def layers(self) -> list[tuple[Any, Any]]:
            """(weights, biases) of each per-cell layer."""
            return [(m.weight, m.bias) for m in self.net if isinstance(m, torch.nn.Linear)]

    return CellEncoder


def _is_encoder(module: Any) -> bool:
    """Whether an actor's module is a cell encoder (torch's or numpy's)."""
    return hasattr(module, "cells") and hasattr(module, "piece") and hasattr(module, "layers")


def encoder_of(actor: Any) -> Any | None:
    """The cell encoder an actor starts with (torch's or numpy's), or None for a plain MLP."""
    first = next(iter(actor), None)
    return first if first is not None and _is_encoder(first) else None


@functools.cache
def blas_controller() -> Any:
    """threadpoolctl's controller of the BLAS libraries loaded in this process (numpy's among them): a NumpyActor
    multiplies on ``threads`` of their threads, as a torch actor does on torch's, since OpenBLAS's default (every
    core) made Age of Industry's forward pass 40 times slower on a busy 2-core CPU."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


BACKENDS = ("torch", "numpy")  # what runs a policy file's actor (load_actor's backend=; None: torch if installed)


def _as_array(x: Any, where: str) -> np.ndarray:
    """A layer's weights or biases (a numpy array, or a torch tensor from a .zip or .pt file) as a numpy array."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor
        t = x.detach().cpu()
        try:
            return t.numpy()
        except TypeError:  # a dtype numpy lacks (bfloat16): floats all the same
            return t.float().numpy()
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise AgentInputError(f"{where}: a layer is not an array ({exc})") from None


def _checked_chain(layers: list[tuple[Any, Any]], width: int, where: str, first: str, name: str = "layer"
                   ) -> list[tuple[np.ndarray, np.ndarray]]:  # fmt: skip
    """Layers as float32 (weights, biases), each 2-D and 1-D, finite, each taking the previous one's outputs (the
    first ``width`` inputs: ``first``); AgentInputError naming the layer (``name`` k) that does not."""
    checked = []
    for k, (w, b) in enumerate(layers):
        w, b = _as_array(w, where), _as_array(b, where)
        if w.ndim != 2 or b.ndim != 1 or b.shape[0] != w.shape[0] or not np.issubdtype(w.dtype, np.floating) or \
                not np.issubdtype(b.dtype, np.floating):  # fmt: skip
            raise AgentInputError(f"{where}: {name} {k} has weights {list(w.shape)} {w.dtype} and biases "
                                  f"{list(b.shape)} {b.dtype}; expected float [out, in] and [out]")  # fmt: skip
        if w.shape[1] != width:
            raise AgentInputError(f"{where}: {name} {k} takes {w.shape[1]} inputs but gets {width} (the "
                                  f"{first if k == 0 else f'outputs of {name} {k - 1}'}): the layers do not "
                                  f"chain")  # fmt: skip
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise AgentInputError(f"{where}: {name} {k} holds NaN or infinite weights")
        width = int(w.shape[0])
        checked.append((w.astype(np.float32), b.astype(np.float32)))
    return checked


def _checked_encoder(encoder: dict[str, Any], where: str, game: str) -> NumpyCellEncoder:
    """A cell encoder's description (``piece``, ``layers`` as (weights, biases), ``activation``) checked against
    ``game``'s observation: the piece must be one of its pieces of cells, the first layer take a cell's features,
    the layers chain; AgentInputError naming what is wrong."""
    activation = encoder.get("activation")
    if activation not in ACTIVATIONS:
        raise AgentInputError(f"{where}: cell encoder activation {activation!r} is not one of "
                              f"{', '.join(ACTIVATIONS)}")  # fmt: skip
    layers = encoder.get("layers") or []
    if not layers:
        raise AgentInputError(f"{where}: a cell encoder without layers")
    first = _as_array(layers[0][0], where)
    pieces = []  # today's variants first, then the older layouts (a policy's first layer chooses among them)
    for size in sorted({o for o, _ in _variants(game)}) + [o.observation_size for o in _older_layouts(game)]:
        try:
            pieces.append((size, cell_piece(game, str(encoder.get("piece")), size)))
        except AgentInputError:
            continue
    if not pieces:
        cell_piece(game, str(encoder.get("piece")))  # raises, naming the pieces there are
    # a game whose variants place the piece differently: the first whose cells' features the first layer takes
    size, piece = next(((o, q) for o, q in pieces if first.ndim == 2 and first.shape[1] == q.shape[-1]), pieces[0])
    checked = _checked_chain(layers, int(piece.shape[-1]), where, f"{piece.shape[-1]} features of a cell of "
                             f"{piece.name!r}", name="cell encoder layer")  # fmt: skip
    return NumpyCellEncoder(piece, checked, str(activation), size)


def _checked_layers(layers: list[tuple[Any, Any]], activation: str, where: str, game: str = GAME,
                    encoder: Any | None = None) -> list[tuple[np.ndarray, np.ndarray]]:  # fmt: skip
    """The layers as float32 (weights, biases) arrays, checked with numpy (no torch needed).

    The layers must chain (each one's inputs the previous one's outputs) from the game's observation floats (or
    the ``size`` features of the actor's cell ``encoder``) to its logits, with 2-D weights, 1-D biases and finite
    values: a file that does not fit is refused here, when it is loaded, not at its first action. The sizes of
    the game's older layouts (:func:`older_layout_of`) fit too.
    """
    variants = _sizes(game)
    if activation not in ACTIVATIONS:
        raise AgentInputError(f"{where}: activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
    if not layers:
        raise AgentInputError(f"{where}: no layers")
    sizes = sorted({o for o, _ in variants})
    first = _as_array(layers[0][0], where)
    if encoder is not None:
        width = int(encoder.size)
    else:
        if first.ndim == 2 and int(first.shape[-1]) not in sizes:  # another game's network: name it
            last = _as_array(layers[-1][0], where)
            _another_game(int(first.shape[-1]), int(last.shape[0]) if last.ndim == 2 else None, where, game)
        width = int(first.shape[-1]) if len(sizes) > 1 and first.ndim == 2 else sizes[0]
        if width not in sizes:
            raise AgentInputError(f"{where}: layer 0 takes {width} inputs, not the {' or '.join(map(str, sizes))} "
                                  f"floats of an observation of {load_game(game).name}")  # fmt: skip
    checked = _checked_chain(layers, width, where, "cell encoder's features" if encoder is not None else
                             "observation")  # fmt: skip
    inputs = encoder.observation_size if encoder is not None else checked[0][0].shape[1]
    num_actions = sorted({a for o, a in variants if o == inputs})
    width = int(checked[-1][0].shape[0])
    if width not in num_actions:
        raise AgentInputError(f"{where}: the last layer gives {width} outputs, not one logit for each of the "
                              f"{' or '.join(map(str, num_actions))} actions")  # fmt: skip
    return checked


def _actor_from_layers(layers: list[tuple[Any, Any]], activation: str, where: str, game: str = GAME,
                       backend: str | None = None, encoder: dict[str, Any] | None = None) -> Any:  # fmt: skip
    """The checked layers (:func:`_checked_layers`), after the cell ``encoder`` they describe if any
    (:func:`_checked_encoder`), as an actor: nn.Sequential where torch is installed (or ``backend="torch"``), else
    (or ``backend="numpy"``) a :class:`NumpyActor`."""
    if backend is not None and backend not in BACKENDS:
        raise AgentInputError(f"backend={backend!r}: one of {', '.join(BACKENDS)}, or None (torch if installed)")
    cells = _checked_encoder(encoder, where, game) if encoder is not None else None
    checked = _checked_layers(layers, activation, where, game, cells)
    torch = None if backend == "numpy" else _torch_if_installed()
    if torch is None and backend == "torch":
        torch = _torch(f"{where}: backend='torch'")
    if torch is None:
        return NumpyActor(checked, activation, cells)

    def linear(w: np.ndarray, b: np.ndarray) -> Any:
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(np.array(w)))  # a copy: the checked arrays are read-only
            lin.bias.copy_(torch.from_numpy(np.array(b)))
        return lin

    mods: list[Any] = []
    if cells is not None:
        piece = cell_piece(game, cells.piece, cells.observation_size)
        mod = cell_encoder(piece, [w.shape[0] for w, _ in cells.layers()], cells.observation_size, cells.activation)
        mod.net = torch.nn.Sequential(*[m for w, b in cells.layers() for m in (linear(w, b),
                                        getattr(torch.nn, cells.activation)())])  # fmt: skip
        mods.append(mod)
    for k, (w, b) in enumerate(checked):
        mods.append(linear(w, b))
        if k < len(checked) - 1:
            mods.append(getattr(torch.nn, activation)())
    actor = torch.nn.Sequential(*mods)
    actor.requires_grad_(False)
    return actor.eval()


def actor_from_policy(policy: Any) -> Any:
    """A frozen copy of a MaskablePPO policy's actor (features -> policy MLP -> action logits) as nn.Sequential;
    the features: the flat observation, or the cell encoder of an ``industry_env.train`` policy
    (``encoder = "cells"``), first in the Sequential."""
    torch = _torch("actor_from_policy (a live MaskablePPO policy)")
    extractor = getattr(policy, "pi_features_extractor", getattr(policy, "features_extractor", None))
    encoder = getattr(extractor, "encoder", None)
    if type(extractor).__name__ != "FlattenExtractor" and (encoder is None or not _is_encoder(encoder)):
        raise AgentInputError(f"PPOAgent reads MLP policies on the flat observation or on a cell encoder "
                              f"(industry_env.train's encoder = 'cells'), not {type(extractor).__name__}")  # fmt: skip
    first = [] if encoder is None else [copy.deepcopy(encoder)]
    mods = first + [copy.deepcopy(m) for m in policy.mlp_extractor.policy_net] + [copy.deepcopy(policy.action_net)]
    actor = torch.nn.Sequential(*mods).to("cpu")
    actor.requires_grad_(False)
    return actor.eval()


def _variants(game: str = GAME) -> list[tuple[int, int]]:
    """(observation size, number of actions) of each variant of ``game`` (a map may change both)."""
    spec = load_game(game)
    return [(spec.observation_size(**v), spec.num_actions(**v)) for v in spec.variants()]


def _older_layouts(game: str = GAME) -> list[OlderLayout]:
    """The older layouts of ``game``'s observation and actions that it translates today's positions into
    (``GameSpec.older_layouts`` over its variants), one per size, none of a current variant's sizes."""
    spec, current = load_game(game), set(_variants(game))
    out: dict[tuple[int, int], OlderLayout] = {}
    for v in spec.variants():
        for older in spec.older_layouts(**v):
            sizes = (older.observation_size, older.num_actions)
            if sizes not in current:
                out.setdefault(sizes, older)
    return list(out.values())


def _sizes(game: str = GAME) -> list[tuple[int, int]]:
    """(observation size, number of actions) a policy of ``game`` may have: each variant's, then each older
    layout's (:func:`_older_layouts`)."""
    return _variants(game) + [(o.observation_size, o.num_actions) for o in _older_layouts(game)]


def older_layout_of(actor: Any, game: str = GAME) -> OlderLayout | None:
    """The older layout of ``game`` (``GameSpec.older_layouts``) whose sizes the actor's network reads and gives,
    or None where they are a current variant's (or the actor has no layers)."""
    sizes = _io_sizes(actor)
    if sizes is None or sizes in _variants(game):
        return None
    return next((o for o in _older_layouts(game) if (o.observation_size, o.num_actions) == sizes), None)


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


def _linears(actor: Any) -> list[Any]:
    """The Linear layers of an actor (nn.Sequential or NumpyActor), in order."""
    return [m for m in actor if hasattr(m, "in_features") and hasattr(m, "out_features")]


def _io_sizes(actor: Any) -> tuple[int, int] | None:
    """(observation floats, actions) an actor reads and gives (None: no Linear layers)."""
    lins, encoder = _linears(actor), encoder_of(actor)
    if not lins:
        return None
    return (int(encoder.observation_size) if encoder is not None else lins[0].in_features), lins[-1].out_features


def options_of_actor(actor: Any, game: str = GAME) -> dict[str, Any] | None:
    """The options of ``game`` whose sizes the actor's network reads and gives (None: every variant's)."""
    spec = load_game(game)
    sizes = _io_sizes(actor)
    fits = [v for v in spec.variants() if (spec.observation_size(**v), spec.num_actions(**v)) == sizes]
    if len(fits) == len(spec.variants()) or not fits:
        return None
    return {k: v for k, v in fits[0].items() if all(f.get(k) == v for f in fits)}  # only what the sizes tell


def game_of_sizes(inputs: int, outputs: int) -> list[str]:
    """The games of the suite (ids) one of whose variants has ``inputs`` observation floats and ``outputs``
    actions: whose network a policy of those sizes is."""
    from industry_env.registry import available_games

    return [g for g in available_games(include_hidden=True) if load_game(g).engine_module is not None
            and (inputs, outputs) in _sizes(g)]  # fmt: skip


def _another_game(inputs: int, outputs: int | None, where: str, game: str) -> None:
    """AgentInputError naming the game a network of these sizes plays, if it is not ``game`` (None: any)."""
    others = [g for g in game_of_sizes(inputs, outputs) if g != game] if outputs is not None else []
    if outputs is None:
        from industry_env.registry import available_games

        others = [g for g in available_games(include_hidden=True) if g != game and load_game(g).engine_module
                  is not None and inputs in {o for o, _ in _sizes(g)}]  # fmt: skip
    if others:
        names = " or ".join(load_game(g).name for g in others)
        raise AgentInputError(f"{where}: a policy of {names} (its network reads {inputs} floats), not of "
                              f"{load_game(game).name}: load it with game={others[0]!r} (--game {others[0]} on the "
                              f"command line)")  # fmt: skip


def _check_actor(actor: Any, where: str, game: str = GAME) -> None:
    sizes = _io_sizes(actor)
    if sizes is None or sizes not in _sizes(game):
        if sizes is not None:
            _another_game(*sizes, where, game)
        raise AgentInputError(f"{where}: not a policy of {load_game(game).name} (expected observation size and "
                              f"actions {' or '.join(map(str, sorted(set(_sizes(game)))))})")  # fmt: skip


def load_actor(path: str | Path, game: str = GAME, backend: str | None = None) -> Any:
    """The actor of a policy file, a MaskablePPO ``.zip`` or an older ``.pt`` weights file: nn.Sequential, or a
    :class:`NumpyActor` where torch is not installed (``backend``: ``"torch"`` or ``"numpy"`` to choose).

    Nothing is unpickled (module docstring); AgentInputError names the file and what is wrong with it; reading a
    ``.zip`` or ``.pt`` without torch raises TrainExtraMissing, which names the train extra.
    """
    p = moved_file(path) or Path(path)  # a checkout's old industry_env/data/ppo_industry.npz
    if not p.is_file():
        raise AgentInputError(f"PPO policy {p}: {'a folder, not a policy file' if p.is_dir() else 'no such file'}")
    where = f"PPO policy {p}"
    names = _zip_names(p, where)
    if "description.npy" in names:
        layers, activation, encoder = _read_policy_file(p, where, game)
    elif {"data", "policy.pth"} <= names:
        layers, activation, encoder = _read_sb3_zip(p, where)
    else:
        (layers, activation), encoder = _read_weights_pt(p, where), None
    return _actor_from_layers(layers, activation, where, game, backend, encoder)


MAX_POLICY_BYTES = 2**30  # what a policy's entries may unpack to: 1 GiB (the shipped zip unpacks to 3 MB)


def _zip_names(p: Path, where: str) -> set[str]:
    """The entries of a zip (SB3 saves and policy files are zips; none for another file); AgentInputError for a
    zip that would unpack to more than :data:`MAX_POLICY_BYTES`."""
    try:
        with zipfile.ZipFile(p) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError):
        return set()
    if sum(i.file_size for i in infos) > MAX_POLICY_BYTES:
        raise AgentInputError(f"{where}: unpacks to over {MAX_POLICY_BYTES:,} bytes, too big for a policy")
    return {i.filename for i in infos}


def _read_policy_file(p: Path, where: str, game: str = GAME
                      ) -> tuple[list[tuple[Any, Any]], str, dict[str, Any] | None]:  # fmt: skip
    """The layers, activation and cell encoder (None if the policy has none) of a policy file (``.npz``: a JSON
    description, then weight_k and bias_k, and cell_weight_k and cell_bias_k for an encoder); a file whose
    description names another game than ``game`` is refused, naming both."""
    try:
        with np.load(p, allow_pickle=False) as z:
            description = json.loads(str(z["description"]))
            n = description["layers"]
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
                raise ValueError(f"'layers' = {n!r}, expected a whole number of layers")
            form = description.get("format")
            if form not in (POLICY_FORMAT, ENCODER_FORMAT):
                raise ValueError(f"format {form!r}, expected {POLICY_FORMAT!r} or {ENCODER_FORMAT!r}")
            layers = [(z[f"weight_{k}"], z[f"bias_{k}"]) for k in range(n)]
            activation = description["activation"]
            trained_on = description.get("game")  # written since the suite has several games
            encoder = None
            if form == ENCODER_FORMAT:
                about = description["encoder"]
                m = about["layers"]
                if about.get("kind") != "cells" or not isinstance(m, int) or isinstance(m, bool) or not 1 <= m <= 64:
                    raise ValueError(f"encoder {about!r}: expected kind 'cells' and a whole number of layers")
                encoder = {"piece": str(about["piece"]), "activation": about["activation"],
                           "layers": [(z[f"cell_weight_{k}"], z[f"cell_bias_{k}"]) for k in range(m)]}  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise AgentInputError(f"{where}: not a readable policy file ({type(exc).__name__}: {exc})") from None
    if trained_on is not None and trained_on != load_game(game).id:
        try:
            other = load_game(str(trained_on)).name
        except ValueError:
            other = repr(trained_on)
        raise AgentInputError(f"{where}: a policy of {other} (its file says so), not of {load_game(game).name}: load "
                              f"it with game={trained_on!r} (--game {trained_on} on the command line)")  # fmt: skip
    return layers, str(activation), encoder


_ACTIVATION_IN_SB3_DATA = re.compile(r"<class 'torch\.nn\.modules\.activation\.(\w+)'>")


def _read_sb3_zip(p: Path, where: str) -> tuple[list[tuple[Any, Any]], str, dict[str, Any] | None]:
    """The actor's layers and activation from a MaskablePPO ``.zip``, without unpickling anything in it.

    ``data`` is JSON: the activation is read from the text SB3 writes next to its pickled ``policy_kwargs``;
    ``policy.pth`` is a state dict, read with ``torch.load(weights_only=True)``.
    """
    torch = _torch(f"{where}: reading a MaskablePPO .zip")
    try:
        with zipfile.ZipFile(p) as z:
            data = json.loads(z.read("data").decode("utf-8"))
            state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
    except Exception as exc:  # a damaged zip, JSON, or a policy.pth with more than tensors in it
        raise AgentInputError(f"{where}: not a readable Stable-Baselines3 save ({type(exc).__name__}: {exc})"
                              ) from None  # fmt: skip
    if not isinstance(data, dict) or not isinstance(state, dict):
        raise AgentInputError(f"{where}: not a Stable-Baselines3 save (no data and policy weights)")
    kwargs = data.get("policy_kwargs") or {}
    activation = "Tanh"  # SB3's default for actor-critic MLP policies
    named = kwargs.get("activation_fn") if isinstance(kwargs, dict) else None
    if named is not None:
        found = _ACTIVATION_IN_SB3_DATA.fullmatch(str(named))
        if not found:
            raise AgentInputError(f"{where}: activation {named!r} is not one of torch.nn's")
        activation = found.group(1)
    encoder = _sb3_cell_encoder(data, state, where)
    extractors = sorted({k.split(".")[0] for k in state if "features_extractor" in k.split(".")[0]})
    if extractors and encoder is None:
        raise AgentInputError(f"{where}: the policy has a learned features extractor ({', '.join(extractors)}); "
                              f"PPOAgent reads MLP policies on the flat observation or on a cell encoder "
                              f"(industry_env.train's encoder = 'cells')")  # fmt: skip
    k, layers = 0, []
    while f"mlp_extractor.policy_net.{k}.weight" in state:
        layers.append((state[f"mlp_extractor.policy_net.{k}.weight"], state.get(f"mlp_extractor.policy_net.{k}.bias")))
        k += 2  # Linear, activation, Linear, ...
    if "action_net.weight" not in state or "action_net.bias" not in state:
        raise AgentInputError(f"{where}: no action_net in the saved policy")
    layers.append((state["action_net.weight"], state["action_net.bias"]))
    if any(b is None for _, b in layers):
        raise AgentInputError(f"{where}: a layer of the policy network has no biases")
    return layers, activation, encoder


def _sb3_cell_encoder(data: dict[str, Any], state: dict[str, Any], where: str) -> dict[str, Any] | None:
    """The cell encoder of a MaskablePPO save trained with ``encoder = "cells"`` (its state's
    ``features_extractor.encoder.net.K`` layers; the piece from the JSON SB3 writes of its ``policy_kwargs``), or
    None."""
    for prefix in ("pi_features_extractor.encoder.net.", "features_extractor.encoder.net."):
        if f"{prefix}0.weight" in state:
            break
    else:
        return None
    kwargs = data.get("policy_kwargs")
    about = kwargs.get("features_extractor_kwargs") if isinstance(kwargs, dict) else None
    piece = about.get("piece") if isinstance(about, dict) else None  # SB3 writes the kwargs as JSON besides
    if not isinstance(piece, str):
        raise AgentInputError(f"{where}: the policy has a cell encoder but its save does not name the observation "
                              f"piece it encodes")  # fmt: skip
    k, layers = 0, []
    while f"{prefix}{k}.weight" in state:
        layers.append((state[f"{prefix}{k}.weight"], state.get(f"{prefix}{k}.bias")))
        k += 2  # Linear, activation, Linear, ...
    if any(b is None for _, b in layers):
        raise AgentInputError(f"{where}: a layer of the cell encoder has no biases")
    return {"piece": piece, "activation": CELL_ACTIVATION, "layers": layers}


def _read_weights_pt(p: Path, where: str) -> tuple[list[tuple[Any, Any]], str]:
    """The layers of an older ``PPOAgent.save`` file (torch, format ``industry_env-ppo-actor/1``)."""
    torch = _torch(f"{where}: not a policy file (.npz) nor a MaskablePPO .zip; reading it as a PPOAgent weights "
                   f"file (.pt)")  # fmt: skip
    try:
        blob = torch.load(p, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise AgentInputError(f"{where}: neither a policy file, a MaskablePPO zip nor a PPOAgent weights file "
                              f"({type(exc).__name__}: {exc})") from None  # fmt: skip
    if not isinstance(blob, dict) or blob.get("format") != WEIGHTS_FORMAT:
        raise AgentInputError(f"{where}: not a PPOAgent weights file (format {WEIGHTS_FORMAT})")
    weights, biases = blob.get("weights"), blob.get("biases")
    if not isinstance(weights, (list, tuple)) or not isinstance(biases, (list, tuple)) or not weights or \
            len(weights) != len(biases):  # fmt: skip
        raise AgentInputError(f"{where}: the file has the PPOAgent tag but no weights and biases (one list of each, "
                              f"as long as each other)")  # fmt: skip
    return list(zip(weights, biases, strict=True)), str(blob.get("activation", "Tanh"))


def export_policy(source: Any, path: str | Path, game: str = GAME) -> Path:
    """Write the actor of ``source`` as a policy file (``.npz``, weights only), which loads without unpickling.

    ``source``: a PPOAgent, a MaskablePPO model or its ``policy``, or the path of a policy file, a MaskablePPO
    ``.zip`` (read without unpickling) or a ``.pt`` weights file. The file is written under a temporary name and
    renamed, so it is whole or absent. ``make_agent("ppo", path=...)`` plays it, with or without torch. A model,
    a ``.zip`` or a ``.pt`` file needs torch to read; an agent or a policy file does not.
    """
    if isinstance(source, (str, os.PathLike)):
        actor = load_actor(source, game)
    elif isinstance(source, PPOAgent):
        actor = source.actor
    else:
        policy = getattr(source, "policy", source)
        if not hasattr(policy, "mlp_extractor"):
            raise AgentInputError(f"export_policy: {type(source).__name__} is not a PPOAgent, a MaskablePPO model "
                                  f"or policy, nor the path of a policy")  # fmt: skip
        actor = actor_from_policy(policy)
    _check_actor(actor, f"export_policy({type(source).__name__})", game)
    return _write_policy_file(actor, Path(path), game)


def _write_policy_file(actor: Any, p: Path, game: str = GAME, value: ValueHead | None = None) -> Path:
    """The actor as a policy file; its description names the game it plays (``game``), read back by
    :func:`load_actor`, so that loading it for another game names both. An actor with a cell encoder is written in
    :data:`ENCODER_FORMAT`: its description says which piece the encoder reads, with its layers as plain arrays.
    ``value``: a value network written beside it (:func:`export_policy_value`), which the actor's readers skip."""
    lins, encoder = _linears(actor), encoder_of(actor)
    if isinstance(actor, NumpyActor):
        activation = actor.activation
    else:
        acts = {type(m).__name__ for m in actor if not hasattr(m, "in_features") and not _is_encoder(m)}
        activation = acts.pop() if acts else "Tanh"
    description: dict[str, Any] = {"format": POLICY_FORMAT, "activation": activation, "layers": len(lins),
                                   "sizes": [lins[0].in_features] + [m.out_features for m in lins],
                                   "game": load_game(game).id}  # fmt: skip
    arrays: dict[str, np.ndarray] = {}
    if encoder is not None:
        cells = encoder.layers()
        description["format"] = ENCODER_FORMAT
        description["encoder"] = {"kind": "cells", "piece": encoder.piece, "activation": encoder.activation,
                                  "layers": len(cells), "cells": encoder.cells,
                                  "sizes": [encoder.features] + [int(w.shape[0]) for w, _ in cells]}  # fmt: skip
        for k, (w, b) in enumerate(cells):
            arrays[f"cell_weight_{k}"] = _as_array(w, str(p)).astype(np.float32)
            arrays[f"cell_bias_{k}"] = _as_array(b, str(p)).astype(np.float32)
    if value is not None:
        description[VALUE_KEY] = value.description()
        arrays.update(value.arrays())
    arrays["description"] = np.array(json.dumps(description))
    for k, m in enumerate(lins):
        arrays[f"weight_{k}"] = _as_array(m.weight, str(p)).astype(np.float32)
        arrays[f"bias_{k}"] = _as_array(m.bias, str(p)).astype(np.float32)
    with atomic_file(p) as f:
        np.savez(f, **arrays)  # a file object: numpy adds no .npz to the name
    return p


_SHIPPED_ACTOR: dict[tuple[str, bool], Any] = {}  # (game, torch installed) -> its shipped actor, read once per
# process (frozen: agents share it)


class NetworkAgent(Agent, ABC):
    """An agent that acts by a network's logits over the game's actions: the most probable legal action, or a
    sample of the masked softmax (Gumbel-max, the agent's generator); torch runs on ``threads`` threads during its
    calls (numpy's OpenBLAS on as many, for a numpy network). Subclasses give :meth:`raw_logits` and set ``torch``
    (None for a numpy network), ``threads``, ``deterministic`` and ``rng``."""

    torch: Any
    threads: int
    deterministic: bool
    rng: np.random.Generator

    @staticmethod
    def check_options(deterministic: object, threads: object) -> None:
        """AgentInputError unless ``deterministic`` is a bool and ``threads`` a whole number >= 1."""
        if not isinstance(deterministic, bool):
            raise AgentInputError(f"deterministic={deterministic!r}: must be True or False")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise AgentInputError(f"threads={threads!r}: torch threads for the policy, a whole number >= 1")

    @abstractmethod
    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the network's logits, before masking (called under ``torch.inference_mode`` if torch)."""

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the policy's logits with illegal actions at -inf (checked inputs)."""
        if self.torch is None:  # a numpy network: numpy's BLAS threads, where they can be set
            with blas_controller().limit(limits=self.threads, user_api="blas"):
                raw = self.raw_logits(observations, masks)
            return np.where(masks, raw, -np.inf).astype(np.float32)
        torch, before = self.torch, self.torch.get_num_threads()
        if before != self.threads:  # one thread: a small MLP gains nothing from more, and loses much on a busy CPU
            torch.set_num_threads(self.threads)
        try:
            with torch.inference_mode():
                raw = self.raw_logits(observations, masks)
        finally:
            if before != self.threads:
                torch.set_num_threads(before)
        return np.where(masks, raw, -np.inf).astype(np.float32)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = self.logits(observations, masks)
        if not self.deterministic:  # Gumbel-max: a sample of the masked softmax
            logits = logits + self.rng.gumbel(size=logits.shape).astype(np.float32)
        return logits.argmax(axis=1).astype(np.int64)


class PPOAgent(NetworkAgent):
    """A trained MaskablePPO policy as an Agent; see the module docstring.

    ``path``: a policy file (``.npz``), a MaskablePPO ``.zip`` or a ``.pt`` weights file (default: the game's
    shipped policy, a policy file). A policy file runs on torch where it is installed, else on numpy (the actor a
    :class:`NumpyActor`, ``torch`` None); a ``.zip`` or ``.pt`` needs torch.
    ``game``: the game the policy plays (its observation and actions; default Industry). A policy of one of the
    game's older layouts (``older_layout``, :func:`older_layout_of`; None for today's) plays through it.
    ``deterministic``: the most probable legal action (default) or a sample from the masked softmax, drawn
    with the agent's generator seeded by ``seed``. ``threads``: torch threads during its calls (default 1: a
    forward pass of this size takes about 0.3 ms on one thread, and 30 times longer with two on a busy 2-core CPU;
    for a numpy actor, numpy's OpenBLAS threads).
    """

    name = "ppo"
    game = GAME

    def __init__(self, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 threads: int = 1, game: str = GAME) -> None:  # fmt: skip
        self.check_options(deterministic, threads)
        spec = load_game(game)
        self.game = spec.id
        self.threads = threads
        self.rng = np.random.default_rng(check_seed(seed))
        self.deterministic = deterministic
        if path is None:
            p, key = shipped_path(spec.id), (spec.id, _torch_if_installed() is not None)
            if key not in _SHIPPED_ACTOR:
                if not p.is_file():
                    raise AgentInputError(f"the shipped PPO policy of {spec.name} is missing from this install ({p})")
                _SHIPPED_ACTOR[key] = load_actor(p, spec.id)
            self.actor = _SHIPPED_ACTOR[key]
            self.path: Path | None = p
        else:
            self.actor = load_actor(path, spec.id)
            self.path = Path(path)
        self.torch = None if isinstance(self.actor, NumpyActor) else _torch(f"the 'ppo' agent of {self.path}")
        self.options = options_of_actor(self.actor, spec.id)  # the map its network was made for, if it matters
        self.older_layout = older_layout_of(self.actor, spec.id)  # the layout it was trained on, if not today's

    @classmethod
    def from_policy(cls, policy: Any, name: str = "ppo", seed: int | None = None, deterministic: bool = True,
                    game: str = GAME) -> PPOAgent:  # fmt: skip
        """A frozen snapshot of a live MaskablePPO policy (e.g. ``model.policy`` during training) of ``game``."""
        _torch("PPOAgent.from_policy (a live MaskablePPO policy)")
        return cls.from_actor(actor_from_policy(policy), name=name, seed=seed, deterministic=deterministic, game=game)

    @classmethod
    def from_actor(cls, actor: Any, name: str = "ppo", seed: int | None = None, deterministic: bool = True,
                   game: str = GAME) -> PPOAgent:  # fmt: skip
        """An agent playing ``actor``: a frozen torch nn.Sequential of the policy files' layout ([cell encoder,]
        Linear, activation, ..., Linear; the native trainer's ``ActorCritic.actor()``) or a :class:`NumpyActor`;
        checked against ``game``'s sizes. ``save`` writes it as a policy file."""
        agent = cls.__new__(cls)
        agent.game = load_game(game).id
        agent.rng = np.random.default_rng(check_seed(seed))
        agent.deterministic = bool(deterministic)
        agent.threads = 1
        agent.torch = None if isinstance(actor, NumpyActor) else _torch("PPOAgent.from_actor (a torch actor)")
        agent.actor = actor
        _check_actor(agent.actor, "PPOAgent.from_actor", agent.game)
        agent.options = options_of_actor(agent.actor, agent.game)
        agent.older_layout = older_layout_of(agent.actor, agent.game)
        agent.path = None
        agent.name = name
        return agent

    def raw_logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float32[B, A]: the actor's logits (torch's or numpy's); for a policy of an older layout, its logits on
        the layout's translation of the observations, spread to today's actions (:func:`spread_logits`)."""
        x = np.ascontiguousarray(observations, np.float32)
        if self.older_layout is None:
            return self._forward(x)
        old = self._forward(np.ascontiguousarray(self.older_layout.observation(x), np.float32))
        return spread_logits(old, self.older_layout.actions(x))

    def _forward(self, x: np.ndarray) -> np.ndarray:
        """float32[B, A]: the actor on float32[B, D] inputs."""
        return self.actor(x) if self.torch is None else self.actor(self.torch.from_numpy(x)).numpy()

    def save(self, path: str | Path) -> Path:
        """Write the actor as a policy file (``.npz``, weights only; :func:`export_policy`) that ``path=`` reads."""
        return _write_policy_file(self.actor, Path(path), self.game)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        check = self.spec.observation_check if self.spec is not None else None
        if check is not None:  # the game checks its observations entry by entry (Age of Industry's agents')
            import_path(check)(observations, **(self.options or {}))
        return super()._choose(observations, masks)

    def __repr__(self) -> str:
        return f"PPOAgent(name={self.name!r}, path={str(self.path) if self.path else None!r})"


# ---------------------------------------------------------------------------------------------- the value network
VALUE_KEY = "value"  # a policy file's description entry of its value network (arrays value_weight_k, value_bias_k)


class ValueHead:
    """A value network in numpy, as a policy file may hold one beside the actor: Linear layers with ``activation``
    between them (none after the last) from the actor's features (the observation, or its cell encoder's output)
    to one number per row, and the normalisation of the trainer's value targets undone (value = output * ``std``
    + ``mean``, in the units of the reward it was trained on: the native trainer's :class:`ValueNorm`)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str, mean: float = 0.0,
                 std: float = 1.0) -> None:  # fmt: skip
        self.linears = tuple(NumpyLinear(*_frozen(w, b)) for w, b in layers)
        self.act = NumpyActivation(activation)
        self.activation, self.mean, self.std = activation, float(mean), float(std)
        self.in_features = self.linears[0].in_features

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """float32[n]: the value of each row of float32[n, in_features] features."""
        x = np.ascontiguousarray(features, np.float32)
        for k, lin in enumerate(self.linears):
            x = lin(x)
            if k < len(self.linears) - 1:
                x = self.act(x)
        return x[:, 0] * np.float32(self.std) + np.float32(self.mean)

    def description(self) -> dict[str, Any]:
        """The JSON a policy file keeps under :data:`VALUE_KEY`."""
        return {"activation": self.activation, "layers": len(self.linears), "mean": self.mean, "std": self.std,
                "sizes": [self.in_features] + [m.out_features for m in self.linears]}  # fmt: skip

    def arrays(self) -> dict[str, np.ndarray]:
        """The layers as a policy file's plain arrays."""
        out = {}
        for k, m in enumerate(self.linears):
            out[f"value_weight_{k}"], out[f"value_bias_{k}"] = np.array(m.weight), np.array(m.bias)
        return out

    def __repr__(self) -> str:
        sizes = [self.in_features] + [m.out_features for m in self.linears]
        return f"ValueHead(sizes={sizes}, {self.activation}, mean={self.mean:.4g}, std={self.std:.4g})"


def features_width(actor: Any) -> int:
    """The width of the features an actor's MLP reads (its cell encoder's output, or the observation)."""
    encoder = encoder_of(actor)
    return int(encoder.size) if encoder is not None else int(_linears(actor)[0].in_features)


def load_value_head(path: str | Path, game: str = GAME, actor: Any | None = None) -> ValueHead | None:
    """The value network of a policy file (numpy alone), of a native checkpoint or of a MaskablePPO ``.zip`` (read
    with ``torch.load(weights_only=True)``; a native checkpoint's value normalisation from its JSON), or None where
    the file has none (a policy file written by :func:`export_policy`, a ``.pt`` file). Nothing is unpickled; the
    layers are checked to chain from the features of the file's actor (``actor``, else read) to one value."""
    p = moved_file(path) or Path(path)
    actor = load_actor(p, game, backend="numpy") if actor is None else actor
    where = f"value network of {p}"
    names = _zip_names(p, where)
    if "description.npy" in names:
        try:
            with np.load(p, allow_pickle=False) as z:
                about = json.loads(str(z["description"])).get(VALUE_KEY)
                if about is None:
                    return None
                n = about["layers"]
                if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
                    raise ValueError(f"'layers' = {n!r}, expected a whole number of layers")
                layers = [(z[f"value_weight_{k}"], z[f"value_bias_{k}"]) for k in range(n)]
                activation, mean, std = about["activation"], about.get("mean", 0.0), about.get("std", 1.0)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile) as exc:
            raise AgentInputError(f"{where}: not readable ({type(exc).__name__}: {exc})") from None
    elif {"data", "policy.pth"} <= names:
        _, activation, _ = _read_sb3_zip(p, where)  # the activation, as the actor's reader finds it
        torch = _torch(f"{where}: reading a .zip")
        try:
            with zipfile.ZipFile(p) as z:
                data = json.loads(z.read("data").decode("utf-8"))
                state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
        except Exception as exc:
            raise AgentInputError(f"{where}: not readable ({type(exc).__name__}: {exc})") from None
        if "value_net.weight" not in state:
            return None
        if any(k.startswith("vf_features_extractor.") for k in state):
            raise AgentInputError(f"{where}: the value network has a features extractor of its own; only one shared "
                                  f"with the actor is read")  # fmt: skip
        k, layers = 0, []
        while f"mlp_extractor.value_net.{k}.weight" in state:
            key = f"mlp_extractor.value_net.{k}"
            layers.append((state[f"{key}.weight"], state.get(f"{key}.bias")))
            k += 2  # Linear, activation, Linear, ...
        layers.append((state["value_net.weight"], state.get("value_net.bias")))
        if any(b is None for _, b in layers):
            raise AgentInputError(f"{where}: a layer has no biases")
        norm = data.get("value_norm") if isinstance(data, dict) else None
        mean, std = (float(norm["mean"]), math.sqrt(float(norm["var"]))) if isinstance(norm, dict) else (0.0, 1.0)
    else:
        return None
    if activation not in ACTIVATIONS:
        raise AgentInputError(f"{where}: activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
    ok = all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (mean, std))
    if not ok or std <= 0:
        raise AgentInputError(f"{where}: normalisation mean={mean!r}, std={std!r}; expected finite numbers, std > 0")
    checked = _checked_chain(layers, features_width(actor), where, "actor's features", name="value layer")
    if checked[-1][0].shape[0] != 1:
        raise AgentInputError(f"{where}: the last layer gives {checked[-1][0].shape[0]} outputs, not one value")
    return ValueHead(checked, str(activation), float(mean), float(std))


def save_policy_value(actor: Any, value: ValueHead, path: str | Path, game: str = GAME) -> Path:
    """Write ``actor`` (a torch nn.Sequential of the policy files' layout or a :class:`NumpyActor`) and its value
    network ``value`` as one policy-value file (``.npz``, weights only, written whole or not at all); both are
    checked against ``game``'s sizes first."""
    _check_actor(actor, "save_policy_value", game)
    checked = _checked_chain([(m.weight, m.bias) for m in value.linears], features_width(actor),
                             "save_policy_value", "actor's features", name="value layer")  # fmt: skip
    if checked[-1][0].shape[0] != 1:
        raise AgentInputError(f"save_policy_value: the value network gives {checked[-1][0].shape[0]} outputs, not 1")
    return _write_policy_file(actor, Path(path), game, value)


def export_policy_value(source: str | Path, path: str | Path, game: str = GAME) -> Path:
    """Write the actor and the value network of ``source`` (a native checkpoint, ``final.zip`` or ``best.zip``, a
    MaskablePPO ``.zip``, or a policy-value file) as one policy file (``.npz``, weights only, written whole or not
    at all): the ``ppo`` agent plays its actor as before, the ``az`` agent reads both. Reading a ``.zip`` needs
    torch; the file written plays with numpy alone."""
    actor = load_actor(source, game, backend="numpy")
    value = load_value_head(source, game, actor)
    if value is None:
        raise AgentInputError(f"export_policy_value: {source} holds no value network (a native checkpoint or a "
                              f"MaskablePPO zip has one; a policy file written by export_policy does not)")  # fmt: skip
    return save_policy_value(actor, value, path, game)
