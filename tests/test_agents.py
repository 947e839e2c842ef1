"""The agent interface: made by name, legal and seeded play, clear refusals, and the batched heuristic equal to
its readable twin action for action."""

from __future__ import annotations

import numpy as np
import pytest
from industry_env.agents import (
    AGENTS,
    Agent,
    AgentInputError,
    CallableAgent,
    HeuristicAgent,
    HeuristicV0Agent,
    RandomAgent,
    ReferenceHeuristicV0,
    as_agent,
    heuristic_actions,
    make_agent,
    tie_noise,
)
from industry_env.agents.industry.strong_heuristic import strong_actions, strong_values

from industry_env.games.industry import actions as A
from industry_env.games.industry import engine
from industry_env.games.industry.observation import OBS_DIM, observe_game
from industry_env.games.industry.reference import Game


def _play(agents: list[Agent], batch: int, num_players: int, seed: int) -> tuple[engine.State, np.ndarray]:
    """Play ``batch`` games to the end, seat q played by ``agents[q]`` through act_batch; illegal moves raise.

    Returns the final State and each game's returns (+1 for each winner, -1 for the others).
    """
    s = engine.init(batch, num_players=num_players, seed=seed)
    returns = np.zeros((batch, 4), np.float32)
    while not s.terminated.all():
        live = np.flatnonzero(~s.terminated)
        obs, mask = engine.observe(s), engine.legal_action_mask(s)
        actions = np.zeros(batch, np.int64)
        for q, agent in enumerate(agents):
            rows = live[s.current_player[live] == q]
            if rows.size:
                actions[rows] = agent.act_batch(obs[rows], mask[rows])
        s = engine.step(s, actions)  # on_illegal="raise": an illegal choice fails the test
        returns += s.rewards
    return s, returns


def _positions(seed: int, batch: int = 24, every: int = 5, explore: float = 0.3) -> engine.State:
    """Snapshots of 3- and 4-player games played by the heuristic with some random moves: every phase."""
    rng = np.random.default_rng(seed)
    s = engine.init(batch, num_players=np.where(np.arange(batch) % 2 == 0, 4, 3), seed=seed)
    snaps, t = [], 0
    while not s.terminated.all():
        live = np.flatnonzero(~s.terminated)
        if t % every == 0:
            snaps.append(engine.take(s, live))
        mask = engine.legal_action_mask(s)
        actions = engine.sample_legal(mask, rng)
        sub = engine.take(s, live)
        greedy = live[rng.random(live.size) >= explore]
        actions[greedy] = heuristic_actions(sub, seed, mask[live])[np.isin(live, greedy)]
        s = engine.step(s, actions)
        t += 1
    return engine.concat(snaps)


_OURS = ("random", "heuristic", "heuristic-v0")  # the fast agents; mcts has tests/industry/test_mcts.py


def test_agents_are_made_by_name() -> None:
    assert {"random", "heuristic", "heuristic-v0", "mcts"} <= set(AGENTS)
    for name in (*_OURS, "mcts"):
        agent = make_agent(name, seed=0)
        assert isinstance(agent, Agent) and agent.name == name
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    assert make_agent("heuristic-v0", seed=1, greed=1.5).greed == 1.5
    assert make_agent("heuristic", seed=1, taler_value=2.0).params.taler_value == 2.0
    assert isinstance(make_agent("industry_env.agents:RandomAgent", seed=2), RandomAgent)
    with pytest.raises(ValueError, match="unknown agent 'alphazero'.*random, heuristic, heuristic-v0"):
        make_agent("alphazero")
    with pytest.raises(ValueError, match=r"no parameter 'greed' \(it takes: seed\)"):
        make_agent("random", greed=2.0)
    with pytest.raises(ValueError, match="cannot import module 'no_such_module'"):
        make_agent("no_such_module:policy")
    with pytest.raises(ValueError, match="has no attribute 'nothing'"):
        make_agent("industry_env.agents:nothing")
    with pytest.raises(ValueError, match="seed"):
        make_agent("random", seed=-1)


