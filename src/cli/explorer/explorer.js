// nimrod explorer: reads the server's own routes (/standard,
// /standard/mainline, /api/GAME) and draws what they answer.
"use strict";

const START = "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1";
const GLYPH = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json().catch(() => ({ error: "answer is not JSON (HTTP " + r.status + ")" }));
  if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
  return body;
}

function api(game, args) {
  return getJson("/api/" + game + "?args=" + encodeURIComponent(args));
}

function show(el, text) {
  el.textContent = text;
  el.hidden = !text;
}

// ---- chess ---------------------------------------------------------------

const sq = (name) => (name.charCodeAt(0) - 97) + 8 * (name.charCodeAt(1) - 49);
const sqName = (i) => String.fromCharCode(97 + (i % 8)) + String.fromCharCode(49 + Math.floor(i / 8));

function parseFen(fen) {
  const f = fen.trim().replace(/_/g, " ").split(/\s+/);
  const board = new Array(64).fill(null);
  const ranks = (f[0] || "").split("/");
  if (ranks.length !== 8) throw new Error("FEN: 8 ranks expected");
  ranks.forEach((row, r) => {
    let file = 0;
    for (const c of row) {
      if (/[1-8]/.test(c)) file += Number(c);
      else { board[(7 - r) * 8 + file] = c; file += 1; }
    }
  });
  return { board, turn: f[1] || "w", castling: f[2] || "-", ep: f[3] || "-",
    half: Number(f[4] || 0), full: Number(f[5] || 1) };
}

function toFen(p) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const c = p.board[r * 8 + file];
      if (!c) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += c;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return [rows.join("/"), p.turn, p.castling, p.ep, p.half, p.full].join(" ");
}

function play(p, uci) {
  const q = { ...p, board: p.board.slice() };
  const from = sq(uci.slice(0, 2)), to = sq(uci.slice(2, 4));
  let piece = q.board[from];
  const pawn = piece && piece.toLowerCase() === "p";
  const capture = q.board[to] !== null || (pawn && uci.slice(2, 4) === p.ep);
  if (pawn && uci.slice(2, 4) === p.ep) q.board[to + (p.turn === "w" ? -8 : 8)] = null;
  if (uci.length > 4) piece = p.turn === "w" ? uci[4].toUpperCase() : uci[4];
  q.board[to] = piece;
  q.board[from] = null;
  q.ep = pawn && Math.abs(to - from) === 16 ? sqName((to + from) / 2) : "-";
  q.half = pawn || capture ? 0 : p.half + 1;
  if (p.turn === "b") q.full = p.full + 1;
  q.turn = p.turn === "w" ? "b" : "w";
  return q;
}

// A reply's DTM (plies, for the side then to move) as the mover's outcome.
function moverOutcome(m) {
  if (m.category === "draw") return "draw";
  if (m.checkmate) return "win, checkmate";
  const plies = Math.abs(m.dtm) + 1;
  if (m.category === "loss") return "win, mate in " + Math.ceil(plies / 2) + " (" + plies + " plies)";
  return "loss, mated in " + Math.ceil(plies / 2) + " (" + plies + " plies)";
}

function verdictText(pos, a) {
  const side = pos.turn === "w" ? "White" : "Black";
  if (a.checkmate) return side + " is checkmated.";
  if (a.stalemate) return side + " is stalemated: draw.";
  if (a.category === "draw") return side + " to move: draw.";
  const plies = Math.abs(a.dtm);
  const moves = Math.ceil(plies / 2);
  return a.category === "win"
    ? side + " to move wins: mate in " + moves + " (DTM " + plies + " plies)."
    : side + " to move loses: mated in " + moves + " (DTM " + plies + " plies).";
}

const chess = { pos: null, answer: null, selected: null };

function drawBoard() {
  const el = document.getElementById("board");
  el.innerHTML = "";
  for (let r = 7; r >= 0; r--) {
    for (let f = 0; f < 8; f++) {
      const i = r * 8 + f;
      const d = document.createElement("div");
      d.className = "sq " + ((r + f) % 2 ? "light" : "dark") + (chess.selected === i ? " selected" : "");
      d.dataset.square = sqName(i);
      const c = chess.pos.board[i];
      if (c) { d.textContent = GLYPH[c]; d.dataset.piece = c; }
      d.addEventListener("click", () => clickSquare(i));
      el.appendChild(d);
    }
  }
}

