"""Where the page keeps what adapts the recogniser to a club's tiles, as files: each corrected tile as a crop under
``corrections/<tile>/`` and each checked photo as ``photos/NAME.jpg`` with its label ``NAME.json`` (or a typed
``NAME.txt``). The fine-tune reads them (companion.vision.finetune), training/evaluate.py measures on such folders,
and ``companion serve`` counts them as it starts; this module needs neither OpenCV nor the models, so that the
count costs the start only a look at two folders."""

from __future__ import annotations

from pathlib import Path

from companion.tiles import ALL_CLASSES

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")  # in any case: phones name their photos IMG_0042.JPG


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
