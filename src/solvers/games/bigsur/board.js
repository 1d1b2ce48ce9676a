// Big Sur in the browser: the Depot, the deck and the Landmark row; every
// player's Highway left to right (Landmarks as flags above their card,
// Stretches as brackets under their runs); the seat's own hand (other hands
// only as counts). Clicks: a Depot card or the deck takes it; a hand card
// builds it (then an end of the Highway; while paying, a hand card discards
// it); a Landmark in the row claims it, then a spot above the Highway places
// it. Everything comes from ctx: the board (solvers.games.bigsur.web.board,
// which also says what each action id means), the seat's view, the
// annotations (solvers.games.bigsur.web.annotate: every Highway's Stretches
// as the rules find them) and the legal moves. Every legal move has a place
// on the board: the moves no card or spot stands for (finishing a payment,
// the Material on top, ending the turn) are buttons under the hand, each
// labelled with the move's own text. No rules are computed here.
import { node, add, hintBadge as badge, hints, previousView, lastCaption, LAST_COLOUR } from "/static/svg.js";
export const title = "Big Sur";

// Scenery and Materials: the terminal's abbreviations, a colour each.
const SCENERY = { ocean: ["Oc", "#2b6cb0"], forest: ["Fo", "#2f855a"], mountain: ["Mo", "#7b5e44"],
                  flower: ["Fl", "#c2418f"], field: ["Fi", "#d69e2e"] };
const MATERIAL = { stone: ["St", "#718096"], water: ["Wa", "#3aa0d8"], timber: ["Ti", "#9c5b25"],
                   engineering: ["En", "#dd6b20"], steel: ["Se", "#2d3748"] };
const SEAT_COLOURS = ["#0b57d0", "#c5221f", "#188038", "#a142f4"];
const LEGAL = { fill: "#d6e6ff", stroke: "#1f6feb" };
const CW = 74, GAP = 6, STEP = CW + GAP;   // card width, gap between cards
const HW_H = 70, FULL_H = 104;              // a Highway card; a hand or Depot card (with cost and back)
const LM_W = 96;                            // a Landmark in the row
const X0 = 50;                              // where a Highway's first card starts (room for the left end)

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "\u2026" : s);

// Split text into lines of at most n characters (at spaces).
function wrap(text, n) {
  const lines = [];
  for (const word of text.split(" ")) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= n) lines[lines.length - 1] = last + " " + word;
    else lines.push(word);
  }
  return lines;
}

// The legal moves by meaning: kind -> [{action, args}], from board.actions.
function legalByKind(ctx) {
  const out = {};
  for (const m of ctx.legal) {
    const [kind, ...args] = ctx.board.actions[m.action] || [];
    (out[kind] ||= []).push({ action: m.action, args });
  }
  return out;
}

const findMove = (moves, ...args) => (moves || []).find((m) => args.every((a, i) => m.args[i] === a));

// Make g play `move` when clicked (a highlighted outline is drawn by the caller).
function clickable(g, move, ctx) {
  if (!move) return false;
  g.setAttribute("data-action", move.action);
  g.setAttribute("class", "legal");
  g.style.cursor = "pointer";
  g.addEventListener("click", () => ctx.play(move.action));
  const h = hints(ctx, 3).find((x) => x.action === move.action);
  if (h) g.dataset.hint = h.rank;
  g._hint = h || null;
  return true;
}

// The hint's rank on a clickable element, as a purple badge inside its top
// right corner (clicking it plays that very move).
function hintBadge(g, w, ctx) {
  if (!g._hint) return;
  badge(g, w - 10, 10, g._hint.rank, g._hint, ctx, 8);
}

// Shrink a text element's font until it is at most `width` wide.
function fit(t, width) {
  let size = Number(t.getAttribute("font-size"));
  while (size > 4 && t.getComputedTextLength() > width) {
    size -= 0.5;
    t.setAttribute("font-size", size);
  }
  return t;
}

