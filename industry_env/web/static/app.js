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
  drawSeats();
}

function drawSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  fill($("seat"), Array.from({ length: n }, (_, p) => [p, p === 0 ? "player 0 (moves first)" : `player ${p}`]));
  drawOpponents();
}

function drawOpponents() {
  const g = currentGame();
  const n = Number($("players").value);
  const seat = Number($("seat").value);
  const rows = [];
  for (let p = 0; p < n; p++) {
    if (p === seat) continue;
    const select = el("select", { className: "opponent", "data-seat": String(p) });
    fill(select, g.agents.map((a) => [a, a]));
    if (g.agents.includes("heuristic")) select.value = "heuristic";
    rows.push(el("label", {}, `player ${p} is played by `, select));
  }
  $("opponents").replaceChildren(...rows);
}

async function startGame(event) {
  event.preventDefault();
  const g = currentGame();
  const options = {};
  for (const o of g.options) options[o.name] = JSON.parse($(`option-${o.name}`).value);
  const agents = [...document.querySelectorAll(".opponent")].map((s) => s.value);
  await guarded(async () => {
    live = await api("/api/play", {
      game: g.id, options, players: Number($("players").value), seat: Number($("seat").value), agents,
    });
    $("setup").hidden = true;
    $("table").hidden = false;
    fill($("place"), [["", "choose..."], ...live.places.map((p) => [p.key, p.label])]);
    $("lookup").textContent = "";
    drawGame();
  });
}

// ---------------------------------------------------------------------------------------------- the game
function playerName(p) { return live && p === live.seat ? "you" : `player ${p}`; }

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

function drawGame() {
  const s = live;
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.over = s.over ? "1" : "0";
  drawPicture($("picture"), $("text-picture"), s);
  $("turn").textContent = s.over ? "The game is over" : s.your_turn ? `Your turn (you are player ${s.seat})` :
    `Waiting for player ${s.to_move}`;
  $("turn").className = "turn" + (s.your_turn ? " yours" : "");
  $("decision").textContent = s.decision;
  $("howto").hidden = !s.your_turn;
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
  $("scores").textContent = s.scores.map((v, p) => `${playerName(p)}: ${v}`).join(" · ");
  // oldest first, as a game is told: a move's decisions, then what it did; only the moves not shown yet are added,
  // and the list follows the newest unless the person has scrolled back to read
  const history = $("history");
  if (history.dataset.game !== s.id) { history.replaceChildren(); history.dataset.game = s.id; }
  const following = history.scrollHeight - history.scrollTop - history.clientHeight < 30;
  for (const h of s.history.slice(history.children.length)) {
    const item = el("li", { value: h.n, className: h.player === s.seat ? "mine" : "",
      text: `${playerName(h.player)}: ${h.text}` });
    for (const line of h.effects || []) item.append(el("div", { className: "effect", text: `→ ${line}` }));
    history.append(item);
  }
  if (following) history.scrollTop = history.scrollHeight;
  $("final").hidden = !s.over;
  $("final-board").hidden = !s.over;
  $("quit").hidden = s.over;
  if (s.over) {
    const w = s.final.winners;
    $("result").textContent = w.includes(s.seat) ? (w.length === 1 ? "You win!" : "You share the win") :
      `Winner: ${w.map((p) => `player ${p}`).join(", ")}`;
    $("final-table").textContent = s.final.table;
    $("saved").textContent = s.record_file ? `Saved as ${s.record_file} in the records folder ` +
      `(industry-env replay plays it).` : "";
    $("download").href = `/api/play/${s.id}/record`;
    $("download").setAttribute("download", s.record_file || "record.json");
  }
}

async function move(action) {
  if (document.body.dataset.busy === "1") return;
  const clicked = performance.now();
  await guarded(async () => {
    live = await api(`/api/play/${live.id}/move`, { action, ply: live.ply });
    drawGame();
    // the round trip as the person sees it: from the click to the new picture painted (the frame after drawing)
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    document.body.dataset.moveMs = (performance.now() - clicked).toFixed(1);
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
    live = null;
    $("table").hidden = true;
    $("setup").hidden = false;
    showError(doc.record_file ? `The game was saved as ${doc.record_file}.` : "");
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
    $("setup").hidden = true;
    $("table").hidden = false;
    fill($("place"), [["", "choose..."], ...live.places.map((p) => [p.key, p.label])]);
    $("lookup").textContent = "";
    drawGame();
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
  $("again").addEventListener("click", () => {
    live = null;
    $("table").hidden = true;
    $("setup").hidden = false;
    $("final-board").hidden = true;
  });
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
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", init);
