// The Play page: any registered game against the AI, over the engine
// protocol (one WebSocket = one engine session). No game logic here: the
// legal moves, the views, the scores and what the rules derive for drawing
// (the annotations) come from the engine; the drawing comes from the game's
// board.js (draw(svg, ctx)).
//
// The page plays in the protocol's seat mode: the human seats are the
// connection's seats and the engine plays the AI seats itself, so the page
// never receives a card its players may not see (docs/engine-protocol.md).
// With several humans on one screen it shows only the seat to move, after
// a "pass the device" screen. A game of AI seats only is watched in
// referee mode (no one's cards to keep).
import { Engine, el } from "/static/engine.js";

const $ = (id) => document.getElementById(id);
const engine = new Engine();
engine.onclose = () => showError("The connection to the server is closed: reload the page.");

let games = [];        // GET /api/games
let maxUpload = 1 << 18; // bytes of an uploaded data file (GET /api/games says)
let agents = [];       // hello's agents
const g = {            // the game in progress
  info: null, module: null, board: null, status: null, seats: [], budget: {}, agent: "mcts",
  view: null, viewSeat: 0, legal: [], hint: null, breakdown: null, annotations: null, humanPlies: [],
  generation: 0, goPending: null, busy: false, humans: [],
  log: [], logDrawn: 0, publicScores: null,   // the state reply's log and public_scores
  last: null,           // the last move: {seat, move} as the replies wrote it for the viewer
};
const PHONE = window.matchMedia("(max-width: 800px)");
const HINTS_SHOWN = 8;     // ranked moves listed beside the board
// Read by the tests and benchmarks: draws counted, the game, a hook after each drawing.
window.solversPlay = { draws: 0, lastDraw: 0, state: g, onDraw: null, engine, seatNames: () => seatNames() };

function showError(text) { $("error").textContent = text || ""; }
function setTurn(turn) { document.body.dataset.turn = turn; }

async function loadGames() {
  const reply = await fetch("/api/games").then((r) => r.json());
  games = reply.games.filter((x) => x.web);
  if (reply.max_upload) maxUpload = reply.max_upload;
  const hello = await engine.call("hello");
  agents = hello.agents;
  $("game").replaceChildren(...games.map((x) => el("option", { value: x.name, text: x.title })));
  $("agent").replaceChildren(...agents.map((a) => el("option", { value: a.name, text: a.name, title: a.about })));
  if (agents.some((a) => a.name === "mcts")) $("agent").value = "mcts";
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((x) => x.name === wanted)) $("game").value = wanted;
  $("seed").value = "";          // empty: the engine draws a secret seed
  onGameChosen();
  if (!games.length) $("status").textContent = "No game has a browser drawing yet.";
}

function currentInfo() { return games.find((x) => x.name === $("game").value); }

function onGameChosen() {
  const info = currentInfo();
  if (!info) return;
  $("players").replaceChildren(...info.players.map((n) => el("option", { value: n, text: n })));
  $("players").value = String(info.default_players);
  const b = info.default_budget || {};
  if (b.time) { $("budget-kind").value = "time"; $("budget").value = b.time; }
  else if (b.iterations) { $("budget-kind").value = "iterations"; $("budget").value = b.iterations; }
  $("about").textContent = `${info.title}: ${info.players.join(", ")} players.`;
  loadRules(info);
  onPlayersChosen();
}

// The options that apply to n players (an option lists its player counts,
// e.g. a solo challenge: [1]). A data file (a map, a card file) is an
// upload: the page reads the file and sends its content; the server reads
// no file a page names.
function drawOptions(info, n) {
  const shown = info.options.filter((o) => o.types.length && (!o.players || o.players.includes(n)));
  $("options").replaceChildren(...shown.map((o) => el("div", {},
    el("label", { for: "opt-" + o.name, text: `${o.name}${o.file ? " file" : ""} (optional)` }),
    o.file
      ? el("input", { type: "file", id: "opt-" + o.name, "data-option": o.name, "data-file": true,
                      accept: ".json,application/json", title: o.help })
      : el("input", { type: "text", id: "opt-" + o.name, "data-option": o.name,
                      placeholder: o.help, title: o.help }))));
}

