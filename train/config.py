"""The training configuration: one dataclass, every key with a default and a docstring (CleanRL-style), read by
every trainer (the native one, the SB3 one, the RLlib one); the native trainer's own keys come last
(:data:`NATIVE_KEYS`), and the SB3 trainer refuses them by name where they would mean nothing.

A run is described by a TOML file of ``key = value`` lines (any subset of the fields below, no sections) and
``--set key=value`` overrides on the command line; :func:`load_config` merges them over the defaults and refuses
an unknown key or a value of the wrong type or range, naming it, before anything is written: the agents named
are built, the run folder and the checkpoint to resume are checked. The defaults are the configuration of the
shipped policy except ``reward`` and ``time_limit_minutes`` (its file, ``ppo_industry``, ships with the package:
:func:`shipped_configs`; ``docs/training.md`` says why each value was chosen).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import re
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from industry_env.core.textdata import TextDataError, parse_toml

from .errors import ConfigError

MAX_CONFIG_BYTES = 1_000_000  # a training config is a few hundred bytes: anything this big is not one
SEED_LIMIT = 2**32  # seeds go to numpy's legacy generator through Stable-Baselines3, which takes 0 .. 2**32 - 1
INT_LIMIT = 2**63  # every whole number must fit the engine's and torch's 64-bit integers
MAX_EVAL_GAMES = 1_000_000  # an evaluation beyond this would not end in a training's time
ENCODERS = ("flat", "cells")  # the key encoder's values: the observation as it is, or its cells encoded (encoders.py)


@dataclass
class TrainConfig:
    """Everything a training run needs; see the module docstring."""

    total_timesteps: int = 4_000_000
    """Learner decisions to train for (opponents' moves not counted); runs train whole rollouts, so they end at the
    first rollout that reaches it."""
    num_envs: int = 64
    """Games played at once by the batched engine (the native trainer's batch; the SB3 VecEnv's sub-envs)."""
    game: str = "industry"
    """The game of the suite to train on (``industry_env.available_games()``: one with a batched engine)."""
    num_players: int = 4
    """Players at the table (as many as the game allows); the learner takes a seat drawn at random each game."""
    seed: int = 0
    """Seeds the games, the seats, the opponents, torch and the network's initial weights: same seed, same run."""
    torch_threads: int = 1
    """Threads torch may use (``torch.set_num_threads``); 1 leaves the other core to the engine and to others."""
    reward: str = "win"
    """The learner's terminal reward: 'win' (+1 winner, -1 others, as the environments define it) or 'score'."""
    game_options: list[str] = field(default_factory=list)
    """The game's options as NAME=VALUE (e.g. map=new_england for Age of Industry); none: the game's defaults."""

    # ------------------------------------------------------------------ MaskablePPO
    learning_rate: float = 3e-4
    """Adam step size (constant)."""
    n_steps: int = 128
    """Decisions per game between two updates: a rollout holds ``n_steps * num_envs`` of the learner's transitions
    (the native trainer: at least that many, the games then played on until the learner is to move in each)."""
    batch_size: int = 2048
    """Minibatch size of the updates (must divide ``n_steps * num_envs``)."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 1.0
    """Discount: 1, the reward comes once, at the end of a game of about 100 learner decisions."""
    gae_lambda: float = 0.95
    """GAE's bias/variance trade-off."""
    clip_range: float = 0.2
    """PPO's clipping of the probability ratio."""
    ent_coef: float = 0.01
    """Entropy bonus: keeps the policy exploring among the many legal bids early on."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient clipping."""
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """Hidden layers of the policy and (separately) of the value network (tanh MLPs over the encoder's features)."""
    encoder: str = "flat"
    """What the networks read: 'flat' (the observation as it is) or 'cells' (every cell of ``cell_piece`` through one
    small network shared by all the cells, then the rest of the observation; shared by the policy and value)."""
    cell_piece: str = "grids"
    """encoder 'cells': the observation piece of cells it encodes, its last axis a cell's features (20th Century's
    'grids': 5 seats x 81 cells x 54 features)."""
    cell_arch: list[int] = field(default_factory=lambda: [16, 4])
    """encoder 'cells': layer sizes of the network shared by the cells (ReLU after each; the last, what each cell
    gives)."""

    # ------------------------------------------------------------------ league
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Agent names the opponents' pool starts with (each opponent seat of each game draws one when it starts)."""
    opponent_weights: list[float] = field(default_factory=lambda: [1.0, 2.0])
    """Relative chances of the starting members (one per name in ``opponents``)."""
    snapshot_weight: float = 1.0
    """Chance weight of each frozen snapshot of the learner added to the pool."""
    max_snapshots: int = 5
    """Snapshots kept in the pool; the oldest leaves when a new one comes (0: no self-play)."""
    snapshot_margin: float = 0.0
    """A snapshot is added at an evaluation whose win rate beats the best so far by at least this much."""

    # ------------------------------------------------------------------ evaluation, logs, checkpoints
    eval_every: int = 200_000
    """Learner decisions between two evaluations (0: none)."""
    eval_games: int = 200
    """Arena games per evaluation: the learner (deterministic) against ``eval_opponent`` in every other seat."""
    eval_opponent: str = "heuristic"
    """The agent the evaluations play against."""
    checkpoint_every: int = 500_000
    """Learner decisions between two checkpoints (0: only the final model)."""
    run_dir: str = "runs/ppo"
    """Folder of the run: TensorBoard logs, checkpoints, snapshots, ``final.zip`` and ``config.toml``."""
    resume: str = ""
    """A checkpoint of this run_dir to continue from (``checkpoints/step_N.zip``, ``best.zip``, ``final.zip``), or
    'latest' for its newest complete one: model, optimizer, step count, league (needs its ``.league.json``)."""
    keep_checkpoints: int = 3
    """Checkpoints kept in ``checkpoints/``: the newest this many (0: all); ``best.zip`` and ``final.zip`` stay."""
    time_limit_minutes: float = 0.0
    """Stop (and save the final model) after this many minutes of wall clock, evaluations included (0: no limit)."""
    progress: bool = True
    """Show a progress bar."""

    # ------------------------------------------------------------------ the native trainer only
    device: str = "auto"
    """native: where the networks run: 'auto' (CUDA where present, else the CPU), 'cpu', 'cuda' or 'cuda:N'."""
    precision: str = "auto"
    """native: the networks' arithmetic: 'auto' (bfloat16 autocast on CUDA, float32 on the CPU), 'float32' or
    'bfloat16'."""
    value_norm: bool = True
    """native: normalise the value targets by the returns' running mean and deviation (PopArt-style)."""
    imitation_steps: int = 0
    """native: decisions of ``imitation_agent`` (in the learner's seat) to imitate before PPO starts (0: none);
    the policy learns its moves, the value network the outcomes."""
    imitation_agent: str = "heuristic"
    """native: the agent whose moves the imitation stage learns."""
    imitation_epochs: int = 2
    """native: passes over each rollout of the imitation stage."""

    # ------------------------------------------------------------------ search self-play only (--framework az)
    az_simulations: int = 32
    """az: simulations of the search at each searched decision of self-play (the az agent plays with more)."""
    az_top_k: int = 4
    """az: the policy's most probable legal moves the search weighs at a decision, beside the heuristic's move."""
    az_temperature_moves: int = 6
    """az: each seat's first this many searched decisions of a game are drawn in proportion to the root's visits
    (exploration); the later ones are the most visited move, as the az agent plays."""
    az_policy_coef: float = 1.0
    """az: weight of the policy's loss (its cross-entropy against the visits); 0 trains the value alone and keeps
    the policy as it started (``az_init``'s)."""
    az_buffer: int = 100_000
    """az: positions kept for the updates, the newest (a replay buffer; its observations kept as float16)."""
    az_init: str = ""
    """az: the network to start from, a native checkpoint (.zip) or a policy-value file (.npz) of the same
    net_arch and encoder, or 'shipped' for the game's shipped az network; '' starts from a fresh network."""
    az_opponent_share: float = 0.0
    """az: the share of seats played by the league (``opponents``, drawn by ``opponent_weights``) instead of the az
    agent, drawn seat by seat for each game (at least one az seat a game): their moves are kept for the value, not
    the policy, so the value learns positions met against other players; 0 is pure self-play."""


_FIELDS = {f.name: f for f in fields(TrainConfig)}
#: keys only the native trainer reads; the SB3 trainer refuses them by name unless they keep their defaults
NATIVE_KEYS = ("device", "precision", "value_norm", "imitation_steps", "imitation_agent", "imitation_epochs")
#: keys only search self-play reads (``--framework az``); the other trainers refuse them unless they keep their defaults
AZ_KEYS = ("az_simulations", "az_top_k", "az_temperature_moves", "az_policy_coef", "az_buffer", "az_init",
           "az_opponent_share")
FRAMEWORKS = ("native", "sb3", "rllib", "az")  # industry-env train --framework; native is the default
#: the trainer-specific keys each framework reads (search self-play runs its network where ``device`` says)
KEYS_READ = {"native": NATIVE_KEYS, "az": ("device", *AZ_KEYS)}
MAX_BUFFER_BYTES = 8 * 2**30  # search self-play's replay buffer: beyond this a 2-core machine's memory is gone
PRECISIONS = ("auto", "float32", "bfloat16")


def field_docs() -> dict[str, str]:
    """Each key's docstring, read from this module's source (for ``--help`` and the docs)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(TrainConfig))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, nxt in zip(body, body[1:], strict=False):
        if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            docs[node.target.id] = str(nxt.value.value)  # type: ignore[union-attr]
    return docs


def _coerce(key: str, value: Any, where: str) -> Any:
    """``value`` as the type of field ``key``, or ConfigError naming the key."""
    default = getattr(TrainConfig(), key)
    kind = type(default)
    bad = ConfigError(f"{where}{key} = {value!r}: expected {_kind_name(default)}")
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise bad
    if kind is int:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, str):
            try:
                value = int(value.replace("_", "")) if len(value) <= 40 else None
            except ValueError:
                raise bad from None
        if not isinstance(value, int) or not -INT_LIMIT < value < INT_LIMIT:
            raise bad
        return value
    if kind is float:
        if isinstance(value, bool):
            raise bad
        try:
            value = _finite_float(value)
        except (TypeError, ValueError, OverflowError):
            raise bad from None
        return value
    if kind is str:
        if not isinstance(value, str) or "\x00" in value:
            raise bad
        return value
    if kind is list:
        item = type(default[0]) if default else str
        if isinstance(value, str):  # a,b or, as in a TOML file, [a, b] (strings possibly quoted)
            text = value.strip()
            text = text[1:-1] if text.startswith("[") and text.endswith("]") else text
            value = [v.strip().strip("\"'") if item is str else v.strip() for v in text.split(",") if v.strip()]
        if not isinstance(value, list):
            raise bad
        try:
            return [_item(v, item) for v in value]
        except (TypeError, ValueError, OverflowError):
            raise bad from None
    raise bad  # pragma: no cover - every field has one of the kinds above


def _finite_float(v: Any) -> float:
    """``v`` (a number or its text) as a finite float; ValueError or OverflowError (a 400-digit integer) if not."""
    if isinstance(v, bool) or not isinstance(v, (int, float, str)) or (isinstance(v, str) and len(v) > 100):
        raise TypeError(v)
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(v)
    return f


def _item(v: Any, item: type) -> Any:
    if isinstance(v, bool):
        raise TypeError(v)
    if item is int:
        if isinstance(v, float) or (isinstance(v, str) and not v.strip().lstrip("-").isdigit()) or \
                not isinstance(v, (int, str)) or (isinstance(v, str) and len(v) > 40):  # fmt: skip
            raise TypeError(v)
        n = int(v)
        if not -INT_LIMIT < n < INT_LIMIT:
            raise ValueError(v)
        return n
    if item is float:
        return _finite_float(v)
    if not isinstance(v, str) or "\x00" in v:
        raise TypeError(v)
    return v


def coerce(key: str, value: Any, where: str = "") -> Any:
    """``value`` (from TOML or from ``key=value`` text) as the type of key ``key``; ConfigError naming it if not."""
    if key not in _FIELDS:
        raise ConfigError(f"{where}unknown key {key!r}; the keys are {', '.join(_FIELDS)}")
    return _coerce(key, value, where)


def _kind_name(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, list):
        inner = type(default[0]).__name__ if default else "str"
        return f"a list of {inner} (TOML [a, b] or a,b)"
    return {int: "a whole number", float: "a number", str: "a string"}[type(default)]


def validate(cfg: TrainConfig) -> TrainConfig:
    """Range checks across keys; ConfigError names the key at fault."""

    def need(ok: bool, key: str, why: str) -> None:
        if not ok:
            raise ConfigError(f"{key} = {getattr(cfg, key)!r}: {why}")

    for key in ("total_timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "torch_threads", "eval_games"):
        need(getattr(cfg, key) >= 1, key, "must be at least 1")
    for key in ("eval_every", "checkpoint_every", "max_snapshots", "seed", "keep_checkpoints"):
        need(getattr(cfg, key) >= 0, key, "must be 0 or more")
    need(cfg.seed < SEED_LIMIT, "seed", f"must be below 2**32 = {SEED_LIMIT} (Stable-Baselines3 seeds numpy with it)")
    need(cfg.eval_games <= MAX_EVAL_GAMES, "eval_games", f"at most {MAX_EVAL_GAMES:,}")
    from industry_env.registry import available_games, load_game

    games = available_games(include_hidden=True)  # a game still being built trains too, once it has an engine
    need(cfg.game in games, "game", f"not a game of the suite (games: {', '.join(games)})")
    need(load_game(cfg.game).engine_module is not None, "game", "has no batched engine yet to train on")
    try:
        load_game(cfg.game).check_num_players(cfg.num_players)
    except ValueError as exc:
        raise ConfigError(str(exc).replace("num_players=", "num_players = ", 1)) from None
    try:
        game_options(cfg)
    except ValueError as exc:
        raise ConfigError(f"game_options = {cfg.game_options!r}: {exc}") from None
    cfg = without_absent_heuristic(cfg)
    need(cfg.reward in ("win", "score"), "reward", "'win' or 'score'")
    need(cfg.learning_rate > 0, "learning_rate", "must be above 0")
    need(0 < cfg.gamma <= 1, "gamma", "must be in (0, 1]")
    need(0 <= cfg.gae_lambda <= 1, "gae_lambda", "must be in [0, 1]")
    need(cfg.clip_range > 0, "clip_range", "must be above 0")
    need(cfg.ent_coef >= 0 and cfg.vf_coef >= 0 and cfg.max_grad_norm > 0, "ent_coef",
         "ent_coef and vf_coef must be >= 0, max_grad_norm > 0")  # fmt: skip
    need((cfg.n_steps * cfg.num_envs) % cfg.batch_size == 0, "batch_size",
         f"must divide n_steps * num_envs = {cfg.n_steps * cfg.num_envs}")  # fmt: skip
    need(len(cfg.net_arch) >= 1 and all(h >= 1 for h in cfg.net_arch), "net_arch", "one or more layer sizes >= 1")
    need(cfg.encoder in ENCODERS, "encoder", f"one of {', '.join(map(repr, ENCODERS))}")
    if cfg.encoder == "cells":
        need(len(cfg.cell_arch) >= 1 and all(h >= 1 for h in cfg.cell_arch), "cell_arch",
             "one or more layer sizes >= 1")  # fmt: skip
        from industry_env.agents import AgentInputError
        from industry_env.agents.ppo import cell_piece

        try:
            cell_piece(cfg.game, cfg.cell_piece, load_game(cfg.game).observation_size(**game_options(cfg)))
        except AgentInputError as exc:
            raise ConfigError(f"cell_piece = {cfg.cell_piece!r}: {exc}") from None
    need(len(cfg.opponents) >= 1, "opponents", "at least one agent name")
    need(len(cfg.opponent_weights) == len(cfg.opponents), "opponent_weights", "one weight per name in opponents")
    need(all(w >= 0 for w in cfg.opponent_weights) and sum(cfg.opponent_weights) > 0, "opponent_weights",
         "weights >= 0, not all 0")  # fmt: skip
    need(cfg.snapshot_weight >= 0, "snapshot_weight", "must be 0 or more")
    need(cfg.time_limit_minutes >= 0, "time_limit_minutes", "must be 0 (no limit) or more")
    need(re.fullmatch(r"auto|cpu|cuda(:[0-9]{1,3})?", cfg.device) is not None, "device",
         "'auto', 'cpu', 'cuda' or 'cuda:N'")  # fmt: skip
    need(cfg.precision in PRECISIONS, "precision", f"one of {', '.join(map(repr, PRECISIONS))}")
    need(cfg.imitation_steps >= 0, "imitation_steps", "must be 0 (no imitation) or more")
    need(cfg.imitation_epochs >= 1, "imitation_epochs", "must be at least 1")
    need(cfg.az_simulations >= 1, "az_simulations", "must be at least 1")
    need(cfg.az_top_k >= 1, "az_top_k", "must be at least 1")
    need(cfg.az_policy_coef >= 0, "az_policy_coef", "must be 0 (the value alone) or more")
    need(cfg.az_temperature_moves >= 0, "az_temperature_moves", "must be 0 (always the most visited move) or more")
    need(0 <= cfg.az_opponent_share < 1, "az_opponent_share",
         "must be in [0, 1): the share of seats the league plays (every game keeps an az seat)")  # fmt: skip
    need(cfg.az_buffer >= cfg.batch_size, "az_buffer",
         f"must hold at least one minibatch (batch_size = {cfg.batch_size})")  # fmt: skip
    size = load_game(cfg.game).observation_size(**game_options(cfg))
    need(cfg.az_buffer * 2 * size <= MAX_BUFFER_BYTES, "az_buffer",
         f"{cfg.az_buffer:,} positions of {size:,} float16 take {cfg.az_buffer * 2 * size / 2**30:.1f} GiB; at most "
         f"{MAX_BUFFER_BYTES / 2**30:.0f} GiB")  # fmt: skip
    if cfg.az_init:
        try:
            ok = az_init_path(cfg).is_file()
        except (OSError, ValueError):
            ok = False
        need(ok, "az_init", f"no such file (a native checkpoint .zip, a policy-value .npz, or 'shipped' for a game "
                            f"that ships an az network: {load_game(cfg.game).name} ships none)"
             if cfg.az_init == "shipped" else "no such file (a native checkpoint .zip or a policy-value .npz)")
    check_agents(cfg)
    from .runfolder import check_resume, check_run_dir

    try:
        check_run_dir(cfg.run_dir)
        if cfg.resume:
            check_resume(cfg.run_dir, cfg.resume)
    except (OSError, ValueError) as exc:  # a path the system refuses (too long, a NUL): ConfigError is a ValueError
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(f"run_dir = {cfg.run_dir!r} / resume = {cfg.resume!r}: {exc}") from None
    return cfg


def framework_of(cfg: TrainConfig) -> str:
    """The trainer a configuration is written for: ``"az"`` where it sets a key of search self-play
    (:data:`AZ_KEYS`), else ``"native"`` (which the SB3 and RLlib trainers read too)."""
    default = TrainConfig()
    return "az" if any(getattr(cfg, k) != getattr(default, k) for k in AZ_KEYS) else "native"


def az_init_path(cfg: TrainConfig) -> Path:
    """The file ``az_init`` names: itself, or for 'shipped' the game's shipped az network (which may be absent)."""
    if cfg.az_init == "shipped":
        from industry_env.agents.az import shipped_network

        return shipped_network(cfg.game)
    return Path(cfg.az_init)


def without_absent_heuristic(cfg: TrainConfig) -> TrainConfig:
    """The default opponents (``opponents``, ``opponent_weights``, ``eval_opponent`` at their default values) with
    ``random`` in place of ``heuristic`` for a game that has no heuristic of its own: the defaults train every game.
    Other opponents are left as they are, and checked."""
    from industry_env.registry import load_game

    default = TrainConfig()
    if "heuristic" in load_game(cfg.game).agents:
        return cfg
    changes: dict[str, Any] = {}
    if cfg.opponents == default.opponents and cfg.opponent_weights == default.opponent_weights:
        changes.update(opponents=["random"], opponent_weights=[1.0])
    if cfg.eval_opponent == default.eval_opponent:
        changes["eval_opponent"] = "random"
    return dataclasses.replace(cfg, **changes)


def check_framework(cfg: TrainConfig, framework: str) -> None:
    """ConfigError naming the first key of another trainer (:data:`NATIVE_KEYS`, :data:`AZ_KEYS`) set, in a run of
    ``framework``, to a value it cannot honour (a GPU, bfloat16, an imitation stage, a search's settings): the SB3
    and RLlib trainers train in float32 on the CPU, without imitation, and do not normalise values; search
    self-play reads ``device`` and its own keys (:data:`KEYS_READ`)."""
    default = TrainConfig()
    same = {"device": ("auto", "cpu"), "precision": ("auto", "float32"), "value_norm": (True, False)}  # what they do
    for key in (*NATIVE_KEYS, *AZ_KEYS):
        if key in KEYS_READ.get(framework, ()):
            continue
        if getattr(cfg, key) not in same.get(key, (getattr(default, key),)):
            owner, home = ("the native trainer", "native") if key in NATIVE_KEYS else ("search self-play", "az")
            raise ConfigError(f"{key} = {getattr(cfg, key)!r}: a key of {owner}, which the {framework} trainer does "
                              f"not read; remove it, or train with --framework {home}")  # fmt: skip


def game_options(cfg: TrainConfig) -> dict[str, Any]:
    """The game's options ``game_options`` names (NAME=VALUE, values as the command line's ``-o`` reads them),
    checked by the game's spec: only those named, the others keep the game's defaults; ValueError if wrong."""
    from industry_env.gameargs import option_value
    from industry_env.registry import load_game

    spec = load_game(cfg.game)
    named: dict[str, Any] = {}
    for item in cfg.game_options:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"{item!r}: write NAME=VALUE (options of {spec.name}: "
                             f"{', '.join(o.name for o in spec.options) or 'none'})")  # fmt: skip
        named[name.strip()] = option_value(value.strip())
    data = sorted(o.name for o in spec.options if o.data and o.name in named)
    if data:
        raise ValueError(f"{data[0]}: a data file option, which a training run does not take")
    checked = spec.check_options(named)
    return {k: v for k, v in checked.items() if k in named}


