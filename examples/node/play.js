#!/usr/bin/env node
// A small frontend for `solve engine`, in plain Node.js (no packages).
//
// It spawns the engine, starts a game, and plays it to the end: the engine
// plays every seat but one; this script plays its own seat by picking one of
// the legal moves that `state` lists for it (seeded, so a run repeats).
// Chance (dealing, drawing) is resolved by the engine from the game's seed.
//
//   node play.js [--game switchbacks] [--players 2] [--seed 1] [--seat 1]
//                [--iterations 300] [--stop-demo] [--verbose]
//                [--engine "solve engine"]
//
// The last line on stdout is the result as JSON:
//   {"game":"switchbacks","seed":1,"plies":95,"scores":[6,2],"returns":[1,0], ...,
//    "position":{...the whole game as a history position...}}
"use strict";

const { spawn } = require("node:child_process");
const readline = require("node:readline");

function parseArgs(argv) {
  const opts = {
    game: "switchbacks", players: null, seed: 1, seat: null, iterations: 300,
    engine: process.env.SOLVE_ENGINE || "solve engine", stopDemo: false, verbose: false,
    challenge: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${key} needs a value`);
      return argv[++i];
    };
    if (key === "--game") opts.game = next();
    else if (key === "--players") opts.players = Number(next());
    else if (key === "--seed") opts.seed = Number(next());
    else if (key === "--seat") opts.seat = Number(next());
    else if (key === "--iterations") opts.iterations = Number(next());
    else if (key === "--engine") opts.engine = next();
    else if (key === "--challenge") opts.challenge = next();
    else if (key === "--stop-demo") opts.stopDemo = true;
    else if (key === "--verbose") opts.verbose = true;
    else throw new Error(`unknown argument ${key}`);
  }
  return opts;
}

// The engine: one request per line out, one reply per line in, matched by id.
class Engine {
  constructor(commandLine, verbose) {
    const [cmd, ...args] = commandLine.split(/\s+/).filter(Boolean);
    this.child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.pending = new Map();
    this.nextId = 1;
    this.verbose = verbose;
    this.child.on("error", (err) => this.failAll(err));
    this.child.on("exit", (code) => this.failAll(new Error(`engine exited with ${code}`)));
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => {
      if (this.verbose) console.error(`< ${line}`);
      const reply = JSON.parse(line); // the engine writes exactly one JSON object per line
      const waiter = this.pending.get(reply.id);
      if (!waiter) throw new Error(`reply to an unknown request: ${line}`);
      this.pending.delete(reply.id);
      waiter.resolve(reply);
    });
  }

  failAll(err) {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  // Send a request; resolves with the whole reply ({id, cmd, result} or {id, error}).
  send(cmd, fields = {}) {
    const id = this.nextId++;
    const line = JSON.stringify({ id, cmd, ...fields });
    if (this.verbose) console.error(`> ${line}`);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(line + "\n");
    });
  }

  // Send a request that must succeed; resolves with its result.
  async call(cmd, fields = {}) {
    const reply = await this.send(cmd, fields);
    if (reply.error) throw new Error(`${cmd}: ${reply.error.code}: ${reply.error.message}`);
    return reply.result;
  }

  async close() {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    await this.call("quit");
    this.child.stdin.end();
    return exited;
  }
}

// A tiny seeded generator (mulberry32) for this script's own choices.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const engine = new Engine(opts.engine, opts.verbose);
  const hello = await engine.call("hello");
  const info = hello.games.find((g) => g.name === opts.game);
  if (!info) throw new Error(`the engine has no game ${opts.game}`);
  const players = opts.players || info.default_players;
  const mySeat = opts.seat !== null ? opts.seat : players > 1 ? 1 : null;
  const options = opts.challenge ? { challenge: opts.challenge } : {};
  let status = await engine.call("new", { game: opts.game, players, seed: opts.seed, options });

  // A bad request is answered with an error and changes nothing.
  const bad = await engine.send("apply", { move: "this is not a move" });
  if (!bad.error || bad.error.code !== "illegal_move") throw new Error("expected illegal_move");

  const random = mulberry32(opts.seed);
  const engineMoves = [];
  let stopDemo = null;
  while (status.phase !== "over") {
    if (status.phase === "chance") {
      status = await engine.call("deal");
      continue;
    }
    const seat = status.to_move;
    let move;
    if (seat === mySeat) {
      // Our turn: we see only our own view and our legal moves.
      const view = await engine.call("state", { seat });
      move = view.legal[Math.floor(random() * view.legal.length)].move;
    } else if (opts.stopDemo && stopDemo === null) {
      // Think "forever", then interrupt: the go answers with its best move so far.
      const going = engine.send("go", { seat, time: 60 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      const stopped = await engine.call("stop");
      const go = await going;
      stopDemo = { stopped: stopped.stopped && go.result.stopped, ms: Date.now() - started,
                   iterations: go.result.iterations };
      move = go.result.move;
    } else {
      const go = await engine.call("go", { seat, iterations: opts.iterations });
      engineMoves.push({ move: go.move, value: go.value });
      move = go.move;
    }
    const applied = await engine.call("apply", { move });
    status = applied;
  }
  const position = await engine.call("position");
  await engine.close();
  const result = {
    game: opts.game, seed: opts.seed, players, seat: mySeat, plies: status.ply,
    scores: status.scores, returns: status.returns, engine_moves: engineMoves.length,
    position: position.position,
  };
  if (stopDemo) result.stop = stopDemo;
  console.log(JSON.stringify(result));
}

main().catch((err) => {
  console.error(`play.js: ${err.message}`);
  process.exit(1);
});
