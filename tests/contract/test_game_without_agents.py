"""A game with no agents of its own (its spec's ``agents`` empty) works in every tool: ``bench``'s environments
section, ``train``'s default configuration and ``play --help`` fall back to ``random`` where they would have asked
for its ``heuristic``."""

from __future__ import annotations

import argparse

import pytest

from industry_env.registry import available_games, load_game

# the registered games without agents, and one with agents whose spec is made to declare none
AGENTLESS = [g for g in available_games(include_hidden=True) if not load_game(g).agents]
PATCHED = "twentieth_century"


@pytest.fixture(params=[*AGENTLESS, f"{PATCHED} without its agents"])
def game(request, monkeypatch) -> str:
    if request.param.endswith("without its agents"):
        monkeypatch.setattr(load_game(PATCHED), "agents", {})
        return PATCHED
    return request.param


def test_the_environments_bench_measures_random_opponents_only(game: str, capsys) -> None:
    """``industry-env bench`` exited 2 on such a game: its environments section always measured the heuristic."""
    from industry_env.envs.bench import bench_envs, print_envs

    r = bench_envs(0.01, num_envs=4, game=game)
    assert r["vector_random"]["learner_steps_per_second"] > 0 and "vector_heuristic" not in r
    print_envs(r)
    assert "heuristic opponents: not measured (the game has no heuristic agent)" in capsys.readouterr().out


def test_the_default_training_config_plays_random_opponents(game: str) -> None:
    """``industry-env train --game G`` refused its own defaults: ``opponents: unknown agent 'heuristic'``."""
    from industry_env.train.config import ConfigError, load_config

    cfg = load_config(None, [f"game={game}"])
    assert cfg.opponents == ["random"] and cfg.opponent_weights == [1.0] and cfg.eval_opponent == "random"
    with pytest.raises(ConfigError, match="opponents.*'mcts'"):  # another agent the game lacks: refused
        load_config(None, [f"game={game}", "opponents=random,mcts"])


def test_play_help_says_the_game_has_no_agents_of_its_own(game: str) -> None:
    """``play --help`` listed ``nim3: )``."""
    from industry_env.play import configure

    parser = argparse.ArgumentParser()
    configure(parser)
    text = " ".join(parser.format_help().split())
    assert f"{game}: none" in text
