// The crosscut browser board: draws the engine's `position` answer as SVG
// and drives the engine through the server's JSON API (see src/web/mod.rs).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const state = {
  id: null, games: [], pos: null, selected: null, thinking: false,
  infoFrom: 0, swapped: false, busy: false, resigned: null,
  // What the engine does in the background: "genmove", "analyze" or
  // "solve" (null when idle).
  task: null,
  // The engine's best moves of its last iteration, best first: {move,
  // score, pv}; and its search's depth, nodes and time.
  candidates: [], search: null,
  // The solved moves' values (move -> win, loss, draw or unknown), and
  // the solver's last progress line.
  solved: new Map(), progress: "",
};

async function api(what, body) {
  const r = await fetch("/api/" + what, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(Object.assign({ id: state.id }, body || {})),
  });
  const text = await r.text();
  try { return JSON.parse(text); } catch (e) { return { ok: false, answer: text }; }
}

async function command(line) {
  const r = await api("command", { command: line });
  if (r.position) setPosition(r.position);
  return r;
}

function message(text) { $("message").textContent = text || ""; }

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// ---------------------------------------------------------------- drawing

function goalEdges(pos, g) {
  const base = pos.points.filter((p) => p.level === 0);
  const cx = base.reduce((s, p) => s + p.x, 0) / base.length;
  const cy = base.reduce((s, p) => s + p.y, 0) / base.length;
  const offset = pos.shape === "hexagon" ? 0.68 : 0.5;
  for (const [bit, color] of [[1, "black"], [2, "black"], [4, "white"], [8, "white"]]) {
    const pts = base.filter((p) => p.edges & bit);
    if (pts.length < 1) continue;
    pts.sort(bit <= 2 ? (a, b) => a.x - b.x : (a, b) => a.y - b.y);
    const a = pts[0], b = pts[pts.length - 1];
    let dx = b.x - a.x, dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    dx /= len; dy /= len;
    let nx = -dy, ny = dx;
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    if (nx * (mx - cx) + ny * (my - cy) < 0) { nx = -nx; ny = -ny; }
    const ext = 0.35;
    const x1 = a.x - dx * ext + nx * offset, y1 = a.y - dy * ext + ny * offset;
    const x2 = b.x + dx * ext + nx * offset, y2 = b.y + dy * ext + ny * offset;
    const line = { x1, y1, x2, y2, "stroke-linecap": "round" };
    el("line", Object.assign({ stroke: "#6b5a48", "stroke-width": 0.2 }, line), g);
    el("line", Object.assign({ stroke: color === "black" ? "#1d1d1d" : "#fbfbfb", "stroke-width": 0.13, class: "goal-" + color }, line), g);
  }
}

function hexagon(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 90);
    pts.push((x + r * Math.cos(a)).toFixed(3) + "," + (y + r * Math.sin(a)).toFixed(3));
  }
  return pts.join(" ");
}

const LEVEL_RING = ["#8a7560", "#d99a1e", "#c4512d", "#7b3fa0", "#2d6fb5", "#2a8a5a"];

