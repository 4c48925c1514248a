"""Photo files that cannot be decoded, named plainly: the command line and the web page both say what a file is
when it is a known format that OpenCV does not read, rather than only that it is no image."""

from __future__ import annotations

# the major brands of HEIF files (ISO base media, "ftyp" at byte 4): an iPhone's photos by default; OpenCV reads
# none of them (AVIF, "avif", it does read)
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
HEIF_HINT = ("a HEIC photo (an iPhone's own format), which cannot be read here: send it as JPEG (on the iPhone: "
             "Settings > Camera > Formats > Most Compatible, or share the photo as JPEG)")


def is_heif(data: bytes) -> bool:
    """Whether the file's first bytes say HEIF (HEIC): a box "ftyp" whose major brand is one of HEIF_BRANDS."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS
