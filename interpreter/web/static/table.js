// The cardrules table in a browser: draws the view the server sends for this page's seat and
// sends back what the player points at. No game is known here: the table is drawn from the
// ruleset's layout and zones, and a move is one of the legal moves the server listed.
// Text from the ruleset is only ever set as text (textContent), never as markup.
"use strict";

const token = location.pathname.split("/").pop();
let view = null;          // the seat's view of the table, as last sent
let selected = null;      // {pile, index, moves, picked}: the source chosen, the moves from it, and
                          // for a pick of several cards, the codes chosen so far (a Set)
let hinted = null;        // a hinted move's data
let socket = null;
let retry = 500;
const MAX_BUTTONS = 60;   // legal moves listed as buttons, beyond which only those not made by pointing

const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(token));
  socket.onopen = () => { $("connection").textContent = "connected"; retry = 500; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("connection").textContent = "disconnected; trying again…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function say(text, kind) {
  const box = $("message");
  box.replaceChildren();
  if (!text) return;
  const pre = document.createElement("pre");
  pre.className = kind || "";
  pre.textContent = text;
  box.appendChild(pre);
}

function receive(data) {
  if (data.type === "view") {
    view = data.view;
    selected = null;
    hinted = null;
    draw();
  } else if (data.type === "refused") {
    say(data.why.includes(data.text) ? data.why : data.text + ": " + data.why, "refused");
  } else if (data.type === "error") {
    say(data.message, "error");
  } else if (data.type === "hint") {
    hinted = data.move || null;
    say(data.text, "hint");
    draw();
  } else if (data.type === "explain" || data.type === "saved") {
    say(data.text, data.type);
  } else if (data.type === "rules") {
    $("rulestext").textContent = data.text;
    $("rulespanel").open = true;
  }
}

function play(move) {
  selected = null;
  say("");
  send({type: "move", text: move.text, seen: view.made});
}

// -- drawing -------------------------------------------------------------------------------

function cardElement(card, pile, index) {
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.pile = pile;
  el.dataset.index = index;
  if (card.back !== undefined) {
    el.classList.add("back");
    el.textContent = card.back;
  } else {
    el.dataset.code = card.code;
    el.textContent = card.face;
    for (const [name, value] of Object.entries(card.style || {})) el.style.setProperty(name, value);
  }
  return el;
}

function pileElement(zone, pile) {
  const el = document.createElement("div");
  el.className = "pile show-" + zone.show;
  el.dataset.pile = pile.pile;
  el.dataset.name = pile.name;
  el.title = pile.long;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = pile.name;
  el.appendChild(name);
  const cards = pile.cards;
  let first = 0;
  if (zone.show === "stack") first = Math.max(0, cards.length - 1);
  else if (zone.show === "fan") first = Math.max(0, cards.length - 3);
  if (cards.length > 1 && first > 0) {
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = zone.show === "stack" ? String(cards.length) : "+" + first;
    el.appendChild(count);
  }
  if (!cards.length) el.classList.add("empty");
  else if (cards.every((card) => card.back !== undefined)) el.classList.add("backs");
  if (pile.covered) el.classList.add("covered");
  const row = document.createElement("div");
  row.className = "cards";
  for (let i = first; i < cards.length; i++) row.appendChild(cardElement(cards[i], pile.pile, i));
  el.appendChild(row);
  el.addEventListener("click", (event) => { event.stopPropagation(); clicked(pile, event.target); });
  el.addEventListener("dragover", (event) => { if (selected) event.preventDefault(); });
  el.addEventListener("drop", (event) => { event.preventDefault(); if (selected) toPile(pile); });
  return el;
}

function zoneElement(zone) {
  const el = document.createElement("div");
  el.className = "zone";
  el.dataset.zone = zone.zone;
  const leveled = zone.piles.some((p) => p.level !== undefined);
  if (!leveled) {
    for (const pile of zone.piles) el.appendChild(pileElement(zone, pile));
    return el;
  }
  el.classList.add("covering");
  const top = Math.max(...zone.piles.map((p) => p.level));
  for (let level = top; level >= 0; level--) {
    const line = document.createElement("div");
    line.className = "level";
    for (const pile of zone.piles.filter((p) => p.level === level)) line.appendChild(pileElement(zone, pile));
    el.appendChild(line);
  }
  return el;
}

