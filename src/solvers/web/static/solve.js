// The Solve page: the hindsight optimum of one Coast to Coast shuffle
// (the server's CP-SAT model, as `solve c2c --deal`), drawn round by round
// with the game's own board.js.
import { el } from "/static/engine.js";
import { runTask } from "/static/tasks.js";

const $ = (id) => document.getElementById(id);
let board = null, module = null, result = null;
let control = null;          // the running job's cancel()
window.solversSolve = { result: null, shown: null };

async function init() {
  [module, board] = await Promise.all([
    import("/games/c2c/board.js"),
    fetch("/api/games/c2c/board?players=1").then((r) => r.json()),
  ]);
  $("locations").replaceChildren(...board.locations.map((l) => el("option", { value: l.name })));
}

async function solve(params) {
  $("error").textContent = "";
  $("solve").disabled = true;
  $("use-seed").disabled = true;
  $("summary").textContent = "Solving...";
  document.body.dataset.solving = "1";
  control = {};
  $("cancel").disabled = false;
  try {
    const challenge = $("challenge").value.trim();
    const full = { ...params, time_limit: Number($("time-limit").value || 30) };
    if (challenge) full.challenge = challenge;
    const running = control;
    result = await runTask("c2c", "solve", full, (r) => {
      window.solversSolve.task = running.task;
      $("solve-progress").textContent = `${r.seconds.toFixed(1)} s${r.cancelled && !r.done ? ", stopping..." : ""}`;
    }, control);
    window.solversSolve.result = result;
    if (params.seed !== undefined) $("deal").value = result.deal.join("\n");
    show();
  } catch (e) {
    $("error").textContent = e.message;
    $("summary").textContent = "";
  } finally {
    $("solve").disabled = false;
    $("use-seed").disabled = false;
    $("cancel").disabled = true;
    control = null;
    delete document.body.dataset.solving;
  }
}

function show() {
  const r = result;
  const proven = r.status === "optimal" ? "proven optimal" : `best found in the time limit; bound ${r.bound}`;
  const lines = [];
  if (r.challenge) {
    lines.push(r.status === "infeasible"
      ? el("p", { id: "feasibility", "data-feasible": "false" },
          el("strong", { text: `This shuffle cannot win the challenge ${r.challenge}` }), ", whatever the play (proven).")
      : el("p", { id: "feasibility", "data-feasible": String(!!r.won) },
          el("strong", { text: `This shuffle can win the challenge ${r.challenge}` }),
          `: all ${r.required.length} required locations circled.`));
  }
  if (r.status !== "infeasible") {
    lines.push(el("p", {}, "Best score: ", el("strong", { id: "best-score", text: r.score }), ` (${proven}, ${r.seconds} s).`));
  }
  $("summary").replaceChildren(...lines);
  $("summary").dataset.status = r.status;
  const buttons = r.sheets.map((s) => el("button", { "data-round": s.round,
    onclick: () => showRound(s.round), text: s.round === 0 ? "Setup" : `Round ${s.round}` }));
  $("rounds").replaceChildren(...buttons);
  drawPlan();
  showRound(r.sheets.length ? r.sheets.length - 1 : null);
}

async function cancel() {
  if (!control || !control.cancel) return;
  $("cancel").disabled = true;
  $("summary").textContent = "Cancelling: the server stops the solver...";
  await control.cancel();
}

function idOf(name) { return board.locations.find((l) => l.name === name).id; }

function showRound(round) {
  const r = result;
  const svg = $("board");
  svg.replaceChildren();
  svg.removeAttribute("viewBox");
  const deal = r.deal.map(idOf);
  const sheet = round === null ? { circled: [], crossed: [], exact: [] } : r.sheets[round];
  const cards = round === null ? [] : round === 0 ? deal.slice(0, 4) : deal.slice(4 * round, 4 * round + 4);
  const boardForChallenge = { ...board, challenge: r.challenge ? idOf(r.challenge) : null,
                              required: r.required.map(idOf) };
  // Which card circled each location (the plan up to this round), and what
  // this round added to the sheet (circled and crossed off), marked on the map.
  const pairs = {};
  const rounds = r.plan && round ? r.plan.rounds.slice(0, round) : [];
  for (const rnd of rounds) {
    for (const [card, loc] of rnd.circles) if (loc !== null) pairs[idOf(loc)] = idOf(card);
  }
  const previous = round ? r.sheets[round - 1] : { circled: [], crossed: [] };
  const added = round === null ? [] : [...sheet.circled, ...sheet.crossed].filter(
    (l) => !previous.circled.includes(l) && !previous.crossed.includes(l));
  const ctx = {
    board: boardForChallenge, status: { game: "c2c", players: 1, phase: "over", to_move: null, ply: 0 },
    seat: 0, view: { round: round ?? 0, step: "", cards, used: cards, sheet, others: {} },
    legal: [], play: () => {}, hint: null, breakdown: null, circledWith: pairs, added,
    names: [round === null ? "Deal" : round === 0 ? `After the setup (${sheet.score} points)`
                                                  : `After round ${round} (${sheet.score} points)`],
  };
  module.draw(svg, ctx);
  for (const b of $("rounds").querySelectorAll("button")) {
    b.classList.toggle("primary", Number(b.dataset.round) === round);
  }
  window.solversSolve.shown = round;
}

function drawPlan() {
  const r = result;
  if (!r.plan) { $("plan").replaceChildren(); return; }
  const rows = [el("tr", {}, el("td", { text: "Setup" }), el("td", { text: r.plan.setup_cross }),
    el("td", { text: r.deal.slice(0, 4).filter((n) => n !== r.plan.setup_cross).join("; ") }))];
  r.plan.rounds.forEach((rnd, i) => {
    const circles = rnd.circles.map(([card, loc]) => loc === null ? `skip ${card}`
      : loc === card ? `${loc} (exact)` : `${loc} with ${card}`);
    rows.push(el("tr", {}, el("td", { text: `Round ${i + 1}` }), el("td", { text: rnd.cross }),
      el("td", { text: circles.join("; ") })));
  });
  $("plan").replaceChildren(el("h3", { text: "The itinerary" }), el("table", { id: "plan-table" },
    el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: "cross off" }), el("th", { text: "circle" }))),
    el("tbody", {}, ...rows)));
}

$("solve").addEventListener("click", () => {
  const lines = $("deal").value.split("\n").map((s) => s.trim()).filter((s) => s && !s.startsWith("#"));
  if (!lines.length) { $("error").textContent = "Paste a deal (24 names) or use a shuffle's seed."; return; }
  solve({ deal: lines });
});
$("use-seed").addEventListener("click", () => solve({ seed: Number($("seed").value || 0) }));
$("cancel").addEventListener("click", cancel);
init().catch((e) => { $("error").textContent = e.message; });
