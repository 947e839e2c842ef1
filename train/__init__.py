"""Training agents of the suite's games (the config's ``game``; the shipped configs: :func:`.config.shipped_configs`,
``ppo_industry``, ``ppo_age_of_industry``, ``ppo_twentieth_century``), installed
as ``industry_env.train`` (needs the ``train`` extra for the run itself).

``industry-env train --config FILE [--set key=value ...]`` or, in Python::

    from industry_env.train import load_config, train
    result = train(load_config("ppo_industry", ["total_timesteps=200000", "run_dir=runs/mine"]))

:mod:`.config` holds the configuration (every key, its default and its meaning); :mod:`.ppo` the MaskablePPO
self-play loop. The configuration module imports without torch.
"""

from __future__ import annotations

from typing import Any

from .config import ConfigError, TrainConfig, load_config, shipped_configs, to_toml


def train(cfg: TrainConfig, overwrite: bool = False) -> Any:
    """Run a training (see :func:`industry_env.train.ppo.train`); returns its ``TrainResult``.

    A ``run_dir`` that holds another run is refused unless ``cfg.resume`` continues it or ``overwrite`` is True.
    """
    from .ppo import train as _train

    return _train(cfg, overwrite=overwrite)


__all__ = ["ConfigError", "TrainConfig", "load_config", "shipped_configs", "to_toml", "train"]