def check_agents(cfg: TrainConfig) -> None:
    """ConfigError unless every agent of ``opponents`` and ``eval_opponent`` can be built (built once, here) for
    the game and options trained."""
    from industry_env.agents import as_agent

    options = game_options(cfg)
    named = [("opponents", cfg.opponents), ("eval_opponent", [cfg.eval_opponent])]
    if cfg.imitation_steps:
        named.append(("imitation_agent", [cfg.imitation_agent]))
    for key, names in named:
        for name in dict.fromkeys(names):
            try:
                as_agent(name, seed=0, game=cfg.game, options=options)
            except (ValueError, TypeError, ImportError, AttributeError, OSError) as exc:
                said = str(exc)
                raise ConfigError(f"{key}: {said}" if repr(name) in said else f"{key}: agent {name!r}: {said}"
                                  ) from None  # fmt: skip


def shipped_configs() -> dict[str, Path]:
    """The training configs shipped with the package, by name (``ppo_industry``: the shipped policy's)."""
    folder = resources.files("industry_env.train")
    return {Path(e.name).stem: Path(str(e)) for e in sorted(folder.iterdir(), key=lambda e: e.name)
            if e.name.endswith(".toml")}  # fmt: skip


def config_path(name_or_path: str | Path) -> Path:
    """The config file ``name_or_path`` names: a file, or the name of a shipped config (``ppo_industry``)."""
    p = Path(name_or_path)
    try:
        if p.exists():  # a folder or a device too: read_toml says what it is not
            return p
    except (OSError, ValueError):
        pass
    text = str(name_or_path)
    shipped = shipped_configs()
    key = text.removesuffix(".toml")
    if key in shipped and os.sep not in text and "/" not in text:
        return shipped[key]
    raise ConfigError(f"config {text}: no such file, nor a shipped config (shipped: {', '.join(shipped)}; "
                      f"industry-env train --list-configs shows them)")  # fmt: skip


