"""The live games' routes: a table started, each link's view of it, moves, take-backs, seats handed to agents and
taken back, the hot-seat screen's hand-over, new links, the advisor, look-ups; a game brought back from its record.

Every answer about a live game is built for one link (:mod:`.table`) from what its seats may see: the seat's own
view (a hot-seat screen's: the seat shown now; a spectator's: the public view, as many decisions behind as the
link says). Every change is made under the game's lock, after every check: a refused request leaves the game as it
was. A change raises the game's version, which each open page's live-update stream announces (:mod:`.events`).
"""

from __future__ import annotations

import json
import threading
from importlib import resources
from typing import Any

from ..records import RecordError, opening, read_seed_file, resume
from ..registry import available_games, load_game
from .advisor import MAX_SIMULATIONS, MIN_SIMULATIONS, advise, search_name
from .events import Watchers
from .sessions import LiveGame, RequestError, Store
from .table import MAX_DELAY, MAX_LINKS, Link, links_from_doc, new_token
from .undo import first_reveal

MAX_BUDGET = MAX_SIMULATIONS  # the agents' search budget a table may choose (simulations a decision)
ADVISORS_AT_ONCE = 2  # advice computed at once (each a search of up to a few seconds of a core)
SEAT_KINDS = ("you", "person")  # besides the agents' names: the creator, another person


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def strength_lines() -> dict[str, dict[str, dict[str, str]]]:
    """The agents' ladder lines of each game (``strength.json``, beside this module)."""
    text = resources.files("industry_env.web").joinpath("strength.json").read_text(encoding="utf-8")
    return json.loads(text)["games"]