function chip(parent, x, y, material, faded = false) {
  const [abbr, colour] = MATERIAL[material] || ["?", "#999"];
  add(parent, "rect", { x, y, width: 17, height: 11, rx: 2, fill: colour, opacity: faded ? 0.3 : 1 });
  add(parent, "text", { x: x + 8.5, y: y + 8.5, "text-anchor": "middle", "font-size": 7.5, "font-weight": 600,
                        fill: "#fff" }, abbr);
}

// The two Scenery icons as the card's coloured top band.
function sceneryBand(parent, kinds, w, h) {
  kinds.forEach((k, i) => {
    const [abbr, colour] = SCENERY[k];
    const x = (i * w) / kinds.length;
    add(parent, "rect", { x, y: 0, width: w / kinds.length, height: h, fill: colour });
    add(parent, "text", { x: x + w / kinds.length / 2, y: h / 2 + 3.5, "text-anchor": "middle", "font-size": 9.5,
                          "font-weight": 700, fill: "#fff" }, abbr);
  });
}

// One Highway card face at (x, y). full: also its cost and its back's Material
// (hand and Depot). usedPersistent: its Persistent Material was used this turn.
function drawCard(parent, x, y, c, b, { full = false, usedPersistent = false, attrs = {} } = {}) {
  const card = b.cards[c - 1];
  const h = full ? FULL_H : HW_H;
  const g = add(parent, "g", { transform: `translate(${x},${y})`, "data-card": c, ...attrs });
  let tip = `#${c} ${card.scenery.map(cap).join("/")}, ${card.miles} mile${card.miles > 1 ? "s" : ""}, ` +
            `cost ${card.cost.map(cap).join("+")}, back ${cap(card.material)}`;
  if (card.persistent) tip += `, Persistent ${cap(card.persistent)}`;
  if (card.bonus) tip += `, 2-Mile Bonus: ${card.bonus}`;
  add(g, "title", {}, tip);
  add(g, "rect", { width: CW, height: h, rx: 5, fill: "#fffdf7", stroke: "#6b7785", class: "face" });
  const band = add(g, "g", {});
  add(band, "clipPath", { id: `clip-${c}-${x}-${y}` }).append(node("rect", { width: CW, height: 20, rx: 5 }));
  const inner = add(band, "g", { "clip-path": `url(#clip-${c}-${x}-${y})` });
  sceneryBand(inner, card.scenery, CW, 20);
  add(g, "text", { x: 6, y: 39, "font-size": 16, "font-weight": 700, fill: "#1a202c" }, card.miles);
  add(g, "text", { x: 17, y: 39, "font-size": 8, fill: "#4a5568" }, "mi");
  add(g, "text", { x: CW - 5, y: 38, "text-anchor": "end", "font-size": 8, fill: "#718096" }, `#${c}`);
  let yy = 45;
  if (full) {
    add(g, "text", { x: 5, y: yy + 8.5, "font-size": 7, fill: "#4a5568" }, "cost");
    card.cost.forEach((m, i) => chip(g, 21 + i * 17, yy, m));
    yy += 14;
  }
  if (card.persistent) {
    add(g, "text", { x: 5, y: yy + 8.5, "font-size": 7, fill: "#4a5568" }, "P");
    chip(g, 13, yy, card.persistent, usedPersistent);
    if (usedPersistent) add(g, "text", { x: 34, y: yy + 8.5, "font-size": 7, fill: "#a0aec0" }, "used");
  } else if (card.short) {
    card.short.forEach((line, i) => add(g, "text", { x: 5, y: yy + 8 + 8.5 * i, "font-size": 7, fill: "#5a3e00" },
                                        (i === 0 ? "\u2605 " : "   ") + line));
  }
  if (full) {
    const [abbr, colour] = MATERIAL[card.material];
    add(g, "rect", { x: 3, y: h - 17, width: CW - 6, height: 14, rx: 3, fill: colour, "data-back": abbr });
    fit(add(g, "text", { x: CW / 2, y: h - 6.5, "text-anchor": "middle", "font-size": 8,
                         fill: "#fff", "font-weight": 600, class: "back" },
            `back ${cap(card.material)}`), CW - 10);
  }
  return g;
}

