// The Atlas page: the Coast to Coast challenge table as an SVG chart (a bar
// per rate, a whisker per 95% interval), sortable; loaded from the JSON of
// `solve c2c --all-challenges --json` or computed by the server (task "atlas").
import { svgEl } from "/static/engine.js";
import { runTask } from "/static/tasks.js";

const $ = (id) => document.getElementById(id);
let table = null;
window.solversAtlas = { table: null };
const COLOURS = { ceiling: "#2b6cb0", online: "#dd6b20" };

function check(data) {
  if (!data || !Array.isArray(data.challenges) || !data.challenges.length) {
    throw new Error("not a challenge table: expected the JSON of solve c2c --all-challenges --json");
  }
  for (const r of data.challenges) {
    for (const k of ["challenge", "ceiling", "online", "ceiling_ci95", "online_ci95"]) {
      if (!(k in r)) throw new Error(`a row has no ${k}`);
    }
  }
  return data;
}

function setTable(data) {
  table = check(data);
  window.solversAtlas.table = table;
  render();
}

function sorted(rows) {
  const key = $("sort").value;
  const by = {
    ceiling: (r) => [-r.ceiling, -r.online, r.challenge],
    online: (r) => [-r.online, -r.ceiling, r.challenge],
    gap: (r) => [-(r.ceiling - r.online), r.challenge],
    required: (r) => [r.required ?? 99, r.challenge],
    challenge: (r) => [r.challenge],
  }[key];
  return [...rows].sort((a, b) => {
    const ka = by(a), kb = by(b);
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  });
}

function render() {
  const svg = $("chart");
  svg.replaceChildren();
  const rows = sorted(table.challenges);
  const left = 60, top = 40, plotH = 260, band = 26, bottom = 150;
  // At least the width of a full table, so a few challenges are not blown up.
  const W = Math.max(left + rows.length * band + 20, 900), H = top + plotH + bottom;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("font-family", "system-ui, sans-serif");
  const y = (v) => top + plotH * (1 - v);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(svgEl("line", { x1: left, x2: W - 10, y1: y(t), y2: y(t), stroke: "#e2e8f0" }));
    svg.append(svgEl("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", "font-size": 10 }, `${t * 100}%`));
  }
  svg.append(svgEl("text", { x: 14, y: top + plotH / 2, "font-size": 11, transform: `rotate(-90 14 ${top + plotH / 2})`,
                             "text-anchor": "middle" }, `share of ${table.shuffles ?? "?"} shuffles won`));
  let lx = left;
  for (const [key, label] of [["ceiling", "ceiling (hindsight, every card known)"],
                              ["online", `online player (${table.online_agent === "auto" ? "learned values where they ship"
                                : table.online_agent ?? "revealed cards only"})`]]) {
    svg.append(svgEl("rect", { x: lx, y: 12, width: 12, height: 12, fill: COLOURS[key] }));
    svg.append(svgEl("text", { x: lx + 16, y: 22, "font-size": 11 }, label));
    lx += 30 + label.length * 6;
  }
  rows.forEach((r, i) => {
    const g = svgEl("g", { class: "challenge", "data-challenge": r.challenge });
    const x0 = left + i * band + 3;
    ["ceiling", "online"].forEach((key, j) => {
      const v = r[key], [lo, hi] = r[key + "_ci95"];
      const x = x0 + j * 10;
      const bar = svgEl("rect", { class: "chart-bar", "data-key": key, "data-value": v,
        x, y: y(v), width: 9, height: Math.max(0.5, plotH * v), fill: COLOURS[key] });
      bar.append(svgEl("title", {}, `${r.challenge}: ${key} ${(v * 100).toFixed(1)}% (95% interval ${(lo * 100).toFixed(1)}% to ${(hi * 100).toFixed(1)}%)`));
      g.append(bar);
      const cx = x + 4.5;
      g.append(svgEl("path", { class: "whisker", "data-key": key, "data-low": lo, "data-high": hi,
        d: `M${cx},${y(lo)} V${y(hi)} M${cx - 3},${y(lo)} H${cx + 3} M${cx - 3},${y(hi)} H${cx + 3}`,
        stroke: "#1a202c", "stroke-width": 1.2, fill: "none" }));
    });
    const tx = x0 + 10, ty = top + plotH + 8;
    g.append(svgEl("text", { x: tx, y: ty, "font-size": 10, "text-anchor": "end",
                             transform: `rotate(-60 ${tx} ${ty})` },
      r.challenge.length > 24 ? r.challenge.slice(0, 22) + "..." : r.challenge));
    g.addEventListener("click", () => {
      $("detail").textContent = `${r.challenge}: ${r.required ?? "?"} required locations; ceiling ` +
        `${(r.ceiling * 100).toFixed(1)}% [${r.ceiling_ci95.map((v) => (v * 100).toFixed(1)).join(", ")}], online ` +
        `${(r.online * 100).toFixed(1)}% [${r.online_ci95.map((v) => (v * 100).toFixed(1)).join(", ")}]` +
        (r.feasible === false ? "; no shuffle can win it" : r.best_score ? `; best possible score ${r.best_score}` : "") +
        (r.online_agent ? `; online player ${r.online_agent}` : "");
    });
    svg.append(g);
  });
  $("caption").textContent = `${rows.length} challenges, ${table.shuffles ?? "?"} shuffles each (seed ${table.seed ?? "?"}). Click a challenge for its numbers.`;
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  try {
    setTable(JSON.parse(await file.text()));
    $("error").textContent = "";
  } catch (e) {
    $("error").textContent = `${file.name}: ${e.message}`;
  }
});
$("sort").addEventListener("change", () => table && render());
$("compute").addEventListener("click", async () => {
  $("error").textContent = "";
  $("compute").disabled = true;
  document.body.dataset.computing = "1";
  const params = { shuffles: Number($("shuffles").value || 3), seed: Number($("seed").value || 0) };
  const only = $("only").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (only.length) params.challenges = only;
  try {
    setTable(await runTask("c2c", "atlas", params, (r) => {
      const [done, total] = r.progress;
      $("progress").value = total ? done / total : 0;
      $("progress-text").textContent = `${done} / ${total} challenges, ${r.seconds.toFixed(0)} s`;
    }));
  } catch (e) {
    $("error").textContent = e.message;
  } finally {
    $("compute").disabled = false;
    delete document.body.dataset.computing;
  }
});