// The rules panel: the game's rules page, as HTML the server renders from
// our Markdown (it escapes every character of the file).
async function loadRules(info) {
  $("rules-title").textContent = `Rules of ${info.title}`;
  $("rules").replaceChildren(el("p", { class: "muted", text: "Loading the rules..." }));
  try {
    const r = await fetch(`/api/games/${info.name}/rules`);
    const body = await r.json();
    if (currentInfo() !== info) return;
    if (!r.ok) throw new Error(body.error || "no rules page");
    $("rules").replaceChildren(el("div", { class: "rules-text" }, ...body.nodes.map(ruleNode)));
  } catch (e) {
    $("rules").replaceChildren(el("p", { class: "muted", text: `No rules to show: ${e.message}` }));
  }
}

// One node of the rules tree ([tag, attributes, ...children]) as an element,
// built one by one: only the tags and attributes the renderer makes.
const RULE_TAGS = new Set(["h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "pre", "code", "strong",
  "em", "a", "span", "table", "thead", "tbody", "tr", "th", "td"]);
function ruleNode(node) {
  if (typeof node === "string") return node;
  const [tag, attrs, ...children] = node;
  if (!RULE_TAGS.has(tag)) return children.map(ruleNode).join("");
  const safe = {};
  if (attrs.id) safe.id = "rules-" + attrs.id;
  if (tag === "a" && /^(https?:\/\/|#)/.test(attrs.href || "")) {
    safe.href = attrs.href.startsWith("#") ? "#rules-" + attrs.href.slice(1) : attrs.href;
    if (!attrs.href.startsWith("#")) safe.rel = "noopener noreferrer";
  }
  return el(tag, safe, ...children.map(ruleNode));
}

function onPlayersChosen() {
  const n = Number($("players").value);
  const info = currentInfo();
  if (info) drawOptions(info, n);
  const rows = [];
  for (let s = 0; s < n; s++) {
    const sel = el("select", { id: "seat-" + s, "data-seat": s },
      el("option", { value: "human", text: "Human" }), el("option", { value: "ai", text: "AI" }));
    sel.value = s === 0 ? "human" : "ai";
    rows.push(el("div", { class: "seat" }, el("span", { text: "Seat " + s }), sel));
  }
  $("seats").replaceChildren(...rows);
}

function budgetFromForm() {
  const kind = $("budget-kind").value;
  const value = Number($("budget").value);
  if (!(value > 0)) throw new Error("the AI's budget should be more than 0");
  return kind === "time" ? { time: value } : { iterations: Math.max(1, Math.round(value)) };
}

// "You" (or "Seat 2 (human)" when several people share the screen), and the
// AI seats as "AI (mcts)", numbered "AI 1 (mcts)", "AI 2 (mcts)" when several.
function seatNames() {
  const humans = g.seats.filter((k) => k === "human").length;
  const ais = g.seats.length - humans;
  let ai = 0;
  return g.seats.map((kind, s) => {
    if (kind === "human") return humans > 1 ? `Seat ${s} (human)` : "You";
    ai += 1;
    return ais > 1 ? `AI ${ai} (${g.agent})` : `AI (${g.agent})`;
  });
}

async function newGame() {
  showError("");
  const info = currentInfo();
  if (!info) return;
  await cancelAI();
  const gen = ++g.generation;
  try {
    const players = Number($("players").value);
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      if (input.dataset.file !== undefined) {
        if (input.files.length) options[input.dataset.option] = await readDataFile(input.files[0]);
        continue;
      }
      const text = input.value.trim();
      if (text) options[input.dataset.option] = /^-?\d+$/.test(text) ? Number(text) : text;
    }
    const seedText = $("seed").value.trim();
    g.budget = budgetFromForm();
    g.agent = $("agent").value || "mcts";
    g.seats = [...Array(players).keys()].map((s) => $("seat-" + s).value);
    g.humans = g.seats.map((k, s) => (k === "human" ? s : -1)).filter((s) => s >= 0);
    const request = { game: info.name, players, options };
    if (seedText) request.seed = Number(seedText);   // a seed you give deals a game you can replay
    if (g.humans.length) request.seats = g.humans;    // seat mode: the humans' seats
    const [module, board] = await Promise.all([
      import(`/games/${info.name}/board.js`),
      fetch(`/api/games/${info.name}/board`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ players, options }),
      }).then(async (r) => {
        const body = await r.json();
        if (!r.ok) throw new Error(body.error || "cannot load the board");
        return body;
      }),
    ]);
    const status = await engine.call("new", request);
    if (gen !== g.generation) return;
    Object.assign(g, { info, module, board, status, view: null, legal: [], hint: null,
                       breakdown: null, annotations: null, humanPlies: [], log: [], logDrawn: 0,
                       publicScores: null, last: null });
    g.viewSeat = g.humans.length ? g.humans[0] : 0;
    $("hint").replaceChildren();
    $("breakdown").replaceChildren();
    $("log").replaceChildren();
    document.body.dataset.started = "yes";
    if (PHONE.matches) $("setup-box").open = false;   // a phone shows the board, not the form
    await advance(gen);
  } catch (e) {
    showError(e.message);
  }
}