// A Landmark of the row at (x, y).
function drawLandmark(parent, x, y, l, b, highlight) {
  const lm = b.landmarks[l - 1];
  const g = add(parent, "g", { transform: `translate(${x},${y})`, "data-landmark": l });
  add(g, "title", {}, `${lm.name} (a ${lm.scenery.map(cap).join(" or ")} Stretch): ${lm.ability.text}`);
  add(g, "rect", { width: LM_W, height: FULL_H, rx: 6, fill: "#fbf7ee", stroke: highlight ? "#1f6feb" : "#a08c6a",
                   "stroke-width": highlight ? 3 : 1 });
  lm.scenery.forEach((k, i) => {
    add(g, "rect", { x: 6 + i * 30, y: 6, width: 26, height: 14, rx: 3, fill: SCENERY[k][1] });
    add(g, "text", { x: 19 + i * 30, y: 16.5, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: "#fff" },
        SCENERY[k][0]);
  });
  if (lm.scenery.length > 1) add(g, "text", { x: 6 + 2 * 30, y: 16.5, "font-size": 8, fill: "#6b5a3a" }, "or");
  wrap(lm.name, 14).slice(0, 3).forEach((line, i) =>
    add(g, "text", { x: 6, y: 35 + 12 * i, "font-size": 10, "font-weight": 600, fill: "#2d2a26" }, line));
  wrap(lm.short, 18).slice(0, 2).forEach((line, i) =>
    add(g, "text", { x: 6, y: 81 + 11 * i, "font-size": 9, fill: "#5a4a2a" }, line));
  return g;
}

