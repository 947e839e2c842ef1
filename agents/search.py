"""One search player for every game of the suite: UCT over the game's batched engine, planned on positions drawn
from the seat's own view, the leaves valued by the game's evaluator.

The shape is OpenSpiel's ``MCTSBot`` with an evaluator (``open_spiel/python/algorithms/mcts.py``): a tree of
:class:`Node` (the player to move, the candidate actions, children, visits, one value sum per player), a tree
policy (UCT, or PUCT towards the game's heuristic), an :class:`Evaluator` that values a new leaf for every player,
and the most visited root action played. What is the game's comes through its hooks, a :class:`SearchGame`:

- **Positions from the seat's view.** An agent holds only its observation and the legal mask. ``rebuild`` makes
  a position of each observation (the observer as player 0), and ``determinize`` draws the part the observer
  cannot see from the agent's own generator (the game's ``resample``: Industry's bag order, Age of Industry's
  unseen cards). The search never reads a true hidden state: it has none. ``determinizations`` = 0 draws a fresh
  position for every simulation (information-set search: one tree over the information set, as IS-MCTS shares
  a node over every position consistent with what the player knows); ``determinizations`` = D draws D positions
  per decision, simulation ``k`` playing in position ``k % D``.
- **Chance.** The engines resolve chance (a token drawn from the bag, a card drawn) inside ``step``, from the
  position's own dealt order and seed. The tree is open-loop: a node is a sequence of actions from the root, and
  its statistics average over the chance outcomes its simulations met, each drawn with its probability by the
  determinization, as a chance node sampled by its outcomes' probabilities does.
- **Who is in the tree** (``opponents``): ``"heuristic"`` models the other seats as the game's ``policy``; their
  moves are part of an edge, played for a whole batch of simulations at once, and the tree holds only the
  searching player's own decisions. ``"search"`` puts every seat's decisions in the tree (max-n: each player
  maximizes his own mean value). Decisions the game does not search (``searched`` false: a payment, a cube's
  source) are played by the policy as part of an edge.
- **The tree** grows by one node a simulation, up to ``tree_depth`` searched decisions from the root (no
  bound by default; 1 keeps it to the root's candidates, flat Monte Carlo with UCB). A node made by a batch is a
  leaf for the whole batch (its value comes back only at the batch's end).
- **Candidates** (``candidates``): a few legal actions per decision, the game's heuristic choice first (the
  evaluator's prior, as OpenSpiel's ``Evaluator.prior``). A node's candidates are computed when a simulation
  first stands at its decision. A decision with one candidate is not searched.
- **The evaluator** (:class:`RolloutEvaluator`): from the position just after a leaf's action (or, where the
  game sets ``value_after_edge``, where the leaf's edge ends), every seat plays the game's ``policy`` for
  ``rollout_depth`` decisions, then the game's ``value`` gives each player's value of the position reached (0:
  the value alone, a heuristic evaluator).

Simulations run in batches of ``batch`` (a visit counts as it is handed out, a virtual loss of zero value, so a
batch spreads over the tree), and the simulations of every game of one ``act_batch`` call are stepped together
as one batch of the engine. The tree policy at a node picks, among its candidates legal in this position, an
unvisited one first (in the candidates' order), else the highest ``mean + exploration * sqrt(ln N / n)`` for the
node's player (or, with ``prior`` > 0, PUCT: ``mean + exploration * p(a) * sqrt(N) / (1 + n)`` with ``p`` =
``prior`` on the heuristic's action). The move is the most visited root candidate (ties: the higher mean).
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .base import Agent, AgentInputError, check_seed

#: the other seats: played by the game's policy (modelled), or searched too (max-n)
OPPONENT_MODELS = ("heuristic", "search")


class SearchGame(abc.ABC):
    """A game's hooks for the search: its engine, positions from observations, its policy, candidates and value.

    One object per agent: it holds the agent's parameters for the game (the heuristic's knobs, the temperature of
    the value). Positions are the game's batched engine States; the observer of a rebuilt position is player 0.
    """

    #: the most players a game has (the width of the value rows)
    max_players: int
    #: the game's batched engine module: ``take``, ``concat``, ``step``, ``legal_action_mask``
    engine: Any
    #: value a leaf where its edge ends (the modelled seats' replies and the decisions not searched played, at the
    #: next searched decision) rather than just after its action
    value_after_edge: bool = False
    #: the scale of ``value``: ``"margin"``, in [-1, 1] as the outcomes (+1 a winner, -1 the others), or
    #: ``"share"``, in [0, 1] (each seat's share of the win, 1 in all): how a value network's outcome units map onto
    #: it (:class:`MixedEvaluator`)
    value_scale: str = "margin"

    @abc.abstractmethod
    def rebuild(self, observations: np.ndarray) -> Any:
        """Positions rebuilt from float32[B, D] observations, the observer as player 0, the part he cannot see
        filled in arbitrarily (``determinize`` draws it)."""

    def determinize(self, positions: Any, rng: np.random.Generator) -> Any:
        """New positions agreeing with all that player 0 knows of ``positions``, the rest drawn from ``rng`` (the
        game's ``resample``). A game without hidden information has nothing to draw."""
        return self.engine.take(positions, np.arange(positions.batch_size))

    def searched(self, state: Any) -> np.ndarray:
        """bool[B]: the decisions worth searching; the others are played by ``policy`` (default: every one)."""
        return np.ones(state.batch_size, bool)

    @abc.abstractmethod
    def candidates(self, state: Any, masks: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        """The candidate actions of every game of ``state`` (int64 arrays of legal actions of ``masks``, the
        heuristic's choice first)."""

    @abc.abstractmethod
    def policy(self, state: Any, rng: np.random.Generator) -> np.ndarray:
        """int64[B]: the game's heuristic action in every game of ``state`` (all running): the model of the other
        seats, the rollouts, and the decisions not searched."""

    @abc.abstractmethod
    def value(self, state: Any) -> np.ndarray:
        """float64[B, max_players]: each player's value of the positions (finished or not); higher is better."""


class Evaluator(abc.ABC):
    """Values new leaves for every player (OpenSpiel's ``Evaluator.evaluate``)."""

    @abc.abstractmethod
    def evaluate(self, game: SearchGame, state: Any, rng: np.random.Generator) -> np.ndarray:
        """float64[B, max_players]: the values of the positions ``state`` (which it may step in place)."""


class RolloutEvaluator(Evaluator):
    """Every seat plays the game's policy for ``depth`` decisions (or to the end), then the game's value; depth 0
    is the game's value alone (a heuristic evaluator)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def evaluate(self, game: SearchGame, state: Any, rng: np.random.Generator) -> np.ndarray:
        B = state.batch_size
        for _ in range(self.depth):
            live = np.flatnonzero(state.current_player >= 0)
            if live.size == 0:
                break
            actions = np.zeros(B, np.int64)
            actions[live] = game.policy(state if live.size == B else game.engine.take(state, live), rng)
            game.engine.step(state, actions, inplace=True)
        return game.value(state)


def outcome_values(engine: Any, state: Any, players: int) -> np.ndarray:
    """float64[B, players]: the finished games' outcomes as the trainer's win reward gives them: +1 each winner, -1
    the others, 0 for all on a full tie (0 in absent seats). The winners by the engine's ``ranking`` where it has
    one, else by points (a game whose rules break ties otherwise counts the tied players as winners)."""
    ranking = getattr(engine, "ranking", None)
    key = np.asarray(ranking(state) if callable(ranking) else engine.scores(state), np.float64)[:, :players]
    n = state.num_players.astype(np.int64)
    present = np.arange(key.shape[1])[None, :] < n[:, None]
    key = np.where(present, key, -np.inf)
    win = key == key.max(axis=1, keepdims=True)
    everyone = win.sum(axis=1) == n
    out = np.where(everyone[:, None] | ~present, 0.0, np.where(win, 1.0, -1.0))
    full = np.zeros((state.batch_size, players))
    full[:, : out.shape[1]] = out
    return full


class NetworkEvaluator(Evaluator):
    """Values each leaf for every seat with a value network (AlphaZero's evaluator, no rollout): each seat's
    observation of the position (``engine.observe(state, seat)``), every seat of every leaf in one call of
    ``values`` (float32[n, D] observations -> float[n] values); a finished game's outcome (:func:`outcome_values`).
    The values are the network's, in the units of the reward it was trained on (the win reward: -1 to 1)."""

    def __init__(self, values: Callable[[np.ndarray], np.ndarray]) -> None:
        self.values = values

    def evaluate(self, game: SearchGame, state: Any, rng: np.random.Generator) -> np.ndarray:
        B, P = state.batch_size, game.max_players
        out = np.zeros((B, P))
        live = np.asarray(state.current_player) >= 0
        rows = np.flatnonzero(live)
        if rows.size:
            s = state if rows.size == B else game.engine.take(state, rows)
            n = s.num_players.astype(np.int64)
            seats = int(n.max())
            obs = np.concatenate([game.engine.observe(s, np.minimum(q, n - 1)) for q in range(seats)])
            v = np.asarray(self.values(obs), np.float64).reshape(seats, rows.size).T
            out[rows, :seats] = np.where(np.arange(seats)[None, :] < n[:, None], v, 0.0)
        done = np.flatnonzero(~live)
        if done.size:
            out[done] = outcome_values(game.engine, game.engine.take(state, done), P)
        return out


class MixedEvaluator(Evaluator):
    """AlphaGo's leaf value: ``weight`` times a value network's (:class:`NetworkEvaluator`) plus ``1 - weight``
    times the game's own evaluator's (its rollouts), the network's outcome units mapped onto the game's
    :attr:`SearchGame.value_scale`. The network keeps the rollouts' knowledge of the end and adds its own of the
    position where the rollouts' policy misjudges it."""

    def __init__(self, network: NetworkEvaluator, rollout: Evaluator, weight: float) -> None:
        self.network, self.rollout, self.weight = network, rollout, weight

    def evaluate(self, game: SearchGame, state: Any, rng: np.random.Generator) -> np.ndarray:
        net = self.network.evaluate(game, state, rng)  # before the rollouts step the positions on
        if game.value_scale == "share":
            present = np.arange(net.shape[1])[None, :] < np.asarray(state.num_players, np.int64)[:, None]
            net = np.where(present, (net + 1.0) / 2.0, 0.0)
        return self.weight * net + (1.0 - self.weight) * self.rollout.evaluate(game, state, rng)


class Guide(abc.ABC):
    """Candidates and their priors for the search's decisions (AlphaZero's prior): where an agent has a guide it
    replaces the game's ``candidates``, and the tree policy is PUCT with the priors."""

    @abc.abstractmethod
    def candidates(self, game: SearchGame, state: Any, masks: np.ndarray, rng: np.random.Generator
                   ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:  # fmt: skip
        """The candidate actions of every game of ``state`` (legal in ``masks``; the game's own first choice first
        where the decision is not searched) and the prior of each (None: none, the agent's own tree policy)."""


class NetworkGuide(Guide):
    """Candidates from a policy network: the ``top_k`` legal actions of highest probability plus the game's
    heuristic choice (its first candidate), each with the network's probability as its prior (renormalised over
    the candidates when selected). ``logits``: float32[n, D] observations of the player to move -> float[n, A]
    logits, called once for all the positions of a call. A decision the game does not search keeps its one
    candidate."""

    def __init__(self, logits: Callable[[np.ndarray], np.ndarray], top_k: int) -> None:
        self.logits, self.top_k = logits, top_k

    def candidates(self, game: SearchGame, state: Any, masks: np.ndarray, rng: np.random.Generator
                   ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:  # fmt: skip
        base = game.candidates(state, masks, rng)
        priors: list[np.ndarray | None] = [None] * len(base)
        rows = np.flatnonzero(game.searched(state) & (masks.sum(axis=1) > 1))
        if rows.size == 0:
            return base, priors
        sub = state if rows.size == state.batch_size else game.engine.take(state, rows)
        legal = masks[rows]
        z = np.where(legal, np.asarray(self.logits(game.engine.observe(sub)), np.float64), -np.inf)
        z -= z.max(axis=1, keepdims=True)
        prob = np.exp(z)
        prob /= prob.sum(axis=1, keepdims=True)
        top = np.argsort(-z, axis=1, kind="stable")[:, : self.top_k]
        out = list(base)
        for j, i in enumerate(rows.tolist()):
            acts = [a for a in top[j].tolist() if legal[j, a]]
            h = int(base[i][0])
            if h not in acts:
                acts.append(h)
            out[i] = np.array(acts, np.int64)
            priors[i] = prob[j, out[i]]
        return out, priors


class Node:
    """A decision point of the tree: its player, candidate actions, children, visits and value sums."""

    __slots__ = ("player", "actions", "children", "visits", "total", "born", "prior")

    def __init__(self, players: int, player: int = -1, actions: np.ndarray | None = None, born: int = -1) -> None:
        self.player = player
        self.born = born  # the batch of simulations that made it (its value is not back before the next)
        self.actions = actions  # the candidates, set when a simulation first stands at the decision
        self.prior: np.ndarray | None = None  # a guide's prior of each candidate (None: the agent's own tree policy)
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = np.zeros(players)

    def mean(self, player: int) -> float:
        """The mean value of the node's simulations for ``player`` (0 before any)."""
        return float(self.total[player]) / self.visits if self.visits else 0.0


def whole(value: object, name: str, low: int) -> int:
    """``value`` as an int >= ``low``; AgentInputError naming the parameter if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise AgentInputError(f"{name}={value!r}: a whole number >= {low}")
    return int(value)


def real(value: object, name: str, low: float, high: float = math.inf, above: bool = False) -> float:
    """``value`` as a finite float in [low, high) (``above``: low excluded); AgentInputError naming it if not."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.floating)) and math.isfinite(value)
    if not ok or value < low or value >= high or (above and value == low):
        where = f"above {low}" if above else f">= {low}"
        upto = "" if high == math.inf else f" and below {high}"
        raise AgentInputError(f"{name}={value!r}: a finite number {where}{upto}")
    return float(value)


class SearchAgent(Agent):
    """The search player of a game (see the module docstring); a game's search agent subclasses it with the
    game's hooks and its defaults. ``act_batch`` searches all its games together. Seeded: the same seed and the
    same sequence of calls give the same moves.

    Parameters: ``simulations`` per searched decision, ``determinizations`` (0: a fresh position per
    simulation; D: D positions per decision), ``batch`` (simulations valued together), ``rollout_depth``
    (policy decisions from a leaf before its value), ``exploration`` (the UCT constant), ``prior`` (0: UCT;
    above 0: PUCT with that prior on the heuristic's action), ``opponents`` (``"heuristic"`` or ``"search"``),
    ``tree_depth`` (the most searched decisions on a path from the root; None: no bound, 1: the root's
    candidates only, flat Monte Carlo search with UCB).
    """

    def __init__(self, game: SearchGame, *, seed: int | None, simulations: int, determinizations: int, batch: int,
                 rollout_depth: int, exploration: float, prior: float, opponents: str,
                 tree_depth: int | None = None) -> None:  # fmt: skip
        self.seed = check_seed(seed)
        self.simulations = whole(simulations, "simulations", 1)
        self.determinizations = whole(determinizations, "determinizations", 0)
        self.batch = whole(batch, "batch", 1)
        self.rollout_depth = whole(rollout_depth, "rollout_depth", 0)
        self.exploration = real(exploration, "exploration", 0.0)
        if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0.0 <= prior < 1.0:
            raise AgentInputError(f"prior={prior!r}: a number from 0 (plain UCT) to below 1")
        self.prior = float(prior)
        if opponents not in OPPONENT_MODELS:
            raise AgentInputError(f"opponents={opponents!r}: one of {', '.join(OPPONENT_MODELS)}")
        self.opponents = opponents
        self.tree_depth = math.inf if tree_depth is None else whole(tree_depth, "tree_depth", 1)
        self.search_game = game
        self.evaluator: Evaluator = RolloutEvaluator(self.rollout_depth)
        self.guide: Guide | None = None  # candidates and priors from a policy (None: the game's candidates)
        self.rng = np.random.default_rng(self.seed)
        self.last_root: Node | None = None  # the tree of the last game searched by the last call (for inspection)
        self.last_roots: dict[int, Node] = {}  # the tree of every game searched by the last call, by its row
        self.simulated = 0  # simulations run so far (for measuring the speed)

    def root_statistics(self) -> list[tuple[int, int, float]]:
        """What the last searched decision's root holds (the last game's of the last call, as ``last_root``): each
        candidate action with its visits and mean value for the searching seat, most visited first (ties: the higher
        mean); empty when the last call searched nothing (one candidate, or a decision the game does not search)."""
        root = self.last_root
        if root is None or root.actions is None:
            return []
        out = []
        for a in root.actions.tolist():
            child = root.children.get(a)
            out.append((int(a), child.visits, child.mean(root.player)) if child is not None else (int(a), 0, 0.0))
        return sorted(out, key=lambda row: (-row[1], -row[2]))

    def root_visits(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """Every game the last call searched, by its row: its root's candidate actions (int64[k]) and their visits
        (int64[k]), the search's distribution over its moves (search self-play trains the policy towards it); a
        row the call did not search (one candidate, a decision the game does not search) is absent."""
        out = {}
        for row, root in self.last_roots.items():
            acts = np.asarray(root.actions, np.int64)
            visits = np.array([root.children[a].visits if a in root.children else 0 for a in acts.tolist()], np.int64)
            out[row] = (acts, visits)
        return out

    # ------------------------------------------------------------------------------------------ one call
    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        g = self.search_game
        self.last_root, self.last_roots = None, {}
        positions = g.rebuild(observations)
        cands, priors = self._candidates(positions, masks)
        out = np.array([c[0] for c in cands], np.int64)
        todo = np.flatnonzero(g.searched(positions) & np.array([c.size > 1 for c in cands], bool))
        if todo.size == 0:
            return out
        P = g.max_players
        roots = [Node(P, 0, cands[i]) for i in todo.tolist()]
        for root, i in zip(roots, todo.tolist(), strict=True):
            root.prior = priors[i]
        D, n = self.determinizations, todo.size
        if D:  # D positions per game, each game's drawn from its own generator (a game's moves do not depend on
            # the others of the call)
            gens = [np.random.default_rng(int(x)) for x in self.rng.integers(0, 2**63 - 1, n)]
            worlds = g.engine.concat(
                [g.determinize(g.engine.take(positions, np.full(D, i)), gen) for i, gen in zip(todo, gens, strict=True)]
            )
        done = 0
        while done < self.simulations:
            k = min(self.batch, self.simulations - done)
            game_of_row = np.repeat(np.arange(n), k)
            if D:
                s = g.engine.take(worlds, game_of_row * D + (done + np.tile(np.arange(k), n)) % D)
            else:
                s = g.determinize(g.engine.take(positions, todo[game_of_row]), self.rng)
            self._simulate(roots, game_of_row, s, done)
            done += k
        self.simulated += n * self.simulations
        for root, i in zip(roots, todo.tolist(), strict=True):
            out[i] = _most_visited(root)
        self.last_root = roots[-1]
        self.last_roots = dict(zip(todo.tolist(), roots, strict=True))
        return out

    def _candidates(self, state: Any, masks: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        """The candidates of every game of ``state`` and their priors: the guide's where the agent has one, else
        the game's (no priors)."""
        if self.guide is not None:
            return self.guide.candidates(self.search_game, state, masks, self.rng)
        cands = self.search_game.candidates(state, masks, self.rng)
        return cands, [None] * len(cands)

    # ------------------------------------------------------------------------------------------ the search
    def _play_forced(self, s: Any, active: np.ndarray) -> np.ndarray:
        """Play the forced decisions of the games ``active`` (bool[B]) of ``s`` in place: those not searched and,
        the others modelled, another seat's (the rest of a tree edge), until each stands at a searched decision
        or is over. The player to move in each game then (int64[B], -1: over)."""
        g = self.search_game
        while True:
            player = s.current_player.astype(np.int64)
            forced = active & (player >= 0) & ~g.searched(s)
            if self.opponents == "heuristic":
                forced |= active & (player > 0)
            if not forced.any():
                return player
            self._step_policy(s, forced, player >= 0)

    def _step_policy(self, s: Any, rows: np.ndarray, running: np.ndarray) -> None:
        """The policy's move in the games ``rows`` (bool[B]) of ``s``, in place. Where most running games
        (``running``, bool[B]) move, the policy is asked in all of them, which spares taking the rows out."""
        g = self.search_game
        ask = running if 2 * int(rows.sum()) >= int(running.sum()) else rows
        if ask.all():
            actions = g.policy(s, self.rng)
        else:
            actions = np.zeros(s.batch_size, np.int64)
            actions[ask] = g.policy(g.engine.take(s, np.flatnonzero(ask)), self.rng)
        _step_rows(g.engine, s, rows, actions)

    def _simulate(self, roots: list[Node], game_of_row: np.ndarray, s: Any, batch: int) -> None:
        """One simulation per game of ``s`` (row ``j`` in the tree ``roots[game_of_row[j]]``), stepped in place and
        in lockstep: the tree policy down to a new leaf, the evaluator from there, the values backed up along the
        path. ``batch`` numbers this batch: a node made by it is a leaf for all its simulations (its value is not
        known yet, so they share it rather than go deeper)."""
        g = self.search_game
        k, P = s.batch_size, g.max_players
        nodes = [roots[r] for r in game_of_row.tolist()]
        paths = [[node] for node in nodes]
        for node in nodes:
            node.visits += 1
        active = np.ones(k, bool)
        while True:
            player = self._play_forced(s, active)
            active &= player >= 0
            rows = np.flatnonzero(active)
            if rows.size == 0:
                break
            legal = g.engine.legal_action_mask(s)[rows]
            fresh = [r for r, j in enumerate(rows.tolist()) if nodes[j].actions is None]
            if fresh:  # a node's candidates, when a simulation first stands at its decision
                at = rows[fresh]
                cands, priors = self._candidates(g.engine.take(s, at), legal[fresh])
                for r, c, pr in zip(fresh, cands, priors, strict=True):
                    node = nodes[rows[r]]
                    if node.actions is None:
                        node.actions, node.player, node.prior = c, int(player[rows[r]]), pr
            actions = np.full(rows.size, -1, np.int64)
            for r, j in enumerate(rows.tolist()):
                node = nodes[j]
                assert node.actions is not None
                cand = node.actions[legal[r, node.actions]]
                if cand.size == 0:  # none of the node's candidates is legal in this position: the leaf
                    active[j] = False
                    continue
                a = actions[r] = self._select(node, cand)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = Node(P, born=batch)
                if child.born == batch or len(paths[j]) >= self.tree_depth:  # a new node (this simulation's, or
                    active[j] = False  # another's of the batch), or as deep as the tree may grow: the leaf
                child.visits += 1
                paths[j].append(child)
                nodes[j] = child
            go = actions >= 0
            if go.any():
                step = np.zeros(k, np.int64)
                step[rows[go]] = actions[go]
                on = np.zeros(k, bool)
                on[rows[go]] = True
                _step_rows(g.engine, s, on, step)
            if not active.any():
                break
        if g.value_after_edge:
            self._play_forced(s, np.ones(k, bool))
        values = self.evaluator.evaluate(g, s, self.rng)
        for path, v in zip(paths, values, strict=True):
            for node in path:
                node.total += v

    def _select(self, node: Node, acts: np.ndarray) -> int:
        """UCT for the node's player over the legal candidates ``acts`` (an unvisited one first, in order); with
        ``prior`` > 0, PUCT with the heuristic's action (the node's first candidate) given that prior; where a
        guide gave the node priors, PUCT with them."""
        if node.prior is not None:
            return self._select_guided(node, acts)
        if self.prior > 0:
            return self._select_prior(node, acts)
        best, best_score = -1, -math.inf
        log_n = math.log(max(node.visits, 1))
        for a in acts.tolist():
            child = node.children.get(a)
            if child is None or child.visits == 0:
                return a
            score = child.total[node.player] / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _select_prior(self, node: Node, acts: np.ndarray) -> int:
        """PUCT: ``mean + exploration * p(a) * sqrt(N) / (1 + n)``; p = ``prior`` for the heuristic's action, the
        rest shared by the others; an unvisited child counts the node's own mean value."""
        assert node.actions is not None
        h = int(node.actions[0])
        k = acts.size
        has_h = bool((acts == h).any())
        other = (1.0 - self.prior) / max(k - 1, 1) if has_h else 1.0 / k
        parent = node.mean(node.player)
        root_n = math.sqrt(max(node.visits, 1))
        best, best_score = -1, -math.inf
        for a in acts.tolist():
            child = node.children.get(a)
            n = child.visits if child is not None else 0
            q = child.total[node.player] / n if n else parent
            pa = self.prior if (a == h and has_h) else other
            score = q + self.exploration * pa * root_n / (1 + n)
            if score > best_score:
                best, best_score = a, score
        return best

    def _select_guided(self, node: Node, acts: np.ndarray) -> int:
        """PUCT with the guide's priors, AlphaZero's ``mean + exploration * p(a) * sqrt(N) / (1 + n)``, p the
        node's prior renormalised over the legal candidates ``acts``; an unvisited child counts the node's own mean
        value (the first of equal scores wins: the guide's order)."""
        assert node.actions is not None and node.prior is not None
        p = node.prior[np.isin(node.actions, acts)]
        total = float(p.sum())
        p = p / total if total > 0 else np.full(acts.size, 1.0 / acts.size)
        parent = node.mean(node.player)
        root_n = math.sqrt(max(node.visits, 1))
        best, best_score = -1, -math.inf
        for a, pa in zip(acts.tolist(), p.tolist(), strict=True):
            child = node.children.get(a)
            n = child.visits if child is not None else 0
            q = child.total[node.player] / n if n else parent
            score = q + self.exploration * pa * root_n / (1 + n)
            if score > best_score:
                best, best_score = a, score
        return best


def _most_visited(root: Node) -> int:
    """The root candidate with the most visits (ties: the higher mean for the root's player, then the first)."""
    assert root.actions is not None
    best, key = int(root.actions[0]), (-1, -math.inf)
    for a in root.actions.tolist():
        child = root.children.get(a)
        k = (child.visits, child.mean(root.player)) if child is not None else (0, -math.inf)
        if k > key:
            best, key = a, k
    return best


def _step_rows(engine: Any, state: Any, rows: np.ndarray, actions: np.ndarray) -> None:
    """Play ``actions`` in the games ``rows`` (bool[B]) of ``state``, in place; the other games stay as they are
    (set aside as finished for the one step: an engine ignores a finished game's action)."""
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)
    try:
        engine.step(state, actions, inplace=True)
    finally:
        state.terminated[:] = held | (state.terminated & rows)


__all__ = [
    "OPPONENT_MODELS", "Evaluator", "Guide", "MixedEvaluator", "NetworkEvaluator", "NetworkGuide", "Node",
    "RolloutEvaluator",
    "SearchAgent", "SearchGame", "outcome_values", "real", "whole",
]  # fmt: skip