// An uploaded data file's content (JSON, at most maxUpload bytes).
async function readDataFile(file) {
  if (file.size > maxUpload) {
    throw new Error(`${file.name} is larger than ${Math.floor(maxUpload / 1024)} KiB`);
  }
  let content;
  try {
    content = JSON.parse(await file.text());
  } catch (e) {
    throw new Error(`${file.name} is not a JSON file: ${e.message}`);
  }
  if (content === null || typeof content !== "object" || Array.isArray(content)) {
    throw new Error(`${file.name} should hold one JSON object`);
  }
  return content;
}

// Run the game until a human must move or it ends.
async function advance(gen) {
  while (gen === g.generation) {
    const st = g.status;
    if (st.phase === "chance") {
      g.status = await engine.call("deal", viewField());
      continue;
    }
    if (st.phase === "over") {
      await refresh(gen, g.viewSeat);
      setTurn("over");
      return;
    }
    const seat = st.to_move;
    if (g.seats[seat] === "ai") {
      await refresh(gen, g.viewSeat, false);
      const result = await aiMove(gen, seat);
      if (gen !== g.generation || !result) return;
      // Seat mode: the engine played the move itself (the reply carries the
      // status after it). Referee mode: play the move it names.
      g.status = result.played ? result : await engine.call("apply", { action: result.action });
      g.last = { seat, move: result.move };
      continue;
    }
    if (seat !== g.viewSeat && g.humans.length > 1) {
      await passDevice(gen, seat);
      if (gen !== g.generation) return;
    }
    g.viewSeat = seat;
    await refresh(gen, seat);
    setTurn("human");
    return;
  }
}

// Whose eyes the engine writes dealt and AI moves for (seat mode only).
function viewField() { return g.humans.length ? { view: g.viewSeat } : {}; }

// Hot seat: hide the last seat's view until the next player says they hold
// the device; only then is that seat's view asked for.
function passDevice(gen, seat) {
  Object.assign(g, { view: null, legal: [], hint: null, annotations: null, viewSeat: seat,
                     log: [], logDrawn: 0, publicScores: null });
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("hint").replaceChildren();
  // The log and the scores were the last seat's view: the next sees its own.
  $("log").replaceChildren();
  $("scores").replaceChildren();
  const name = seatNames()[seat];
  $("pass-who").textContent = `Pass the device to ${name}.`;
  $("pass-ready").textContent = `I am ${name}: show my cards`;
  $("pass").classList.add("on");
  setTurn("pass");
  return new Promise((resolve) => {
    $("pass-ready").onclick = () => {
      $("pass").classList.remove("on");
      resolve();
    };
    g.passCancel = resolve;
  }).finally(() => { g.passCancel = null; });
}

