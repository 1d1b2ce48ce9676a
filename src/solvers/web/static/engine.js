// The engine protocol over a WebSocket: one JSON request per message, one
// reply per message, matched by id (docs/engine-protocol.md).
export class Engine {
  constructor(url) {
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.nextId = 1;
    this.pending = new Map();
    this.onclose = null;
    this.ready = new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("cannot reach the engine at " + this.url));
      ws.onmessage = (event) => {
        const reply = JSON.parse(event.data);
        const waiting = this.pending.get(reply.id);
        if (waiting) {
          this.pending.delete(reply.id);
          waiting(reply);
        }
      };
      ws.onclose = () => {
        for (const [, waiting] of this.pending) {
          waiting({ error: { code: "closed", message: "the connection to the server is closed" } });
        }
        this.pending.clear();
        if (this.onclose) this.onclose();
      };
    });
  }

  // The whole reply ({id, cmd, result} or {id, cmd, error}).
  async request(cmd, fields = {}) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }

  // The result, or throws an Error carrying the protocol's code.
  async call(cmd, fields = {}) {
    const reply = await this.request(cmd, fields);
    if (reply.error) {
      const e = new Error(reply.error.message);
      e.code = reply.error.code;
      throw e;
    }
    return reply.result;
  }

  close() { this.ws && this.ws.close(); }
}

// Small DOM helpers shared by the pages.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (text !== null) node.textContent = text;
  return node;
}