function clickSquare(i) {
  const moves = chess.answer ? chess.answer.moves : [];
  if (chess.selected !== null) {
    const prefix = sqName(chess.selected) + sqName(i);
    const m = moves.find((x) => x.uci === prefix || x.uci === prefix + "q") ||
      moves.find((x) => x.uci.startsWith(prefix));
    chess.selected = null;
    if (m) { playMove(m.uci); return; }
  }
  if (moves.some((x) => x.uci.startsWith(sqName(i)))) chess.selected = i;
  drawBoard();
}

function playMove(uci) {
  setPosition(toFen(play(chess.pos, uci)));
}

function group(title, list, cls) {
  if (!list.length) return null;
  const box = document.createElement("div");
  box.className = "group " + cls;
  const h = document.createElement("h3");
  h.textContent = title;
  box.appendChild(h);
  const ul = document.createElement("ul");
  for (const m of list) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.uci = m.uci;
    b.dataset.category = m.category;
    b.dataset.dtm = m.dtm === null ? "" : String(m.dtm);
    const san = document.createElement("span");
    san.className = "san";
    san.textContent = m.san;
    const val = document.createElement("span");
    val.className = "value";
    val.textContent = moverOutcome(m);
    b.append(san, val);
    b.addEventListener("click", () => playMove(m.uci));
    li.appendChild(b);
    ul.appendChild(li);
  }
  box.appendChild(ul);
  return box;
}

async function setPosition(fen) {
  const err = document.getElementById("error");
  show(err, "");
  let pos;
  try { pos = parseFen(fen); } catch (e) { show(err, e.message); return; }
  chess.pos = pos; chess.selected = null; chess.answer = null;
  fen = toFen(pos);
  document.getElementById("fen").value = fen;
  const link = "/?fen=" + encodeURIComponent(fen);
  history.replaceState(null, "", link + location.hash);
  const a = document.getElementById("permalink");
  a.href = link; a.textContent = link;
  drawBoard();
  const movesEl = document.getElementById("moves");
  movesEl.innerHTML = "";
  document.getElementById("verdict").textContent = "";
  document.getElementById("mainline").textContent = "";
  try {
    const q = encodeURIComponent(fen);
    const [answer, line] = await Promise.all([
      getJson("/standard?fen=" + q), getJson("/standard/mainline?fen=" + q)]);
    chess.answer = answer;
    document.getElementById("verdict").textContent = verdictText(pos, answer);
    for (const g of [
      group("Winning moves", answer.moves.filter((m) => m.category === "loss"), "win"),
      group("Drawing moves", answer.moves.filter((m) => m.category === "draw"), "draw"),
      group("Losing moves", answer.moves.filter((m) => m.category === "win"), "loss")]) {
      if (g) movesEl.appendChild(g);
    }
    let n = pos.full, white = pos.turn === "w", text = "";
    line.mainline.forEach((m, k) => {
      if (white) text += n + ". ";
      else if (k === 0) text += n + "... ";
      text += m.san + " ";
      if (!white) n++;
      white = !white;
    });
    document.getElementById("mainline").textContent = text.trim() || "(draw: no mainline)";
    drawBoard();
  } catch (e) {
    show(err, e.message);
  }
}

// ---- GOPS ------------------------------------------------------------------

async function showGops() {
  const n = Number(document.getElementById("gops-n").value);
  const err = document.getElementById("gops-error");
  const t = document.getElementById("gops-heat");
  show(err, ""); t.innerHTML = "";
  try {
    const a = await api("gops", "--cards " + n + " --first-move");
    const head = t.insertRow();
    head.insertCell().textContent = "upcard \\ card";
    for (let c = 1; c <= a.cards; c++) head.insertCell().textContent = c;
    for (const u of a.upcards) {
      const row = t.insertRow();
      row.insertCell().textContent = u.upcard;
      const p = new Map(u.player_one.map((x) => [x.card, x.probability]));
      for (let c = 1; c <= a.cards; c++) {
        const cell = row.insertCell();
        const v = p.get(c) || 0;
        cell.textContent = v ? v.toFixed(2) : "";
        cell.className = "heat-cell";
        cell.dataset.probability = String(v);
        cell.style.background = "rgba(200, 60, 30, " + v.toFixed(3) + ")";
      }
    }
  } catch (e) { show(err, e.message); }
}

