"""The training configuration: one dataclass, every key with a default and a docstring (CleanRL-style).

A run is described by a TOML file of ``key = value`` lines (any subset of the fields below, no sections) and
``--set key=value`` overrides on the command line; :func:`load_config` merges them over the defaults and refuses
an unknown key or a value of the wrong type or range, naming it. The defaults are the configuration of the
shipped policy except ``reward`` and ``time_limit_minutes`` (its file is ``train/ppo_industry.toml``;
``docs/training.md`` says why each value was chosen).
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A training configuration that cannot be used: names the key (and the file) at fault."""


@dataclass
class TrainConfig:
    """Everything a training run needs; see the module docstring."""

    total_timesteps: int = 4_000_000
    """Learner decisions to train for (steps of the VecEnv summed over its games; opponents' moves not counted)."""
    num_envs: int = 64
    """Games played at once by the batched engine (the VecEnv's sub-envs)."""
    num_players: int = 4
    """Players at the table (3 or 4); the learner takes a seat drawn at random each game."""
    seed: int = 0
    """Seeds the games, the seats, the opponents, torch and the network's initial weights: same seed, same run."""
    torch_threads: int = 1
    """Threads torch may use (``torch.set_num_threads``); 1 leaves the other core to the engine and to others."""
    reward: str = "win"
    """The learner's terminal reward: 'win' (+1 winner, -1 others, as the environments define it) or 'score'."""

    # ------------------------------------------------------------------ MaskablePPO
    learning_rate: float = 3e-4
    """Adam step size (constant)."""
    n_steps: int = 128
    """Decisions per game between two updates: a rollout holds ``n_steps * num_envs`` transitions."""
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
    """Hidden layers of the policy and (separately) of the value network (tanh MLPs over the 675 floats)."""

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
    """A checkpoint (``.zip`` in a run's ``checkpoints/``) to continue from: model, optimizer, step count, league."""
    time_limit_minutes: float = 0.0
    """Stop (and save the final model) after this many minutes of wall clock, evaluations included (0: no limit)."""
    progress: bool = True
    """Show a progress bar."""


_FIELDS = {f.name: f for f in fields(TrainConfig)}


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
                value = int(value.replace("_", ""))
            except ValueError:
                raise bad from None
        if not isinstance(value, int):
            raise bad
        return value
    if kind is float:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise bad from None
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise bad
        return value
    if kind is list:
        item = type(default[0]) if default else str
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list):
            raise bad
        try:
            return [_item(v, item) for v in value]
        except (TypeError, ValueError):
            raise bad from None
    raise bad  # pragma: no cover - every field has one of the kinds above


def _item(v: Any, item: type) -> Any:
    if isinstance(v, bool):
        raise TypeError(v)
    if item is int:
        if isinstance(v, float) or (isinstance(v, str) and not v.strip().lstrip("-").isdigit()):
            raise TypeError(v)
        return int(v)
    if item is float:
        f = float(v)
        if not math.isfinite(f):
            raise ValueError(v)
        return f
    if not isinstance(v, str):
        raise TypeError(v)
    return v


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
    for key in ("eval_every", "checkpoint_every", "max_snapshots", "seed"):
        need(getattr(cfg, key) >= 0, key, "must be 0 or more")
    need(cfg.num_players in (3, 4), "num_players", "Industry is played by 3 or 4")
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
    need(len(cfg.opponents) >= 1, "opponents", "at least one agent name")
    need(len(cfg.opponent_weights) == len(cfg.opponents), "opponent_weights", "one weight per name in opponents")
    need(all(w >= 0 for w in cfg.opponent_weights) and sum(cfg.opponent_weights) > 0, "opponent_weights",
         "weights >= 0, not all 0")  # fmt: skip
    need(cfg.snapshot_weight >= 0, "snapshot_weight", "must be 0 or more")
    need(cfg.time_limit_minutes >= 0, "time_limit_minutes", "must be 0 (no limit) or more")
    need(bool(cfg.run_dir), "run_dir", "a folder is needed")
    from industry_env.agents import AGENTS

    for key, names in (("opponents", cfg.opponents), ("eval_opponent", [cfg.eval_opponent])):
        unknown = [n for n in names if n not in AGENTS and ":" not in n]
        need(not unknown, key, f"unknown agent(s) {unknown}; known: {', '.join(AGENTS)}")
    if cfg.resume:
        need(Path(cfg.resume).is_file(), "resume", "no such checkpoint file")
    return cfg


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path`` as a dict; ConfigError naming the file if it cannot be read or parsed."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"config {path}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path}: not valid TOML ({exc})") from None


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """The defaults, then the TOML file ``path`` (if any), then ``key=value`` overrides; checked (ConfigError)."""
    values: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
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


def to_toml(cfg: TrainConfig) -> str:
    """The configuration as a TOML file that :func:`load_config` reads back to the same values."""
    lines = []
    for key, value in dataclasses.asdict(cfg).items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str):
            text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        elif isinstance(value, list):
            text = "[" + ", ".join(f'"{v}"' if isinstance(v, str) else repr(v) for v in value) + "]"
        else:
            text = repr(value)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"
