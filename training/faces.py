"""Tile face pictures for the synthetic data: two art styles from shared/tile-art and procedurally drawn sets.

A face is an RGBA overlay (FACE_W x FACE_H) that the scene renderer puts on a tile body of its own colour.
Procedural faces vary what real sets vary: fonts, ink colours, stroke weight, circle and bamboo geometry,
corner numerals, red-five designs and flower pictures, so the classifier learns the symbol, not one drawing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.vision.preprocess import scaled_box

FACE_W, FACE_H = 120, 160

ALL_CLASSES = (
    [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + ["0m", "0p", "0s"]
    + [f"{n}f" for n in range(1, 9)]
    + ["x"]
)
CLASS_INDEX = {c: i for i, c in enumerate(ALL_CLASSES)}

ART = Path(__file__).resolve().parents[2] / "shared" / "tile-art"

# (file, faces in it, Debian package): every one is needed, since the faces drawn depend on the whole list
FONT_FILES = [
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", (0, 3), "fonts-noto-cjk"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", (0, 3), "fonts-noto-cjk"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", (0, 3), "fonts-noto-cjk"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", (0, 3), "fonts-noto-cjk"),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", (0, 1), "fonts-arphic-ukai"),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", (0, 1), "fonts-arphic-uming"),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", (0,), "fonts-wqy-zenhei"),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", (0,), "fonts-wqy-microhei"),
]
FONT_PACKAGES = sorted({package for _, _, package in FONT_FILES})

# Brush-written fonts, as many real sets print their characters, winds and dragons, for the brush sets (build_bank's
# n_brush, train --brush; none of the earlier stages draws with them). Aoyagi Kouzan T has no 萬 and no 發 or 发:
# its sets print 万, and their green dragon is drawn in the first font (procedural_set's ``fallback``).
BRUSH_FONT_FILES = [
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", "fonts-kouzan-mouhitsu"),
    ("/usr/share/fonts/truetype/aoyagi-kouzan-t/AoyagiKouzanT.ttf", "fonts-aoyagi-kouzan-t"),
]
BRUSH_FONT_PACKAGES = sorted({package for _, package in BRUSH_FONT_FILES})

# Fonts no net was ever trained on, for the second held-out style (make_eval --style fonts, add_unseen_fonts):
# brush-written gyosho and kaisho (Kouzan's running hand, Aoyagi Soseki), other kaishu, Mincho and a handwriting
# font. In neither FONT_FILES nor BRUSH_FONT_FILES: training draws only from those.
UNSEEN_FONT_FILES = [
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", "fonts-kouzan-mouhitsu"),
    ("/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf", "fonts-aoyagi-soseki"),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", "fonts-lxgw-wenkai"),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", "fonts-lxgw-wenkai"),
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai"),
    ("/usr/share/fonts/truetype/cwtex/cwming.ttf", "fonts-cwtex-ming"),
    ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", "fonts-klee"),
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", "fonts-ipafont-mincho"),
    ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", "fonts-morisawa-bizud-mincho"),
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", "fonts-hanazono"),
]
UNSEEN_FONT_PACKAGES = sorted({package for _, package in UNSEEN_FONT_FILES})

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = "梅蘭菊竹"
SEASONS = "春夏秋冬"


@dataclass
class FaceBank:
    """Faces per class, grouped by style so one style can be held out."""

    faces: dict[str, dict[str, list[np.ndarray]]] = field(default_factory=dict)

    def add(self, style: str, cls: str, rgba: np.ndarray) -> None:
        self.faces.setdefault(style, {}).setdefault(cls, []).append(rgba)

    def styles(self) -> list[str]:
        return sorted(self.faces)

    def pick(self, rng: np.random.Generator, cls: str, styles: list[str]) -> tuple[np.ndarray, str]:
        options = [s for s in styles if self.faces.get(s, {}).get(cls)]
        if not options:
            # a style without flowers (FluffyStuff) borrows them from the procedural sets
            options = [s for s in self.faces if s.startswith("proc") and self.faces[s].get(cls)]
        style = options[rng.integers(len(options))]
        faces = self.faces[style][cls]
        return faces[rng.integers(len(faces))], style


def _fonts() -> list[tuple[str, int]]:
    """Every face of every font file, or SystemExit naming the packages missing: a font picked at random from a
    shorter list draws other glyphs, so training sets, evaluation sets and the int8 calibration photos of a
    machine with only some of the fonts differ from everyone else's (session 16 trained on three packages of five
    and could not remake the shipped int8 classifier)."""
    missing = sorted({package for path, _, package in FONT_FILES if not Path(path).exists()})
    if missing:
        raise SystemExit(f"CJK fonts missing ({', '.join(missing)}): apt-get install {' '.join(FONT_PACKAGES)}")
    return [(path, i) for path, indices, _ in FONT_FILES for i in indices]


def _to_rgba(png: bytes | np.ndarray) -> np.ndarray:
    if isinstance(png, bytes):
        im = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    else:
        im = png
    im = cv2.cvtColor(im, cv2.COLOR_BGRA2RGBA)
    return cv2.resize(im, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def _recolour_red(rgba: np.ndarray) -> np.ndarray:
    """A red five drawn from a plain five: every inked pixel turned red, as many sets do."""
    out = rgba.copy()
    lum = out[..., :3].mean(axis=2, keepdims=True) / 255.0
    red = np.array([200, 20, 30], np.float32)
    out[..., :3] = np.clip(red * (0.4 + 0.6 * lum), 0, 255).astype(np.uint8)
    return out


# ---------------------------------------------------------------- art styles

FLUFFY = {
    **{f"Man{n}": f"{n}m" for n in range(1, 10)},
    **{f"Pin{n}": f"{n}p" for n in range(1, 10)},
    **{f"Sou{n}": f"{n}s" for n in range(1, 10)},
    "Man5-Dora": "0m", "Pin5-Dora": "0p", "Sou5-Dora": "0s",
    "Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z", "Haku": "5z", "Hatsu": "6z", "Chun": "7z",
}

UNI = {
    **{f"t_ch{n}": f"{n}m" for n in range(1, 10)},
    **{f"t_do{n}": f"{n}p" for n in range(1, 10)},
    **{f"t_ba{n}": f"{n}s" for n in range(1, 10)},
    "t_wi_east": "1z", "t_wi_south": "2z", "t_wi_west": "3z", "t_wi_north": "4z",
    "t_dr_white": "5z", "t_dr_green": "6z", "t_dr_red": "7z",
    "t_fl_plum": "1f", "t_fl_orchid": "2f", "t_fl_chrysanthemum": "3f", "t_fl_bamboo": "4f",
    "t_se_spring": "5f", "t_se_summer": "6f", "t_se_fall": "7f", "t_se_winter": "8f",
}


def _art() -> None:
    if not (ART / "Export").is_dir():
        raise SystemExit(f"the tile art is missing: expected FluffyStuff's PNG exports in {ART / 'Export'} "
                         "(shared/tile-art next to the repository, see models/MODEL_CARD.md)")


def check_inputs() -> None:
    """SystemExit saying what is missing when the fonts or the tile art a bank is drawn from are not there."""
    _fonts()
    _art()


def add_fluffy(bank: FaceBank) -> None:
    """FluffyStuff Regular (light body) and Black (dark body) from the PNG exports. Missing art stops the
    run: a model trained without it would only show in its numbers (a worktree without ../shared once did)."""
    _art()
    for variant in ("Regular", "Black"):
        folder = ART / "Export" / variant
        for stem, cls in FLUFFY.items():
            im = cv2.imread(str(folder / f"{stem}.png"), cv2.IMREAD_UNCHANGED)
            if im is None:
                continue
            rgba = _to_rgba(im)
            # the art leaves a margin for the body's rim; crop it so the symbol fills the face like real tiles
            bank.add(f"fluffy-{variant.lower()}", cls, rgba)


def add_uni(bank: FaceBank) -> None:
    """The Unicode-chart style (ffalt/mah uni.svg); needs cairosvg (training extra)."""
    import cairosvg

    text = (ART / "extra-ffalt-mah" / "uni.svg").read_text()
    defs = text[text.index("<defs>"): text.index("</defs>") + 7]
    for sym, cls in UNI.items():
        wrapper = (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{FACE_W * 2}" height="{FACE_H * 2}" viewBox="-3 -4 80.7 103.1">{defs}'
            f'<use xlink:href="#{sym}" width="74.7" height="95.1"/></svg>'
        )
        rgba = _to_rgba(cairosvg.svg2png(bytestring=wrapper.encode()))
        bank.add("uni", cls, rgba)
        if cls in ("5m", "5p", "5s"):
            bank.add("uni", "0" + cls[1], _recolour_red(rgba))
    assert re  # keeps the import for symbol discovery in notebooks


# ---------------------------------------------------------------- procedural


class Painter:
    """Draws one face at 2x and downsamples, so thin strokes stay antialiased."""

    S = 2

    def __init__(self) -> None:
        self.img = Image.new("RGBA", (FACE_W * self.S, FACE_H * self.S), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.img)

    def text(self, s: str, font: tuple[str, int], box: tuple[float, float, float, float], fill: tuple,
             stroke: int = 0) -> None:
        """Fit text into box (fractions of the face) keeping its aspect."""
        x0, y0, x1, y1 = (v * d * self.S for v, d in zip(box, (FACE_W, FACE_H, FACE_W, FACE_H), strict=True))
        size = 64
        f = ImageFont.truetype(font[0], size, index=font[1])
        bb = self.draw.textbbox((0, 0), s, font=f, stroke_width=stroke)
        w, h = bb[2] - bb[0], bb[3] - bb[1]
        scale = min((x1 - x0) / max(w, 1), (y1 - y0) / max(h, 1))
        size = max(6, int(size * scale))
        f = ImageFont.truetype(font[0], size, index=font[1])
        bb = self.draw.textbbox((0, 0), s, font=f, stroke_width=stroke)
        w, h = bb[2] - bb[0], bb[3] - bb[1]
        ox = x0 + (x1 - x0 - w) / 2 - bb[0]
        oy = y0 + (y1 - y0 - h) / 2 - bb[1]
        self.draw.text((ox, oy), s, font=f, fill=fill, stroke_width=stroke, stroke_fill=fill)

    def circle(self, cx: float, cy: float, r: float, outline: tuple, fill: tuple | None, width: float) -> None:
        s = self.S
        self.draw.ellipse(
            [(cx - r) * FACE_W * s, (cy - r * FACE_W / FACE_H) * FACE_H * s,
             (cx + r) * FACE_W * s, (cy + r * FACE_W / FACE_H) * FACE_H * s],
            outline=outline, fill=fill, width=max(1, int(width * FACE_W * s)),
        )

    def rect(self, box: tuple, outline: tuple | None, fill: tuple | None, width: float, radius: float = 0) -> None:
        s = self.S
        xy = [box[0] * FACE_W * s, box[1] * FACE_H * s, box[2] * FACE_W * s, box[3] * FACE_H * s]
        self.draw.rounded_rectangle(xy, radius=radius * FACE_W * s, outline=outline, fill=fill,
                                    width=max(1, int(width * FACE_W * s)))

    def line(self, pts: list[tuple[float, float]], fill: tuple, width: float) -> None:
        s = self.S
        self.draw.line([(x * FACE_W * s, y * FACE_H * s) for x, y in pts], fill=fill,
                       width=max(1, int(width * FACE_W * s)), joint="curve")

    def polygon(self, pts: list[tuple[float, float]], outline: tuple | None, fill: tuple | None, width: float) -> None:
        s = self.S
        self.draw.polygon([(x * FACE_W * s, y * FACE_H * s) for x, y in pts], outline=outline, fill=fill,
                          width=max(1, int(width * FACE_W * s)))

    def result(self) -> np.ndarray:
        return np.asarray(self.img.resize((FACE_W, FACE_H), Image.Resampling.LANCZOS))


def _jitter(rng: np.random.Generator, base: tuple[int, int, int], amount: int = 35) -> tuple[int, int, int, int]:
    c = np.clip(np.array(base) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]), 255)


INKS = {
    "black": (20, 20, 25), "blue": (25, 45, 140), "navy": (20, 30, 80), "green": (20, 110, 50),
    "red": (190, 25, 30), "darkred": (140, 20, 25),
}


class Palette:
    """One imaginary tile set's colours: the same set paints all its tiles with it."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.dark = _jitter(rng, INKS[rng.choice(["black", "blue", "navy", "black"])])
        self.red = _jitter(rng, INKS[rng.choice(["red", "darkred"])])
        self.green = _jitter(rng, INKS["green"], 40)
        self.blue = _jitter(rng, INKS[rng.choice(["blue", "navy"])], 40)
        self.wind = self.dark if rng.random() < 0.6 else self.blue
        self.man_top = self.dark if rng.random() < 0.85 else self.blue
        self.weight = float(rng.uniform(0, 1))
        self.pin_style = int(rng.integers(4))
        self.sou_style = int(rng.integers(3))
        self.corner = rng.random() < 0.3
        self.red_five = int(rng.integers(3))
        self.man_glyph = "萬" if rng.random() < 0.75 else "万"
        self.five_glyph = "五" if rng.random() < 0.7 else "伍"
        self.fa_glyph = "發" if rng.random() < 0.8 else "发"
        self.haku = int(rng.integers(3))
        self.font = None
        self.big_pins = False  # two and three of circles drawn up to BIG_PIN_RADIUS (procedural_set's big_pins; no draw)
        self.whole_eights = False  # the eight of bamboo's middle sticks drawn as its others (_eights_middle; no draw)