// One player's Highway at y: label, flags (Landmarks / places), cards, brackets.
function drawHighway(svg, y, p, ctx, moves, W, before) {
  const b = ctx.board, v = ctx.view;
  const was = new Set(before ? before.highways[p] : cards0(v, p));
  const wasMarks = before ? (before.landmarks[p] || {}) : (v.landmarks[p] || {});
  const cards = v.highways[p], marks = v.landmarks[p] || {};
  const own = p === ctx.seat;
  const colour = SEAT_COLOURS[p % SEAT_COLOURS.length];
  const g = add(svg, "g", { class: "highway", "data-seat": p });
  const band = own ? add(g, "rect", { x: 2, y, width: W - 4, height: 0, rx: 6, fill: "#eef4ff" }) : null;
  const names = ctx.names || [];
  const name = names[p] || `Seat ${p}`;
  const top = v.pile_tops[p];
  const pile = v.pile_sizes[p]
    ? `discard pile ${v.pile_sizes[p]} (top #${top}, back ${cap(b.cards[top - 1].material)})` : "no discards";
  const mover = v.turn_of === p && v.to_move >= 0 ? "  \u25b6 to move" : "";
  const label = add(g, "text", { x: 10, y: y + 15, "font-size": 13 });
  add(label, "tspan", { "font-weight": 700, fill: colour }, `${name}${mover}  `);
  add(label, "tspan", { fill: "#4a5568", "font-size": 12 },
      `Highway ${cards.length} card${cards.length === 1 ? "" : "s"} \u00b7 hand ${v.hand_sizes[p]} \u00b7 ${pile} \u00b7 ` +
      `${v.turns[p]} of ${b.turns_each} turns played`);
  const flagY = y + 20, cardY = y + 38;
  const used = new Set((v.turn_of === p ? v.used : []).map(([kind, n]) => `${kind}:${n}`));
  if (!cards.length) add(g, "text", { x: X0, y: cardY + 38, "font-size": 11, fill: "#a0aec0" }, "(nothing built yet)");
  cards.forEach((c, i) => {
    const x = X0 + i * STEP;
    const cg = drawCard(g, x, cardY, c, b, { usedPersistent: used.has(`card:${c}`), attrs: { "data-position": i } });
    if (!was.has(c)) {        // built since the last drawing: the last move
      cg.classList.add("last-move");
      add(cg, "rect", { x: -3, y: -3, width: CW + 6, height: HW_H + 6, rx: 7, fill: "none", stroke: LAST_COLOUR,
                        "stroke-width": 3.5, "pointer-events": "none" });
    }
    const mark = marks[String(c)];
    if (mark) {      // the Landmark riding on this card, coloured by the Stretch that claimed it
      const lm = b.landmarks[mark[0] - 1];
      const f = add(g, "g", { transform: `translate(${x},${flagY})`, class: "flag", "data-landmark": mark[0] });
      add(f, "title", {}, `${lm.name}, claimed through a ${cap(mark[1])} Stretch: ${lm.ability.text}`);
      add(f, "rect", { width: CW, height: 16, rx: 3, fill: SCENERY[mark[1]][1], stroke: "#1a202c",
                       opacity: used.has(`landmark:${mark[0]}`) ? 0.5 : 1 });
      add(f, "text", { x: CW / 2, y: 11.5, "text-anchor": "middle", "font-size": 7.5, "font-weight": 600,
                       fill: "#fff" }, cut(lm.name, 16));
      if (!wasMarks[String(c)]) {
        f.classList.add("last-move");
        add(f, "rect", { x: -2, y: -2, width: CW + 4, height: 20, rx: 4, fill: "none", stroke: LAST_COLOUR,
                         "stroke-width": 3, "pointer-events": "none" });
      }
    }
  });
  if (own) {
    // Placing a claimed Landmark: a spot above each card it may go on (one per Stretch type).
    const byPos = new Map();
    for (const m of moves.place || []) {
      const [kind, pos] = m.args;
      if (!byPos.has(pos)) byPos.set(pos, []);
      byPos.get(pos).push({ ...m, kind });
    }
    for (const [pos, list] of byPos) {
      list.forEach((m, k) => {
        const w = CW / list.length;
        const s = add(g, "g", { transform: `translate(${X0 + pos * STEP + k * w},${flagY - 2})` });
        clickable(s, m, ctx);
        add(s, "rect", { width: w - 2, height: 19, rx: 4, fill: LEGAL.fill, stroke: SCENERY[m.kind][1],
                         "stroke-width": 2.5, "stroke-dasharray": "4 2" });
        add(s, "text", { x: (w - 2) / 2, y: 13, "text-anchor": "middle", "font-size": 8, "font-weight": 600,
                         fill: SCENERY[m.kind][1] }, list.length > 1 ? SCENERY[m.kind][0] : `place (${SCENERY[m.kind][0]})`);
        hintBadge(s, w - 2, ctx);
      });
    }
    // Choosing the end for the card being built.
    for (const [end, x] of [["left", X0 - 46], ["right", X0 + cards.length * STEP]]) {
      const s = add(g, "g", { transform: `translate(${x},${cardY})` });
      if (!clickable(s, findMove(moves.end, end), ctx)) { s.remove(); continue; }
      add(s, "rect", { width: 40, height: HW_H, rx: 5, fill: LEGAL.fill, stroke: LEGAL.stroke, "stroke-width": 2,
                       "stroke-dasharray": "5 3" });
      for (const [k, word] of (end === "left" ? ["\u25c0", "here"] : ["here", "\u25b6"]).entries()) {
        add(s, "text", { x: 20, y: HW_H / 2 - 2 + 13 * k, "text-anchor": "middle", "font-size": 10.5,
                         "font-weight": 600, fill: LEGAL.stroke }, word);
      }
      hintBadge(s, 40, ctx);
    }
  }
  // The Stretches (the annotations') as brackets under their runs, in two
  // lanes (a card shows at most two types).
  const lanes = [];
  const found = ((ctx.annotations || {}).stretches || [])[p] || [];
  for (const s of [...found].sort((a, c) => a.first - c.first)) {
    let lane = lanes.findIndex((last) => last < s.first);
    if (lane < 0) { lane = lanes.length; lanes.push(-1); }
    lanes[lane] = s.last;
    const x1 = X0 + s.first * STEP + 3, x2 = X0 + s.last * STEP + CW - 3;
    const by = cardY + HW_H + 5 + lane * 15, colour = SCENERY[s.scenery][1];
    const br = add(g, "g", { class: "stretch", "data-stretch": s.scenery, "data-first": s.first, "data-last": s.last,
                             "data-miles": s.miles, "data-claimed": s.claimed });
    add(br, "path", { d: `M${x1},${by} v5 H${x2} v-5`, fill: "none", stroke: colour, "stroke-width": 2.5 });
    add(br, "text", { x: (x1 + x2) / 2, y: by + 14, "text-anchor": "middle", "font-size": 9, "font-weight": 600,
                      fill: colour }, `${cap(s.scenery)} ${s.miles} mi${s.claimed ? " (Landmark claimed)" : ""}`);
  }
  const H = 38 + HW_H + 10 + 15 * lanes.length;    // taller by a lane of brackets each
  if (band) band.setAttribute("height", H - 4);
  return H;
}

