"""The files a policy is read from, none of them by unpickling (the policy file ``.npz``, a MaskablePPO ``.zip``,
an older ``.pt``; :mod:`industry_env.agents.ppo` describes them): their formats, reading and checking them against a
game's sizes when loaded, writing a policy file whole or not at all, and the value network a policy-value file holds
beside the actor."""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.aliases import moved_file
from industry_env.core.outputs import atomic_file
from industry_env.registry import load_game

from .base import AgentInputError
from .policy_layouts import (
    GAME,
    cell_piece,
    check_actor,
    encoder_of,
    features_width,
    game_older_layouts,
    is_encoder,
    linear_layers,
    policy_sizes,
    refuse_another_game,
    variant_sizes,
)
from .policy_numpy import ACTIVATIONS, NumpyActor, NumpyCellEncoder, ValueHead
from .policy_torch import CELL_ACTIVATION, cell_encoder, import_torch, torch_if_installed

WEIGHTS_FORMAT = "industry_env-ppo-actor/1"  # the older torch weights file (.pt), still read
POLICY_FORMAT = "industry_env-ppo-actor/2"  # the policy file (.npz): JSON description + plain arrays
ENCODER_FORMAT = "industry_env-ppo-actor/3"  # a policy file whose actor starts with a cell encoder (its own format,
# so that a reader of /2 files refuses it by its format rather than by its first layer's width)
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
    for size in sorted({o for o, _ in variant_sizes(game)}) + [o.observation_size for o in game_older_layouts(game)]:
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
    variants = policy_sizes(game)
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
            refuse_another_game(int(first.shape[-1]), int(last.shape[0]) if last.ndim == 2 else None, where, game)
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
    torch = None if backend == "numpy" else torch_if_installed()
    if torch is None and backend == "torch":
        torch = import_torch(f"{where}: backend='torch'")
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
    torch = import_torch(f"{where}: reading a MaskablePPO .zip")
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
    torch = import_torch(f"{where}: not a policy file (.npz) nor a MaskablePPO .zip; reading it as a PPOAgent weights "
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


def write_policy_file(actor: Any, p: Path, game: str = GAME, value: ValueHead | None = None) -> Path:
    """The actor as a policy file; its description names the game it plays (``game``), read back by
    :func:`load_actor`, so that loading it for another game names both. An actor with a cell encoder is written in
    :data:`ENCODER_FORMAT`: its description says which piece the encoder reads, with its layers as plain arrays.
    ``value``: a value network written beside it (:func:`export_policy_value`), which the actor's readers skip."""
    lins, encoder = linear_layers(actor), encoder_of(actor)
    if isinstance(actor, NumpyActor):
        activation = actor.activation
    else:
        acts = {type(m).__name__ for m in actor if not hasattr(m, "in_features") and not is_encoder(m)}
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


# ---------------------------------------------------------------------------------------------- the value network
VALUE_KEY = "value"  # a policy file's description entry of its value network (arrays value_weight_k, value_bias_k)


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
        torch = import_torch(f"{where}: reading a .zip")
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
    check_actor(actor, "save_policy_value", game)
    checked = _checked_chain([(m.weight, m.bias) for m in value.linears], features_width(actor),
                             "save_policy_value", "actor's features", name="value layer")  # fmt: skip
    if checked[-1][0].shape[0] != 1:
        raise AgentInputError(f"save_policy_value: the value network gives {checked[-1][0].shape[0]} outputs, not 1")
    return write_policy_file(actor, Path(path), game, value)


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
