"""Agents that play Industry (installed as ``industry_env.agents``)."""

from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["HeuristicAgent", "RandomAgent"]
