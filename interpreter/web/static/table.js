// The generic table of `orrery serve`: renders whatever the server sends for this seat
// (its observation only) and sends the chosen action back. Game text is only ever set
// as textContent, never parsed as HTML. The seat's secret is the page's own path.
"use strict";

const base = window.location.pathname.replace(/\/+$/, "");
let version = -1;
let busy = false;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function seatName(p, view) {
  if (p === view.seat) return `P${p + 1} (you)`;
  return `P${p + 1}`;
}

function panel(section, title) {
  section.replaceChildren();
  section.className = "panel";
  if (title) section.append(el("h2", { text: title }));
  return section;
}

function words(name) { return String(name || "").replace(/[_-]+/g, " "); }

// A colour per card type, the same on every page: the type's name hashed to a hue.
function hue(type) {
  let h = 7;
  for (const ch of String(type || "card")) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return String(h);
}

// A face-up card: name and cost on top, its type as a coloured band, its text.
function cardNode(card, clickable) {
  const node = el(clickable ? "button" : "div", { class: "card" + (clickable ? " playable" : ""),
    "data-card": card.id, "data-copies": card.copies.join(" ") });
  if (clickable) node.type = "button";
  node.style.setProperty("--hue", hue(card.type));
  const head = el("div", { class: "head" }, el("span", { class: "name", text: card.name }));
  const cost = card.cost === undefined ? "" : String(card.cost);
  if (cost && cost.length <= 4) head.append(el("span", { class: "cost", text: cost }));
  node.append(head);
  if (card.type) node.append(el("div", { class: "type", text: words(card.type) }));
  if (cost.length > 4) node.append(el("div", { class: "costline", text: `cost ${cost}` }));
  if (card.text) {
    node.append(el("div", { class: "text", text: card.text }));
    node.title = `${card.name}: ${card.text}`; // the whole text, where the card is too small for it
  }
  if (card.copies.length > 1) node.append(el("div", { class: "count", text: `×${card.copies.length}` }));
  return node;
}

const MOST_CARDS = 6; // cards drawn per zone row; the others are counted

// A zone's cards: face up as cards, face down as one back with the count (and what the backs show).
function zoneCards(entry, clickable) {
  const nodes = [];
  const shown = [];
  if (entry.cards) shown.push(...entry.cards);
  else shown.push(...(entry.revealed || []));
  for (const card of shown.slice(0, MOST_CARDS)) nodes.push(cardNode(card, clickable));
  const more = shown.slice(MOST_CARDS).reduce((n, c) => n + c.copies.length, 0);
  if (more) nodes.push(el("span", { class: "more", text: `and ${more} more` }));
  if (!entry.cards) {
    const hidden = entry.count - shown.reduce((n, c) => n + c.copies.length, 0);
    const backs = Object.entries(entry.backs || {}).filter(([back]) => back).map(([back, n]) => `${n} ${words(back)}`);
    if (hidden > 0) nodes.push(el("div", { class: "card back",
      text: `${hidden} face down` + (backs.length ? ` (${backs.join(", ")})` : "") }));
  }
  if (!nodes.length) nodes.push(el("span", { class: "empty", text: "empty" }));
  return nodes;
}

function isEmpty(entry) { return !entry || entry.count === 0; }

// Zones of one area: each with cards drawn; the empty ones named on one line.
function zoneList(area, zones, entryOf, owner, clickable) {
  const empty = [];
  for (const z of zones) {
    const entry = entryOf(z);
    if (isEmpty(entry)) empty.push(z.label);
    else area.append(zoneNode(z, entry, owner, clickable));
  }
  if (empty.length) area.append(el("p", { class: "empties", text: `Empty: ${empty.join(", ")}` }));
}

function zoneNode(z, entry, owner, clickable) {
  const node = el("div", { class: "zone", "data-zone": z.name, "data-owner": String(owner) });
  node.append(el("h3", { text: z.label }));
  node.append(el("div", { class: "cards" }, ...zoneCards(entry, clickable)));
  return node;
}

function optionsUsing(view, copies) {
  const found = [];
  for (const group of (view.decision ? view.decision.groups : []))
    for (const option of group.options)
      if ((option.cards || []).some((c) => copies.includes(c))) found.push(option);
  return found;
}

function optionButton(option) {
  const button = el("button", { type: "button", "data-action": option.action, text: option.label });
  button.addEventListener("click", () => act(option.action));
  return button;
}

