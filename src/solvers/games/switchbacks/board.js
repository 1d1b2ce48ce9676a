// Switchbacks in the browser: the hex map with its numbered tiles, the
// trails joining consecutive numbers on neighbouring hexes (thick where a
// complete hiking path scores), every hiker in its seat's colour, the seat's
// hand and set-aside tiles, each seat's hikers and points so far, and a
// legend. Clicking a tile of the hand selects the tile to place; clicking a
// highlighted hex explores it there; during the hike step the three buttons
// under the hand play hike solo / hike with buddies / buddy up.
// Everything comes from ctx: the board (solvers.games.switchbacks.web.board:
// geometry, neighbours, what each action id means), the seat's view (its
// information state: the map, the hikers, its own hand only), the
// annotations (solvers.games.switchbacks.web.annotate: the rules' runs of
// consecutive numbers, complete or not, and every seat's points so far) and
// the legal moves the server listed. No rules are computed here.
import { add, hintBadge, hints, previousView, lastCaption, LAST_COLOUR } from "/static/svg.js";
export const title = "Switchbacks";

const SEAT_COLOURS = ["#1a5fd0", "#d0312d", "#188038", "#e0a300"];   // as the terminal: blue, red, green, yellow
const SEAT_LETTERS = "abcd";
const TRAIL = "#6b3e13";
const HINT = "#7c3aed";
const PANEL_W = 340;
const LEGEND_H = 58;
// Tile colours by elevation (tile number), low to high.
const RAMP = [[0, [183, 223, 160]], [0.45, [232, 230, 162]], [0.75, [226, 192, 143]], [1, [207, 169, 138]]];

let selectedTile = null;     // the hand tile chosen for the next explore (kept between draws)
let lastDraw = null;         // [svg, ctx], to redraw when a tile is selected

function tileColour(tile, tiles) {
  const t = tiles > 1 ? (tile - 1) / (tiles - 1) : 0;
  let i = 0;
  while (i < RAMP.length - 2 && t > RAMP[i + 1][0]) i++;
  const [t0, c0] = RAMP[i], [t1, c1] = RAMP[i + 1];
  const f = Math.min(1, Math.max(0, (t - t0) / (t1 - t0)));
  return `rgb(${c0.map((c, k) => Math.round(c + f * (c1[k] - c)))})`;
}