// Ask the engine for the view of `seat` and draw it.
async function refresh(gen, seat, mayMove = true) {
  const fields = g.status.players > 1 ? { seat } : { seat: 0 };
  const st = await engine.call("state", fields);
  if (gen !== g.generation) return;
  g.view = st.view;
  g.legal = mayMove && st.legal && g.seats[seat] === "human" ? st.legal : [];
  g.breakdown = st.breakdown || null;
  g.annotations = st.annotations || null;   // the game's web module annotate(state, seat), if any
  g.log = st.log || [];                     // every move as this seat observed it
  g.publicScores = st.public_scores || null;
  draw();
}

function ctx() {
  return {
    board: g.board, status: g.status, seat: g.viewSeat, view: g.view, legal: g.legal,
    play: (action) => humanMove(action), hint: g.hint, breakdown: g.breakdown,
    annotations: g.annotations, names: seatNames(), last: g.last,
  };
}

function draw() {
  const svg = $("board");
  svg.replaceChildren();
  svg.removeAttribute("viewBox");
  const c = ctx();
  try {
    g.module.draw(svg, c);
  } catch (e) {
    showError("The board could not be drawn: " + e.message);
    console.error(e);
  }
  drawMoves(c);
  drawStatus(c);
  drawScores(c);
  drawHint(c);
  drawLog(c);
  drawBreakdown(c);
  $("undo").disabled = !g.humanPlies.length;
  $("hint-button").disabled = !g.legal.length;
  window.solversPlay.draws += 1;
  window.solversPlay.lastDraw = performance.now();
  if (window.solversPlay.onDraw) window.solversPlay.onDraw();
}

function drawMoves(c) {
  $("moves").replaceChildren(...c.legal.map((m) => el("button", {
    class: "move legal", "data-action": m.action, onclick: () => humanMove(m.action), text: m.move,
  })));
}

function drawStatus(c) {
  const st = c.status;
  let text = "";
  if (g.module.describe) {
    try { text = g.module.describe(c) || ""; } catch (e) { text = ""; }
  }
  const names = c.names;
  let who;
  if (st.phase === "over") {
    who = gameOver(st, names);
  } else {
    who = `${names[st.to_move] ?? "Chance"} to move.`;
  }
  // describe() returns plain text (names from a data file may hold any characters).
  $("status").replaceChildren(el("strong", { text: g.info.title + ": " }), who + " ");
  if (text) $("status").append(el("span", { class: "muted", text }));
  // The players' moves (the log without the deal's chance steps): the move
  // about to be made, or at the end the moves made.
  const made = g.log.filter((e) => e.mover !== "chance").length;
  $("ply").textContent = st.phase === "over" ? `${made} moves` : `move ${made + 1}`;
}

// "Game over: AI (mcts) wins 34-29": the winners, then every score, best first.
function gameOver(st, names) {
  if (st.players === 1) {
    return `Game over: ${st.scores[0]} points${st.returns[0] === 0 && st.scores[0] > 0 ? " (challenge lost)" : ""}.`;
  }
  const best = Math.max(...st.returns);
  const winners = st.returns.map((r, s) => (r === best ? s : -1)).filter((s) => s >= 0);
  const order = [...st.scores.keys()].sort((a, b) =>
    (winners.includes(b) - winners.includes(a)) || (st.scores[b] - st.scores[a]));
  const line = order.map((s) => st.scores[s]).join("-");
  return `Game over: ${winners.map((s) => names[s]).join(" and ")} ` +
    `${winners.length > 1 ? "share the win" : "wins"} ${line}.`;
}