def test_a_users_function_is_an_agent_by_module_name(tmp_path, monkeypatch) -> None:
    (tmp_path / "my_policy.py").write_text(
        "import numpy as np\n\ndef last_legal(observation, action_mask):\n"
        "    return int(np.flatnonzero(action_mask)[-1])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = make_agent("my_policy:last_legal")
    assert isinstance(agent, CallableAgent)
    game = Game(4, seed=0)
    assert agent.act_game(game) == game.legal_actions()[-1] == A.SUBSIDY
    with pytest.raises(ValueError, match="plain function"):
        make_agent("my_policy:last_legal", seed=1)


@pytest.mark.parametrize("num_players", [3, 4])
def test_every_agent_plays_only_legal_actions_to_the_end(num_players: int) -> None:
    agents = [make_agent(name, seed=q) for q, name in enumerate(["heuristic", "random", "heuristic-v0", "random"])]
    s, _ = _play(agents[:num_players], 8, num_players, seed=11)
    assert s.claimed.all() and (s.phase == engine.OVER).all()


def test_same_seed_same_moves() -> None:
    for name in ("random", "heuristic"):
        ends = []
        for _ in range(2):
            agents = [make_agent(name, seed=7 + q) for q in range(3)]
            ends.append(engine.scores(_play(agents, 2, 3, seed=3)[0]))
        np.testing.assert_array_equal(ends[0], ends[1], err_msg=name)
    a, b = RandomAgent(5), RandomAgent(5)
    mask = np.zeros(A.NUM_ACTIONS, bool)
    mask[[5, 60, 313]] = True
    obs = np.zeros(OBS_DIM, np.float32)
    picks = [a.act(obs, mask) for _ in range(200)]
    assert picks == [b.act(obs, mask) for _ in range(200)] and set(picks) == {5, 60, 313}


def test_batched_heuristic_chooses_as_its_readable_twin() -> None:
    _compare_with_twin(engine.concat([_positions(seed) for seed in (0, 1)]))


@pytest.mark.slow
def test_batched_heuristic_chooses_as_its_readable_twin_long() -> None:
    for seed in range(2, 42):
        _compare_with_twin(_positions(seed, batch=32, every=3, explore=0.1 + 0.02 * (seed % 20)))


def _compare_with_twin(s: engine.State) -> None:
    """heuristic_actions on ``s``, the agent on its observations, and the readable twin on its Games agree."""
    assert set(np.unique(s.phase).tolist()) == set(range(5)), "every decision phase is tested"
    assert set(np.unique(s.num_players).tolist()) == {3, 4}
    seeds = np.arange(s.batch_size) % 3 * 1_000_003  # agents of several seeds
    batched = heuristic_actions(s, seeds)
    # the same agent acting from the observations of the seat to move (the bag rebuilt at random)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    for seed in (0, 1_000_003, 2_000_006):
        rows = np.flatnonzero(seeds == seed)
        agent = HeuristicV0Agent(seed)
        np.testing.assert_array_equal(agent.act_batch(obs[rows], mask[rows]), batched[rows])
        np.testing.assert_array_equal([agent.act(obs[i], mask[i].astype(np.int8)) for i in rows[:50]],
                                      batched[rows[:50]])  # fmt: skip
    twins = {int(x): ReferenceHeuristicV0(int(x)) for x in np.unique(seeds)}
    for i in range(s.batch_size):
        game = engine.to_game(s, i)
        assert twins[int(seeds[i])].act(game) == batched[i], (i, game.phase)
    counts = np.bincount(s.phase, minlength=5)
    assert counts.min() >= 20, counts


def test_act_state_equals_act_batch_on_the_observations() -> None:
    s = _positions(5, batch=8, every=11)
    mask = engine.legal_action_mask(s)
    for name in _OURS:
        direct = make_agent(name, seed=3).act_state(s, mask)
        np.testing.assert_array_equal(direct, make_agent(name, seed=3).act_batch(engine.observe(s), mask), name)
        np.testing.assert_array_equal(direct, make_agent(name, seed=3).act_state(s), name)
    over = engine.init(1, seed=0)
    over.terminated[:] = True
    for name in (*_OURS, "mcts"):
        with pytest.raises(AgentInputError, match="are over"):
            make_agent(name, seed=0).act_state(over)
    with pytest.raises(AgentInputError, match="engine State"):
        make_agent("heuristic", seed=0).act_state(Game(4, seed=0))


def test_act_game_equals_act_on_the_observation() -> None:
    game, agent = Game(3, seed=4), HeuristicAgent(9)
    rng = np.random.default_rng(0)
    while not game.is_over:
        obs, mask = observe_game(game, game.current_player), game.legal_action_mask()
        a = agent.act_game(game)
        assert a == agent.act(obs, mask)
        game.apply(a if rng.random() < 0.7 else int(rng.choice(game.legal_actions())))


def test_tie_noise_is_a_pure_function_below_a_tenth() -> None:
    x = tie_noise(np.arange(1000), 3, 17)
    assert ((x >= 0) & (x < 0.1)).all() and np.unique(x).size == 1000
    assert tie_noise(5, 3, 17) == x[5]


def test_bad_inputs_are_refused_never_a_made_up_action() -> None:
    game = Game(4, seed=0)
    obs, mask = observe_game(game, game.current_player), game.legal_action_mask()
    for agent in (make_agent("random", seed=0), make_agent("heuristic", seed=0)):
        with pytest.raises(AgentInputError, match="act_game"):
            agent.act(game)
        with pytest.raises(AgentInputError, match="mask is required"):
            agent.act(obs)
        with pytest.raises(AgentInputError, match=r"observation must have shape \[675\]"):
            agent.act(mask)  # the old RandomAgent.act(mask) call
        with pytest.raises(AgentInputError, match="no legal action"):
            agent.act(obs, np.zeros(A.NUM_ACTIONS, bool))
        with pytest.raises(AgentInputError, match=r"shape \[314\]"):
            agent.act(obs, mask[:-1])
        with pytest.raises(AgentInputError, match="float32"):
            agent.act(obs.astype(np.int32), mask)
        with pytest.raises(AgentInputError, match="bool or 0/1"):
            agent.act(obs, mask.astype(np.float32))
        with pytest.raises(AgentInputError, match=r"shape \[B, 675\]"):
            agent.act_batch(obs, mask[None])
        with pytest.raises(ValueError, match="2 observations but 1 action masks"):
            agent.act_batch(np.stack([obs, obs]), mask[None])
        with pytest.raises(TypeError):  # AgentInputError is a TypeError too
            agent.act([0.0] * OBS_DIM, mask)
    heuristic = make_agent("heuristic", seed=0)
    other = observe_game(game, (game.current_player + 1) % 4)
    with pytest.raises(AgentInputError, match="not seen from the seat to move"):
        heuristic.act(other, mask)
    while not game.is_over:
        game.apply(heuristic.act_game(game))
    with pytest.raises(AgentInputError, match="game is over"):
        heuristic.act_game(game)
    with pytest.raises(AgentInputError, match="game is over"):
        ReferenceHeuristicV0(0).act(game)
    with pytest.raises(AgentInputError, match="game is over"):
        make_agent("random", seed=0).act_game(game)
    with pytest.raises(AgentInputError, match="game is over"):
        heuristic.act(observe_game(game, 0), np.ones(A.NUM_ACTIONS, bool))
    with pytest.raises(ValueError, match="are over"):
        heuristic_actions(engine.from_games([game]))
    with pytest.raises(AgentInputError, match="greed"):
        HeuristicV0Agent(0, greed=-1.0)


def test_callables_are_wrapped_and_checked() -> None:
    game = Game(4, seed=1)
    obs, mask = observe_game(game, game.current_player), game.legal_action_mask()
    first = as_agent(lambda o, m: int(np.flatnonzero(m)[0]))
    assert first.act(obs, mask) == game.legal_actions()[0]
    assert first.act_batch(np.stack([obs, obs]), np.stack([mask, mask])).tolist() == [game.legal_actions()[0]] * 2
    with pytest.raises(AgentInputError, match=rf"answered {A.PASS} in game row 0: an illegal action.*legal actions"):
        as_agent(lambda o, m: A.PASS).act(obs, mask)  # not legal in an auction decision
    with pytest.raises(AgentInputError, match="not an integer action"):
        CallableAgent(lambda o, m: "pass").act(obs, mask)
    assert as_agent("random", seed=1).seed == 1


def test_heuristic_beats_random_players() -> None:
    wins, games = 0, 0
    for seat in range(4):
        agents: list[Agent] = [make_agent("random", seed=10 * seat + q) for q in range(4)]
        agents[seat] = make_agent("heuristic", seed=seat)
        s, returns = _play(agents, 30, 4, seed=100 * seat)
        wins += int((returns[:, seat] > 0).sum())
        games += s.batch_size
    assert wins / games > 0.6, f"heuristic won {wins} of {games} against three random players"


def test_strong_heuristic_batched_and_one_game_forms_choose_the_same() -> None:
    s = _positions(8, batch=12, every=4)
    obs, mask = engine.observe(s), engine.legal_action_mask(s)
    batched = make_agent("heuristic", seed=4).act_batch(obs, mask)
    one = make_agent("heuristic", seed=4)
    assert [one.act(obs[i], mask[i]) for i in range(s.batch_size)] == batched.tolist()
    assert np.bincount(s.phase, minlength=5).min() >= 5  # every decision phase was compared


def test_strong_heuristic_never_reads_the_bag_order_or_the_seed() -> None:
    s = _positions(9, batch=12, every=4)
    mask = engine.legal_action_mask(s)
    other = engine.copy(s)
    rng = np.random.default_rng(0)
    for i in range(s.batch_size):  # the tokens still in the bag, dealt in another order; another chance seed
        pos = int(s.bag_pos[i])
        other.bag[i, pos:] = rng.permutation(s.bag[i, pos:])
    other.seed[:] = rng.integers(0, 2**62, s.batch_size)
    assert (other.bag != s.bag).any()
    np.testing.assert_array_equal(strong_actions(s, 3, mask), strong_actions(other, 3, mask))


def test_strong_heuristic_values_the_fields_it_can_use() -> None:
    s = engine.init(1, num_players=4, seed=0)
    base = strong_values(s)[0, 0]
    assert base[0] == 2.5  # a Joker field
    rich = engine.copy(s)
    costly = [28, 29, 31, 32, 40, 41]  # fields with construction costs of 3 and 4
    rich.owner[0, costly] = 0  # owned, undeveloped: a Bank (19) would save on each
    assert strong_values(rich)[0, 0, 19] > base[19] + 2
    assert strong_values(rich)[0, 1, 19] == pytest.approx(base[19], abs=0.5)  # not to another player
    linked = engine.copy(s)
    linked.owner[0, 3] = 0  # factory 3 is linked by a road to 4: field 4 gains the 3 link points
    assert strong_values(linked)[0, 0, 4] > base[4] + 2
    with pytest.raises(AgentInputError, match="taler_value"):
        make_agent("heuristic", taler_value=0.0)
    with pytest.raises(AgentInputError, match="deny"):
        make_agent("heuristic", deny=-1.0)


def test_strong_heuristic_beats_heuristic_v0_and_takes_the_subsidy() -> None:
    wins, games, subsidies = 0, 0, 0
    for seat in range(4):
        agents: list[Agent] = [make_agent("heuristic-v0", seed=10 * seat + q) for q in range(4)]
        agents[seat] = make_agent("heuristic", seed=seat)
        s, returns = _play(agents, 3, 4, seed=200 + seat)
        wins += int((returns[:, seat] > 0).sum())
        subsidies += int(s.subsidy[:, seat].sum())
        games += s.batch_size
        assert not s.subsidy[:, [q for q in range(4) if q != seat]].any()  # heuristic v0 never takes it
    assert wins / games > 0.6, f"heuristic won {wins} of {games} against three heuristic-v0 players"
    assert subsidies > 0


# ------------------------------------------------------------------------------------- every answer checked alike
class _StateAnswer(Agent):
    """An opponent acting on engine States (``act_state`` overridden, as documented) with a given answer."""

    name = "state-answerer"

    def __init__(self, answer) -> None:
        self.answer = answer

    def act_state(self, state, mask=None):
        legal = (engine.legal_action_mask(state) if mask is None else mask).argmax(axis=1)
        return self.answer(legal)


@pytest.mark.parametrize(
    ("answer", "says"),
    [(lambda legal: legal + 0.25, r"answered .*\.25.*not an integer action"),
     (lambda legal: legal.astype(np.float64), r"answered \d+\.0 .*a float64, not an integer"),  # no rounding
     (lambda legal: np.full_like(legal, -1), r"answered -1 .*not an action of Industry \(0\.\.313\)"),
     (lambda legal: [2**70] * len(legal), r"answered 1180591620717411303424 .*not an action of Industry"),
     (lambda legal: np.full_like(legal, 999), r"answered 999 .*legal actions: \d+ \(")],
)  # fmt: skip
def test_an_opponents_answer_is_checked_whichever_method_gave_it(answer, says) -> None:
    from industry_env.agents import AgentActionError

    from industry_env.envs.single import IndustryEnv

    env = IndustryEnv(num_players=4, opponents=_StateAnswer(answer), learner_seat=0)
    obs, info = env.reset(seed=0)
    with pytest.raises(AgentActionError, match="agent 'state-answerer' " + says):
        while True:  # the opponents answer after the learner's moves
            obs, _, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert not term


@pytest.mark.parametrize(
    ("answer", "says"),
    [(2**70, "answered 1180591620717411303424 in game row 0: not an action of Industry"),
     (999, r"answered 999 in game row 0: not an action of Industry \(0\.\.313\); the legal actions: 5 \(auction 1F\)"),
     (-1, "answered -1 in game row 0: not an action"), (3.0, "answered 3.0 in game row 0: a float, not an integer"),
     (True, "answered True in game row 0: a bool, not an integer"),
     (np.int64(0), r"answered 0 in game row 0: an illegal action in that game")],
)  # fmt: skip
def test_a_policys_bad_answer_names_the_agent_the_answer_and_the_legal_actions(answer, says) -> None:
    from industry_env.agents import AgentActionError

    game = Game(4, seed=1)
    obs, mask = observe_game(game, game.current_player), game.legal_action_mask()

    def policy(observation, action_mask):
        return answer

    with pytest.raises(AgentActionError, match="agent '.*policy' " + says):
        as_agent(policy).act(obs, mask)


def test_an_arena_refuses_a_float_or_huge_answer_naming_the_agent() -> None:
    from industry_env.arena import Arena, ArenaError

    class Floats(Agent):
        name = "floaty"

        def act_batch(self, observations, action_masks):  # overridden: no _choose, no check of its own
            return action_masks.argmax(axis=1) + 0.25

    with pytest.raises(ArenaError, match=r"agent 0 \(floaty\) chose illegal action .*\.25.*not an integer action"):
        Arena([Floats(), "random", "random"], num_players=3, games=3, seed=0).run()
    huge = as_agent(lambda o, m: 2**70)
    with pytest.raises(ArenaError, match=r"agent 1 .* 1180591620717411303424.*not an action of Industry"):
        Arena(["random", huge, "random"], num_players=3, games=3, seed=0).run()


def test_a_module_attr_that_is_not_a_policy_is_refused_when_loaded(tmp_path, monkeypatch) -> None:
    (tmp_path / "not_policies.py").write_text(
        "class SomeClass:\n    pass\n\ndef one_arg(observation):\n    return 0\n\nnumber = 3\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"not_policies:SomeClass.*is a class.*not a subclass of .*Agent"):
        make_agent("not_policies:SomeClass")
    with pytest.raises(ValueError, match=r"cannot be called as policy\(observation, action_mask\)"):
        make_agent("not_policies:one_arg")
    with pytest.raises(ValueError, match="neither an Agent class, an Agent, nor a callable"):
        make_agent("not_policies:number")
    with pytest.raises(ValueError, match="the class SomeClass"):
        import not_policies

        as_agent(not_policies.SomeClass)


def test_leagues_and_environments_take_a_users_function_by_name_with_a_seed(tmp_path, monkeypatch) -> None:
    from industry_env.envs import OpponentPool

    (tmp_path / "user_fn.py").write_text(
        "import numpy as np\n\ndef first(o, m):\n    return int(np.flatnonzero(m)[0])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    pool = OpponentPool(["user_fn:first", "random"], seed=3)  # seeds every member: the function takes none
    assert isinstance(pool.agents[0], CallableAgent) and pool.agents[1].seed is not None


def test_the_console_script_imports_module_attr_from_the_current_folder(tmp_path) -> None:
    """``industry-env arena --agents mymod:policy`` finds mymod.py in the current folder, as ``python -m`` does."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "industry-env"
    if not script.is_file():
        pytest.skip("the industry-env console script is not installed next to this Python")
    (tmp_path / "mypolicies.py").write_text(
        "import numpy as np\n\ndef my_policy(observation, action_mask):\n"
        "    return int(np.flatnonzero(action_mask)[-1])\n"
    )
    out = subprocess.run([str(script), "arena", "--agents", "mypolicies:my_policy,random,random", "--games", "3",
                          "--no-plot", "--no-progress", "--output-dir", str(tmp_path / "out")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "mypolicies:my_policy" in out.stdout