// The outline of a pointy-top hex of corner radius s around (x, y).
function hexPoints(x, y, s) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(x + s * Math.cos(a)).toFixed(1)},${(y + s * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// The trails to draw, from the annotations' paths (the rules' runs): a
// segment between the hexes of each pair of consecutive tiles of a run,
// thick when the run is a complete path, and the tiles on complete paths.
function trails(paths) {
  const segments = [], onComplete = new Set();   // segments: [hex, hex, complete]
  for (const p of paths) {
    for (let i = 0; i + 1 < p.hexes.length; i++) segments.push([p.hexes[i], p.hexes[i + 1], p.complete]);
    if (p.complete) for (const t of p.tiles) onComplete.add(t);
  }
  return { segments, onComplete };
}

// One hiker marker (a pair is two discs side by side).
function hikers(parent, x, y, seat, count, r = 6.5) {
  const fill = SEAT_COLOURS[seat % SEAT_COLOURS.length];
  const dx = count === 2 ? [-r + 0.5, r - 0.5] : [0];
  for (const d of dx) {
    add(parent, "circle", { cx: x + d, cy: y, r, fill, stroke: "#fff", "stroke-width": 1.3, class: "hiker" });
    add(parent, "text", { x: x + d, y: y + 3, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700,
                          fill: seat === 3 ? "#222" : "#fff" }, SEAT_LETTERS[seat]);
  }
}

function pluralise(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

export function describe(ctx) {
  const v = ctx.view;
  if (!v) return "";
  const stack = `stack: ${pluralise(v.stack, "tile")}`;
  if (v.step === "over") return "every tile has been played";
  if (!ctx.legal.length) return stack;
  if (v.step === "explore") return `pick a tile of your hand, then click an empty hex - ${stack}`;
  const tile = v.board[String(v.just_explored)];
  return `tile ${tile} explored: hike solo, hike with buddies or buddy up - ${stack}`;
}

export function draw(svg, ctx) {
  lastDraw = [svg, ctx];
  const b = ctx.board;
  const v = ctx.view || { board: {}, hikers: {}, hand: [], set_aside: [], hand_sizes: [], set_aside_sizes: [],
                          unplaced: [], stack: 0, step: "deal", turn_of: 0, just_explored: null };
  const names = ctx.names || [];
  const ann = ctx.annotations || { paths: [], points: v.hand_sizes.map(() => 0) };
  const s = b.hex_size, BW = b.width, BH = b.height;
  const W = BW + PANEL_W, H = BH + LEGEND_H;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("font-family", "system-ui, sans-serif");
  add(svg, "rect", { x: 0, y: 0, width: W, height: H, fill: "#f7f8fa" });

  // The legal moves, by what they mean (board.actions), and the tile to place.
  const explores = new Map();                      // tile -> Map(hex -> action)
  const hikeMoves = new Map();                     // "hike_solo" ... -> action
  for (const m of ctx.legal) {
    const [kind, tile, hex] = b.actions[m.action] || [];
    if (kind === "explore") {
      if (!explores.has(tile)) explores.set(tile, new Map());
      explores.get(tile).set(hex, m.action);
    } else if (kind) hikeMoves.set(kind, m.action);
  }
  // The hint's three best moves, ranked (their rings and badges play
  // exactly the hinted move, whatever tile is selected).
  const hintTop = hints(ctx, 3);
  if (!explores.has(selectedTile)) selectedTile = explores.size ? Math.min(...explores.keys()) : null;
  const targets = explores.get(selectedTile) || new Map();

  const hinted = new Map(hintTop.map((h) => [h.action, h]));   // action -> {rank, action, move}
  // What changed on the map since the last drawing: the last move(s).
  const before = previousView(ctx);
  const freshHexes = new Set();
  if (before) {
    for (const [h, tile] of Object.entries(v.board)) if (before.board[h] !== tile) freshHexes.add(Number(h));
    for (const [h, hk] of Object.entries(v.hikers)) {
      if (JSON.stringify((before.hikers || {})[h]) !== JSON.stringify(hk)) freshHexes.add(Number(h));
    }
  }

  // ---- the map
  const { segments, onComplete } = trails(ann.paths);
  const complete = (t) => onComplete.has(t);
  const mover = SEAT_COLOURS[v.turn_of % SEAT_COLOURS.length];
  const map = add(svg, "g", { class: "map" });
  for (const hx of b.hexes) {
    const tile = v.board[String(hx.id)];
    const g = add(map, "g", { "data-hex": hx.id });
    if (tile === undefined) {
      const action = targets.get(hx.id);
      add(g, "polygon", { points: hexPoints(hx.x, hx.y, s - 1), fill: action !== undefined ? "#dbe8ff" : "#eef1f4",
                          stroke: action !== undefined ? "#1f6feb" : "#c4ccd4", "stroke-width": action !== undefined ? 1.6 : 1,
                          "stroke-dasharray": action !== undefined ? "4 3" : null });
      add(g, "text", { x: hx.x, y: hx.y + 3.5, "text-anchor": "middle", "font-size": 9.5, fill: "#8a96a3" }, `hex ${hx.id}`);
      if (action !== undefined) {
        g.setAttribute("data-action", action);
        g.setAttribute("class", "legal");
        g.style.cursor = "pointer";
        add(g, "title", {}, `explore ${selectedTile} on hex ${hx.id}`);
        g.addEventListener("click", () => ctx.play(action));
      } else add(g, "title", {}, `hex ${hx.id} (empty)`);
    } else {
      const here = hx.id === v.just_explored;
      add(g, "polygon", { points: hexPoints(hx.x, hx.y, s - 1), fill: tileColour(tile, b.tiles),
                          stroke: here ? mover : "#8c7a66", "stroke-width": here ? 3.5 : 1 });
      add(g, "title", {}, `tile ${tile} on hex ${hx.id}` + (complete(tile) ? " (on a complete path)" : "") +
                          (here ? " (explored this turn)" : ""));
    }
  }
  // Trails under the numbers: dashed while too short, thick when complete.
  const trailLayer = add(svg, "g", { class: "trails", "pointer-events": "none" });
  for (const [a, c, done] of segments) {
    add(trailLayer, "line", { x1: b.hexes[a].x, y1: b.hexes[a].y, x2: b.hexes[c].x, y2: b.hexes[c].y,
                              stroke: TRAIL, "stroke-width": done ? 6 : 2.2, "stroke-linecap": "round",
                              "stroke-dasharray": done ? null : "5 4", opacity: done ? 0.8 : 0.9,
                              class: done ? "trail complete" : "trail" });
  }
  // Numbers and hikers on the tiles.
  const marks = add(svg, "g", { class: "marks", "pointer-events": "none" });
  for (const [h, tile] of Object.entries(v.board)) {
    const hx = b.hexes[Number(h)];
    add(marks, "circle", { cx: hx.x, cy: hx.y + 3, r: 12, fill: "#fff", opacity: 0.9,
                           stroke: complete(tile) ? TRAIL : "none", "stroke-width": 2 });
    add(marks, "text", { x: hx.x, y: hx.y + 8.5, "text-anchor": "middle", "font-size": 15, "font-weight": 700,
                         fill: "#1d2a35" }, String(tile));
    const hk = v.hikers[String(h)];
    if (hk) hikers(marks, hx.x, hx.y - 18, hk[0], hk[1]);
  }
  // The last move(s): an orange outline on each hex that changed.
  for (const h of freshHexes) {
    const hx = b.hexes[h];
    add(marks, "polygon", { points: hexPoints(hx.x, hx.y, s - 2.5), fill: "none", stroke: LAST_COLOUR,
                            "stroke-width": 3.5, class: "last-move", "data-hex": h });
  }
  // The hint: a ring and a badge on the hexes of the best explores; the
  // ring and the badge play exactly that move (its tile, whatever tile is selected).
  const hintLayer = add(svg, "g", { class: "hints" });
  const perHex = new Map();
  for (const h of hintTop) {
    const [kind, tile, hex] = b.actions[h.action] || [];
    if (kind !== "explore") continue;
    const hx = b.hexes[hex];
    const k = perHex.get(hex) || 0;
    perHex.set(hex, k + 1);
    if (!k) {
      const ring = add(hintLayer, "polygon", { points: hexPoints(hx.x, hx.y, s - 4), fill: "none", stroke: HINT,
                                               "stroke-width": 3, "stroke-dasharray": "3 2", class: "hint-ring legal",
                                               "data-action": h.action, "pointer-events": "stroke", cursor: "pointer" });
      add(ring, "title", {}, `Hint #${h.rank}: ${h.move}`);
      ring.addEventListener("click", (e) => { e.stopPropagation(); ctx.play(h.action); });
    }
    const badge = hintBadge(hintLayer, hx.x - 12 + 24 * k, hx.y + 22, h.rank, h, ctx, 8);
    add(badge, "text", { y: 14.5, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: HINT,
                         stroke: "#fff", "stroke-width": 2.5, "paint-order": "stroke" }, `tile ${tile}`);
  }

  // ---- the panel: the seat's hand, the hike choices, every seat
  const px = BW + 14;
  add(svg, "line", { x1: BW + 4, y1: 8, x2: BW + 4, y2: BH - 8, stroke: "#c9d2dc" });
  const me = names[ctx.seat] || `Seat ${ctx.seat}`;
  add(svg, "text", { x: px, y: 20, "font-size": 12, "font-weight": 600 }, `${me}: hand`);
  add(svg, "text", { x: W - 10, y: 20, "font-size": 11, "text-anchor": "end", fill: "#5d6b7a" },
      `stack: ${pluralise(v.stack, "tile")}`);
  const hs = 21;                                   // hand tiles: small hexes
  v.hand.forEach((tile, i) => {
    const x = px + hs + i * (2 * hs + 8), y = 52;
    const choosable = explores.has(tile);
    const chosen = tile === selectedTile;
    const g = add(svg, "g", { "data-tile": tile, class: chosen ? "hand selected" : "hand" });
    add(g, "polygon", { points: hexPoints(x, y, hs), fill: tileColour(tile, b.tiles),
                        stroke: chosen ? SEAT_COLOURS[ctx.seat % SEAT_COLOURS.length] : "#8c7a66",
                        "stroke-width": chosen ? 4 : 1 });
    add(g, "text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#1d2a35" },
        String(tile));
    if (choosable && !chosen) {
      g.style.cursor = "pointer";
      add(g, "title", {}, `place ${tile} next`);
      g.addEventListener("click", () => {
        selectedTile = tile;
        const [sv, c] = lastDraw;
        sv.replaceChildren();
        draw(sv, c);
      });
    }
  });
  // Set-aside tiles: the seat's own, out of play (greyed, dashed).
  const ax = px + v.hand.length * (2 * hs + 8) + 10;
  if (v.set_aside.length) {
    add(svg, "text", { x: ax, y: 34, "font-size": 9, fill: "#5d6b7a" }, "set aside (never played)");
    v.set_aside.forEach((tile, i) => {
      const x = ax + 14 + i * 32, y = 56;
      add(svg, "polygon", { points: hexPoints(x, y, 14), fill: "#e5e7eb", stroke: "#9aa5b1", "stroke-dasharray": "3 2" });
      add(svg, "text", { x, y: y + 4, "text-anchor": "middle", "font-size": 11, fill: "#5d6b7a" }, String(tile));
    });
  }
  // What to do now.
  let prompt = "";
  if (v.step === "explore" && explores.size) prompt = `Placing ${selectedTile}: click a blue hex (or pick another tile).`;
  else if (v.step === "hike" && hikeMoves.size) prompt = `Tile ${v.board[String(v.just_explored)]} explored: choose one.`;
  else if (v.step === "over") prompt = "Game over: every tile in hand has been played.";
  else if (v.step !== "deal") prompt = `${names[v.turn_of] || "Seat " + v.turn_of} to play.`;
  add(svg, "text", { x: px, y: 94, "font-size": 11, fill: "#34404c" }, prompt);
  // The hike step's three choices, as buttons (only the legal ones react).
  const choices = [["hike_solo", "Hike solo", "a solo hiker onto it (1 point)"],
                   ["hike_buddies", "Hike with buddies", "a waiting pair onto it (2 points)"],
                   ["buddy_up", "Buddy up", "join two solo hikers, place none"]];
  if (v.step === "hike" && hikeMoves.size) {
    choices.forEach(([kind, label, help], i) => {
      const y = 104 + i * 30, action = hikeMoves.get(kind);
      const g = add(svg, "g", { class: action !== undefined ? "legal hike" : "hike" });
      add(g, "rect", { x: px, y, width: PANEL_W - 28, height: 25, rx: 5,
                       fill: action !== undefined ? "#dbe8ff" : "#eceff2",
                       stroke: action !== undefined ? "#1f6feb" : "#c4ccd4" });
      add(g, "text", { x: px + 10, y: y + 16.5, "font-size": 11.5, "font-weight": 600,
                       fill: action !== undefined ? "#123" : "#9aa5b1" }, label);
      add(g, "text", { x: px + 136, y: y + 16.5, "font-size": 9.5, fill: action !== undefined ? "#34404c" : "#9aa5b1" },
          action !== undefined ? help : "not possible now");
      if (hinted.has(action)) {
        const h = hinted.get(action);
        hintBadge(g, px + PANEL_W - 44, y + 12.5, h.rank, h, ctx, 8);
      }
      if (action !== undefined) {
        g.setAttribute("data-action", action);
        g.style.cursor = "pointer";
        g.addEventListener("click", () => ctx.play(action));
      }
    });
  }
  // Every seat: colour, name, points so far (the annotations': hikers on
  // complete paths), tiles in hand and set aside, hikers still to place.
  const points = ann.points;
  const top = 216;
  add(svg, "text", { x: px, y: top - 8, "font-size": 12, "font-weight": 600 }, "Players");
  add(svg, "text", { x: W - 10, y: top - 8, "font-size": 9.5, "text-anchor": "end", fill: "#5d6b7a" }, "points so far");
  v.hand_sizes.forEach((n, seat) => {
    const y = top + seat * 42;
    const turn = seat === v.turn_of && v.step !== "over" && v.step !== "deal";
    const g = add(svg, "g", { class: "seat", "data-seat": seat, "data-score": points[seat] });
    add(g, "rect", { x: px - 4, y, width: PANEL_W - 20, height: 38, rx: 5, fill: turn ? "#fff7d6" : "#fff",
                     stroke: turn ? "#e0a300" : "#dde3ea" });
    hikers(g, px + 10, y + 13, seat, 1, 7);
    add(g, "text", { x: px + 24, y: y + 17, "font-size": 12, "font-weight": 600 },
        `${names[seat] || "Seat " + seat}${turn ? "  (to play)" : ""}`);
    const [solo, pairs] = v.unplaced[seat] || [0, 0];
    add(g, "text", { x: px + 6, y: y + 32, "font-size": 9.5, fill: "#5d6b7a" },
        `hand ${n}, set aside ${v.set_aside_sizes[seat]}; to place: ${solo} solo, ${pluralise(pairs, "pair")}`);
    add(g, "text", { x: W - 14, y: y + 26, "font-size": 18, "font-weight": 700, "text-anchor": "end" },
        String(points[seat]));
  });

  lastCaption(svg, px, BH - 8, ctx, { "font-size": 10 });

  // ---- the legend
  const ly = BH + 8;
  add(svg, "line", { x1: 8, y1: ly - 4, x2: W - 8, y2: ly - 4, stroke: "#c9d2dc" });
  const ramp = [1, Math.ceil(b.tiles / 4), Math.ceil(b.tiles / 2), Math.ceil(3 * b.tiles / 4), b.tiles];
  ramp.forEach((t, i) => {
    add(svg, "polygon", { points: hexPoints(18 + i * 22, ly + 14, 10), fill: tileColour(t, b.tiles), stroke: "#8c7a66" });
    add(svg, "text", { x: 18 + i * 22, y: ly + 17, "text-anchor": "middle", "font-size": 7.5 }, String(t));
  });
  add(svg, "text", { x: 126, y: ly + 17, "font-size": 9.5 }, "elevation, low to high");
  add(svg, "line", { x1: 250, y1: ly + 14, x2: 280, y2: ly + 14, stroke: TRAIL, "stroke-width": 2.2, "stroke-dasharray": "5 4" });
  add(svg, "text", { x: 286, y: ly + 17, "font-size": 9.5 }, "trail: next number on a neighbouring hex");
  add(svg, "line", { x1: 490, y1: ly + 14, x2: 520, y2: ly + 14, stroke: TRAIL, "stroke-width": 6, opacity: 0.8,
                     "stroke-linecap": "round" });
  add(svg, "text", { x: 526, y: ly + 17, "font-size": 9.5 }, `complete path (${b.min_run}+ tiles): hikers on it score`);
  hikers(svg, 16, ly + 38, ctx.seat, 1);
  add(svg, "text", { x: 28, y: ly + 41, "font-size": 9.5 }, "solo hiker: 1 point");
  hikers(svg, 140, ly + 38, ctx.seat, 2);
  add(svg, "text", { x: 158, y: ly + 41, "font-size": 9.5 }, "buddy pair: 2 points");
  add(svg, "polygon", { points: hexPoints(290, ly + 38, 9), fill: "#dbe8ff", stroke: "#1f6feb", "stroke-dasharray": "3 2" });
  add(svg, "text", { x: 304, y: ly + 41, "font-size": 9.5 }, "where the chosen tile can go");
  add(svg, "polygon", { points: hexPoints(460, ly + 38, 9), fill: "#e2c08f", stroke: mover, "stroke-width": 2.5 });
  add(svg, "text", { x: 474, y: ly + 41, "font-size": 9.5 }, "explored this turn");
  add(svg, "polygon", { points: hexPoints(590, ly + 38, 9), fill: "none", stroke: LAST_COLOUR, "stroke-width": 2.5 });
  add(svg, "text", { x: 604, y: ly + 41, "font-size": 9.5 }, "changed by the last move");
}
