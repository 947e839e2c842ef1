"""A search player ("mcts"): determinized UCT over the batched engine, the other seats modelled or searched.

For one decision it rebuilds ``determinizations`` positions from the observation with
:func:`industry_env.games.industry.engine.from_observation` (the visible table as observed, the unseen bag order and
later eras' bags dealt anew from its own generator: it never sees the hidden order), then runs ``simulations``
simulations of UCT over one shared tree whose nodes are action sequences from the root. Simulation ``k``
plays in determinization ``k % determinizations``.

Who is in the tree is ``opponents``: with ``"heuristic"`` (the default) the other seats are modelled as the strong
heuristic, played for the whole batch of simulations at once between two of the searching player's decisions,
and the tree holds only his own decisions (open loop); with ``"search"`` every seat's decisions are in the tree,
max-n: every node stores one value per player, each player maximizes his own. At a node the player to move picks
the child maximizing his own mean value plus ``exploration * sqrt(ln N / n)``, among the node's candidate
actions that are legal in this determinization.

Candidate actions (the action space has 314 actions, 112 of them bids) are a few per decision:

- auction: every available field; sell or keep: both; develop: every legal field and ``done``;
- bid: ``pass``, the strong heuristic's bid, the lowest bid (highest + 1) and the lowest + 2, where legal;
- pay: the strong heuristic's way only (and no search at the root: a one-candidate decision is not searched);
- the subsidy: only where the strong heuristic takes it.

Simulations run in batches of ``batch`` (a visit counts at once, so the batch spreads over the tree, a
"virtual loss" of zero value); the new leaves of a batch are valued together: the whole batch is played on by
the batched strong heuristic (:func:`~.strong_heuristic.strong_actions`, every seat) for ``rollout_depth``
decisions (about a round), then :func:`estimate` gives each player's expected final score. Scores become
values by a softmax over the players (temperature ``temperature`` points): each player's share of a likely
win. The root action is the most visited child. (Uniform or weighted random rollouts to the end, which
``engine.rollout`` plays far faster, value positions poorly here: random players overpay and never develop,
and the search then overbids.)
"""

from __future__ import annotations

import math

import numpy as np

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.rules import MAX_PLAYERS, TALERS_PER_POINT

from ..base import Agent, AgentInputError, check_seed
from .checks import refuse_finished_or_other_seat
from .strong_heuristic import StrongParams, assessment, strong_actions

P = MAX_PLAYERS
OPPONENT_MODELS = ("heuristic", "search")  # the other seats: played by the strong heuristic, or searched (max-n)


class _Node:
    """A decision point of the tree: its player, candidate actions, children, visits and value sums."""

    __slots__ = ("player", "actions", "children", "visits", "total")

    def __init__(self) -> None:
        self.player = -1
        self.actions: np.ndarray | None = None  # candidate actions, set when the node is first valued
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = np.zeros(P)


def candidates(state: engine.State, mask: np.ndarray, heuristic: np.ndarray) -> list[np.ndarray]:
    """The candidate actions of every game of ``state`` (int64 arrays, the heuristic's action first)."""
    out = []
    for i in range(state.batch_size):
        legal = mask[i]
        h = int(heuristic[i])
        ph = int(state.phase[i])
        if ph == engine.BID:
            high = int(state.high_bid[i])
            acts = [h, A.PASS] + [A.BID + high + k - 1 for k in (1, 3) if A.BID + high + k - 1 < A.SELL]
        elif ph == engine.PAY:
            acts = [h]
        else:
            acts = [h, *np.flatnonzero(legal[:A.PAY]).tolist()]
        seen, keep = set(), []
        for a in acts:
            if a not in seen and legal[a]:
                seen.add(a)
                keep.append(a)
        out.append(np.array(keep, np.int64))
    return out


