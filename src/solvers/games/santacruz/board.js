// Santa Cruz in the browser: the island (sites as hexagons by kind, roads,
// the rivers in blue, face-up tiles with their building, points, resource
// and bird, buildings in their owner's colour), the scoring track and the
// round, the building sets, and each seat's cards: the seat's own in full,
// the others' secret cards and bird tokens face down. Clicking a highlighted
// site lands or builds there; clicking a card in hand plays (or discards)
// it; clicking a set chooses it; the hint's top three carry numbered
// badges. Everything comes from ctx: the board (solvers.games.santacruz.web
// .board), the seat's view, the annotations (solvers.games.santacruz.web
// .annotate: the sets in play, the scoring cards each seat holds, the seat's
// own with its round-two draw) and the legal moves. No rules are computed
// here.
import { add, hintBadge as badge, hints, previousView, lastCaption, LAST_COLOUR } from "/static/svg.js";
export const title = "Santa Cruz";

const SEAT_COLOURS = ["#1f5fbf", "#c62828", "#2e7d32", "#8e24aa"];
const KIND_FILL = { coast: "#f0dca0", land: "#a8cf8a", volcano: "#c98a6e" };   // face up
const KIND_DOWN = { coast: "#c9b173", land: "#6f9e57", volcano: "#94543c" };   // face down
const LETTER = { house: "H", church: "C", lighthouse: "L" };
const RIVER = "#2b7bd6", ROAD = "#7a6648", BIRD = "#0f766e", HINT = "#7c3aed";
const KINDS = ["ship", "road", "river", "double"];