class Tables:
    """The live games' part of the server (``Server`` holds the store, the agents offered, the streams)."""

    store: Store
    offered: dict[str, list[str]]
    resuming: threading.Lock
    watchers: Watchers
    strength: dict[str, dict[str, dict[str, str]]]
    advising: threading.BoundedSemaphore

    # ------------------------------------------------------------------------------------------ agents
    def _searches(self, game_id: str, name: str) -> bool:
        """Whether agent ``name`` of ``game_id`` is a search player (it takes a budget of simulations)."""
        from ..agents import agents_of
        from ..agents.search import SearchAgent

        try:
            cls = agents_of(game_id)[name]
        except (KeyError, ValueError, ImportError, AttributeError):
            return False
        return isinstance(cls, type) and issubclass(cls, SearchAgent)

    def _chooser(self, spec: Any, options: dict[str, Any], name: str, seed: int, budget: int | None) -> Any:
        from ..agents import make_agent

        params = {"simulations": budget} if budget is not None and self._searches(spec.id, name) else {}
        return make_agent(name, seed=seed, game=spec.id, options=options, **params).act_game

    def _agent_name(self, game_id: str, name: Any, where: str) -> str:
        if name not in self.offered[game_id]:
            raise RequestError(400, f"{where}: {name!r} is not an agent offered for {load_game(game_id).name} here "
                                    f"(offered: {', '.join(self.offered[game_id])})")  # fmt: skip
        return name

    # ------------------------------------------------------------------------------------------ a new table
    def start(self, doc: dict[str, Any]) -> LiveGame:
        """A new game from a request, every field checked before anything is made."""
        game_id = doc.get("game")
        if game_id not in available_games():
            games = ", ".join(available_games())
            raise RequestError(400, f"game={game_id!r}: not a game offered here (games: {games})")
        spec = load_game(game_id)
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RequestError(400, "options: must be an object {name: value}")
        data = [o.name for o in spec.options if o.data and o.name in options]
        if data:
            raise RequestError(400, f"options.{data[0]}: a data file of {spec.name} is not chosen from the browser "
                                    f"(the shipped one is played)")  # fmt: skip
        try:
            checked = spec.check_options(options, where="options.")
        except ValueError as exc:
            raise RequestError(400, str(exc)) from None
        players = doc.get("players", spec.default_players)
        try:
            n = spec.check_num_players(players, "players")
        except ValueError as exc:
            raise RequestError(400, str(exc)) from None
        seats = self._seats(doc, game_id, n)
        you = tuple(p for p, who in enumerate(seats) if who == "you")
        if not you:
            raise RequestError(400, "seats: name at least one seat 'you' (the person starting the game plays it)")
        people = [p for p, who in enumerate(seats) if who in SEAT_KINDS]
        advisor = doc.get("advisor")
        if advisor is not None and not isinstance(advisor, bool):
            raise RequestError(400, f"advisor={advisor!r}: true (every person at the table agreed to have one) or "
                                    f"false")  # fmt: skip
        budget = doc.get("budget")
        if budget is not None and (not is_int(budget) or not 1 <= budget <= MAX_BUDGET):
            raise RequestError(400, f"budget={budget!r}: the search players' simulations a decision, a number from 1 "
                                    f"to {MAX_BUDGET} (null: their own default)")  # fmt: skip
        delay = doc.get("spectators")
        if delay is not None and (not is_int(delay) or not 0 <= delay <= MAX_DELAY):
            raise RequestError(400, f"spectators={delay!r}: a spectators' link that many decisions behind the game, "
                                    f"from 0 to {MAX_DELAY} (null: none)")  # fmt: skip
        self.store.check_room()  # before the agents play: a full server refuses at once
        seed = secrets_seed()
        game = spec.reference(n, seed=seed, **checked)
        agents: list[str | None] = [None if who in SEAT_KINDS else who for who in seats]
        choosers = [None if name is None else self._chooser(spec, checked, name, seed + 1 + p, budget)
                    for p, name in enumerate(agents)]  # fmt: skip
        creator = Link.made(you, creator=True)
        assert creator.token is not None
        links = [creator] + [Link.made((p,)) for p in people if p not in you]
        if delay is not None:
            links.append(Link.made((), delay=delay))
        live = LiveGame(spec, checked, game, you[0], agents, choosers, game_id=creator.token, links=links,
                        advisor=advisor if advisor is not None else len(people) == 1, budget=budget)  # fmt: skip
        with live.lock:
            live.play_agents()
            if live.game.is_over:
                self.store.save(live)
        self.store.add_game(live)
        return live

    def _seats(self, doc: dict[str, Any], game_id: str, n: int) -> list[str]:
        """Who plays each seat: 'you', 'person' or an agent's name (``seats``, or the older ``seat`` and
        ``agents``: your seat and an agent for each other seat)."""
        if "seats" in doc:
            if "seat" in doc or "agents" in doc:
                raise RequestError(400, "give either seats (who plays each seat) or seat and agents, not both")
            seats = doc["seats"]
            if not isinstance(seats, list) or len(seats) != n:
                raise RequestError(400, f"seats: a list of {n} entries, one for each seat in order: 'you', "
                                        f"'person' (another person, who gets a link of their own) or an agent's "
                                        f"name")  # fmt: skip
            for p, who in enumerate(seats):
                if who not in SEAT_KINDS:
                    self._agent_name(game_id, who, f"seats[{p}]")
            return list(seats)
        seat = doc.get("seat", 0)
        if not is_int(seat) or not 0 <= seat < n:
            raise RequestError(400, f"seat={seat!r}: your seat is a number from 0 to {n - 1}")
        agents = doc.get("agents", [self.offered[game_id][0]] * (n - 1))
        if isinstance(agents, str):
            agents = [agents] * (n - 1)
        if not isinstance(agents, list) or len(agents) != n - 1:
            raise RequestError(400, f"agents: a list of {n - 1} agent names, one for each other seat in order")
        for name in agents:
            self._agent_name(game_id, name, "agents")
        out = list(agents)
        out.insert(seat, "you")
        return out

    # ------------------------------------------------------------------------------------------ finding a table
    def entry(self, token: str) -> tuple[LiveGame, Link]:
        """The live game a link reaches, and the link; a game pushed out by newer games, or saved while the server
        stopped, is brought back from its record (404 if the link reaches none)."""
        try:
            return self.store.entry(token)
        except RequestError:
            pass
        with self.resuming:
            try:
                return self.store.entry(token)  # brought back by another request meanwhile
            except RequestError:
                pass
            pushed = self.store.pushed(token)
            if pushed is not None:
                key, name, tokens = pushed
                self.resume(name, game_id=key, tokens=tokens)
            else:
                name = self.store.find_link(token)
                if name is None:
                    raise RequestError(404, "no such game: this link reaches no game live or saved here (it was "
                                            "never made, its game is over and the server restarted since, or its "
                                            "seat was given a new link)")  # fmt: skip
                self.resume(name)
            return self.store.entry(token)

    def live(self, token: str) -> LiveGame:
        """The live game ``token`` reaches (see :meth:`entry`)."""
        return self.entry(token)[0]

    def resume(self, name: str, game_id: str | None = None, tokens: dict[str, str] | None = None) -> LiveGame:
        """The unfinished game of the records folder's file ``name`` made live again: replayed from its seed (kept
        in its private seed file), its seats played as they were (people through their links, agents) and its
        links valid again; if that game is live already, the live game (one game a record). ``tokens``: the links'
        tokens, where this server still holds them (a game pushed out by newer ones)."""
        path = self.store.record_path(name)
        playing = self.store.playing(path.name)
        if playing is not None:
            return playing
        try:
            record, seats = resume(path)
            kept = read_seed_file(path)
            game = opening(record)
        except RecordError as exc:
            raise RequestError(409, str(exc)) from None
        spec = record.spec
        table = kept.table if kept is not None else None
        if seats is None or seats.count(None) == 0 or (table is None and seats.count(None) != 1):
            raise RequestError(409, f"{name}: its seed file does not say which seat was the person's (it was not "
                                    f"written by this server): play it on with industry-env play --resume "
                                    f"{name} --seat N")  # fmt: skip
        gone = [a for a in seats if a is not None and a not in self.offered[spec.id]]
        handed, links, advisor, budget = {}, None, None, None
        if table is not None:
            try:
                links = links_from_doc(table.get("links"), record.num_players, f"{name}'s seed file")
                handed = {int(p): a for p, a in dict(table.get("handed") or {}).items()}
                advisor, budget = table.get("advisor"), table.get("budget")
                ok = (all(p in range(record.num_players) and seats[p] is None and isinstance(a, str)
                          for p, a in handed.items()) and (advisor is None or isinstance(advisor, bool))
                      and (budget is None or (is_int(budget) and 1 <= budget <= MAX_BUDGET)))  # fmt: skip
            except (ValueError, TypeError, AttributeError) as exc:
                raise RequestError(409, f"{name}: its seed file's table cannot be read ({exc})") from None
            if not ok:
                raise RequestError(409, f"{name}: its seed file's table cannot be read (its handed seats, advisor "
                                        f"or budget)")  # fmt: skip
            gone += [a for a in handed.values() if a not in self.offered[spec.id]]
            for link in links:
                link.token = (tokens or {}).get(link.digest)
        if gone:
            raise RequestError(409, f"{name}: it was played against {gone[0]!r}, which this server does not offer "
                                    f"for {spec.name} (offered: {', '.join(self.offered[spec.id])}); start it with "
                                    f"--agents naming it")  # fmt: skip
        options = spec.check_options(spec.options_from_json(record.options))
        assert record.seed is not None  # resume() gives the seed back, or refuses
        players = [handed.get(p, who) for p, who in enumerate(seats)]
        choosers = [None if who is None else self._chooser(spec, options, who, record.seed + 1 + p, budget)
                    for p, who in enumerate(players)]  # fmt: skip
        if not links:  # one person's game saved before tables, or left by its person: a link for its seat, made now
            links = [Link.made((seats.index(None),), creator=True)]
        creator = next((link for link in links if link.creator and link.token is not None), None)
        key = game_id or (creator.token if creator is not None else new_token())
        live = LiveGame(spec, options, game, seats.index(None), seats, choosers, game_id=key, links=links,
                        advisor=advisor, budget=budget, handed=handed)  # fmt: skip
        live.recorder.undone = list(record.undone)
        with live.lock:
            for number, action in enumerate(record.actions, start=1):
                if live.game.is_over or not live.game.legal_action_mask()[action]:
                    raise RequestError(409, f"{name}: move {number} (action {action}) is not legal in its position: "
                                            f"the record does not replay")  # fmt: skip
                live.apply(action)
            live.saved_as, live.saved_ply = path.name, live.ply
            live.play_agents()
            if live.game.is_over:
                self.store.save(live)
        self.store.add_game(live)
        return live

    def resume_listed(self, name: Any) -> tuple[LiveGame, Link, str]:
        """One person's unfinished game played on from the records list (whoever reaches the server may: its
        records are theirs to read), its creator's link (a new one if this server holds none, which replaces the
        one made before the server restarted); a table of several people is played on by each seat's link only
        (409)."""
        with self.resuming:
            live = self.resume(name)
        if len(live.people) != 1:
            raise RequestError(409, f"{name}: a table of {len(live.people)} people is played on by each seat's "
                                    f"own link, not from the records list")  # fmt: skip
        with live.lock:
            link = next((x for x in live.links if x.creator and x.token is not None), None)
            if link is None:  # a new link for the seat: the one made before the server restarted stops working
                for old in [x for x in live.links if x.creator]:
                    live.links.remove(old)
                    self.store.drop_link(old)
                link = Link.made(live.people, creator=True)
                live.links.append(link)
                self.store.add_link(live, link)
        assert link.token is not None
        return live, link, link.token

    # ------------------------------------------------------------------------------------------ what a link sees
    def state(self, live: LiveGame, link: Link, token: str) -> dict[str, Any]:
        """The game as ``link`` may see it (nothing another seat holds, no seed, no deck order, no other link)."""
        view, spec = live.view, live.spec
        delayed = link.spectator and link.delay and not live.game.is_over
        shown = max(0, live.ply - link.delay) if delayed else live.ply
        g = live.position(shown)
        viewer = live.viewer(link)
        over = g.is_over
        current = -1 if over else int(g.current_player)
        handed = live.handed
        yours = viewer is not None and current == viewer and current not in handed and not link.spectator
        picture = view.picture(g, viewer)
        out: dict[str, Any] = {
            "id": token, "game": spec.id, "game_name": spec.name, "players": g.num_players, "seat": viewer,
            "role": "spectator" if link.spectator else "player", "your_seats": list(link.seats),
            "agents": ["you" if p in link.seats else "person" if a is None else a for p, a in enumerate(live.agents)],
            "ply": shown, "over": over, "to_move": current, "your_turn": yours, "decision": view.decision(g),
            "groups": view.choices(g) if yours else [],
            "history": live.history_for(viewer if viewer is not None and not link.hotseat else -1, shown),
            "scores": [int(v) for v in g.scores()], "picture": picture,
            "text": None if picture is not None else view.text(g, viewer), "places": view.places(g), "final": None,
            "record_file": live.saved_as, "version": live.version,
            "table": {"people": list(live.people), "handed": {str(p): a for p, a in handed.items()},
                      "advisor": live.advisor, "undo": self._may_undo(live, link), "hotseat": link.hotseat,
                      "handover": live.handover(link), "creator": link.creator,
                      "delay": link.delay if link.spectator else None, "budget": live.budget},
            "seats": [self._seat_info(live, p, link) for p in range(g.num_players)],
        }  # fmt: skip
        if over:
            out["final"] = {"table": view.final(g), "winners": [int(w) for w in g.winners()]}
        if link.creator:
            out["links"] = [{"seats": list(x.seats), "delay": x.delay, "creator": x.creator, "token": x.token}
                            for x in live.links]  # fmt: skip
        return out

    def _seat_info(self, live: LiveGame, p: int, link: Link) -> dict[str, Any]:
        """Who plays seat ``p``, an agent's strength (its ladder line) and thinking time."""
        agent = live.handed.get(p, live.agents[p])
        who = "you" if p in link.seats else "person" if live.agents[p] is None else "agent"
        out: dict[str, Any] = {"seat": p, "who": who, "agent": agent, "strength": None, "thinking": None}
        if agent is not None:
            line = self.strength.get(live.spec.id, {}).get(agent)
            out["strength"] = line["line"] if line else None
            decisions, total, last = live.thinking[p]
            if decisions:
                out["thinking"] = {"decisions": decisions, "mean_ms": round(1000 * total / decisions, 1),
                                   "last_ms": round(1000 * last, 1)}  # fmt: skip
            if live.budget is not None and self._searches(live.spec.id, agent):
                out["simulations"] = live.budget
        return out

    @staticmethod
    def _may_undo(live: LiveGame, link: Link) -> bool:
        """A take-back is offered to a person alone at a table of agents, on their own link."""
        return len(live.people) == 1 and link.seats == live.people

    # ------------------------------------------------------------------------------------------ changes
    def _changed(self, live: LiveGame) -> None:
        """Tell the game's open streams that it changed."""
        self.watchers.notify(live.id)

    def _check_ply(self, live: LiveGame, doc: dict[str, Any]) -> None:
        ply = doc.get("ply")
        if not is_int(ply):
            raise RequestError(400, f"ply={ply!r}: give the number of decisions played so far, as the game showed "
                                    f"it, so that a request meant for another position is refused")  # fmt: skip
        if ply != live.ply:
            raise RequestError(409, f"ply={ply}: the game is at decision {live.ply}: this was chosen in an earlier "
                                    f"position (reload the game)")  # fmt: skip

    def _acting_seat(self, live: LiveGame, link: Link) -> int:
        """The seat ``link`` may make the decision of now (409 saying why not)."""
        if link.spectator:
            raise RequestError(403, "a spectator's link watches the game: it makes no decision")
        if live.game.is_over:
            raise RequestError(409, "the game is over: no more moves (start a new game, or watch its record)")
        current = int(live.game.current_player)
        if current not in link.seats:
            raise RequestError(409, f"it is player {current}'s turn, not yours")
        if current in live.handed:
            raise RequestError(409, f"your seat {current} is played by {live.handed[current]} now: take it back "
                                    f"first")  # fmt: skip
        if live.handover(link) is not None:
            raise RequestError(409, f"player {current} is to move: hand the screen over and show that seat first "
                                    f"(POST show)")  # fmt: skip
        return current

    def move(self, live: LiveGame, link: Link, token: str, doc: dict[str, Any]) -> dict[str, Any]:
        """Play the seat's choice (checked against the game as it is now), then the agents' replies."""
        action = doc.get("action")
        with live.lock:
            if live.game.is_over:
                raise RequestError(409, "the game is over: no more moves (start a new game, or watch its record)")
            self._check_ply(live, doc)
            self._acting_seat(live, link)
            legal = live.game.legal_actions()
            if not is_int(action) or action not in legal:
                raise RequestError(
                    400,
                    f"action={action!r}: not one of your choices now ({len(legal)} choices: "
                    f"{', '.join(str(a) for a in legal[:12])}{' ...' if len(legal) > 12 else ''})",
                )
            try:
                live.apply(action)
                live.play_agents()
            finally:
                self._changed(live)
            if live.game.is_over and live.saved_as is None:
                self.store.save(live)
            return self.state(live, link, token)

    def undo(self, live: LiveGame, link: Link, token: str, doc: dict[str, Any]) -> dict[str, Any]:
        """Take back the seat's last decision and the agents' moves after it, if nothing hidden has come to light
        since (:mod:`.undo`); 409 with the reason otherwise. The record keeps what was taken back."""
        with live.lock:
            self._check_ply(live, doc)
            if link.spectator:
                raise RequestError(403, "a spectator's link takes nothing back")
            if len(live.people) != 1:
                raise RequestError(409, f"a take-back is for a person alone against agents: {len(live.people)} "
                                        f"people play this game")  # fmt: skip
            if link.seats != live.people:
                raise RequestError(403, "this link does not play the seat whose decision would be taken back")
            seat = live.people[0]
            if live.game.is_over:
                raise RequestError(409, "the game is over: nothing is taken back")
            if seat in live.handed:
                raise RequestError(409, f"your seat is played by {live.handed[seat]} now: take it back first")
            movers = [entry["player"] for entry in live.history]
            k = next((i for i in range(len(movers) - 1, -1, -1) if movers[i] == seat), None)
            if k is None:
                raise RequestError(409, "you have made no decision in this game yet: there is nothing to take back")
            line = list(live.recorder.actions)
            why = first_reveal(live.spec.id, live.position(k).clone(), line[k:], seat)
            if why is not None:
                raise RequestError(409, f"your last decision (decision {k + 1}) cannot be taken back: {why}, which "
                                        f"you did not know when you made it")  # fmt: skip
            live.recorder.take_back(k)
            try:
                live.replay_line(line[:k])
            finally:
                self._changed(live)
            return self.state(live, link, token)

    def hand(self, live: LiveGame, link: Link, token: str, doc: dict[str, Any]) -> dict[str, Any]:
        """Hand one of the link's seats to an agent (``{"seat", "agent"}``), or take it back (``"agent": null``);
        the agent plays at once if the seat is to move."""
        if link.spectator:
            raise RequestError(403, "a spectator's link plays no seat")
        seat = doc.get("seat", link.seats[0] if len(link.seats) == 1 else None)
        if not is_int(seat) or seat not in link.seats:
            raise RequestError(400, f"seat={seat!r}: one of this link's seats ({', '.join(map(str, link.seats))})")
        agent = doc.get("agent")
        if agent is not None:
            self._agent_name(live.spec.id, agent, "agent")
        with live.lock:
            if live.game.is_over:
                raise RequestError(409, "the game is over")
            if agent is None:
                if seat not in live.handed:
                    raise RequestError(409, f"seat {seat} is yours already: no agent plays it")
                del live.handed[seat]
                live.choosers[seat] = None
            else:
                live.choosers[seat] = self._chooser(live.spec, live.options, agent, secrets_seed(), live.budget)
                live.handed[seat] = agent
            live.version += 1
            try:
                live.play_agents()
            finally:
                self._changed(live)
            if live.game.is_over and live.saved_as is None:
                self.store.save(live)
            return self.state(live, link, token)

    def show(self, live: LiveGame, link: Link, token: str, doc: dict[str, Any]) -> dict[str, Any]:
        """The hot-seat screen's hand-over: the next person has the screen; their seat's view is shown."""
        seat = doc.get("seat")
        with live.lock:
            want = live.handover(link)
            if want is None:
                raise RequestError(409, "no hand-over is due on this screen (it shows the seat to move already, or "
                                        "none of its seats is to move)")  # fmt: skip
            if seat != want:
                raise RequestError(400, f"seat={seat!r}: player {want} is to move: show that seat")
            link.shown = want
            return self.state(live, link, token)

    def new_link(self, live: LiveGame, link: Link, token: str, doc: dict[str, Any]) -> dict[str, Any]:
        """The creator's: a new link for a person's seat (``{"seat"}``, the old one stops working) or a spectators'
        link (``{"spectators": delay}``)."""
        if not link.creator:
            raise RequestError(403, "only the table's creator hands out links")
        with live.lock:
            if "seat" in doc:
                seat = doc["seat"]
                old = next((x for x in live.links if not x.creator and seat in x.seats), None)
                if not is_int(seat) or old is None:
                    others = [p for p in live.people if p not in link.seats]
                    raise RequestError(400, f"seat={seat!r}: another person's seat ("
                                            f"{', '.join(map(str, others)) or 'there is none'})")  # fmt: skip
                made = Link.made(old.seats)
                live.links[live.links.index(old)] = made
                self.store.drop_link(old)
            elif "spectators" in doc:
                delay = doc["spectators"]
                if not is_int(delay) or not 0 <= delay <= MAX_DELAY:
                    raise RequestError(400, f"spectators={delay!r}: decisions behind the game, 0 to {MAX_DELAY}")
                if len(live.links) >= MAX_LINKS:
                    raise RequestError(409, f"this table has {MAX_LINKS} links, its most")
                made = Link.made((), delay=delay)
                live.links.append(made)
            else:
                raise RequestError(400, "give {'seat': a person's seat} (a new link for it) or {'spectators': delay}")
            self.store.add_link(live, made)
            if live.saved_as is not None and not live.game.is_over:
                self.store.save(live)  # the seed file names the new link's digest
            return self.state(live, link, token)

    def advice(self, live: LiveGame, link: Link, doc: dict[str, Any]) -> dict[str, Any]:
        """What the suite's agents would play in the seat's place, from the seat's view alone (:mod:`.advisor`)."""
        simulations = doc.get("simulations", 64)
        if not is_int(simulations) or not MIN_SIMULATIONS <= simulations <= MAX_SIMULATIONS:
            raise RequestError(400, f"simulations={simulations!r}: the advisor's search budget, {MIN_SIMULATIONS} to "
                                    f"{MAX_SIMULATIONS}")  # fmt: skip
        with live.lock:
            self._check_ply(live, doc)
            if not live.advisor:
                raise RequestError(403, "the advisor is off at this table: with other people at it, it is on only if "
                                        "every person agreed when the game was started")  # fmt: skip
            seat = self._acting_seat(live, link)
            spec = live.spec
            observation = spec.observe(live.game, seat)
            mask = live.game.legal_action_mask()
            labels = {c["action"]: c for group in live.view.choices(live.game) for c in group["choices"]}
            ply = live.ply
        if search_name(spec) is None and "heuristic" not in spec.agents:
            raise RequestError(409, f"{spec.name} has no agent of its own to advise")
        if not self.advising.acquire(blocking=False):
            raise RequestError(503, f"{ADVISORS_AT_ONCE} pieces of advice are being worked out already: ask again "
                                    f"in a moment")  # fmt: skip
        try:
            return {"ply": ply, "seat": seat, **advise(spec, live.options, observation, mask, simulations, labels)}
        finally:
            self.advising.release()

    def lookup(self, live: LiveGame, link: Link, key: str) -> dict[str, Any]:
        with live.lock:
            delayed = link.spectator and link.delay and not live.game.is_over
            game = live.position(max(0, live.ply - link.delay) if delayed else live.ply)
            return {"key": key, "text": self._lookup(live.view, game, key, live.viewer(link))}

    @staticmethod
    def _lookup(view: Any, game: Any, key: str, seat: int | None) -> str:
        if not key or len(key) > 80:
            raise RequestError(400, "key: name a field or location (at most 80 characters)")
        found = view.find(game, key) or key
        try:
            return view.lookup(game, found, seat)
        except ValueError as exc:
            raise RequestError(404, str(exc)) from None


def secrets_seed() -> int:
    """A new game's seed (never sent: it tells every hidden card and draw to come)."""
    import secrets

    return secrets.randbelow(2**31)


__all__ = ["ADVISORS_AT_ONCE", "MAX_BUDGET", "Tables", "strength_lines"]
