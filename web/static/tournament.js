// Scorekeeper page: everything shown comes from /api/tournaments; nothing is kept in the page
// that the server does not have, so a reload or a second screen always shows the same.
"use strict";

const REFRESH_MS = 15000;
const PROJECTOR_PAGE_MS = 8000;  // a long standings list scrolls by one screen this often
// the tablet page opens a game from its id in the query string
const GAME_URL = (id) => `/?game=${encodeURIComponent(id)}`;

const TEXT = {
  en: {
    title: "Tournaments", tournaments: "Tournaments", name: "Name", players: "Players", rounds: "Rounds",
    rules: "Rules", created: "Created", none_yet: "No tournaments yet.", create: "New tournament",
    seating: "Seating", seating_planned: "Planned (fewest repeat meetings)",
    seating_swiss: "Swiss from a round on", swiss_from: "Swiss from round", seed: "Seed",
    overrides: "Rule overrides (JSON, optional)",
    player_lines: "Players, one per line: name; club; country; EMA number",
    create_button: "Create tournament", standings: "Standings", manage: "Players & penalties",
    export: "Export", tie_note: "Ties: average placement, then head-to-head, then raw points.",
    seat_next: "Seat next round", penalty: "Penalty", player: "Player", points_deducted: "Points deducted",
    reason: "Reason", add_penalty: "Add penalty", points: "Points", club: "Club", country: "Country",
    ema_id: "EMA number", add_player: "Add player (substitute)", status: "Status",
    export_standings: "Standings (CSV)", export_games: "All game results (CSV)",
    export_ema: "EMA results list (CSV)", export_json: "Everything (JSON)", projector: "Projector",
    rank: "#", total: "Total", games: "Games", places: "1st/2nd/3rd/4th", round_short: "R",
    table: "Table", finished: "finished", playing: "playing", missing: "game missing",
    open_game: "open", round: "Round", planned: "Planned seating", swiss: "Swiss",
    of: "of", tables_done: "tables finished", complete: "Tournament complete",
    not_started: "No round seated yet", all_seated: "All rounds are seated",
    next_is: "Next: round", repeats: "repeat meetings", wind_spread: "wind spread",
    active: "playing", withdrawn: "withdrawn", withdraw: "Withdraw", return: "Back in",
    cancel: "Cancel", cancelled: "cancelled", withdraw_reason: "Reason for the withdrawal?",
    cancel_reason: "Why is this penalty cancelled?", force_seat: "Seat the next round anyway?",
    count_ok: "players: tables of four", count_bad: "players: not a multiple of 4",
    updated: "updated", chombo: "chombo", penalties_short: "penalty",
    bad_overrides: "Rule overrides must be a JSON object", shared: "=",
    take_back: "Take back this round (no game has started)",
    rounds_total: "Number of rounds", change_rounds: "Change the number of rounds",
    seating_tab: "Seating", seating_of: "Seating of round", wind_E: "East", wind_S: "South",
    wind_W: "West", wind_N: "North", opponents: "Opponents", place: "Place", score: "Score",
    keep_apart: "Keep apart", apart_none: "nobody", apart_club: "players of one club",
    apart_country: "players of one country", apart_meetings: "meetings kept apart failed",
    clock_minutes: "Minutes", clock_start: "Start clock", clock_stop: "Stop clock", time_up: "Time!",
    open_game_big: "Open the game", waiting_round: "Waiting for the next round to be seated…",
    no_table: "This table is not used in this round.", game_over: "Game over – waiting for the next round…",
    table_links: "Table tablets: bookmark",
    paper: "Score sheet…", paper_save: "Save final points", games_link: "Games",
  },
  de: {
    title: "Turniere", tournaments: "Turniere", name: "Name", players: "Spieler", rounds: "Runden",
    rules: "Regeln", created: "Angelegt", none_yet: "Noch keine Turniere.", create: "Neues Turnier",
    seating: "Setzung", seating_planned: "Vorab geplant (wenig Wiederbegegnungen)",
    seating_swiss: "Schweizer System ab einer Runde", swiss_from: "Schweizer System ab Runde",
    seed: "Startwert", overrides: "Regel-Abweichungen (JSON, optional)",
    player_lines: "Spieler, einer pro Zeile: Name; Verein; Land; EMA-Nummer",
    create_button: "Turnier anlegen", standings: "Tabelle", manage: "Spieler & Strafen",
    export: "Export", tie_note: "Bei Gleichstand: durchschnittliche Platzierung, dann direkter Vergleich, dann Rohpunkte.",
    seat_next: "Nächste Runde setzen", penalty: "Strafe", player: "Spieler", points_deducted: "Punktabzug",
    reason: "Grund", add_penalty: "Strafe eintragen", points: "Punkte", club: "Verein", country: "Land",
    ema_id: "EMA-Nummer", add_player: "Spieler hinzufügen (Ersatz)", status: "Status",
    export_standings: "Tabelle (CSV)", export_games: "Alle Spielergebnisse (CSV)",
    export_ema: "EMA-Ergebnisliste (CSV)", export_json: "Alles (JSON)", projector: "Beamer",
    rank: "Pl.", total: "Summe", games: "Spiele", places: "1./2./3./4.", round_short: "R",
    table: "Tisch", finished: "fertig", playing: "läuft", missing: "Spiel fehlt",
    open_game: "öffnen", round: "Runde", planned: "Geplante Setzung", swiss: "Schweizer System",
    of: "von", tables_done: "Tische fertig", complete: "Turnier beendet",
    not_started: "Noch keine Runde gesetzt", all_seated: "Alle Runden sind gesetzt",
    next_is: "Als Nächstes: Runde", repeats: "Wiederbegegnungen", wind_spread: "Wind-Abweichung",
    active: "spielt", withdrawn: "zurückgezogen", withdraw: "Zurückziehen", return: "Wieder dabei",
    cancel: "Aufheben", cancelled: "aufgehoben", withdraw_reason: "Grund für den Rückzug?",
    cancel_reason: "Warum wird die Strafe aufgehoben?", force_seat: "Nächste Runde trotzdem setzen?",
    count_ok: "Spieler: Vierertische", count_bad: "Spieler: keine Vielfache von 4",
    updated: "aktualisiert", chombo: "Chombo", penalties_short: "Strafe",
    bad_overrides: "Regel-Abweichungen müssen ein JSON-Objekt sein", shared: "=",
    take_back: "Runde zurücknehmen (noch kein Spiel begonnen)",
    rounds_total: "Anzahl der Runden", change_rounds: "Rundenzahl ändern",
    seating_tab: "Sitzplätze", seating_of: "Sitzplätze in Runde", wind_E: "Ost", wind_S: "Süd",
    wind_W: "West", wind_N: "Nord", opponents: "Gegner", place: "Platz", score: "Ergebnis",
    keep_apart: "Getrennt setzen", apart_none: "niemanden", apart_club: "Spieler eines Vereins",
    apart_country: "Spieler eines Landes", apart_meetings: "Begegnungen trotz Trennung",
    clock_minutes: "Minuten", clock_start: "Uhr starten", clock_stop: "Uhr anhalten", time_up: "Zeit!",
    open_game_big: "Spiel öffnen", waiting_round: "Warte, bis die nächste Runde gesetzt ist…",
    no_table: "Dieser Tisch wird in dieser Runde nicht gebraucht.", game_over: "Spiel beendet – warte auf die nächste Runde…",
    table_links: "Tisch-Tablets: Lesezeichen",
    paper: "Spielzettel…", paper_save: "Endstände speichern", games_link: "Spiele",
  },
};