// The cards of seat p's Highway (no last move is marked without an earlier view).
function cards0(v, p) { return v.highways[p]; }

// Mark a full card (Depot or hand) that was not there at the last drawing.
function markNew(g, c, was) {
  if (!was || was.includes(c)) return;
  g.classList.add("last-move");
  add(g, "rect", { x: -3, y: -3, width: CW + 6, height: FULL_H + 6, rx: 7, fill: "none", stroke: LAST_COLOUR,
                   "stroke-width": 3.5, "pointer-events": "none" });
}

export function describe(ctx) {
  const v = ctx.view;
  if (!v) return "";
  const b = ctx.board;
  const who = (ctx.names || [])[v.turn_of] || `Seat ${v.turn_of}`;
  if (v.step === "over") return `Deck empty: the game is over.`;
  const turn = `${who === "You" ? "Your" : who + "'s"} turn ${Math.min(v.turns[v.turn_of] + 1, b.turns_each)} of ${b.turns_each}`;
  if (!ctx.legal.length) return turn + ".";
  const c = v.building;
  const text = {
    take: `take ${2 - v.taken} more card${v.taken ? "" : "s"}: click a Depot card or the deck`,
    build: "click a hand card to build it, a Landmark to claim it, or end the turn",
    end: `click an end of your Highway for #${c}`,
    pay: `pay for #${c}: click a hand card to discard it, or a button to finish the payment`,
    top: "choose the Material that ends on top of your discard pile",
    place: `click a spot above your Highway to place ${v.claiming ? b.landmarks[v.claiming - 1].name : "the Landmark"}`,
  }[v.step];
  // Plain text: the page sets it as text (a card file may name a Landmark with "&" or "<").
  return `${turn}${text ? ": " + text : ""}.`;
}