function draw() {
  if (!view) return;
  document.body.dataset.version = view.version;   // which view is drawn (tests wait on it)
  document.title = view.title + " · cardrules";
  $("title").textContent = view.title;
  $("who").textContent = view.seat === null ? "spectator" : view.players > 1 ? "seat " + (view.seat + 1) : "";
  $("status").replaceChildren(...view.status.map((part) => {
    const span = document.createElement("span");
    span.textContent = part;
    return span;
  }));
  const over = $("over");
  over.hidden = !view.over;
  over.textContent = view.outcome || "";
  const table = $("table");
  table.replaceChildren();
  for (const row of view.rows) {
    if (row.title) {
      const title = document.createElement("h3");
      title.textContent = row.title;
      table.appendChild(title);
    }
    const el = document.createElement("div");
    el.className = "row";
    for (const zone of row.zones) el.appendChild(zoneElement(zone));
    table.appendChild(el);
  }
  // Every legal move is a button too, unless there are many (286 ways to pass three cards): then
  // only those no pointing makes (no pile to point at), and a word that the others are pointed at.
  const pointable = (m) => m.src >= 0 || m.dst >= 0;
  const buttons = view.moves.length > MAX_BUTTONS ? view.moves.filter((m) => !pointable(m)) : view.moves;
  const moves = $("moves");
  moves.replaceChildren(...buttons.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.text;
    button.title = move.help || move.name;
    button.addEventListener("click", () => play(move));
    return button;
  }));
  if (buttons.length < view.moves.length) {
    const note = document.createElement("p");
    note.className = "more";
    note.textContent = (view.moves.length - buttons.length) + " moves: point at their cards and piles";
    moves.appendChild(note);
  }
  const log = $("log");
  log.replaceChildren(...view.log.map((entry) => {
    const item = document.createElement("li");
    item.value = entry.n;
    item.textContent = (view.players > 1 && entry.seat ? "seat " + entry.seat + ": " : "") + entry.text;
    return item;
  }));
  log.scrollTop = log.scrollHeight;
  $("hint").disabled = !view.moves.length;
  $("undo").disabled = !view.can_undo;
  $("redo").disabled = !view.can_redo;
  $("save").disabled = !view.can_save;
  $("autoplaybox").hidden = view.autoplay === null;
  $("autoplay").checked = !!view.autoplay;
  if (view.forced) say(view.forced, "forced");
  mark();
}

// Highlight the sources one may pick up, the chosen one, its legal destinations, and a hint.
function mark() {
  for (const el of document.querySelectorAll(".card")) {
    const pile = Number(el.dataset.pile);
    el.classList.toggle("source", view.moves.some((m) => m.src === pile));
    el.draggable = el.classList.contains("source");
    el.classList.toggle("selected", !!selected && selected.pile.pile === pile &&
      (selected.picked ? selected.picked.has(el.dataset.code) : Number(el.dataset.index) >= selected.index));
  }
  const ready = selected ? (selected.picked ? selected.moves.filter((m) => pickedExactly(m)) : selected.moves) : [];
  const targets = new Set(ready.map((m) => m.dst));
  for (const el of document.querySelectorAll(".pile")) {
    const pile = Number(el.dataset.pile);
    el.classList.toggle("target", targets.has(pile));
    el.classList.toggle("hinted", !!hinted && (hinted.src === pile || hinted.dst === pile));
  }
}

// -- pointing -------------------------------------------------------------------------------

// The moves a click on `pile` (on its card `index`, or on the pile itself: -1) would start.
function movesFrom(pile, index) {
  const from = view.moves.filter((m) => m.src === pile.pile);
  if (index >= 0) {
    const card = pile.cards[index];
    if (card.code !== undefined) {
      const picking = from.filter((m) => m.pick && m.pick.includes(card.code));
      if (picking.length) return picking;
    }
    const run = from.filter((m) => !m.pick && m.count === pile.cards.length - index);
    if (run.length) return run;
    if (index < pile.cards.length - 1) return [];
  }
  return from.filter((m) => !m.pick || m.pick.includes("?"));
}

function clicked(pile, target) {
  if (!view || view.over) return;
  const cardEl = target.closest ? target.closest(".card") : null;
  const index = cardEl ? Number(cardEl.dataset.index) : pile.cards.length - 1;
  if (selected) {
    if (selected.pile.pile === pile.pile && selected.picked && cardEl && cardEl.dataset.code) {
      return togglePicked(cardEl.dataset.code);
    }
    if (selected.pile.pile === pile.pile) {
      if (selected.moves.length === 1 && selected.moves[0].dst < 0) return play(selected.moves[0]);
      if (selected.index === index) { selected = null; mark(); return; }
    } else {
      return toPile(pile);
    }
  }
  const moves = movesFrom(pile, index);
  if (moves.length) {
    selected = {pile, index: moves[0].pick ? index : pile.cards.length - moves[0].count, moves};
    if (picksSeveral(moves)) {
      selected.picked = new Set([pile.cards[index].code]);
      mark();
      return sayPicked();
    }
    if (moves.every((m) => m.dst < 0)) {
      if (moves.length === 1) return play(moves[0]);
      return choose(moves);
    }
    mark();
    return;
  }
  const into = view.moves.filter((m) => m.src < 0 && m.dst === pile.pile);
  if (into.length === 1) return play(into[0]);
  if (into.length > 1) return choose(into);
  // No legal move starts here: a face-up card may still be picked up, so that the server can say
  // why dropping it somewhere is not legal.
  const card = index >= 0 ? pile.cards[index] : null;
  selected = card && card.code !== undefined && view.moves.length ? {pile, index, moves: []} : null;
  mark();
  if (!selected) say(view.moves.length ? "no move of yours starts there" : "you have no move now", "refused");
}

