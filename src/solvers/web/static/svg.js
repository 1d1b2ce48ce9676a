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
