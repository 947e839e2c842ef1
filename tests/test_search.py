"""The one search player (``industry_env.agents.search``) on toy games whose best moves are known: chance is valued
by its expectation over redealt positions (never by the true hidden state), the other seats are modelled by the
game's policy or searched (max-n), and both games' search agents are this one search with their hooks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from industry_env.agents import make_agent
from industry_env.agents.age_of_industry.ismcts import AgeOfIndustrySearch, ISMCTSAgent
from industry_env.agents.industry.mcts import IndustrySearch, MCTSAgent
from industry_env.agents.search import SearchAgent, SearchGame

SAFE, GAMBLE, POOR = 0, 1, 2  # the first player's actions: 0.6 surely, 1 if the hidden coin shows 1 else 0, 0.2
PAYOFF = {SAFE: 0.6, POOR: 0.2}


class Toy:
    """A batch of toy games: player 0 chooses (SAFE, GAMBLE or POOR); with ``reply`` a GAMBLE is answered by
    player 1 (0: the first player wins 1, 1: he wins 0); without, a hidden coin decides the GAMBLE."""

    def __init__(self, n: int, reply: bool) -> None:
        self.coin = np.zeros(n, np.int64)
        self.turn = np.zeros(n, np.int64)  # 0, 1: the player to move; 2: over
        self.payoff = np.zeros(n)  # the first player's
        self.terminated = np.zeros(n, bool)
        self.reply = reply

    @property
    def batch_size(self) -> int:
        return self.turn.size

    @property
    def current_player(self) -> np.ndarray:
        return np.where((self.turn == 2) | self.terminated, -1, self.turn)


def _take(state: Toy, rows: Any) -> Toy:
    rows = np.asarray(rows)
    out = Toy(rows.size, state.reply)
    for k in ("coin", "turn", "payoff", "terminated"):
        setattr(out, k, getattr(state, k)[rows].copy())
    return out


def _concat(states: list[Toy]) -> Toy:
    out = Toy(0, states[0].reply)
    for k in ("coin", "turn", "payoff", "terminated"):
        setattr(out, k, np.concatenate([getattr(s, k) for s in states]))
    return out


def _mask(state: Toy) -> np.ndarray:
    out = np.zeros((state.batch_size, 3), bool)
    out[state.turn == 0] = True
    out[state.turn == 1, :2] = True
    return out


def _step(state: Toy, actions: np.ndarray, inplace: bool = True) -> Toy:
    assert inplace
    for i in np.flatnonzero(state.current_player >= 0):
        a = int(actions[i])
        assert _mask(_take(state, [i]))[0, a], f"illegal action {a}"
        if state.turn[i] == 1:
            state.payoff[i], state.turn[i] = (1.0 if a == 0 else 0.0), 2
        elif a == GAMBLE and state.reply:
            state.turn[i] = 1
        else:
            state.payoff[i] = PAYOFF.get(a, float(state.coin[i]))
            state.turn[i] = 2
    return state


class ToySearch(SearchGame):
    """The toy's hooks: the coin is what player 0 cannot see; the policy always answers a GAMBLE with 0."""

    max_players = 2
    engine = SimpleNamespace(take=_take, concat=_concat, step=_step, legal_action_mask=_mask)

    def __init__(self, reply: bool) -> None:
        self.reply = reply
        self.seen: list[np.ndarray] = []  # the coins of the positions the search played on

    def rebuild(self, observations: np.ndarray) -> Toy:
        return Toy(observations.shape[0], self.reply)  # the coin is not observed: 0, redealt below

    def determinize(self, positions: Toy, rng: np.random.Generator) -> Toy:
        out = _take(positions, np.arange(positions.batch_size))
        out.coin = rng.integers(0, 2, out.batch_size)
        self.seen.append(out.coin)
        return out

    def candidates(self, state: Toy, masks: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        return [np.flatnonzero(m) for m in masks]

    def policy(self, state: Toy, rng: np.random.Generator) -> np.ndarray:
        return np.zeros(state.batch_size, np.int64)

    def value(self, state: Toy) -> np.ndarray:
        """The first player's payoff once over (an even chance before), and its complement for the second."""
        first = np.where(state.turn == 2, state.payoff, 0.5)
        return np.stack([first, 1.0 - first], axis=1)


class ToyAgent(SearchAgent):
    game = None

    def __init__(self, seed: int = 0, reply: bool = False, simulations: int = 120, determinizations: int = 0,
                 opponents: str = "heuristic") -> None:  # fmt: skip
        super().__init__(ToySearch(reply), seed=seed, simulations=simulations, determinizations=determinizations,
                         batch=8, rollout_depth=0, exploration=0.5, prior=0.0, opponents=opponents)  # fmt: skip


def _decide(agent: ToyAgent, games: int = 1) -> np.ndarray:
    return agent.act_batch(np.zeros((games, 1), np.float32), np.ones((games, 3), bool))


def test_chance_is_valued_by_its_expectation_over_redealt_positions() -> None:
    agent = ToyAgent(seed=3)
    assert _decide(agent, games=3).tolist() == [SAFE] * 3  # 0.6 surely beats 1 half of the time
    gamble = agent.last_root.children[GAMBLE]
    assert 0.25 < gamble.mean(0) < 0.75 and gamble.visits >= 3
    coins = np.concatenate(agent.search_game.seen)
    assert coins.size == 3 * agent.simulations  # one redeal per simulation (determinizations=0)
    assert 0.3 < coins.mean() < 0.7


def test_a_fixed_determinization_per_decision_plays_on_the_same_draws() -> None:
    agent = ToyAgent(seed=3, determinizations=4)
    _decide(agent, games=2)
    assert [c.size for c in agent.search_game.seen] == [4, 4]  # 4 positions a game, drawn once per decision


def test_the_other_seats_modelled_by_the_policy_or_searched_max_n() -> None:
    # the policy answers a GAMBLE with 0 (the first player wins 1); a searched second player answers 1 (he wins)
    assert _decide(ToyAgent(seed=1, reply=True, opponents="heuristic")).tolist() == [GAMBLE]
    searched = ToyAgent(seed=1, reply=True, opponents="search")
    assert _decide(searched).tolist() == [SAFE]
    reply = searched.last_root.children[GAMBLE]
    assert reply.player == 1 and reply.children[1].visits > reply.children[0].visits


def test_a_decision_with_one_candidate_is_not_searched() -> None:
    agent = ToyAgent(seed=0)
    mask = np.array([[False, True, False]])
    assert agent.act_batch(np.zeros((1, 1), np.float32), mask).tolist() == [GAMBLE]
    assert agent.last_root is None and agent.simulated == 0


@pytest.mark.parametrize(("name", "game", "cls", "hooks"), [
    ("mcts", "industry", MCTSAgent, IndustrySearch),
    ("ismcts", "age_of_industry", ISMCTSAgent, AgeOfIndustrySearch),
])  # fmt: skip
def test_both_games_search_agents_are_the_one_search(name: str, game: str, cls: type, hooks: type) -> None:
    agent = make_agent(name, seed=0, game=game)
    assert type(agent) is cls and isinstance(agent, SearchAgent) and isinstance(agent.search_game, hooks)
    assert cls._simulate is SearchAgent._simulate and cls._select is SearchAgent._select
