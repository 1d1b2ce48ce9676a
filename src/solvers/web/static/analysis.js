// The Analysis page: a saved game (a solvers game record) stepped through
// move by move, the AI's evaluation after every move as a chart, and the
// costliest moves of the review with the move the AI prefers.
//
// The page reads the record from a file the user picks (or from the Play
// page's "Analyse", which leaves it in localStorage) and sends its content
// to the server: the server never reads a path. What each step draws comes
// from the server (POST /analysis/frames: the record's position at that
// step, through the record's seat's eyes) and the game's own board.js draws
// it, as on the Play page. The review runs as a server job (POST
// /analysis/review, polled at /api/tasks/ID, cancelled at
// /analysis/review/ID/cancel). Nothing here knows any game.
import { el, svgEl } from "/static/engine.js";

const $ = (id) => document.getElementById(id);
const FROM_PLAY = "solvers-analysis-record";     // the key the Play page leaves the record under
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const CHART = { w: 600, h: 160, left: 34, right: 10, top: 12, bottom: 22 };

const A = {
  record: null, data: null, module: null, board: null, at: 0, review: null, points: null,
  task: null, generation: 0, viewSeat: 0, reviewGen: 0,
};
// Read by the tests: the state, drawings counted, a hook to show a review.
window.solversAnalysis = { state: A, draws: 0, showReview: (r) => showReview(r) };

function showError(text) {
  // One line: the first line of the message, and never a stack.
  $("error").textContent = text ? String(text).split("\n")[0].slice(0, 300) : "";
}

async function postJSON(url, body) {
  const reply = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let data = null;
  try { data = await reply.json(); } catch (e) { data = null; }
  if (!reply.ok) throw new Error((data && data.error) || `the server refused it (HTTP ${reply.status})`);
  return data;
}

// ------------------------------------------------------------------ opening
async function readRecordFile(file) {
  let text;
  try { text = await file.text(); } catch (e) { throw new Error(`${file.name} cannot be read`); }
  let record;
  try { record = JSON.parse(text); } catch (e) {
    throw new Error(`${file.name} is not a saved game: it is not JSON`);
  }
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    throw new Error(`${file.name} is not a saved game: it should hold one JSON object`);
  }
  return record;
}

async function openRecord(record, seat = null) {
  showError("");
  const gen = ++A.generation;
  await cancelReview();
  document.body.dataset.loaded = "loading";
  try {
    const body = { record };
    if (seat !== null) body.seat = seat;
    const data = await postJSON("/analysis/frames", body);
    const [module, board] = await Promise.all([
      import(`/games/${data.game}/board.js`),
      postJSON(`/api/games/${data.game}/board`, { players: data.players, options: data.options }),
    ]);
    if (gen !== A.generation) return;
    A.reviewGen += 1;
    Object.assign(A, { record, data, module, board, viewSeat: data.view_seat, review: null, points: null,
                       at: seat === null ? 0 : A.at });
    setupSeats();
    $("review-start").disabled = false;
    $("costly").replaceChildren(el("li", { class: "muted", text: "Review the game to see them." }));
    document.body.dataset.loaded = "yes";
    goTo(A.at);
  } catch (e) {
    if (gen !== A.generation) return;
    document.body.dataset.loaded = A.data ? "yes" : "no";
    showError(e.message);
  }
}

// A referee record (everything visible) may be drawn as any seat sees it;
// a seat's record only as that seat.
function setupSeats() {
  const d = A.data;
  const referee = d.seat === null || d.seat === undefined;
  $("seat-row").hidden = !referee || d.players < 2;
  if (referee) {
    $("view-seat").replaceChildren(...[...Array(d.players).keys()].map((s) =>
      el("option", { value: s, text: seatName(s) })));
    $("view-seat").value = String(d.view_seat);
  }
}

function seatName(s) {
  const names = (A.data && A.data.names) || [];
  return names[s] ? `${names[s]} (seat ${s})` : `Seat ${s}`;
}

function moverName(mover) {
  if (mover === "chance" || mover === null || mover === undefined) return "Chance";
  return seatName(mover);
}

// ------------------------------------------------------------------ stepping
function steps() { return A.data ? A.data.moves.length : 0; }

function goTo(at) {
  if (!A.data) return;
  A.at = Math.max(0, Math.min(steps(), at));
  drawBoard();
  drawMoveList();
  drawDetail();
  drawChart();
  window.solversAnalysis.draws += 1;
}

