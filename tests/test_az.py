"""The network agents (``az``: a policy-value network guiding the game's search player; ``net``: its policy alone)
and their file: the value network a policy file may hold, the search's network evaluator and guide, what the
agents play and what they refuse. Tiny random networks written in a temporary folder stand in for trained ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from industry_env.agents import AgentInputError, make_agent
from industry_env.agents.az import AZAgent, NetAgent, load_network
from industry_env.agents.ppo import (
    NumpyActor,
    PPOAgent,
    ValueHead,
    export_policy,
    load_actor,
    load_value_head,
    save_policy_value,
)
from industry_env.agents.search import (
    MixedEvaluator,
    NetworkEvaluator,
    NetworkGuide,
    RolloutEvaluator,
    outcome_values,
)

from industry_env.registry import load_game

GAMES = ("industry", "age_of_industry", "twentieth_century")
QUICK = {"simulations": 8, "batch": 4}  # a small search, for speed


def _layer(rng: np.random.Generator, inputs: int, outputs: int) -> tuple[np.ndarray, np.ndarray]:
    w = rng.normal(0, 1 / np.sqrt(inputs), (outputs, inputs)).astype(np.float32)
    return w, rng.normal(0, 0.1, outputs).astype(np.float32)


def tiny_network(game: str, folder: Path, seed: int = 0, hidden: int = 8, name: str = "tiny.npz"
                 ) -> tuple[Path, list, list, float, float]:  # fmt: skip
    """A random policy-value file of ``game`` (one hidden tanh layer a head): its path, the actor's and the value
    network's layers, and the value normalisation (mean, std)."""
    spec = load_game(game)
    D, A = spec.observation_size(), spec.num_actions()
    rng = np.random.default_rng(seed)
    actor = [_layer(rng, D, hidden), _layer(rng, hidden, A)]
    value = [_layer(rng, D, hidden), _layer(rng, hidden, 1)]
    mean, std = 0.25, 0.5
    path = save_policy_value(NumpyActor(actor, "Tanh"), ValueHead(value, "Tanh", mean, std), folder / name, game)
    return path, actor, value, mean, std


def _mlp(x: np.ndarray, layers: list) -> np.ndarray:
    """What numpy computes of tanh layers (none after the last), in float64."""
    x = x.astype(np.float64)
    for k, (w, b) in enumerate(layers):
        x = x @ w.astype(np.float64).T + b
        if k < len(layers) - 1:
            x = np.tanh(x)
    return x


def _positions(game: str, n: int, seed: int, steps: int = 40):
    """A batch of ``n`` running positions of random 4-player games, ``steps`` random moves in."""
    E = load_game(game).engine
    s = E.init(n, num_players=4, seed=np.arange(seed, seed + n))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        live = np.asarray(s.current_player) >= 0
        if not live.all():
            break
        E.step(s, E.sample_legal(E.legal_action_mask(s), rng), inplace=True)
    keep = np.flatnonzero(np.asarray(s.current_player) >= 0)
    return E.take(s, keep)


# ---------------------------------------------------------------------------------------------- the file
def test_a_policy_value_file_holds_both_networks_and_the_ppo_agent_still_reads_its_policy(tmp_path: Path) -> None:
    path, actor, value, mean, std = tiny_network("industry", tmp_path)
    s = _positions("industry", 6, seed=1)
    E = load_game("industry").engine
    obs = E.observe(s)
    head = load_value_head(path, "industry")
    np.testing.assert_allclose(head(obs), _mlp(obs, value)[:, 0] * std + mean, rtol=1e-5, atol=1e-5)
    net = load_network(path, "industry")
    np.testing.assert_allclose(net.logits(obs), _mlp(obs, actor), rtol=1e-5, atol=1e-5)
    ppo = PPOAgent(path=path, game="industry")
    mask = E.legal_action_mask(s)
    np.testing.assert_array_equal(ppo.act_batch(obs, mask), np.where(mask, _mlp(obs, actor), -np.inf).argmax(1))
    # the same actor written without a value network: the policy reads the same, and there is no value network
    plain = export_policy(path, tmp_path / "plain.npz", "industry")
    assert load_value_head(plain, "industry") is None
    np.testing.assert_array_equal(PPOAgent(path=plain, game="industry").act_batch(obs, mask), ppo.act_batch(obs, mask))