INKS_MORE = {"brown": (95, 55, 25), "purple": (85, 35, 115), "teal": (10, 95, 105), "orange": (210, 90, 20)}
# red fives printed in dark, brownish or wine reds: old or cheap sets, and any red under warm, dim light
MAROONS = {"maroon": (90, 12, 18), "oxblood": (110, 25, 25), "brownred": (130, 35, 28), "wine": (105, 15, 45)}


class VariedPalette(Palette):
    """A wider spread of real sets' looks: one-colour printing, other ink families, heavier or lighter
    strokes, other proportions, and more bird, circle and bamboo designs. Kept apart from Palette so the
    sets drawn by earlier seeds (and the models made from them) stay reproducible."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        inks = {**INKS, **INKS_MORE}
        if rng.random() < 0.25:  # sets printed in a single ink
            one = _jitter(rng, inks[rng.choice(["black", "navy", "brown", "darkred", "green", "teal"])], 25)
            self.dark = self.red = self.green = self.blue = self.wind = self.man_top = one
            # red fives stay red even in a one-ink set (they are printed red to be seen); fixed colour, no draw
            # from rng, so every other face of these sets stays as it was (before 05:30 they were in the ink)
            self.five_red = (200, 25, 30, 255)
        elif rng.random() < 0.4:
            self.green = _jitter(rng, inks[rng.choice(["green", "teal", "blue"])], 30)
            self.blue = _jitter(rng, inks[rng.choice(["blue", "navy", "purple", "black"])], 30)
            self.red = _jitter(rng, inks[rng.choice(["red", "darkred", "orange"])], 30)
        self.weight = float(rng.uniform(-0.6, 1.8))
        self.pin_style = int(rng.integers(6))
        self.sou_style = int(rng.integers(4))
        self.bird_style = int(rng.integers(4))
        self.bird_left = bool(rng.random() < 0.5)
        self.man_split = float(rng.uniform(0.4, 0.52))  # where the numeral ends and 萬 begins
        self.man_inset = float(rng.uniform(0.1, 0.24))
        self.corner = rng.random() < 0.4


class WidePalette(VariedPalette):
    """Sets further from the ones above: more bird designs (songbird, crane, flying bird, fowl, phoenix-like)
    in outline or filled and in any ink, characters printed smaller with wide margins, and the whole
    picture drawn smaller on the face on some sets. Drawn from its own random stream (build_bank), so
    the Palette and VariedPalette sets of every seed stay as they were."""

    def __init__(self, rng: np.random.Generator) -> None:
        super().__init__(rng)
        inks = {**INKS, **INKS_MORE}
        self.bird_style = int(rng.integers(9)) if rng.random() < 0.35 else int(rng.integers(4, 9))
        self.bird_ink = _jitter(rng, inks[rng.choice(["green", "green", "blue", "navy", "black", "teal", "brown",
                                                       "red", "purple"])], 30)
        self.bird_accent = self.bird_ink if rng.random() < 0.4 else self.red
        self.bird_filled = bool(rng.random() < 0.45)
        self.bird_w = float(rng.uniform(0.01, 0.035))
        self.bird_twig = bool(rng.random() < 0.4)
        lo = float(rng.uniform(0.5, 0.9))
        self.bird_size = (lo, lo + 0.15)
        small = rng.random() < 0.5
        self.num_scale = float(rng.uniform(0.5, 0.85)) if small else float(rng.uniform(0.85, 1.0))
        self.glyph_scale = float(rng.uniform(0.6, 0.9)) if small else float(rng.uniform(0.85, 1.0))
        self.art_scale = float(rng.uniform(0.65, 0.95)) if rng.random() < 0.4 else 1.0


def _scaled(face: np.ndarray, k: float, rng: np.random.Generator) -> np.ndarray:
    """The face picture drawn k times as large, a little off-centre, on an empty face."""
    w, h = max(8, int(FACE_W * k)), max(8, int(FACE_H * k))
    small = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    out = np.zeros_like(face)
    x0 = (FACE_W - w) // 2 + int(rng.integers(-(FACE_W - w) // 4, (FACE_W - w) // 4 + 1))
    y0 = (FACE_H - h) // 2 + int(rng.integers(-(FACE_H - h) // 4, (FACE_H - h) // 4 + 1))
    out[y0:y0 + h, x0:x0 + w] = small
    return out


def _corner(p: Painter, pal: Palette, font: tuple[str, int], label: str) -> None:
    if pal.corner and label:
        p.text(label, font, (0.04, 0.02, 0.24, 0.2), pal.red if label.isdigit() else pal.dark)


def draw_man(pal: Palette, font: tuple[str, int], n: int, red: bool) -> np.ndarray:
    p = Painter()
    stroke = max(0, int(pal.weight * 3))
    five_red = getattr(pal, "five_red", pal.red)
    top_col = five_red if red else pal.man_top
    numeral = pal.five_glyph if n == 5 else NUMERALS[n - 1]
    split = getattr(pal, "man_split", 0.45)
    inset = getattr(pal, "man_inset", 0.18)
    top_box = (inset, 0.06, 1 - inset, split - 0.01)
    glyph_box = (0.14, split + 0.01, 0.86, 0.94)
    if hasattr(pal, "num_scale"):  # real sets print their characters anywhere from edge-filling to small
        top_box = scaled_box(top_box, pal.num_scale)
        glyph_box = scaled_box(glyph_box, pal.glyph_scale)
    p.text(numeral, font, top_box, top_col, stroke)
    glyph_col = five_red if red else pal.red
    if red and pal.red_five == 1:
        glyph_col = (230, 40, 40, 255)
    p.text(pal.man_glyph, font, glyph_box, glyph_col, stroke)
    if red and pal.red_five == 2:
        p.circle(0.85, 0.1, 0.05, pal.red, pal.red, 0.01)
    _corner(p, pal, font, str(n))
    return p.result()


PIN_LAYOUT = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.28, 0.22), (0.72, 0.22), (0.5, 0.5), (0.28, 0.78), (0.72, 0.78)],
    6: [(0.3, 0.18), (0.7, 0.18), (0.3, 0.55), (0.7, 0.55), (0.3, 0.82), (0.7, 0.82)],
    7: [(0.22, 0.14), (0.5, 0.22), (0.78, 0.3), (0.3, 0.58), (0.7, 0.58), (0.3, 0.84), (0.7, 0.84)],
    8: [(0.3, y) for y in (0.14, 0.38, 0.62, 0.86)] + [(0.7, y) for y in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)],
}
PIN_RADIUS = {1: 0.36, 2: 0.17, 3: 0.15, 4: 0.17, 5: 0.16, 6: 0.14, 7: 0.13, 8: 0.12, 9: 0.13}
# a set drawn with big_pins draws its two and three of circles with radii up to these (of the face's width): as large
# as leaves the circles apart at PIN_LAYOUT's spacing (0.55 and 0.43 of the width), as most real sets print them
BIG_PIN_RADIUS = {2: 0.27, 3: 0.2}


def _pin_colours(pal: Palette, n: int, red: bool) -> list[tuple]:
    b, g, r = pal.blue, pal.green, pal.red
    k = len(PIN_LAYOUT[n])
    if red:
        return [getattr(pal, "five_red", r)] * k
    table = {
        1: [r], 2: [g, b], 3: [b, r, g], 4: [b, g, g, b], 5: [b, g, r, g, b], 6: [g, g, r, r, r, r],
        7: [g, g, g, r, r, r, r], 8: [b] * 8, 9: [b, b, b, r, r, r, g, g, g],
    }
    cols = table[n]
    if pal.rng.random() < 0.25:
        cols = [b if c is g else c for c in cols]
    return cols


def _pin(p: Painter, pal: Palette, x: float, y: float, r: float, col: tuple) -> None:
    w = max(0.008, 0.02 + 0.025 * pal.weight)
    st = pal.pin_style
    if st == 0:
        p.circle(x, y, r, col, None, w)
        p.circle(x, y, r * 0.55, col, None, w)
        p.circle(x, y, r * 0.18, col, col, w)
    elif st == 1:
        p.circle(x, y, r, col, col, w)
        p.circle(x, y, r * 0.62, (250, 250, 245, 255), None, w * 0.8)
        p.circle(x, y, r * 0.25, (250, 250, 245, 255), (250, 250, 245, 255), w)
    elif st == 2:
        p.circle(x, y, r, col, None, w * 1.4)
        for k in range(8):
            a = k * np.pi / 4
            p.line([(x + 0.25 * r * np.cos(a), y + 0.25 * r * np.sin(a) * FACE_W / FACE_H),
                    (x + 0.8 * r * np.cos(a), y + 0.8 * r * np.sin(a) * FACE_W / FACE_H)], col, w * 0.8)
    elif st == 3:
        p.circle(x, y, r, col, None, w)
        p.circle(x, y, r * 0.75, col, None, w * 0.6)
        p.circle(x, y, r * 0.4, pal.red, pal.red, w)
    elif st == 4:  # flat printed dot with a thin ring
        p.circle(x, y, r, col, None, w * 0.5)
        p.circle(x, y, r * 0.7, col, col, w * 0.5)
    else:  # fine concentric rings
        for k in (1.0, 0.78, 0.56, 0.34):
            p.circle(x, y, r * k, col, None, w * 0.45)
        p.circle(x, y, r * 0.12, col, col, w * 0.45)


def draw_pin(pal: Palette, n: int, red: bool) -> np.ndarray:
    p = Painter()
    cols = _pin_colours(pal, n, red)
    if pal.big_pins and n in BIG_PIN_RADIUS:  # one draw, as below: the set's other faces stay
        rad = pal.rng.uniform(PIN_RADIUS[n] * 0.9, BIG_PIN_RADIUS[n])
    else:
        rad = PIN_RADIUS[n] * pal.rng.uniform(0.9, 1.08)
    for (x, y), col in zip(PIN_LAYOUT[n], cols, strict=True):
        x = 0.5 + (x - 0.5) * 0.92
        y = 0.5 + (y - 0.5) * 0.9
        _pin(p, pal, x, y, rad, col)
    if n == 1:
        # the big one-circle carries an ornate ring in most sets
        for k in range(16):
            a = k * np.pi / 8
            p.circle(0.5 + 0.3 * np.cos(a), 0.5 + 0.3 * np.sin(a) * FACE_W / FACE_H, 0.035, pal.green, None, 0.012)
    _corner(p, pal, ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0), str(n))
    return p.result()


SOU_LAYOUT = {
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.5, 0.28), (0.3, 0.72), (0.7, 0.72)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.25, 0.28), (0.75, 0.28), (0.5, 0.5), (0.25, 0.72), (0.75, 0.72)],
    6: [(x, y) for y in (0.28, 0.72) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.82) for x in (0.22, 0.5, 0.78)],
    8: [(0.2, 0.28), (0.8, 0.28), (0.2, 0.72), (0.8, 0.72), (0.38, 0.28), (0.62, 0.28), (0.38, 0.72), (0.62, 0.72)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.22, 0.5, 0.78)],
}


def _sou_colours(pal: Palette, n: int, red: bool) -> list[tuple]:
    g, r, b = pal.green, pal.red, pal.blue
    k = len(SOU_LAYOUT[n])
    if red:
        return [getattr(pal, "five_red", r)] * k
    cols = [g] * k
    if n == 5:
        cols[2] = r
    if n == 7:
        cols[0] = r
    if n == 9:
        cols[1] = cols[4] = cols[7] = r
    if n in (3, 6, 8) and pal.rng.random() < 0.3:
        cols[0] = b
    return cols


def _stick_width(pal: Palette) -> float:
    """A bamboo stick's width (of the face's width) in the set's stroke weight."""
    return max(0.035, 0.06 + 0.03 * pal.weight)


