"""The network agents of issue 48: ``az``, a policy-value network guiding the game's search player, and ``net``, the
same network's policy alone.

``az`` is the game's own search player (:mod:`.search`: Industry's ``mcts``, Age of Industry's and 20th Century's
``ismcts``, found through the game's spec) with two parts replaced, as AlphaZero puts a network into MCTS:

- the **evaluator** (:class:`.search.NetworkEvaluator`): a leaf is valued for every seat by the value network on
  that seat's observation of the position (every seat of every leaf of a batch in one forward), not by a rollout
  and the game's hand-made value; a finished game by its outcome (+1 winners, -1 the others);
- the **candidates and their priors** (:class:`.search.NetworkGuide`): the policy's ``top_k`` legal moves and the
  game's heuristic move, the policy's probabilities as the priors of PUCT (``exploration`` its constant).

Everything else is the search player's: positions rebuilt from the seat's observation, what the seat cannot see
redealt from the agent's own generator by the game's ``resample`` (so its move depends only on the observation,
the mask and its seed), the other seats modelled by the game's heuristic (``opponents="heuristic"``) or searched
too (``"search"``), the decisions the game does not search played by its heuristic, the most visited move played.

The network is a **policy-value file** (``.npz``, :func:`industry_env.agents.ppo.export_policy_value` writes one
from a native checkpoint; read with numpy, nothing unpickled) or a native checkpoint's ``.zip`` itself (read with
``torch.load(weights_only=True)``: needs torch). Without ``path=`` a game's shipped network is played,
``az_<game>.npz`` beside its shipped PPO policy (:func:`shipped_network`; docs/agents.md says how each was made); a
game that ships none refuses both agents without ``path=``, saying what to pass.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from industry_env.core.spec import GameSpec, import_path
from industry_env.registry import load_game

from .base import Agent, AgentInputError
from .ppo import (
    GAME,
    PPOAgent,
    ValueHead,
    blas_controller,
    encoder_of,
    load_actor,
    load_value_head,
    older_layout_of,
    options_of_actor,
    shipped_path,
)
from .search import OPPONENT_MODELS, MixedEvaluator, NetworkEvaluator, NetworkGuide, SearchAgent, real, whole

#: az's default simulations per searched decision, by game: a searched decision in under 0.5 s of one core with
#: the native trainer's network sizes (docs/agents.md, "The network agents"); 64 for a game not listed
SIMULATIONS = {"industry": 256, "age_of_industry": 64, "twentieth_century": 64}
#: how az values a leaf: its network's value head, or the search player's own evaluator (rollouts, the game's value)
VALUES = ("network", "rollout", "mix")
#: where the shipped network's az takes its priors from, by game, where not from the network's own policy: the
#: shipped ppo policy guides the search better than 20th Century's network (cloned from the heuristic's moves) and
#: Industry's (trained against heuristics) (docs/agents.md, "The network agents"); a network given by path= is
#: searched with its own policy
PRIORS = {"twentieth_century": "ppo", "industry": "ppo"}
#: how the shipped network's az values its leaves, by game, where not by the network's value head: Industry's
#: value head (the native PPO critic) barely ranks positions, and the search player's rollouts do better there
#: (docs/agents.md, "The network agents"); a network given by path= is valued by its own value head
LEAF_VALUES = {"industry": "rollout"}


def shipped_network(game: str) -> Path:
    """Where ``game``'s shipped policy-value network would be (``az_<game>.npz`` beside its shipped PPO policy)."""
    spec = load_game(game)
    if spec.shipped_policy is None:
        raise AgentInputError(f"{spec.name} ships no trained network: pass path= (a policy-value file)")
    package = spec.shipped_policy.partition(":")[0]
    return Path(str(resources.files(package).joinpath(f"az_{spec.id}.npz")))