let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("companion.lang")
  || ((navigator.language || "en").startsWith("de") ? "de" : "en");
if (!TEXT[lang]) lang = "en";
const t = (key) => (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
const windLetter = (w) => (lang === "de" && w === "E" ? "O" : w);  // as the tablet page: Ost
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const tid = document.body.dataset.tournament;
const tableNumber = Number(document.body.dataset.table) || null;
let current = null;   // the last tournament view from the server
let seatClientId = null;
let openPlayer = null;  // the standings row whose games are shown
let lastTable = null;   // table mode: the last answer for this table
const paperOpen = new Set();    // score-sheet forms left open across refreshes
const paperValues = new Map();  // and what was typed into them
let clockEnds = null;   // when the round clock runs out, in this screen's own time (ms)

function newClientId() {
  // crypto.randomUUID needs a secure context, which a tablet on http://192.168... is not
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON: reported below */ }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

function showMessage(text, kind = "error") {
  const box = $("#message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
  if (text && kind !== "error") setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 4000);
}

// points as tournaments print them: thousands with one decimal and a sign
// (Hong Kong and classical tables start at 0 and count small tallies: those stay as they are)
let perThousand = true;
function fmt(points) {
  if (points === null || points === undefined) return "";
  const k = perThousand ? points / 1000 : points;
  const s = perThousand ? Math.abs(k).toFixed(1) : String(Math.abs(k));
  return k > 0 ? `+${s}` : k < 0 ? `\u2212${s}` : s;
}

function applyLanguage() {
  document.documentElement.lang = lang;
  for (const b of $$("[data-lang]")) b.classList.toggle("on", b.dataset.lang === lang);
  for (const node of $$("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  if (current) render(current);
  if (lastTable) renderTable(lastTable);
}

// ------------------------------------------------------------------ home: list and create

async function loadHome() {
  $("#home").hidden = false;
  const data = await api("GET", "/api/tournaments");
  const body = $("#t-list");
  body.replaceChildren();
  for (const x of data.tournaments) {
    body.append(el("tr", {},
      el("td", {}, el("a", { href: `/tournament/${encodeURIComponent(x.id)}`, text: x.name })),
      el("td", { class: "num", text: x.players }),
      el("td", { class: "num", text: `${x.rounds_seated} / ${x.rounds_total}` }),
      el("td", { text: x.preset }),
      el("td", { class: "muted", text: (x.created || "").replace("T", " ").replace("Z", "") })));
  }
  $("#t-empty").hidden = data.tournaments.length > 0;
}

function parsePlayers(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const [name, club, country, ema] = line.split(/[;\t]/).map((x) => (x || "").trim());
    const p = { name };
    if (club) p.club = club;
    if (country) p.country = country;
    if (ema) p.ema_id = ema;
    return p;
  });
}

function setupCreateForm() {
  const form = $("#create-form");
  const count = () => {
    const n = parsePlayers(form.players.value).length;
    const ok = n > 0 && n % 4 === 0;
    $("#player-count").textContent = n ? `${n} ${t(ok ? "count_ok" : "count_bad")}${ok ? ` (${n / 4})` : ""}` : "";
    $("#player-count").className = `wide ${ok ? "muted" : "warn"}`;
  };
  form.players.addEventListener("input", count);
  form.seating.addEventListener("change", () => { $(".swiss-only").hidden = form.seating.value !== "swiss"; });
  let clientId = newClientId();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      name: form.name.value, rules: form.rules.value, rounds: Number(form.rounds.value),
      seating: form.seating.value, seed: form.seed.value || 1, players: parsePlayers(form.players.value),
      client_id: clientId,
    };
    if (body.seating === "swiss") body.swiss_from = Number(form.swiss_from.value);
    if (form.keep_apart.value) body.keep_apart = form.keep_apart.value;
    if (form.overrides.value.trim()) {
      try { body.overrides = JSON.parse(form.overrides.value); } catch (_) { showMessage(t("bad_overrides")); return; }
    }
    try {
      const created = await api("POST", "/api/tournaments", body);
      clientId = newClientId();
      window.location.href = `/tournament/${encodeURIComponent(created.id)}`;
    } catch (err) {
      if (err.status && err.status < 500) clientId = newClientId();  // refused: a new attempt is a new request
      showMessage(err.message);
    }
  });
}