def _stick(p: Painter, pal: Palette, x: float, y: float, h: float, col: tuple, tilt: float = 0.0) -> None:
    w = _stick_width(pal)
    if pal.sou_style == 3:  # two outlines with joints, as engraved sets draw bamboo
        p.line([(x - w / 2, y - h / 2), (x - w / 2, y + h / 2)], col, 0.012)
        p.line([(x + w / 2, y - h / 2), (x + w / 2, y + h / 2)], col, 0.012)
        for k in (-0.5, -0.17, 0.17, 0.5):
            p.line([(x - w / 2 - 0.01, y + k * h), (x + w / 2 + 0.01, y + k * h)], col, 0.016)
    elif pal.sou_style == 0:
        p.rect((x - w / 2, y - h / 2, x + w / 2, y + h / 2), col, col, 0.01, radius=w / 2)
        p.line([(x - w / 2, y), (x + w / 2, y)], (250, 250, 245, 255), 0.012)
    elif pal.sou_style == 1:
        p.rect((x - w / 2, y - h / 2, x + w / 2, y + h / 2), col, None, 0.016, radius=w / 3)
        p.line([(x, y - h / 2 + 0.02), (x, y + h / 2 - 0.02)], col, 0.01)
    else:
        for k in (-1, 0, 1):
            yy = y + k * h / 3
            p.rect((x - w / 2, yy - h / 6 + 0.005, x + w / 2, yy + h / 6 - 0.005), col, col, 0.01, radius=w / 4)
    _ = tilt