class MCTSAgent(Agent):
    """Determinized UCT ("mcts"); see the module docstring. ``act_batch`` searches each game in turn.

    Parameters: ``simulations`` per decision (default 128: about 0.35 s a searched decision on one core),
    ``determinizations`` (re-dealt positions a decision, 8), ``batch`` (simulations valued together, 32),
    ``rollout_depth`` (heuristic decisions played from each leaf before it is estimated, 24), ``exploration``
    (the UCT constant, 0.7), ``temperature`` (points, 6), ``prior`` (0: plain UCT; above 0, PUCT with that prior
    on the strong heuristic's action). Seeded: same seed, same moves.
    """

    name = "mcts"
    game = "industry"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 128,
        determinizations: int = 8,
        batch: int = 32,
        rollout_depth: int = 24,
        exploration: float = 0.7,
        temperature: float = 6.0,
        prior: float = 0.0,
        opponents: str = "heuristic",
    ) -> None:
        for k, v in {"simulations": simulations, "determinizations": determinizations, "batch": batch}.items():
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise AgentInputError(f"{k}={v!r}: a whole number >= 1")
        if isinstance(rollout_depth, bool) or not isinstance(rollout_depth, (int, np.integer)) or rollout_depth < 0:
            raise AgentInputError(f"rollout_depth={rollout_depth!r}: a whole number >= 0")
        for k, v in {"exploration": exploration, "temperature": temperature}.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v < 0:
                raise AgentInputError(f"{k}={v!r}: a finite number >= 0")
        if temperature <= 0:
            raise AgentInputError(f"temperature={temperature!r}: must be above 0")
        if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0.0 <= prior < 1.0:
            raise AgentInputError(f"prior={prior!r}: a number from 0 (plain UCT) to below 1")
        if opponents not in OPPONENT_MODELS:
            raise AgentInputError(f"opponents={opponents!r}: one of {', '.join(OPPONENT_MODELS)}")
        self.seed = check_seed(seed)
        self.opponents = opponents
        self.simulations, self.determinizations, self.batch = int(simulations), int(determinizations), int(batch)
        self.rollout_depth = int(rollout_depth)
        self.exploration, self.temperature, self.prior = float(exploration), float(temperature), float(prior)
        self.params = StrongParams()
        self.rng = np.random.default_rng(self.seed)
        self.last_root: _Node | None = None  # the tree of the last searched decision (for inspection)

    def _choose(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        refuse_finished_or_other_seat(observations)
        out = np.empty(observations.shape[0], np.int64)
        for i in range(observations.shape[0]):
            out[i] = self._search(observations[i], masks[i])
        return out

    # ------------------------------------------------------------------------------------------ the search
    def _search(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """One decision: the most visited root candidate after the simulations."""
        self.last_root = None
        D = self.determinizations
        roots = engine.from_observation(np.repeat(observation[None], D, axis=0), self.rng)
        first = engine.take(roots, 0)
        if int(roots.phase[0]) == engine.PAY:
            # pay-to-player actions name players in the rebuilt numbering: choose from the real mask instead
            return int(strong_actions(first, self.seed, mask[None], self.params)[0])
        heuristic = strong_actions(first, self.seed, engine.legal_action_mask(first), self.params)
        root = _Node()
        root.player = int(roots.current_player[0])
        root.actions = candidates(first, mask[None], heuristic)[0]
        if root.actions.size == 1:
            return int(root.actions[0])
        done = 0
        while done < self.simulations:
            k = min(self.batch, self.simulations - done)
            if self.opponents == "heuristic":
                self._simulate_modelled(root, engine.take(roots, (done + np.arange(k)) % D))
            else:
                self._simulate_batch(root, [engine.take(roots, d) for d in range(D)], done, k)
            done += k
        self.last_root = root
        visits = np.array([root.children[a].visits if a in root.children else 0 for a in root.actions.tolist()])
        return int(root.actions[int(visits.argmax())])

    def _simulate_batch(self, root: _Node, worlds: list[engine.State], first: int, k: int) -> None:
        paths: list[list[_Node]] = []
        leaves: list[engine.State] = []
        for j in range(k):
            s = engine.copy(worlds[(first + j) % len(worlds)])
            node, path = root, [root]
            root.visits += 1
            while True:
                if s.phase[0] == engine.OVER or node.actions is None:
                    break
                legal = engine.legal_action_mask(s)[0]
                acts = node.actions[legal[node.actions]]
                if acts.size == 0:  # another draw of the bag: nothing of this node's candidates is legal here
                    break
                a = self._select(node, acts)
                child = node.children.get(a)
                engine.step(s, np.array([a]), inplace=True)
                if child is None:
                    child = node.children[a] = _Node()
                    child.visits += 1
                    path.append(child)
                    break
                child.visits += 1
                path.append(child)
                node = child
            paths.append(path)
            leaves.append(s)
        values, acts_of = self._value(engine.concat(leaves))
        for path, v, s, acts in zip(paths, values, leaves, acts_of, strict=True):
            leaf = path[-1]
            if leaf.actions is None and acts is not None:
                leaf.actions = acts
                leaf.player = int(s.current_player[0])
            for node in path:
                node.total += v

    def _simulate_modelled(self, root: _Node, s: engine.State) -> None:
        """A simulation per game of ``s`` (its determinizations, stepped in place), in lockstep, the other seats
        played by the strong heuristic: the tree holds only the searching player's decisions (open loop: a node
        is his own action sequence, whatever the others did in between); the others' moves are played for all
        simulations at once, one batched call per ply."""
        me, k = root.player, s.batch_size
        nodes = [root] * k
        paths: list[list[_Node]] = [[root] for _ in range(k)]
        root.visits += k
        active = np.ones(k, bool)
        while active.any():
            player = s.current_player.astype(np.int64)
            active &= player >= 0
            others = active & (player != me)
            if others.any():  # the other seats move
                _step_rows(s, others, _heuristic(s, self.seed, self.params))
                continue
            rows = np.flatnonzero(active)
            if rows.size == 0:
                break
            legal = engine.legal_action_mask(s)[rows]
            acts = np.empty(rows.size, np.int64)
            for r, (j, lg) in enumerate(zip(rows.tolist(), legal, strict=True)):
                node = nodes[j]
                cand = node.actions[lg[node.actions]] if node.actions is not None else node.actions
                if cand is None or cand.size == 0:  # a new leaf, or none of its candidates legal in this world
                    active[j] = False
                    acts[r] = -1
                    continue
                a = acts[r] = self._select(node, cand)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node()
                    active[j] = False  # the new node is this simulation's leaf
                child.visits += 1
                paths[j].append(child)
                nodes[j] = child
            go = acts >= 0
            if go.any():
                step = np.zeros(k, np.int64)
                step[rows[go]] = acts[go]
                on = np.zeros(k, bool)
                on[rows[go]] = True
                _step_rows(s, on, step)
        values, acts_of = self._value(s, me)
        for path, v, acts in zip(paths, values, acts_of, strict=True):
            leaf = path[-1]
            if leaf.actions is None and acts is not None:
                leaf.actions = acts
                leaf.player = me
            for node in path:
                node.total += v

    def _select(self, node: _Node, acts: np.ndarray) -> int:
        """UCT for the node's player over the legal candidates ``acts`` (an unvisited one first, in order); with
        ``prior`` > 0, PUCT with the heuristic's action (the node's first candidate) given that prior."""
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

    def _select_prior(self, node: _Node, acts: np.ndarray) -> int:
        """PUCT: ``mean + exploration * p(a) * sqrt(N) / (1 + n)``; p = ``prior`` for the heuristic's action, the
        rest shared by the others; an unvisited child counts the node's own mean value."""
        assert node.actions is not None
        h = int(node.actions[0])
        k = acts.size
        has_h = bool((acts == h).any())
        other = (1.0 - self.prior) / max(k - 1, 1) if has_h else 1.0 / k
        parent = node.total[node.player] / max(node.visits, 1)
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

    def _value(self, s: engine.State, me: int | None = None) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """float64[K, P] values of the leaves (softmax of estimated final scores) and their candidate actions.

        With ``me`` (the opponents modelled), the other seats first play on to ``me``'s next decision, whose
        candidates are the leaf's. The leaves are then played on together by the strong heuristic for
        ``rollout_depth`` decisions (or to the end), and valued by :func:`estimate`.
        """
        K = s.batch_size
        acts: list[np.ndarray | None] = [None] * K
        if me is not None:
            while True:
                player = s.current_player.astype(np.int64)
                others = (player >= 0) & (player != me)
                if not others.any():
                    break
                _step_rows(s, others, _heuristic(s, self.seed, self.params))
        live = np.flatnonzero(s.phase != engine.OVER)
        if live.size:
            sl = engine.take(s, live)
            m = engine.legal_action_mask(sl)
            h = strong_actions(sl, self.seed, m, self.params)
            for j, c in zip(live.tolist(), candidates(sl, m, h), strict=True):
                acts[j] = c
        for _ in range(self.rollout_depth):
            if live.size == 0:
                break
            if live.size < K:
                sub = engine.take(s, live)
                a = np.zeros(K, np.int64)
                a[live] = strong_actions(sub, self.seed, None, self.params)
            else:
                a = strong_actions(s, self.seed, None, self.params)
            engine.step(s, a, inplace=True)
            live = np.flatnonzero(s.phase != engine.OVER)
        est = estimate(s, self.params)
        n = s.num_players.astype(np.int64)
        present = np.arange(P)[None, :] < n[:, None]
        z = np.where(present, est / self.temperature, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True), acts


def _heuristic(state: engine.State, seed: int, params: StrongParams) -> np.ndarray:
    """int64[B]: the strong heuristic's action in every running game of ``state`` (0 in finished ones)."""
    running = state.current_player >= 0
    if running.all():
        return strong_actions(state, seed, None, params)
    out = np.zeros(state.batch_size, np.int64)
    out[running] = strong_actions(engine.take(state, np.flatnonzero(running)), seed, None, params)
    return out


def _step_rows(state: engine.State, rows: np.ndarray, actions: np.ndarray) -> None:
    """Play ``actions`` in the games ``rows`` (bool[B]) of ``state``, in place; the other games stay as they are
    (set aside as finished for the one step: the engine ignores a finished game's action)."""
    held = state.terminated.copy()
    np.logical_or(held, ~rows, out=state.terminated)
    try:
        engine.step(state, actions, inplace=True)
    finally:
        state.terminated[:] = held | (state.terminated & rows)


def estimate(state: engine.State, params: StrongParams | None = None) -> np.ndarray:
    """float64[B, P]: estimated final scores: the final score of a finished game; else the points so far, the
    links and bonuses of developed fields, jokers and subsidy, money (worth more while fields remain to be
    bought) and the strong heuristic's positive values of the own fields still to develop."""
    prm = params or StrongParams()
    out = engine.scores(state).astype(np.float64)
    live = np.flatnonzero(state.phase != engine.OVER)
    if live.size:
        sl = engine.take(state, live) if live.size < state.batch_size else state
        a = assessment(sl, prm)
        left = (~sl.claimed).sum(axis=1) / sl.claimed.shape[1]  # the share of fields still to be auctioned
        per_taler = 1.0 / TALERS_PER_POINT + (prm.taler_value - 1.0 / TALERS_PER_POINT) * left
        pending = (np.maximum(a.value, 0.0) * a.und).sum(axis=2)
        est = a.standing - sl.money / TALERS_PER_POINT + sl.money * per_taler[:, None] + pending
        out[live] = np.where(np.arange(P)[None, :] < sl.num_players[:, None], est, 0.0)
    return out


__all__ = ["MCTSAgent", "candidates", "estimate"]