// ------------------------------------------------------------------ one tournament

async function refresh() {
  try {
    current = await api("GET", `/api/tournaments/${encodeURIComponent(tid)}`);
    render(current);
    $("#refreshed").textContent = `${t("updated")} ${new Date().toLocaleTimeString(lang === "de" ? "de-DE" : "en-GB")}`;
  } catch (err) {
    showMessage(err.message);
  }
}

function render(v) {
  $("#t-name").textContent = v.name;
  perThousand = (v.rules.start_points || 0) >= 1000;
  // the server's clock counts: a projector laptop's clock may be minutes off
  clockEnds = v.clock ? Date.now() + v.clock.remaining_seconds * 1000 : null;
  tickClock();
  document.title = `${v.name} – Mahjong Companion`;
  renderProgress(v);
  renderStandings(v);
  renderSeating(v);
  renderRounds(v);
  renderPlan(v);
  renderManage(v);
  for (const a of $$("[data-export]")) a.href = `/api/tournaments/${encodeURIComponent(v.id)}/${a.dataset.export}`;
}

function tickClock() {
  const box = $("#clock");
  box.hidden = clockEnds === null;
  if (clockEnds === null) return;
  const left = Math.max(0, Math.round((clockEnds - Date.now()) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const sec = String(left % 60).padStart(2, "0");
  box.textContent = left ? (h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`) : t("time_up");
  box.classList.toggle("late", left < 300);
}

function renderProgress(v) {
  const p = v.progress;
  const box = $("#progress");
  box.replaceChildren();
  if (p.complete) box.append(el("strong", { text: t("complete") }));
  else if (!p.rounds_seated) box.append(el("span", { text: t("not_started") }));
  else {
    box.append(el("strong", { text: `${t("round")} ${p.current_round} ${t("of")} ${p.rounds_total}` }),
      el("span", { class: "pill", text: `${p.tables_finished} / ${p.tables_total} ${t("tables_done")}` }));
    const bar = el("span", { class: "meter" }, el("span", { style: `width:${p.tables_total ? (100 * p.tables_finished) / p.tables_total : 0}%` }));
    box.append(bar);
  }
}

function renderStandings(v) {
  const head = $("#standings-head");
  head.replaceChildren(el("th", { class: "num", text: t("rank") }), el("th", { text: t("player") }),
    el("th", { class: "num total", text: t("total") }), el("th", { class: "num", text: t("games") }));
  for (let i = 1; i <= v.rounds_total; i++) head.append(el("th", { class: "num round-col", text: `${t("round_short")}${i}` }));
  head.append(el("th", { class: "num detail", text: t("places") }));
  const body = $("#standings-body");
  body.replaceChildren();
  for (const r of v.standings) {
    const name = el("td", { class: "name" }, el("span", { text: r.name }));
    if (r.club || r.country) name.append(el("span", { class: "sub", text: [r.club, r.country].filter(Boolean).join(" · ") }));
    if (r.withdrawn) name.append(el("span", { class: "tag", text: t("withdrawn") }));
    const notes = [];
    if (r.chombo) notes.push(`${t("chombo")} ${fmt(-r.chombo)}`);
    if (r.penalties) notes.push(`${t("penalties_short")} ${fmt(-r.penalties)}`);
    if (notes.length) name.append(el("span", { class: "sub warn", text: notes.join(" · ") }));
    const row = el("tr", { class: r.withdrawn ? "withdrawn" : "" },
      el("td", { class: `num rank${r.rank <= 3 && r.games ? " podium" : ""}`, text: `${r.rank}${r.shared ? t("shared") : ""}` }), name,
      el("td", { class: `num total ${r.total > 0 ? "plus" : r.total < 0 ? "minus" : ""}`, text: fmt(r.total) }),
      el("td", { class: "num", text: r.games }));
    for (const s of r.round_scores) row.append(el("td", { class: "num round-col", text: s === null ? "" : fmt(s) }));
    row.append(el("td", { class: "num detail", text: r.ranks.join("/") }));
    row.classList.add("clickable");
    row.addEventListener("click", () => { openPlayer = openPlayer === r.player ? null : r.player; renderStandings(v); });
    body.append(row);
    if (openPlayer === r.player && !document.body.classList.contains("projector")) {
      body.append(el("tr", { class: "player-detail" }, el("td", { colspan: 5 + v.rounds_total }, playerGames(v, r))));
    }
  }
}

// a table that played on paper: its final points from the score sheet
function paperForm(round, tb) {
  const key = `${round}-${tb.table}`;
  const form = el("form", { class: "paper", hidden: !paperOpen.has(key) });
  // typed values survive the page's refresh, which redraws the cards
  const typed = paperValues.get(key) || {};
  for (const s of tb.seats) {
    const input = el("input", { name: s.wind, type: "number", step: "100", required: true, inputmode: "numeric",
      "aria-label": `${s.wind} ${s.player_name}`, value: typed[s.wind] ?? null });
    input.addEventListener("input", () => paperValues.set(key, { ...(paperValues.get(key) || {}), [s.wind]: input.value }));
    form.append(el("label", {}, el("span", { class: "wind", text: windLetter(s.wind) }), input));
  }
  const clientId = typed.clientId || newClientId();
  paperValues.set(key, { ...typed, clientId });
  form.append(el("button", { class: "primary small", type: "submit", text: t("paper_save") }));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const points = Object.fromEntries(tb.seats.map((s) => [s.wind, Number(form[s.wind].value)]));
    try {
      await post(`/rounds/${round}/tables/${tb.table}/result`, { points, client_id: clientId }, "✓");
      paperOpen.delete(key);
      paperValues.delete(key);
    } catch (_) { /* shown by post() */ }
  });
  const toggle = el("button", { class: "ghost small", type: "button", text: t("paper"),
    onclick: () => {
      form.hidden = !form.hidden;
      if (form.hidden) paperOpen.delete(key); else paperOpen.add(key);
    } });
  return el("div", {}, toggle, form);
}

// one player's games, round by round: what a scorekeeper checks when a result is disputed
function playerGames(v, r) {
  const names = Object.fromEntries(v.players.map((p) => [p.id, p.name]));
  const list = el("table", { class: "list games-of" });
  list.append(el("tr", {}, el("th", { text: t("round") }), el("th", { text: t("table") }), el("th", { text: "" }),
    el("th", { text: t("opponents") }), el("th", { class: "num", text: t("points") }),
    el("th", { class: "num", text: t("place") }), el("th", { class: "num", text: t("score") })));
  for (const rnd of v.rounds) {
    for (const tb of rnd.tables) {
      const seat = tb.seats.find((s) => s.player === r.player);
      if (!seat) continue;
      const res = seat.result;
      const others = tb.seats.filter((s) => s !== seat).map((s) => `${windLetter(s.wind)} ${names[s.player] || s.player_name}`).join(", ");
      list.append(el("tr", {},
        el("td", { text: rnd.round }),
        el("td", {}, el("a", { href: GAME_URL(tb.game_id), target: "_blank", rel: "noopener", text: tb.table })),
        el("td", { class: "wind", text: windLetter(seat.wind) }), el("td", { class: "muted", text: others }),
        el("td", { class: "num", text: (res ? res.points : seat.points ?? "").toLocaleString(lang) }),
        el("td", { class: "num", text: res ? res.rank : t(tb.finished ? "finished" : "playing") }),
        el("td", { class: "num", text: res ? fmt(res.score) + (res.penalty ? ` (${t("chombo")} ${fmt(-res.penalty)})` : "") : "" })));
    }
  }
  return list;
}

// where everybody sits in the latest round, by name: what players look for at the start of a round
function renderSeating(v) {
  const list = $("#seating-list");
  list.replaceChildren();
  const rnd = v.rounds[v.rounds.length - 1];
  $("#seating-title").textContent = rnd ? `${t("seating_of")} ${rnd.round}` : t("not_started");
  if (!rnd) return;
  const names = Object.fromEntries(v.players.map((p) => [p.id, p.name]));
  const seats = rnd.tables.flatMap((tb) => tb.seats.map((s) => ({ name: names[s.player] || s.player_name, table: tb.table, wind: s.wind })));
  seats.sort((a, b) => a.name.localeCompare(b.name, lang, { numeric: true, sensitivity: "base" }));
  for (const s of seats) {
    list.append(el("li", {}, el("span", { class: "who", text: s.name }),
      el("span", { class: "where", text: `${t("table")} ${s.table}` }),
      el("span", { class: "wind", text: t(`wind_${s.wind}`) })));
  }
}

function renderRounds(v) {
  const box = $("#rounds");
  box.replaceChildren();
  const names = Object.fromEntries(v.players.map((p) => [p.id, p.name]));
  for (const rnd of [...v.rounds].reverse()) {
    const card = el("div", { class: "card round" },
      el("h3", {}, `${t("round")} ${rnd.round}`, rnd.mode === "swiss" ? el("span", { class: "tag", text: t("swiss") }) : "",
        el("span", { class: "pill", text: `${rnd.tables_finished} / ${rnd.tables.length} ${t("tables_done")}` })));
    const grid = el("div", { class: "tables" });
    for (const tb of rnd.tables) {
      const state = tb.missing ? "missing" : tb.finished ? "finished" : "playing";
      const seats = el("ol", { class: "seats" });
      for (const s of tb.seats) {
        const res = s.result;
        seats.append(el("li", {},
          el("span", { class: "wind", text: windLetter(s.wind) }),
          el("span", { class: "who", text: names[s.player] || s.player_name }),
          el("span", { class: "pts", text: res ? `${res.rank}. ${fmt(res.score)}` : s.points === null ? "" : s.points.toLocaleString(lang) })));
      }
      const card = el("div", { class: `table-card ${state}` },
        el("div", { class: "table-head" },
          el("strong", { text: `${t("table")} ${tb.table}` }),
          el("span", { class: `state ${state}`, text: `${t(state)}${!tb.finished && tb.round_label ? ` · ${tb.round_label}` : ""}` }),
          tb.missing ? "" : el("a", { class: "open", href: GAME_URL(tb.game_id), target: "_blank", rel: "noopener", text: t("open_game") })),
        seats);
      // a table played on paper keeps its form: a corrected sheet is entered the same way
      if ((!tb.started || tb.paper) && !tb.missing) card.append(paperForm(rnd.round, tb));
      grid.append(card);
    }
    card.append(grid);
    const last = v.rounds.length && rnd.round === v.rounds[v.rounds.length - 1].round;
    if (last && !rnd.tables.some((tb) => tb.started)) {
      card.append(el("button", { class: "ghost small", type: "button", text: t("take_back"),
        onclick: () => cancelRound(rnd.round) }));
    }
    box.append(card);
  }
  const tables = Math.max(v.players.filter((x) => x.active).length / 4, ...v.rounds.map((r) => r.tables.length), 0);
  const links = $("#table-links");
  links.replaceChildren(el("span", { class: "muted", text: `${t("table_links")}:` }),
    ...Array.from({ length: Math.floor(tables) }, (_, i) => el("a", {
      href: `/tournament/${encodeURIComponent(v.id)}/table/${i + 1}`, target: "_blank", rel: "noopener",
      text: `${t("table")} ${i + 1}` })));
  const p = v.progress;
  $("#seat").disabled = !p.next_round;
  $("#seat-info").textContent = p.next_round
    ? `${t("next_is")} ${p.next_round}${p.next_round_swiss ? ` (${t("swiss")})` : ""}`
    : t("all_seated");
  $("#seat-info").append(document.createTextNode(
    ` · ${v.meetings.repeat_meetings} ${t("repeats")}`));
}

function renderPlan(v) {
  const box = $("#plan");
  box.replaceChildren();
  const plan = v.plan;
  if (!plan || !plan.valid || !plan.rounds.length) return;
  const names = Object.fromEntries(v.players.map((p) => [p.id, p.name]));
  const card = el("div", { class: "card plan" },
    el("h3", {}, t("planned"), el("span", { class: "pill", text: `${plan.repeat_meetings} ${t("repeats")} · ${t("wind_spread")} ${plan.wind_spread}`
      + (v.seating.keep_apart ? ` · ${plan.kept_apart_meetings} ${t("apart_meetings")}` : "") })));
  for (const rnd of plan.rounds) {
    const grid = el("div", { class: "tables compact" });
    for (const tb of rnd.tables) {
      grid.append(el("div", { class: "table-card" }, el("strong", { text: `${t("table")} ${tb.table}` }),
        el("ol", { class: "seats" }, tb.seats.map((pid, i) => el("li", {},
          el("span", { class: "wind", text: windLetter("ESWN"[i]) }), el("span", { class: "who", text: names[pid] || pid }))))));
    }
    card.append(el("h4", { text: `${t("round")} ${rnd.round}` }), grid);
  }
  box.append(card);
}

function renderManage(v) {
  const select = $("#penalty-form").player;
  const chosen = select.value;
  select.replaceChildren(...v.players.map((p) => el("option", { value: p.id, text: `${p.name} (${p.id})` })));
  if (chosen) select.value = chosen;
  const roundsInput = $("#rounds-form").rounds;
  if (document.activeElement !== roundsInput) roundsInput.value = v.rounds_total;
  roundsInput.min = Math.max(1, v.rounds.length);
  const names = Object.fromEntries(v.players.map((p) => [p.id, p.name]));
  const pens = $("#penalties");
  pens.replaceChildren();
  for (const pen of v.penalties) {
    pens.append(el("tr", { class: pen.cancelled ? "cancelled" : "" },
      el("td", { class: "num", text: pen.seq }), el("td", { text: names[pen.player] || pen.player }),
      el("td", { class: "num", text: fmt(-pen.points) }),
      el("td", { text: pen.cancelled ? `${pen.reason} (${t("cancelled")}: ${pen.cancel_reason})` : pen.reason }),
      el("td", {}, pen.cancelled ? "" : el("button", { class: "ghost small", type: "button", text: t("cancel"),
        onclick: () => cancelPenalty(pen.seq) }))));
  }
  const players = $("#players");
  players.replaceChildren();
  for (const p of v.players) {
    players.append(el("tr", { class: p.active ? "" : "withdrawn" },
      el("td", { class: "muted", text: p.id }), el("td", { text: p.name }), el("td", { text: p.club || "" }),
      el("td", { text: p.country || "" }),
      el("td", { text: p.active ? t("active") : `${t("withdrawn")}${p.withdraw_reason ? `: ${p.withdraw_reason}` : ""}` }),
      el("td", {}, el("button", { class: "ghost small", type: "button", text: p.active ? t("withdraw") : t("return"),
        onclick: () => toggleWithdraw(p) }))));
  }
}

async function post(path, body, okText) {
  try {
    const data = await api("POST", `/api/tournaments/${encodeURIComponent(tid)}${path}`, body);
    if (data.tournament) { current = data.tournament; render(current); }
    if (okText) showMessage(okText, "ok");
    return data;
  } catch (err) {
    showMessage(err.message);
    throw err;
  }
}

async function seatNext() {
  // one client id per intended round: a retry after a lost answer must not seat twice
  seatClientId = seatClientId || newClientId();
  const button = $("#seat");
  button.disabled = true;
  try {
    await seatWith(false);
  } finally {
    button.disabled = !(current && current.progress.next_round);
  }
}

async function seatWith(force) {
  try {
    const data = await api("POST", `/api/tournaments/${encodeURIComponent(tid)}/rounds`,
      { client_id: seatClientId, force });
    seatClientId = null;
    current = data.tournament;
    render(current);
    showMessage(`${t("round")} ${data.round.round} ✓`, "ok");
  } catch (err) {
    if (err.status === 409 && !force && /still being played/.test(err.message) && !/Swiss/.test(err.message)) {
      if (window.confirm(`${err.message}\n\n${t("force_seat")}`)) return seatWith(true);
    } else if (err.status && err.status < 500) {
      seatClientId = null;
    }
    showMessage(err.message);
  }
}

async function cancelRound(n) {
  const reason = window.prompt(`${t("round")} ${n} \u2013 ${t("reason")}:`);
  if (!reason) return;
  await post(`/rounds/${n}/cancel`, { reason, client_id: newClientId() }).catch(() => {});
}

async function cancelPenalty(seq) {
  const reason = window.prompt(t("cancel_reason"));
  if (!reason) return;
  await post("/penalties", { cancel: seq, reason, client_id: newClientId() }).catch(() => {});
}

async function toggleWithdraw(p) {
  const reason = p.active ? window.prompt(t("withdraw_reason")) : "";
  if (reason === null) return;
  const path = `/players/${encodeURIComponent(p.id)}/${p.active ? "withdraw" : "return"}`;
  await post(path, { reason, client_id: newClientId() }).catch(() => {});
}

function setupTournament() {
  $("#tournament").hidden = false;
  $("#projector").hidden = false;
  for (const b of $$(".tabs button")) {
    b.addEventListener("click", () => {
      for (const x of $$(".tabs button")) x.classList.toggle("active", x === b);
      for (const panel of $$("[data-panel]")) panel.hidden = panel.dataset.panel !== b.dataset.tab;
    });
  }
  $("#seat").addEventListener("click", seatNext);
  $("#projector").addEventListener("click", () => {
    document.body.classList.toggle("projector");
    const tab = $(".tabs button.active");
    if (document.body.classList.contains("projector") && !["standings", "seating"].includes(tab && tab.dataset.tab)) {
      $(".tabs button[data-tab=standings]").click();
    }
  });
  const projector = new URLSearchParams(location.search).get("projector");
  if (projector !== null) {
    document.body.classList.add("projector");
    if (projector === "seating") $(".tabs button[data-tab=seating]").click();
  }
  // on the projector nobody scrolls: page through a long list, then start again at the top
  setInterval(() => {
    if (!document.body.classList.contains("projector")) return;
    const atEnd = window.innerHeight + window.scrollY >= document.body.scrollHeight - 4;
    window.scrollTo({ top: atEnd ? 0 : window.scrollY + window.innerHeight * 0.8, behavior: "smooth" });
  }, PROJECTOR_PAGE_MS);
  const penaltyForm = $("#penalty-form");
  let penaltyId = newClientId();
  penaltyForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await post("/penalties", { player: penaltyForm.player.value, points: Number(penaltyForm.points.value),
        reason: penaltyForm.reason.value, client_id: penaltyId }, "✓");
      penaltyId = newClientId();
      penaltyForm.reason.value = "";
    } catch (err) { if (err.status && err.status < 500) penaltyId = newClientId(); }
  });
  const clockForm = $("#clock-form");
  clockForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await post("/clock", { minutes: Number(clockForm.minutes.value), client_id: newClientId() }).catch(() => {});
  });
  $("#clock-stop").addEventListener("click", () => post("/clock", { minutes: 0, client_id: newClientId() }).catch(() => {}));
  setInterval(tickClock, 1000);
  const roundsForm = $("#rounds-form");
  roundsForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await post("/settings", { rounds: Number(roundsForm.rounds.value), reason: roundsForm.reason.value,
      client_id: newClientId() }, "✓").catch(() => {});
    roundsForm.reason.value = "";
  });
  const playerForm = $("#player-form");
  let playerId = newClientId();
  playerForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { client_id: playerId };
    for (const k of ["name", "club", "country", "ema_id"]) if (playerForm[k].value.trim()) body[k] = playerForm[k].value;
    try {
      await post("/players", body, "✓");
      playerId = newClientId();
      playerForm.reset();
    } catch (err) { if (err.status && err.status < 500) playerId = newClientId(); }
  });
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

for (const b of $$("[data-lang]")) {
  b.addEventListener("click", () => {
    lang = b.dataset.lang;  // the same setting as the tablet page's
    localStorage.setItem("companion.lang", lang);
    applyLanguage();
  });
}

// ------------------------------------------------------------------ a table's tablet

async function refreshTable() {
  try {
    const data = await api("GET", `/api/tournaments/${encodeURIComponent(tid)}/tables/${tableNumber}`);
    lastTable = data;
    renderTable(data);
    // a new game for this table: go there (the tablet page takes over until the game ends)
    if (data.game_id && !data.finished && !data.missing && sessionStorage.getItem("companion.table.opened") !== data.game_id) {
      // once per game: coming back from the game page must not bounce straight into it again
      sessionStorage.setItem("companion.table.opened", data.game_id);
      window.location.href = GAME_URL(data.game_id);
    }
  } catch (err) {
    showMessage(err.message);
  }
}

function renderTable(d) {
  $("#t-name").textContent = d.name;
  $("#tm-title").textContent = `${t("table")} ${d.table}${d.round ? ` · ${t("round")} ${d.round} ${t("of")} ${d.rounds_total}` : ""}`;
  const status = !d.round ? t("waiting_round") : !d.game_id ? t("no_table") : d.finished ? t("game_over") : "";
  $("#tm-status").textContent = status;
  $("#tm-seats").replaceChildren(...d.seats.map((s) => el("li", {},
    el("span", { class: "wind", text: t(`wind_${s.wind}`) }), el("span", { class: "who", text: s.name }))));
  const open = $("#tm-open");
  open.hidden = !d.game_id;
  if (d.game_id) open.href = GAME_URL(d.game_id);
}

function setupTableMode() {
  $("#table-mode").hidden = false;
  refreshTable();
  setInterval(() => { if (!document.hidden) refreshTable(); }, 10000);
}

applyLanguage();
if (tid && tableNumber) setupTableMode();
else if (tid) setupTournament();
else { setupCreateForm(); loadHome().catch((err) => showMessage(err.message)); }
