"""Photo files decoded, or named plainly where they cannot be: the command line and the web page both say what a
file is when it is a known format that OpenCV does not read, rather than only that it is no image."""

from __future__ import annotations

from typing import Any

from companion.errors import PhotoFileError

# the major brands of HEIF files (ISO base media, "ftyp" at byte 4): an iPhone's photos by default; OpenCV reads
# none of them (AVIF, "avif", it does read)
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
HEIF_HINT = ("a HEIC photo (an iPhone's own format), which cannot be read here: send it as JPEG (on the iPhone: "
             "Settings > Camera > Formats > Most Compatible, or share the photo as JPEG)")


def is_heif(data: bytes) -> bool:
    """Whether the file's first bytes say HEIF (HEIC): a box "ftyp" whose major brand is one of HEIF_BRANDS."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def decode_photo(data: bytes, name: str, field: str | None = None) -> Any:
    """The photo's bytes decoded to a BGR array; else a PhotoFileError naming it (``name``: the file, as the user
    knows it) with the code of the reason ("photo_empty", "photo_heic", "photo_unreadable") and the form field at
    fault (``field``, for the web page)."""
    if not data:
        raise PhotoFileError(f"{name} is empty (0 bytes), not a photo", "photo_empty", field=field)
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None and is_heif(data[:16]):
        raise PhotoFileError(f"{name} is {HEIF_HINT}", "photo_heic", field=field)
    if image is None:
        raise PhotoFileError(f"{name} is not an image that can be read here (JPEG, PNG, WebP)", "photo_unreadable",
                             field=field)
    return image
