"""Render the tile pictures for the page's tile palette (run once; the PNGs are committed).

Source: FluffyStuff/riichi-mahjong-tiles (CC0), ../shared/tile-art/Regular. The face SVGs are
transparent overlays, so each is composited onto Front.svg. Flowers/seasons are not in that set;
the page draws those as labelled tiles.

    python web/tools/render_tiles.py /work/shared/tile-art/Regular web/static/tiles
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import cairosvg
import cv2
import numpy as np

FACES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora",
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
}
WIDTH, HEIGHT = 96, 128


def rgba(svg: Path) -> np.ndarray:
    png = cairosvg.svg2png(url=str(svg), output_width=WIDTH, output_height=HEIGHT)
    return cv2.imdecode(np.frombuffer(io.BytesIO(png).read(), np.uint8), cv2.IMREAD_UNCHANGED).astype(np.float32)


def main(src: str, dst: str) -> None:
    src_dir, out = Path(src), Path(dst)
    out.mkdir(parents=True, exist_ok=True)
    front = rgba(src_dir / "Front.svg")
    for code, stem in FACES.items():
        face = rgba(src_dir / f"{stem}.svg")
        alpha = face[..., 3:4] / 255.0
        tile = front.copy()
        tile[..., :3] = face[..., :3] * alpha + front[..., :3] * (1 - alpha)
        tile[..., 3:4] = np.maximum(front[..., 3:4], face[..., 3:4])
        cv2.imwrite(str(out / f"{code}.png"), tile.astype(np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    cv2.imwrite(str(out / "x.png"), rgba(src_dir / "Back.svg").astype(np.uint8), [cv2.IMWRITE_PNG_COMPRESSION, 9])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