// A pointy-top hexagon of radius r around (0, 0), as polygon points.
function hexPoints(r) {
  return [0, 1, 2, 3, 4, 5].map((i) => {
    const a = Math.PI / 180 * (60 * i - 90);
    return `${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

// Make element g play `action` when clicked (only ever a legal action).
function clickable(g, action, ctx) {
  g.setAttribute("data-action", action);
  g.setAttribute("class", "legal");
  g.style.cursor = "pointer";
  g.addEventListener("click", () => ctx.play(action));
}

// The legal moves by meaning ("site:12", "play:road", "score:3"...) -> action id.
function legalByMeaning(ctx) {
  const out = new Map();
  for (const m of ctx.legal) {
    const [kind, arg] = ctx.board.actions[m.action] || [];
    out.set(`${kind}:${arg}`, m.action);
  }
  return out;
}

function seatName(ctx, s) { return (ctx.names || [])[s] || `Seat ${s}`; }

export function describe(ctx) {
  const v = ctx.view;
  if (!v) return "";
  const round = v.step === "over" ? "Game over" : `Round ${v.round} of 2`;
  if (!ctx.legal.length) return round;
  const [kind, left, double] = v.build;
  const step = {
    choose: "choose a building set",
    discard: "discard one scoring card (the card you drew may be it)",
    land: "land: click a free coastal site",
    play: "play a card from your hand",
    build: `build with your ${double ? "double " : ""}${kind}${double ? ` (${left} left)` : ""}: click a site`,
  }[v.step] || v.step;
  return `${round}: ${step}`;
}

export function draw(svg, ctx) {
  const b = ctx.board, v = ctx.view;
  const W = Math.max(b.width, 1000), R = b.hex, n = b.players;
  const islandH = b.height, trackH = 50, setsH = 56, rowH = 78, legendH = 24;
  const H = islandH + trackH + setsH + n * rowH + legendH;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("font-family", "system-ui, sans-serif");
  add(svg, "rect", { x: 0, y: 0, width: W, height: H, fill: "#fbfaf7" });
  add(svg, "rect", { x: 0, y: 0, width: W, height: islandH, fill: "#cfe3f1" });    // the sea
  if (!v) return;
  const legal = legalByMeaning(ctx);
  const hintRank = new Map(hints(ctx, 3).map((h) => [h.action, h]));
  const before = previousView(ctx);
  drawIsland(add(svg, "g", { transform: `translate(${(W - b.width) / 2},0)` }), ctx, legal, hintRank, R, before);
  lastCaption(svg, 12, islandH - 10, ctx);
  let y = islandH;
  drawTrack(svg, ctx, y, W);
  y += trackH;
  drawSets(svg, ctx, legal, hintRank, y, W);
  y += setsH;
  for (let s = 0; s < n; s++, y += rowH) drawSeat(svg, ctx, legal, hintRank, s, y, W, rowH);
  drawLegend(svg, y + 4, R);
}

function drawIsland(g, ctx, legal, hintRank, R, before) {
  const b = ctx.board, v = ctx.view, site = b.sites;
  // The hexagons, shaded by kind; face-down tiles darker and plain.
  for (const s of site) {
    const up = String(s.id) in v.tiles;
    add(g, "polygon", { points: hexPoints(R), transform: `translate(${s.x},${s.y})`,
                        fill: (up ? KIND_FILL : KIND_DOWN)[s.kind], stroke: "#8c7b5c", "stroke-width": 1 });
  }
  for (const [a, c] of b.roads) {
    add(g, "line", { x1: site[a].x, y1: site[a].y, x2: site[c].x, y2: site[c].y, stroke: ROAD,
                     "stroke-width": 3, "stroke-linecap": "round", opacity: 0.8 });
  }
  for (const r of b.rivers) {
    const line = add(g, "polyline", { points: r.sites.map((i) => `${site[i].x},${site[i].y}`).join(" "),
                                      fill: "none", stroke: RIVER, "stroke-width": 6, "stroke-linecap": "round",
                                      "stroke-linejoin": "round", opacity: 0.85 });
    add(line, "title", {}, `${r.name} (source to mouth: sites ${r.sites.join(", ")})`);
  }
  for (const s of site) {
    const c = add(g, "g", { transform: `translate(${s.x},${s.y})`, "data-site": s.id });
    const tileId = v.tiles[String(s.id)];
    const tile = tileId === undefined ? null : b.tiles[tileId];
    const owners = v.buildings[String(s.id)] || [];
    const rivers = b.rivers.filter((r) => r.sites.includes(s.id)).map((r) => r.name);
    add(c, "title", {}, `Site ${s.id}: ${s.kind}${rivers.length ? ", " + rivers.join(", ") : ""}; ` +
        (tile ? `${tile.building} ${tile.points}${tile.resource ? " " + tile.resource : ""}` +
                `${tile.fish_bonus ? "+" + tile.fish_bonus : ""}${tile.bird ? " bird" : ""}` : "face down") +
        (owners.length ? `; built by ${owners.map((q) => seatName(ctx, q)).join(" and ")}` : ""));
    const action = legal.get(`site:${s.id}`);
    if (action !== undefined) {
      clickable(c, action, ctx);
      add(c, "polygon", { points: hexPoints(R - 3), fill: "#ffffff", "fill-opacity": 0.45,
                          stroke: "#0a2a6b", "stroke-width": 3, "stroke-dasharray": "6 3" });
    }
    add(c, "text", { y: -R + 11, "text-anchor": "middle", "font-size": 8, fill: "#4a3b22" }, s.id);
    if (tile) {
      // The buildings: the tile's disc in the owner's colour (two halves when shared).
      const fill = owners.length ? SEAT_COLOURS[owners[0]] : "#fffdf5";
      add(c, "circle", { r: 19, fill, stroke: "#5b4a30", "stroke-width": 1, class: owners.length ? "building" : "tile" });
      if (owners.length > 1) add(c, "path", { d: "M0,-19 A19,19 0 0 1 0,19 Z", fill: SEAT_COLOURS[owners[1]] });
      const ink = owners.length ? "#fff" : "#222";
      add(c, "text", { y: 1, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: ink },
          `${LETTER[tile.building]}${tile.points}`);
      if (tile.resource) {
        add(c, "text", { y: 12, "text-anchor": "middle", "font-size": 8, fill: ink },
            tile.resource + (tile.fish_bonus ? `+${tile.fish_bonus}` : ""));
      }
      if (tile.bird) {
        add(c, "circle", { cx: 15, cy: -14, r: 6, fill: "#fff", stroke: BIRD, "stroke-width": 1.5 });
        add(c, "text", { x: 15, y: -11, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: BIRD }, "B");
      }
    } else {
      add(c, "text", { y: 6, "text-anchor": "middle", "font-size": 16, fill: "#000", "fill-opacity": 0.3 }, "?");
    }
    // Built on (or shared) since the last drawing: the last move.
    if (before && JSON.stringify(before.buildings[String(s.id)] || []) !== JSON.stringify(owners)) {
      c.classList.add("last-move");
      add(c, "polygon", { points: hexPoints(R - 1), fill: "none", stroke: LAST_COLOUR, "stroke-width": 4,
                          class: "last-move-ring", "pointer-events": "none" });
    }
    hintBadge(c, -15, -14, action, hintRank, ctx);        // opposite the bird's badge
  }
}

// The hint's rank of `action` (1 to 3) as a small badge at (x, y), if it
// has one; clicking the badge plays exactly that action.
function hintBadge(g, x, y, action, hintRank, ctx) {
  if (action === undefined || !hintRank.has(action)) return;
  badge(g, x, y, hintRank.get(action).rank, hintRank.get(action), ctx, 7.5);
}

// The round and the scoring track: markers at equal scores stacked, the front one on top.
function drawTrack(svg, ctx, y, W) {
  const v = ctx.view;
  add(svg, "text", { x: 16, y: y + 20, "font-size": 14, "font-weight": 700 },
      v.step === "over" ? "Game over" : `Round ${v.round} of 2`);
  add(svg, "text", { x: 16, y: y + 36, "font-size": 10, fill: "#5d6b7a" },
      `scoring pile ${v.pile} · bird bag ${v.bag}`);
  const x0 = 200, x1 = W - 24, ly = y + 38;
  const top = Math.max(30, Math.ceil((Math.max(...v.score) + 3) / 10) * 10);
  const at = (p) => x0 + (x1 - x0) * p / top;
  add(svg, "line", { x1: x0, y1: ly, x2: x1, y2: ly, stroke: "#9aa5b1", "stroke-width": 2 });
  for (let p = 0; p <= top; p++) {
    add(svg, "line", { x1: at(p), y1: ly, x2: at(p), y2: ly + (p % 5 ? 3 : 6), stroke: "#9aa5b1" });
    if (p % 5 === 0) add(svg, "text", { x: at(p), y: ly + 13, "text-anchor": "middle", "font-size": 8, fill: "#5d6b7a" }, p);
  }
  const height = new Map();
  // v.track is front first: later (behind) markers at one score go under the earlier ones.
  for (const s of [...v.track].reverse()) {
    const k = height.get(v.score[s]) || 0;
    height.set(v.score[s], k + 1);
    const m = add(svg, "circle", { cx: at(v.score[s]), cy: ly - 7 - 10 * k, r: 5.5, fill: SEAT_COLOURS[s],
                                   stroke: "#fff", "stroke-width": 1.5, "data-marker": s });
    add(m, "title", {}, `${seatName(ctx, s)}: ${v.score[s]} points`);
  }
}

// The building sets: who holds which, and (round two) the scoring cards each brings back.
function drawSets(svg, ctx, legal, hintRank, y, W) {
  const b = ctx.board, v = ctx.view, k = b.sets.length;
  const w = (W - 32 - 8 * (k - 1)) / k;
  b.sets.forEach((set, i) => {
    const g = add(svg, "g", { transform: `translate(${16 + i * (w + 8)},${y + 4})`, "data-set": i });
    const holder = v.sets.indexOf(i);
    const action = legal.get(`set:${i}`);
    const back = !ctx.annotations.sets_in_play.includes(i);
    add(g, "rect", { width: w, height: 46, rx: 5, fill: back ? "#eceff3" : action !== undefined ? "#e3eeff" : "#fff",
                     stroke: holder >= 0 ? SEAT_COLOURS[holder] : action !== undefined ? "#0a2a6b" : "#9aa5b1",
                     "stroke-width": holder >= 0 || action !== undefined ? 2.5 : 1,
                     "stroke-dasharray": action !== undefined ? "6 3" : null });
    if (action !== undefined) clickable(g, action, ctx);
    hintBadge(g, w - 60, 11, action, hintRank, ctx);
    add(g, "text", { x: 8, y: 15, "font-size": 11, "font-weight": 700 }, `Set ${set.letter}: ${set.name}`);
    add(g, "text", { x: w - 8, y: 15, "font-size": 10, "text-anchor": "end",
                     fill: holder >= 0 ? SEAT_COLOURS[holder] : "#5d6b7a" },
        holder >= 0 ? seatName(ctx, holder) : back ? "not in play" : "free");
    const counts = KINDS.map((c) => [c, set.cards.filter((x) => x === c).length]).filter(([, m]) => m);
    add(g, "text", { x: 8, y: 29, "font-size": 9, fill: "#34404c" }, counts.map(([c, m]) => `${m} ${c}`).join(", "));
    const with_ = v.set_scoring[String(i)];
    if (with_) {
      // Cut to the box (about 5 units a character), the whole list in the tooltip.
      const full = `round two with: ${with_.map((c) => b.scoring_cards[c].name).join(", ") || "no scoring card"}`;
      const fit = Math.floor((w - 14) / 5);
      const t = add(g, "text", { x: 8, y: 41, "font-size": 9, fill: "#34404c" },
                    full.length > fit ? full.slice(0, fit - 1) + "…" : full);
      add(t, "title", {}, full);
    }
  });
}

// One card: a rectangle with a title and a smaller line.
function card(parent, x, y, w, h, head, sub, opts = {}) {
  const g = add(parent, "g", { transform: `translate(${x},${y})` });
  add(g, "rect", { width: w, height: h, rx: 4, fill: opts.fill || "#fff", stroke: opts.stroke || "#9aa5b1",
                   "stroke-width": opts.stroke ? 2.5 : 1, "stroke-dasharray": opts.dashed ? "5 2" : null });
  add(g, "text", { x: 6, y: 14, "font-size": 10, "font-weight": 700, fill: opts.ink || "#222" }, head);
  if (sub) add(g, "text", { x: 6, y: h - 7, "font-size": 8, fill: opts.ink || "#5d6b7a" }, sub);
  return g;
}

// A seat's row: score, supply, bird tokens, cards in hand, cards played.
function drawSeat(svg, ctx, legal, hintRank, s, y, W, rowH) {
  const b = ctx.board, v = ctx.view, me = s === ctx.seat, colour = SEAT_COLOURS[s];
  const row = add(svg, "g", { "data-seat": s });
  add(row, "rect", { x: 8, y: y + 2, width: W - 16, height: rowH - 4, rx: 6, fill: me ? "#eef4ff" : "#fff",
                     stroke: v.to_move === s ? colour : "#d5dbe2", "stroke-width": v.to_move === s ? 2.5 : 1 });
  add(row, "circle", { cx: 24, cy: y + 16, r: 7, fill: colour });
  const place = v.track.indexOf(s) + 1;
  const set = v.sets[s] >= 0 ? `, set ${b.sets[v.sets[s]].letter}` : "";
  const sup = v.supply[s];
  add(row, "text", { x: 36, y: y + 20, "font-size": 12, "font-weight": 700 },
      `${seatName(ctx, s)}: ${v.score[s]} point${v.score[s] === 1 ? "" : "s"} (place ${place})${set}`);
  add(row, "text", { x: 330, y: y + 20, "font-size": 10, fill: "#34404c" },
      `left: ${sup.house} houses, ${sup.church} churches, ${sup.lighthouse} lighthouses`);
  // Bird tokens: the seat's own face up, the others' face down until the
  // end scores them in public (annotations' birds: every seat's then).
  const open = (ctx.annotations.birds || [])[s];
  const birds = me ? v.birds : open || Array(v.bird_counts[s]).fill(null);
  birds.forEach((value, i) => {
    const x = W - 24 - 18 * (birds.length - 1 - i);
    add(row, "circle", { cx: x, cy: y + 16, r: 8, fill: value === null ? "#8a96a3" : BIRD, stroke: "#fff",
                         class: value === null ? "bird-hidden" : "bird" });
    add(row, "text", { x, y: y + 19.5, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: "#fff" },
        value === null ? "?" : value);
  });
  if (birds.length) {
    add(row, "text", { x: W - 32 - 18 * birds.length, y: y + 20, "text-anchor": "end", "font-size": 9, fill: "#5d6b7a" },
        "birds");
  }
  // Building cards in hand (public: the sets are chosen openly), grouped by kind.
  let x = 16;
  const cy = y + 26, ch = 34;
  const hand = v.hand_build[s] || {};
  for (const kind of KINDS) {
    const count = hand[kind] || 0;
    if (!count) continue;
    if (kind === "double") {
      const options = me ? ["ship", "road", "river"].filter((k) => legal.has(`double:${k}`)) : [];
      const g = card(row, x, cy, options.length ? 158 : 70, ch, `double x${count}`, options.length ? "" : "two builds",
                     { stroke: options.length ? "#0a2a6b" : null });
      options.forEach((k, i) => {
        const a = legal.get(`double:${k}`);
        const sub = add(g, "g", { transform: `translate(${66 + i * 29},5)` });
        add(sub, "rect", { width: 27, height: 24, rx: 3, fill: "#e3eeff", stroke: "#0a2a6b" });
        add(sub, "text", { x: 13.5, y: 15, "text-anchor": "middle", "font-size": 8 }, k);
        clickable(sub, a, ctx);
        hintBadge(sub, 24, 0, a, hintRank, ctx);
      });
      x += (options.length ? 158 : 70) + 6;
      continue;
    }
    const a = me ? legal.get(`play:${kind}`) : undefined;
    const g = card(row, x, cy, 70, ch, `${kind} x${count}`, { ship: "any coast", road: "by road", river: "along river" }[kind],
                   { stroke: a !== undefined ? "#0a2a6b" : null, fill: a !== undefined ? "#e3eeff" : null });
    if (a !== undefined) clickable(g, a, ctx);
    hintBadge(g, 64, 6, a, hintRank, ctx);
    x += 76;
  }
  x += 10;
  // Scoring cards: the seat's own by name (with the card drawn in round two), the others face down.
  if (me) {
    const mine = ctx.annotations.hand, drawn = ctx.annotations.drawn;
    for (const c of mine) {
      const a = legal.get(`score:${c}`) ?? legal.get(`discard:${c}`);
      const sc = b.scoring_cards[c];
      const g = card(row, x, cy, 118, ch, sc.name + (c === drawn ? " (drawn)" : ""), sc.text,
                     { stroke: a !== undefined ? "#0a2a6b" : null, fill: a !== undefined ? "#fff7dc" : "#fffbea" });
      g.setAttribute("data-card", c);
      if (a !== undefined) clickable(g, a, ctx);
      hintBadge(g, 112, 6, a, hintRank, ctx);
      x += 124;
    }
  } else {
    const hidden = ctx.annotations.cards_held[s];
    for (let i = 0; i < hidden; i++) {
      const g = add(row, "g", { transform: `translate(${x},${cy})`, class: "card-back" });
      add(g, "rect", { width: 26, height: ch, rx: 4, fill: "#6d5a8a", stroke: "#4b3d60" });
      add(g, "text", { x: 13, y: 21, "text-anchor": "middle", "font-size": 12, fill: "#fff" }, "?");
      x += 30;
    }
    if (hidden) add(row, "text", { x: x + 2, y: cy + 21, "font-size": 9, fill: "#5d6b7a" }, `${hidden} scoring card${hidden > 1 ? "s" : ""}`);
  }
  // Played this round (public), and the seat's own discard.
  const played = [...v.played_build[s], ...v.played_score[s].map((c) => b.scoring_cards[c].name)];
  let text = `played this round: ${played.join(", ") || "nothing yet"}`;
  if (me && v.discarded >= 0) text += ` · discarded ${b.scoring_cards[v.discarded].name}`;
  add(row, "text", { x: 16, y: y + rowH - 9, "font-size": 9, fill: "#5d6b7a" }, text);
}

function drawLegend(svg, y, R) {
  let x = 16;
  const r = 8;
  const swatch = (fill, label) => {
    add(svg, "polygon", { points: hexPoints(r), transform: `translate(${x + r},${y + 12})`, fill, stroke: "#8c7b5c" });
    const t = add(svg, "text", { x: x + 2 * r + 4, y: y + 15, "font-size": 9 }, label);
    x += 2 * r + 10 + 5.2 * label.length;
    return t;
  };
  swatch(KIND_FILL.coast, "coast");
  swatch(KIND_FILL.land, "land");
  swatch(KIND_FILL.volcano, "volcano");
  swatch(KIND_DOWN.land, "face down");
  add(svg, "line", { x1: x, y1: y + 12, x2: x + 22, y2: y + 12, stroke: ROAD, "stroke-width": 3 });
  add(svg, "text", { x: x + 26, y: y + 15, "font-size": 9 }, "road");
  x += 60;
  add(svg, "line", { x1: x, y1: y + 12, x2: x + 22, y2: y + 12, stroke: RIVER, "stroke-width": 5 });
  add(svg, "text", { x: x + 26, y: y + 15, "font-size": 9 }, "river");
  x += 60;
  add(svg, "text", { x, y: y + 15, "font-size": 9, fill: "#34404c" },
      "H3/C3/L3: house/church/lighthouse, 3 points · fish+1: fish bonus · B: bird · " +
      "coloured disc: a building (halves: shared)");
}