def _bird_outline(p: Painter, pal: Palette) -> None:
    """A line drawing: body, head, wing and tail as thin strokes in one or two inks, facing either way."""
    rng = pal.rng
    f = -1.0 if pal.bird_left else 1.0

    def fx(x: float) -> float:
        return 0.5 + f * (x - 0.5)

    ink = pal.dark if rng.random() < 0.5 else pal.green
    w = float(rng.uniform(0.012, 0.03))
    body = [(0.25, 0.55), (0.35, 0.4), (0.52, 0.36), (0.62, 0.28), (0.7, 0.3), (0.66, 0.42), (0.6, 0.6),
            (0.45, 0.7), (0.3, 0.66), (0.25, 0.55)]
    p.line([(fx(x), y + rng.uniform(-0.02, 0.02)) for x, y in body], ink, w)
    p.line([(fx(0.7), 0.3), (fx(0.8), 0.32), (fx(0.7), 0.34)], pal.red, w)
    p.line([(fx(0.36), 0.5), (fx(0.5), 0.45), (fx(0.55), 0.56)], ink, w)  # wing
    for k in range(int(rng.integers(3, 7))):
        p.line([(fx(0.27), 0.6), (fx(0.05 + 0.04 * k), 0.7 + 0.05 * k)], ink, w * 0.8)  # tail
    p.line([(fx(0.45), 0.7), (fx(0.43), 0.88)], ink, w)
    p.line([(fx(0.52), 0.68), (fx(0.56), 0.88)], ink, w)


def _bird_peacock(p: Painter, pal: Palette) -> None:
    """A fanned tail of feather eyes behind a small body."""
    rng = pal.rng
    n = int(rng.integers(5, 9))
    for k in range(n):
        a = np.pi * (0.15 + 0.7 * k / (n - 1))
        x, y = 0.5 + 0.34 * np.cos(a), 0.62 - 0.42 * np.sin(a)
        p.line([(0.5, 0.66), (x, y)], pal.green, 0.012)
        p.circle(x, y, 0.06, pal.green, None, 0.015)
        p.circle(x, y, 0.025, pal.blue, pal.blue, 0.01)
    p.circle(0.5, 0.7, 0.09, pal.blue, pal.blue, 0.02)
    p.circle(0.5, 0.56, 0.045, pal.blue, pal.blue, 0.02)
    p.line([(0.47, 0.79), (0.45, 0.92)], pal.red, 0.02)
    p.line([(0.53, 0.79), (0.55, 0.92)], pal.red, 0.02)


def _one_stick(p: Painter, pal: Palette) -> None:
    """The one of bamboo as a single large stick (some Chinese sets), often with a leaf or knot."""
    _stick(p, pal, 0.5, 0.5, 0.7, pal.green)
    if pal.rng.random() < 0.6:
        p.line([(0.5, 0.35), (0.72, 0.22), (0.8, 0.28)], pal.green, 0.03)
        p.circle(0.5, 0.5, 0.07, pal.red, pal.red, 0.01)


# Birds for the one of bamboo drawn by WidePalette sets. Real sets draw anything from a peacock filling the
# tile to a small songbird, a crane or a flying bird in outline, in one ink or several, facing either way.
# Shapes are given in a unit square (u right, v down, -1..1) and placed at a per-tile centre and size.