function draw() {
  const pos = state.pos;
  const svg = $("board");
  svg.innerHTML = "";
  if (!pos) return;
  const xs = pos.points.map((p) => p.x).concat(pos.labels.map((l) => l.x));
  const ys = pos.points.map((p) => p.y).concat(pos.labels.map((l) => l.y));
  const minx = Math.min(...xs) - 0.7, maxx = Math.max(...xs) + 0.7;
  const miny = Math.min(...ys) - 0.7, maxy = Math.max(...ys) + 0.7;
  svg.setAttribute("viewBox", `${minx} ${miny} ${maxx - minx} ${maxy - miny}`);
  svg.setAttribute("data-game", pos.game);
  const defs = el("defs", {}, svg);
  const gb = el("radialGradient", { id: "gb", cx: "35%", cy: "30%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#6a6a6a" }, gb);
  el("stop", { offset: "100%", "stop-color": "#111" }, gb);
  const gw = el("radialGradient", { id: "gw", cx: "35%", cy: "30%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#fff" }, gw);
  el("stop", { offset: "100%", "stop-color": "#cfcac0" }, gw);

  const base = pos.points.filter((p) => p.level === 0);
  const bx = base.map((p) => p.x), by = base.map((p) => p.y);
  // The board's wood.
  if (pos.shape === "hexagon") {
    const g = el("g", {}, svg);
    for (const p of pos.points) el("polygon", { points: hexagon(p.x, p.y, 0.577), fill: "#e9c98f", stroke: "#8a6a45", "stroke-width": 0.03 }, g);
  } else {
    el("rect", { x: Math.min(...bx) - 0.45, y: Math.min(...by) - 0.45, width: Math.max(...bx) - Math.min(...bx) + 0.9, height: Math.max(...by) - Math.min(...by) + 0.9, rx: 0.15, fill: "#e9c98f" }, svg);
  }
  goalEdges(pos, el("g", {}, svg));
  // Lines.
  if (pos.shape !== "hexagon") {
    const g = el("g", { stroke: "#6b5a48", "stroke-width": 0.03 }, svg);
    for (const [a, b] of pos.lines) {
      const p = pos.points[a], q = pos.points[b];
      const half = p.level !== q.level; // Onyx's midpoint lines
      el("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, "stroke-dasharray": half ? "0.06 0.05" : "none" }, g);
    }
  }
  // Labels.
  const lg = el("g", {}, svg);
  for (const l of pos.labels) {
    const t = el("text", { x: l.x, y: l.y, class: "label" }, lg);
    t.textContent = l.text;
  }
  // Empty points (Onyx's midpoints as small diamonds, Akron's holes).
  const pg = el("g", {}, svg);
  for (const p of pos.points) {
    if (p.piece) continue;
    if (pos.shape === "stack") {
      if (p.level === 0) el("circle", { cx: p.x, cy: p.y, r: 0.3, fill: "#c9a46b", stroke: "#8a6a45", "stroke-width": 0.03 }, pg);
    } else if (pos.shape === "grid") {
      if (p.level === 1) el("rect", { x: p.x - 0.06, y: p.y - 0.06, width: 0.12, height: 0.12, transform: `rotate(45 ${p.x} ${p.y})`, fill: "#6b5a48" }, pg);
      else el("circle", { cx: p.x, cy: p.y, r: 0.06, fill: "#6b5a48" }, pg);
    }
  }
  // What the last move removed (captures, a ball's origin, drops).
  for (const r of pos.removed) {
    const p = pos.points.find((q) => q.name === r.point);
    if (!p || p.piece) continue;
    el("circle", { cx: p.x, cy: p.y, r: 0.3, fill: "none", stroke: r.piece === "black" ? "#222" : "#fff", "stroke-width": 0.05, "stroke-dasharray": "0.08 0.06", class: "removed", "data-point": p.name }, pg);
    if (pos.removal === "capture") {
      const d = 0.11, cross = { stroke: "#d2362a", "stroke-width": 0.05, "stroke-linecap": "round" };
      el("line", Object.assign({ x1: p.x - d, y1: p.y - d, x2: p.x + d, y2: p.y + d, class: "captured", "data-point": p.name }, cross), pg);
      el("line", Object.assign({ x1: p.x - d, y1: p.y + d, x2: p.x + d, y2: p.y - d }, cross), pg);
    }
  }
  // Pieces, lowest level first.
  const chain = new Set(pos.chain);
  // The last move's new pieces (not a moved ball's origin, where a
  // dropping ball may have changed the colour).
  const from = pos.last_move && pos.last_move.move.includes("-") ? pos.last_move.move.split("-")[0] : null;
  const added = new Set(pos.added.map((a) => a.point).filter((a) => a !== from));
  const pieces = pos.points.filter((p) => p.piece).sort((a, b) => a.level - b.level);
  const kg = el("g", {}, svg);
  // The winning chain: a band along its path, under the pieces.
  const path = pos.chain.map((n) => pos.points.find((q) => q.name === n)).filter((p) => p);
  if (path.length > 1) el("polyline", { points: path.map((p) => `${p.x},${p.y}`).join(" "), fill: "none", stroke: "#e0a800", "stroke-width": 0.22, "stroke-linejoin": "round", "stroke-linecap": "round", opacity: 0.85, class: "chain-path" }, kg);
  for (const p of pieces) {
    const r = pos.shape === "stack" ? 0.42 : pos.shape === "hexagon" ? 0.38 : (p.level === 1 ? 0.3 : 0.36);
    if (pos.shape === "stack" && p.level > 0) {
      el("circle", { cx: p.x + 0.05, cy: p.y + 0.07, r: r, fill: "#0005" }, kg);
    }
    el("circle", {
      cx: p.x, cy: p.y, r: r, fill: p.piece === "black" ? "url(#gb)" : "url(#gw)",
      stroke: pos.shape === "stack" ? LEVEL_RING[Math.min(p.level, LEVEL_RING.length - 1)] : (p.piece === "black" ? "#000" : "#777"),
      "stroke-width": pos.shape === "stack" && p.level > 0 ? 0.09 : 0.03,
      class: "piece", "data-point": p.name, "data-color": p.piece, "data-level": p.level,
    }, kg);
    if (pos.shape === "stack" && p.level > 0) {
      const t = el("text", { x: p.x, y: p.y, class: "level", fill: p.piece === "black" ? "#fff" : "#222" }, kg);
      t.textContent = p.level;
    }
    if (chain.has(p.name)) el("circle", { cx: p.x, cy: p.y, r: r + 0.06, fill: "none", stroke: "#e0a800", "stroke-width": 0.08, class: "chain", "data-point": p.name }, kg);
    if (added.has(p.name)) el("circle", { cx: p.x + r * 0.62, cy: p.y - r * 0.62, r: 0.09, fill: "#d2362a", stroke: "#fff", "stroke-width": 0.025, class: "last" }, kg);
  }
  // Drops: the pieces above the moved one slid down diagonally, from the
  // vacated point to the moved piece's place.
  for (const name of pos.removal === "drop" ? gone(pos) : []) {
    const a = pos.points.find((q) => q.name === name), b = pos.points.find((q) => q.name === from);
    if (!a || !b) continue;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1, ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
    const tipx = b.x - ux * 0.16, tipy = b.y - uy * 0.16;
    const arrow = { stroke: "#2d6fb5", "stroke-width": 0.07, "stroke-linecap": "round", fill: "none" };
    el("line", Object.assign({ x1: a.x, y1: a.y, x2: tipx, y2: tipy, class: "drop", "data-point": name }, arrow), kg);
    const hx = tipx - ux * 0.16, hy = tipy - uy * 0.16;
    el("polyline", Object.assign({ points: `${hx - uy * 0.11},${hy + ux * 0.11} ${tipx},${tipy} ${hx + uy * 0.11},${hy - ux * 0.11}`, "stroke-linejoin": "round" }, arrow), kg);
  }
  // The moves that explain the result (Orcoon's winning sequence after
  // an adjudicated pass), numbered in order.
  pos.sequence.forEach((name, i) => {
    const p = pos.points.find((q) => q.name === name);
    if (!p) return;
    el("circle", { cx: p.x, cy: p.y, r: 0.33, fill: pos.winner === "black" ? "#1118" : "#fff8", stroke: "#b5452b", "stroke-width": 0.04, class: "sequence" }, kg);
    const t = el("text", { x: p.x, y: p.y, class: "seq", fill: pos.winner === "black" ? "#fff" : "#b5452b" }, kg);
    t.textContent = i + 1;
  });
  // Akron: the selected ball and its destinations.
  if (state.selected) {
    const s = pos.points.find((q) => q.name === state.selected);
    if (s) el("circle", { cx: s.x, cy: s.y, r: 0.48, fill: "none", stroke: "#3a7bd5", "stroke-width": 0.08 }, kg);
    for (const d of destinations(state.selected)) {
      const p = pos.points.find((q) => q.name === d);
      if (p) el("circle", { cx: p.x, cy: p.y, r: 0.2, fill: "#2f9e44aa", stroke: "#2f9e44", "stroke-width": 0.04, class: "destination", "data-point": d }, kg);
    }
  }
  // The engine's analysis on its points (under the click targets).
  drawAnalysis(pos, el("g", { "pointer-events": "none" }, svg));
  // Click targets, lowest level first (higher points on top). A target
  // the side to move may click (a legal placement, an Akron ball that can
  // move, a selected ball's destination) is "legal" and lights up under
  // the pointer; the others only explain why not when clicked.
  const ghosts = el("g", { "pointer-events": "none" }, svg);
  const tg = el("g", {}, svg);
  svg.setAttribute("data-to-move", pos.to_move);
  const dest = new Set(state.selected ? destinations(state.selected) : []);
  const clickable = clickableNow();
  const order = pos.points.slice().sort((a, b) => a.level - b.level);
  for (const p of order) {
    if (pos.shape === "stack" && p.level > 0 && !p.piece && !dest.has(p.name)) continue;
    const r = pos.shape === "stack" ? (p.level > 0 ? 0.3 : 0.42) : (pos.shape === "grid" && p.level === 1 ? 0.22 : 0.42);
    const kind = clickable.get(p.name);
    const t = el("circle", { cx: p.x, cy: p.y, r, class: "target" + (kind ? " legal " + kind : ""), "data-point": p.name }, tg);
    t.addEventListener("click", () => clicked(p.name));
    // Under the pointer, a legal placement shows the mover's piece there.
    let ghost = null;
    t.addEventListener("mouseenter", () => {
      t.classList.add("hover");
      if (kind !== "place") return;
      const gr = pos.shape === "stack" ? 0.42 : pos.shape === "hexagon" ? 0.38 : (p.level === 1 ? 0.3 : 0.36);
      ghost = el("circle", { cx: p.x, cy: p.y, r: gr, fill: pos.to_move === "black" ? "#111" : "#fff", stroke: pos.to_move === "black" ? "#000" : "#777", "stroke-width": 0.03, opacity: 0.55, class: "ghost", "data-point": p.name }, ghosts);
    });
    t.addEventListener("mouseleave", () => {
      t.classList.remove("hover");
      if (ghost) { ghost.remove(); ghost = null; }
    });
  }
}

// The point a move is drawn on: a placement's own, a moving piece's
// destination; none for a move without a point (swap, pass).
function pointOf(pos, move) {
  const name = (move.includes("-") ? move.split("-").pop() : move).toLowerCase();
  return pos.points.find((q) => q.name.toLowerCase() === name);
}

// A score as a label: the evaluation's units, or W/L and the plies to a
// proven win or loss.
function shortScore(score) {
  const m = /^(cp|win|loss) (-?\d+)$/.exec(score);
  if (!m) return score;
  return m[1] === "cp" ? m[2] : (m[1] === "win" ? "W" : "L") + m[2];
}

// The solved moves (a disc for each value, W / L / D / ?) and the engine's
// best moves (a ring with the score, the best one highlighted).
function drawAnalysis(pos, g) {
  for (const [move, value] of state.solved) {
    const p = move.includes("-") ? null : pointOf(pos, move);
    if (!p) continue;
    el("circle", { cx: p.x, cy: p.y, r: 0.3, class: "solved " + value, "data-point": p.name, "data-value": value }, g);
    const t = el("text", { x: p.x, y: p.y, class: "solved-label" }, g);
    t.textContent = { win: "W", loss: "L", draw: "D" }[value] || "?";
  }
  state.candidates.forEach((c, i) => {
    const p = c && pointOf(pos, c.move);
    if (!p) return;
    const best = i === 0 ? " best" : "";
    el("circle", { cx: p.x, cy: p.y, r: 0.36, class: "candidate" + best, "data-point": p.name, "data-rank": i + 1, "data-score": c.score }, g);
    const t = el("text", { x: p.x, y: p.y, class: "candidate-label" + best, "data-point": p.name, "data-rank": i + 1 }, g);
    t.textContent = shortScore(c.score);
  });
}

// What a click on each point would do now, for a human to move: "place"
// (a legal placement or destination) or "select" (an Akron ball that can
// move). Empty while the engine moves or after the end.
function clickableNow() {
  const pos = state.pos, out = new Map();
  if (!pos || pos.result || state.thinking || players()[pos.to_move] !== "human") return out;
  // With an Akron ball selected: its destinations, or another ball.
  if (state.selected) for (const d of destinations(state.selected)) out.set(d, "place");
  for (const m of pos.legal) {
    if (m === "pass" || m === "swap") continue;
    const i = m.indexOf("-");
    if (i < 0) { if (!state.selected) out.set(m, "place"); }
    else if (!out.has(m.slice(0, i))) out.set(m.slice(0, i), "select");
  }
  return out;
}

// The points the last move emptied other than the moved piece's origin:
// captured stones (Onyx), the vacated point of a drop (Akron).
function gone(pos) {
  const origin = pos.last_move ? pos.last_move.move.split("-")[0] : null;
  return pos.removed.filter((r) => r.point !== origin && !pos.points.find((q) => q.name === r.point).piece).map((r) => r.point);
}

function destinations(from) {
  if (!state.pos) return [];
  return state.pos.legal.filter((m) => m.startsWith(from + "-")).map((m) => m.slice(from.length + 1));
}

// ---------------------------------------------------------------- state

function players() { return { black: $("black").value, white: $("white").value }; }

// The seats follow the players across a swap: the swapper takes over the
// first move's colour, so whoever held Black now holds White. The menus
// say who holds each colour now; they are exchanged when a swap is played
// and exchanged back when it is undone or a new game starts.
function followSwap(pos) {
  const swapped = pos.history.includes("swap");
  if (swapped === state.swapped) return;
  state.swapped = swapped;
  const b = $("black").value;
  $("black").value = $("white").value;
  $("white").value = b;
}

function setPosition(pos) {
  const changed = !state.pos || JSON.stringify(state.pos.history) !== JSON.stringify(pos.history) || state.pos.game !== pos.game;
  followSwap(pos);
  state.pos = pos;
  if (changed) {
    state.selected = null;
    state.candidates = [];
    state.solved = new Map();
  }
  draw();
  showState();
}

function showState() {
  const pos = state.pos;
  if (!pos) return;
  let s;
  if (pos.result) {
    s = pos.winner ? `${pos.winner} wins (${pos.result})` : `draw (${pos.result})`;
    if (pos.facts.passed) s += ` — ${pos.facts.passed} passed`;
    if (pos.sequence.length) s += `; ${pos.winner} connects with ${pos.sequence.join(" ")}`;
  } else if (state.resigned) {
    s = `${state.resigned} resigns`;
  } else {
    const doing = { genmove: "the engine is thinking…", analyze: "analysing…", solve: "solving each move…" }[state.task];
    s = `${pos.to_move} to move` + (state.thinking ? " — " + doing : "");
  }
  $("status").textContent = `${pos.game} ${pos.size}×${pos.size}, move ${pos.moves_played + 1}: ${s}`;
  const facts = Object.entries(pos.facts).map(([k, v]) => `${k}: ${v}`);
  if (pos.last_move) facts.push(`last move: ${pos.last_move.color} ${pos.last_move.move}`);
  const taken = gone(pos);
  const word = { capture: "captured: ", drop: "dropped from: " }[pos.removal];
  if (word && taken.length) facts.push(word + taken.join(" "));
  $("facts").textContent = facts.join("\n");
  const ol = $("moves");
  ol.innerHTML = "";
  // Each move with a mark of the colour that played it (after a swap the
  // same colour moves again, so colours do not simply alternate).
  pos.history.forEach((m, i) => {
    const li = document.createElement("li");
    const mark = document.createElement("span");
    mark.className = "stone " + pos.colors[i];
    mark.title = pos.colors[i];
    li.dataset.color = pos.colors[i];
    li.append(`${i + 1}. `, mark, ` ${m}`);
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
  $("swap").disabled = state.thinking || !pos.legal.includes("swap");
  $("pass").disabled = state.thinking || !pos.legal.includes("pass");
  $("undo").disabled = state.thinking || pos.history.length === 0;
  $("stop").disabled = !state.thinking;
  $("analyze").disabled = state.thinking || !!pos.result;
  $("solve").disabled = state.thinking || !!pos.result;
  document.body.dataset.thinking = state.thinking ? "yes" : "no";
}

async function play(move) {
  if (state.thinking || !state.pos) return;
  const color = state.pos.to_move;
  const r = await command(`play ${color} ${move}`);
  if (r.ok) { message(""); await maybeEngine(); }
  else message(r.answer);
}

async function clicked(name) {
  const pos = state.pos;
  if (!pos || state.thinking) return;
  if (pos.result) { message("the game is over: start a new game or undo"); return; }
  if (players()[pos.to_move] !== "human") { message("it is the engine's turn"); return; }
  // A game whose pieces move (Akron's balls): select a piece, then its
  // destination.
  if (pos.pieces_move) {
    const p = pos.points.find((q) => q.name === name);
    if (state.selected) {
      if (name === state.selected) { state.selected = null; draw(); return; }
      if (pos.legal.includes(`${state.selected}-${name}`)) { const m = `${state.selected}-${name}`; state.selected = null; return play(m); }
      if (p && p.piece === pos.to_move && destinations(name).length) { state.selected = name; message(""); draw(); return; }
      const m = `${state.selected}-${name}`; state.selected = null; draw();
      return play(m);
    }
    if (p && p.piece === pos.to_move && destinations(name).length) { state.selected = name; message(""); draw(); return; }
    if (p && p.piece === pos.to_move) { message(`the piece on ${name} has no legal move`); return; }
  }
  return play(name);
}

async function maybeEngine() {
  const pos = state.pos;
  if (!pos || pos.result || state.thinking || state.resigned) return;
  if (players()[pos.to_move] !== "engine") return;
  await begin("genmove");
}

// Starts `task` in the background for the side to move ("genmove",
// "analyze": the engine's best moves without playing; "solve": every
// legal move solved) and follows it until it ends.
async function begin(task) {
  const r = await api(task, { color: state.pos.to_move });
  if (!r.ok) { message(r.answer); return; }
  state.thinking = true;
  state.task = task;
  state.infoFrom = 0;
  state.candidates = [];
  state.search = null;
  state.solved = new Map();
  state.progress = "";
  $("analysis").textContent = "";
  showState();
  draw();
  poll();
}

// Analyze and Solve moves: for the side to move, when nothing runs.
function analyse(task) {
  if (!state.pos || state.pos.result || state.thinking) return;
  message("");
  return begin(task);
}

// Proven results as "win in N plies" (N counts both sides' moves).
function longScore(score) {
  return score.replace(/^(win|loss) (\d+)$/, (_, w, n) => `${w} in ${n} ${n === "1" ? "ply" : "plies"}`);
}

const INFO = /^info depth (\S+)(?: multipv (\d+))? score (.+?) nodes (\S+) nps (\S+) time (\S+) pv ?(.*)$/;

// Reads the engine's `info` lines (and the analysis's answer, in the same
// format): an iteration's best moves (numbered lines, the first starting
// each iteration), each solved move's value, the solver's progress.
function showInfo(lines) {
  for (const line of lines) {
    const m = INFO.exec(line);
    const solved = /^info solve_all (\S+) (\S+)/.exec(line);
    if (m) {
      const rank = m[2] ? parseInt(m[2], 10) : 1;
      if (rank === 1) { state.candidates = []; state.search = { depth: m[1], nodes: m[4], ms: m[6] }; }
      state.candidates[rank - 1] = { move: m[7].split(" ")[0], score: m[3], pv: m[7] };
    } else if (solved) {
      state.solved.set(solved[1], solved[2]);
    } else if (line.startsWith("info ")) {
      state.progress = line.slice(5);
    } else if (line.startsWith("eval ") && state.search) {
      state.search.eval = line.slice(5);
    }
  }
  if (!lines.length) return;
  let text;
  if (state.task === "solve" || (!state.search && state.solved.size)) {
    const count = { win: 0, loss: 0, draw: 0, unknown: 0 };
    for (const v of state.solved.values()) count[v] = (count[v] || 0) + 1;
    const total = state.pos ? state.pos.legal.length : state.solved.size;
    text = `solved ${state.solved.size} of ${total} moves: ${count.win} won, ${count.loss} lost` +
      (count.draw ? `, ${count.draw} drawn` : "") + `, ${count.unknown} unknown`;
    const wins = Array.from(state.solved).filter(([, v]) => v === "win").map(([m]) => m);
    if (wins.length) text += `\nwinning: ${wins.join(" ")}`;
    if (state.thinking && state.progress) text += `\n${state.progress}`;
  } else if (state.search) {
    const s = state.search;
    text = `depth ${s.depth}   nodes ${s.nodes}   ${s.ms} ms` + (s.eval ? `   eval ${s.eval}` : "");
    state.candidates.forEach((c, i) => {
      if (c) text += `\n${i + 1}. ${c.move}  ${longScore(c.score)}` + (c.pv.includes(" ") ? `\n   ${c.pv}` : "");
    });
  } else {
    text = lines[lines.length - 1];
  }
  $("analysis").textContent = text;
  draw();
}

async function poll() {
  const r = await api("poll", { from: state.infoFrom });
  if (r.info) { state.infoFrom += r.info.length; showInfo(r.info); }
  if (r.thinking === false) {
    const task = state.task;
    state.thinking = false;
    if (r.answer !== undefined) {
      if (!r.ok) message(r.answer);
      else if (task === "genmove" && r.answer === "resign") state.resigned = state.pos.to_move;
      // The analysis's answer: its last iteration (stopped, the best so
      // far); the solve's: every move's value.
      else if (task === "analyze") showInfo(r.answer.split("\n"));
      else if (task === "solve") showInfo(r.answer.split("\n").filter((l) => l).map((l) => "info solve_all " + l));
    }
    state.task = null;
    if (r.position) setPosition(r.position);
    showState();
    if (task === "genmove" && r.answer !== undefined && r.ok && r.answer !== "resign") maybeEngine();
    return;
  }
  setTimeout(poll, 120);
}

// ---------------------------------------------------------------- controls

function fillSizes() {
  const g = state.games.find((x) => x.name === $("game").value);
  const sizes = $("size");
  sizes.innerHTML = "";
  for (const s of g.sizes) { const o = new Option(`${s}×${s}`, s); if (s === g.default_size) o.selected = true; sizes.add(o); }
  // One menu for each of the game's options (from the registry), each
  // starting at the game's default (the first value).
  const box = $("options");
  box.innerHTML = "";
  for (const o of g.options) {
    const label = document.createElement("label");
    label.title = o.doc;
    label.append(o.name[0].toUpperCase() + o.name.slice(1) + " ");
    const menu = document.createElement("select");
    menu.id = "option-" + o.name;
    menu.dataset.option = o.name;
    for (const v of o.values) menu.add(new Option(v, v));
    menu.addEventListener("change", newGame);
    label.append(menu);
    box.append(label);
  }
}

// The option menus' choices, as the commands that set them.
function optionCommands() {
  return Array.from($("options").querySelectorAll("select")).map((m) => `${m.dataset.option} ${m.value}`);
}

async function engineSettings() {
  await command(`param player ${$("player").value}`);
  const t = Math.min(30, Math.max(0.1, parseFloat($("movetime").value) || 1));
  await command(`param move_time ${t}`);
  const k = Math.min(10, Math.max(1, parseInt($("candidates").value, 10) || 1));
  await command(`param multipv ${k}`);
}

async function newGame() {
  if (state.thinking) await stopThinking();
  state.resigned = null;
  message("");
  await command(`game ${$("game").value}`);
  // The options at the game's default size, then the size: a preference
  // the size does not have (Onyx's standard start on 6×6) gives way there.
  for (const line of optionCommands()) {
    const o = await command(line);
    if (!o.ok) message(o.answer);
  }
  const r = await command(`boardsize ${$("size").value}`);
  if (!r.ok) message(r.answer);
  await engineSettings();
  await maybeEngine();
}

async function stopThinking() {
  await api("stop");
  while (state.thinking) await new Promise((res) => setTimeout(res, 50));
}

async function undo() {
  if (state.thinking) return;
  state.resigned = null;
  const r = await command("undo");
  if (!r.ok) { message(r.answer); return; }
  message("");
  // Back to a human's turn when playing the engine.
  const p = players();
  if (p[state.pos.to_move] === "engine" && p.black !== p.white && state.pos.history.length) await command("undo");
}

async function download() {
  const r = await api("sgf");
  if (!r.ok) { message(r.answer); return; }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([r.sgf], { type: "application/x-go-sgf" }));
  a.download = `${state.pos.game}-${state.pos.size}.sgf`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function upload(file) {
  if (state.thinking) await stopThinking();
  const text = await file.text();
  const r = await api("loadsgf", { sgf: text });
  if (!r.ok) { message(r.answer); return; }
  message(`opened ${file.name}`);
  state.resigned = null;
  $("game").value = r.position.game;
  fillSizes();
  $("size").value = r.size;
  for (const [name, value] of Object.entries(r.position.options)) {
    const menu = $("option-" + name);
    if (menu) menu.value = value;
  }
  setPosition(r.position);
  await engineSettings();
}

async function init() {
  const s = await api("session");
  if (!s.id) { message(s.answer || "no session"); return; }
  state.id = s.id;
  state.games = await api("games");
  for (const g of state.games) $("game").add(new Option(g.name, g.name));
  const want = new URLSearchParams(location.search);
  if (want.get("game")) $("game").value = want.get("game");
  fillSizes();
  if (want.get("size")) $("size").value = want.get("size");
  for (const menu of $("options").querySelectorAll("select")) {
    if (want.get(menu.dataset.option)) menu.value = want.get(menu.dataset.option);
  }
  if (want.get("black")) $("black").value = want.get("black");
  if (want.get("white")) $("white").value = want.get("white");
  if (want.get("player")) $("player").value = want.get("player");
  if (want.get("movetime")) $("movetime").value = want.get("movetime");
  if (want.get("candidates")) $("candidates").value = want.get("candidates");
  $("game").addEventListener("change", () => { fillSizes(); newGame(); });
  $("size").addEventListener("change", newGame);
  $("new").addEventListener("click", newGame);
  $("black").addEventListener("change", () => maybeEngine());
  $("white").addEventListener("change", () => maybeEngine());
  $("player").addEventListener("change", engineSettings);
  $("movetime").addEventListener("change", engineSettings);
  $("candidates").addEventListener("change", engineSettings);
  $("analyze").addEventListener("click", () => analyse("analyze"));
  $("solve").addEventListener("click", () => analyse("solve"));
  $("undo").addEventListener("click", undo);
  $("swap").addEventListener("click", () => play("swap"));
  $("pass").addEventListener("click", () => play("pass"));
  $("stop").addEventListener("click", () => api("stop"));
  $("download").addEventListener("click", download);
  $("upload").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ""; });
  window.addEventListener("pagehide", () => navigator.sendBeacon("/api/close", JSON.stringify({ id: state.id })));
  // Keep the session of an idle open tab alive (idle ones are freed).
  setInterval(() => api("ping"), 60000);
  await newGame();
  document.body.dataset.ready = "yes";
}

init();
