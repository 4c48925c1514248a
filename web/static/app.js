// The tablet page. It talks to the JSON API only; the server folds the event log and does every sum.
"use strict";
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const POSITIONS = ["bottom", "right", "top", "left"]; // seat order counter-clockwise, East first

  // ---------------------------------------------------------------- language
  const params = new URLSearchParams(location.search);
  let lang = params.get("lang") || localStorage.getItem("companion.lang") || (navigator.language || "en").slice(0, 2);
  if (!window.I18N[lang]) lang = "en";
  localStorage.setItem("companion.lang", lang);
  const phrase = (key) => (window.I18N[lang] && window.I18N[lang][key]) || window.I18N.en[key] || null;
  const t = (key) => phrase(key) || key;
  const fmt = (n) => (typeof n === "number" ? n.toLocaleString(lang === "de" ? "de-DE" : "en-US").replace("-", "\u2212") : String(n));
  const signed = (n) => (n === 0 ? "\u00b10" : (n > 0 ? "+" : "\u2212") + fmt(Math.abs(n)));
  const windLetter = (w) => ({ en: { E: "E", S: "S", W: "W", N: "N" }, de: { E: "O", S: "S", W: "W", N: "N" } }[lang][w] || w);
  const roundName = (st) => {
    const w = { E: "east_round", S: "south_round", W: "west_round", N: "north_round" }[st.round_wind] || "east_round";
    return `${t(w)} ${String(st.round).slice(1)}`;
  };

  function applyLanguage() {
    document.documentElement.lang = lang;
    $$("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    $$("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
    $$("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
    $$("[data-i18n-label]").forEach((el) => { el.label = t(el.dataset.i18nLabel); });
    $$("[data-lang]").forEach((b) => b.classList.toggle("on", b.dataset.lang === lang));
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-lang]");
    if (!b) return;
    lang = b.dataset.lang;
    localStorage.setItem("companion.lang", lang);
    applyLanguage();
    route();
  });

  // ---------------------------------------------------------------- API
  class ApiError extends Error {
    constructor(message, status, data) { super(message); this.status = status; this.data = data || {}; }
  }
  async function api(method, path, body, { form } = {}) {
    const opts = { method, headers: {} };
    if (form) opts.body = form;
    else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
    let res;
    try { res = await fetch(path, opts); } catch (err) { throw new ApiError(t("offline"), 0, { code: "offline" }); }
    let data = null;
    try { data = await res.json(); } catch (err) { data = null; }
    // the scorer's commonest refusals in the page's language; other messages name a tile or a key and come as sent
    const said = data && data.code && lang !== "en" && window.I18N[lang] && window.I18N[lang][`error_${data.code}`];
    if (!res.ok) throw new ApiError(said || (data && data.error) || `HTTP ${res.status}`, res.status, data);
    return data;
  }
  // ids need not be secret, only unique per entry; crypto.randomUUID is missing outside secure contexts
  const newClientId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}-${Math.random().toString(36).slice(2, 10)}`;

  let state = null; // the current game as GET /api/games/<id> returns it
  // riichi | hongkong | classical | oldjapanese: the win entry and the table differ per family
  const family = () => (state && (state.family || (state.rules || {}).family)) || "riichi";
  let busy = false;

  async function postEvent(event) {
    if (busy) return null;
    busy = true;
    const body = { ...event, client_id: newClientId(), expected_seq: state.next_seq };
    try {
      // a lost answer is retried with the same client_id: the server applies it at most once
      for (let attempt = 0; ; attempt++) {
        try {
          const st = await api("POST", `/api/games/${state.id}/events`, body);
          setState(st);
          return st;
        } catch (err) {
          if (err.status === 0 && attempt < 2) { await new Promise((r) => setTimeout(r, 600 * (attempt + 1))); continue; }
          if (err.status === 409) {
            if (err.data.state) setState(err.data.state); else await loadGame(state.id);
            toast(t("conflict"), true);
            return null;
          }
          throw err;
        }
      }
    } finally { busy = false; }
  }

  function toast(message, bad = false) {
    const el = $("#toast");
    el.textContent = message;
    el.classList.toggle("bad", bad);
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.hidden = true; }, bad ? 5000 : 2200);
  }

  // ---------------------------------------------------------------- routing
  // /?game=<id> (the tournament page's links to each table) opens that game
  if (params.get("game") && !location.hash) history.replaceState(null, "", `${location.pathname}?lang=${lang}#/game/${encodeURIComponent(params.get("game"))}`);

  function route() {
    const m = location.hash.match(/^#\/game\/([\w-]+)/);
    closeDialog();
    if (m) loadGame(m[1]).catch((err) => { toast(err.message, true); location.hash = ""; });
    else showList();
  }
  window.addEventListener("hashchange", route);

  // ---------------------------------------------------------------- game list + new game
  async function showList() {
    $("#view-table").hidden = true;
    $("#view-list").hidden = false;
    state = null;
    const ul = $("#game-list");
    let games = [];
    try { games = (await api("GET", "/api/games")).games; } catch (err) { toast(err.message, true); }
    ul.replaceChildren();
    if (!games.length) ul.append(el("li", { class: "empty" }, t("no_games")));
    for (const g of games) {
      const li = el("li", {},
        el("div", { class: "who" }, g.players.join(" \u00b7 "),
          el("div", { class: "meta" }, `${g.preset} \u00b7 ${new Date(g.updated || g.created).toLocaleString(lang)} \u00b7 ${g.finished ? t("finished") : t("running")}`)),
        el("a", { class: "secondary", href: `/api/games/${g.id}/export`, download: `mahjong-game-${g.id}.json` }, t("export")),
        el("button", { class: "primary", type: "button", onclick: () => { location.hash = `#/game/${g.id}`; } }, t("open")));
      ul.append(li);
    }
    showKept();
  }

  // what the page has kept of the club's tiles for `companion train --finetune` (GET /api/kept)
  async function showKept() {
    let kept;
    try { kept = await api("GET", "/api/kept"); } catch (err) { return; } // (the games list says what is wrong)
    const fill = (key, n) => t(key).replace("{c}", fmt(n.corrections)).replace("{p}", fmt(n.photos));
    const card = $("#kept");
    card.hidden = !kept.command && !kept.adapted;
    // the tiles corrected most often (the recogniser's weak spots with this club's set) and the photos' size
    const most = Object.entries(kept.by_tile).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5);
    const size = kept.photos ? ` (${fmt(Math.round(kept.photo_bytes / 1e5) / 10)} MB)` : "";
    $("#kept-counts").textContent = fill("kept_counts", kept).replace("{size}", size)
      + (most.length ? ` ${t("kept_most")} ${most.map(([tile, n]) => `${tile} \u00d7${fmt(n)}`).join(", ")}.` : "");
    const adapted = $("#kept-adapted");
    adapted.hidden = !kept.adapted;
    if (kept.adapted) {
      const when = new Date(kept.adapted.when).toLocaleString(lang);
      adapted.textContent = `${fill("kept_adapted", kept.adapted).replace("{when}", when)} ${fill("kept_since", kept.since)}`;
    }
    // how well the recogniser read the club's tiles at first, before the player corrected any (photos that keep
    // their first reading): over all of them, or before and since the last adaptation where photos came since
    const firstText = (first, when) => (first.photos ? t("kept_first").replace("{when}", when ? t(when) : "")
      .replace("{pct}", (first.right / Math.max(first.tiles, 1)).toLocaleString(lang === "de" ? "de-DE" : "en-US",
        { style: "percent", maximumFractionDigits: 1 }))
      .replace("{n}", fmt(first.photos)).replace("{whole}", fmt(first.whole)).replace("{silent}", fmt(first.silent)) : "");
    const minus = (a, b) => Object.fromEntries(Object.keys(a).map((key) => [key, a[key] - b[key]]));
    const first = $("#kept-first");
    first.textContent = kept.adapted && kept.since.first_read.photos
      ? [firstText(minus(kept.first_read, kept.since.first_read), "kept_first_before"),
        firstText(kept.since.first_read, "kept_first_since")].filter(Boolean).join(" ")
      : firstText(kept.first_read, "");
    first.hidden = !first.textContent;
    $("#kept-export").hidden = !kept.corrections && !kept.photos; // (GET /api/kept/export: photos, labels, crops)
    // the command only where there is something it has not been taught yet
    const fresh = kept.adapted ? kept.since.corrections + kept.since.photos : kept.corrections + kept.photos;
    $("#kept-teach").hidden = !kept.command || !fresh;
    $("#kept-command").textContent = kept.command || "";
  }

  $("#new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    const err = $(".form-error", f);
    err.hidden = true;
    const players = [0, 1, 2, 3].map((i) => f[`p${i}`].value.trim());
    if (new Set(players).size !== 4) { err.textContent = t("names_differ"); err.hidden = false; return; }
    // only what the organiser changed goes to the server; everything else stays the preset's
    const overrides = {};
    for (const input of $$("[data-override]", f)) {
      if (input.closest("[data-families]").hidden) continue; // a rule the chosen family does not have
      const kind = input.dataset.override;
      if (kind === "bool") { if (input.checked) overrides[input.name] = true; continue; }
      const value = input.value.trim();
      if (!value) continue;
      overrides[input.name] = kind === "number" ? Number(value) : kind === "list" ? value.split(",").map((x) => Number(x.trim())) : value;
    }
    if (overrides.agari_yame) overrides.tenpai_yame = true;
    // house rules for valuing hands go to the family's engine as scoring options
    const scoring = {};
    for (const input of $$("[data-scoring]", f)) {
      if (input.closest("[data-families]").hidden || !input.value.trim()) continue;
      const kind = input.dataset.scoring, value = input.value.trim();
      scoring[input.name] = kind === "bool" ? value === "true" : kind === "number" ? Number(value) : kind === "json" ? JSON.parse(value) : value;
    }
    if (Object.keys(scoring).length) overrides.scoring = scoring;
    try {
      const st = await api("POST", "/api/games", { rules: f.rules.value, overrides, players });
      location.hash = `#/game/${st.id}`;
    } catch (ex) { err.textContent = ex.message; err.hidden = false; }
  });

  // the house-rule fields that exist in the chosen family (companion.table.rules per family)
  function showOverridesFor() {
    const opt = $("#preset").selectedOptions[0];
    const fam = (opt && (opt.dataset.family || opt.parentElement.dataset.family)) || "riichi";
    $$("#new-game [data-families]").forEach((lab) => { lab.hidden = !lab.dataset.families.split(" ").includes(fam); });
  }
  $("#preset").addEventListener("change", showOverridesFor);
  showOverridesFor();

  $("#import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      const st = await api("POST", "/api/games/import", data);
      location.hash = `#/game/${st.id}`;
    } catch (ex) { toast(ex.message, true); }
    e.target.value = "";
  });

  // ---------------------------------------------------------------- the table
  async function loadGame(id) {
    const st = await api("GET", `/api/games/${id}`);
    $("#view-list").hidden = true;
    $("#view-table").hidden = false;
    setState(st);
  }

  function lastActive(st) {
    const h = (st.history || []).filter((x) => !x.undone && x.type !== "undo");
    return h.length ? h[h.length - 1] : null;
  }

  function setState(st) {
    state = st;
    renderTable();
    if (st.finished) showEnd();
  }

  function renderTable() {
    const st = state;
    if (!st) return;
    const last = lastActive(st);
    const ranks = {};
    (st.placements || []).forEach((p) => { ranks[p.player] = p.rank; });
    st.players.forEach((name, i) => {
      const seat = $(`.seat[data-pos=${POSITIONS[i]}]`);
      const score = st.scores[name];
      const delta = last && last.deltas ? last.deltas[name] : 0;
      const inRiichi = (st.riichi_declared || []).includes(name);
      const isDealer = st.dealer === name;
      const plate = el("div", { class: `plate${isDealer ? " dealer" : ""}${score > 0 && ranks[name] === 1 ? " rank-1" : ""}` },
        el("div", { class: "wind", title: t(`wind_${st.seat_winds[name]}`) }, windLetter(st.seat_winds[name])),
        el("div", { class: "name" }, name, isDealer ? el("span", { class: "tag" }, t("dealer")) : null),
        (st.rules || {}).riichi === false ? el("span") : el("button", {
          type: "button", class: `riichi-btn${inRiichi ? " on" : ""}`, "data-player": name,
          disabled: st.finished || inRiichi ? "" : null,
          onclick: () => declareRiichi(name),
        }, inRiichi ? t("in_riichi") : t("riichi")),
        el("div", { class: `score${score < 0 ? " neg" : ""}`, "data-score": name }, el("span", { class: "points" }, fmt(score)),
          delta ? el("span", { class: `delta ${delta > 0 ? "up" : "down"}` }, signed(delta)) : null));
      seat.replaceChildren(plate);
    });
    $("#round-label").replaceChildren(document.createTextNode(roundName(st)),
      ...(st.extra_round ? [el("small", {}, t("extra_round"))] : []));
    $("#honba-count b").textContent = `${st.honba}`;
    $("#honba-count").title = t("honba");
    $("#stick-count b").textContent = `${st.riichi_sticks}`;
    // families without riichi have no sticks; without counters no honba (old Japanese shows its 0-value ones)
    $("#stick-count").hidden = (st.rules || {}).riichi === false;
    $("#honba-count").hidden = (st.rules || {}).honba === false;
    $('[data-action="draw"]').dataset.i18n = family() === "riichi" ? "draw" : "draw_plain";
    $("#stick-count").title = t("sticks");
    $("#yame-banner").hidden = !st.yame_available || st.finished;
    $$(".actions .action").forEach((b) => {
      const a = b.dataset.action;
      b.disabled = st.finished && !["undo", "history", "more"].includes(a);
    });
    applyLanguage();
  }

  async function declareRiichi(name) {
    try { await postEvent({ type: "riichi", player: name }); } catch (err) { toast(err.message, true); }
  }

  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (!b || !state) return;
    const actions = { win: winDialog, draw: drawDialog, chombo: chomboDialog, more: moreDialog, undo: undoDialog,
      history: historyDialog, end: endDialog };
    if (actions[b.dataset.action]) actions[b.dataset.action]();
  });
  $("#to-list").addEventListener("click", () => { location.hash = ""; });

  // ---------------------------------------------------------------- dialogs
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c.nodeType ? c : document.createTextNode(String(c)));
    return node;
  }

  function openDialog(title, body, foot = []) {
    $("#dialog-title").textContent = title;
    $("#dialog-body").replaceChildren(body);
    $("#dialog-foot").replaceChildren(...foot);
    $("#dialog").hidden = false;
    $("#toast").hidden = true;
  }
  // (the photo sheet a win entry opened goes with it, its camera stopped: the browser's back button, say)
  function closeDialog() {
    $("#dialog").hidden = true; $("#dialog-body").replaceChildren();
    if (window.CompanionPhoto) window.CompanionPhoto.close();
  }
  $("#dialog").addEventListener("click", (e) => { if (e.target.id === "dialog" || e.target.closest("[data-close]")) closeDialog(); });

  // a row of big toggle buttons; multi lets several be on
  function choices(items, { multi = false, selected = [], onchange, disabled = () => false, small = false } = {}) {
    const chosen = new Set(selected);
    const box = el("div", { class: "choices" });
    const paint = () => $$("button", box).forEach((b) => {
      b.classList.toggle("on", chosen.has(b.value));
      b.setAttribute("aria-pressed", chosen.has(b.value) ? "true" : "false");
      b.disabled = disabled(b.value) && !chosen.has(b.value);
    });
    for (const it of items) {
      const b = el("button", { type: "button", class: `choice${small ? " small" : ""}`, "data-value": it.value }, it.label,
        it.sub ? el("span", { class: "sub" }, it.sub) : null);
      b.value = it.value;
      b.addEventListener("click", () => {
        if (chosen.has(it.value)) chosen.delete(it.value);
        else { if (!multi) chosen.clear(); chosen.add(it.value); }
        paint();
        if (onchange) onchange([...chosen]);
      });
      box.append(b);
    }
    box.repaint = paint;
    paint();
    return box;
  }
  const playerItems = () => state.players.map((p) => ({ value: p, label: p, sub: t(`wind_${state.seat_winds[p]}`) }));
  const step = (title, ...content) => el("div", { class: "step" }, el("h3", {}, title), ...content);

  function previewGrid(deltas) {
    return el("div", { class: "preview" }, state.players.map((p) => {
      const v = deltas[p] || 0;
      return el("div", { class: "cell" }, el("div", { class: "n" }, p),
        el("div", { class: `v ${v > 0 ? "up" : v < 0 ? "down" : ""}` }, signed(v)),
        el("div", { class: "n" }, fmt(state.scores[p] + v)));
    }));
  }

  // Shows the payments of the event built so far and enables Confirm once the server accepts it.
  function eventForm({ title, build, body }) {
    const out = el("div", { class: "preview-box", "aria-live": "polite" }, el("p", {}, t("fill_in")));
    const confirm = el("button", { type: "button", class: "primary", disabled: "", "data-confirm": "" }, t("confirm"));
    let current = null;
    let token = 0;
    async function refresh() {
      const ev = build();
      current = null;
      confirm.disabled = true;
      if (!ev) { out.replaceChildren(el("p", {}, t("fill_in"))); return; }
      const mine = ++token;
      out.replaceChildren(el("p", {}, t("preview_wait")));
      try {
        const res = await api("POST", `/api/games/${state.id}/preview`, ev);
        if (mine !== token) return;
        current = ev;
        confirm.disabled = false;
        out.replaceChildren(previewGrid(res.deltas), detailLine(res.detail, res.after) || "");
      } catch (err) {
        if (mine !== token) return;
        out.replaceChildren(el("p", { class: "error" }, err.message));
      }
    }
    confirm.addEventListener("click", async () => {
      if (!current) return;
      confirm.disabled = true;
      try {
        await postEvent(current);
        // a finishing event has already put the end screen in the dialog
        if (state && !state.finished) { closeDialog(); toast(t("saved")); }
      } catch (err) { out.replaceChildren(el("p", { class: "error" }, err.message)); confirm.disabled = false; }
    });
    // the payments sit in the footer, so they stay in view however long the entry gets
    openDialog(title, el("div", {}, body),
      [out, el("button", { type: "button", class: "secondary", "data-close": "" }, t("cancel")), confirm]);
    return refresh;
  }

  function detailLine(detail, after) {
    // what comes next, so a wrong renchan or a game end is seen before confirming
    let next = "";
    if (after) {
      next = after.finished ? t("game_over")
        : `\u2192 ${roundName({ round: after.round, round_wind: after.round[0] })} \u00b7 ${t("dealer")}: ${after.dealer}${after.honba ? ` \u00b7 ${after.honba} ${t("honba")}` : ""}`;
    }
    if (!detail || !detail.winners) return next ? el("p", { class: "grow" }, next) : null;
    return el("p", { class: "grow" }, [detail.winners.map((w) => {
      const parts = [w.player];
      if (w.yakuman) parts.push(`${w.yakuman > 1 ? `${w.yakuman}\u00d7 ` : ""}${t("yakuman")}`);
      else if (w.han) parts.push(`${w.han} ${t("han")}${w.han < 5 && w.fu ? ` ${w.fu} ${t("fu")}` : ""}`);
      if (w.fan !== undefined) parts.push(`${w.fan} ${t("fan")}`);
      if (w.value !== undefined) parts.push(`${fmt(w.points)} ${t("points")} \u00b7 ${w.doubles} ${t("doubles")} \u2192 ${fmt(w.value)}`);
      if (w.values_by_seat) parts.push(`${t("hand_values")}: ${Object.entries(w.values_by_seat).map(([k, x]) => `${windLetter(k)} ${fmt(x)}`).join(", ")}`);
      if (w.limit && !w.yakuman) parts.push(t(`limit_${w.limit}`)); // a yakuman is named above
      if (w.gain) parts.push(fmt(w.gain));
      return parts.join(" \u00b7 ");
    }).join("   |   "), next].filter(Boolean).join("   "));
  }

  // ---------------------------------------------------------------- win
  const HAN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const FU = [20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110];

  function winDialog() {
    const w = { tsumo: null, winners: [], discarder: null, values: {}, pao: null };
    const body = el("div");
    const blocks = el("div");
    let refresh = () => {};
    const redraw = () => { renderBlocks(); refresh(); };

    const tsumoRon = choices([{ value: "tsumo", label: t("tsumo") }, { value: "ron", label: t("ron") }], {
      onchange: ([v]) => {
        w.tsumo = v === undefined ? null : v === "tsumo";
        if (w.tsumo && w.winners.length > 1) w.winners = w.winners.slice(0, 1);
        if (w.tsumo) w.discarder = null;
        rebuildPlayers();
        redraw();
      },
    });
    const winnerBox = el("div", { "data-step": "winner" });
    const discarderBox = el("div", { "data-step": "discarder" });
    function rebuildPlayers() {
      winnerBox.replaceChildren(choices(playerItems(), {
        multi: w.tsumo === false, selected: w.winners,
        disabled: (p) => p === w.discarder,
        onchange: (v) => { w.winners = v; rebuildPlayers(); redraw(); },
      }));
      discarderBox.hidden = w.tsumo !== false;
      discarderBox.replaceChildren(el("h3", {}, t("pick_discarder")), choices(playerItems(), {
        selected: w.discarder ? [w.discarder] : [],
        disabled: (p) => w.winners.includes(p),
        onchange: ([v]) => { w.discarder = v || null; rebuildPlayers(); redraw(); },
      }));
    }

    function renderBlocks() {
      blocks.replaceChildren(...w.winners.map((p) => winnerBlock(p)));
    }
    function winnerBlock(p) {
      const fam = family();
      const v = w.values[p] || (w.values[p] = { mode: fam === "riichi" ? "hanfu" : "hand" });
      const box = el("div", { class: "winner-block", "data-winner": p });
      const inner = el("div");
      // han/fu is Riichi's count; the other families are entered by tiles (typed or from a photo) or by what changes
      // hands
      const modes = fam === "riichi"
        ? [["hanfu", t("han_fu")], ["points", t("points")], ["hand", t("hand_tiles")], ["photo", t("photo")]]
        : [["hand", t("hand_tiles")], ["photo", t("photo")], ["direct", fam === "classical" ? t("hand_values") : t("payments")]];
      const tabs = choices(modes.map(([value, label]) => ({ value, label })), {
        selected: [v.mode], onchange: ([m]) => {
          if (!m) { tabs.repaint(); return; }
          if (m === "photo") { tabs.querySelector('[data-value="photo"]').classList.remove("on"); openPhoto(p); return; }
          v.mode = m; paint(); refresh();
        },
      });
      tabs.classList.add("tabs");
      function paint() {
        $$("button", tabs).forEach((b) => b.classList.toggle("on", b.value === v.mode));
        const entry = fam !== "riichi" ? (v.mode === "direct" ? directEntry(p, v) : familyHandEntry(p, v))
          : v.mode === "hanfu" ? hanFuEntry(p, v) : v.mode === "points" ? pointsEntry(p, v) : handEntry(p, v);
        inner.replaceChildren(entry);
      }
      paint();
      box.append(el("h4", {}, `${p} \u2013 ${t("how_scored")}`), tabs, inner);
      return box;
    }
    function hanFuEntry(p, v) {
      const fuBox = el("div");
      const paintFu = () => {
        fuBox.hidden = !v.han || v.han >= 5 || v.yakuman;
        fuBox.replaceChildren(el("h3", {}, t("fu")), choices(FU.map((f) => ({ value: String(f), label: String(f) })), {
          small: true, selected: v.fu ? [String(v.fu)] : [],
          onchange: ([f]) => { v.fu = f ? Number(f) : null; refresh(); },
        }));
      };
      const hanItems = HAN.map((h) => ({ value: String(h), label: String(h) }))
        .concat([{ value: "y1", label: t("yakuman") }, { value: "y2", label: `2\u00d7 ${t("yakuman")}` }]);
      const hanBox = choices(hanItems, {
        small: true, selected: v.yakuman ? [`y${v.yakuman}`] : v.han ? [String(v.han)] : [],
        onchange: ([h]) => {
          v.han = null; v.yakuman = null;
          if (h && h.startsWith("y")) v.yakuman = Number(h.slice(1));
          else if (h) v.han = Number(h);
          paintFu(); refresh();
        },
      });
      paintFu();
      hanBox.dataset.step = "han";
      fuBox.dataset.step = "fu";
      return el("div", {}, el("h3", {}, t("han")), hanBox, fuBox);
    }
    function pointsEntry(p, v) {
      const dealerWins = state.dealer === p;
      const input = (key, label) => {
        const i = el("input", { type: "number", min: "0", step: "100", inputmode: "numeric", value: v[key] || "" });
        i.addEventListener("input", () => { v[key] = i.value ? Number(i.value) : null; refresh(); });
        return el("label", { class: "field" }, label, i);
      };
      if (w.tsumo && !dealerWins) {
        return el("div", {}, el("p", {}, t("points_tsumo_hint")), input("dealerPays", t("from_dealer")), input("othersPay", t("from_others")));
      }
      return el("div", {}, input("points", w.tsumo ? `${t("points")} (${t("each")})` : t("points_ron_hint")));
    }
    function handEntry(p, v) {
      const inRiichi = (state.riichi_declared || []).includes(p);
      if (v.riichi === undefined) v.riichi = inRiichi;
      const text = (key, label, size) => {
        const i = el("input", { value: v[key] || "", size: String(size), autocapitalize: "off", spellcheck: "false" });
        i.addEventListener("input", () => { v[key] = i.value.trim(); v.scored = null; refresh(); });
        return el("label", { class: "field" }, label, i);
      };
      const flag = (key, label) => {
        const c = el("input", { type: "checkbox" });
        c.checked = !!v[key];
        c.addEventListener("change", () => { v[key] = c.checked; refresh(); });
        return el("label", { class: "check" }, c, label);
      };
      return el("div", {}, text("hand", t("tiles"), 22), text("melds", t("melds"), 18),
        el("br"), text("dora", t("dora_ind"), 8), text("ura", t("ura_ind"), 8), el("br"),
        flag("riichi", t("riichi")), flag("ippatsu", t("ippatsu")), flag("double_riichi", t("double_riichi")));
    }

    const textField = (v, key, label, size, attrs = {}) => {
      const i = el("input", { value: v[key] || "", size: String(size), autocapitalize: "off", spellcheck: "false", "data-field": key, ...attrs });
      i.addEventListener("input", () => { v[key] = i.value.trim(); refresh(); });
      return el("label", { class: "field" }, label, i);
    };
    const flagField = (v, key, label) => {
      const c = el("input", { type: "checkbox", "data-flag": key });
      c.checked = !!v[key];
      c.addEventListener("change", () => { v[key] = c.checked; refresh(); });
      return el("label", { class: "check" }, c, label);
    };
    // the situations each family's book scores; "last tile" is haitei when drawn, houtei when called
    const FAMILY_FLAGS = {
      hongkong: ["last_tile", "rinshan", "chankan"],
      classical: ["last_tile", "rinshan", "chankan"],
      oldjapanese: ["riichi", "double_riichi", "last_tile"],
    };
    // a replacement tile is drawn, a robbed kong is called; seed 004 forbids claiming the last discard
    const flagApplies = (f) => !(f === "rinshan" && !w.tsumo) && !(f === "chankan" && w.tsumo)
      && !(f === "last_tile" && !w.tsumo && family() === "hongkong");
    function familyHandEntry(p, v) {
      const fam = family();
      if (fam === "oldjapanese" && v.riichi === undefined) v.riichi = (state.riichi_declared || []).includes(p);
      const rows = [textField(v, "hand", t("tiles"), 22), textField(v, "melds", t("melds"), 18), el("br"),
        textField(v, "flowers", t("flowers"), 8, { placeholder: "1f3f" })];
      if (fam === "oldjapanese") rows.push(textField(v, "dora", t("dora_ind"), 8));
      rows.push(el("br"), ...FAMILY_FLAGS[fam].filter(flagApplies).map((f) => flagField(v, f, t(`flag_${f}`))));
      if (fam === "classical") {
        // seed 002 scores every hand; the losers' hands make the full settlement
        v.others = v.others || {};
        const others = state.players.filter((q) => q !== p).map((q) => {
          const o = v.others[q] || (v.others[q] = {});
          return el("div", { class: "other-hand", "data-other": q }, el("h4", {}, `${q} (${t(`wind_${state.seat_winds[q]}`)})`),
            textField(o, "hand", t("tiles_losing"), 18), textField(o, "melds", t("melds"), 14), textField(o, "flowers", t("flowers"), 6));
        });
        rows.push(el("h3", {}, t("others_hands")), el("p", { class: "hint" }, t("others_hint")), ...others);
      }
      return el("div", {}, ...rows);
    }
    // Hong Kong / old Japanese: what each player pays; classical: the four hand values for the settlement
    function directEntry(p, v) {
      const fam = family();
      v.amounts = v.amounts || {};
      const who = fam === "classical" ? state.players : state.players.filter((q) => q !== p);
      const boxes = {};
      const inputs = who.map((q) => {
        const i = el("input", { type: "number", min: "0", step: "1", inputmode: "numeric", value: v.amounts[q] ?? "", "data-amount": q });
        i.addEventListener("input", () => { v.amounts[q] = i.value === "" ? null : Number(i.value); refresh(); });
        boxes[q] = i;
        return el("label", { class: "field" }, `${q} (${t(`wind_${state.seat_winds[q]}`)})`, i);
      });
      const parts = [el("p", {}, t(fam === "classical" ? "values_hint" : "pays_hint")), ...inputs];
      if (fam === "hongkong") {
        // a counted fan fills the payments of the common table (seed 004: full doubling 2^fan,
        // unit 1, the discarder pays all, on a self-draw each pays half); any figure can be edited
        const fanBox = choices([0, 1, 2, 3, 4, 5, 6, 7, 8].map((f) => ({ value: String(f), label: String(f) })), {
          small: true, selected: v.fan !== undefined && v.fan !== null ? [String(v.fan)] : [],
          onchange: ([f]) => {
            v.fan = f === undefined ? null : Number(f);
            if (v.fan === null) return;
            const full = 2 ** v.fan;
            who.forEach((q) => {
              const pay = w.tsumo ? full / 2 : q === w.discarder ? full : 0;
              v.amounts[q] = pay;
              boxes[q].value = String(pay);
            });
            refresh();
          },
        });
        fanBox.dataset.step = "fan";
        parts.unshift(el("h3", {}, t("fan_fills")), fanBox);
      }
      return el("div", {}, ...parts);
    }
    function familyEntry(p, v) {
      const seat = (q) => state.seat_winds[q];
      if (v.mode === "direct") {
        const a = v.amounts || {};
        if (family() === "classical") {
          if (state.players.some((q) => a[q] === null || a[q] === undefined)) return null;
          const vbs = {};
          state.players.forEach((q) => { vbs[seat(q)] = a[q]; });
          return { player: p, values_by_seat: vbs };
        }
        const pbs = { E: 0, S: 0, W: 0, N: 0 };
        let total = 0;
        state.players.filter((q) => q !== p).forEach((q) => { pbs[seat(q)] = -(a[q] || 0); total += a[q] || 0; });
        if (!total) return null;
        pbs[seat(p)] = total;
        return { player: p, payments_by_seat: pbs };
      }
      const req = handRequest(v, { family: true });
      if (!req) return null;
      req.rules = state.preset;
      if (v.flowers) req.flowers = v.flowers.replace(/\s+/g, "");
      if (v.last_tile && flagApplies("last_tile")) req[w.tsumo ? "haitei" : "houtei"] = true;
      for (const f of ["rinshan", "chankan"]) if (v[f] && flagApplies(f)) req[f] = true;
      if (family() === "classical" && v.others) {
        const hands = state.players.filter((q) => q !== p).map((q) => [q, v.others[q] || {}]);
        // all three or none: a partial table cannot be settled
        if (hands.every(([, o]) => o.hand)) {
          req.others = {};
          for (const [q, o] of hands) {
            const r = handRequest(o, { family: true }) || { hand: o.hand };
            delete r.win_tile;
            if (o.flowers) r.flowers = o.flowers.replace(/\s+/g, "");
            req.others[seat(q)] = r;
          }
        } else if (hands.some(([, o]) => o.hand)) return null;
      }
      return { player: p, request: req };
    }

    function entryFor(p) {
      const v = w.values[p] || {};
      if (family() !== "riichi") return familyEntry(p, v);
      if (v.mode === "hanfu") {
        if (v.yakuman) return { player: p, yakuman: v.yakuman };
        if (!v.han) return null;
        if (v.han >= 5) return { player: p, han: v.han };
        return v.fu ? { player: p, han: v.han, fu: v.fu } : null;
      }
      if (v.mode === "points") {
        if (w.tsumo && state.dealer !== p) return v.dealerPays && v.othersPay ? { player: p, points: { dealer: v.dealerPays, non_dealer: v.othersPay } } : null;
        return v.points ? { player: p, points: v.points } : null;
      }
      const req = handRequest(v);
      return req ? { player: p, request: req } : null;
    }
    function build() {
      if (w.tsumo === null || !w.winners.length) return null;
      if (!w.tsumo && !w.discarder) return null;
      const winners = w.winners.map(entryFor);
      if (winners.some((x) => !x)) return null;
      const ev = { type: "win", winners, discarder: w.tsumo ? null : w.discarder };
      if (w.pao && (state.rules || {}).pao !== false && w.winners.length === 1 && w.pao !== w.winners[0]) ev.pao = { player: w.winners[0], liable: w.pao };
      return ev;
    }

    const paoBox = el("details", {}, el("summary", {}, t("pao")), choices(playerItems(), {
      onchange: ([v]) => { w.pao = v || null; refresh(); },
    }));
    paoBox.hidden = (state.rules || {}).pao === false;
    rebuildPlayers();
    body.append(step(t("pick_tsumo_ron"), tsumoRon), step(t("pick_winner"), winnerBox), el("div", { class: "step" }, discarderBox), blocks, paoBox);
    refresh = eventForm({ title: t("win"), build, body });
    winDialog.current = { w, redraw, refresh: () => refresh() };
  }

  // "123m456p 789s" (the winning tile last) + melds "555z 6789s a1111m" -> a scoring request (riichi flags only
  // for riichi)
  function handRequest(v, { family: fam = false } = {}) {
    if (!v.hand) return null;
    const hand = v.hand.replace(/\s+/g, "");
    const m = hand.match(/(\d)([mpsz])$/);
    if (!m) return null;
    const req = { hand, win_tile: `${m[1]}${m[2]}` };
    if (v.melds) {
      req.melds = v.melds.split(/[\s,;]+/).filter(Boolean).map((tok) => {
        const closed = /^a/i.test(tok);
        const tiles = tok.replace(/^a/i, "");
        const digits = tiles.replace(/[mpsz]/g, "");
        const type = closed ? "ankan" : digits.length === 4 ? "minkan" : new Set(digits).size === 1 ? "pon" : "chi";
        return { type, tiles };
      });
    }
    if (v.dora) req.dora_indicators = v.dora.replace(/\s+/g, "");
    if (fam) {
      // old Japanese has riichi and dora but no ura; the other families have neither
      if (v.riichi) req.riichi = true;
      if (v.double_riichi) { req.double_riichi = true; delete req.riichi; }
      return req;
    }
    if (v.ura) req.ura_indicators = v.ura.replace(/\s+/g, "");
    for (const f of ["riichi", "ippatsu", "double_riichi"]) if (v[f]) req[f] = true;
    if (req.double_riichi) delete req.riichi;
    return req;
  }

  // ---------------------------------------------------------------- draw, chombo, more
  function drawDialog() {
    if ((state.rules || {}).tenpai_payment === 0 && family() !== "riichi") {
      // no tenpai payments in these families: a draw only moves (or keeps) the deal
      const r = eventForm({ title: t("draw_plain"), build: () => ({ type: "draw" }), body: el("p", {}, t("draw_hint")) });
      r();
      return;
    }
    let tenpai = [];
    const body = step(t("tenpai_who"), choices(playerItems(), {
      multi: true, selected: [...(state.riichi_declared || [])],
      onchange: (v) => { tenpai = v; refresh(); },
    }));
    tenpai = [...(state.riichi_declared || [])];
    const refresh = eventForm({ title: t("draw"), build: () => ({ type: "draw", tenpai }), body });
    refresh();
  }

  function chomboDialog() {
    let who = null;
    let each = null;
    const body = step(t("chombo_who"), choices(playerItems(), { onchange: ([v]) => { who = v || null; refresh(); } }));
    // seed 002 names no fixed penalty: the classical table says what the offender pays each player
    const classical = family() === "classical";
    if (classical) {
      const i = el("input", { type: "number", min: "1", step: "1", inputmode: "numeric", "data-field": "penalty" });
      i.addEventListener("input", () => { each = i.value ? Number(i.value) : null; refresh(); });
      body.append(el("label", { class: "field" }, t("penalty_each"), i));
    }
    const build = () => {
      if (!who) return null;
      if (!classical) return { type: "chombo", player: who };
      if (!each) return null;
      const pbs = { E: each, S: each, W: each, N: each };
      pbs[state.seat_winds[who]] = -3 * each;
      return { type: "chombo", player: who, payments_by_seat: pbs };
    };
    const refresh = eventForm({ title: t("chombo"), build, body });
  }

  function nagashiDialog() {
    let who = [];
    const body = step(t("nagashi_who"), choices(playerItems(), { multi: true, onchange: (v) => { who = v; refresh(); } }));
    const refresh = eventForm({ title: t("nagashi"), build: () => (who.length ? { type: "nagashi", players: who } : null), body });
  }

  // only the abortive draws this game's rules have (EMA 2016 has none)
  function allowedAbortive() {
    const all = ["kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou"];
    const allowed = (state.rules || {}).abortive_draws;
    return Array.isArray(allowed) ? all.filter((k) => allowed.includes(k)) : all;
  }

  function abortiveDialog() {
    let kind = null;
    const kinds = allowedAbortive();
    const body = step(t("abortive_kind"), choices(kinds.map((k) => ({ value: k, label: t(k) })), {
      onchange: ([v]) => { kind = v || null; refresh(); },
    }));
    const refresh = eventForm({ title: t("abortive"), build: () => (kind ? { type: "abortive", kind } : null), body });
  }

  function correctionDialog() {
    const deltas = {};
    let reason = "";
    // changes that do not add up to zero make or destroy points: allowed (a penalty taken out of play), but said
    // as the player types, so that one mistyped field does not pass unseen
    const sum = el("p", { class: "error", "data-sum": "", hidden: "" });
    const inputs = state.players.map((p) => {
      const i = el("input", { type: "number", step: "100", inputmode: "numeric", "data-player": p });
      i.addEventListener("input", () => {
        deltas[p] = i.value ? Number(i.value) : 0;
        const total = Object.values(deltas).reduce((a, b) => a + b, 0);
        sum.hidden = !total;
        sum.textContent = `${t("correction_sum")} ${signed(total)}`;
        refresh();
      });
      return el("label", { class: "field" }, p, i);
    });
    const r = el("input", { size: "40" });
    r.addEventListener("input", () => { reason = r.value.trim(); refresh(); });
    const body = el("div", {}, el("p", {}, t("correction_hint")), el("div", {}, inputs), sum,
      el("label", { class: "field" }, t("reason"), r));
    const build = () => {
      const d = {};
      state.players.forEach((p) => { d[p] = deltas[p] || 0; });
      return reason && Object.values(d).some((x) => x) ? { type: "correction", deltas: d, reason } : null;
    };
    const refresh = eventForm({ title: t("correction"), build, body });
  }

  function endDialog() {
    const refresh = eventForm({ title: t("end_game"), build: () => ({ type: "end" }), body: el("p", {}, t("end_game")) });
    refresh();
  }

  function moreDialog() {
    const item = (label, fn, disabled = false) => el("button", { type: "button", class: "choice", disabled: disabled ? "" : null, onclick: fn }, label);
    const done = state.finished;
    openDialog(t("more"), el("div", { class: "choices" },
      item(t("abortive"), abortiveDialog, done || !allowedAbortive().length),
      item(t("nagashi"), nagashiDialog, done || (state.rules || {}).nagashi_mangan === false),
      item(t("correction"), correctionDialog), item(t("end_game"), endDialog, done),
      el("a", { class: "choice secondary", href: `/api/games/${state.id}/export`, download: `mahjong-game-${state.id}.json` }, t("export"))),
    [el("button", { type: "button", class: "secondary", "data-close": "" }, t("close"))]);
  }

  function describe(entry) {
    const ev = entry.event || {};
    let s = t(`ev_${entry.type}`);
    if (entry.type === "win") {
      const names = (ev.winners || []).map((x) => x.player).join(" + ");
      s = `${ev.discarder ? t("ron") : t("tsumo")}: ${names}${ev.discarder ? ` \u2190 ${ev.discarder}` : ""}`;
    } else if (entry.type === "riichi" || entry.type === "chombo") s += `: ${ev.player}`;
    else if (entry.type === "draw") s += ` \u00b7 ${t("tenpai")}: ${(ev.tenpai || []).join(", ") || "\u2013"}`;
    else if (entry.type === "nagashi") s += `: ${(ev.players || []).join(", ")}`;
    else if (entry.type === "abortive") s += `: ${t(ev.kind)}`;
    else if (entry.type === "correction") s += `: ${ev.reason || ""}`;
    else if (entry.type === "undo") s = `${t("undo_of")}${entry.target_seq}`;
    return s;
  }

  function undoDialog() {
    const last = lastActive(state);
    if (!last) { toast(t("nothing_to_undo")); return; }
    const body = el("div", {}, el("p", { style: "font-size:1.3rem" }, `#${last.seq} \u00b7 ${last.round} \u00b7 ${describe(last)}`));
    const refresh = eventForm({ title: t("undo_what"), build: () => ({ type: "undo", target_seq: last.seq }), body });
    refresh();
  }

  // one row per hand with its point changes; the entries that made it up are listed under it
  function historyTable() {
    const players = state.players;
    const bySeq = {};
    (state.history || []).forEach((h) => { bySeq[h.seq] = h; });
    const deltaCells = (deltas) => players.map((p) => {
      const v = deltas ? deltas[p] || 0 : 0;
      return el("td", { class: v > 0 ? "up" : v < 0 ? "down" : "" }, v ? signed(v) : "");
    });
    const rows = [];
    const shown = new Set();
    (state.hands || []).forEach((hand) => {
      const entries = hand.events.map((seq) => bySeq[seq]).filter(Boolean);
      const main = entries.filter((e) => e.type !== "riichi").map(describe).join(" · ")
        || (hand.result ? t(`ev_${hand.result}`) : "…");
      rows.push(el("tr", { class: "hand-row" }, el("td", { class: "l" }, `${hand.round}${hand.honba ? `-${hand.honba}` : ""}`),
        el("td", { class: "l" }, main), deltaCells(hand.deltas)));
      entries.forEach((e) => shown.add(e.seq));
    });
    // undone entries and the undos themselves stay visible, struck through or marked
    const others = (state.history || []).filter((h) => !shown.has(h.seq));
    const log = (state.history || []).map((h) => el("tr", { class: h.undone ? "undone" : "" },
      el("td", { class: "l" }, `#${h.seq} ${h.round}`), el("td", { class: "l" }, describe(h), h.undone ? ` (${t("undone")})` : ""),
      deltaCells(h.deltas)));
    if (!rows.length && !others.length) return el("p", {}, t("no_history"));
    const head = (first) => el("thead", {}, el("tr", {}, el("th", {}, first), el("th", { class: "l" }, t("result")), players.map((p) => el("th", {}, p))));
    return el("div", {},
      el("table", { class: "grid hands" }, head(t("round")), el("tbody", {}, rows),
        el("tfoot", {}, el("tr", {}, el("td", {}, ""), el("td", { class: "l" }, t("total")), players.map((p) => el("td", {}, fmt(state.scores[p])))))),
      el("details", { class: "log" }, el("summary", {}, `${t("every_entry")} (${(state.history || []).length})`),
        el("table", { class: "grid" }, head("#"), el("tbody", {}, log))));
  }

  function historyDialog() {
    openDialog(t("history"), historyTable(), [el("button", { type: "button", class: "secondary", "data-close": "" }, t("close"))]);
  }

  function showEnd() {
    // a reason this page has no words for (a newer server) is left out rather than shown as a key
    const reason = state.end_reason ? phrase(`reason_${state.end_reason}`) : null;
    // families without uma (Hong Kong, classical, old Japanese) or without oka show no such column
    const rules = state.rules || {};
    const showUma = (rules.uma || []).some((x) => x);
    const showOka = !!rules.oka;
    const rows = (state.placements || []).map((p) => el("tr", { class: `rank${p.rank}` },
      el("td", { class: "big" }, `${p.rank}.`), el("td", { class: "l big" }, p.player),
      el("td", {}, fmt(p.points)), showUma ? el("td", {}, signed(p.uma)) : null, showOka ? el("td", {}, p.oka ? signed(p.oka) : "") : null,
      el("td", {}, p.penalty ? `\u2212${fmt(p.penalty)}` : ""), el("td", { class: "big" }, signed(p.score))));
    const table = el("table", { class: "grid final" },
      el("thead", {}, el("tr", {}, el("th", {}, t("rank")), el("th", {}, ""), el("th", {}, t("final_points")), showUma ? el("th", {}, t("uma")) : null,
        showOka ? el("th", {}, t("oka")) : null, el("th", {}, t("penalty")), el("th", {}, t("score")))),
      el("tbody", {}, rows));
    const again = el("button", { type: "button", class: "secondary", onclick: async () => {
      try {
        // same preset and house rules: the export carries the overrides the game was created with
        const { game } = await api("GET", `/api/games/${state.id}/export`);
        const st = await api("POST", "/api/games", { rules: game.preset, overrides: game.overrides || {}, players: game.players });
        location.hash = `#/game/${st.id}`;
      } catch (err) { toast(err.message, true); }
    } }, t("new_game_same"));
    // a table seated by the tournament page goes back to its waiting page for the next round
    const fromTournament = document.referrer.includes("/tournament/");
    const back = fromTournament
      ? el("button", { type: "button", class: "secondary", onclick: () => history.back() }, t("tournament"))
      : el("button", { type: "button", class: "secondary", onclick: () => { location.hash = ""; } }, t("back_to_games"));
    openDialog(t("game_over"), el("div", { class: "end-screen" }, el("p", {}, reason ? `${t("end_reason")}: ${reason}` : t("end_reason")), table,
      el("details", {}, el("summary", {}, t("show_history")), historyTable())),
    [back, again,
      el("button", { type: "button", class: "primary", "data-close": "" }, t("close"))]);
  }

  // ---------------------------------------------------------------- photo hand-off (photo.js)
  // the indicators each family's requests take: Riichi dora and ura, the old Japanese book dora, the others none
  const INDICATORS = { riichi: ["dora_indicators", "ura_indicators"], oldjapanese: ["dora_indicators"] };
  function openPhoto(player) {
    if (!window.CompanionPhoto) return;
    const indicators = INDICATORS[family()] || [];
    const entry = () => (winDialog.current ? winDialog.current.w : {});
    window.CompanionPhoto.open({ player, indicators, redFives: () => state.red_fives, tsumo: () => Boolean(entry().tsumo),
      discarder: () => (entry().discarder ? state.seat_winds[entry().discarder] : null), onTiles: (tiles) => {
      const cur = winDialog.current;
      if (!cur) return;
      const v = cur.w.values[player] || (cur.w.values[player] = {});
      Object.assign(v, { mode: "hand" }, tiles);
      cur.redraw();
    } });
  }

  // a second tablet at the same table (or the scorekeeper's) sees changes within a few seconds;
  // never while an entry is open, so nothing changes under the player's finger
  setInterval(async () => {
    if (!state || document.hidden || busy || !$("#dialog").hidden || $("#photo-overlay")) return;
    try {
      const st = await api("GET", `/api/games/${state.id}`);
      if (state && st.id === state.id && st.next_seq !== state.next_seq) setState(st);
    } catch (err) { /* offline for a moment: the next entry says so */ }
  }, 4000);

  window.Companion = { t, api, el, fmt, toast, get state() { return state; } };
  applyLanguage();
  route();
})();
