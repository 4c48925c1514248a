"""Where the page keeps what adapts the recogniser to a club's tiles, as files: each corrected tile as a crop under
``corrections/<tile>/`` and each checked photo as ``photos/NAME.jpg`` with its label ``NAME.json`` (or a typed
``NAME.txt``). The fine-tune reads them (companion.vision.finetune), training/evaluate.py measures on such folders,
and ``companion serve`` counts them as it starts and the page shows them (GET /api/kept), beside what the last
fine-tune was taught (its :data:`FINETUNE_RECORD`) and how well the recogniser first read the checked photos
(:func:`first_reading`: the measure on the club's own tiles as they are used); this module needs neither OpenCV
nor the models, so that the count costs only a look at two folders and the labels in them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.tiles import ALL_CLASSES, align

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".avif", ".heic", ".heif")  # any case: IMG_0042.JPG


def labelled_photos(folder: Path) -> tuple[list[tuple[Path, Path]], list[Path]]:
    """The photos in ``folder`` with the label file of their name (NAME.json taken before a NAME.txt), in name
    order, and the photos that have none. Kept photos, evaluation sets and typed labels are all such folders."""
    files = sorted(Path(folder).iterdir())
    labels: dict[str, Path] = {}
    for f in files:
        if f.suffix.lower() in (".json", ".txt") and (f.stem not in labels or f.suffix.lower() == ".json"):
            labels[f.stem] = f
    photos = [f for f in files if f.suffix.lower() in PHOTO_SUFFIXES]
    return [(f, labels[f.stem]) for f in photos if f.stem in labels], [f for f in photos if f.stem not in labels]


def checked_photos(folder: Path) -> list[tuple[Path, Path]]:
    """The photos of ``folder`` checked on the page: those with a NAME.json label (boxes and all), not typed ones."""
    return [(photo, label) for photo, label in labelled_photos(folder)[0] if label.suffix.lower() == ".json"]


def correction_files(folder: Path) -> list[tuple[Path, str]]:
    """The corrected crops in ``folder`` (``<tile>/<file>.png``, or .jpg, as the page saves them) and their tiles,
    a folder named after a tile at a time; files elsewhere (the log beside them) are passed over."""
    return [(f, sub.name) for sub in sorted(Path(folder).iterdir()) if sub.is_dir() and sub.name in ALL_CLASSES
            for f in sorted(sub.glob("*.png")) + sorted(sub.glob("*.jpg"))]


def first_reading(label: Path) -> tuple[int, int, bool, bool] | None:
    """How the recogniser first read a checked photo, from its label (``NAME.json``, whose "first_read" the page
    keeps with the tiles as the player checked them): (tiles right in order, tiles checked, whether every tile was
    read right, whether it was read wrong with none of its tiles marked for a check); None where the label keeps
    no first reading (saved before the page kept them, or typed) or cannot be read."""
    import json

    try:
        kept = json.loads(Path(label).read_text(encoding="utf-8"))
        first, checked = kept["first_read"], [t["tile"] for t in kept["tiles"]]
        read, unsure = list(first["tiles"]), first.get("unsure", [])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    right, _ = align(read, checked)
    whole = read == checked
    return right, len(checked), whole, not whole and not unsure


FINETUNE_RECORD = "finetune.json"  # written by the fine-tune into the models folder it wrote: when, and on what


def kept_counts(corrections: Path, photos: Path, since: float | None = None) -> tuple[dict, dict | None]:
    """How much the page has kept in ``corrections`` and ``photos`` (either may not exist yet): {"corrections": n,
    "by_tile": {tile: n, ...}, "photos": n, "photo_bytes": their photos' and labels' size on disk, "first_read":
    {"photos": n, "tiles": n, "right": n, "whole": n, "silent": n}: of the checked photos that keep their first
    reading (:func:`first_reading`), the tiles checked and how many of them the recogniser read right in order at
    first, the photos it read right whole, and those it read wrong without marking a tile}; and with ``since`` (a
    time, as time.time() gives it) the same of the files saved after it (else None): how well the recogniser
    reads the club's set since its last fine-tune. The folders are listed once and each file looked at once."""
    crops = [(f.stat(), tile) for f, tile in correction_files(corrections)] if Path(corrections).is_dir() else []
    checked = [((photo.stat(), label.stat()), first_reading(label))
               for photo, label in checked_photos(photos)] if Path(photos).is_dir() else []

    def counted(later: float | None) -> dict:
        tiles = [tile for st, tile in crops if later is None or st.st_mtime > later]
        kept = [(pair, first) for pair, first in checked if later is None or max(st.st_mtime for st in pair) > later]
        by_tile: dict[str, int] = {}
        for tile in tiles:
            by_tile[tile] = by_tile.get(tile, 0) + 1
        firsts = [first for _, first in kept if first is not None]
        return {"corrections": len(tiles), "by_tile": by_tile, "photos": len(kept),
                "photo_bytes": sum(st.st_size for pair, _ in kept for st in pair),
                "first_read": {"photos": len(firsts), "tiles": sum(f[1] for f in firsts),
                               "right": sum(f[0] for f in firsts), "whole": sum(f[2] for f in firsts),
                               "silent": sum(f[3] for f in firsts)}}

    return counted(None), (counted(since) if since is not None else None)


