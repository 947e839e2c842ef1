"""``industry-env train``: its options, and which trainer runs (``--framework native``, the default, ``sb3``, ``az``
for search self-play, or ``--bench`` for native and SB3 side by side); the RLlib trainer has its own
(:mod:`industry_env.rllib.train`)."""

from __future__ import annotations

import argparse

from . import ppo


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``industry-env train`` (the configuration's; ``--framework`` and ``--bench`` are the command
    line's own)."""
    ppo.configure(parser)


def run(args: argparse.Namespace) -> int:
    """List or show the configuration, or train it with the framework asked for (or bench both); print the
    throughput and where the model is."""
    framework = getattr(args, "framework", "native")
    bench = getattr(args, "bench", False)
    if args.list_configs or args.show_config or (framework == "sb3" and not bench):
        return ppo.run(args)
    from .config import load_config

    if bench and framework == "az":
        raise ValueError("--bench runs the native and the SB3 trainers side by side: leave out --framework az")
    cfg = load_config(args.config, args.set)
    if bench:
        from .bench import bench as run_bench

        print(run_bench(cfg, seconds=args.seconds).report())
        return 0
    if framework == "az":
        from .expert import train as train_az

        print(train_az(cfg, overwrite=args.overwrite).summary())
        return 0
    from .native import train

    print(train(cfg, overwrite=args.overwrite).summary())
    return 0