def test_a_native_checkpoint_exports_its_value_network_with_the_normalisation_undone(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from industry_env.agents.ppo import export_policy_value
    from industry_env.train.native import save_checkpoint
    from industry_env.train.nets import ActorCritic, ObsCodec, Packed

    spec = load_game("industry")
    D, A = spec.observation_size(), spec.num_actions()
    torch.manual_seed(0)
    net = ActorCritic(D, A, [16, 8], ObsCodec(D))
    with torch.no_grad():
        net.value_net.weight.normal_()  # SB3's initialisation gives values near 0: make them tell apart
    opt = torch.optim.Adam(net.parameters())
    data = {"framework": "native", "num_timesteps": 1, "value_norm": {"mean": 0.3, "var": 4.0, "count": 9.0},
            **net.sb3_data("industry", [16, 8])}  # fmt: skip
    save_checkpoint(tmp_path / "final.zip", net, opt, data)
    out = export_policy_value(tmp_path / "final.zip", tmp_path / "pv.npz", "industry")
    obs = spec.engine.observe(_positions("industry", 5, seed=2))
    with torch.no_grad():
        logits, v = net(Packed(torch.from_numpy(obs)))
    pv = load_network(out, "industry")
    np.testing.assert_allclose(pv.values(obs), v.numpy() * 2.0 + 0.3, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(pv.logits(obs), logits.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(load_network(tmp_path / "final.zip", "industry").values(obs), pv.values(obs), atol=1e-6)


# ---------------------------------------------------------------------------------------------- the search's parts
def test_the_evaluator_values_every_seat_on_its_own_observation_in_one_forward(tmp_path: Path) -> None:
    path, _, value, mean, std = tiny_network("industry", tmp_path)
    net = load_network(path, "industry")
    calls = []

    def values(obs: np.ndarray) -> np.ndarray:
        calls.append(obs.shape[0])
        return net.values(obs)

    az = make_agent("az", game="industry", path=str(path), seed=0)
    game = az.search.search_game
    E = game.engine
    s = _positions("industry", 5, seed=3)
    got = NetworkEvaluator(values).evaluate(game, E.copy(s), np.random.default_rng(0))
    assert calls == [4 * 5]  # four seats of five positions: one call
    for q in range(4):
        want = _mlp(E.observe(s, np.full(5, q)), value)[:, 0] * std + mean
        np.testing.assert_allclose(got[:, q], want, rtol=1e-5, atol=1e-5)


def test_a_finished_game_is_valued_by_its_outcome() -> None:
    E = load_game("industry").engine
    s = E.init(6, num_players=3, seed=5)
    rng = np.random.default_rng(5)
    while not E.finished(s).all():
        E.step(s, E.sample_legal(E.legal_action_mask(s), rng), inplace=True)
    v = NetworkEvaluator(lambda obs: np.zeros(obs.shape[0])).evaluate(
        type("G", (), {"engine": E, "max_players": 4})(), s, rng
    )
    key = E.ranking(s)[:, :3]
    winner = key == key.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(v[:, :3], np.where(winner, 1.0, -1.0))
    assert (v[:, 3] == 0).all()
    np.testing.assert_array_equal(outcome_values(E, s, 4), v)


def test_the_guide_gives_the_policys_top_moves_and_the_heuristics_with_their_probabilities(tmp_path: Path) -> None:
    path, actor, _, _, _ = tiny_network("age_of_industry", tmp_path, seed=4)
    az = make_agent("az", game="age_of_industry", path=str(path), seed=0)
    game = az.search.search_game
    E = game.engine
    s = _positions("age_of_industry", 8, seed=4, steps=30)
    masks = E.legal_action_mask(s)
    guide = NetworkGuide(load_network(path, "age_of_industry").logits, 3)
    heuristic = game.candidates(s, masks, np.random.default_rng(1))
    cands, priors = guide.candidates(game, s, masks, np.random.default_rng(1))
    z = np.where(masks, _mlp(E.observe(s), actor), -np.inf)
    prob = np.exp(z - z.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    searched = game.searched(s) & (masks.sum(axis=1) > 1)
    assert searched.sum() >= 3
    for i in range(s.batch_size):
        if not searched[i]:
            assert priors[i] is None and cands[i].tolist() == heuristic[i][:1].tolist()
            continue
        top = [a for a in np.argsort(-z[i], kind="stable")[:3].tolist() if masks[i, a]]
        assert cands[i].tolist() == top + ([] if heuristic[i][0] in top else [int(heuristic[i][0])])
        np.testing.assert_allclose(priors[i], prob[i, cands[i]], rtol=1e-5)


def test_the_guided_tree_policy_follows_the_priors_where_the_values_are_equal(tmp_path: Path) -> None:
    """With every leaf worth the same, PUCT spends the visits by the priors: the most probable candidate is the
    most visited (UCT would visit the candidates in turn, the heuristic's first)."""
    path, *_ = tiny_network("industry", tmp_path, seed=6)
    az = make_agent("az", game="industry", path=str(path), seed=0, simulations=64, batch=1, tree_depth=1)
    az.search.evaluator = NetworkEvaluator(lambda obs: np.zeros(obs.shape[0]))
    s = _positions("industry", 12, seed=6, steps=10)
    E = load_game("industry").engine
    obs, masks = E.observe(s), E.legal_action_mask(s)
    checked = 0
    for i in range(s.batch_size):
        az.act(obs[i], masks[i])
        root = az.last_root
        if root is None or root.prior is None:
            continue
        visits = [root.children[a].visits if a in root.children else 0 for a in root.actions.tolist()]
        assert root.actions[int(np.argmax(visits))] == root.actions[int(np.argmax(root.prior))]
        checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------------------------- the agents
@pytest.mark.parametrize("game", GAMES)
def test_make_agent_builds_both_agents_of_every_game_which_play_legal_seeded_moves(game: str, tmp_path: Path) -> None:
    path, *_ = tiny_network(game, tmp_path, seed=7)
    assert {"az", "net"} <= set(load_game(game).agents)
    s = _positions(game, 6, seed=8, steps=35)
    E = load_game(game).engine
    obs, masks = E.observe(s), E.legal_action_mask(s)
    az = make_agent("az", game=game, path=str(path), seed=3, **QUICK)
    assert isinstance(az, AZAgent) and az.game == game
    a = az.act_batch(obs, masks)
    assert masks[np.arange(a.size), a].all()
    np.testing.assert_array_equal(make_agent("az", game=game, path=str(path), seed=3, **QUICK).act_batch(obs, masks), a)
    net = make_agent("net", game=game, path=str(path))
    assert isinstance(net, NetAgent) and net.name == "net"
    b = net.act_batch(obs, masks)
    np.testing.assert_array_equal(b, make_agent("ppo", game=game, path=str(path)).act_batch(obs, masks))
    by_prefix = make_agent(f"az:{path}", game=game, seed=3, **QUICK)
    np.testing.assert_array_equal(by_prefix.act_batch(obs, masks), a)


def test_az_cannot_see_what_its_seat_cannot(tmp_path: Path) -> None:
    """The true game and a redeal of the unseen cards (``spec.resample``: the same observation) get the same move
    from az agents seeded alike (Age of Industry: the hands and the deck)."""
    from industry_env.games.age_of_industry import Game

    path, *_ = tiny_network("age_of_industry", tmp_path, seed=9)
    rng = np.random.default_rng(8)
    searched = 0
    for seed in range(4):
        game = Game(4, seed=seed)
        for _ in range(40 + 7 * seed):
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
        seat = game.current_player
        other = game.resample(seat, rng=100 + seed)
        assert any(game.s.hand[q] != other.s.hand[q] for q in range(4) if q != seat) or game.s.deck != other.s.deck
        np.testing.assert_array_equal(game.observe(seat), other.observe(seat))
        a = make_agent("az", game="age_of_industry", path=str(path), seed=21, **QUICK)
        b = make_agent("az", game="age_of_industry", path=str(path), seed=21, **QUICK)
        assert a.act_game(game) == b.act_game(other)
        searched += a.last_root is not None
    assert searched >= 2


def test_az_plays_a_whole_game_in_the_arena(tmp_path: Path) -> None:
    from industry_env.arena import Arena

    path, *_ = tiny_network("industry", tmp_path, seed=10)
    az = make_agent("az", game="industry", path=str(path), seed=1, simulations=4, batch=4)
    results = Arena([az, f"net:{path}", "heuristic"], game="industry", games=3, seed=1).run()
    assert results.games == 3 and np.isfinite(results.points).all()


@pytest.mark.parametrize(
    ("name", "params", "says"),
    [
        ("az", {"simulations": 0}, "simulations=0"),
        ("az", {"top_k": 0}, "top_k=0"),
        ("az", {"exploration": -1.0}, "exploration=-1.0"),
        ("az", {"batch": 1.5}, "batch=1.5"),
        ("az", {"opponents": "nobody"}, "opponents='nobody'"),
        ("az", {"threads": 0}, "threads=0"),
        ("az", {"map": "germany"}, "map='germany': Industry has no maps"),
        ("az", {"determinizations": -1}, "determinizations=-1"),
        ("az", {"value": "oracle"}, "value='oracle': one of network, rollout, mix"),
        ("az", {"value": "mix", "mix": 1.5}, "mix=1.5: the value head's weight"),
        ("az", {"value": "mix", "mix": -0.1}, "mix=-0.1"),
        ("net", {"threads": 0}, "threads=0"),
    ],
)
def test_bad_parameters_are_refused_by_name(name: str, params: dict, says: str, tmp_path: Path) -> None:
    path, *_ = tiny_network("industry", tmp_path)
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(".", r"\.")):
        make_agent(name, game="industry", path=str(path), **params)


def test_a_policy_without_a_value_network_or_no_file_is_refused_saying_what_to_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import industry_env.agents.az as az_module

    path, *_ = tiny_network("industry", tmp_path)
    plain = export_policy(path, tmp_path / "plain.npz", "industry")
    with pytest.raises(AgentInputError, match="without a value network; az needs both"):
        make_agent("az", game="industry", path=str(plain))
    monkeypatch.setattr(az_module, "shipped_network", lambda game: tmp_path / "none.npz")  # as a game shipping none
    for game, name in (("twentieth_century", "20th Century"), ("age_of_industry", "Age of Industry")):
        for agent in ("az", "net"):  # a game that ships no network: the message says what to pass
            with pytest.raises(AgentInputError, match=rf"{name} ships no trained policy-value network: pass path= "
                                                      rf"\(a policy-value \.npz"):  # fmt: skip
                make_agent(agent, game=game)
    other, *_ = tiny_network("age_of_industry", tmp_path, name="other.npz")
    with pytest.raises(ValueError, match="Age of Industry"):
        make_agent("az", game="industry", path=str(other))
    bad = load_actor(path, "industry", backend="numpy")
    with pytest.raises(AgentInputError, match="value layer 0 takes 3 inputs"):
        save_policy_value(bad, ValueHead([(np.ones((1, 3), np.float32), np.zeros(1, np.float32))], "Tanh"),
                          tmp_path / "bad.npz", "industry")  # fmt: skip
    assert not (tmp_path / "bad.npz").exists()


@pytest.mark.parametrize("game", GAMES)
def test_a_game_that_ships_a_network_plays_az_and_net_without_a_path_and_packages_the_file(game: str) -> None:
    import tomllib

    from industry_env.agents.az import shipped_network

    file = shipped_network(game)
    assert file.is_file() and load_value_head(file, game) is not None  # a policy-value file, the value head in it
    data = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert file.name in data["package-data"][f"industry_env.games.{game}.data"]
    s = _positions(game, 4, seed=11, steps=30)
    E = load_game(game).engine
    obs, masks = E.observe(s), E.legal_action_mask(s)
    az = make_agent("az", game=game, seed=0, **QUICK)
    assert az.path == file
    a = az.act_batch(obs, masks)
    assert masks[np.arange(a.size), a].all()
    net = make_agent("net", game=game)
    np.testing.assert_array_equal(net.act_batch(obs, masks), make_agent(f"ppo:{file}", game=game).act_batch(obs, masks))


def test_az_can_value_its_leaves_by_the_search_players_own_rollouts(tmp_path: Path) -> None:
    """A value head that barely ranks positions (the PPO critic's) can be left out: ``value="rollout"`` keeps the
    search player's evaluator (its rollouts and value) and only the network's priors guide the tree."""
    path, *_ = tiny_network("industry", tmp_path, seed=5)
    rollout = make_agent("az", game="industry", path=str(path), seed=2, value="rollout", **QUICK)
    network = make_agent("az", game="industry", path=str(path), seed=2, **QUICK)
    assert isinstance(network.search.evaluator, NetworkEvaluator)
    assert isinstance(rollout.search.evaluator, RolloutEvaluator)
    assert rollout.search.evaluator.depth == make_agent("mcts", game="industry").rollout_depth > 0
    assert isinstance(rollout.search.guide, NetworkGuide)
    s = _positions("industry", 4, seed=3, steps=20)
    E = load_game("industry").engine
    obs, masks = E.observe(s), E.legal_action_mask(s)
    a = rollout.act_batch(obs, masks)
    assert masks[np.arange(a.size), a].all()


@pytest.mark.parametrize("game", ["industry", "twentieth_century"])
def test_a_mixed_leaf_value_weighs_the_value_heads_and_the_rollouts_on_the_games_scale(game: str,
                                                                                         tmp_path: Path) -> None:
    """AlphaGo's mixing (``value="mix"``): ``mix`` times the value head's plus ``1 - mix`` times the search
    player's own value, the head's outcome units (-1 to 1) mapped onto Industry's shares of the win (0 to 1) and kept
    as they are on 20th Century's margins (-1 to 1)."""
    path, *_ = tiny_network(game, tmp_path, seed=7)
    az = make_agent("az", game=game, path=str(path), seed=2, value="mix", mix=0.25, **QUICK)
    assert isinstance(az.search.evaluator, MixedEvaluator) and az.search.evaluator.weight == 0.25
    game_hooks, E = az.search.search_game, load_game(game).engine
    s = _positions(game, 4, seed=3, steps=20)
    rng = np.random.default_rng(0)
    head = NetworkEvaluator(az.network.values).evaluate(game_hooks, E.copy(s), rng)
    rolled = RolloutEvaluator(0).evaluate(game_hooks, E.copy(s), rng)  # depth 0: the game's value, no draw
    mixed = MixedEvaluator(NetworkEvaluator(az.network.values), RolloutEvaluator(0), 0.25)
    got = mixed.evaluate(game_hooks, E.copy(s), rng)
    on_scale = (head + 1.0) / 2.0 if game == "industry" else head
    np.testing.assert_allclose(got, 0.25 * on_scale + 0.75 * rolled)
    assert game_hooks.value_scale == ("share" if game == "industry" else "margin")
    if game == "industry":  # the shares of the win sum to one, the mixed values too
        np.testing.assert_allclose(rolled.sum(axis=1), 1.0)
        assert ((got >= 0.0) & (got <= 1.0)).all()
    obs, masks = E.observe(s), E.legal_action_mask(s)
    a = az.act_batch(obs, masks)
    assert masks[np.arange(a.size), a].all()


def test_az_takes_its_priors_from_another_policy_an_older_layouts_included(tmp_path: Path) -> None:
    """``priors=`` puts another policy's probabilities on the candidates (the network keeps the leaves' values):
    20th Century's shipped ``ppo``, of the older window layout, is translated to today's actions as ppo plays it."""
    path, actor, *_ = tiny_network("twentieth_century", tmp_path, seed=7)
    az = make_agent("az", game="twentieth_century", path=str(path), seed=0, priors="ppo", **QUICK)
    ppo = make_agent("ppo", game="twentieth_century")
    assert ppo.older_layout is not None and az.priors.older_layout is not None
    assert isinstance(az.search.evaluator, NetworkEvaluator)
    s = _positions("twentieth_century", 6, seed=5, steps=30)
    E = load_game("twentieth_century").engine
    obs, masks = E.observe(s), E.legal_action_mask(s)
    np.testing.assert_allclose(az.prior_logits(obs)[masks], ppo.logits(obs, masks)[masks], rtol=1e-4, atol=1e-4)
    assert not np.allclose(az.prior_logits(obs)[masks], _mlp(obs, actor)[masks], atol=1e-2)  # not its own policy
    a = az.act_batch(obs, masks)
    assert masks[np.arange(a.size), a].all()
    assert "priors=" in repr(az)
    for bad in (3, ""):
        with pytest.raises(AgentInputError, match=f"priors={bad!r}: 'network'"):
            make_agent("az", game="twentieth_century", path=str(path), priors=bad)
    with pytest.raises(AgentInputError, match="no such file"):
        make_agent("az", game="twentieth_century", path=str(path), priors=str(tmp_path / "none.npz"))
    other, *_ = tiny_network("industry", tmp_path, name="industry.npz")
    with pytest.raises(ValueError, match="Industry"):
        make_agent("az", game="twentieth_century", path=str(path), priors=str(other))


def test_the_shipped_network_takes_its_games_priors_and_a_given_network_its_own_policy(tmp_path: Path) -> None:
    """20th Century's shipped az searches with the shipped ppo policy's priors (PRIORS); a network given by path=
    (search self-play's, a user's) is searched with its own policy unless priors= says otherwise."""
    from industry_env.agents.az import LEAF_VALUES, PRIORS
    from industry_env.agents.ppo import shipped_path

    assert PRIORS == {"twentieth_century": "ppo", "industry": "ppo"} and LEAF_VALUES == {"industry": "rollout"}
    for game in PRIORS:
        shipped = make_agent("az", game=game, seed=0, **QUICK)
        assert shipped.priors is not None and shipped.priors.path == shipped_path(game)
        assert make_agent("az", game=game, seed=0, priors="network", **QUICK).priors is None
    assert make_agent("az", game="age_of_industry", seed=0, **QUICK).priors is None
    path, *_ = tiny_network("twentieth_century", tmp_path)
    assert make_agent("az", game="twentieth_century", path=str(path), **QUICK).priors is None
    # Industry's shipped az values its leaves by the search player's rollouts; a given network by its value head
    assert isinstance(make_agent("az", game="industry", seed=0, **QUICK).search.evaluator, RolloutEvaluator)
    assert isinstance(make_agent("az", game="twentieth_century", seed=0, **QUICK).search.evaluator, NetworkEvaluator)
    mine, *_ = tiny_network("industry", tmp_path, name="mine.npz")
    given = make_agent("az", game="industry", path=str(mine), **QUICK)
    assert given.priors is None and isinstance(given.search.evaluator, NetworkEvaluator)
    assert isinstance(make_agent("az", game="industry", value="network", **QUICK).search.evaluator, NetworkEvaluator)
