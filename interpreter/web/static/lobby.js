// The cardrules lobby: choose a bundled ruleset, its players, options and seats, and open a table;
// the tables open, each seat's link to share, and how many pages each link has open. Text from a
// ruleset is only ever set as text (textContent), never as markup.
"use strict";

const token = location.pathname.split("/").pop();
const api = "/api/lobby/" + encodeURIComponent(token);
let lobby = null;        // the lobby's state, as last fetched

const $ = (id) => document.getElementById(id);

function element(tag, text, props) {
  const el = document.createElement(tag);
  if (text !== undefined && text !== null) el.textContent = text;
  Object.assign(el, props || {});
  return el;
}

function say(text, kind) {
  const box = $("message");
  box.replaceChildren();
  if (text) box.appendChild(element("pre", text, {className: kind || ""}));
}

async function refresh() {
  try {
    const answer = await fetch(api, {cache: "no-store"});
    if (!answer.ok) throw new Error((await answer.json()).error || answer.statusText);
    const first = lobby === null;
    lobby = await answer.json();
    $("connection").textContent = "";
    if (first) fillRulesets();
    drawTables();
  } catch (error) {
    $("connection").textContent = "the server does not answer; trying again…";
  }
}

function entry() { return lobby.rulesets.find((r) => r.name === $("ruleset").value); }

function fillRulesets() {
  $("ruleset").replaceChildren(...lobby.rulesets.map((r) => element("option", r.title + " (" + r.name + ")", {value: r.name})));
  chosen();  // the first offered, as the server lists them
}

// A ruleset chosen: its players' range, its options, a seat kind for each player.
function chosen() {
  const r = entry();
  $("description").textContent = r.description;
  const [low, high, start] = r.players;
  Object.assign($("players"), {min: low, max: high, value: start, disabled: low === high});
  const options = $("options");
  options.replaceChildren(element("legend", "Options"));
  for (const [name, spec] of Object.entries(r.options)) {
    let input;
    if (spec.values) {
      input = element("select");
      input.append(...spec.values.map((v) => element("option", String(v), {value: JSON.stringify(v)})));
      input.value = JSON.stringify(spec.default);
    } else {
      input = element("input", null, {type: "number", min: spec.min, max: spec.max, value: spec.default});
    }
    input.dataset.option = name;
    const label = element("label", name + " ");
    label.title = spec.help || "";
    label.appendChild(input);
    options.appendChild(label);
  }
  options.hidden = !Object.keys(r.options).length;
  seats();
}

function seats() {
  const count = Number($("players").value);
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(element("legend", "Seats"));
  for (let s = 0; s < count; s++) {
    const select = element("select", null, {name: "seat" + (s + 1)});
    select.append(...lobby.kinds.map((k) => element("option", k, {value: k})));
    select.value = before[s] || (s === 0 ? "human" : "greedy");
    const label = element("label", "seat " + (s + 1) + " ");
    label.appendChild(select);
    box.appendChild(label);
  }
}

function request() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.tagName === "SELECT" ? JSON.parse(input.value) : Number(input.value);
  }
  return {ruleset: $("ruleset").value, players: Number($("players").value), options,
          seats: [...$("seats").querySelectorAll("select")].map((s) => s.value)};
}

async function open(event) {
  event.preventDefault();
  $("open").disabled = true;
  say("opening…");
  try {
    const answer = await fetch(api, {method: "POST", headers: {"content-type": "application/json"},
                                     body: JSON.stringify(request())});
    const data = await answer.json();
    if (!answer.ok) return say(data.error, "error");
    say("table " + data.table.number + " is open: share its seats' links below");
    await refresh();
  } catch (error) {
    say("the server does not answer", "error");
  } finally {
    $("open").disabled = false;
  }
}

function link(path, text) {
  return element("a", text, {href: path, target: "_blank", rel: "noopener"});
}

function drawTables() {
  $("none").hidden = lobby.tables.length > 0;
  $("tables").replaceChildren(...lobby.tables.slice().reverse().map((t) => {
    const item = element("li", null, {value: t.number, className: t.over ? "over" : ""});
    item.dataset.table = t.number;
    const state = t.over ? "over" : t.to_play ? "seat " + t.to_play + " to play" : "under way";
    item.appendChild(element("strong", t.title));
    item.append(" · " + t.players + (t.players > 1 ? " players" : " player") + " · " + t.made + " moves · " + state);
    const list = element("ul", null, {className: "seatlinks"});
    for (const seat of t.seats) {
      const line = element("li", "seat " + seat.seat + ": " + seat.kind + " ");
      if (seat.link) {
        line.appendChild(link(seat.link, seat.pages ? "open (" + seat.pages + " page" + (seat.pages > 1 ? "s" : "") + ")" : "take this seat"));
        line.dataset.link = location.origin + seat.link;
      }
      list.appendChild(line);
    }
    const watch = element("li", "spectators: ");
    watch.appendChild(link(t.spectator, "watch"));
    list.appendChild(watch);
    item.appendChild(list);
    return item;
  }));
}

$("ruleset").addEventListener("change", chosen);
$("players").addEventListener("change", seats);
$("new").addEventListener("submit", open);
refresh();
setInterval(refresh, 2000);
