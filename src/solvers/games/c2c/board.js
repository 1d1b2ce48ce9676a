// Coast to Coast in the browser: the map with its lines, the seat's sheet
// (circled, crossed off, exact matches), the cards in hand. Clicking a
// location plays the legal move that marks it (with the selected card when
// circling); clicking a card selects it. Everything comes from ctx: the
// board (solvers.games.c2c.web.board), the view and the legal moves.
import { add, hintBadge, hints, previousView, lastCaption, LAST_COLOUR } from "/static/svg.js";
export const title = "Coast to Coast";

const TYPE_FILL = { tree: "#3f9b4a", yellow: "#f2c12e", red: "#d9473f", building: "#8d96a0",
                    city: "#ffffff", monument: "#3b78c2" };
const HIGHWAY_COLOURS = ["#6c3fb5", "#1f8a8a", "#c46a1a", "#2b6cb0", "#b83280", "#4a5568"];
const SEAT_COLOURS = ["#0b57d0", "#c5221f", "#188038", "#a142f4"];
const R = 11;

let selectedCard = null;     // the card chosen for the next circle (kept between draws)
let lastDraw = null;         // [svg, ctx], to redraw when a card is selected
const LABEL_FONT = 7;

// Where each location's name goes: the first of a few places around its
// disc (below, above, right, left, then further out) whose box overlaps no
// label placed before it and no location's disc; the least overlapping
// place when none is free. Boxes come from the browser (getBBox).
function placeLabels(layer, loc) {
  const discs = loc.map((l) => ({ x: l.x - R - 1, y: l.y - R - 1, width: 2 * R + 2, height: 2 * R + 2 }));
  const overlap = (a, c) => Math.max(0, Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x)) *
                            Math.max(0, Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y));
  const placed = [];
  for (const l of loc) {
    const text = l.name.length > 22 ? l.name.slice(0, 20) + "..." : l.name;
    const t = add(layer, "text", { "font-size": LABEL_FONT, fill: "#34404c", class: "loc-label",
                                   "data-label": l.id, "paint-order": "stroke", stroke: "#f3f6f9",
                                   "stroke-width": 2 }, text);
    const spots = [];
    for (const d of [0, 9, 18]) {
      spots.push([l.x, l.y + R + 9 + d, "middle"], [l.x, l.y - R - 4 - d, "middle"],
                 [l.x + R + 3 + d, l.y + 2.5, "start"], [l.x - R - 3 - d, l.y + 2.5, "end"],
                 [l.x + R + d, l.y + R + 7 + d, "start"], [l.x - R - d, l.y + R + 7 + d, "end"],
                 [l.x + R + d, l.y - R - 2 - d, "start"], [l.x - R - d, l.y - R - 2 - d, "end"]);
    }
    let best = null;
    for (const [x, y, anchor] of spots) {
      t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("text-anchor", anchor);
      const bb = t.getBBox();
      const box = { x: bb.x - 0.5, y: bb.y - 0.5, width: bb.width + 1, height: bb.height + 1 };
      let cost = 0;
      for (const p of placed) cost += overlap(box, p);
      discs.forEach((c, i) => { if (i !== l.id) cost += overlap(box, c); });
      if (best === null || cost < best.cost) best = { cost, x, y, anchor, box };
      if (cost === 0) break;
    }
    t.setAttribute("x", best.x); t.setAttribute("y", best.y); t.setAttribute("text-anchor", best.anchor);
    placed.push(best.box);
  }
}

// The legal moves by location: {loc: [{action, move, card}]}.
function movesByLocation(ctx) {
  const out = new Map();
  for (const m of ctx.legal) {
    const [loc, card] = ctx.board.actions[m.action] || [null, null];
    if (loc === null) continue;
    if (!out.has(loc)) out.set(loc, []);
    out.get(loc).push({ ...m, card });
  }
  return out;
}

// One line of plain text for the status bar (set as text: a map may name a
// location with any characters).
export function describe(ctx) {
  const v = ctx.view;
  if (!v) return "";
  const b = ctx.board;
  const round = v.round === 0 ? "Setup" : v.round > 5 ? "Finished" : `Round ${v.round} of 5`;
  const step = ctx.legal.length
    ? (v.step === "cross" ? "cross off one location of your cards" : "circle a location with a card")
    : "";
  const ch = b.challenge === null || b.challenge === undefined ? "" :
    ` - challenge ${b.locations[b.challenge].name} (${b.required.filter((l) => v.sheet.circled.includes(l)).length}/${b.required.length} circled)`;
  return `${round}${step ? ": " + step : ""}${ch}`;
}

