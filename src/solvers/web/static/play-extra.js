// The Play page's "Save game" and "Analyse" buttons (kept apart from
// play.js): both ask the engine for the game's record (the protocol's
// `record`, written through the seat whose screen this is: in seat mode
// never more than that seat may see). "Save game" downloads it as a JSON
// file; "Analyse" hands it to the Analysis page in a new tab (through
// localStorage, which that page reads once and clears).
import { el } from "/static/engine.js";

const FROM_PLAY = "solvers-analysis-record";
const play = () => window.solversPlay;
window.solversPlayExtra = { lastRecord: null };

function showError(text) { document.getElementById("error").textContent = text || ""; }

async function record() {
  const p = play();
  const g = p && p.state;
  if (!g || !g.status) throw new Error("start a game first");
  const fields = {};
  if (g.humans && g.humans.length > 1) fields.seat = g.viewSeat;    // hot seat: the seat on screen now
  if (g.seats && g.seats.length === g.status.players) fields.names = play().seatNames();
  const result = await p.engine.call("record", fields);
  window.solversPlayExtra.lastRecord = result.record;
  return result.record;
}

async function save() {
  try {
    const rec = await record();
    const blob = new Blob([JSON.stringify(rec, null, 1) + "\n"], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `${rec.game}-game.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    showError(e.message);
  }
}

async function analyse() {
  try {
    const rec = await record();
    localStorage.setItem(FROM_PLAY, JSON.stringify(rec));
    window.open("/analysis?from=play", "_blank");
  } catch (e) {
    showError(e.message);
  }
}

const row = document.querySelector("#table .below") || document.getElementById("table");
row.append(el("button", { id: "save-game", title: "Download this game as a file the Analysis page opens",
                          onclick: save, text: "Save game" }),
           el("button", { id: "analyse-game", title: "Step through this game with the AI's review",
                          onclick: analyse, text: "Analyse" }));