function renderDecision(view) {
  const section = document.getElementById("decision");
  section.replaceChildren();
  const decision = view.decision;
  if (!decision) { section.className = ""; return; }
  panel(section, `Your decision${decision.prompt ? ": " + decision.prompt : ""}`);
  for (const group of decision.groups) {
    const row = el("div", { class: "group", "data-group": group.id });
    if (decision.groups.length > 1 || group.id !== "choice") row.append(el("h3", { text: group.title }));
    for (const option of group.options) row.append(optionButton(option));
    section.append(row);
  }
  if (view.undo) {
    // take back this seat's last decision (the server rebuilds the game without it)
    const undo = el("button", { type: "button", class: "undo", "data-action": ":undo", text: `Take back: ${view.undo}` });
    undo.addEventListener("click", () => act(":undo"));
    section.append(el("div", { class: "group undo" }, undo));
  }
  section.append(el("div", { class: "message", id: "message" }));
}

// The seat's own hidden zones (its hand) as a row of cards; clicking one offers the actions that use it.
function renderHand(view) {
  const section = document.getElementById("hand");
  section.replaceChildren();
  const mine = view.seat >= 0 ? view.table.zones.filter((z) => z.hand) : [];
  if (!mine.length) { section.className = ""; return; }
  panel(section, "Your hand");
  for (const z of mine) {
    const node = zoneNode(z, z.entries[view.seat], view.seat, true);
    for (const card of node.querySelectorAll(".card.playable")) {
      card.addEventListener("click", () => {
        const menu = document.getElementById("card-menu");
        const copies = card.dataset.copies.split(" ");
        const options = optionsUsing(view, copies);
        const name = card.querySelector(".name").textContent;
        menu.replaceChildren(el("h3", { text: options.length ? `${name}:` : `${name}: no action uses it now` }),
          ...options.map(optionButton));
        for (const other of section.querySelectorAll(".card.selected")) other.classList.remove("selected");
        card.classList.add("selected");
      });
    }
    section.append(node);
  }
  section.append(el("div", { class: "group", id: "card-menu" }));
}

function renderBoard(view) {
  const section = document.getElementById("board");
  section.replaceChildren();
  const zones = view.table.zones.filter((z) => z.board && z.scope !== "player");
  if (!zones.length) { section.className = ""; return; }
  panel(section, "Board");
  zoneList(section, zones, (z) => z.entries[0], -1, false);
}

// Every other zone, grouped by owner: the table's shared zones, then each seat's (yours first).
function renderZones(view) {
  const section = document.getElementById("zones");
  section.replaceChildren();
  section.className = "";
  const zones = view.table.zones;
  const shared = zones.filter((z) => z.scope !== "player" && !z.board);
  if (shared.length) {
    const area = el("div", { class: "panel area", "data-owner": "-1" }, el("h2", { text: "Table" }));
    zoneList(area, shared, (z) => z.entries[0], -1, false);
    section.append(area);
  }
  const order = [...view.seats.keys()].sort((a, b) => (b === view.seat) - (a === view.seat));
  for (const p of order) {
    const area = el("div", { class: "panel area" + (p === view.seat ? " you" : ""), "data-owner": String(p) },
      el("h2", { text: p === view.seat ? "Yours" : `P${p + 1}'s` }));
    zoneList(area, zones.filter((z) => z.scope === "player" && !(z.hand && p === view.seat)), (z) => z.entries[p], p, false);
    section.append(area);
  }
}

// Counters with a range are tracks (a marker per seat on the cells min..max); the others a table.
function renderCounters(view) {
  const section = document.getElementById("counters");
  section.replaceChildren();
  const counters = view.table.counters;
  if (!counters.length) { section.className = ""; return; }
  panel(section, "Counters");
  const players = view.seats.length;
  for (const c of counters.filter((c) => c.track)) {
    const track = el("div", { class: "track", "data-counter": c.name }, el("h3", { text: c.label }));
    const cells = el("div", { class: "cells" });
    for (let v = c.min; v <= c.max; v++) {
      const cell = el("div", { class: "cell" }, el("span", { class: "n", text: String(v) }));
      c.values.forEach((value, i) => {
        if (value === String(v)) cell.append(el("span", { class: "marker" + (c.scope === "player" && i === view.seat ? " you" : ""),
          text: c.scope === "player" ? `P${i + 1}` : "●" }));
      });
      cells.append(cell);
    }
    track.append(cells);
    section.append(track);
  }
  const rest = counters.filter((c) => !c.track);
  if (!rest.length) return;
  // the other counters, folded: the game's views and the standings say what matters of them
  const more = el("details", {}, el("summary", { text: `Every counter (${rest.length})` }));
  section.append(more);
  const table = el("table", { class: "counters" });
  const head = el("tr", {}, el("th", { text: "" }), el("th", { text: "table" }));
  for (let p = 0; p < players; p++) head.append(el("th", { text: seatName(p, view) }));
  table.append(head);
  for (const c of rest) {
    const row = el("tr", { "data-counter": c.name }, el("th", { text: c.label }));
    if (c.scope === "player") {
      row.append(el("td", { text: "" }));
      c.values.forEach((v, p) => row.append(el("td", { class: p === view.seat ? "you" : "", text: v })));
    } else {
      row.append(el("td", { text: c.values[0] }));
      for (let p = 0; p < players; p++) row.append(el("td", { text: "" }));
    }
    table.append(row);
  }
  more.append(table);
}