def finetune_command(corrections: Path, photos: Path, kept: dict) -> str | None:
    """The command that adapts the recogniser to what is kept in ``corrections`` and ``photos`` (``kept``: their
    :func:`kept_counts`; a folder that holds nothing is left out), quoted for a shell, into the models folder the
    recogniser reads (named where it is not the shipped one: COMPANION_MODELS); None where nothing is kept."""
    from shlex import quote

    from companion.paths import models_folder, shipped

    if not kept["corrections"] and not kept["photos"]:
        return None
    models = models_folder()
    named = f"COMPANION_MODELS={quote(str(models))} " if models != shipped("models") else ""
    flags = (f" --corrections {quote(str(corrections))}" if kept["corrections"] else "") + (
        f" --photos {quote(str(photos))}" if kept["photos"] else "")
    return f"{named}companion train --finetune{flags}"


def last_finetune(models: Path) -> dict | None:
    """The record the last fine-tune wrote into ``models`` (:data:`FINETUNE_RECORD`: "time" as time.time() gave it
    when it read the kept files, "corrections" and "photos" it was taught), or None where none was written there
    or the record cannot be read."""
    import json

    try:
        record = json.loads((Path(models) / FINETUNE_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("time"), (int, float)) else None


KEPT_README = """What a Mahjong Companion page kept of a club's tiles ({when}).

photos/       the photos checked and scored on the page, each NAME.jpg with its label NAME.json (the tiles as
              the player checked them, their boxes, and the tiles as the recogniser read them first), or a
              typed NAME.txt
corrections/  each tile corrected on the page, as a crop in the folder of its tile (1m ... 7z, 0m 0p 0s,
              1f ... 8f, x)

Unpacked into a folder DIR:
  python -m training.evaluate DIR/photos          measures the recogniser on these tiles
  python -m training.evaluate DIR/photos --first-read
                                                  how it read them at the table, before any correction
  companion train --finetune --corrections DIR/corrections --photos DIR/photos
                                                  adapts the recogniser to them (the train extra)
"""


def write_kept_zip(corrections: Path, photos: Path, out: Any) -> dict:
    """Write what the page has kept into a zip archive, ``out`` (a path or a binary file open for writing):
    ``photos/`` with every labelled photo and its label, ``corrections/<tile>/`` with every corrected crop, as
    the fine-tune and training/evaluate.py read them, and a README.txt that says so. A club shares its own tiles
    so (with another server, or with the recogniser's makers); a file removed while it is written is left out.
    Returns {"photos": n, "corrections": n} written. The pictures are stored as they are (JPEG and PNG are
    compressed already), the labels compressed."""
    import time
    import zipfile

    def read(*paths: Path) -> list[bytes] | None:
        try:
            return [Path(path).read_bytes() for path in paths]
        except OSError:  # (removed since it was listed)
            return None

    written = {"photos": 0, "corrections": 0}
    with zipfile.ZipFile(out, "w") as archive:
        for photo, label in labelled_photos(photos)[0] if Path(photos).is_dir() else []:
            if (both := read(photo, label)) is not None:  # a photo goes with its label or not at all
                archive.writestr(f"photos/{photo.name}", both[0], zipfile.ZIP_STORED)
                archive.writestr(f"photos/{label.name}", both[1], zipfile.ZIP_DEFLATED)
                written["photos"] += 1
        for crop, tile in correction_files(corrections) if Path(corrections).is_dir() else []:
            if (data := read(crop)) is not None:
                archive.writestr(f"corrections/{tile}/{crop.name}", data[0], zipfile.ZIP_STORED)
                written["corrections"] += 1
        archive.writestr("README.txt", KEPT_README.format(when=time.strftime("%Y-%m-%d %H:%M")), zipfile.ZIP_DEFLATED)
    return written