def _place(pal: Palette, cx: float, cy: float, k: float, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    f = -1.0 if pal.bird_left else 1.0
    return [(cx + f * u * k * 0.5, cy + v * k * 0.5 * FACE_W / FACE_H) for u, v in pts]


def _ellipse(u: float, v: float, ru: float, rv: float, n: int = 20) -> list[tuple[float, float]]:
    return [(u + ru * np.cos(a), v + rv * np.sin(a)) for a in np.linspace(0, 2 * np.pi, n, endpoint=False)]


def _shape(p: Painter, pts: list[tuple[float, float]], ink: tuple, filled: bool, w: float) -> None:
    if filled:
        p.polygon(pts, ink, ink, w)
    else:
        p.line(pts + pts[:1], ink, w)


SONGBIRD = [(0.85, -0.48), (0.6, -0.58), (0.55, -0.72), (0.4, -0.78), (0.22, -0.7), (0.12, -0.5), (-0.2, -0.35),
            (-0.55, -0.05), (-0.95, 0.3), (-0.9, 0.4), (-0.55, 0.25), (-0.3, 0.4), (0.05, 0.42), (0.35, 0.25),
            (0.5, 0.0), (0.55, -0.35), (0.62, -0.42)]


def _bird_songbird(p: Painter, pal: Palette, cx: float, cy: float, k: float) -> None:
    """A small bird in profile, perched (sometimes on a twig), outlined or filled."""
    ink, w, filled = pal.bird_ink, pal.bird_w, pal.bird_filled
    _shape(p, _place(pal, cx, cy, k, SONGBIRD), ink, filled, w)
    detail = (250, 250, 245, 255) if filled else ink
    p.line(_place(pal, cx, cy, k, [(0.3, -0.25), (-0.1, -0.05), (-0.45, 0.1), (-0.1, 0.15), (0.25, 0.05)]), detail, w * 0.8)
    ex, ey = _place(pal, cx, cy, k, [(0.38, -0.6)])[0]
    p.circle(ex, ey, 0.012 * k + 0.006, detail, detail, 0.005)
    for leg in ([(0.05, 0.42), (0.0, 0.75)], [(0.22, 0.35), (0.24, 0.75)]):
        p.line(_place(pal, cx, cy, k, leg), pal.bird_accent, w)
    if pal.bird_twig:
        p.line(_place(pal, cx, cy, k, [(-0.7, 0.78), (0.1, 0.74), (0.85, 0.82)]), pal.bird_accent, w * 1.2)


def _bird_crane(p: Painter, pal: Palette, cx: float, cy: float, k: float) -> None:
    """A standing crane or heron: long neck and legs, a red crown on some."""
    ink, w = pal.bird_ink, pal.bird_w
    _shape(p, _place(pal, cx, cy, k, _ellipse(-0.1, 0.05, 0.45, 0.25)), ink, pal.bird_filled, w)
    p.line(_place(pal, cx, cy, k, [(0.25, -0.05), (0.42, -0.45), (0.48, -0.8)]), ink, w * 1.3)
    hx, hy = _place(pal, cx, cy, k, [(0.48, -0.82)])[0]
    p.circle(hx, hy, 0.05 * k, ink, ink if pal.bird_filled else None, w)
    p.line(_place(pal, cx, cy, k, [(0.52, -0.82), (0.92, -0.72)]), pal.bird_accent, w)
    if pal.rng.random() < 0.6:
        p.circle(hx, hy - 0.02 * k, 0.022 * k + 0.004, pal.red, pal.red, 0.005)
    for tail in ([(-0.5, 0.0), (-0.85, 0.2)], [(-0.5, 0.08), (-0.8, 0.35)]):
        p.line(_place(pal, cx, cy, k, tail), ink, w)
    for leg in ([(-0.05, 0.28), (-0.08, 0.95)], [(0.1, 0.28), (0.16, 0.95)]):
        p.line(_place(pal, cx, cy, k, leg), pal.bird_accent, w * 0.8)


def _bird_flying(p: Painter, pal: Palette, cx: float, cy: float, k: float) -> None:
    """A bird in flight seen from the side: wings raised in a V, forked tail."""
    ink, w, filled = pal.bird_ink, pal.bird_w, pal.bird_filled
    _shape(p, _place(pal, cx, cy, k, _ellipse(0.0, 0.1, 0.45, 0.16)), ink, filled, w)
    _shape(p, _place(pal, cx, cy, k, [(-0.1, 0.0), (-0.75, -0.8), (-0.45, -0.05)]), ink, filled, w)
    _shape(p, _place(pal, cx, cy, k, [(0.1, 0.0), (0.55, -0.9), (0.35, -0.02)]), ink, filled, w)
    _shape(p, _place(pal, cx, cy, k, [(-0.4, 0.12), (-0.9, 0.45), (-0.7, 0.15), (-0.95, 0.05)]), ink, filled, w)
    hx, hy = _place(pal, cx, cy, k, [(0.52, 0.02)])[0]
    p.circle(hx, hy, 0.045 * k, ink, ink, w)
    p.line(_place(pal, cx, cy, k, [(0.6, 0.02), (0.8, 0.08)]), pal.bird_accent, w)


def _bird_fowl(p: Painter, pal: Palette, cx: float, cy: float, k: float) -> None:
    """A round-bodied bird (fowl, duck, sparrow) built from an oval body, round head, beak and tail fan."""
    ink, w, filled = pal.bird_ink, pal.bird_w, pal.bird_filled
    for t in range(int(pal.rng.integers(2, 5))):
        a = -0.5 - 0.35 * t
        p.line(_place(pal, cx, cy, k, [(-0.45, 0.05), (-0.45 + 0.6 * np.cos(np.pi + a), 0.05 + 0.6 * np.sin(np.pi + a))]),
               pal.bird_accent if t % 2 else ink, w)
    _shape(p, _place(pal, cx, cy, k, _ellipse(-0.05, 0.15, 0.5, 0.38)), ink, filled, w)
    _shape(p, _place(pal, cx, cy, k, _ellipse(0.42, -0.35, 0.2, 0.2, 14)), ink, filled, w)
    _shape(p, _place(pal, cx, cy, k, [(0.6, -0.4), (0.85, -0.32), (0.6, -0.28)]), pal.bird_accent, True, w)
    if not filled:
        p.line(_place(pal, cx, cy, k, [(0.2, 0.0), (-0.15, 0.15), (-0.35, 0.1)]), ink, w * 0.8)
    for leg in ([(-0.05, 0.5), (-0.08, 0.85)], [(0.12, 0.48), (0.15, 0.85)]):
        p.line(_place(pal, cx, cy, k, leg), pal.bird_accent, w)


def _bird_swirl(p: Painter, pal: Palette, cx: float, cy: float, k: float) -> None:
    """A phoenix-like bird: small head and body, long curling tail plumes in several inks."""
    ink, w = pal.bird_ink, pal.bird_w
    _shape(p, _place(pal, cx, cy, k, _ellipse(0.25, -0.2, 0.25, 0.18)), ink, pal.bird_filled, w)
    hx, hy = _place(pal, cx, cy, k, [(0.5, -0.5)])[0]
    p.circle(hx, hy, 0.04 * k, ink, ink, w)
    p.line(_place(pal, cx, cy, k, [(0.54, -0.5), (0.75, -0.45)]), pal.bird_accent, w)
    for j, col in enumerate((ink, pal.bird_accent, pal.green, ink)):
        t = np.linspace(0, 1, 12)
        r = 0.35 + 0.6 * t
        a = np.pi * (0.3 + 0.25 * j) + 2.2 * t
        p.line(_place(pal, cx, cy, k, [(0.1 - r_ * np.cos(a_), 0.1 + r_ * np.sin(a_) * 0.9)
                                        for r_, a_ in zip(r, a, strict=True)]), col, w * 0.9)


WIDE_BIRDS = (_bird_songbird, _bird_crane, _bird_flying, _bird_fowl, _bird_swirl)


def _bird(p: Painter, pal: Palette) -> None:
    style = getattr(pal, "bird_style", 0)
    if style >= 4:
        rng = pal.rng
        k = float(rng.uniform(*pal.bird_size))
        cx, cy = float(rng.uniform(0.45, 0.55)), float(rng.uniform(0.45, 0.58))
        WIDE_BIRDS[style - 4](p, pal, cx, cy, k)
        return
    if style:
        (_bird_outline, _bird_peacock, _one_stick)[style - 1](p, pal)
        return
    rng = pal.rng
    body = pal.green if rng.random() < 0.6 else pal.blue
    p.circle(0.45, 0.55, 0.2, body, body if rng.random() < 0.5 else None, 0.03)
    p.circle(0.62, 0.3, 0.09, body, body, 0.02)
    p.line([(0.68, 0.3), (0.8, 0.33)], pal.red, 0.03)
    for k in range(5):
        a = np.pi * (0.65 + 0.12 * k)
        p.line([(0.35, 0.6), (0.35 + 0.3 * np.cos(a), 0.6 + 0.3 * np.sin(a) * 0.3 + 0.2)], pal.red, 0.02)
    p.line([(0.45, 0.74), (0.42, 0.9)], pal.red, 0.02)
    p.line([(0.52, 0.74), (0.55, 0.9)], pal.red, 0.02)


def _leaning_stick(p: Painter, pal: Palette, foot: tuple[float, float], head: tuple[float, float], col: tuple) -> None:
    """A stick from ``foot`` to ``head`` (fractions of the face) drawn as the set draws its upright ones
    (:func:`_stick`): filled with a light joint across its middle, or outlined, with a line down its middle or
    with joints across (sou_style 0, 1, 3)."""
    w = _stick_width(pal)
    (x0, y0), (x1, y1) = foot, head
    dx, dy = (x1 - x0) * FACE_W, (y1 - y0) * FACE_H  # along the stick, in pixels: the face is not square
    length = float(np.hypot(dx, dy))
    nx, ny = -dy / length * w / 2, dx / length * w / 2 * FACE_W / FACE_H  # half its width across it, as fractions

    def across(t: float, reach: float = 1.0, line: float = 0.016, ink: tuple = col) -> None:
        cx, cy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        p.line([(cx - nx * reach, cy - ny * reach), (cx + nx * reach, cy + ny * reach)], ink, line)

    if pal.sou_style == 0:
        p.line([foot, head], col, w)
        across(0.5, 1.0, 0.012, (250, 250, 245, 255))
        return
    for side in (-1, 1):
        p.line([(x0 + side * nx, y0 + side * ny), (x1 + side * nx, y1 + side * ny)], col, 0.016 if pal.sou_style == 1
               else 0.012)
    for t in (0.0, 1.0):
        across(t)
    if pal.sou_style == 1:
        p.line([foot, head], col, 0.01)
    else:
        for t in (0.33, 0.67):
            across(t, 1.3)


def _eights_middle(p: Painter, pal: Palette, x: float, y: float, h: float, col: tuple) -> None:
    """One of the eight of bamboo's four middle sticks as real sets print it: drawn as the set draws its upright
    sticks (before whole_eights it was a filled stroke even in sets that outline them, as no real set does), it
    leans from beside its outer stick's foot to the middle of the face, where it meets its mirror image: a W over
    an M."""
    w = _stick_width(pal)
    left = x < 0.5
    top = y < 0.5
    foot_x = 0.5 + (-0.19 if left else 0.19)  # beside the outer stick (SOU_LAYOUT's 0.2 and 0.8, drawn 0.95 as wide)
    head_x = 0.5 - w * 0.55 if left else 0.5 + w * 0.55
    foot = (foot_x, y + h / 2 if top else y - h / 2)
    head = (head_x, y - h / 2 if top else y + h / 2)
    _leaning_stick(p, pal, foot, head, col)


def draw_sou(pal: Palette, n: int, red: bool) -> np.ndarray:
    p = Painter()
    if n == 1:
        _bird(p, pal)
    else:
        cols = _sou_colours(pal, n, red)
        h = {2: 0.34, 3: 0.34, 4: 0.34, 5: 0.34, 6: 0.36, 7: 0.26, 8: 0.36, 9: 0.26}[n] * pal.rng.uniform(0.9, 1.1)
        for (x, y), col in zip(SOU_LAYOUT[n], cols, strict=True):
            x = 0.5 + (x - 0.5) * 0.95
            y = 0.5 + (y - 0.5) * 0.92
            if n == 8 and pal.sou_style != 2 and 0.3 < x < 0.7:  # the eight's middle sticks lean into an M/W shape
                if pal.whole_eights:
                    _eights_middle(p, pal, x, y, h, col)
                else:  # filled, whatever the set's sticks
                    dx = 0.07 if x < 0.5 else -0.07
                    dy = -1 if y < 0.5 else 1
                    p.line([(x - dx, y - dy * h / 2), (x + dx, y + dy * h / 2)], col, 0.06 + 0.03 * pal.weight)
            else:
                _stick(p, pal, x, y, h, col)
    _corner(p, pal, ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0), str(n))
    return p.result()


