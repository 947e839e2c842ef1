"""The numpy forward pass of the policy files' networks, for where torch is not installed: torch.nn's activations,
Linear layers, the cell encoder, the actor and the value network on float32 arrays (the logits torch's to float32
rounding), and the BLAS threads they multiply on. :mod:`industry_env.agents.policy_file` builds them from a file."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

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


@functools.cache
def blas_controller() -> Any:
    """threadpoolctl's controller of the BLAS libraries loaded in this process (numpy's among them): a NumpyActor
    multiplies on ``threads`` of their threads, as a torch actor does on torch's, since OpenBLAS's default (every
    core) made Age of Industry's forward pass 40 times slower on a busy 2-core CPU."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


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