// The score strip: each seat's score as far as the viewing seat may know it
// (the state reply's public_scores; "?" while hidden), the totals at the end.
function drawScores(c) {
  const st = c.status;
  const scores = st.phase === "over" ? st.scores : g.publicScores;
  if (!scores) { $("scores").replaceChildren(); return; }
  $("scores").replaceChildren(...scores.map((points, s) => el("span", {
    class: "score" + (s === c.seat ? " mine" : "") + (st.phase !== "over" && st.to_move === s ? " to-move" : ""),
    "data-score": s, title: points === null ? "not known to you yet" : "",
  }, el("span", { class: "who", text: c.names[s] }), " ",
     el("strong", { text: points === null ? "?" : String(points) }))));
}

// The ranked hint beside the board: each move's text and value; a click
// plays exactly that move.
function drawHint(c) {
  const box = $("hint");
  if (!c.hint || !c.legal.length) {
    if (!box.dataset.thinking) box.replaceChildren();
    return;
  }
  delete box.dataset.thinking;
  const top = c.hint.slice(0, HINTS_SHOWN);
  box.replaceChildren(el("h3", { text: "Hint: the AI's ranking" }),
    el("ol", { id: "hint-list" }, ...top.map((r) => el("li", {},
      el("button", { class: "legal hint-move", "data-action": r.action, onclick: () => humanMove(r.action),
                     text: r.move, title: `${r.visits} visits` }),
      el("span", { class: "value", text: r.value.toFixed(3) })))),
    c.hint.length > top.length ? el("p", { class: "muted", text: `and ${c.hint.length - top.length} more` }) : "");
}

// The game log: every move as the viewing seat saw it, who made it (the AI
// seats by name), newest first; a run of chance steps (a deal) is one line.
// Entries new since the last drawing flash briefly.
function drawLog(c) {
  const rows = [];
  g.log.forEach((e, i) => {
    const last = rows[rows.length - 1];
    if (e.mover === "chance" && last && last.chance) { last.moves.push(e.move); last.end = i; return; }
    rows.push({ chance: e.mover === "chance", mover: e.mover, moves: [e.move], start: i, end: i });
  });
  const fresh = g.logDrawn;
  const items = rows.map((r) => {
    let text = r.moves.slice(0, 6).join(", ");
    if (r.moves.length > 6) text += ` and ${r.moves.length - 6} more`;
    const who = r.chance ? "Deal" : (c.names[r.mover] ?? `Seat ${r.mover}`);
    return el("li", {
      class: (r.chance ? "chance" : g.seats[r.mover] === "ai" ? "ai" : "human") + (r.end >= fresh && fresh > 0 ? " fresh" : ""),
      "data-mover": r.chance ? "chance" : r.mover, "data-index": r.end,
    }, el("span", { class: "who", text: who + ": " }), text);
  }).reverse();
  $("log").replaceChildren(...items);
  g.logDrawn = g.log.length;
}

function drawBreakdown(c) {
  const box = $("breakdown");
  if (!c.breakdown || c.status.phase !== "over") { box.replaceChildren(); return; }
  // Items that scored nothing for every seat are left out (the engine drops a seat's zero rows).
  const seats = c.breakdown.length;
  const items = [];
  for (const rows of c.breakdown) for (const r of rows) if (!items.includes(r.item)) items.push(r.item);
  const head = el("tr", {}, el("th", { text: "Score" }),
    ...c.names.slice(0, seats).map((n) => el("th", { class: "num", text: n })));
  const body = items.map((item) => el("tr", {}, el("td", { text: item }),
    ...c.breakdown.map((rows) => {
      const row = rows.find((r) => r.item === item);
      return el("td", { class: "num", text: row ? row.points : "" });
    })));
  const total = el("tr", { class: "total" }, el("td", { text: "Total" }),
    ...c.breakdown.map((rows, s) => el("td", { class: "num", "data-total": s,
      text: rows.reduce((a, r) => a + r.points, 0) })));
  box.replaceChildren(el("h3", { text: "Final score" }),
    el("table", { id: "breakdown-table" }, el("thead", {}, head), el("tbody", {}, ...body, total)));
}