function drawBoard() {
  const frame = A.data.frames[A.at];
  $("at").textContent = `move ${A.at} of ${steps()}`;
  $("first").disabled = $("prev").disabled = A.at === 0;
  $("next").disabled = $("last").disabled = A.at === steps();
  if (!frame.status) {       // a position the record cannot rebuild for its seat
    $("board").replaceChildren();
    $("status").replaceChildren(el("strong", { text: `${A.data.title}: ` }),
      el("span", { class: "muted", text: `no board here (${frame.missing})` }));
    return;
  }
  const names = [...Array(A.data.players).keys()].map((s) => (A.data.names || [])[s] || `Seat ${s}`);
  const ctx = {
    board: A.board, status: frame.status, seat: A.viewSeat, view: frame.view, legal: [],
    play: () => {}, hint: null, breakdown: frame.breakdown || null,
    annotations: frame.annotations || null, names,
  };
  const svg = $("board");
  svg.replaceChildren();
  svg.removeAttribute("viewBox");
  try {
    A.module.draw(svg, ctx);
  } catch (e) {
    showError("The board could not be drawn: " + e.message);
    console.error(e);
  }
  let text = "";
  if (A.module.describe) {
    try { text = A.module.describe(ctx) || ""; } catch (e) { text = ""; }
  }
  const st = frame.status;
  const where = st.phase === "over" ? "the end of the game"
    : A.at === 0 ? "the start" : `after move ${A.at}`;
  $("status").replaceChildren(el("strong", { text: `${A.data.title}: ` }), `${where}. `,
    el("span", { class: "muted", text }));
  if (frame.rebuilt) {
    $("status").append(el("div", { class: "muted rebuilt", text: "The record holds no position here: " +
      "the board is rebuilt from the moves as this seat read them, so what the moves do not say " +
      "(cards shown later, sheets shown at the end of a round) may be missing or stand-ins." }));
  }
}

function gradeOf(i) { return A.points && A.points[i] ? A.points[i].grade : null; }

