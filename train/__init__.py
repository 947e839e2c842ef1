"""Training agents of the suite's games (the config's ``game``; the shipped configs: :func:`.config.shipped_configs`,
``native_industry``, ``ppo_industry``, ``ppo_age_of_industry``, ...), installed as ``industry_env.train`` (needs the
``train`` extra for the run itself).

``industry-env train --config FILE [--set key=value ...]`` or, in Python::

    from industry_env.train import load_config, train
    result = train(load_config("ppo_industry", ["total_timesteps=200000", "run_dir=runs/mine"]))

:mod:`.config` holds the configuration (every key, its default and its meaning); :mod:`.native` the suite's own
self-play trainer (the default; :mod:`.selfplay` its batched games, :mod:`.credit` its seat-by-seat advantages,
:mod:`.nets` its networks), :mod:`.ppo` the MaskablePPO one (``framework="sb3"``), :mod:`.bench` the two side by
side, :mod:`.expert` search self-play, which trains the ``az`` agent's network on its own searches
(``framework="az"``). The configuration module imports without torch.
"""

from __future__ import annotations

from typing import Any

from .config import ConfigError, TrainConfig, load_config, shipped_configs, to_toml


def train(cfg: TrainConfig, overwrite: bool = False, framework: str = "native") -> Any:
    """Run a training with the native trainer (:func:`industry_env.train.native.train`), with ``framework="sb3"``
    sb3-contrib's MaskablePPO (:func:`industry_env.train.ppo.train`), or with ``framework="az"`` search self-play
    for the ``az`` agent (:func:`industry_env.train.expert.train`); returns its ``TrainResult``.

    A ``run_dir`` that holds another run is refused unless ``cfg.resume`` continues it or ``overwrite`` is True.
    """
    if framework == "native":
        from .native import train as _native

        return _native(cfg, overwrite=overwrite)
    if framework == "sb3":
        from .ppo import train as _sb3

        return _sb3(cfg, overwrite=overwrite)
    if framework == "az":
        from .expert import train as _az

        return _az(cfg, overwrite=overwrite)
    raise ValueError(f"framework={framework!r}: 'native', 'sb3' or 'az' (RLlib trains through "
                     f"industry_env.rllib.train)")  # fmt: skip


__all__ = ["ConfigError", "TrainConfig", "load_config", "shipped_configs", "to_toml", "train"]