// ---- Grundy's game -----------------------------------------------------------

async function showGrundy() {
  const h = Number(document.getElementById("grundy-heap").value);
  const err = document.getElementById("grundy-error");
  show(err, "");
  try {
    const a = await api("grundy", String(h));
    document.getElementById("grundy-value").textContent =
      "Heap " + a.heap + ": Grundy value " + a.value + " (" +
      (a.outcome === "P" ? "a loss for the player to move" : "a win for the player to move") + ")";
    document.getElementById("grundy-splits").textContent = a.winning_splits.length
      ? "Winning splits: " + a.winning_splits.map((s) => s.join("+")).join(", ")
      : "No winning split.";
  } catch (e) { show(err, e.message); }
  const strip = document.getElementById("grundy-strip");
  if (!strip.childElementCount) {
    const values = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api("grundy", String(i + 1)).catch(() => null)));
    values.forEach((v, i) => {
      const d = document.createElement("div");
      d.className = "cell" + (v && v.value === 0 ? " zero" : "");
      d.title = "heap " + (i + 1);
      d.textContent = v ? v.value : "?";
      strip.appendChild(d);
    });
  }
}

// ---- noughts and crosses ---------------------------------------------------------

let ttt = ".........";

async function showTtt() {
  const el = document.getElementById("ttt-board");
  const err = document.getElementById("ttt-error");
  show(err, "");
  el.innerHTML = "";
  try {
    const a = await api("ttt", ttt);
    const mover = a.to_move.toLowerCase();
    const over = a.distance === 0;
    document.getElementById("ttt-verdict").textContent = over
      ? "Game over: " + (a.value === 0 ? "draw" : (a.value > 0 ? a.to_move : (mover === "x" ? "O" : "X")) + " wins")
      : a.to_move + " to move: " + ["loss", "draw", "win"][a.value + 1] + " with best play";
    const cells = [...ttt].map((c, i) => {
      const d = document.createElement("button");
      d.type = "button";
      d.className = "ttt-cell";
      d.dataset.cell = String(i);
      d.textContent = c === "." ? "" : c.toUpperCase();
      el.appendChild(d);
      return d;
    });
    if (over) return;
    await Promise.all(cells.map(async (d, i) => {
      if (ttt[i] !== ".") return;
      const child = ttt.slice(0, i) + mover + ttt.slice(i + 1);
      const c = await api("ttt", child);
      const v = -c.value;
      d.dataset.value = String(v);
      d.classList.add(["loss", "draw", "win"][v + 1]);
      d.textContent = ["loss", "draw", "win"][v + 1];
      d.addEventListener("click", () => { ttt = child; showTtt(); });
    }));
  } catch (e) { show(err, e.message); }
}

// ---- tabs ------------------------------------------------------------------------

function openTab() {
  const name = (location.hash || "#chess").slice(1);
  document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== name; });
  if (name === "gops" && !document.getElementById("gops-heat").rows.length) showGops();
  if (name === "grundy" && !document.getElementById("grundy-value").textContent) showGrundy();
  if (name === "ttt" && !document.getElementById("ttt-board").childElementCount) showTtt();
}

window.addEventListener("hashchange", openTab);
document.getElementById("fen-form").addEventListener("submit", (e) => {
  e.preventDefault(); setPosition(document.getElementById("fen").value);
});
document.getElementById("gops-form").addEventListener("submit", (e) => { e.preventDefault(); showGops(); });
document.getElementById("grundy-form").addEventListener("submit", (e) => { e.preventDefault(); showGrundy(); });
document.getElementById("ttt-reset").addEventListener("click", () => { ttt = "........."; showTtt(); });
setPosition(new URLSearchParams(location.search).get("fen") || START);
openTab();