function renderResult(view) {
  const section = document.getElementById("result");
  if (!view.result) { section.hidden = true; return; }
  section.hidden = false;
  panel(section, "Game over");
  for (const line of view.result.lines) section.append(el("p", { text: line }));
}

function renderViews(view) {
  const section = document.getElementById("views");
  section.replaceChildren();
  if (!view.table.views.length) { section.className = ""; return; }
  section.className = "";
  for (const v of view.table.views) {
    const box = el("details", { class: "panel", open: "" }, el("summary", { text: v.label }));
    box.append(el("pre", { class: "view", "data-view": v.id, text: v.text }));
    section.append(box);
  }
}

// Who is to act and each seat's standing (the counters the game calls its tracks), always on screen.
function renderStandings(view) {
  const bar = document.getElementById("standings");
  bar.replaceChildren();
  const standing = view.table.counters.filter((c) => c.standing);
  view.seats.forEach((kind, p) => {
    const acting = view.waiting_for.includes(p);
    const chip = el("span", { class: "seat" + (acting ? " acting" : "") + (p === view.seat ? " you" : ""),
      "data-seat": String(p) }, el("b", { text: seatName(p, view) }));
    if (p !== view.seat && !view.humans.includes(p)) chip.append(el("span", { class: "kind", text: ` ${words(kind)}` }));
    for (const c of standing) chip.append(el("span", { text: ` · ${c.label} ${c.values[p]}` }));
    if (acting) chip.append(el("span", { class: "turn", text: " · to act" }));
    bar.append(chip);
  });
}

function renderNarration(view) {
  const list = document.getElementById("narration");
  list.replaceChildren();
  for (const move of view.narration) {
    if (move.player >= 0) list.append(el("li", { value: String(move.number), text: `${seatName(move.player, view)}: ${move.text}` }));
    for (const line of move.lines) list.append(el("li", { class: "line", text: line }));
  }
  const log = document.getElementById("log");
  log.scrollTop = log.scrollHeight;
}

function renderStatus(view) {
  const status = document.getElementById("status");
  const who = view.seat >= 0 ? `You are P${view.seat + 1}` : "Spectator";
  let doing;
  if (view.error) doing = `The game stopped on an error: ${view.error}`;
  else if (view.result) doing = "The game is over.";
  else if (view.decision) doing = "Your turn.";
  else if (view.waiting_for.length)
    doing = `Waiting for ${view.waiting_for.map((p) => `P${p + 1} (${words(view.seats[p])})`).join(", ")}.`;
  else doing = "Waiting.";
  const t = view.table;
  status.textContent = `${who} · turn ${t.turn}${t.round ? ", round " + t.round : ""} · ${doing}`;
  status.className = view.decision ? "yours" : "";
  document.title = `${view.decision ? "● " : ""}${view.game.name} — ${who}`;
}

function render(view) {
  version = view.version;
  document.getElementById("title").textContent = view.game.name;
  renderStatus(view);
  renderStandings(view);
  renderDecision(view);
  renderHand(view);
  renderResult(view);
  renderBoard(view);
  renderZones(view);
  renderCounters(view);
  renderViews(view);
  renderNarration(view);
  document.body.dataset.version = String(view.version);
  document.body.dataset.state = view.result ? "over" : view.decision ? "deciding" : "waiting";
}

// The server takes an action only as JSON (Content-Type application/json, from this
// page's own origin) carrying the version it was chosen at: a click on a table that has
// changed since is refused instead of landing on the new one.
async function act(action) {
  if (busy) return;
  busy = true;
  for (const b of document.querySelectorAll("#decision button, #hand button")) b.disabled = true;
  let answer;
  try {
    const response = await fetch(`${base}/act`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action, version }),
    });
    answer = await response.json().catch(() => ({ ok: false, message: `Refused (HTTP ${response.status}).` }));
  } catch (err) {
    answer = { ok: false, message: "Lost the server; try again." };
  } finally {
    busy = false;
  }
  if (!answer.ok) {
    const message = document.getElementById("message");
    if (message) message.textContent = answer.message;
    for (const b of document.querySelectorAll("#decision button, #hand button")) b.disabled = false;
  }
}

async function poll() {
  for (;;) {
    try {
      const response = await fetch(`${base}/state?since=${version}`, { cache: "no-store" });
      if (response.status === 404) {
        document.getElementById("status").textContent = "This table is gone (or the link is wrong).";
        return;
      }
      render(await response.json());
    } catch (err) {
      document.getElementById("status").textContent = "Lost the server; retrying…";
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

poll();
