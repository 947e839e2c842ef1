"""Learning curves of a run, read from its TensorBoard scalars: ``plot_curves(run_dir, "curves.png")``.

Three panels: the evaluation win rate against the evaluation opponent with its 95% Wilson interval, the mean
episode reward of the training games (against the whole league), and the policy's entropy. Needs matplotlib
(the ``render`` or ``dev`` extra) and tensorboard (the ``train`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def scalars(run_dir: str | Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar of a run's TensorBoard logs as ``{tag: [(step, value), ...]}`` (all of its log folders)."""
    try:
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ImportError as exc:
        raise ImportError(f"reading a run's curves needs tensorboard: pip install 'industry_env[train]' ({exc})"
                          ) from None  # fmt: skip
    tb = Path(run_dir) / "tb"
    folders = sorted(p for p in tb.iterdir() if p.is_dir()) if tb.is_dir() else []
    if not folders:
        raise ValueError(f"{run_dir}: no TensorBoard logs under tb/")
    out: dict[str, list[tuple[int, float]]] = {}
    for folder in folders:
        events = EventAccumulator(str(folder)).Reload()
        for tag in events.Tags()["scalars"]:
            out.setdefault(tag, []).extend((e.step, e.value) for e in events.Scalars(tag))
    return {tag: sorted(dict(points).items()) for tag, points in out.items()}


def run_setting(run_dir: str | Path) -> tuple[int, str]:
    """The run's number of players and evaluation opponent, from its ``config.toml`` (4 and "heuristic" without one)."""
    import tomllib

    cfg = Path(run_dir) / "config.toml"
    data = tomllib.loads(cfg.read_text(encoding="utf-8")) if cfg.is_file() else {}
    return int(data.get("num_players", 4)), str(data.get("eval_opponent", "heuristic"))


def plot_curves(run_dir: str | Path, path: str | Path | None = None, opponent: str | None = None,
                num_players: int | None = None) -> Any:
    """The run's learning curves as a matplotlib Figure (saved as a small PNG at ``path`` if given); the players and
    the evaluation opponent are the run's own (its ``config.toml``) unless given."""
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError(f"plotting a run's curves needs matplotlib: pip install 'industry_env[render]' ({exc})"
                          ) from None  # fmt: skip

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    s = scalars(run_dir)
    players, their = run_setting(run_dir)
    num_players = players if num_players is None else num_players
    opponent = their if opponent is None else opponent
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.2), dpi=100)  # fonts readable at a page's width
    if "eval/win_rate" in s:
        x = [k for k, _ in s["eval/win_rate"]]
        axes[0].plot(x, [v for _, v in s["eval/win_rate"]], marker="o", ms=3,
                     label=f"against {num_players - 1} × {opponent}")
        axes[0].fill_between(x, [v for _, v in s["eval/win_ci_low"]], [v for _, v in s["eval/win_ci_high"]],
                             alpha=0.3, label="95% CI")  # fmt: skip
        axes[0].axhline(1 / num_players, ls="--", c="grey", lw=1, label="fair share")
        axes[0].set_ylim(0, max(0.5, max(v for _, v in s["eval/win_ci_high"]) + 0.05))
        axes[0].legend(fontsize=8.5)
    axes[0].set_title("evaluation win rate", fontsize=11)
    for ax, tag, title in ((axes[1], "rollout/ep_rew_mean", "training reward (league games)"),
                           (axes[2], "train/entropy_loss", "entropy loss (- entropy)")):  # fmt: skip
        if tag in s:
            ax.plot([k for k, _ in s[tag]], [v for _, v in s[tag]], lw=1)
        ax.set_title(title, fontsize=11)
    for ax in axes:
        ax.set_xlabel("learner steps (millions)", fontsize=10)  # a plain axis, not an offset "1e7"
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1e6:g}"))
        ax.tick_params(labelsize=9)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path)
        plt.close(fig)
    return fig