def network_path(path: str | Path | None, game: str) -> Path:
    """``path``, or the game's shipped network; AgentInputError saying how to make one where the game ships none."""
    if path is not None:
        return Path(path)
    p = shipped_network(game)
    if not p.is_file():
        spec = load_game(game)
        raise AgentInputError(f"{spec.name} ships no trained policy-value network: pass path= (a policy-value "
                              f".npz written by industry_env.agents.ppo.export_policy_value from a native checkpoint, "
                              f"or the checkpoint's final.zip itself: industry-env train --config native_{spec.id} "
                              f"writes one), e.g. make_agent('az:runs/mine/final.zip', game={spec.id!r})")  # fmt: skip
    return p


class PolicyValueNet:
    """A policy-value network in numpy: the logits and the values of float32[n, D] observations, on ``threads``
    BLAS threads; the actor's cell encoder (if any) feeds both heads, as in the native trainer's network."""

    def __init__(self, actor: Any, value: ValueHead, threads: int = 1) -> None:
        self.actor = actor
        mods = list(actor)
        self.encoder = encoder_of(actor)
        self.head = mods[1:] if self.encoder is not None else mods
        self.value, self.threads = value, threads

    def _features(self, observations: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(observations, np.float32)
        return self.encoder(x) if self.encoder is not None else x

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """float32[n, A]: the policy's logits (before masking)."""
        with blas_controller().limit(limits=self.threads, user_api="blas"):
            x = self._features(observations)
            for m in self.head:
                x = m(x)
        return x

    def values(self, observations: np.ndarray) -> np.ndarray:
        """float32[n]: the value of each observation for its observer."""
        with blas_controller().limit(limits=self.threads, user_api="blas"):
            return self.value(self._features(observations))


def load_network(path: str | Path, game: str = GAME, threads: int = 1) -> PolicyValueNet:
    """The policy-value network of a policy-value file or a native checkpoint (AgentInputError naming the file if
    it has no value network)."""
    actor = load_actor(path, game, backend="numpy")
    value = load_value_head(path, game, actor)
    if value is None:
        raise AgentInputError(f"{path}: a policy without a value network; az needs both (export_policy_value of "
                              f"the native checkpoint it came from, or that checkpoint's .zip)")  # fmt: skip
    return PolicyValueNet(actor, value, threads)


def prior_policy(priors: str | Path, game: str, threads: int = 1) -> PPOAgent:
    """The policy whose probabilities az takes as its priors instead of its network's: ``"ppo"`` the game's
    shipped PPO policy, or the path of any policy the ppo agent plays (an older layout's included, translated),
    read with numpy."""
    if not isinstance(priors, (str, Path)) or str(priors) in ("", "network"):
        raise AgentInputError(f"priors={priors!r}: 'network' (the network's own policy), 'ppo' (the game's shipped "
                              f"PPO policy) or a policy file's path")  # fmt: skip
    path = shipped_path(game) if str(priors) == "ppo" else Path(priors)
    agent = PPOAgent.from_actor(load_actor(path, game, backend="numpy"), name="priors", game=game)
    agent.threads, agent.path = threads, path
    return agent


def search_player(spec: GameSpec) -> type[SearchAgent]:
    """The game's search player, the first of its spec's agents that is a :class:`.search.SearchAgent`."""
    for name, target in spec.agents.items():
        if name in ("az", "net"):
            continue
        cls = import_path(target)
        if isinstance(cls, type) and issubclass(cls, SearchAgent):
            return cls
    raise AgentInputError(f"{spec.name} has no search player for az to guide")


class AZAgent(Agent):
    """The game's search player guided by a policy-value network (see the module docstring).

    Parameters: ``path`` (a policy-value file or a native checkpoint; default the game's shipped network),
    ``simulations`` per searched decision (None: :data:`SIMULATIONS`, Industry 256, Age of Industry and 20th
    Century 64), ``top_k`` (the policy's most probable legal moves searched, with
    the heuristic's move, 4), ``exploration`` (PUCT's constant, 1.0; values lie in [-1, 1]), ``batch``
    (simulations valued in one forward, 16), ``determinizations`` (None: the search player's default; 0: a fresh
    redeal per simulation), ``opponents`` (``"heuristic"``: modelled; ``"search"``: searched too, max-n),
    ``tree_depth`` (None: no bound), ``threads`` (BLAS threads of the network, 1), ``map`` (Age of Industry's map;
    None: read from the observation), ``value`` (``"network"``: the value head at the leaves; ``"rollout"``: the
    search player's own; ``"mix"``: ``mix`` times the value head's plus ``1 - mix`` times the search player's,
    AlphaGo's mixing; None: :data:`LEAF_VALUES` for the shipped network, the value head for one given by
    ``path``), ``mix`` (the value head's weight in ``"mix"``, 0 to 1, 0.5), ``priors`` (``"network"``: the
    network's own policy; ``"ppo"`` or a policy file: that policy's probabilities as the priors and candidates,
    :func:`prior_policy`; None: :data:`PRIORS` for the shipped network, the network's own for one given by
    ``path``). Seeded: the same seed and observations give the same moves.
    """

    name = "az"

    def __init__(self, seed: int | None = None, path: str | Path | None = None, simulations: int | None = None,
                 top_k: int = 4, exploration: float = 1.0, batch: int = 16, determinizations: int | None = None,
                 opponents: str = "heuristic", tree_depth: int | None = None, threads: int = 1, game: str = GAME,
                 map: str | None = None, value: str | None = None, priors: str | Path | None = None,
                 mix: float = 0.5) -> None:  # noqa: A002  # fmt: skip
        spec = load_game(game)
        self.game = spec.id
        self.top_k = whole(top_k, "top_k", 1)
        simulations = SIMULATIONS.get(spec.id, 64) if simulations is None else whole(simulations, "simulations", 1)
        whole(batch, "batch", 1)
        real(exploration, "exploration", 0.0)
        if opponents not in OPPONENT_MODELS:
            raise AgentInputError(f"opponents={opponents!r}: one of {', '.join(OPPONENT_MODELS)}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise AgentInputError(f"threads={threads!r}: BLAS threads for the network, a whole number >= 1")
        player = search_player(spec)
        if value is None:  # the game's choice for its shipped network; a network of the caller's: its value head
            value = LEAF_VALUES.get(spec.id, "network") if path is None else "network"
        if value not in VALUES:
            raise AgentInputError(f"value={value!r}: one of {', '.join(VALUES)} (the network's value head, the "
                                  f"search player's own rollouts and value, or the two mixed)")  # fmt: skip
        self.mix = real(mix, "mix", 0.0)
        if self.mix > 1.0:
            raise AgentInputError(f"mix={mix!r}: the value head's weight in value='mix', from 0 to 1")
        params: dict[str, Any] = {"seed": seed, "simulations": simulations, "batch": batch,
                                  "exploration": exploration, "opponents": opponents,
                                  "tree_depth": tree_depth}  # fmt: skip
        if value == "network":
            params["rollout_depth"] = 0
        if determinizations is not None:
            params["determinizations"] = whole(determinizations, "determinizations", 0)
        if map is not None:
            if not any(o.name == "map" for o in spec.options):
                raise AgentInputError(f"map={map!r}: {spec.name} has no maps")
            params["map"] = map
        self.path = network_path(path, spec.id)
        self.network = load_network(self.path, spec.id, threads)
        older = older_layout_of(self.network.actor, spec.id)
        if older is not None:  # the search reads today's observations and actions: only ppo translates
            raise AgentInputError(f"{self.path}: a network of {spec.name}'s older {older.name} layout ({older.doc}); "
                                  f"az searches with networks of today's layout only (the ppo agent plays "
                                  f"an older layout's policy)")  # fmt: skip
        self.options = options_of_actor(self.network.actor, spec.id)
        if map is not None and self.options and self.options.get("map") not in (None, map):
            raise AgentInputError(f"map={map!r}: the network {self.path} plays {self.options['map']!r}")
        if priors is None:  # the game's choice for its shipped network; a network of the caller's: its own policy
            priors = PRIORS.get(spec.id, "network") if path is None else "network"
        self.priors = None if priors == "network" else prior_policy(priors, spec.id, threads)
        if self.priors is not None and self.priors.options:
            plays = {"map": map} if map else self.options or {}
            if any(self.priors.options.get(k, v) != v for k, v in plays.items()):
                raise AgentInputError(f"priors={str(priors)!r}: a policy of {self.priors.options}, where the network "
                                      f"or map= plays {plays}")  # fmt: skip
            self.options = self.options or self.priors.options
        self.search = player(**params)
        self.rollout = self.search.evaluator  # the search player's own, which "mix" keeps beside the network's
        self.value = value
        self.use_network(self.network)
        self.seed = self.search.seed

    @property
    def last_root(self) -> Any:
        """The search tree of the last game searched by the last call (for inspection)."""
        return self.search.last_root

    def root_statistics(self) -> list[tuple[int, int, float]]:
        """The last searched decision's candidates with their visits and mean values for the searching seat (the
        network's in [-1, 1], or the search player's own scale where the leaves are rolled out), most visited first
        (:meth:`.search.SearchAgent.root_statistics`)."""
        return self.search.root_statistics()

    def root_visits(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """The visits of the last call's searched roots, by row (:meth:`.search.SearchAgent.root_visits`)."""
        return self.search.root_visits()

    def use_network(self, network: PolicyValueNet) -> None:
        """Play with ``network`` from now on (its policy the priors, its value the leaves' unless ``value`` is
        ``"rollout"``): search self-play swaps in each new network without rebuilding the search player."""
        self.network = network
        if self.value == "network":
            self.search.evaluator = NetworkEvaluator(network.values)
        elif self.value == "mix":
            self.search.evaluator = MixedEvaluator(NetworkEvaluator(network.values), self.rollout, self.mix)
        self.search.guide = NetworkGuide(self.prior_logits, self.top_k)

    def prior_logits(self, observations: np.ndarray) -> np.ndarray:
        """float32[n, A]: the logits of the policy giving the priors on today's actions (an older layout's spread to
        them)."""
        if self.priors is None:  # the network's own policy
            return self.network.logits(observations)
        with blas_controller().limit(limits=self.priors.threads, user_api="blas"):
            return self.priors.raw_logits(observations, np.ones((len(observations), 1), bool))

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.search.act_batch(observations, masks)

    def __repr__(self) -> str:
        priors = "" if self.priors is None else f", priors={str(self.priors.path)!r}"
        return f"AZAgent(game={self.game!r}, path={str(self.path)!r}{priors}, simulations={self.search.simulations})"


class NetAgent(PPOAgent):
    """The policy of a policy-value network alone (the ``ppo`` agent over the ``az`` network file): the most
    probable legal move, or a sample (``deterministic=False``). ``path``: a policy-value file, a native checkpoint
    or any policy file (default: the game's shipped az network); ``threads`` as ``ppo``'s."""

    name = "net"

    def __init__(self, seed: int | None = None, path: str | Path | None = None, deterministic: bool = True,
                 threads: int = 1, game: str = GAME) -> None:  # fmt: skip
        super().__init__(seed=seed, path=network_path(path, load_game(game).id), deterministic=deterministic,
                         threads=threads, game=game)  # fmt: skip

    def __repr__(self) -> str:
        return f"NetAgent(game={self.game!r}, path={str(self.path)!r})"


__all__ = ["LEAF_VALUES", "PRIORS", "SIMULATIONS", "AZAgent", "NetAgent", "PolicyValueNet", "load_network",
           "network_path", "prior_policy", "search_player", "shipped_network"]  # fmt: skip
