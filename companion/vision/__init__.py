"""Tile recognition: a photo of a table in, tiles and a scoring request out.

`recognize_image(image_bgr)`, `save_correction(image_bgr, box, tile, folder)` and
`save_checked_photo(image_bgr, tiles, request, folder)` are the entry points; OpenCV and onnxruntime load only
when they are first called, or when `warm_up()` loads them and the models ahead of the first photo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def recognize_image(image_bgr: Any, dora_image: Any = None, **options: Any) -> dict:
    """See companion.vision.pipeline.recognize_image (options: turns, fixes, turned, restore, drop)."""
    from companion.vision.pipeline import recognize_image as run

    return run(image_bgr, dora_image, **options)


def warm_up() -> list[str]:
    """See companion.vision.pipeline.warm_up."""
    from companion.vision.pipeline import warm_up as run

    return run()


def save_correction(image_bgr: Any, box: Any, tile: str, folder: Path, sideways: bool | None = None) -> Path:
    """See companion.vision.pipeline.save_correction."""
    from companion.vision.pipeline import save_correction as run

    return run(image_bgr, box, tile, folder, sideways)


def save_checked_photo(image_bgr: Any, tiles: Any, request: dict | None, folder: Path, not_tiles: Any = None,
                       turned: Any = None, first_read: Any = None) -> Path:
    """See companion.vision.examples.save_checked_photo."""
    from companion.vision.examples import save_checked_photo as run

    return run(image_bgr, tiles, request, folder, not_tiles, turned, first_read)


__all__ = ["recognize_image", "save_checked_photo", "save_correction", "warm_up"]