async function humanMove(action) {
  if (g.busy || !g.legal.some((m) => m.action === action)) return;
  g.busy = true;
  const gen = g.generation;
  try {
    const ply = g.status.ply;
    const reply = await engine.request("apply", { action });
    if (reply.error) { showError(reply.error.message); return; }
    window.solversPlay.lastApplied = reply.result;     // the move the server applied
    showError("");
    g.humanPlies.push(ply);
    g.last = { seat: g.status.to_move, move: reply.result.move };
    g.status = reply.result;
    g.hint = null;
    g.legal = [];
    $("hint").replaceChildren();
    setTurn("ai");
    await advance(gen);
  } catch (e) {
    showError(e.message);
  } finally {
    g.busy = false;
  }
}

// One AI move: go with the chosen budget, a progress bar on our own clock
// (elapsed / the time budget), Stop ends the search with its best move so far.
async function aiMove(gen, seat) {
  setTurn("ai");
  $("thinking").classList.add("on");
  $("thinking-who").textContent = `${seatNames()[seat]} is thinking`;
  const start = performance.now();
  const total = g.budget.time || null;
  const tick = () => {
    const s = (performance.now() - start) / 1000;
    $("progress").value = total ? Math.min(1, s / total) : 0;
    if (!total) $("progress").removeAttribute("value");
    $("elapsed").textContent = total ? `${s.toFixed(1)} / ${total} s` : `${s.toFixed(1)} s`;
  };
  // The clock's text from the start, as wide as it will get: the Stop button
  // beside it must not move under the user's pointer.
  $("elapsed").style.minWidth = `${total ? `${total.toFixed(1)} / ${total} s`.length : 8}ch`;
  tick();
  const timer = setInterval(tick, 100);
  const request = engine.request("go", { agent: g.agent, seat, ...g.budget, ...viewField() });
  g.goPending = request;
  try {
    const reply = await request;
    if (reply.error) { showError(reply.error.message); return null; }
    window.solversPlay.lastGo = reply.result;
    return reply.result;
  } finally {
    clearInterval(timer);
    g.goPending = null;
    $("thinking").classList.remove("on");
  }
}

async function stopAI() {
  if (!g.goPending) return;
  await engine.request("stop");
}

// Abandon any running search (its reply is ignored) and any pass screen.
async function cancelAI() {
  g.generation += 1;
  $("pass").classList.remove("on");
  if (g.passCancel) g.passCancel();
  if (g.goPending) {
    const pending = g.goPending;
    await engine.request("stop");
    await pending;
  }
}

async function hint() {
  if (!g.legal.length || g.goPending) return;
  const gen = g.generation;
  const seat = g.status.to_move;
  const btn = $("hint-button");
  btn.disabled = true;
  $("hint").dataset.thinking = "yes";
  $("hint").replaceChildren(el("p", { class: "muted", text: "Thinking about a hint..." }));
  const reply = await engine.request("go", { agent: g.agent, seat, ...g.budget });
  delete $("hint").dataset.thinking;
  if (gen !== g.generation) return;
  if (reply.error) { showError(reply.error.message); $("hint").replaceChildren(); return; }
  g.hint = reply.result.ranked;
  draw();
}

async function undo() {
  if (!g.humanPlies.length) return;
  await cancelAI();
  const gen = g.generation;
  const ply = g.humanPlies.pop();
  setTurn("undo");        // not the human's turn until the view is drawn again
  try {
    g.status = await engine.call("undo", { ply });
    g.hint = null;
    g.last = null;
    g.breakdown = null;
    $("hint").replaceChildren();
    await advance(gen);
  } catch (e) {
    showError(e.message);
  }
}

$("game").addEventListener("change", onGameChosen);
// A window narrowed to a phone's width during a game folds the setup away too.
PHONE.addEventListener("change", () => { if (PHONE.matches && g.info) $("setup-box").open = false; });
$("players").addEventListener("change", onPlayersChosen);
$("new").addEventListener("click", newGame);
$("stop").addEventListener("click", stopAI);
$("hint-button").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
loadGames().catch((e) => showError(e.message));