function drawMoveList() {
  const list = $("move-list");
  if (list.childElementCount !== steps() || list.dataset.review !== String(A.reviewGen)) {
    list.replaceChildren(...A.data.moves.map((m, i) => {
      const grade = gradeOf(i);
      const li = el("li", { "data-step": i, class: [m.mover === "chance" ? "chance" : "",
        grade ? `grade-${grade}` : ""].join(" ").trim() || null,
        onclick: () => goTo(i + 1), title: moverName(m.mover) });
      li.append(m.move);
      if (grade) li.append(el("span", { class: "mark", text: MARKS[grade] || "" }));
      return li;
    }));
    list.dataset.review = String(A.reviewGen);
  }
  for (const li of list.children) li.classList.toggle("current", Number(li.dataset.step) === A.at - 1);
  const current = list.querySelector("li.current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

function fmt(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "-";
  return A.points && A.points.scale === "win" ? `${(100 * v).toFixed(0)}%` : v.toFixed(2);
}

function drawDetail() {
  const box = $("move-detail");
  if (A.at === 0) { box.replaceChildren(el("span", { class: "muted", text: "The start of the game." })); return; }
  const i = A.at - 1;
  const m = A.data.moves[i];
  const parts = [el("strong", { text: `${i + 1}. ${moverName(m.mover)}: ` }), m.move];
  const p = A.points && A.points[i];
  if (p) {
    parts.push(el("span", { class: "muted", text: ` - evaluation after it ${fmt(p.value)}` }));
    if (p.grade) {
      parts.push(el("br"), el("span", { class: `grade-${p.grade}`, text: `${p.grade}: ` }),
        `the AI prefers ${p.best} (${fmt(p.best_value)} instead of ${fmt(p.played_value)})`);
    } else if (p.best && p.best !== m.move && p.best_value !== null && p.best_value !== undefined) {
      parts.push(el("br"), el("span", { class: "muted",
        text: `the AI would play ${p.best} (${fmt(p.best_value)})` }));
    }
  }
  box.replaceChildren(...parts);
}

// ------------------------------------------------------------------ the review
// The review as the page uses it: one entry per step, {value, grade, best,
// best_value, played_value, loss}, values for the seat drawn, and the scale
// ("win": a chance in [0, 1]; "score": expected points).
function normaliseReview(review) {
  const rows = review.points || review.steps || review.moves;
  if (!Array.isArray(rows) || rows.length !== steps()) {
    throw new Error(`the review has ${Array.isArray(rows) ? rows.length : "no"} points for ${steps()} moves`);
  }
  const seat = A.viewSeat;
  const pick = (v) => {
    if (Array.isArray(v)) return typeof v[seat] === "number" ? v[seat] : null;
    if (v && typeof v === "object") return typeof v[seat] === "number" ? v[seat] : null;
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  };
  const out = rows.map((r) => ({
    value: pick(r.value ?? r.values), grade: MARKS[r.grade] ? r.grade : null, best: r.best ?? null,
    best_value: pick(r.best_value), played_value: pick(r.played_value), loss: pick(r.loss),
  }));
  // solvers.review says what its values are: "win chance" or "expected score".
  let scale = { "win chance": "win", "expected score": "score" }[review.measure] || null;
  if (scale !== "win" && scale !== "score") {
    scale = out.every((p) => p.value === null || (p.value >= 0 && p.value <= 1)) && A.data.players > 1
      ? "win" : "score";
  }
  out.scale = scale;
  return out;
}

function showReview(review) {
  A.review = review;
  A.points = normaliseReview(review);
  A.reviewGen += 1;
  drawCostly();
  goTo(A.at);
}

function drawCostly() {
  const graded = A.points.map((p, i) => ({ ...p, i })).filter((p) => p.grade);
  graded.sort((a, b) => (b.loss ?? 0) - (a.loss ?? 0) || a.i - b.i);
  if (!graded.length) {
    $("costly").replaceChildren(el("li", { class: "muted", text: "No costly move: well played." }));
    return;
  }
  $("costly").replaceChildren(...graded.map((p) => el("li", {
    class: `grade-${p.grade}`, "data-step": p.i, onclick: () => goTo(p.i + 1),
    text: `move ${p.i + 1}, ${A.data.moves[p.i].move}: ${p.grade}` +
          (p.best ? ` (the AI prefers ${p.best}, ${fmt(p.best_value)} instead of ${fmt(p.played_value)})` : ""),
  })));
}

async function startReview() {
  if (!A.record || A.task) return;
  showError("");
  const iterations = Math.round(Number($("review-iterations").value));
  if (!(iterations >= 1)) { showError("the review's iterations should be a whole number of at least 1"); return; }
  const gen = A.generation;
  $("review-start").disabled = true;
  $("review-job").classList.add("on");
  $("review-progress").value = 0;
  $("review-text").textContent = "starting";
  try {
    const started = await postJSON("/analysis/review", { record: A.record, iterations, seed: 0 });
    A.task = started.task;
    for (;;) {
      await new Promise((r) => setTimeout(r, 150));
      const reply = await fetch(`/api/tasks/${started.task}`).then((r) => r.json());
      if (gen !== A.generation || A.task !== started.task) return;
      const [done, total] = reply.progress || [0, 0];
      $("review-progress").value = total ? done / total : 0;
      $("review-text").textContent = total ? `${done} / ${total} moves` : "";
      if (reply.done) {
        if (reply.error) throw new Error(reply.error === "review cancelled" ? "Review cancelled." : reply.error);
        showReview(reply.result);
        return;
      }
    }
  } catch (e) {
    if (gen === A.generation) showError(e.message);
  } finally {
    if (gen === A.generation) {
      A.task = null;
      $("review-start").disabled = !A.record;
      $("review-job").classList.remove("on");
    }
  }
}

async function cancelReview() {
  const tid = A.task;
  if (!tid) return;
  A.task = null;
  $("review-job").classList.remove("on");
  $("review-start").disabled = !A.record;
  try { await postJSON(`/analysis/review/${tid}/cancel`, {}); } catch (e) { /* already over */ }
}

// ------------------------------------------------------------------ the chart
function drawChart() {
  const svg = $("eval-chart");
  const n = steps();
  const { w, h, left, right, top, bottom } = CHART;
  const kids = [];
  const x = (i) => left + (n <= 1 ? 0.5 : i / (n - 1)) * (w - left - right);
  const pts = A.points;
  let lo = 0, hi = 1;
  if (pts && pts.scale === "score") {
    const vals = pts.map((p) => p.value).filter((v) => v !== null);
    lo = Math.min(0, ...vals);
    hi = Math.max(lo + 1e-9, ...vals);
  }
  const y = (v) => top + (1 - (v - lo) / (hi - lo)) * (h - top - bottom);
  kids.push(svgEl("line", { class: "axis", x1: left, y1: y(lo), x2: w - right, y2: y(lo) }));
  kids.push(svgEl("line", { class: "axis", x1: left, y1: top, x2: left, y2: h - bottom }));
  if (!pts || pts.scale === "win") {
    kids.push(svgEl("line", { class: "half", x1: left, y1: y(0.5), x2: w - right, y2: y(0.5) }));
    kids.push(svgEl("text", { x: 2, y: y(1) + 4 }, "100%"), svgEl("text", { x: 8, y: y(0.5) + 4 }, "50%"),
              svgEl("text", { x: 14, y: y(0) + 4 }, "0%"));
  } else {
    kids.push(svgEl("text", { x: 2, y: y(hi) + 4 }, hi.toFixed(1)), svgEl("text", { x: 2, y: y(lo) + 4 }, lo.toFixed(1)));
  }
  if (n) {
    const cur = A.at === 0 ? left : x(A.at - 1);
    kids.push(svgEl("line", { class: "cursor", x1: cur, y1: top, x2: cur, y2: h - bottom }));
  }
  if (pts) {
    const line = pts.map((p, i) => (p.value === null ? null : `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`))
      .filter(Boolean).join(" ");
    kids.push(svgEl("polyline", { class: "curve", points: line }));
  }
  const colours = { inaccuracy: "#d29a00", mistake: "#c46a1a", blunder: "#b3261e" };
  for (let i = 0; i < n; i++) {
    const p = pts ? pts[i] : null;
    const v = p && p.value !== null ? p.value : null;
    const cy = v === null ? y(pts && pts.scale === "score" ? lo : 0.5) : y(v);
    const mover = A.data.moves[i].mover;
    const dot = svgEl("circle", {
      class: `point${!pts ? " pending" : v === null ? " unknown" : ""}${p && p.grade ? " graded" : ""}`, "data-step": i,
      "data-grade": p && p.grade ? p.grade : null, cx: x(i).toFixed(1), cy: cy.toFixed(1),
      r: p && p.grade ? 4.5 : mover === "chance" ? 1.6 : 2.4,
      fill: p && p.grade ? colours[p.grade] : mover === "chance" ? "#9aa5b1" : "#1f6feb",
    });
    dot.append(svgEl("title", {}, `${i + 1}. ${A.data.moves[i].move}${v === null ? "" : ": " + fmt(v)}`));
    dot.addEventListener("click", () => goTo(i + 1));
    kids.push(dot);
  }
  svg.replaceChildren(...kids);
  const who = A.data.seat === null || A.data.seat === undefined ? seatName(A.viewSeat) : seatName(A.data.seat);
  $("chart-caption").textContent = !pts ? "The chart fills in when the review is done: press Review."
    : pts.scale === "win" ? `The AI's win chance for ${who} after each move (click a point to go there).`
    : `The AI's expected score for ${who} after each move (click a point to go there).`;
  const unknown = pts ? pts.filter((p) => p.value === null).length : 0;
  if (unknown) {
    $("chart-caption").textContent += ` ${unknown} of ${n} moves are not judged (grey): the record ` +
      "does not hold their position for its seat (a move it did not see whole comes before them).";
  }
}

// ------------------------------------------------------------------ wiring
$("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const record = await readRecordFile(file);
    await openRecord(record);
  } catch (e) {
    showError(e.message);
  }
});
$("view-seat").addEventListener("change", () => {
  if (A.record) openRecord(A.record, Number($("view-seat").value)).then(() => {
    if (A.review) showReview(A.review);
  });
});
$("first").addEventListener("click", () => goTo(0));
$("prev").addEventListener("click", () => goTo(A.at - 1));
$("next").addEventListener("click", () => goTo(A.at + 1));
$("last").addEventListener("click", () => goTo(steps()));
$("review-start").addEventListener("click", startReview);
$("review-cancel").addEventListener("click", async () => {
  await cancelReview();
  $("review-text").textContent = "";
});
document.addEventListener("keydown", (event) => {
  if (!A.data || event.target.closest("input, select, textarea")) return;
  const moves = { ArrowLeft: A.at - 1, ArrowRight: A.at + 1, Home: 0, End: steps() };
  if (event.key in moves) {
    event.preventDefault();
    goTo(moves[event.key]);
  }
});

// The game the Play page's "Analyse" left here.
if (new URLSearchParams(location.search).get("from") === "play") {
  const text = localStorage.getItem(FROM_PLAY);
  localStorage.removeItem(FROM_PLAY);
  if (text) {
    let record = null;
    try { record = JSON.parse(text); } catch (e) { showError("the game from the Play page could not be read"); }
    if (record) openRecord(record);
  } else {
    showError("no game came from the Play page: open a saved game instead");
  }
}
drawChartEmpty();

function drawChartEmpty() {
  if (!A.data) $("eval-chart").replaceChildren();
}