// The chosen source dropped on `pile`: its move there, a choice of several, or (no such move)
// the text of the move asked for, which the server answers with why it is not legal.
function toPile(pile) {
  if (selected.picked) {
    const ready = selected.moves.filter((m) => m.dst === pile.pile && pickedExactly(m));
    if (!ready.length) return sayPicked();
    selected = null;
    return ready.length === 1 ? play(ready[0]) : choose(ready);
  }
  const moves = selected.moves.filter((m) => m.dst === pile.pile);
  const source = selected.pile;
  const count = source.cards.length - selected.index;
  selected = null;
  if (moves.length === 1) return play(moves[0]);
  if (moves.length > 1) return choose(moves);
  mark();
  send({type: "move", text: source.name + (count > 1 ? "x" + count : "") + ">" + pile.name, seen: view.made});
}

// -- a pick of several cards (passing three): chosen one click at a time, then a destination --

function seen(move) { return move.pick ? move.pick.filter((code) => code !== "?") : []; }

// Some move picks several cards, and every move names each card it picks.
function picksSeveral(moves) {
  return moves.some((m) => m.pick && m.pick.length > 1) &&
    moves.every((m) => m.pick && seen(m).length === m.pick.length);
}

function pickedExactly(move) {
  const codes = seen(move);
  return codes.length === selected.picked.size && codes.every((code) => selected.picked.has(code));
}

// A card of the source clicked again: out of the pick if in it, else into it where some legal
// move picks it with those already chosen.
function togglePicked(code) {
  const picked = new Set(selected.picked);
  if (picked.has(code)) picked.delete(code); else picked.add(code);
  if (!picked.size) { selected = null; say(""); mark(); return; }
  const from = view.moves.filter((m) => m.src === selected.pile.pile && m.pick);
  const moves = from.filter((m) => [...picked].every((c) => seen(m).includes(c)));
  if (!moves.length) return say("no move picks that card with those chosen", "refused");
  selected.picked = picked;
  selected.moves = moves;
  mark();
  sayPicked();
}

function sayPicked() {
  const n = selected.picked.size;
  const sizes = selected.moves.map((m) => m.pick.length);
  const ready = selected.moves.some((m) => pickedExactly(m));
  const want = Math.min(...sizes.filter((k) => k > n), Infinity);
  say(n + " card" + (n > 1 ? "s" : "") + " chosen" + (ready ? ": now where they go" : "") +
      (want < Infinity ? (ready ? ", or " : ": ") + "choose " + (want - n) + " more" : ""), "picking");
}

function choose(moves) {
  const box = $("choices");
  box.replaceChildren(...moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.text;
    button.addEventListener("click", () => { $("chooser").close(); play(move); });
    return button;
  }));
  $("chooser").showModal();
}

document.addEventListener("dragstart", (event) => {
  const el = event.target.closest ? event.target.closest(".card") : null;
  if (!el || !view) return;
  const pileData = findPile(Number(el.dataset.pile));
  if (selected && selected.picked && pileData && selected.pile.pile === pileData.pile && selected.picked.has(el.dataset.code)) {
    event.dataTransfer.setData("text/plain", "cards");  // the cards chosen, dragged together
    return;
  }
  const moves = pileData ? movesFrom(pileData, Number(el.dataset.index)) : [];
  if (!moves.length) { event.preventDefault(); return; }
  selected = {pile: pileData, index: Number(el.dataset.index), moves};
  event.dataTransfer.setData("text/plain", "card");
  mark();
});

function findPile(number) {
  for (const row of view.rows) for (const zone of row.zones) for (const pile of zone.piles) if (pile.pile === number) return pile;
  return null;
}

document.addEventListener("click", () => { if (selected) { selected = null; mark(); } });
$("hint").addEventListener("click", (e) => { e.stopPropagation(); send({type: "hint"}); });
$("undo").addEventListener("click", (e) => { e.stopPropagation(); say(""); send({type: "undo"}); });
$("redo").addEventListener("click", (e) => { e.stopPropagation(); say(""); send({type: "redo"}); });
$("save").addEventListener("click", (e) => { e.stopPropagation(); send({type: "save"}); });
$("rules").addEventListener("click", (e) => {
  e.stopPropagation();
  const panel = $("rulespanel");
  if (panel.open) { panel.open = false; return; }
  if ($("rulestext").textContent) panel.open = true;
  else send({type: "rules"});
});
$("rulespanel").addEventListener("toggle", () => {
  if ($("rulespanel").open && !$("rulestext").textContent) send({type: "rules"});
});
$("autoplay").addEventListener("change", (e) => send({type: "autoplay", on: e.target.checked}));
$("cancel").addEventListener("click", () => $("chooser").close());
connect();
