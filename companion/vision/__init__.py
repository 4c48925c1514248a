"""Tile recognition: a photo of a table in, tiles and a scoring request out.

`recognize_image(image_bgr)` and `save_correction(image_bgr, box, tile, folder)` are the entry points;
OpenCV and onnxruntime load only when they are first called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def recognize_image(image_bgr: Any, dora_image: Any = None, **options: Any) -> dict:
    """See companion.vision.pipeline.recognize_image (options: turns, fixes, turned, restore, drop)."""
    from companion.vision.pipeline import recognize_image as run

    return run(image_bgr, dora_image, **options)


def save_correction(image_bgr: Any, box: Any, tile: str, folder: Path, sideways: bool | None = None) -> Path:
    """See companion.vision.pipeline.save_correction."""
    from companion.vision.pipeline import save_correction as run

    return run(image_bgr, box, tile, folder, sideways)


__all__ = ["recognize_image", "save_correction"]