export function draw(svg, ctx) {
  const b = ctx.board, v = ctx.view;
  svg.setAttribute("font-family", "system-ui, sans-serif");
  if (!v) { svg.setAttribute("viewBox", "0 0 1300 60"); return; }
  const moves = legalByKind(ctx);
  const before = previousView(ctx);
  const longest = Math.max(0, ...v.highways.map((h) => h.length));
  const W = Math.max(10 + (b.depot_size + 1) * STEP + 14 + b.landmark_row * (LM_W + 5) + 6,
                     X0 + (longest + 1) * STEP + 10);
  const bg = add(svg, "rect", { x: 0, y: 0, width: W, height: 0, fill: "#f7f5f0" });

  // The Depot, the deck, the Landmark row.
  let y = 8;
  add(svg, "text", { x: 10, y: y + 12, "font-size": 13, "font-weight": 700 }, "Depot");
  const lmX = 10 + (b.depot_size + 1) * STEP + 14;
  add(svg, "text", { x: lmX, y: y + 12, "font-size": 13, "font-weight": 700 },
      `Landmarks (${v.landmark_deck} more in their deck)`);
  y += 20;
  v.depot.forEach((c, i) => {
    const g = drawCard(svg, 10 + i * STEP, y, c, b, { full: true, attrs: { "data-place": "depot" } });
    markNew(g, c, before && before.depot);
    if (clickable(g, findMove(moves.take, c), ctx)) {
      g.querySelector(".face").setAttribute("stroke", LEGAL.stroke);
      g.querySelector(".face").setAttribute("stroke-width", 3);
      hintBadge(g, CW, ctx);
    }
  });
  const deck = add(svg, "g", { transform: `translate(${10 + b.depot_size * STEP + 4},${y})`, "data-place": "deck" });
  add(deck, "title", {}, "The Highway deck, face down");
  const drawMove = (moves.draw || [])[0];
  add(deck, "rect", { width: CW, height: FULL_H, rx: 5, fill: "#2c5282", stroke: drawMove ? LEGAL.stroke : "#1a365d",
                      "stroke-width": drawMove ? 3 : 1 });
  add(deck, "text", { x: CW / 2, y: 44, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#fff" }, "Deck");
  add(deck, "text", { x: CW / 2, y: 62, "text-anchor": "middle", "font-size": 10, fill: "#e2e8f0" }, `${v.deck} cards`);
  if (clickable(deck, drawMove, ctx)) {
    add(deck, "text", { x: CW / 2, y: 86, "text-anchor": "middle", "font-size": 9, fill: "#bee3f8" }, "click to draw");
    hintBadge(deck, CW, ctx);
  }
  v.row.forEach((l, i) => {
    const g = drawLandmark(svg, lmX + i * (LM_W + 5), y, l, b, v.claiming === l);
    if (before && !before.row.includes(l)) {
      g.classList.add("last-move");
      add(g, "rect", { x: -3, y: -3, width: LM_W + 6, height: FULL_H + 6, rx: 8, fill: "none", stroke: LAST_COLOUR,
                       "stroke-width": 3.5, "pointer-events": "none" });
    }
    if (clickable(g, findMove(moves.claim, l), ctx)) {
      g.querySelector("rect").setAttribute("stroke", LEGAL.stroke);
      g.querySelector("rect").setAttribute("stroke-width", 3);
      hintBadge(g, LM_W, ctx);
    }
  });
  y += FULL_H + 12;

  // Every Highway, in seat order.
  for (let p = 0; p < v.players; p++) y += drawHighway(svg, y, p, ctx, moves, W, before);

  // The seat's own hand (cards being built and discarded marked).
  const paying = Array.isArray(v.paying) ? v.paying : [];
  add(svg, "text", { x: 10, y: y + 15, "font-size": 13, "font-weight": 700, fill: SEAT_COLOURS[ctx.seat % 4] },
      `${(ctx.names || [])[ctx.seat] || "Seat " + ctx.seat}: hand of ${v.hand.length}` +
      (v.recycled && v.turn_of === ctx.seat ? " \u00b7 Recycling used this turn" : ""));
  y += 24;
  const perRow = Math.max(1, Math.floor((W - 20) / STEP));
  v.hand.forEach((c, i) => {
    const x = 10 + (i % perRow) * STEP, yy = y + Math.floor(i / perRow) * (FULL_H + 22);
    const g = drawCard(svg, x, yy, c, b, { full: true, attrs: { "data-place": "hand" } });
    markNew(g, c, before && before.hand);
    const face = g.querySelector(".face");
    const move = findMove(moves.build, c) || findMove(moves.discard, c);
    if (clickable(g, move, ctx)) {
      face.setAttribute("stroke", LEGAL.stroke);
      face.setAttribute("stroke-width", 3);
      hintBadge(g, CW, ctx);
    }
    const tag = c === v.building ? "building" : paying.includes(c) ? "discarded" : move
      ? (moves.build ? "click: build" : "click: discard") : null;
    if (c === v.building) { face.setAttribute("stroke", "#d69e2e"); face.setAttribute("stroke-width", 4); }
    if (paying.includes(c)) add(g, "rect", { width: CW, height: FULL_H, rx: 5, fill: "#1a202c", opacity: 0.35 });
    if (tag) add(g, "text", { x: CW / 2, y: FULL_H + 12, "text-anchor": "middle", "font-size": 9, "font-weight": 600,
                              fill: c === v.building ? "#b7791f" : paying.includes(c) ? "#4a5568" : LEGAL.stroke }, tag);
  });
  y += Math.max(1, Math.ceil(v.hand.length / perRow)) * (FULL_H + 22);

  // The moves no card or spot stands for, as buttons with the move's text.
  const drawn = new Set([...svg.querySelectorAll("[data-action]")].map((e) => Number(e.dataset.action)));
  const rest = ctx.legal.filter((m) => !drawn.has(m.action));
  if (rest.length) {
    const head = { pay: "Finish paying:", top: "On top of your pile:", build: "Or:" }[v.step] || "Moves:";
    let bx = 10 + 8 + 7 * head.length, by = y;
    add(svg, "text", { x: 10, y: by + 17, "font-size": 12, "font-weight": 700, fill: "#2d3748" }, head);
    for (const m of rest) {
      const [kind, arg] = b.actions[m.action] || [];
      const g = add(svg, "g", { class: "move-button" });
      const t = add(g, "text", { x: 10, y: 16.5, "font-size": 11, "font-weight": 600, fill: LEGAL.stroke }, m.move);
      const chipW = kind === "top" ? 21 : 0;
      if (chipW) chip(g, 8, 6, arg);
      t.setAttribute("x", 10 + chipW);
      const w = Math.ceil(t.getComputedTextLength()) + 20 + chipW;
      if (bx + w > W - 10) { bx = 10; by += 30; }
      g.setAttribute("transform", `translate(${bx},${by})`);
      const r = node("rect", { width: w, height: 24, rx: 5, fill: LEGAL.fill, stroke: LEGAL.stroke, "stroke-width": 1.5 });
      g.prepend(r);
      clickable(g, m, ctx);
      g.setAttribute("class", "legal move-button");
      hintBadge(g, w + 8, ctx);
      bx += w + 12;
    }
    y = by + 36;
  }
  if (lastCaption(svg, 10, y + 8, ctx)) y += 20;

  // Legend.
  let lx = 10;
  for (const [k, [abbr, colour]] of Object.entries(SCENERY)) {
    add(svg, "rect", { x: lx, y, width: 22, height: 13, rx: 2, fill: colour });
    add(svg, "text", { x: lx + 11, y: y + 10, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: "#fff" }, abbr);
    add(svg, "text", { x: lx + 26, y: y + 10, "font-size": 10 }, cap(k));
    lx += 34 + 6.2 * k.length;
  }
  lx += 12;
  for (const m of Object.keys(MATERIAL)) {
    chip(svg, lx, y + 1, m);
    add(svg, "text", { x: lx + 21, y: y + 10, "font-size": 10 }, cap(m));
    lx += 28 + 6.2 * m.length;
  }
  y += 30;
  const counts = [...b.landmark_count_points].reverse().map(([n, pts]) => `${n}+: ${pts}`).join(", ");
  for (const line of [
    "Cards: Scenery on top, miles, cost; P = Persistent Material, \u2605 = 2-Mile Bonus; back = what it pays when discarded.",
    `Brackets: Stretches (${b.min_stretch_icons}+ icons of a type side by side; each scores its miles). ` +
    `Flags: Landmarks (${counts} points for the count).`]) {
    add(svg, "text", { x: 10, y, "font-size": 11, fill: "#4a5568" }, line);
    y += 15;
  }
  y -= 4;
  bg.setAttribute("height", y);
  svg.setAttribute("viewBox", `0 0 ${W} ${y}`);
}
