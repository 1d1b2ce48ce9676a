// The SVG helpers every game's board.js shares: import them with
//   import { NS, node, add } from "/static/svg.js";

export const NS = "http://www.w3.org/2000/svg";

// An SVG element with its attributes (null and undefined are left out) and text.
export function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = text;
  return n;
}

// The same, appended to parent; returns the new element.
export function add(parent, tag, attrs = {}, text = null) {
  const n = node(tag, attrs, text);
  parent.append(n);
  return n;
}

// A hint's badge: "#rank" in a purple disc at (x, y) inside parent. The
// badge is a button of its own: clicking it plays exactly the hinted action
// (never whatever the element under it would play), and it says so in its
// tooltip (the move's text).
export const HINT_COLOUR = "#7c3aed";
export function hintBadge(parent, x, y, rank, hint, ctx, r = 8) {
  const g = add(parent, "g", { class: "hint-badge legal", "data-hint-rank": rank, "data-action": hint.action,
                               transform: `translate(${x},${y})`, cursor: "pointer" });
  add(g, "title", {}, `Hint #${rank}: ${hint.move}`);
  add(g, "circle", { r, fill: HINT_COLOUR, stroke: "#fff", "stroke-width": 1.5 });
  add(g, "text", { y: r * 0.42, "text-anchor": "middle", "font-size": r + 1, "font-weight": 700, fill: "#fff" },
      `#${rank}`);
  g.addEventListener("click", (event) => {
    event.stopPropagation();
    ctx.play(hint.action);
  });
  return g;
}

// The hint's top `n` moves that are legal here, ranked: [{rank, action, move}].
export function hints(ctx, n = 3) {
  const legal = new Set((ctx.legal || []).map((m) => m.action));
  return (ctx.hint || []).slice(0, n).map((h, i) => ({ rank: i + 1, action: h.action, move: h.move }))
    .filter((h) => legal.has(h.action));
}

// The view this seat saw before the last move(s): the board marks what
// changed since as the last move (the AI's, a deal, one's own). Views only,
// so it shows nothing the seat's view does not hold. null at the start of
// a game, after an undo or when another seat's view is drawn.
const seen = { key: null, ply: -1, view: null, before: null };
export function previousView(ctx) {
  const key = `${ctx.board && ctx.board.game}:${ctx.seat}`;
  const ply = ctx.status ? ctx.status.ply : 0;
  if (!ctx.view || key !== seen.key || ply < seen.ply) {
    Object.assign(seen, { key, ply, view: ctx.view, before: null });
    return null;
  }
  if (ply !== seen.ply) Object.assign(seen, { before: seen.view, ply });
  seen.view = ctx.view;
  return seen.before;
}

// "Last move: who: what" under the board (the text the server sent for the
// seat's eyes), as an SVG text at (x, y); nothing when no move is known.
export const LAST_COLOUR = "#e8590c";
export function lastCaption(parent, x, y, ctx, attrs = {}) {
  const last = ctx.last;
  if (!last || !last.move) return null;
  const who = (ctx.names || [])[last.seat] ?? (last.seat === null || last.seat === undefined ? "Chance" : `Seat ${last.seat}`);
  return add(parent, "text", { x, y, "font-size": 11, fill: LAST_COLOUR, "font-weight": 600, class: "last-caption",
                               ...attrs }, `Last move: ${who}: ${last.move}`);
}
