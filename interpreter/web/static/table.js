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

function tile(card) {
  const node = el("div", { class: "tile", "data-card": card.id, title: card.copies.join(", ") });
  node.append(el("div", { class: "name", text: card.name }));
  if (card.copies.length > 1) node.append(el("div", { class: "copies", text: `×${card.copies.length}` }));
  if (card.text) node.append(el("div", { class: "text", text: card.text }));
  const props = Object.entries(card.props).map(([k, v]) => `${k} ${v}`).join(" · ");
  if (props) node.append(el("div", { class: "props", text: props }));
  return node;
}

function zoneEntry(entry) {
  const tiles = [];
  if (entry.cards) {
    for (const card of entry.cards) tiles.push(tile(card));
  } else if (entry.count > 0) {
    const shown = (entry.revealed || []).reduce((n, c) => n + c.copies.length, 0);
    for (const card of entry.revealed || []) tiles.push(tile(card));
    const hidden = entry.count - shown;
    // what the backs of the hidden cards show, in a game whose cards declare backs
    const backs = Object.entries(entry.backs || {}).filter(([back]) => back).map(([back, n]) => `${n} ${back}`);
    if (hidden > 0) tiles.push(el("div", { class: "tile back",
      text: `${hidden} hidden card${hidden === 1 ? "" : "s"}` + (backs.length ? ` (backs: ${backs.join(", ")})` : "") }));
  }
  if (!tiles.length) tiles.push(el("span", { class: "empty", text: "empty" }));
  return tiles;
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
    for (const option of group.options) {
      const button = el("button", { type: "button", "data-action": option.action, text: option.label });
      if (option.label !== option.action) button.title = option.action;
      button.addEventListener("click", () => act(option.action));
      row.append(button);
    }
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
  panel(section, null);
  for (const v of view.table.views) {
    section.append(el("h2", { text: v.label }), el("pre", { class: "view", "data-view": v.id, text: v.text }));
  }
}

function renderCounters(view) {
  const section = document.getElementById("counters");
  section.replaceChildren();
  const counters = view.table.counters;
  if (!counters.length) { section.className = ""; return; }
  panel(section, "Counters");
  const table = el("table", { class: "counters" });
  const players = view.seats.length;
  const head = el("tr", {}, el("th", { text: "" }));
  head.append(el("th", { text: "table" }));
  for (let p = 0; p < players; p++) head.append(el("th", { text: seatName(p, view) }));
  table.append(head);
  for (const c of counters) {
    const row = el("tr", { "data-counter": c.name }, el("th", { text: c.label === c.name ? c.name : `${c.label}` }));
    if (c.scope === "player") {
      row.append(el("td", { text: "" }));
      c.values.forEach((v, p) => row.append(el("td", { class: p === view.seat ? "you" : "", text: v })));
    } else {
      row.append(el("td", { text: c.values[0] }));
      for (let p = 0; p < players; p++) row.append(el("td", { text: "" }));
    }
    table.append(row);
  }
  section.append(table);
}

function renderZones(view) {
  const section = document.getElementById("zones");
  section.replaceChildren();
  if (!view.table.zones.length) { section.className = ""; return; }
  panel(section, "Zones");
  for (const z of view.table.zones) {
    const zone = el("div", { class: "zone", "data-zone": z.name });
    zone.append(el("h3", { text: z.label === z.name ? z.name : `${z.label} (${z.name})` }));
    z.entries.forEach((entry, i) => {
      const owner = z.scope === "player" ? i : -1;
      const row = el("div", { class: "owner" + (owner === view.seat ? " you" : "") });
      if (z.scope === "player") row.append(el("span", { class: "who", text: seatName(owner, view) }));
      row.append(...zoneEntry(entry));
      zone.append(row);
    });
    section.append(zone);
  }
}

function renderNarration(view) {
  const list = document.getElementById("narration");
  list.replaceChildren();
  for (const move of view.narration) {
    if (move.player >= 0) list.append(el("li", { value: String(move.number), text: `${seatName(move.player, view)}: ${move.text}` }));
    for (const line of move.lines) list.append(el("li", { class: "line", text: line }));
  }
  const aside = document.getElementById("right");
  aside.scrollTop = aside.scrollHeight;
}

function renderStatus(view) {
  const status = document.getElementById("status");
  const who = view.seat >= 0 ? `You are P${view.seat + 1}` : "Spectator";
  let doing;
  if (view.error) doing = `The game stopped on an error: ${view.error}`;
  else if (view.result) doing = "The game is over.";
  else if (view.decision) doing = "Your turn.";
  else if (view.waiting_for.length)
    doing = `Waiting for ${view.waiting_for.map((p) => `P${p + 1} (${view.seats[p]})`).join(", ")}.`;
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
  renderDecision(view);
  renderResult(view);
  renderViews(view);
  renderCounters(view);
  renderZones(view);
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
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
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
    for (const b of document.querySelectorAll("#decision button")) b.disabled = false;
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