def draw_honor(pal: Palette, font: tuple[str, int], n: int) -> np.ndarray:
    p = Painter()
    stroke = max(0, int(pal.weight * 3))
    if n <= 4:
        p.text(WINDS[n - 1], font, (0.1, 0.12, 0.9, 0.88), pal.wind, stroke)
        if pal.corner:
            p.text("ESWN"[n - 1], ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0), (0.04, 0.02, 0.24, 0.2), pal.red)
    elif n == 5:
        if pal.haku == 1:
            p.rect((0.14, 0.12, 0.86, 0.88), pal.blue, None, max(0.02, 0.05 + 0.03 * pal.weight), radius=0.05)
        elif pal.haku == 2:
            p.rect((0.14, 0.12, 0.86, 0.88), pal.blue, None, 0.03, radius=0.05)
            p.rect((0.22, 0.19, 0.78, 0.81), pal.blue, None, 0.02, radius=0.03)
    elif n == 6:
        p.text(pal.fa_glyph, font, (0.1, 0.12, 0.9, 0.88), pal.green, stroke)
    else:
        p.text("中", font, (0.12, 0.1, 0.88, 0.9), pal.red, stroke)
    return p.result()


def draw_flower(pal: Palette, font: tuple[str, int], n: int, art: bool = False) -> np.ndarray:
    """Flowers (1f-4f: plum orchid chrysanthemum bamboo) and seasons (5f-8f): name, picture, corner number.
    With ``art`` (train --flower-art) the picture is one of many motifs in colours that say nothing of the class
    (draw_flower_art); the palette's random stream advances exactly as without it, so only the flowers change."""
    p = Painter()
    rng = pal.rng
    name = (FLOWERS + SEASONS)[n - 1]
    number = str((n - 1) % 4 + 1)
    ink = pal.dark if rng.random() < 0.5 else pal.blue
    top = rng.random() < 0.5
    cx, cy = rng.uniform(0.4, 0.6), rng.uniform(0.45, 0.6)
    if art:
        own = np.random.default_rng((rng.bit_generator.state["state"]["state"], n))  # reads, does not draw
        of_set = np.random.default_rng((int(np.float64(pal.weight).view(np.uint64)), 0xF1))  # one per set
        draw_flower_art(p, font, name, n > 4, number, ink, own, of_set)
        return p.result()
    if top:
        p.text(name, font, (0.5, 0.04, 0.95, 0.3), ink)
    else:
        p.text(name, font, (0.05, 0.7, 0.45, 0.95), ink)
    p.text(number, ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0), (0.05, 0.03, 0.3, 0.25),
           pal.red if n <= 4 else pal.green)
    # a loose flower/branch picture, its colour tied to the class so the net may use it but need not
    petal = [pal.red, (200, 60, 160, 255), (220, 160, 20, 255), pal.green][(n - 1) % 4]
    for k in range(5 + (n % 3)):
        a = 2 * np.pi * k / (5 + (n % 3))
        p.circle(cx + 0.13 * np.cos(a), cy + 0.1 * np.sin(a), 0.08, petal, None, 0.015)
    p.line([(cx, cy + 0.1), (cx - 0.1, 0.95)], pal.green, 0.025)
    return p.result()


# where a flower tile's name goes (fractions of the face), and its number
FLOWER_NAME_BOXES = [(0.3, 0.03, 0.7, 0.27), (0.55, 0.03, 0.96, 0.3), (0.05, 0.7, 0.45, 0.96),
                     (0.55, 0.7, 0.95, 0.96), (0.04, 0.32, 0.3, 0.62), (0.7, 0.32, 0.96, 0.62)]
FLOWER_NUMBER_BOXES = [(0.05, 0.03, 0.3, 0.25), (0.7, 0.03, 0.95, 0.25), (0.05, 0.75, 0.3, 0.97),
                       (0.7, 0.75, 0.95, 0.97)]
FLOWER_COLOURS = [(190, 25, 30), (200, 60, 160), (220, 150, 20), (230, 110, 20), (20, 110, 50), (90, 150, 40),
                  (25, 45, 140), (20, 30, 80), (85, 35, 115), (10, 95, 105), (95, 55, 25), (20, 20, 25)]
CHINESE_NUMBERS = "一二三四"


