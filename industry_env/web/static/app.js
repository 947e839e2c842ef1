// industry-env serve: the page. It keeps no game of its own: every position, choice and text comes from the
// server, which answers for one seat only.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];          // GET /api/games
let live = null;         // the game being played (the server's state for our seat)
let replay = null;       // the record being watched
let replayMove = 0;
let timer = null;

function busy(on) { document.body.dataset.busy = on ? "1" : "0"; }

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const doc = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(doc.error || `${response.status} ${response.statusText}`);
  return doc;
}

async function guarded(work) {
  busy(true);
  try {
    showError("");
    await work();
  } catch (err) {
    showError(err.message);
  } finally {
    busy(false);
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function fill(select, items) {
  select.replaceChildren(...items.map(([value, label]) => el("option", { value: String(value), text: label })));
}

// ---------------------------------------------------------------------------------------------- tabs
function showTab(name) {
  for (const t of ["play", "watch", "arena"]) {
    $(t).hidden = t !== name;
    $(`tab-${t}`).classList.toggle("active", t === name);
  }
  if (name === "watch") guarded(listRecords);
  if (name === "arena") guarded(listRecords);
}

// ---------------------------------------------------------------------------------------------- setup
function currentGame() { return games.find((g) => g.id === $("game").value); }

function drawSetup() {
  const g = currentGame();
  // private information: what one player holds and the others do not see (Age of Industry's hands); a game may hide
  // only what nobody sees (20th Century's stacks and face-down catastrophes), which the page need not mention
  $("game-about").textContent = `${g.citation}. ${g.min_players} to ${g.max_players} players` +
    (g.private_information ? "; players hold cards the others do not see: you see only your own." :
      g.hidden_information ? "; nobody holds a secret: every player sees the same table (only the stacks' order " +
        "is hidden, from everyone)." : ".");
  $("options").replaceChildren(...g.options.map((o) => {
    const select = el("select", { id: `option-${o.name}` });
    fill(select, o.choices.map((c) => [JSON.stringify(c), String(c)]));
    return el("label", { title: o.doc }, `${o.name} `, select, el("span", { className: "hint", text: ` ${o.doc}` }));
  }));
  const players = [];
  for (let n = g.min_players; n <= g.max_players; n++) players.push([n, String(n)]);
  fill($("players"), players);
  $("players").value = String(g.min_players);
  $("budget-label").hidden = !g.searches.length;
  $("budget").placeholder = "its default";
  drawSeats();
}

function drawSeats() {
  const n = Number($("players").value);
  fill($("seat"), Array.from({ length: n }, (_, p) => [p, p === 0 ? "player 0 (moves first)" : `player ${p}`]));
  drawOpponents();
}

// who plays a seat: an agent, another person (a link of their own) or you too (one screen: hot-seat)
const PERSON = "person", YOU = "you";

function drawOpponents() {
  const g = currentGame();
  const n = Number($("players").value);
  const seat = Number($("seat").value);
  const rows = [];
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    const select = el("select", { className: "opponent", "data-seat": String(p) });
    fill(select, [...g.agents.map((a) => [a, g.strength[a] ? `${a}: ${g.strength[a]}` : a]),
      [PERSON, "another person (gets a link of their own)"], [YOU, "you too, on this screen (hot-seat)"]]);
    if (g.agents.includes("heuristic")) select.value = "heuristic";
    select.addEventListener("change", drawAdvisor);
    rows.push(el("label", {}, `player ${p} is played by `, select));
  }
  $("opponents").replaceChildren(...rows);
  drawAdvisor();
}

function seatsChosen() {
  const seats = Array.from({ length: Number($("players").value) }, () => YOU);
  for (const s of document.querySelectorAll(".opponent")) seats[Number(s.dataset.seat)] = s.value;
  return seats;
}

function drawAdvisor() {
  // on by default for a person alone against agents; with other people, only if every person agreed
  const people = seatsChosen().filter((w) => w === YOU || w === PERSON).length;
  $("advisor").checked = people === 1;
  $("advisor-hint").textContent = people === 1 ? "what the suite's agents would play, on request" :
    "several people play: tick it only if every one of them agreed to have the advisor";
}

async function startGame(event) {
  event.preventDefault();
  const g = currentGame();
  const options = {};
  for (const o of g.options) options[o.name] = JSON.parse($(`option-${o.name}`).value);
  const body = { game: g.id, options, players: Number($("players").value), seats: seatsChosen(),
    advisor: $("advisor").checked };
  if ($("budget").value && g.searches.length) body.budget = Number($("budget").value);
  if ($("spectate").checked) body.spectators = Number($("delay").value || 0);
  await guarded(async () => {
    live = await api("/api/play", body);
    openTable();
  });
}

// ---------------------------------------------------------------------------------------------- the game
let stream = null;       // the live-update stream of the game shown
let refreshing = null;   // a refresh in progress (notices that come meanwhile ask for one more)
let again = false;
let adviceFor = null;    // the decision the advice shown is for

function openTable() {
  $("setup").hidden = true;
  $("table").hidden = false;
  fill($("place"), [["", "choose..."], ...live.places.map((p) => [p.key, p.label])]);
  $("lookup").textContent = "";
  $("advice").replaceChildren();
  history.replaceState(null, "", `#t=${live.id}`);  // this seat's link: a reload comes back to it
  listen();
  drawGame();
}

function closeTable() {
  if (stream) stream.close();
  stream = null;
  live = null;
  history.replaceState(null, "", "/");
  $("table").hidden = true;
  $("setup").hidden = false;
  $("final-board").hidden = true;
}

function listen() {
  // the stream says only that the game changed (its version): the page then asks for its own view
  if (stream) stream.close();
  stream = new EventSource(`/api/play/${live.id}/events`);
  const mine = stream;
  stream.addEventListener("version", (e) => {
    if (mine === stream && live && JSON.parse(e.data).version !== live.version) refresh();
  });
  stream.addEventListener("closed", () => {
    mine.close();
    if (mine !== stream) return;
    stream = null;
    $("closed").hidden = false;
  });
}

function refresh() {
  // one refresh at a time; a notice that comes meanwhile asks for one more (none is lost: the flag is read and the
  // refresh let go in the same step)
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    try {
      do {
        again = false;
        try {
          const doc = await api(`/api/play/${live.id}`);
          if (live && doc.id === live.id && (doc.version !== live.version || doc.ply !== live.ply)) {
            live = doc;
            drawGame();
          }
        } catch (err) { showError(err.message); }
      } while (again && live);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

function playerName(p) {
  if (!live || !live.your_seats.includes(p)) return `player ${p}`;
  return live.your_seats.length > 1 ? `player ${p} (you)` : "you";
}

function whoPlays(p) {
  const s = live.seats[p];
  if (live.table.handed[String(p)]) return `${s.who === "you" ? "your seat, " : ""}played by ${s.agent} for now`;
  return s.who === "you" ? "you" : s.who === "person" ? "a person" : s.agent;
}

const POSITION = '<g id="position">';

function drawPicture(target, textTarget, doc) {
  if (doc.picture) {
    // a picture taller than wide (20th Century's page) is read by scrolling, never shrunk to the window's height
    const size = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(doc.picture);
    target.classList.toggle("tall", Boolean(size) && Number(size[2]) > Number(size[1]));
    // the board is drawn once: while it stays the same, only the position's group is replaced
    const at = doc.picture.indexOf(POSITION);
    const board = doc.picture.slice(0, at);
    const group = target.querySelector("#position");
    if (at < 0 || !group || target.dataset.board !== board) {
      target.innerHTML = doc.picture;
      target.dataset.board = at < 0 ? "" : board;
    } else {
      group.innerHTML = doc.picture.slice(at + POSITION.length, doc.picture.lastIndexOf("</g>"));
    }
    target.hidden = false;
  } else {
    target.replaceChildren();
    target.hidden = true;
  }
  textTarget.hidden = !doc.text;
  textTarget.textContent = doc.text || "";
}

function turnText(s) {
  if (s.over) return "The game is over";
  if (s.role === "spectator") {
    return `Watching${s.table.delay ? ` (${s.table.delay} decisions behind)` : ""}: player ${s.to_move} to move`;
  }
  if (s.table.handover !== null) return `Player ${s.table.handover}'s turn: pass the screen`;
  if (s.your_turn) return s.your_seats.length > 1 ? `Player ${s.seat}'s turn (this screen)` :
    `Your turn (you are player ${s.seat})`;
  if (s.your_seats.includes(s.to_move) && s.table.handed[String(s.to_move)]) {
    return `${s.table.handed[String(s.to_move)]} plays your seat`;
  }
  return `Waiting for player ${s.to_move} (${whoPlays(s.to_move)})`;
}

function drawGame() {
  const s = live;
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.over = s.over ? "1" : "0";
  document.body.dataset.version = String(s.version);
  document.body.dataset.seat = s.seat === null ? "" : String(s.seat);
  document.body.dataset.handover = s.table.handover === null ? "" : String(s.table.handover);
  drawPicture($("picture"), $("text-picture"), s);
  $("turn").textContent = turnText(s);
  $("turn").className = "turn" + (s.your_turn ? " yours" : "");
  $("decision").textContent = s.decision;
  $("howto").hidden = !s.your_turn;
  // the hot-seat screen's hand-over: the public view (no hand) and no choice until the next person takes the screen
  $("handover").hidden = s.table.handover === null;
  if (s.table.handover !== null) {
    $("handover-text").textContent = `Player ${s.table.handover} is to move. Pass the screen to player ` +
      `${s.table.handover}, then click below: their hand and their choices are shown (until then, the table as ` +
      `everyone sees it, no hand).`;
    $("show").textContent = `I am player ${s.table.handover}: show my hand`;
  }
  const groups = s.groups.map((group) => {
    const buttons = group.choices.map((c) => {
      const b = el("button", { type: "button", className: "choice", "data-action": String(c.action),
        title: c.detail || c.label });
      b.append(el("span", { className: "label", text: c.label }));
      if (c.detail) b.append(el("span", { className: "detail", text: c.detail }));
      b.addEventListener("click", () => move(c.action));
      return b;
    });
    // short labels side by side, only when they need no words (a bid's amount, a cell): a choice that says what
    // it is, costs or scores keeps its words (20th Century's land tiles were bare 'land 0' buttons)
    const compact = group.choices.every((c) => c.label.length <= 8 && !c.detail) && group.choices.length > 3;
    const title = group.choices.length > 1 ? `${group.title} (${group.choices.length} choices)` : group.title;
    const many = !compact && group.choices.length > 6;
    return el("div", { className: "group" + (compact ? " compact" : "") }, el("h4", { text: title }),
      many ? el("div", { className: "many" }, ...buttons) : el("div", {}, ...buttons));
  });
  $("choices").replaceChildren(...groups);
  $("ask-box").hidden = !(s.table.advisor && s.your_turn);
  if (!s.your_turn || adviceFor !== s.ply) $("advice").replaceChildren();
  $("undo").hidden = !(s.table.undo && !s.over);
  $("scores").textContent = s.scores.map((v, p) => `${playerName(p)}: ${v}`).join(" · ");
  drawSeatsCard(s);
  drawLinks(s);
  // oldest first, as a game is told: a move's decisions, then what it did; only the moves not shown yet are added,
  // and the list follows the newest unless the person has scrolled back to read; a take-back rewrites it
  const list = $("history");
  const shown = [...list.children];
  if (list.dataset.game !== s.id || shown.length > s.history.length ||
      shown.some((li, i) => li.dataset.text !== s.history[i].text)) {
    list.replaceChildren();
    list.dataset.game = s.id;
  }
  const following = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  for (const h of s.history.slice(list.children.length)) {
    const item = el("li", { value: h.n, className: s.your_seats.includes(h.player) ? "mine" : "",
      text: `${playerName(h.player)}: ${h.text}`, "data-text": h.text });
    for (const line of h.effects || []) item.append(el("div", { className: "effect", text: `→ ${line}` }));
    list.append(item);
  }
  if (following) list.scrollTop = list.scrollHeight;
  $("final").hidden = !s.over;
  $("final-board").hidden = !s.over;
  $("quit").hidden = s.over || !s.table.creator;
  if (s.over) {
    const w = s.final.winners;
    const mine = w.filter((p) => s.your_seats.includes(p));
    $("result").textContent = s.your_seats.length === 1 && mine.length ?
      (w.length === 1 ? "You win!" : "You share the win") :
      `Winner: ${w.map((p) => playerName(p)).join(", ")}`;
    $("final-table").textContent = s.final.table;
    $("saved").textContent = s.record_file ? `Saved as ${s.record_file} in the records folder ` +
      `(industry-env replay plays it).` : "";
    $("download").href = `/api/play/${s.id}/record`;
    $("download").setAttribute("download", s.record_file || "record.json");
  }
}

function drawSeatsCard(s) {
  // each seat: who plays it, an agent's strength (its line in the game's ladder) and thinking time
  const rows = s.seats.map((seat) => {
    const item = el("li", { className: s.to_move === seat.seat ? "to-move" : "" },
      el("b", { text: `player ${seat.seat}: ` }), whoPlays(seat.seat));
    if (seat.simulations) item.append(` (${seat.simulations} simulations a decision)`);
    if (seat.strength) item.append(el("div", { className: "hint", text: `strength: ${seat.strength}` }));
    if (seat.thinking) {
      item.append(el("div", { className: "hint", text: `thinking: ${seat.thinking.mean_ms} ms a decision on ` +
        `average over ${seat.thinking.decisions}, the last ${seat.thinking.last_ms} ms` }));
    }
    if (s.your_seats.includes(seat.seat) && !s.over) {
      // a person who must leave hands the seat to an agent, and takes it back
      if (s.table.handed[String(seat.seat)]) {
        const back = el("button", { type: "button", className: "take-back", text: "Take my seat back" });
        back.addEventListener("click", () => handSeat(seat.seat, null));
        item.append(" ", back);
      } else {
        const pick = el("select", { className: "hand-agent" });
        fill(pick, games.find((g) => g.id === s.game).agents.map((a) => [a, a]));
        const give = el("button", { type: "button", className: "hand", text: "Let an agent play it" });
        give.addEventListener("click", () => handSeat(seat.seat, pick.value));
        item.append(" ", pick, " ", give);
      }
    }
    return item;
  });
  $("seats-list").replaceChildren(...rows);
  const about = [];
  if (s.table.people.length > 1) about.push(`${s.table.people.length} people at this table`);
  about.push(s.table.advisor ? "the advisor is on" : "the advisor is off");
  if (s.role === "spectator") about.push("you watch the public view: no hand is shown");
  $("table-about").textContent = about.join(" · ");
}

function linkUrl(token) { return `${location.origin}/#t=${token}`; }

function drawLinks(s) {
  $("links-card").hidden = !s.links;
  if (!s.links) return;
  const rows = s.links.filter((l) => !l.creator).map((l) => {
    const what = l.seats.length ? `player ${l.seats.join(", ")}` :
      `spectators${l.delay ? ` (${l.delay} decisions behind)` : ""}`;
    const item = el("li", {}, el("b", { text: `${what}: ` }));
    if (l.token) {
      const field = el("input", { type: "text", readOnly: true, value: linkUrl(l.token), className: "link" });
      field.dataset.seats = l.seats.join(",");
      const copy = el("button", { type: "button", text: "Copy" });
      copy.addEventListener("click", () => { field.select(); navigator.clipboard?.writeText(field.value); });
      item.append(field, " ", copy);
    } else {
      item.append("(made before the server restarted: its person still has it) ");
    }
    if (l.seats.length) {
      const renew = el("button", { type: "button", text: "New link (the old one stops working)" });
      renew.addEventListener("click", () => guarded(async () => {
        live = await api(`/api/play/${live.id}/links`, { seat: l.seats[0] });
        drawGame();
      }));
      item.append(" ", renew);
    }
    return item;
  });
  $("links").replaceChildren(...(rows.length ? rows : [el("li", { text: "(no other link yet)" })]));
}

async function move(action) {
  if (document.body.dataset.busy === "1") return;
  const clicked = performance.now();
  await guarded(async () => {
    try {
      live = await api(`/api/play/${live.id}/move`, { action, ply: live.ply });
    } catch (err) {
      await refresh();  // the game moved on meanwhile (another page, a take-back): show it as it is
      throw err;
    }
    drawGame();
    // the round trip as the person sees it: from the click to the new picture painted (the frame after drawing)
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    document.body.dataset.moveMs = (performance.now() - clicked).toFixed(1);
  });
}

async function showSeat() {
  await guarded(async () => {
    live = await api(`/api/play/${live.id}/show`, { seat: live.table.handover });
    drawGame();
  });
}

async function undo() {
  await guarded(async () => {
    live = await api(`/api/play/${live.id}/undo`, { ply: live.ply });
    drawGame();
  });
}

async function handSeat(seat, agent) {
  await guarded(async () => {
    live = await api(`/api/play/${live.id}/hand`, { seat, agent });
    drawGame();
  });
}

async function addSpectators() {
  await guarded(async () => {
    live = await api(`/api/play/${live.id}/links`, { spectators: Number($("more-delay").value || 0) });
    drawGame();
  });
}

async function askAdvice() {
  await guarded(async () => {
    const doc = await api(`/api/play/${live.id}/advice`,
      { ply: live.ply, simulations: Number($("advice-sims").value) });
    adviceFor = doc.ply;
    const parts = [];
    if (doc.search) parts.push(el("p", {}, `${doc.search.agent} (${doc.simulations} simulations) would play `,
      el("b", { text: doc.search.label }), doc.search.detail ? ` (${doc.search.detail})` : ""));
    if (doc.heuristic) parts.push(el("p", {}, "the heuristic would play ", el("b", { text: doc.heuristic.label })));
    if (doc.note) parts.push(el("p", { className: "hint", text: doc.note }));
    if (doc.moves.length) {
      const head = el("tr", {}, el("th", { text: "choice" }), el("th", { text: "simulations" }),
        el("th", { text: "mean value" }));
      parts.push(el("table", { className: "advice-table" }, head, ...doc.moves.map((m) => el("tr", {},
        el("td", { text: m.label }), el("td", { text: `${(100 * m.share).toFixed(0)}% (${m.visits})` }),
        el("td", { text: m.value.toFixed(3) })))));
    }
    $("advice").replaceChildren(...parts);
  });
}

async function lookUp(key, where) {
  if (!key) return;
  await guarded(async () => {
    const doc = where === "replay" ?
      await api(`/api/replays/${replay.id}/${replayMove}/lookup?view=${encodeURIComponent($("view").value)}` +
        `&key=${encodeURIComponent(key)}`) :
      await api(`/api/play/${live.id}/lookup?key=${encodeURIComponent(key)}`);
    $(where === "replay" ? "replay-lookup" : "lookup").textContent = doc.text;
  });
}

function pictureClick(event, where) {
  let node = event.target;
  while (node && node.tagName !== "svg") {
    if (node.id) { lookUp(node.id, where); return; }
    node = node.parentNode;
  }
}

async function quitGame() {
  await guarded(async () => {
    const doc = await api(`/api/play/${live.id}/quit`, {});
    closeTable();
    showError(doc.record_file ? `The game was saved as ${doc.record_file}.` : "");
  });
}

async function openLink(token) {
  // a seat's link (or a spectators'): its view of the game, brought back from the records if need be
  if (stream) stream.close();
  stream = null;
  $("closed").hidden = true;
  await guarded(async () => {
    live = await api(`/api/play/${token}`);
    showTab("play");
    openTable();
  });
}

// ---------------------------------------------------------------------------------------------- watching
async function listRecords() {
  const doc = await api("/api/records");
  $("folder").textContent = doc.folder;
  const records = doc.files.filter((f) => f.kind === "record");
  const arenas = doc.files.filter((f) => f.kind === "arena");
  $("record-files").replaceChildren(...(records.length ? records.map((f) => {
    const b = el("button", { type: "button", className: "file", "data-file": f.name,
      text: `${f.name}: ${f.game}, ${f.players} players, ${f.moves} moves${f.finished ? "" : " (unfinished)"}` });
    b.addEventListener("click", () => openRecord({ file: f.name }));
    const item = el("li", {}, b);
    if (f.resumable) {  // an unfinished game: play it on, from its record
      const r = el("button", { type: "button", className: "resume", "data-file": f.name, text: "Play on" });
      r.addEventListener("click", () => resumeGame(f.name));
      item.append(" ", r);
    } else if (!f.finished && f.people > 1) {  // a table: each person plays on by their own seat's link
      item.append(el("span", { className: "hint", text: ` a table of ${f.people} people: each plays on by ` +
        "opening their seat's link" }));
    }
    return item;
  }) : [el("li", { text: "(no records yet: play a game first)" })]));
  for (const s of doc.skipped || []) {
    $("record-files").append(el("li", { className: "skipped", text: `${s.name}: not shown (${s.why})` }));
  }
  $("arena-files").replaceChildren(...(arenas.length ? arenas.map((f) => {
    const b = el("button", { type: "button", className: "file", text: f.name });
    b.addEventListener("click", () => openArena({ file: f.name }));
    return el("li", {}, b);
  }) : [el("li", { text: "(no arena results in the records folder)" })]));
}

async function resumeGame(name) {
  await guarded(async () => {
    live = await api("/api/resume", { file: name });
    showTab("play");
    openTable();
  });
}

async function openRecord(body) {
  pause();
  await guarded(async () => {
    replay = await api("/api/replays", body);
    $("player").hidden = false;
    $("record-choice").hidden = true;
    $("replay-title").textContent = `${replay.source}: ${replay.describe}`;
    $("slider").max = String(replay.moves);
    const views = replay.views.map((v) => [v, v === "full" ? "full view (every hand: finished games only)" :
      v === "public" ? "public (what everyone sees)" : `player ${v}'s view`]);
    fill($("view"), views);
    $("view-label").hidden = views.length < 2;
    await showMove(0);
  });
}

async function showMove(k) {
  k = Math.max(0, Math.min(replay.moves, k));
  const doc = await api(`/api/replays/${replay.id}/${k}?view=${encodeURIComponent($("view").value)}`);
  replayMove = k;
  document.body.dataset.replayMove = String(k);
  $("slider").value = String(k);
  $("move-number").textContent = `move ${k} of ${replay.moves}`;
  $("move-text").textContent = k ? `Move ${k}: player ${doc.player}: ${doc.description}` : doc.description;
  $("full-warning").hidden = doc.view !== "full" || !replay.hidden_information;
  drawPicture($("replay-picture"), $("replay-text"), doc);
  $("replay-final").hidden = !doc.final;
  $("replay-final").textContent = doc.final || "";
}

function step(delta) { return guarded(() => showMove(replayMove + delta)); }

function pause() {
  if (timer) clearInterval(timer);
  timer = null;
  $("playpause").textContent = "Play";
}

function playPause() {
  if (timer) { pause(); return; }
  if (replayMove >= replay.moves) replayMove = 0;
  $("playpause").textContent = "Pause";
  timer = setInterval(async () => {
    if (document.body.dataset.busy === "1") return;
    if (replayMove >= replay.moves) { pause(); return; }
    await step(1);
  }, Number($("speed").value));
}

async function upload(input, open) {
  const file = input.files[0];
  if (!file) return;
  const text = await file.text();
  input.value = "";
  await open(text, file.name);
}

// ---------------------------------------------------------------------------------------------- arena
async function openArena(body) {
  await guarded(async () => {
    const doc = await api("/api/arena", body);
    $("arena-result").hidden = false;
    $("arena-title").textContent = doc.title;
    $("arena-settings").textContent = `${doc.source}: ` +
      Object.entries(doc.settings).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join("; ");
    // win rates and their interval in percent, as the plot gives them
    const percent = (c) => c.startsWith("win_rate") || c.startsWith("win_ci");
    const cell = (c, v) => typeof v !== "number" ? String(v) : percent(c) ? `${(100 * v).toFixed(1)}%` :
      Number.isInteger(v) ? String(v) : v.toFixed(3);
    const head = el("tr", {}, ...doc.columns.map((c) => el("th", { text: (percent(c) ? `${c} (%)` : c)
      .replaceAll("_", " ") })));
    const rows = doc.rows.map((r) => el("tr", {}, ...doc.columns.map((c) => el("td", { text: cell(c, r[c]) }))));
    $("arena-table").replaceChildren(head, ...rows);
    $("arena-plot").innerHTML = arenaPlot(doc);
  });
}

function arenaPlot(doc) {
  // win rate of each agent with its 95% interval, and the fair share as a dashed line
  // the title has a band of its own above the plot: a bar's label at 100% stays clear of it
  const w = 120 + 110 * doc.rows.length, h = 320, left = 60, bottom = 270, top = 50;
  const y = (rate) => bottom - (bottom - top) * rate;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" ` +
    `font-family="DejaVu Sans, sans-serif" font-size="12" role="img">`];
  for (let t = 0; t <= 100; t += 20) {
    parts.push(`<line x1="${left}" x2="${w - 20}" y1="${y(t / 100)}" y2="${y(t / 100)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(t / 100) + 4}" text-anchor="end">${t}%</text>`);
  }
  doc.rows.forEach((r, i) => {
    const x = left + 30 + i * 110;
    const esc = String(r.agent).replace(/[<&>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    parts.push(`<rect x="${x}" y="${y(r.win_rate)}" width="60" height="${bottom - y(r.win_rate)}" fill="#1f77b4"/>`,
      `<line x1="${x + 30}" x2="${x + 30}" y1="${y(r.win_ci_low)}" y2="${y(r.win_ci_high)}" stroke="#222" ` +
      `stroke-width="2"/>`, `<line x1="${x + 22}" x2="${x + 38}" y1="${y(r.win_ci_low)}" y2="${y(r.win_ci_low)}" ` +
      `stroke="#222" stroke-width="2"/>`, `<line x1="${x + 22}" x2="${x + 38}" y1="${y(r.win_ci_high)}" ` +
      `y2="${y(r.win_ci_high)}" stroke="#222" stroke-width="2"/>`,
      `<text x="${x + 30}" y="${bottom + 18}" text-anchor="middle">${esc}</text>`,
      `<text x="${x + 30}" y="${y(Math.max(r.win_rate, r.win_ci_high)) - 6}" text-anchor="middle">` +
      `${(100 * r.win_rate).toFixed(1)}%</text>`);
  });
  if (doc.fair_share) {
    parts.push(`<line x1="${left}" x2="${w - 20}" y1="${y(doc.fair_share)}" y2="${y(doc.fair_share)}" ` +
      `stroke="grey" stroke-dasharray="6 4"/>`, `<text x="${w - 20}" y="${y(doc.fair_share) - 5}" ` +
      `text-anchor="end" fill="grey">fair share</text>`);
  }
  parts.push(`<text x="${left}" y="16" font-weight="bold">win rate, 95% Wilson interval</text></svg>`);
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------- start
async function init() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("setup").addEventListener("submit", startGame);
  $("game").addEventListener("change", drawSetup);
  $("players").addEventListener("change", drawSeats);
  $("seat").addEventListener("change", drawOpponents);
  $("place").addEventListener("change", () => lookUp($("place").value, "play"));
  $("picture").addEventListener("click", (e) => pictureClick(e, "play"));
  $("replay-picture").addEventListener("click", (e) => pictureClick(e, "replay"));
  $("quit").addEventListener("click", quitGame);
  $("again").addEventListener("click", closeTable);
  $("show").addEventListener("click", showSeat);
  $("undo").addEventListener("click", undo);
  $("ask").addEventListener("click", askAdvice);
  $("more-spectators").addEventListener("click", addSpectators);
  $("bring-back").addEventListener("click", () => { $("closed").hidden = true; openLink(live.id); });
  $("watch-this").addEventListener("click", async () => {
    const name = live.record_file;
    showTab("watch");
    await openRecord({ file: name });
  });
  $("first").addEventListener("click", () => { pause(); step(-replayMove); });
  $("back").addEventListener("click", () => { pause(); step(-1); });
  $("forward").addEventListener("click", () => { pause(); step(1); });
  $("last").addEventListener("click", () => { pause(); step(replay.moves - replayMove); });
  $("playpause").addEventListener("click", playPause);
  $("other-record").addEventListener("click", () => {
    pause();
    $("player").hidden = true;
    $("record-choice").hidden = false;
  });
  $("speed").addEventListener("change", () => { if (timer) { pause(); playPause(); } });
  $("slider").addEventListener("input", () => { pause(); guarded(() => showMove(Number($("slider").value))); });
  $("view").addEventListener("change", () => guarded(() => showMove(replayMove)));
  $("record-upload").addEventListener("change", () => upload($("record-upload"),
    (text, name) => openRecord({ record: text, name })));
  $("arena-upload").addEventListener("change", () => upload($("arena-upload"),
    (text, name) => openArena({ text, name })));
  await guarded(async () => {
    const offered = await api("/api/games");
    games = offered.games;
    fill($("game"), games.map((g) => [g.id, g.name]));
    $("game").value = offered.default;
    drawSetup();
  });
  const link = /^#t=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (link) await openLink(link[1]);
  // another link pasted into this tab's address: its game replaces the one shown
  window.addEventListener("hashchange", () => {
    const other = /^#t=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (other && (!live || other[1] !== live.id)) openLink(other[1]);
  });
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", init);
