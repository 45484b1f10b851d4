// The card table inside Discord: the Embedded App SDK's handshake with Discord's client, the player's
// authorisation (the code is traded for a token by the bot, which holds the client secret), then the table
// of the channel the Activity runs in, followed by long polls, and moves made by tapping. Every word comes
// from the bot in the player's language; the bot decides every rule and checks every request.
//
// Every field this page reads or sends is a field of the bot's API models (bot/web/api.py): the build checks
// each `name.field` below against the schema the bot serves (/activity/api/schema.json), for the names this
// line binds to models (vite.config.js; tests/test_activity_api.py checks the same without Node):
// @api view: TableOut NoTable, m: MoveOut, s: SeatOut, c: ControlOut, data: Failed, config: Config
import { DiscordSDK } from "@discord/embedded-app-sdk";
import "./style.css";

const $ = (id) => document.getElementById(id);
const state = { token: null, instance: null, view: null, version: "", picked: null, bid: 0 };

function notice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

async function call(path, { method = "GET", body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const answer = await fetch(`api/${path}`, { method, headers, body: body && JSON.stringify(body) });
  let data = {};
  try { data = await answer.json(); } catch { data = {}; }
  if (!answer.ok) {
    const error = new Error(data.error || `HTTP ${answer.status}`);
    error.status = answer.status;
    error.sentence = data.error;
    throw error;
  }
  return data;
}

// A button: `label` on it; `sentence` (the move's whole sentence), when given, its description (a screen
// reader says it after the label; a mouse shows it on hover).
function button(label, token, seq, style, sentence) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (sentence && sentence !== label) b.title = sentence;
  b.dataset.token = token;
  if (seq !== null && seq !== undefined) b.dataset.seq = String(seq);
  if (style) b.className = style;
  b.addEventListener("click", () => act(token, seq ?? null));
  return b;
}

async function act(token, seq) {
  const view = state.view;
  if (!view) return;
  document.body.dataset.busy = "1";
  try {
    const answer = await call("click", { method: "POST", body: { instance: state.instance, table: view.table, token, seq } });
    notice(answer.said || "");
    state.picked = null;
  } catch (error) {
    notice(error.sentence || error.message);
  } finally {
    delete document.body.dataset.busy;
  }
}

const isRed = (shown) => /[♥♦]/.test(shown || "");

function countDown(root, locale) {
  // Discord's timestamps (the turn's deadline) as the reader's clock and language say them.
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const el of root.querySelectorAll("time[data-t]")) {
    const at = Number(el.dataset.t) * 1000;
    if (el.dataset.style === "R") {
      const seconds = Math.round((at - Date.now()) / 1000);
      el.textContent = Math.abs(seconds) < 90 ? relative.format(seconds, "second") : relative.format(Math.round(seconds / 60), "minute");
    } else {
      el.textContent = new Date(at).toLocaleString(locale);
    }
  }
}

function pieces(view) {
  // The cards the player may tap: his hand, then any other card a move takes (a pile's top).
  const out = [];
  const seen = new Set();
  for (const { card, shown } of view.hand ? view.hand.cards : []) {
    const key = `hand|${card}`;
    if (!seen.has(key)) { seen.add(key); out.push({ key, card, shown, source: "hand" }); }
  }
  for (const m of view.moves) {
    if (!m.card && !(m.source && m.source !== "hand")) continue;
    const source = m.source || "hand";
    const key = `${source}|${m.card || ""}`;
    if (!seen.has(key)) { seen.add(key); out.push({ key, card: m.card || "?", shown: m.shown || m.card || "?", source, from: m.from }); }
  }
  return out;
}

const movesOf = (view, key) => view.moves.filter((m) => (m.card || m.source) && `${m.source || "hand"}|${m.card || ""}` === key);