def draw_flower_art(p: Painter, font: tuple[str, int], name: str, season: bool, number: str, ink: tuple,
                    rng: np.random.Generator, of_set: np.random.Generator) -> None:
    """A flower or season tile as real sets vary them: the name in one of several places, the number (digit or
    Chinese numeral, in the set's colour for flowers or for seasons, in the set's corner) and a picture drawn
    from ``rng`` alone, one of many motifs in any colours. Nothing but ``name``, ``season`` and ``number``
    depends on the class: two classes given the same streams get the same picture."""
    number_box = FLOWER_NUMBER_BOXES[int(of_set.integers(len(FLOWER_NUMBER_BOXES)))]
    number_colours = [_jitter(of_set, FLOWER_COLOURS[int(i)]) for i in of_set.integers(len(FLOWER_COLOURS), size=2)]
    chinese = of_set.random() < 0.3
    no_number = of_set.random() < 0.1
    boxes = [b for b in FLOWER_NAME_BOXES if not _overlap(b, number_box)]
    name_box = boxes[int(rng.integers(len(boxes)))]
    k = float(rng.uniform(0.85, 1.1))
    cx, cy = (name_box[0] + name_box[2]) / 2, (name_box[1] + name_box[3]) / 2
    hw, hh = (name_box[2] - name_box[0]) * k / 2, (name_box[3] - name_box[1]) * k / 2
    _flower_picture(p, rng)
    p.text(name, font, (cx - hw, cy - hh, cx + hw, cy + hh), ink if rng.random() < 0.6 else
           _jitter(rng, FLOWER_COLOURS[int(rng.integers(len(FLOWER_COLOURS)))]))
    if not no_number:
        label = CHINESE_NUMBERS[int(number) - 1] if chinese else number
        face = font if chinese else ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0)
        p.text(label, face, number_box, number_colours[int(season)])


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _flower_picture(p: Painter, rng: np.random.Generator) -> None:
    """One motif in the middle of the face: a ring of petals, a blossoming branch, leaves on a stem, a sun, a
    snowflake, a bamboo stalk, a cup-shaped bloom or a bird; its colours from FLOWER_COLOURS at random."""
    def colour() -> tuple:
        return _jitter(rng, FLOWER_COLOURS[int(rng.integers(len(FLOWER_COLOURS)))], 25)

    cx, cy = float(rng.uniform(0.38, 0.62)), float(rng.uniform(0.45, 0.62))
    size = float(rng.uniform(0.2, 0.34))
    width = float(rng.uniform(0.015, 0.035))
    main, other = colour(), colour()
    fill = main if rng.random() < 0.4 else None
    motif = int(rng.integers(8))
    if motif == 0:  # a ring of petals
        petals = int(rng.integers(4, 9))
        for i in range(petals):
            a = 2 * np.pi * i / petals
            p.circle(cx + 0.55 * size * np.cos(a), cy + 0.45 * size * np.sin(a), 0.4 * size, main, fill, width)
        p.circle(cx, cy, 0.2 * size, other, other, width)
    elif motif == 1:  # a branch with blossoms
        pts = [(cx - size, cy + size), (cx - 0.2 * size, cy), (cx + 0.3 * size, cy - 0.4 * size),
               (cx + size, cy - 0.6 * size)]
        p.line(pts, other, 1.5 * width)
        for x, y in pts[1:]:
            p.circle(x, y - 0.15 * size, 0.22 * size, main, fill, width)
    elif motif == 2:  # leaves on a stem
        p.line([(cx, cy + size), (cx, cy - size)], other, width)
        for i in range(int(rng.integers(2, 5))):
            y = cy + size * (0.6 - 0.45 * i)
            side = 1 if i % 2 else -1
            tip = (cx + side * 0.9 * size, y - 0.35 * size)
            p.polygon([(cx, y), (cx + side * 0.45 * size, y - 0.3 * size), tip,
                       (cx + side * 0.5 * size, y + 0.05 * size)], main, fill, width)
    elif motif == 3:  # a sun
        p.circle(cx, cy, 0.35 * size, main, fill, width)
        for i in range(12):
            a = 2 * np.pi * i / 12
            p.line([(cx + 0.5 * size * np.cos(a), cy + 0.4 * size * np.sin(a)),
                    (cx + 0.9 * size * np.cos(a), cy + 0.75 * size * np.sin(a))], main, width)
    elif motif == 4:  # a snowflake
        for i in range(3):
            a = np.pi * i / 3
            dx, dy = size * np.cos(a), 0.8 * size * np.sin(a)
            p.line([(cx - dx, cy - dy), (cx + dx, cy + dy)], main, 1.5 * width)
            for end in (-1, 1):
                ex, ey = cx + end * 0.6 * dx, cy + end * 0.6 * dy
                p.line([(ex - 0.2 * dy, ey + 0.2 * dx), (ex + 0.2 * dy, ey - 0.2 * dx)], main, width)
    elif motif == 5:  # a bamboo stalk with leaves
        for j in range(3):
            y0 = cy + size - j * 0.7 * size
            p.rect((cx - 0.1 * size, y0 - 0.65 * size, cx + 0.1 * size, y0), main, fill, width, 0.02)
        p.polygon([(cx, cy - 0.3 * size), (cx + 0.8 * size, cy - 0.7 * size), (cx + 0.3 * size, cy - 0.2 * size)],
                  other, other, width)
    elif motif == 6:  # a cup-shaped bloom (a tulip) on a stem
        p.line([(cx, cy + size), (cx, cy)], other, width)
        p.polygon([(cx - 0.4 * size, cy - 0.6 * size), (cx - 0.2 * size, cy - 0.3 * size), (cx, cy - 0.6 * size),
                   (cx + 0.2 * size, cy - 0.3 * size), (cx + 0.4 * size, cy - 0.6 * size),
                   (cx + 0.3 * size, cy), (cx - 0.3 * size, cy)], main, fill, width)
    else:  # a bird on a branch: flowers are not told from 1s by their picture
        p.line([(cx - size, cy + 0.6 * size), (cx + size, cy + 0.4 * size)], other, width)
        p.polygon([(cx - 0.7 * size, cy), (cx - 0.1 * size, cy - 0.4 * size), (cx + 0.3 * size, cy - 0.6 * size),
                   (cx + 0.2 * size, cy - 0.2 * size), (cx + 0.6 * size, cy + 0.3 * size),
                   (cx - 0.2 * size, cy + 0.2 * size)], main, fill, width)


def _reddish(ink: tuple) -> bool:
    """An ink whose red outweighs its green and blue by half again: dark reds, maroons, browns."""
    r, g, b = ink[:3]
    return r > 1.5 * max(g, b, 1)


def fives_apart(pal: Palette) -> None:
    """A set printed in one reddish ink (dark red, brown) turned blue instead, red and blue swapped: there its plain
    fives were drawn in nearly the colour of its red fives, so that the nets were taught a dark red five is plain
    as often as red (held-out uni red fives, printed dark red, were read as plain). No draw from the random
    stream, so every other set stays as it was."""
    if pal.dark is pal.red and _reddish(pal.dark):
        r, g, b, *alpha = pal.dark
        pal.dark = pal.red = pal.green = pal.blue = pal.wind = pal.man_top = (b, g, r, *alpha)


