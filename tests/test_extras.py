"""Every optional import names the extra to install: a missing package is made to fail to import
(``sys.modules[name] = None``) and the error must say ``pip install 'industry_env[<extra>]'``."""

from __future__ import annotations

import sys

import pytest

from industry_env.games.industry.reference import Game


def test_save_png_without_pillow_names_the_render_extra(monkeypatch, tmp_path) -> None:
    from industry_env.games.industry import picture

    monkeypatch.setitem(sys.modules, "PIL", None)
    for call in (lambda g: picture.save_png(g, tmp_path / "x.png"), lambda g: picture.to_png(g)):
        with pytest.raises(ImportError, match=r"industry_env\[render\]"):
            call(Game(3, seed=0))
    assert not list(tmp_path.iterdir())  # nothing written


def test_save_png_writes_a_whole_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    from industry_env.games.industry import picture

    target = tmp_path / "board.png"
    picture.save_png(Game(3, seed=0), target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]  # no partial file left


def test_docfigures_without_matplotlib_names_the_render_extra(monkeypatch) -> None:
    from industry_env import docfigures

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"industry_env\[render\]"):
        docfigures.build()


@pytest.mark.parametrize("missing", ["torch", "sb3_contrib", "stable_baselines3"])
def test_train_without_the_train_extra_names_it_before_writing(monkeypatch, tmp_path, missing: str) -> None:
    from industry_env.train.config import TrainConfig
    from industry_env.train.ppo import train

    for name in ("torch", "sb3_contrib", "stable_baselines3"):  # imported whole first: blocking one then leaves
        pytest.importorskip(name)  # no half-imported package behind for later tests
    monkeypatch.setitem(sys.modules, missing, None)
    run = tmp_path / "run"
    with pytest.raises(ValueError, match=r"industry_env\[train\]"):
        train(TrainConfig(run_dir=str(run)))
    assert not run.exists()


def test_rllib_without_torch_names_the_rllib_extra(monkeypatch) -> None:
    pytest.importorskip("ray.rllib")  # imported whole first (with torch): Ray remembers a torch it found missing
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "industry_env.rllib", raising=False)
    with pytest.raises(ImportError, match=r"industry_env\[rllib\]"):
        import industry_env.rllib  # noqa: F401