export function draw(svg, ctx) {
  lastDraw = [svg, ctx];
  const b = ctx.board, v = ctx.view || { sheet: { circled: [], crossed: [], exact: [] }, cards: [], used: [], others: {} };
  const W = b.width, mapH = b.height, sheetH = 150;
  svg.setAttribute("viewBox", `0 0 ${W} ${mapH + sheetH}`);
  svg.setAttribute("font-family", "system-ui, sans-serif");
  const circled = new Set(v.sheet.circled), crossed = new Set(v.sheet.crossed), exact = new Set(v.sheet.exact);
  const required = new Set(b.required || []);
  const byLoc = movesByLocation(ctx);
  const colour = SEAT_COLOURS[ctx.seat % SEAT_COLOURS.length];

  // Which card circles: keep the selection while it can still circle something.
  const circling = v.step === "circle" && ctx.legal.length > 0;
  const cardsWithMoves = [...new Set([...byLoc.values()].flat().map((m) => m.card).filter((c) => c !== null))];
  // The hint's best moves: their rings and badges play exactly the hinted
  // move, whatever card is selected.
  const top = hints(ctx, 3);
  if (!circling || !cardsWithMoves.includes(selectedCard)) selectedCard = circling ? cardsWithMoves[0] ?? null : null;
  // What changed on the sheets since the last drawing: the last move(s).
  const before = previousView(ctx);
  const fresh = new Map();       // location -> seats whose sheet marked it since
  if (ctx.added) {               // given (the Solve page: what a round added)
    for (const l of ctx.added) fresh.set(l, [[ctx.seat, "added"]]);
  } else if (before) {
    const mark = (seat, now, was) => {
      for (const kind of ["circled", "crossed"]) {
        const old = new Set((was || {})[kind] || []);
        for (const l of (now || {})[kind] || []) {
          if (!old.has(l)) { if (!fresh.has(l)) fresh.set(l, []); fresh.get(l).push([seat, kind]); }
        }
      }
    };
    mark(ctx.seat, v.sheet, before.sheet);
    for (const [seat, sh] of Object.entries(v.others || {})) mark(Number(seat), sh, (before.others || {})[seat]);
  }

  add(svg, "rect", { x: 0, y: 0, width: W, height: mapH + sheetH, fill: "#f3f6f9" });
  if (b.outline && b.outline.length) {
    add(svg, "polygon", { points: b.outline.map((p) => p.join(",")).join(" "), fill: "#e4ecdf",
                          stroke: "#b9c6b0", "stroke-width": 1.5 });
  }
  const loc = b.locations;
  const lines = add(svg, "g", { class: "lines" });
  for (const [a, c] of b.dashed) {
    add(lines, "line", { x1: loc[a].x, y1: loc[a].y, x2: loc[c].x, y2: loc[c].y, stroke: "#8a96a3",
                         "stroke-width": 1.4, "stroke-dasharray": "5 4" });
  }
  for (const [a, c] of b.solid) {
    const hw = b.highways.indexOf(loc[a].highway);
    add(lines, "line", { x1: loc[a].x, y1: loc[a].y, x2: loc[c].x, y2: loc[c].y,
                         stroke: HIGHWAY_COLOURS[hw % HIGHWAY_COLOURS.length], "stroke-width": 3,
                         "stroke-linecap": "round", opacity: 0.75 });
  }
  // Highway names at their western end.
  for (const hw of b.highways) {
    const first = loc.find((l) => l.highway === hw);
    if (first) add(svg, "text", { x: first.x - R - 4, y: first.y + 4, "text-anchor": "end", "font-size": 10,
                                  fill: HIGHWAY_COLOURS[b.highways.indexOf(hw) % HIGHWAY_COLOURS.length],
                                  "font-weight": 600 }, hw);
  }

  // The hint's best moves by location (several cards may circle one location).
  const hinted = new Map();
  for (const h of top) {
    const [l] = b.actions[h.action] || [null];
    if (l === null) continue;
    if (!hinted.has(l)) hinted.set(l, []);
    hinted.get(l).push(h);
  }
  const others = Object.entries(v.others || {}).map(([seat, sh]) => [Number(seat), new Set(sh.circled), new Set(sh.crossed)]);

  const spots = add(svg, "g", { class: "locations" });
  for (const l of loc) {
    const g = add(spots, "g", { transform: `translate(${l.x},${l.y})`, "data-location": l.id });
    add(g, "title", {}, `${l.name} (${l.state}) - ${l.highway}, region ${l.region}, ${l.type}`);
    const moves = byLoc.get(l.id) || [];
    const move = v.step === "circle" ? moves.find((m) => m.card === selectedCard) : moves[0];
    if (move) {
      g.setAttribute("data-action", move.action);
      g.setAttribute("class", "legal");
      g.addEventListener("click", () => ctx.play(move.action));
      add(g, "circle", { r: R + 6, fill: "#d6e6ff", stroke: "#1f6feb", "stroke-width": 2,
                         "stroke-dasharray": "4 2" });
    }
    if (fresh.has(l.id)) {
      add(g, "circle", { r: R + 8, fill: "none", stroke: LAST_COLOUR, "stroke-width": 3, class: "last-move",
                         "data-seats": fresh.get(l.id).map(([q]) => q).join(" ") });
    }
    if (required.has(l.id)) add(g, "circle", { r: R + 3, fill: "none", stroke: "#d4a017", "stroke-width": 2 });
    add(g, "circle", { r: R, fill: TYPE_FILL[l.type] || "#ccc", stroke: "#34404c", "stroke-width": 1 });
    add(g, "text", { y: 3, "text-anchor": "middle", "font-size": 7.5, "font-weight": 600,
                     fill: l.type === "city" || l.type === "yellow" ? "#222" : "#fff" }, l.code);
    if (circled.has(l.id)) {
      add(g, "circle", { r: R + 2, fill: "none", stroke: colour, "stroke-width": 3, class: "circled" });
      if (exact.has(l.id)) add(g, "circle", { r: R + 5.5, fill: "none", stroke: colour, "stroke-width": 1.5, class: "exact" });
    }
    const via = (ctx.circledWith || {})[l.id];
    if (via !== undefined && circled.has(l.id)) {      // the Solve page: the card that circled it
      const tag = add(g, "g", { class: "circled-with", "data-card": via, transform: `translate(${-R - 3},${-R - 3})` });
      add(tag, "title", {}, `circled with ${loc[via].name}`);
      add(tag, "rect", { x: -21, y: -8, width: 24, height: 12, rx: 2, fill: "#fff", stroke: colour, "stroke-width": 1 });
      add(tag, "text", { x: -9, y: 1.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: colour },
          via === l.id ? "=" : b.locations[via].code);
    }
    if (crossed.has(l.id)) {
      add(g, "path", { d: `M${-R},${-R} L${R},${R} M${R},${-R} L${-R},${R}`, stroke: "#111", "stroke-width": 3,
                       class: "crossed" });
    }
    // The other seats' sheets as the seat may see them (as they stood when
    // the round began; at the end, their final sheets): a small disc in the
    // seat's colour per circle, an X on it per cross-off.
    others.forEach(([seat, circ, cross], k) => {
      if (!circ.has(l.id) && !cross.has(l.id)) return;
      const a = Math.PI * (0.25 + 0.5 * k), cx = (R + 1) * Math.cos(a), cy = (R + 1) * Math.sin(a);
      const c = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      const m = add(g, "g", { class: circ.has(l.id) ? "other-circled" : "other-crossed", "data-seat": seat });
      add(m, "circle", { cx, cy, r: 4, fill: circ.has(l.id) ? c : "#fff", stroke: c, "stroke-width": 1.5 });
      if (cross.has(l.id)) add(m, "path", { d: `M${cx - 3},${cy - 3} L${cx + 3},${cy + 3} M${cx + 3},${cy - 3} L${cx - 3},${cy + 3}`,
                                             stroke: "#111", "stroke-width": 1.5 });
    });
  }
  placeLabels(add(svg, "g", { class: "labels", "pointer-events": "none" }), loc);
  // The hint: a ring round each hinted location and a badge per hinted move,
  // each badge playing exactly its move (whatever card is selected).
  const hintLayer = add(svg, "g", { class: "hints" });
  for (const [l, list] of hinted) {
    const at = loc[l];
    const ring = add(hintLayer, "circle", { cx: at.x, cy: at.y, r: R + 10, fill: "none", stroke: "#7c3aed",
                                            "stroke-width": 3, "stroke-dasharray": "3 2", class: "hint-ring legal",
                                            "data-action": list[0].action, "pointer-events": "stroke",
                                            cursor: "pointer" });
    add(ring, "title", {}, `Hint #${list[0].rank}: ${list[0].move}`);
    ring.addEventListener("click", (e) => { e.stopPropagation(); ctx.play(list[0].action); });
    list.forEach((h, i) => hintBadge(hintLayer, at.x + R + 12 + i * 17, at.y - R - 6, h.rank, h, ctx, 7.5));
  }

  // The sheet: the seat's cards, then a legend.
  const sheetTop = mapH;
  add(svg, "line", { x1: 0, y1: sheetTop, x2: W, y2: sheetTop, stroke: "#c9d2dc" });
  const names = ctx.names || [];
  add(svg, "text", { x: 12, y: sheetTop + 18, "font-size": 12, "font-weight": 600 },
      `${names[ctx.seat] || "Seat " + ctx.seat}: ${circled.size} circled, ${crossed.size} crossed off, ${exact.size} exact`);
  const used = new Set(v.used || []);
  const cw = 118, ch = 46;
  (v.cards || []).forEach((card, i) => {
    const l = loc[card];
    const x = 12 + i * (cw + 8), y = sheetTop + 28;
    const g = add(svg, "g", { transform: `translate(${x},${y})`, "data-card": card });
    const crossMove = v.step === "cross" ? (byLoc.get(card) || [])[0] : null;
    const selectable = circling && cardsWithMoves.includes(card);
    add(g, "title", {}, `${l.name}: ${l.highway}, region ${l.region}, ${l.type}`);
    add(g, "rect", { width: cw, height: ch, rx: 5, fill: used.has(card) ? "#e5e7eb" : "#fff",
                     stroke: card === selectedCard && circling ? colour : "#9aa5b1",
                     "stroke-width": card === selectedCard && circling ? 3 : 1 });
    add(g, "circle", { cx: 14, cy: 16, r: 8, fill: TYPE_FILL[l.type], stroke: "#34404c" });
    add(g, "text", { x: 27, y: 19, "font-size": 10, "font-weight": 600 }, l.code);
    add(g, "text", { x: 8, y: 38, "font-size": 8 }, l.name.length > 24 ? l.name.slice(0, 22) + "..." : l.name);
    add(g, "text", { x: cw - 6, y: 19, "font-size": 8, "text-anchor": "end", fill: "#5d6b7a" },
        used.has(card) ? "used" : `${l.highway} R${l.region}`);
    if (crossMove) {
      g.setAttribute("data-action", crossMove.action);
      g.setAttribute("class", "legal");
      g.addEventListener("click", () => ctx.play(crossMove.action));
    } else if (selectable) {
      g.style.cursor = "pointer";
      g.addEventListener("click", () => {
        selectedCard = card;
        const [s, c] = lastDraw;
        s.replaceChildren();
        draw(s, c);
      });
    }
  });
  if (ctx.circledWith) {
    add(svg, "text", { x: 12, y: sheetTop + 92, "font-size": 10, fill: "#5d6b7a" },
        "Orange rings: what this round added to the sheet; tags: the card that circled each location (=: its own card, an exact match).");
  }
  if (circling) {
    add(svg, "text", { x: 12, y: sheetTop + 92, "font-size": 10, fill: "#5d6b7a" },
        `Circling with ${loc[selectedCard]?.name ?? "?"}: click a highlighted location (click another card to switch).`);
  }
  // Other seats, as they stood at the start of the round.
  let oy = mapH + 28;
  for (const [seat, s] of Object.entries(v.others || {})) {
    add(svg, "text", { x: W - 12, y: oy + 10, "text-anchor": "end", "font-size": 10,
                       fill: SEAT_COLOURS[Number(seat) % SEAT_COLOURS.length] },
        `${names[seat] || "Seat " + seat}: ${s.circled.length} circled, ${s.crossed.length} crossed off` +
        (v.round > 5 ? " (final sheet)" : " (at the round's start)"));
    oy += 14;
  }
  lastCaption(svg, W - 12, mapH + sheetH - 40, ctx, { "text-anchor": "end" });
  // Legend: the types and their points.
  const ly = sheetTop + sheetH - 22;
  let lx = 12;
  for (const t of b.types) {
    add(svg, "circle", { cx: lx + 6, cy: ly, r: 6, fill: TYPE_FILL[t.name] || "#ccc", stroke: "#34404c" });
    const label = add(svg, "text", { x: lx + 16, y: ly + 4, "font-size": 9 }, `${t.label}: ${t.points}`);
    lx += 16 + 6.2 * label.textContent.length;
  }
  add(svg, "text", { x: 12, y: ly + 18, "font-size": 9, fill: "#5d6b7a" },
      "Ring: circled; double ring: exact match; X: crossed off; gold ring: the challenge needs it; " +
      "small discs: the other sheets; orange ring: the last move; solid lines: highways; dashed: regions.");
}