def read_toml(path: str | Path) -> dict[str, Any]:
    """The TOML file at ``path`` (or a shipped config's name) as a dict; ConfigError naming the file if it cannot be
    read or parsed, is too big for a config, or nests too deep for the parser."""
    path = config_path(path)
    try:
        if not path.is_file():
            raise ConfigError(f"config {path}: not a regular file")
        with path.open("rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"config {path}: over {MAX_CONFIG_BYTES:,} bytes, too big for a training config")
        return parse_toml(raw.decode("utf-8"))
    except OSError as exc:
        raise ConfigError(f"config {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config {path}: not UTF-8 text ({exc})") from None
    except TextDataError as exc:  # bad syntax, nesting too deep, a number of thousands of digits
        raise ConfigError(f"config {path}: {exc}") from None


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """The defaults, then the TOML file ``path`` (a file, or a shipped config's name), then ``key=value``
    overrides; checked (ConfigError) before anything is written."""
    values: dict[str, Any] = {}
    if path is not None:
        p = config_path(path)
        data = read_toml(p)
        for key, value in data.items():
            if key == "rllib" and isinstance(value, dict):  # the RLlib trainer's own table: one file serves both
                continue
            if key not in _FIELDS:
                raise ConfigError(f"{p}: unknown key {key!r}; the keys are {', '.join(_FIELDS)}")
            values[key] = _coerce(key, value, f"{p}: ")
    for item in overrides:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise ConfigError(f"--set {item!r}: write key=value")
        if key not in _FIELDS:
            raise ConfigError(f"--set {key}: unknown key; the keys are {', '.join(_FIELDS)}")
        values[key] = _coerce(key, value.strip(), "--set ")
    return validate(TrainConfig(**values))


def toml_value(value: Any) -> str:
    """One value as TOML text, on one line, escaped by tomli-w (a list's items each escaped the same way)."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return _tomli_w().dumps({"v": value}).removeprefix("v = ").rstrip("\n")


def to_toml(cfg: TrainConfig, table: dict[str, Any] | None = None) -> str:
    """The configuration as a TOML file that :func:`load_config` reads back to the same values, one key a line;
    ``table``: an ``[rllib]`` table of the RLlib trainer's own settings, appended."""
    lines = [f"{key} = {toml_value(value)}" for key, value in dataclasses.asdict(cfg).items()]
    text = "\n".join(lines) + "\n"
    if table:
        text += "\n[rllib]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in table.items())
    return text


def _tomli_w() -> Any:
    try:
        import tomli_w
    except ImportError as exc:
        raise ConfigError(f"writing a training config needs tomli-w: pip install 'industry_env[train]' ({exc})"
                          ) from None  # fmt: skip
    return tomli_w


#: the keys of a run that shape its spaces or its table: a run resumed with others is another run
SAME_RUN_KEYS = ("game", "num_players", "game_options")


def check_same_run(run_dir: str | Path, checkpoint: str | Path, settings: dict[str, Any]) -> None:
    """ConfigError, before anything in ``run_dir`` is touched, if resuming ``checkpoint`` with ``settings`` (the
    new configuration) would continue another game or table: the run's ``config.toml`` says what it trained
    (:data:`SAME_RUN_KEYS`), and the checkpoint's saved spaces must be the new game's."""
    from industry_env.registry import load_game

    run = Path(run_dir)
    saved: dict[str, Any] = {}
    if (run / "config.toml").is_file():
        with contextlib.suppress(ConfigError):
            saved = read_toml(run / "config.toml")
    trained = {k: saved[k] for k in SAME_RUN_KEYS if k in saved}
    if saved:
        trained.setdefault("game_options", [])  # a run from before the key trained the game's defaults
    differ = [k for k in SAME_RUN_KEYS if k in trained and trained[k] != settings.get(k)]
    spec = load_game(settings["game"])
    was = saved.get("game", settings["game"])
    try:
        was_name = load_game(str(was)).name
    except ValueError:
        was_name = repr(was)
    from .runfolder import zip_spaces

    spaces = zip_spaces(checkpoint)
    options = game_options(TrainConfig(game=spec.id, game_options=list(settings.get("game_options") or [])))
    want = (spec.observation_size(**options), spec.num_actions(**options))
    if spaces is not None and spaces != want and "game" not in differ:
        from industry_env.agents.ppo import game_of_sizes

        games = [g for g in game_of_sizes(*spaces) if g != spec.id]
        if games:
            was, was_name = games[0], load_game(games[0]).name
            differ.append("game")
    if not differ and (spaces is None or spaces == want):
        return
    then = ", ".join(f"{k} = {trained.get(k, was if k == 'game' else '?')!r}" for k in differ)
    now = ", ".join(f"{k} = {settings.get(k)!r}" for k in differ)
    shown = f" (its checkpoint's observation has {spaces[0]} floats and {spaces[1]} actions; {spec.name}'s " \
            f"{want[0]} and {want[1]})" if spaces is not None and spaces != want else ""  # fmt: skip
    raise ConfigError(f"resume = {str(checkpoint)!r}: the run in {str(run)!r} trained {was_name} ({then}), not "
                      f"{spec.name} as configured ({now}){shown}: resume it with its own configuration, or train "
                      f"into another run_dir; nothing in the folder was changed")  # fmt: skip
