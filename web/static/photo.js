// "Score by photo": photo -> /api/recognize -> boxes over the photo -> tap to correct (saved via
// /api/corrections for fine-tuning) -> /api/score -> the tiles go into the win entry, whose preview
// and Confirm apply the hand to the table.
"use strict";
(() => {
  const C = window.Companion;
  const { t, el } = C;
  const SUITS = ["m", "p", "s"];
  const PALETTE = [...SUITS.flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => `${n}z`), "0m", "0p", "0s", ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}f`), "x"];
  const isBonus = (code) => /f$/.test(code); // a flower or season (1f-8f): set apart from the hand, no picture
  // a flower or season as most sets print it: its name (plum, orchid, chrysanthemum, bamboo; spring, summer, autumn,
  // winter) and its number, which is the seat it belongs to; named in the page's language for the finger that taps it
  const BONUS_NAMES = "梅蘭菊竹春夏秋冬";
  const bonusFace = (code) => {
    const n = Number(code[0]);
    const name = t(`bonus_${n}`);
    return el("span", { class: "bonus", title: name, "aria-label": name },
      el("b", {}, BONUS_NAMES[n - 1]), el("small", {}, String(((n - 1) % 4) + 1)));
  };
  const tileFace = (code) => (isBonus(code) ? bonusFace(code) : el("img", { src: `/static/tiles/${code}.png`, alt: code }));

  // split "123m55z" into ["1m","2m","3m","5z","5z"]
  function splitTiles(text) {
    const out = [];
    let digits = "";
    for (const ch of (text || "").replace(/\s+/g, "")) {
      if (/[0-9]/.test(ch)) digits += ch;
      else if (/[mpszf]/.test(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
      else if (ch === "x") out.push("x");
    }
    return out;
  }
  // ["2m","3m","4m","5p"] -> "234m5p" (compact mpsz, order kept)
  function joinTiles(tiles) {
    let out = "";
    tiles.forEach((code, i) => {
      if (code === "x") { out += "x"; return; }
      const next = tiles[i + 1];
      out += code[0];
      if (!next || next === "x" || next[1] !== code[1]) out += code[1];
    });
    return out;
  }

  // the red fives (a 0 digit in mpsz, and nothing else) of a request's tiles written as plain fives, in place;
  // how many tiles there were (the winning tile is one of the hand's; companion.rules.plain_fives)
  function plainFives(req) {
    let changed = 0;
    const plain = (value, count = true) => {
      if (typeof value !== "string") return Array.isArray(value) ? value.map((v) => plain(v, count)) : value;
      if (count) changed += (value.match(/0/g) || []).length;
      return value.replace(/0/g, "5");
    };
    for (const key of ["hand", "win_tile", "dora_indicators", "ura_indicators"]) if (key in req) req[key] = plain(req[key], key !== "win_tile");
    (req.melds || []).forEach((meld) => { meld.tiles = plain(meld.tiles); });
    return changed;
  }

  // why the photo gave no hand, in the page's language: the recogniser's reasons (companion/vision/layout.py,
  // build_request) by their wording; any other is shown as it comes
  function noHandText(reason) {
    let m;
    if (/winning tile is not set apart/.test(reason)) return t("no_hand_win_apart");
    if (/chosen as the winning tile is not one of the concealed/.test(reason)) return t("no_hand_win_not_concealed");
    // (after the photo's own troubles, which the status line says in the player's language before it)
    if (/(?:^|; )group \d+ of the hand row/.test(reason)) return t("no_hand_meld");
    if ((m = /(?:^|; )(\d+) tiles found in the hand/.exec(reason))) return t("no_hand_count").replace("{n}", m[1]);
    return t("no_hand_other").replace("{reason}", reason);
  }

  let overlay = null;

  // player: the winner; tsumo(): whether the win entry says self-drawn (a closed hand's tsumo is a yaku of its own);
  // discarder(): the seat wind of the player the entry says discarded the winning tile (null: none named; the Hong
  // Kong and old Japanese scorers need it for a win on a discard);
  // onTiles: takes the tiles over into the win entry; indicators: the request's indicator keys the table's rules know
  // (Riichi both, the old Japanese book dora only, Hong Kong and classical none: no dora photo is asked for there, and
  // indicators read above the hand are not sent)
  // redFives(): how many red fives the table's rules count (the game state's "red_fives"; 0: EMA, WRC, Hong Kong,
  // classical, the old Japanese book; null: not known), where a red five read in the photo is scored as the plain
  // five it then is
  function open({ player, tsumo = () => false, discarder = () => null, onTiles,
    indicators = ["dora_indicators", "ura_indicators"], redFives = () => null }) {
    close();
    let file = null;
    let photosSent = 0; // photos sent to be read so far (recognise): only the last one's answer is shown
    let result = null;
    let fixes = {}; // tile index -> corrected code
    let restore = []; // boxes of "not_tiles" the player put back as tiles
    let add = []; // boxes the player added where a tile was missed (a tap on the photo beside the boxes)
    let drop = []; // boxes of "tiles" the player took out as no tile
    let turn = []; // boxes of "tiles" (as read before) the player says lie the other way (sideways, upright)
    let doraFixes = {}; // dora photo tile index -> corrected code
    let win = null; // index of the tile the player says won (a hand laid down as one block sets none apart)
    // the photo's tiles as the recogniser read them first, before any correction, and those it marked for a check:
    // kept with the checked photo, so that the games list tells how well it reads the club's set (GET /api/kept)
    let firstRead = null;
    let stream = null;

    const status = el("p", { class: "grow" }, t("take_photo"));
    // how to take the photo, until one is chosen: from above, still, close, the layout the request is read from
    const picture = el("div", { class: "photo-wrap" }, el("p", { class: "hint", "data-photo-tip": "" }, t("photo_tip")));
    const strip = el("div", { class: "tile-row strip" });
    const palette = el("div", { class: "palette", hidden: "" });
    const scored = el("div");
    const input = el("input", { type: "file", accept: "image/*", capture: "environment", "data-photo-input": "" });
    // emptied once read, so that the same file chosen again is read again
    input.addEventListener("change", () => { const f = input.files[0]; input.value = ""; if (f) recognise(f); });
    const useBtn = el("button", { type: "button", class: "primary", disabled: "" }, t("use_tiles"));
    // the dora indicators often lie on the dead wall, away from the hand: a second photo adds them
    let doraFile = null;
    const doraStrip = el("div", { class: "tile-row dora-strip" });
    const doraInput = el("input", { type: "file", accept: "image/*", capture: "environment", "data-dora-input": "" });
    doraInput.addEventListener("change", () => {
      if (!doraInput.files[0]) return;
      doraFile = doraInput.files[0];
      doraInput.value = "";
      if (file) recognise(file); else doraStrip.replaceChildren(el("span", {}, t("dora_photo_waiting")));
    });

    const buttons = [el("label", { class: "secondary choice" }, t("take_photo"), input)];
    if (indicators.includes("dora_indicators")) buttons.push(el("label", { class: "secondary choice" }, t("dora_photo"), doraInput));
    input.style.display = "none";
    doraInput.style.display = "none";
    if (window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
      buttons.push(el("button", { type: "button", class: "secondary", onclick: liveCamera }, t("live_camera")));
    }

    async function liveCamera() {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 } } });
      } catch (err) { C.toast(err.message, true); return; }
      const video = el("video", { autoplay: "", playsinline: "" });
      video.srcObject = stream;
      const shot = el("button", { type: "button", class: "primary", onclick: () => {
        const canvas = document.createElement("canvas");
        canvas.width = video.videoWidth; canvas.height = video.videoHeight;
        canvas.getContext("2d").drawImage(video, 0, 0);
        stopCamera();
        canvas.toBlob((blob) => recognise(new File([blob], "camera.jpg", { type: "image/jpeg" })), "image/jpeg", 0.92);
      } }, t("capture"));
      picture.replaceChildren(video, el("div", {}, shot));
    }
    function stopCamera() { if (stream) stream.getTracks().forEach((tr) => tr.stop()); stream = null; }

    async function recognise(f) {
      const mine = ++photosSent; // an answer that comes after a newer photo (or dora photo) was sent is passed over
      file = f; fixes = {}; restore = []; drop = []; add = []; turn = []; doraFixes = {}; win = null; result = null; firstRead = null; scored.replaceChildren(); strip.replaceChildren(); useBtn.disabled = true;
      doraStrip.replaceChildren();
      palette.hidden = true; // its tile belonged to the photo before
      status.textContent = t("recognizing");
      const img = el("img", { src: URL.createObjectURL(f), alt: "" });
      // a file this browser cannot show (an iPhone's HEIC, outside Safari): the server's copy, once it has read it
      let unshown = false;
      const showServers = () => { if (unshown && result && result.photo_id) img.src = `/api/photos/${result.photo_id}`; };
      img.addEventListener("error", () => { unshown = true; showServers(); }, { once: true });
      picture.replaceChildren(img);
      img.addEventListener("click", (event) => addAt(event, img));
      const form = new FormData();
      form.append("image", f);
      if (doraFile) form.append("dora", doraFile);
      let answer;
      try {
        answer = await C.api("POST", "/api/recognize", undefined, { form });
      } catch (err) {
        if (mine !== photosSent) return;
        if (err.data.field === "dora" && doraFile) {
          // the dora photo is the bad one: it is dropped (choose another), the hand is read without it
          doraFile = null;
          await recognise(f);
          doraStrip.replaceChildren(el("span", { class: "error" }, `${t("dora_photo")}: ${err.message}`));
          return;
        }
        status.textContent = err.message; status.className = "error";
        if (err.data.field === "image") picture.replaceChildren(); // no broken picture of a file that is none
        return;
      }
      if (mine !== photosSent) return;
      result = answer;
      status.className = "grow";
      showServers();
      if (result.dora_photo) drawDora();
      if (!result.tiles || !result.tiles.length) {
        status.textContent = t(result.small_photo ? "photo_too_few_pixels" : "no_tiles"); // a thumbnail: why, first
        return;
      }
      firstRead = { tiles: result.tiles.map((tile) => tile.tile), unsure: [...(result.uncertain || [])] };
      describe();
      const draw = () => drawBoxes(img);
      // a photo taken upright is taller than the sheet: the tiles are brought into view once drawn
      const firstDraw = () => { draw(); const box = picture.querySelector(".tilebox"); if (box) box.scrollIntoView({ block: "center" }); };
      if (img.complete && img.naturalWidth) firstDraw(); else img.addEventListener("load", firstDraw, { once: true });
      // turning the tablet rescales the photo; the boxes follow
      window.addEventListener("resize", () => { if (overlay && result) draw(); });
      useBtn.disabled = false;
    }

    // the dora photo's tiles (as corrected): the face-up ones are the indicators, the backs shown faint; those the
    // recogniser is unsure of dashed. A tap opens the palette on one, and the indicators are read again with the
    // corrections when the hand is scored
    function drawDora() {
      const photo = result.dora_photo;
      const unsure = new Set(photo.uncertain || []);
      const faces = photo.tiles.map((tile, i) => {
        const code = doraFixes[i] || tile.tile;
        const doubt = unsure.has(i) && !doraFixes[i];
        return el("button", {
          type: "button", class: `dora-tile${doubt ? " unsure" : ""}${doraFixes[i] ? " fixed" : ""}${code === "x" ? " back" : ""}`,
          "data-dora-index": String(i), title: doubt ? t("unsure") : code, onclick: () => pickDora(i),
        }, tileFace(code));
      });
      doraStrip.replaceChildren(el("span", {}, `${t("dora_from_photo")}: `), ...(faces.length ? faces : [el("span", {}, "\u2013")]));
      if (faces.some((face) => face.classList.contains("unsure"))) doraStrip.append(el("span", { class: "hint" }, ` ${t("dora_unsure")}`));
      if (photo.colourless) doraStrip.append(el("span", { class: "error" }, ` ${t("dora_photo_colourless")}`));
      if (photo.overexposed) doraStrip.append(el("span", { class: "error" }, ` ${t("dora_photo_too_bright")}`));
      if (photo.blurred) doraStrip.append(el("span", { class: "error" }, ` ${t("dora_photo_blurred")}`));
      if (photo.small_tiles) doraStrip.append(el("span", { class: "error" }, ` ${t("dora_photo_too_small")}`));
      if (photo.small_photo) doraStrip.append(el("span", { class: "error" }, ` ${t("dora_photo_too_few_pixels")}`));
    }
    // a tile of the dora photo tapped: the palette of tiles for it (its crop kept for fine-tuning, as the hand's)
    function pickDora(i) {
      palette.hidden = false;
      palette.replaceChildren(el("h3", { style: "grid-column:1/-1;margin:4px 0" }, `${t("fix_tile")} (${t("dora_photo")}, #${i + 1})`),
        ...paletteTiles((code) => {
          const photo = result.dora_photo;
          if (unchanged(doraFixes[i], photo.tiles[i].tile, (photo.uncertain || []).includes(i), code)) return;
          doraFixes[i] = code;
          scored.replaceChildren();
          drawDora();
          keepCorrection(photo.tiles[i], code, true);
        }, readings(result.dora_photo.tiles[i]), doraFixes[i] || result.dora_photo.tiles[i].tile,
        !doraFixes[i] && (result.dora_photo.uncertain || []).includes(i)));
      palette.scrollIntoView({ block: "nearest" });
    }
    // a tile's readings as the answer gives them, likeliest first: as read, then its "alternatives"
    const readings = (tile) => [tile.tile, ...(tile.alternatives || [])];
    // the palette's tile buttons; a tap closes it and hands the tile's code to `chosen`. First, in a row of their
    // own, the recogniser's `likeliest` readings of the tile less the one it stands as now (`shown`; a tile
    // corrected already is offered as read again): a misread tile's truth is among them about two times in
    // three, one tap away; and for a tile marked `unsure` that is right, "as read", which confirms it
    const paletteTiles = (chosen, likeliest = [], shown = null, unsure = false) => {
      const button = (code, attrs, ...more) => el("button", { type: "button", ...attrs, onclick: () => {
        palette.hidden = true;
        chosen(code);
      } }, tileFace(code), ...more);
      const likely = likeliest.filter((code) => code !== shown && PALETTE.includes(code))
        .map((code) => button(code, { "data-likely": code }));
      if (unsure && PALETTE.includes(shown)) {
        likely.push(button(shown, { "data-as-read": shown, class: "as-read" }, el("span", {}, `\u2713 ${t("as_read")}`)));
      }
      const first = likely.length ? [el("div", { class: "likely" }, el("span", {}, t("likely")), ...likely)] : [];
      return [...first, ...PALETTE.map((code) => button(code, { "data-tile": code }))];
    };
    // a tile picked as it stands: nothing changes, unless it was read (not set) and listed as unsure, which it then
    // no longer is (its crop is kept too: a doubtful tile confirmed teaches as much as one corrected)
    const unchanged = (fixed, read, listed, code) => fixed === code || (!fixed && code === read && !listed);
    // a tile the hand's shape named or offered the kinds of (the answer's "named", "offered"): its face is hidden
    const hidden = (i) => (result.named || []).includes(i) || (result.offered || []).includes(i);
    // a corrected tile's crop, kept on the server for fine-tuning (POST /api/corrections): `tile` as the answer gave
    // it, on the hand's photo or (onDora) the dora photo, named by the id the server holds it by or sent again; with
    // the degrees that photo was read turned by (its tiles' "sideways" are as read, on its side the other way)
    async function keepCorrection(tile, code, onDora) {
      const [id, photo] = onDora ? [result.dora_id, doraFile] : [result.photo_id, file];
      const correction = (byId) => {
        const form = new FormData();
        addPhoto(form, byId, "image", id, photo);
        form.append("tile", code);
        form.append("box", tile.box.join(","));
        form.append("sideways", tile.sideways ? "true" : "false");
        const turned = onDora ? result.dora_photo.turned : result.turned;
        if (turned) form.append("turned", String(turned));
        return form;
      };
      try { await postPhotos("/api/corrections", correction); } catch (err) { C.toast(err.message, true); }
    }

    // what the answer holds besides the tiles, in the status line
    function describe() {
      status.textContent = [result.colourless ? t("photo_colourless") : "",
        result.overexposed ? t("photo_too_bright") : "", result.blurred ? t("photo_blurred") : "",
        result.small_tiles ? t("photo_too_small") : "", result.flat_tiles ? t("photo_too_low") : "",
        result.at_edge && !result.request ? atEdge("photo_at_edge") : "",
        result.turned ? t("photo_turned") : "", (result.left_out || []).length ? t("rows_left_out") : "",
        (result.not_tiles || []).length ? t("not_tiles_left_out") : "",
        result.at_edge && result.request ? atEdge("hand_at_edge") : "",
        result.request ? "" : noHandText(result.reason || ""), (result.completed || []).length ? t("tiles_mended")
          : (result.named || []).length ? t("tiles_named") : (result.offered || []).length ? t("tiles_offered")
          : (result.uncertain || []).length ? t("tiles_unsure").replace("{n}", result.uncertain.length) : "",
        t("tap_to_fix")].filter(Boolean).join(" ");
    }

    // the answer's "at_edge" (the photo's edges a tile of the hand lies at) in the message ``key``
    function atEdge(key) {
      return t(key).replace("{sides}", result.at_edge.map((side) => t(`edge_${side}`)).join(t("edge_and")));
    }

    function drawBoxes(img) {
      picture.querySelectorAll(".tilebox").forEach((b) => b.remove());
      const w = result.width || img.naturalWidth;
      const h = result.height || img.naturalHeight;
      const sx = img.clientWidth / w;
      const sy = img.clientHeight / h;
      // tiles drawn narrower than their labels (a far photo, a phone): the labels would cover each other, so they
      // are left off and the strip below, with its big pictures, is what to check
      const widths = result.tiles.map((tile) => (tile.box[2] - tile.box[0]) * sx).sort((a, b) => a - b);
      picture.classList.toggle("crowded", widths.length > 0 && widths[widths.length >> 1] < 30);
      // the recogniser lists the tiles it is unsure of (low confidence, a five that may be red, or changed to make the hand win)
      const listed = new Set(result.uncertain || []);
      // the wall and discards beyond the hand: shown, greyed, not part of the hand (README "Photo convention")
      const leftOut = new Set(result.left_out || []);
      result.tiles.forEach((tile, i) => {
        const [x1, y1, x2, y2] = tile.box;
        const code = fixes[i] || tile.tile;
        const unsure = !fixes[i] && listed.has(i);
        const box = el("button", {
          type: "button", class: `tilebox${unsure ? " unsure" : ""}${fixes[i] ? " fixed" : ""}${leftOut.has(i) ? " left-out" : ""}${i === win ? " won" : ""}`,
          "data-index": String(i), "data-box": tile.box.join(","),
          style: `left:${x1 * sx}px;top:${y1 * sy}px;width:${(x2 - x1) * sx}px;height:${(y2 - y1) * sy}px`,
          title: unsure ? t("unsure") : code,
        }, el("span", {}, code));
        box.addEventListener("click", () => pick(i, img));
        picture.append(box);
      });
      // boxes taken for no tile (a point stick, dice, print): shown dotted, so that a tile lost there is seen;
      // a tap puts one back as a tile
      (result.not_tiles || []).forEach((thing) => {
        const [x1, y1, x2, y2] = thing.box;
        picture.append(el("button", {
          type: "button", class: "tilebox not-tile", title: t("not_a_tile"), "data-not-tile": thing.box.join(","),
          style: `left:${x1 * sx}px;top:${y1 * sy}px;width:${(x2 - x1) * sx}px;height:${(y2 - y1) * sy}px`,
          onclick: () => putBack(thing.box, img),
        }, el("span", {}, "?")));
      });
      // the same tiles as pictures, big enough to check at a glance and to tap
      // (marked as the boxes are: where the labels are left off, the strip is the only place that shows the doubts)
      strip.replaceChildren(...result.tiles.flatMap((tile, i) => (leftOut.has(i) ? [] : [el("button", {
        type: "button", class: `strip-tile${!fixes[i] && listed.has(i) ? " unsure" : ""}${fixes[i] ? " fixed" : ""}${i === win ? " won" : ""}`,
        "data-strip": String(i), title: !fixes[i] && listed.has(i) ? t("unsure") : fixes[i] || tile.tile, onclick: () => pick(i, img),
      }, tileFace(fixes[i] || tile.tile))])));
    }

    // the photo read again with the boxes the player put back (restore) or took out (drop); the corrections so
    // far follow their tiles (the same boxes in the new answer); the palette opens on the tile at `focus`
    const boxKey = (box) => box.join(",");
    const sameBox = (a) => (b) => boxKey(a) === boxKey(b);
    // the photo (and the dora photo) in a form: named by the ids the server's first answer gave them (it holds
    // the photos it read last), or, byId false, sent again as files
    function withPhotos(form, byId, dora = true) {
      addPhoto(form, byId, "image", result.photo_id, file);
      if (dora && doraFile) addPhoto(form, byId, "dora", result.dora_id, doraFile);
      return form;
    }
    // a photo in the form field `field`, or by the id the server holds it by (in `field`_id) where there is one
    function addPhoto(form, byId, field, id, photo) {
      if (byId && id) form.append(`${field}_id`, id); else form.append(field, photo);
    }
    // a POST naming the photos by id; where the server no longer holds them (restarted, many photos since), the
    // same request with the photos sent again
    async function postPhotos(path, build) {
      try {
        return await C.api("POST", path, undefined, { form: build(true) });
      } catch (err) {
        if (!err.data || err.data.code !== "photo_gone") throw err;
        return C.api("POST", path, undefined, { form: build(false) });
      }
    }
    // the photo(s) read again, the way round the answer says and with the localisers it names (so that the server
    // need not choose them again), with the boxes put back, taken out, added and turned
    function readingForm(boxes, byId) {
      const form = withPhotos(new FormData(), byId);
      form.append("turned", String(result.turned || 0));
      form.append("low_angle", result.low_angle ? "1" : "0");
      for (const key of ["restore", "drop", "add", "turn"]) if (boxes[key].length) form.append(key, JSON.stringify(boxes[key]));
      return form;
    }
    const boxesNow = () => ({ restore, drop, add, turn });
    // the photo read again (POST /api/recognize, the form as ``build`` makes it): its answer; null where that failed
    // (said in a toast) or where a newer photo was sent meanwhile (the answer is of the one before: passed over)
    async function readThisPhotoAgain(build) {
      const mine = photosSent;
      try {
        const again = await postPhotos("/api/recognize", build);
        return mine === photosSent ? again : null;
      } catch (err) {
        if (mine === photosSent) C.toast(err.message, true);
        return null;
      }
    }
    async function readAgain(img, next, focus) {
      const byBox = new Map(Object.entries(fixes).map(([i, code]) => [boxKey(result.tiles[i].box), code]));
      const wonBox = win === null ? null : result.tiles[win].box;
      const again = await readThisPhotoAgain((byId) => readingForm(next, byId));
      if (!again) return;
      ({ restore, drop, add, turn } = next);
      result = again;
      fixes = {};
      result.tiles.forEach((tile, i) => { const code = byBox.get(boxKey(tile.box)); if (code) fixes[i] = code; });
      win = wonBox ? result.tiles.findIndex(sameBox(wonBox)) : -1;
      if (win < 0) win = null;
      scored.replaceChildren();
      describe();
      drawBoxes(img);
      let i = focus ? result.tiles.findIndex((tile) => sameBox(focus)(tile.box)) : -1;
      if (focus && i < 0) i = result.tiles.findIndex((tile) => holds(tile.box, focus)); // the tile read where one was added
      if (i >= 0) pick(i, img);
    }
    // whether box `outer` holds the middle of box `inner` (a tile read where the player added a box)
    const holds = (outer, inner) => {
      const [x, y] = [(inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2];
      return outer[0] <= x && x <= outer[2] && outer[1] <= y && y <= outer[3];
    };
    // a dotted box tapped: a tile after all (listed unsure until set); one the player took out is simply kept again
    function putBack(box, img) {
      if (drop.some(sameBox(box))) return readAgain(img, { ...boxesNow(), drop: drop.filter((b) => !sameBox(box)(b)) }, box);
      return readAgain(img, { ...boxesNow(), restore: [...restore, box] }, box);
    }
    // "not a tile" in the palette: the box goes to the dotted ones (a tile put back before is simply dropped again,
    // one the player added is forgotten; a tile turned is no longer turned, and named by its box as read before)
    function takeOut(box, img) {
      const was = turn.find((b) => holds(box, b)) || box;
      const next = { ...boxesNow(), turn: turn.filter((b) => !holds(box, b)) };
      if (restore.some(sameBox(was))) return readAgain(img, { ...next, restore: restore.filter((b) => !sameBox(was)(b)) }, null);
      if (add.some((b) => holds(was, b))) return readAgain(img, { ...next, add: add.filter((b) => !holds(was, b)) }, null);
      return readAgain(img, { ...next, drop: [...drop, was] }, null);
    }
    // "Sideways" / "Upright" in the palette: the tile lies the other way (a called tile lying across that was
    // added, as every added tile is upright, or read upright); turned again, it is as read at first. The photo is
    // read again and the palette opens on the tile read there
    function turnOver(box, img) {
      if (turn.some((b) => holds(box, b))) return readAgain(img, { ...boxesNow(), turn: turn.filter((b) => !holds(box, b)) }, box);
      return readAgain(img, { ...boxesNow(), turn: [...turn, box] }, box);
    }
    // the photo tapped beside the boxes: a tile was missed there. A box as large as the upright tiles is added
    // around the tap, the photo read again with it, and the palette opens on the tile read there
    function addAt(event, img) {
      if (!result || !(result.tiles || []).length) return;
      const upright = result.tiles.filter((tile) => !tile.sideways);
      if (!upright.length) return;
      const sx = (result.width || img.naturalWidth) / img.clientWidth;
      const sy = (result.height || img.naturalHeight) / img.clientHeight;
      const [x, y] = [event.offsetX * sx, event.offsetY * sy];
      const middle = (values) => values.sort((a, b) => a - b)[values.length >> 1];
      const w = middle(upright.map((tile) => tile.box[2] - tile.box[0]));
      const h = middle(upright.map((tile) => tile.box[3] - tile.box[1]));
      const box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2].map(Math.round);
      return readAgain(img, { ...boxesNow(), add: [...add, box] }, box);
    }

    function pick(i, img) {
      palette.hidden = false;
      palette.replaceChildren(el("h3", { style: "grid-column:1/-1;margin:4px 0" }, `${t("fix_tile")} (#${i + 1})`),
        ...paletteTiles((code) => {
          if (unchanged(fixes[i], result.tiles[i].tile, (result.uncertain || []).includes(i), code)) return;
          fixes[i] = code;
          drawBoxes(img);
          scored.replaceChildren();
          // no crop of a tile the hand's shape named or offered: its face is hidden (a finger), no example of it
          if (!hidden(i)) keepCorrection(result.tiles[i], code, false);
        }, readings(result.tiles[i]), fixes[i] || result.tiles[i].tile, !fixes[i] && (result.uncertain || []).includes(i)),
        el("button", { type: "button", "data-no-tile": "", style: "grid-column:span 2", onclick: () => {
          palette.hidden = true;
          takeOut(result.tiles[i].box, img);
        } }, el("span", {}, t("no_tile"))),
        el("button", { type: "button", "data-turn": "", style: "grid-column:span 2", onclick: () => {
          palette.hidden = true;
          turnOver(result.tiles[i].box, img);
        } }, el("span", {}, t(result.tiles[i].sideways ? "lies_upright" : "lies_sideways"))),
        // the hand's winning tile, where none lies apart (a hand laid down as one block): the photo read again so
        el("button", { type: "button", "data-win": "", style: "grid-column:span 2", onclick: async () => {
          palette.hidden = true;
          const again = await readThisPhotoAgain((byId) => corrected(byId, i));
          if (!again) return;
          win = i; result = again;
          scored.replaceChildren();
          describe();
          drawBoxes(img);
        } }, el("span", {}, t("win_tile"))));
      palette.scrollIntoView({ block: "nearest" }); // below the photo, often out of sight on a tablet
    }

    // the recogniser gives the indicators as a list; the win form (and the score API) take tile text
    function textIndicators(req) {
      for (const key of ["dora_indicators", "ura_indicators"]) if (Array.isArray(req[key])) req[key] = joinTiles(req[key]);
      return req;
    }

    // no request from the photo: every face-up tile (as corrected) of the hand row in the hand, the winning tile
    // the one named (else the last), its flowers and seasons apart; those of the dora row as the indicators; rows
    // left out (wall, discards) not
    function flatRequest() {
      const apart = new Set([...(result.left_out || []), ...(result.dora_row || [])]);
      const code = (i) => fixes[i] || result.tiles[i].tile;
      const faceUp = (i) => code(i) !== "x" && !isBonus(code(i));
      const row = result.tiles.map((_, i) => i).filter((i) => !apart.has(i));
      const hand = row.filter((i) => faceUp(i) && i !== win);
      if (win !== null && faceUp(win)) hand.push(win);
      const tiles = hand.map(code);
      const flowers = row.map(code).filter(isBonus);
      const dora = (result.dora_row || []).filter(faceUp).map((i) => fixes[i] || result.tiles[i].tile);
      // and those of a dora photo (as corrected)
      const photo = result.dora_photo ? result.dora_photo.tiles.map((tile, i) => doraFixes[i] || tile.tile) : [];
      dora.push(...photo.filter((code) => code !== "x"));
      return { hand: joinTiles(tiles), win_tile: tiles[tiles.length - 1], dora_indicators: joinTiles(dora),
        ...(flowers.length ? { flowers } : {}) };
    }

    // the photo's request as read (indicators as lists), null where it gives none; with corrections, the server
    // reads the photo again with them and builds the request anew (a meld mended by a tap is a meld again, a back
    // corrected on the wall an indicator), the boxes put back or taken out as set
    async function requestToScore() {
      let req = result.request;
      // (the answer holds the winning tile named, unless boxes were put back or taken out since)
      if (Object.keys(fixes).length || Object.keys(doraFixes).length || (win !== null && result.win !== win)) {
        req = (await postPhotos("/api/recognize", (byId) => corrected(byId, win))).request;
      }
      return req;
    }
    // the photo(s) read again with the corrections so far and the winning tile `won` (null: none named)
    function corrected(byId, won) {
      const form = readingForm(boxesNow(), byId);
      if (Object.keys(fixes).length) form.append("fixes", JSON.stringify(fixes));
      if (Object.keys(doraFixes).length) form.append("dora_fixes", JSON.stringify(doraFixes));
      if (won !== null) form.append("win", String(won));
      return form;
    }

    // the photo and its tiles as the player checked them, kept on the server as the club's own labelled example
    // (POST /api/photos; training/evaluate.py reads them); not where rows were left out unchecked (wall, discards)
    function keepPhoto(req) {
      if ((result.left_out || []).length) return;
      // a tile the hand's shape named or offered is marked hidden: its face is not in the photo (a finger over it)
      const tiles = result.tiles.map((tile, i) => ({ tile: fixes[i] || tile.tile, box: tile.box, sideways: tile.sideways,
        ...(hidden(i) ? { hidden: true } : {}) }));
      // the request only where the photo holds all of it (no indicators from a second photo)
      const label = req && !doraFile ? { tiles, request: req } : { tiles };
      // and what was shown dotted as no tile (a die, a point stick) and left so: a fine-tune teaches the verifier
      const notTiles = (result.not_tiles || []).map((thing) => ({ box: thing.box, sideways: thing.sideways }));
      if (notTiles.length) label.not_tiles = notTiles;
      // and which way round it was read (a fine-tune teaches the orienter which way up the club's tiles stand)
      label.turned = result.turned || 0;
      if (firstRead) label.first_read = firstRead;
      const keep = (byId) => {
        const form = withPhotos(new FormData(), byId, false);
        form.append("label", JSON.stringify(label));
        return form;
      };
      postPhotos("/api/photos", keep).catch((err) => console.warn("photo not kept:", err.message));
    }

    // the tiles into the win entry: the hand with its winning tile last (the entry's convention), melds, flowers and
    // seasons, dora
    function handOver(req) {
      const tiles = splitTiles(req.hand);
      const k = tiles.lastIndexOf(req.win_tile);
      if (k >= 0) tiles.push(...tiles.splice(k, 1));
      onTiles({
        hand: joinTiles(tiles),
        melds: (req.melds || []).map((m) => (m.type === "ankan" ? `a${m.tiles}` : m.tiles)).join(" "),
        flowers: Array.isArray(req.flowers) ? joinTiles(req.flowers) : req.flowers || "",
        dora: req.dora_indicators || "",
        ura: req.ura_indicators || "",
      });
      close();
    }
    function scoreFailed(message, req) {
      status.textContent = message; status.className = "error";
      // the tiles may still be worth taking over (a flag to tick in the entry, a tile to mend there)
      scored.replaceChildren(el("p", { class: "error" }, message),
        req ? el("button", { type: "button", class: "secondary", "data-take-anyway": "", onclick: () => handOver(req) }, t("take_tiles_anyway")) : "");
      scored.scrollIntoView({ block: "nearest" });
    }

    useBtn.addEventListener("click", async () => {
      let read;
      try { read = await requestToScore(); } catch (err) { scoreFailed(err.message, null); return; }
      const req = read ? textIndicators(JSON.parse(JSON.stringify(read))) : flatRequest();
      // indicators the table's rules do not know (a dora row read above a Hong Kong hand) are not sent: Gravon's
      // classical book refuses them
      for (const key of ["dora_indicators", "ura_indicators"]) if (!indicators.includes(key)) delete req[key];
      // a set with red fives at a table whose rules count none (EMA 2016 refuses a 0 in a hand): plain fives
      if (redFives() === 0 && plainFives(req)) C.toast(t("red_fives_plain"));
      const st = C.state;
      // the game's rules value, house rules for valuing hands included, as the table will score the win
      const probe = { ...req, rules: (st.rules || {}).scoring_rules || st.preset, seat_wind: st.seat_winds[player], round_wind: st.round_wind };
      if ((st.riichi_declared || []).includes(player)) probe.riichi = true;
      const from = discarder();
      if (tsumo()) probe.tsumo = true;
      else if (from) probe.discarder = from;
      try {
        await C.api("POST", "/api/score", probe);
      } catch (err) {
        scoreFailed(err.message, req);
        return;
      }
      keepPhoto(read);
      handOver(req); // the win entry's preview shows the score and the payments before Confirm
    });

    overlay = el("div", { class: "overlay", id: "photo-overlay", style: "z-index:15" },
      el("div", { class: "sheet" },
        el("header", {}, el("h2", {}, `${t("photo")} \u2013 ${player}`),
          el("button", { type: "button", class: "icon close", onclick: close, "aria-label": t("close") }, "\u00d7")),
        el("div", { id: "photo-body", style: "padding:6px 26px 12px;overflow-y:auto" },
          el("div", { class: "choices", style: "margin-bottom:12px" }, buttons), picture, strip, doraStrip, palette, scored),
        el("footer", { style: "display:flex;gap:14px;align-items:center;padding:12px 26px 18px;border-top:1px solid #e2e0d8" },
          status, el("button", { type: "button", class: "secondary", onclick: close }, t("cancel")), useBtn)));
    overlay.stopCamera = stopCamera;
    document.body.append(overlay);
  }

  function close() {
    if (!overlay) return;
    overlay.stopCamera();
    overlay.remove();
    overlay = null;
  }

  window.CompanionPhoto = { open, close, splitTiles };
})();