def procedural_set(rng: np.random.Generator, fonts: list[tuple[str, int]], varied: bool = False,
                   wide: bool = False, maroon: bool = False, flower_art: bool = False,
                   apart: bool = False, big_pins: bool = False, whole_eights: bool = False,
                   fallback: tuple[str, int] | None = None) -> dict[str, np.ndarray]:
    """One imaginary set's faces, its characters in a font drawn from ``fonts``. With ``fallback``, the set prints
    the forms of 萬 and 發 its font has (:func:`fit_glyphs`), and where it has neither 發 nor 发 its green dragon is
    drawn in ``fallback`` (no draw either way: without it, every set stays as it was)."""
    pal = WidePalette(rng) if wide else VariedPalette(rng) if varied else Palette(rng)
    pal.big_pins = big_pins
    pal.whole_eights = whole_eights
    if apart:
        fives_apart(pal)
    if maroon:
        pal.five_red = _jitter(rng, MAROONS[rng.choice(list(MAROONS))], 20)
    font = fonts[rng.integers(len(fonts))]
    dragon = font
    if fallback is not None and not fit_glyphs(pal, font):
        dragon = fallback
        fit_glyphs(pal, fallback)  # its 發 or 发 (the set's 萬 or 万 stays where the fallback has it too)
    out: dict[str, np.ndarray] = {}
    for n in range(1, 10):
        out[f"{n}m"] = draw_man(pal, font, n, False)
        out[f"{n}p"] = draw_pin(pal, n, False)
        out[f"{n}s"] = draw_sou(pal, n, False)
    out["0m"] = draw_man(pal, font, 5, True)
    out["0p"] = draw_pin(pal, 5, True)
    out["0s"] = draw_sou(pal, 5, True)
    for n in range(1, 8):
        out[f"{n}z"] = draw_honor(pal, dragon if n == 6 else font, n)
    for n in range(1, 9):
        out[f"{n}f"] = draw_flower(pal, font, n, flower_art)
    k = getattr(pal, "art_scale", 1.0)
    if k < 1.0:
        out = {c: _scaled(f, k, rng) for c, f in out.items()}
    return out


def _font_list(files: list[tuple[str, str]], what: str) -> list[tuple[str, int]]:
    """The fonts of ``files`` ((path, Debian package)), or SystemExit naming the packages missing."""
    missing = sorted({package for path, package in files if not Path(path).exists()})
    if missing:
        raise SystemExit(f"{what} are missing ({', '.join(missing)}): "
                         f"apt-get install {' '.join(sorted({package for _, package in files}))}")
    return [(path, 0) for path, _ in files]


def _unseen_fonts() -> list[tuple[str, int]]:
    return _font_list(UNSEEN_FONT_FILES, "the held-out style's fonts")


def brush_fonts() -> list[tuple[str, int]]:
    return _font_list(BRUSH_FONT_FILES, "the brush sets' fonts")


def has_glyph(font: tuple[str, int], char: str) -> bool:
    """Whether the font draws the character: not as its missing-glyph box (Japanese fonts lack 发), nor as nothing
    (Aoyagi Kouzan T, left out of UNSEEN_FONT_FILES so, maps 萬 and 發 to an empty glyph)."""
    f = ImageFont.truetype(font[0], 48, index=font[1])
    mask = f.getmask(char)
    return mask.getbbox() is not None and bytes(mask) != bytes(f.getmask("\U0010fffd"))


def fit_glyphs(pal: Palette, font: tuple[str, int]) -> bool:
    """The palette's 萬 and 發 set to forms the font draws (萬 or 万, 發 or 发), its own where the font has it (no
    draw); False where the font has neither 發 nor 发 (the palette's 發 left as it was)."""
    pal.man_glyph = next((g for g in (pal.man_glyph, "萬", "万") if has_glyph(font, g)), pal.man_glyph)
    fa = next((g for g in (pal.fa_glyph, "發", "发") if has_glyph(font, g)), None)
    pal.fa_glyph = fa or pal.fa_glyph
    return fa is not None


def add_unseen_fonts(bank: FaceBank, seed: int, n: int) -> None:
    """n sets of the second held-out style, ``fonts00``...: characters (red five too), winds and dragons drawn in
    the fonts of UNSEEN_FONT_FILES, one each in turn, in a WidePalette's inks and proportions (a one-ink set of a
    reddish ink in blue, :func:`fives_apart`: its red fives would look plain); circles, bamboo and flowers those of
    the held-out art (``uni``, which must be in the bank). So no face of it is drawn as training draws any: its
    characters by fonts never trained on, the rest by the art never trained on."""
    uni = bank.faces["uni"]
    fonts = _unseen_fonts()
    rng = np.random.default_rng(seed + 15485863)  # a stream of its own, as the other kinds of sets have
    for i in range(n):
        pal = WidePalette(rng)
        fives_apart(pal)  # as training's sets since the reds stage: no set prints its plain fives in its red fives' ink
        font = fonts[i % len(fonts)]
        fit_glyphs(pal, font)  # Japanese fonts lack 发; every one has 發
        style = f"fonts{i:02d}"
        for cls, faces in uni.items():
            if cls[-1] in "psf":
                bank.add(style, cls, faces[0])
        for k in range(1, 10):
            bank.add(style, f"{k}m", draw_man(pal, font, k, False))
        bank.add(style, "0m", draw_man(pal, font, 5, True))
        for k in range(1, 8):
            bank.add(style, f"{k}z", draw_honor(pal, font, k))


def build_bank(seed: int, n_procedural: int = 40, with_uni: bool = True, n_varied: int = 0, n_wide: int = 0,
               n_maroon: int = 0, flower_art: bool = False, apart: bool = False, big_pins: bool = False,
               whole_eights: bool = False, n_brush: int = 0) -> FaceBank:
    """The art styles plus n_procedural sets (Palette), n_varied sets (VariedPalette), n_wide sets
    (WidePalette), n_maroon WidePalette sets with red fives in dark reds and n_brush WidePalette sets with their
    characters, winds and dragons in the brush fonts (BRUSH_FONT_FILES, one each in turn), the last four each from
    their own random stream. ``flower_art`` draws the procedural sets' flowers and seasons with draw_flower_art; every
    other face stays as it was. ``apart`` draws the one-ink sets of a reddish ink in blue (fives_apart).
    ``big_pins``: the procedural sets draw their two and three of circles from their usual size up to
    BIG_PIN_RADIUS. ``whole_eights``: their eights of bamboo draw the four leaning middle sticks as they draw their
    upright ones, outlined where those are, and meeting in the middle (_eights_middle)."""
    rng = np.random.default_rng(seed)
    drawn = {"flower_art": flower_art, "apart": apart, "big_pins": big_pins, "whole_eights": whole_eights}
    bank = FaceBank()
    add_fluffy(bank)
    if with_uni:
        add_uni(bank)
    fonts = _fonts()
    for i in range(n_procedural):
        for cls, face in procedural_set(rng, fonts, **drawn).items():
            bank.add(f"proc{i:03d}", cls, face)
    vrng = np.random.default_rng(seed + 7919)
    for i in range(n_varied):
        for cls, face in procedural_set(vrng, fonts, varied=True, **drawn).items():
            bank.add(f"procv{i:03d}", cls, face)
    wrng = np.random.default_rng(seed + 104729)
    for i in range(n_wide):
        for cls, face in procedural_set(wrng, fonts, wide=True, **drawn).items():
            bank.add(f"procw{i:03d}", cls, face)
    mrng = np.random.default_rng(seed + 1299709)
    for i in range(n_maroon):
        for cls, face in procedural_set(mrng, fonts, wide=True, maroon=True, **drawn).items():
            bank.add(f"procr{i:03d}", cls, face)
    brush = brush_fonts() if n_brush else []
    brng = np.random.default_rng(seed + 15485867)
    for i in range(n_brush):
        for cls, face in procedural_set(brng, [brush[i % len(brush)]], wide=True, fallback=brush[0], **drawn).items():
            bank.add(f"procb{i:03d}", cls, face)
    return bank


if __name__ == "__main__":
    import sys

    b = build_bank(0, n_procedural=int(sys.argv[2]) if len(sys.argv) > 2 else 3,
                   n_varied=int(sys.argv[3]) if len(sys.argv) > 3 else 0,
                   n_wide=int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    rows = []
    for style in b.styles():
        row = [b.faces[style].get(c, [np.zeros((FACE_H, FACE_W, 4), np.uint8)])[0] for c in ALL_CLASSES[:-1]]
        img = np.hstack(row).astype(np.float32)
        a = img[..., 3:] / 255
        rows.append((img[..., :3] * a + 235 * (1 - a)).astype(np.uint8))
    cv2.imwrite(sys.argv[1] if len(sys.argv) > 1 else "/tmp/faces.png",
                cv2.cvtColor(np.vstack(rows), cv2.COLOR_RGB2BGR))
