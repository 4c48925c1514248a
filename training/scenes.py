"""Synthetic table photos: rows of touching tiles with thickness, melds with sideways tiles, closed kans with
backs, a dora-indicator row, cloths and table tops, perspective, light, shadow, blur, noise and JPEG.

`render_scene` returns the photo and one label per tile (class, face corners, box, sideways, row, group).
Hand scenes follow the photo convention the runtime reads (README, "Recognition"): the concealed tiles,
the winning tile set a little apart at the right, the called melds further right, the dora indicators in
a row above.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from training.faces import ALL_CLASSES, FaceBank

TW, TH = 72, 96  # tile face in the flat table plane, px

BODY_COLOURS = [(246, 244, 236), (240, 232, 208), (236, 224, 190), (250, 250, 250), (228, 220, 200)]
BACK_COLOURS = [
    (230, 150, 40), (225, 190, 40), (40, 90, 170), (40, 130, 70), (150, 30, 40), (30, 30, 35), (235, 110, 40),
    (70, 160, 200), (245, 245, 240),
]
CLOTHS = [(30, 100, 60), (25, 60, 120), (90, 30, 35), (35, 35, 40), (110, 110, 110), (120, 80, 45), (160, 120, 80),
          (20, 70, 80), (60, 40, 90), (200, 200, 195)]

SUITED = [c for c in ALL_CLASSES if c[-1] in "mps" and c[0] != "0"]
HONORS = [f"{n}z" for n in range(1, 8)]
KINDS = SUITED + HONORS


@dataclass
class TileLabel:
    cls: str
    quad: np.ndarray  # 4x2 face corners in the photo (tl, tr, br, bl of the face as placed)
    sideways: bool
    row: int
    group: int
    role: str  # concealed | win | meld | dora | other
    meld: str = ""  # chi | pon | minkan | kakan | ankan for tiles of a called/closed meld

    @property
    def box(self) -> tuple[float, float, float, float]:
        x1, y1 = self.quad.min(axis=0)
        x2, y2 = self.quad.max(axis=0)
        return float(x1), float(y1), float(x2), float(y2)


@dataclass
class Placed:
    cls: str
    x: float
    y: float  # top-left of the face in the plane
    sideways: bool
    row: int
    group: int
    role: str
    meld: str = ""
    stacked: bool = False  # the upper tier of the wall: the lower tile's edge shows below this one's


@dataclass
class Style:
    body: tuple
    back: tuple
    styles: list[str]
    thickness: float
    layer: float
    radius: float
    gap: float
    wear: float = 0.0  # how worn the set's paint is (0: new; worn_ink)
    wear_rng: np.random.Generator | None = None  # the wear's own draws, so a seed's scenes stay the same


def _rgb(c: tuple, rng: np.random.Generator, amount: int = 12) -> np.ndarray:
    return np.clip(np.array(c, np.float32) + rng.integers(-amount, amount + 1, 3), 0, 255)


# ---------------------------------------------------------------- tile pictures in the plane

def _rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(1, min(r, w // 2 - 1, h // 2 - 1))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def tile_face(rng: np.random.Generator, bank: FaceBank, cls: str, st: Style) -> np.ndarray:
    """RGBA face of one tile, upright, TH x TW."""
    if cls == "x":
        col = _rgb(st.back, rng, 8)
        img = np.empty((TH, TW, 3), np.float32)
        img[:] = col
        if rng.random() < 0.3:
            # some backs carry a faint pattern or logo
            cv2.circle(img, (TW // 2, TH // 2), int(TW * rng.uniform(0.15, 0.35)),
                       tuple(float(v) for v in col * rng.uniform(0.8, 1.15)), int(rng.integers(-1, 3)))
    else:
        face, style = bank.pick(rng, cls, st.styles)
        body = np.array((30, 30, 30), np.float32) if style == "fluffy-black" else _rgb(st.body, rng, 6)
        img = np.empty((TH, TW, 3), np.float32)
        img[:] = body
        m = rng.uniform(0.02, 0.09)
        mx, my = int(TW * m), int(TH * m)
        fw, fh = TW - 2 * mx, TH - 2 * my
        f = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float32)
        # ink colours drift between sets
        ink = f[..., :3] * rng.uniform(0.8, 1.15, 3)
        a = f[..., 3:4] / 255.0 * rng.uniform(0.85, 1.0)
        groove = 0.0
        if st.wear_rng is not None:  # (render_scene sets it with the set's wear)
            a, groove = worn_ink(st.wear_rng, a, st.wear)
        img[my:my + fh, mx:mx + fw] = img[my:my + fh, mx:mx + fw] * (1 - a) * (1 - groove) + ink * a
    # bevel: the rim of a real tile is a little darker than its flat middle
    yy, xx = np.mgrid[0:TH, 0:TW].astype(np.float32)
    edge = np.minimum.reduce([xx, yy, TW - 1 - xx, TH - 1 - yy])
    shade = 1.0 - rng.uniform(0.05, 0.25) * np.exp(-edge / rng.uniform(1.5, 4.0))
    img *= shade[..., None]
    alpha = _rounded_mask(TW, TH, int(TW * st.radius))
    return np.dstack([np.clip(img, 0, 255), alpha.astype(np.float32)])


def worn_ink(rng: np.random.Generator, alpha: np.ndarray, wear: float) -> tuple[np.ndarray, np.ndarray]:
    """A face's ink (``alpha``, h x w x 1, 0-1) as years of play leave it on a club's set worn by ``wear`` (0-1):
    paler all over by up to a third of ``wear``, and rubbed off in patches over up to half of ``wear`` of the face
    (where the paint is gone, the engraving still shows as a faint groove, darker than the body). Returns the ink
    left and the groove's darkening (h x w x 1, 0-1)."""
    h, w = alpha.shape[:2]
    faded = alpha * (1.0 - wear * rng.uniform(0.0, 0.35))
    field = cv2.resize(rng.random((6, 5), dtype=np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    field += cv2.resize(rng.random((14, 11), dtype=np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 0.5
    share = wear * rng.uniform(0.1, 0.5)
    edge = float(np.quantile(field, 1.0 - share))  # (no share: the field's top, so nothing rubbed off)
    lost = np.clip((field - edge) / 0.08, 0.0, 1.0)[..., None] * rng.uniform(0.6, 1.0)
    groove = alpha * lost * rng.uniform(0.06, 0.2)
    return faded * (1.0 - lost), groove


def paste(canvas: np.ndarray, rgba: np.ndarray, x: int, y: int) -> None:
    h, w = rgba.shape[:2]
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    src = rgba[y0 - y:y1 - y, x0 - x:x1 - x]
    a = src[..., 3:4] / 255.0
    dst = canvas[y0:y1, x0:x1]
    dst[..., :3] = dst[..., :3] * (1 - a) + src[..., :3] * a
    dst[..., 3:4] = np.maximum(dst[..., 3:4], src[..., 3:4])


def band_image(rng: np.random.Generator, w: int, t: int, st: Style, face_down: bool) -> np.ndarray:
    """The tile's front edge seen below the face: face layer and back layer, darker than the top."""
    img = np.zeros((t, w, 4), np.float32)
    top, bottom = (st.back, st.body) if face_down else (st.body, st.back)
    split = int(t * st.layer)
    img[:split, :, :3] = _rgb(top, rng, 6) * 0.82
    img[split:, :, :3] = _rgb(bottom, rng, 6) * 0.75
    img[..., :3] *= np.linspace(1.0, 0.8, t)[:, None, None]
    img[..., 3] = _rounded_mask(w, t + 8, int(w * st.radius))[8:]
    return img


# ---------------------------------------------------------------- layouts

def _draw_kinds(rng: np.random.Generator, n: int, counts: dict[str, int]) -> list[str]:
    out = []
    while len(out) < n:
        k = KINDS[rng.integers(len(KINDS))]
        if counts.get(k, 0) < 4:
            counts[k] = counts.get(k, 0) + 1
            out.append(k)
    return out


def _reddify(rng: np.random.Generator, tiles: list[str], p: float) -> list[str]:
    return [("0" + t[1]) if t[0] == "5" and t[1] in "mps" and rng.random() < p else t for t in tiles]


def _sort_key(t: str) -> tuple:
    n = 5 if t[0] == "0" else int(t[0])
    return ("mpsz".index(t[1]) if t[1] in "mpsz" else 5, n, t)


def _take(counts: dict[str, int], tiles: list[str]) -> bool:
    """Take ``tiles`` from the set if every one is still free (4 copies of each kind)."""
    if not all(counts.get(t, 0) + tiles.count(t) <= 4 for t in set(tiles)):
        return False
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return True


def _draw_complete(rng: np.random.Generator, n_sets: int, counts: dict[str, int]) -> list[str] | None:
    """``n_sets`` runs or triplets and a pair from the tiles still free: a winning hand's concealed part."""
    out: list[str] = []
    for _ in range(n_sets):
        for _try in range(50):
            base = KINDS[rng.integers(len(KINDS))]
            run = rng.random() < 0.6 and base[1] != "z" and int(base[0]) <= 7
            ts = [f"{int(base[0]) + i}{base[1]}" for i in range(3)] if run else [base] * 3
            if _take(counts, ts):
                out += ts
                break
        else:
            return None
    for _try in range(50):
        k = KINDS[rng.integers(len(KINDS))]
        if _take(counts, [k, k]):
            return out + [k, k]
    return None


def hand_layout(rng: np.random.Generator, st: Style, winning: bool = False, clutter: bool = False) -> list[Placed]:
    """A hand with its melds (and often a dora row above). ``winning``: the concealed tiles and the
    winning tile make a complete hand with the melds (evaluation photos of won hands); otherwise the
    concealed tiles are drawn freely, as training has always drawn them. ``clutter``: the rest of the table
    is in the picture too (see :func:`_table_beyond`) instead of a dora row of its own."""
    counts: dict[str, int] = {}
    n_melds = int(rng.choice([0, 0, 1, 1, 2, 3, 4], p=[0.25, 0.15, 0.2, 0.1, 0.15, 0.1, 0.05]))
    melds: list[tuple[str, list[str]]] = []
    for _ in range(n_melds):
        kind = rng.choice(["chi", "pon", "minkan", "kakan", "ankan"], p=[0.35, 0.35, 0.1, 0.1, 0.1])
        for _try in range(20):
            base = KINDS[rng.integers(len(KINDS))]
            if kind == "chi":
                if base[1] == "z" or int(base[0]) > 7:
                    continue
                ts = [f"{int(base[0]) + i}{base[1]}" for i in range(3)]
            else:
                ts = [base] * (3 if kind == "pon" else 4)
            if _take(counts, ts):
                melds.append((str(kind), _reddify(rng, ts, 0.3)))
                break
    part = _draw_complete(rng, 4 - len(melds), counts) if winning else None
    if part is not None:
        win = part.pop(int(rng.integers(len(part))))
        concealed = part
    else:
        concealed = _draw_kinds(rng, 13 - 3 * len(melds), counts)
    if rng.random() < 0.75:
        concealed.sort(key=_sort_key)
    concealed = _reddify(rng, concealed, 0.25)
    if part is not None:
        win = _reddify(rng, [win], 0.25)[0]
    else:
        win = _reddify(rng, _draw_kinds(rng, 1, counts), 0.25)[0]
    placed: list[Placed] = []
    y = 0.0
    x = 0.0
    g = 0
    for t in concealed:
        placed.append(Placed(t, x, y, False, 1, g, "concealed"))
        x += TW + st.gap
    x += TW * rng.uniform(0.25, 0.7)
    g += 1
    placed.append(Placed(win, x, y, False, 1, g, "win"))
    x += TW + st.gap
    for kind, ts in melds:
        x += TW * rng.uniform(0.3, 0.9)
        g += 1
        if kind == "ankan":
            for i, t in enumerate(ts):
                placed.append(Placed("x" if i in (0, 3) else t, x, y, False, 1, g, "meld", kind))
                x += TW + st.gap
            continue
        side = int(rng.integers(3))
        for i, t in enumerate(ts[:3] if kind == "kakan" else ts):
            if i == side:
                placed.append(Placed(t, x, y + TH - TW, True, 1, g, "meld", kind))
                if kind == "kakan":
                    placed.append(Placed(ts[3], x, y + TH - 2 * TW - st.thickness * TW * 0.5, True, 1, g, "meld",
                                         kind))
                x += TH + st.gap
            else:
                placed.append(Placed(t, x, y, False, 1, g, "meld", kind))
                x += TW + st.gap
    if clutter:
        return placed + _table_beyond(rng, st, counts, x)
    if rng.random() < 0.65:
        n_dora = int(rng.integers(1, 5))
        doras = _reddify(rng, _draw_kinds(rng, n_dora, counts), 0.2)
        dx = x * rng.uniform(-0.05, 0.4) if rng.random() < 0.5 else 0.0
        dy = -TH - TH * rng.uniform(0.5, 1.6) - st.thickness * TW
        backs_before = int(rng.integers(0, 3)) if rng.random() < 0.3 else 0
        xx = dx
        for _ in range(backs_before):
            placed.append(Placed("x", xx, dy, False, 0, 0, "dora"))
            xx += TW + st.gap
        for t in doras:
            placed.append(Placed(t, xx, dy, False, 0, 0, "dora"))
            xx += TW + st.gap
    return placed


def _rest_of_the_dead_wall(rng: np.random.Generator, placed: list[Placed], st: Style) -> None:
    """The dora row above a hand as a photo of the dead wall shows it: the stacks not yet turned lie right of the
    indicators too, 1-4 backs there (hand_layout draws backs left of them only). A row of the wall beyond the hand
    (clutter) has its own backs and is left as it is."""
    dora = [p for p in placed if p.role == "dora"]
    if not dora or any(p.stacked for p in dora):
        return
    last = max(dora, key=lambda p: p.x)
    x = last.x + TW + st.gap
    for _ in range(int(rng.integers(1, 5))):
        placed.append(Placed("x", x, last.y, False, 0, 0, "dora"))
        x += TW + st.gap


def dead_wall_layout(rng: np.random.Generator, st: Style) -> list[Placed]:
    """The dead wall alone, as a second photo of the dora indicators shows it from close by: stacks of two touching
    in one row, on their top tier 1-4 indicators turned up (a red five among them now and then), 0-3 backs left of
    them and 0-4 right of them, all of the role "dora" (the lower tier shows as the edge below, as on the wall of
    _table_beyond)."""
    counts: dict[str, int] = {}
    before, after = int(rng.integers(0, 4)), int(rng.integers(0, 5))
    doras = _reddify(rng, _draw_kinds(rng, int(rng.integers(1, 5)), counts), 0.2)
    return [Placed(t, i * (TW + st.gap), 0.0, False, 0, 0, "dora", stacked=True)
            for i, t in enumerate(["x"] * before + doras + ["x"] * after)]


def _laid_by_hand(rng: np.random.Generator, placed: list[Placed], degrees: float) -> dict[int, float]:
    """Tiles laid down by hand do not line up: each is turned by up to ``degrees`` either way and moved up or down
    by up to 6% of a tile's height, and since a turned tile is wider, the tiles right of it in its row move along
    by the width it gained (tiles at the same place, an added kan's two, move together). Returns each tile's turn
    in degrees by id."""
    turns: dict[int, float] = {}
    rows: dict[tuple[int, bool], list[Placed]] = {}
    for p in placed:
        rows.setdefault((p.row, p.role == "dora"), []).append(p)
    for row in rows.values():
        shift, places = 0.0, {}
        for p in sorted(row, key=lambda q: q.x):
            if p.x not in places:
                a = float(rng.uniform(-degrees, degrees))
                w, h = (TH, TW) if p.sideways else (TW, TH)
                grown = w * np.cos(np.deg2rad(a)) + h * np.sin(np.deg2rad(abs(a))) - w
                shift += grown / 2
                places[p.x] = (shift, a, float(rng.uniform(-0.06, 0.06)) * TH)
                shift += grown / 2
            dx, a, dy = places[p.x]
            turns[id(p)] = a
            p.x += dx
            p.y += dy
    return turns


def _turned(rect: tuple[float, float, float, float], centre: tuple[float, float], degrees: float) -> np.ndarray:
    """The corners (tl, tr, br, bl) of the rectangle x, y, w, h turned by ``degrees`` about ``centre``."""
    x, y, w, h = rect
    pts = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)
    rot = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    return pts @ rot[:, :2].T + rot[:, 2]


def _turn_sheet(sheet: np.ndarray, centre: tuple[float, float], degrees: float) -> np.ndarray:
    """An RGBA sheet turned about ``centre``, its colours premultiplied while turned so that its rim does not darken."""
    rot = cv2.getRotationMatrix2D(centre, degrees, 1.0)
    a = sheet[..., 3:4] / 255.0
    pre = np.dstack([sheet[..., :3] * a, sheet[..., 3:4]])
    out = cv2.warpAffine(pre, rot, (sheet.shape[1], sheet.shape[0]), flags=cv2.INTER_LINEAR)
    alpha = out[..., 3:4] / 255.0
    out[..., :3] = np.where(alpha > 1e-3, out[..., :3] / np.maximum(alpha, 1e-3), 0)
    return out


def _tile_with_edges(rng: np.random.Generator, canvas: np.ndarray, face: np.ndarray, p: Placed, st: Style,
                     band_t: int, px: int, py: int) -> None:
    """A tile's face pasted at px, py with its front edge below it (and a stacked tile's lower tier below that)."""
    h, w = face.shape[:2]
    if band_t > 0:
        if p.stacked:  # lower tier first, face down, below the upper tile's own edge
            paste(canvas, band_image(rng, w, band_t, st, True), px, py + h + band_t - 4)
        paste(canvas, band_image(rng, w, band_t, st, p.cls == "x"), px, py + h - 2)
    paste(canvas, face, px, py)


def _close_gaps(placed: list[Placed], st: Style) -> None:
    """The hand row pushed together into one block of touching tiles (no winning tile apart, no gaps before the
    melds), as a hand is often laid down; an added kan's top tile moves with the tile it lies on."""
    row = sorted((p for p in placed if p.row == 1), key=lambda p: p.x)
    tops = {id(p) for p in row if any(q is not p and q.x == p.x and q.y > p.y for q in row)}
    x, moved = row[0].x if row else 0.0, {}
    for p in row:
        if id(p) not in tops:
            moved[p.x], p.x = x, x
            x += (TH if p.sideways else TW) + st.gap
    for p in row:
        if id(p) in tops:  # the top of an added kan: over its base
            p.x = moved[p.x]


def _table_beyond(rng: np.random.Generator, st: Style, counts: dict[str, int], width: float) -> list[Placed]:
    """What lies beyond a hand on a real table, from the winner's seat: the wall (a row of backs, two high;
    on the dead wall the dora indicator, sometimes a kan dora too, lies turned up on it), or not (it is used
    up or out of the picture), and one to three rows of discards (six to a row, the riichi tile sideways).
    The wall's tiles are "dora" tiles (its backs as in a dora row), the discards "other"; rows 0 and below."""
    out: list[Placed] = []
    y = -TH * rng.uniform(0.25, 0.6) - st.thickness * TW
    if rng.random() < 0.7:
        y -= TH + st.thickness * TW  # two tiers: the band below the row shows twice as high
        n = int(rng.integers(5, 12))
        first = int(rng.integers(1, max(2, n - 2)))
        doras = _reddify(rng, _draw_kinds(rng, 1 if rng.random() < 0.8 else 2, counts), 0.2)
        xx = width * rng.uniform(-0.1, 0.4)
        for i in range(n):
            t = doras[i - first] if first <= i < first + len(doras) else "x"
            out.append(Placed(t, xx, y, False, 0, 0, "dora", stacked=True))
            xx += TW + max(st.gap, 0.0)
        y -= TH * rng.uniform(0.4, 1.0) + 2 * st.thickness * TW
    for r in range(int(rng.integers(1, 4))):
        y -= TH + st.thickness * TW
        xx = width * rng.uniform(0.1, 0.35)
        riichi = int(rng.integers(6)) if rng.random() < 0.25 else -1
        for i, t in enumerate(_reddify(rng, _draw_kinds(rng, 6, counts), 0.1)):
            if i == riichi:
                out.append(Placed(t, xx, y + TH - TW, True, -1 - r, 0, "other"))
                xx += TH + st.gap
            else:
                out.append(Placed(t, xx, y, False, -1 - r, 0, "other"))
                xx += TW + st.gap
        y -= TH * rng.uniform(0.05, 0.2)
    return out


def random_layout(rng: np.random.Generator, st: Style) -> list[Placed]:
    placed: list[Placed] = []
    n_rows = int(rng.integers(1, 4))
    y = 0.0
    for r in range(n_rows):
        n = int(rng.integers(1, 17))
        x = TW * rng.uniform(-1, 3)
        g = 0
        for _ in range(n):
            cls = ALL_CLASSES[rng.integers(len(ALL_CLASSES))]
            side = rng.random() < 0.12
            placed.append(Placed(cls, x, y + (TH - TW if side else 0), bool(side), r, g, "other"))
            x += (TH if side else TW) + st.gap
            if rng.random() < 0.15:
                x += TW * rng.uniform(0.2, 1.0)
                g += 1
        y += TH + TH * rng.uniform(0.4, 1.5) + st.thickness * TW
    return placed


# ---------------------------------------------------------------- backgrounds and camera

def background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _rgb(CLOTHS[rng.integers(len(CLOTHS))], rng, 25)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    kind = rng.integers(3)
    if kind == 0:  # felt: fine noise
        n = rng.normal(0, rng.uniform(3, 12), (h // 2 + 1, w // 2 + 1)).astype(np.float32)
        img += cv2.resize(n, (w, h))[..., None]
    elif kind == 1:  # wood: stretched stripes
        n = rng.normal(0, 1, (8, int(rng.integers(20, 80)))).astype(np.float32)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
        img += (n * rng.uniform(6, 20))[..., None]
    else:  # woven cloth: two crossing fine patterns
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(2.5, 6)
        img += (np.sin(xx / p) * np.sin(yy / p) * rng.uniform(3, 10))[..., None]
    return img


def _side_height(rng: np.random.Generator, pitch: tuple[float, float]) -> tuple[int, tuple[float, float]]:
    """A tile's front side as the camera sees it, in px of the flat plane, and the pitch it is seen at (drawn from
    ``pitch``, returned as a range of one value). A tile lying face up is a block: its face (TH deep on the table)
    shows TH * sin(a) high in a photo taken at an angle a above the table, its front side (the tile's depth, 0.55-0.85
    of its width as riichi, Chinese and Hong Kong sets have it) depth * cos(a). The plane is squashed by the pitch,
    sin(a), afterwards, so the side is drawn depth * cos(a) / sin(a) high on it: nothing from straight above, as high
    as the face at 22-33 degrees. The training scenes' band is the style's, 0-0.7 of the width, at any angle."""
    p = float(rng.uniform(*pitch))
    depth = rng.uniform(0.55, 0.85) * TW
    return int(depth * np.sqrt(1 - p * p) / p), (p, p)


def _homography(rng: np.random.Generator, src_rect: tuple[float, float, float, float], out_w: int, out_h: int,
                fill: float, tilt: tuple[float, float] | None = None,
                pitch: tuple[float, float] = (0.55, 1.0), yaw: tuple[float, float] | None = None,
                yaw_rng: np.random.Generator | None = None) -> np.ndarray:
    x0, y0, x1, y1 = src_rect
    cw, ch = x1 - x0, y1 - y0
    pitch = rng.uniform(*pitch)  # vertical foreshortening of a table seen at an angle
    keystone = rng.uniform(0.72, 1.0)  # far edge narrower than the near edge
    scale = min(out_w * fill / cw, out_h * 0.92 / (ch * pitch))
    w, h = cw * scale, ch * scale * pitch
    cx = out_w / 2 + rng.uniform(-0.5, 0.5) * max(0.0, out_w - w) * 0.9
    cy = out_h / 2 + rng.uniform(-0.5, 0.5) * max(0.0, out_h - h) * 0.9
    top = w * keystone
    dst = np.array([[cx - top / 2, cy - h / 2], [cx + top / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
                    [cx - w / 2, cy + h / 2]], np.float32)
    if tilt is None:
        ang = np.deg2rad(rng.uniform(-9, 9))
    else:  # a camera held askew: tilted by tilt[0]..tilt[1] degrees either way
        ang = np.deg2rad(rng.uniform(*tilt) * (1 if rng.random() < 0.5 else -1))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    dst = (dst - [cx, cy]) @ rot.T + [cx, cy]
    dst += rng.normal(0, 0.012 * w, dst.shape).astype(np.float32)
    src = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    if yaw is not None:
        dst = _from_one_side(yaw_rng if yaw_rng is not None else rng, dst, yaw)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _from_one_side(rng: np.random.Generator, dst: np.ndarray, yaw: tuple[float, float]) -> np.ndarray:
    """The table's corners in the photo as seen by a camera off to one side: the far end (left or right) shorter
    by a factor drawn from ``yaw``, the quad as wide as before about the same centre. The homography through
    these corners shrinks the steps along a row faster than the tiles' heights, as a real side view does."""
    k = rng.uniform(*yaw)
    far, near = ([1, 2], [0, 3]) if rng.random() < 0.5 else ([0, 3], [1, 2])
    width = np.ptp(dst[:, 0])
    out = dst.copy()
    centre = out[far].mean(axis=0)
    out[far] = centre + (out[far] - centre) * k
    out[far] += (out[near].mean(axis=0) - centre) * (1 - k) * 0.5  # and nearer the other end, as it recedes
    return (out - out.mean(axis=0)) * (width / np.ptp(out[:, 0])) + dst.mean(axis=0)


def _photometric(rng: np.random.Generator, img: np.ndarray, blur_width_max: int | None = None) -> np.ndarray:
    """Light, the camera's blur, noise, gamma and JPEG. The blur's sigma is 0.3-1.6 px per 1000 px of the photo's
    long side (60% of photos), so it grows with the photo: at 4032 px 1.2-6.5 px. ``blur_width_max``: the long side
    beyond which it grows no more (the same draws, so the very photo of the seed, blurred less)."""
    h, w = img.shape[:2]
    # light falls off across the table; a hand or phone throws a soft shadow
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = np.float32(1) + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    if rng.random() < 0.4:
        mask = np.zeros((h, w), np.float32)
        pts = (rng.uniform(0, 1, (5, 2)) * [w, h]).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        k = int(max(w, h) * 0.05) | 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        light *= 1 - rng.uniform(0.2, 0.5) * mask
    if rng.random() < 0.3:
        c = rng.uniform(0, 1, 2) * [w, h]
        r = rng.uniform(0.05, 0.2) * w
        light += rng.uniform(0.1, 0.4) * np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * r * r))
    img = img * (light[..., None] * (rng.uniform(0.65, 1.25) * rng.uniform(0.88, 1.12, 3))).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.float32)
    if rng.random() < 0.6:
        s = rng.uniform(0.3, 1.6) * min(max(w, h), blur_width_max or max(w, h)) / 1000
        img = cv2.GaussianBlur(img, (0, 0), max(0.3, s))
    if rng.random() < 0.15:
        k = int(rng.integers(3, 9))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1 / k
        m = cv2.getRotationMatrix2D((k / 2, k / 2), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, m, (k, k)))
    img = img + rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(1, 8))
    img = np.clip(img, 0, 255).astype(np.uint8)
    gamma = rng.uniform(0.8, 1.25)
    img = cv2.LUT(img, (255 * (np.arange(256) / 255) ** gamma).astype(np.uint8))
    q = int(rng.integers(35, 96))
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def moved(img: np.ndarray, length: int, degrees: float, border: int = cv2.BORDER_DEFAULT) -> np.ndarray:
    """``img`` as a camera moving ``length`` px along a straight line at ``degrees`` smears it: a line of ones,
    centred in an odd square kernel with room to turn it, turned and summed to 1 (make_eval --shake, the shake
    training stage); ``border``: how OpenCV extends the picture beyond its edges."""
    size = length + 2 if length % 2 else length + 3
    c = size // 2
    kern = np.zeros((size, size), np.float32)
    kern[c, c - length // 2:c - length // 2 + length] = 1.0
    kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D((float(c), float(c)), degrees, 1), (size, size))
    return cv2.filter2D(img, -1, kern / kern.sum(), borderType=border)


def out_of_focus(img: np.ndarray, radius: int, border: int = cv2.BORDER_DEFAULT, depth: int = -1) -> np.ndarray:
    """``img`` as a lens focused elsewhere blurs it: a filled disc of ``radius`` px, summed to 1 (make_eval --focus,
    the focus training stage); ``border``: how OpenCV extends the picture beyond its edges; ``depth``: the output's
    (OpenCV's ddepth; -1 the input's)."""
    disc = np.zeros((2 * radius + 1, 2 * radius + 1), np.float32)
    cv2.circle(disc, (radius, radius), radius, 1.0, -1)
    return cv2.filter2D(img, depth, disc / disc.sum(), borderType=border)


def make_style(rng: np.random.Generator, styles: list[str]) -> Style:
    return Style(
        body=BODY_COLOURS[rng.integers(len(BODY_COLOURS))],
        back=BACK_COLOURS[rng.integers(len(BACK_COLOURS))],
        styles=styles,
        thickness=float(rng.uniform(0.0, 0.7)),
        layer=float(rng.uniform(0.35, 0.75)),
        radius=float(rng.uniform(0.04, 0.14)),
        gap=float(rng.uniform(-0.5, 2.5)),
    )


def render_scene(rng: np.random.Generator, bank: FaceBank, styles: list[str], out_size: tuple[int, int] | None = None,
                 hand: bool | None = None, winning: bool = False,
                 fill: tuple[float, float] = (0.55, 0.96),
                 tilt: tuple[float, float] | None = None,
                 pitch: tuple[float, float] = (0.55, 1.0), clutter: bool = False,
                 yaw: tuple[float, float] | None = None, yaw_rng: np.random.Generator | None = None,
                 one_block: bool = False, loose: float = 0.0,
                 loose_rng: np.random.Generator | None = None,
                 wall_rng: np.random.Generator | None = None,
                 dead_wall: bool = False,
                 sides_rng: np.random.Generator | None = None,
                 wear_rng: np.random.Generator | None = None,
                 blur_width_max: int | None = None) -> tuple[np.ndarray, list[TileLabel]]:
    """One photo (BGR) and its tile labels. Each photo uses one set: one art/procedural style, one body.
    ``fill``: the range of the share of the photo's width the tiles take (at most; a tall layout fills less);
    ``tilt``: the range of degrees the camera is turned by, either way (default: -9..9); ``pitch``: the range of
    the table's vertical foreshortening (1: seen from straight above; lower: from a lower angle); ``clutter``:
    the wall and discards beyond the hand (hand scenes only); ``yaw``: the range of how much shorter the table's
    far end is, the camera off to one side (_from_one_side; drawn from ``yaw_rng`` when given, so that a seed's
    scenes stay the same); ``one_block``: the hand row laid down as one block, every gap closed (_close_gaps);
    ``loose``: each tile laid by hand, turned by up to this many degrees either way and pushed off its row's line
    (_laid_by_hand; drawn from ``loose_rng``, the same way as ``yaw_rng``); ``wall_rng``: the dora row shown as the
    dead wall's top tier, with backs right of the indicators too (_rest_of_the_dead_wall, drawn from it);
    ``dead_wall``: the dead wall alone instead of a hand (dead_wall_layout), as a second photo of the dora
    indicators; ``sides_rng``: the tiles' front sides as high as a camera at the photo's angle sees them
    (_side_height; the pitch and the tiles' depth drawn from it), instead of the style's fixed band; ``wear_rng``:
    the set's paint worn, 0.3-1 of worn_ink's most, drawn from it; ``blur_width_max``: the camera's blur no larger
    than at a photo this many px long (_photometric)."""
    style_pick = [styles[rng.integers(len(styles))]]
    if rng.random() < 0.15:
        style_pick = styles  # mixed sets happen at clubs too
    st = make_style(rng, style_pick)
    if wear_rng is not None:
        st.wear, st.wear_rng = float(wear_rng.uniform(0.3, 1.0)), wear_rng
    if hand is None:
        hand = rng.random() < 0.6
    if dead_wall:
        placed = dead_wall_layout(rng, st)
    else:
        placed = hand_layout(rng, st, winning, clutter) if hand else random_layout(rng, st)
    if one_block and hand:
        _close_gaps(placed, st)
    if wall_rng is not None:
        _rest_of_the_dead_wall(wall_rng, placed, st)
    turns = _laid_by_hand(loose_rng, placed, loose) if loose > 0 else {}
    band_t = int(st.thickness * TW)
    if sides_rng is not None:
        band_t, pitch = _side_height(sides_rng, pitch)
    xs = [p.x for p in placed] + [p.x + (TH if p.sideways else TW) for p in placed]
    ys = [p.y for p in placed] + [p.y + (TW if p.sideways else TH) + band_t * (2 if p.stacked else 1) for p in placed]
    pad = TW * 0.6
    x0, y0, x1, y1 = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    pw, ph = int(x1 - x0) + 1, int(y1 - y0) + 1
    plane = np.zeros((ph, pw, 4), np.float32)
    shadow = np.zeros((ph, pw), np.float32)
    sdx, sdy = rng.uniform(-0.15, 0.15) * TW, rng.uniform(0.0, 0.2) * TW
    for p in placed:
        w, h = (TH, TW) if p.sideways else (TW, TH)
        px, py = int(p.x - x0 + sdx), int(p.y - y0 + sdy)
        if id(p) in turns:
            corners = _turned((px, py, w, h + band_t), (px + w / 2, py + h / 2), turns[id(p)])
            cv2.fillPoly(shadow, [np.round(corners).astype(np.int32)], 1.0)
        else:
            cv2.rectangle(shadow, (px, py), (px + w, py + h + band_t), 1.0, -1)
    # draw far rows first so nearer tiles cover them
    quads_plane = []
    for p in sorted(placed, key=lambda q: q.y):
        face = tile_face(rng, bank, p.cls, st)
        if p.sideways:
            face = np.ascontiguousarray(np.rot90(face, 1 if rng.random() < 0.5 else -1))
        h, w = face.shape[:2]
        px, py = int(round(p.x - x0)), int(round(p.y - y0))
        quad = np.array([[px, py], [px + w, py], [px + w, py + h], [px, py + h]], np.float32)
        if id(p) in turns:  # the tile with its edges drawn upright on a sheet of its own, then turned onto the plane
            m = int(TH * 0.3) + 2 * band_t
            sheet = np.zeros((h + 2 * m, w + 2 * m, 4), np.float32)
            _tile_with_edges(rng, sheet, face, p, st, band_t, m, m)
            centre = (m + w / 2, m + h / 2)
            paste(plane, _turn_sheet(sheet, centre, turns[id(p)]), px - m, py - m)
            quad = _turned((px, py, w, h), (px + w / 2, py + h / 2), turns[id(p)]).astype(np.float32)
        else:
            _tile_with_edges(rng, plane, face, p, st, band_t, px, py)
        quads_plane.append((p, quad))
    if out_size is None:
        ow = int(rng.integers(640, 1500))
        oh = int(ow * rng.choice([0.75, 0.5625, 0.66]))
    else:
        ow, oh = out_size
    fill = rng.uniform(*fill)
    Hm = _homography(rng, (0, 0, pw, ph), ow, oh, fill, tilt, pitch, yaw, yaw_rng)
    bg = background(rng, ow, oh)
    k = int(TW * 0.3) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    sh = cv2.warpPerspective(shadow, Hm, (ow, oh))
    bg *= (1 - rng.uniform(0.25, 0.6) * sh)[..., None]
    warped = cv2.warpPerspective(plane, Hm, (ow, oh), flags=cv2.INTER_AREA if fill < 0.5 else cv2.INTER_LINEAR)
    a = warped[..., 3:4] / 255.0
    img = bg * (1 - a) + warped[..., :3] * a
    img = _photometric(rng, img[..., ::-1], blur_width_max)
    labels = []
    for p, q in quads_plane:
        qq = cv2.perspectiveTransform(q[None], Hm)[0]
        labels.append(TileLabel(p.cls, qq, p.sideways, p.row, p.group, p.role, p.meld))
    return img, labels


def _mpsz(tiles: list[str]) -> str:
    def num(t: str) -> float:
        return 5.5 if t[0] == "0" else int(t[0])

    return "".join("".join(t[0] for t in sorted(tiles, key=num) if t[-1] == suit) + suit
                   for suit in "mpszf" if any(t[-1] == suit for t in tiles))


def labels_to_json(labels: list[TileLabel], hand: bool) -> dict:
    """The label file read by training/evaluate.py: tiles in reading order (rows top to bottom, then left to
    right) and, for hand scenes, the request the photo stands for, taken from how the scene was built."""
    ordered = sorted(labels, key=lambda lb: (lb.row, (lb.box[0] + lb.box[2]) / 2, -lb.box[1]))
    tiles = [{"tile": lb.cls, "box": [round(v, 1) for v in lb.box], "sideways": lb.sideways, "row": lb.row}
             for lb in ordered]
    out: dict = {"tiles": tiles}
    if hand:
        concealed = [lb.cls for lb in ordered if lb.role == "concealed"]
        win = [lb.cls for lb in ordered if lb.role == "win"]
        melds = []
        for g in sorted({lb.group for lb in ordered if lb.role == "meld"}):
            ts = [lb for lb in ordered if lb.role == "meld" and lb.group == g]
            kind = ts[0].meld
            faces = [lb.cls for lb in ts if lb.cls != "x"]
            if kind == "ankan":
                plain = faces[0].replace("0", "5")
                faces = faces + [plain] * (4 - len(faces))
            melds.append({"type": kind, "tiles": _mpsz(faces)})
        out["request"] = {"hand": _mpsz(concealed + win), "melds": melds, "win_tile": win[0],
                          "dora_indicators": [lb.cls for lb in ordered if lb.role == "dora" and lb.cls != "x"]}
    return out


if __name__ == "__main__":
    import sys

    from training.faces import build_bank

    bank = build_bank(0, n_procedural=4)
    rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    for i in range(4):
        img, labels = render_scene(rng, bank, bank.styles())
        for lb in labels:
            x1, y1, x2, y2 = (int(v) for v in lb.box)
            cv2.rectangle(img, (x1, y1), (x2, y2), (0, 0, 255) if lb.sideways else (0, 255, 0), 1)
            cv2.putText(img, lb.cls, (x1, y1 - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 0, 255), 1)
        cv2.imwrite(f"/tmp/vis/scene{i}.jpg", img)


# ---------------------------------------------------------------- things on the table that are no tiles

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + "麻雀東南西北中發白荘点棒"


def _free(boxes: list, cx: float, cy: float, reach: float) -> bool:
    return all(not (b[0] - reach < cx < b[2] + reach and b[1] - reach < cy < b[3] + reach) for b in boxes)


def draw_distractors(rng: np.random.Generator, img: np.ndarray, boxes: list, fonts: list) -> list:
    """Draw on the photo (BGR uint8, in place) what lies on a real table beside the tiles: point sticks with
    their dots, dice, coins, a mat's printed lines, rings and lettering; nothing inside a tile's box. Returns
    tile-sized windows on them, [(box, sideways)], to show the verifier what is no tile."""
    from PIL import Image, ImageDraw, ImageFont

    h, w = img.shape[:2]
    tw = float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes]))
    th = tw * 1.33
    windows = []
    photo, img = img, img.copy()  # drawn on a copy, then copied back outside the tiles: things lie beside them

    def window_at(cx: float, cy: float) -> None:
        k = rng.uniform(0.75, 1.25)
        side = bool(rng.random() < 0.3)
        bw, bh = (th, tw) if side else (tw, th)
        cx, cy = cx + rng.normal(0, 0.2) * tw, cy + rng.normal(0, 0.2) * tw
        windows.append(((cx - bw * k / 2, cy - bh * k / 2, cx + bw * k / 2, cy + bh * k / 2), side))

    for _ in range(int(rng.integers(2, 7))):
        kind = rng.choice(["stick", "stick", "dice", "coin", "print", "letters"])
        reach = {"stick": 2.2 * tw, "print": 0.0, "letters": 2.0 * tw}.get(str(kind), 0.8 * tw)
        for _try in range(20):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if kind == "print" or _free(boxes, cx, cy, reach):
                break
        else:
            continue
        if kind == "stick":
            length, thick = tw * rng.uniform(2.0, 4.0), max(2, int(tw * rng.uniform(0.12, 0.35)))
            a = rng.uniform(0, np.pi)
            dx, dy = np.cos(a) * length / 2, np.sin(a) * length / 2
            body = tuple(int(v) for v in rng.uniform(195, 250) * rng.uniform(0.92, 1.0, 3))
            p1, p2 = (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy))
            cv2.line(img, (p1[0] + 2, p1[1] + 3), (p2[0] + 2, p2[1] + 3), (30, 30, 30), thick, cv2.LINE_AA)
            cv2.line(img, p1, p2, body, thick, cv2.LINE_AA)
            n_dots = int(rng.choice([1, 2, 5, 6, 8, 9]))
            ink = [(30, 30, 190), (25, 25, 25), (150, 60, 20)][rng.integers(3)]
            for t in np.linspace(-0.35, 0.35, n_dots):
                cv2.circle(img, (int(cx + 2 * dx * t), int(cy + 2 * dy * t)), max(1, thick // 4), ink, -1, cv2.LINE_AA)
            for t in rng.uniform(-0.45, 0.45, 2):
                window_at(cx + 2 * dx * t, cy + 2 * dy * t)
        elif kind == "dice":
            r = tw * rng.uniform(0.18, 0.35)
            col = (230, 230, 235) if rng.random() < 0.7 else (40, 40, 200)
            cv2.rectangle(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), col, -1)
            for _pip in range(int(rng.integers(1, 7))):
                cv2.circle(img, (int(cx + rng.uniform(-0.6, 0.6) * r), int(cy + rng.uniform(-0.6, 0.6) * r)),
                           max(1, int(r * 0.15)), (20, 20, 20) if col[0] > 100 else (240, 240, 240), -1)
            window_at(cx, cy)
        elif kind == "coin":
            r = tw * rng.uniform(0.25, 0.45)
            col = tuple(int(v) for v in rng.uniform(90, 200) * np.array([0.6, 0.85, 1.0]))
            cv2.circle(img, (int(cx), int(cy)), int(r), col, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.75), tuple(int(v * 0.8) for v in col), 2, cv2.LINE_AA)
            window_at(cx, cy)
        elif kind == "print":
            col = tuple(int(v) for v in rng.uniform(150, 250, 3))
            thick = int(rng.integers(2, 9))
            if rng.random() < 0.5:
                rise = rng.uniform(-0.2, 0.2) * h
                cv2.line(img, (0, int(cy)), (w, int(cy + rise)), col, thick, cv2.LINE_AA)
                for x in rng.uniform(0, w, 2):
                    if _free(boxes, x, cy + rise * x / w, tw):
                        window_at(x, cy + rise * x / w)
            else:
                rad = rng.uniform(0.05, 0.4) * w
                cv2.circle(img, (int(cx), int(cy)), int(rad), col, thick, cv2.LINE_AA)
                for a in rng.uniform(0, 2 * np.pi, 2):
                    x, y = cx + rad * np.cos(a), cy + rad * np.sin(a)
                    if _free(boxes, x, y, tw):
                        window_at(x, y)
        else:
            n = int(rng.integers(1, 7))
            text = "".join(LETTERS[i] for i in rng.integers(len(LETTERS), size=n))
            size = int(th * rng.uniform(0.5, 1.4))
            font = ImageFont.truetype(fonts[rng.integers(len(fonts))][0], size)
            mask = Image.new("L", (w, h))
            ImageDraw.Draw(mask).text((cx - size * n / 2, cy - size / 2), text, fill=255, font=font,
                                      stroke_width=int(rng.integers(0, 3)))
            alpha = np.asarray(mask, np.float32)[..., None] / 255.0
            col = np.array(rng.uniform(170, 250, 3) if rng.random() < 0.7 else rng.uniform(10, 80, 3), np.float32)
            img[:] = (img * (1 - alpha) + col * alpha).astype(np.uint8)
            for _k in range(min(n, 3)):
                window_at(cx + rng.uniform(-0.5, 0.5) * size * n, cy)
    beside = np.ones((h, w), bool)
    for x1, y1, x2, y2 in boxes:
        beside[max(0, int(y1) - 1):int(y2 + 0.7 * tw) + 2, max(0, int(x1) - 1):int(x2) + 2] = False  # and the edge
    photo[beside] = img[beside]
    # windows that would cut into a tile are dropped: a tile's crop must never be taught as no tile
    return [(b, s) for b, s in windows if _free(boxes, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, 0.9 * tw)
            and 0 <= (b[0] + b[2]) / 2 < w and 0 <= (b[1] + b[3]) / 2 < h]