function drawMine(view) {
  const mine = $("mine");
  mine.hidden = !view.hand;
  if (!view.hand) return;
  const words = view.words;
  $("hand-title").textContent = view.your_turn ? words.moves : words.hand;
  $("hand-words-title").textContent = words.hand;
  $("hand").innerHTML = view.hand.html;
  const cards = $("cards");
  cards.replaceChildren();
  for (const piece of pieces(view)) {
    const chip = document.createElement("button");
    chip.type = "button";
    const playable = movesOf(view, piece.key).length > 0;
    chip.className = `card-chip${isRed(piece.shown) ? " red" : ""}${playable ? " playable" : " idle"}${state.picked === piece.key ? " selected" : ""}`;
    chip.dataset.card = piece.card;
    chip.dataset.source = piece.source;
    chip.textContent = piece.shown || piece.card;
    if (piece.source !== "hand") {
      const from = document.createElement("span");
      from.className = "from";
      from.textContent = piece.from || piece.source;
      chip.append(from);
    }
    chip.disabled = !playable;
    chip.addEventListener("click", () => { state.picked = state.picked === piece.key ? null : piece.key; draw(); });
    cards.append(chip);
  }
  const where = $("where");
  where.replaceChildren();
  const picked = state.picked ? movesOf(view, state.picked) : [];
  where.hidden = picked.length === 0;
  if (picked.length) {
    const title = document.createElement("p");
    title.className = "small";
    title.textContent = words.where;
    where.append(title, ...picked.map((m) => button(m.short || m.label, m.token, m.seq, "primary", m.label)));
  }
  const bids = view.moves.filter((m) => m.amount !== null).sort((a, b) => a.amount - b.amount);
  const stepper = $("bid");
  stepper.hidden = bids.length === 0;
  if (bids.length) {
    state.bid = Math.max(0, Math.min(state.bid, bids.length - 1));
    const chosen = bids[state.bid];
    stepper.querySelector(".amount").textContent = String(chosen.amount);
    const go = stepper.querySelector(".go");
    go.textContent = chosen.label;
    go.dataset.token = chosen.token;
    go.onclick = () => act(chosen.token, chosen.seq);
    stepper.querySelector(".minus").onclick = () => { state.bid -= 1; draw(); };
    stepper.querySelector(".plus").onclick = () => { state.bid += 1; draw(); };
    stepper.querySelector(".minus").disabled = state.bid === 0;
    stepper.querySelector(".plus").disabled = state.bid === bids.length - 1;
  }
  const rest = view.moves.filter((m) => !m.card && !(m.source && m.source !== "hand") && m.amount === null);
  $("moves").replaceChildren(...rest.map((m) => button(m.short || m.label, m.token, m.seq, "", m.label)));
}

function draw() {
  const view = state.view;
  if (!view) return;
  document.documentElement.lang = view.locale;
  document.body.dataset.state = view.table ? view.status : "empty";
  document.body.dataset.seq = String(view.seq ?? "");
  document.body.dataset.turn = view.your_turn ? "1" : "0";
  document.body.dataset.version = view.version;
  if (!view.table) {
    $("game").textContent = "Cardtable";
    $("board").innerHTML = "";
    $("board").textContent = view.empty;
    $("mine").hidden = true;
    return;
  }
  $("game").textContent = view.game;
  if (view.phase) $("phase").innerHTML = view.phase;  // the bot's HTML, escaped there
  else $("phase").textContent = view.seated ? "" : view.words.spectator;
  const seats = view.seats.map((s) => {
    const row = document.createElement("div");
    row.className = `seat${s.to_move ? " turn" : ""}${s.you ? " you" : ""}`;
    const name = document.createElement("span");
    name.textContent = s.name + (s.you ? ` (${view.words.you})` : "");
    const chips = document.createElement("span");
    chips.textContent = s.chips !== null ? String(s.chips) : s.computer ? view.words.computer : "";
    row.append(name, chips);
    return row;
  });
  const title = document.createElement("h2");
  title.textContent = view.words.seats;
  $("seats").replaceChildren(title, ...seats);
  $("board").innerHTML = view.board;  // the bot's HTML: every stored word escaped there (bot/web/html.py)
  if (view.picture) {
    const picture = document.createElement("img");
    picture.className = "picture";
    picture.alt = "";
    picture.src = view.picture;
    $("board").prepend(picture);
  }
  countDown($("board"), view.locale);
  drawMine(view);
  $("controls").replaceChildren(...view.controls.map((c) => button(c.label, c.token, c.seq, c.style)));
  const log = $("log");
  log.innerHTML = view.log.length ? `<h2></h2>${view.log.map((l) => `<div class="log-line">${l}</div>`).join("")}` : "";
  if (view.log.length) log.querySelector("h2").textContent = view.words.log;
}

async function follow() {
  for (;;) {
    try {
      const view = await call(`table?instance=${encodeURIComponent(state.instance)}&after=${encodeURIComponent(state.version)}`);
      if (view.version !== state.version || !state.view) {
        if (state.view && state.view.table !== view.table) state.picked = null;
        if (state.view) notice("");
        state.view = view;
        state.version = view.version;
        draw();
      }
    } catch (error) {
      notice(error.sentence || error.message);
      if (error.status === 401 || error.status === 403) return;  // not for this player: nothing to retry
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function start() {
  try {
    const config = await call("config");
    const sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    });
    const { access_token } = await call("token", { method: "POST", body: { code } });
    state.token = access_token;
    await sdk.commands.authenticate({ access_token });
    state.instance = sdk.instanceId;
    document.body.dataset.state = "ready";
    await follow();
  } catch (error) {
    document.body.dataset.state = "failed";
    notice(error.sentence || error.message);
  }
}

setInterval(() => countDown(document, state.view ? state.view.locale : "en"), 1000);
start();
