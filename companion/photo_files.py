"""Photo files decoded, or named plainly where they cannot be: the command line and the web page both say what a
file is when it is a known format that OpenCV does not read, rather than only that it is no image."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from companion.errors import PhotoFileError

# the major brands of HEIF files (ISO base media, "ftyp" at byte 4): an iPhone's photos by default; OpenCV reads
# none of them (AVIF, "avif", it does read), pi-heif (libheif) does (_decode_heif)
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
AS_JPEG = "send it as JPEG (on the iPhone: Settings > Camera > Formats > Most Compatible, or share the photo as JPEG)"
HEIF_HINT = f"a HEIC photo (an iPhone's own format), which cannot be read here without pi-heif: {AS_JPEG}"


def is_heif(data: bytes) -> bool:
    """Whether the file's first bytes say HEIF (HEIC): a box "ftyp" whose major brand is one of HEIF_BRANDS."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def cut_short(data: bytes) -> str | None:
    """The format ("JPEG", "PNG", "WebP") of a file of that format that ends before its picture does (a copy or an
    upload broken off), else None: a JPEG whose segments run past its end or whose picture (the scan) has no end
    marker after it (an EXIF thumbnail has its own, inside its segment), a PNG without its end chunk, a WebP
    shorter than its header says. Asked only of a file that does not decode."""
    if data[:3] == b"\xff\xd8\xff":
        for marker, at, length in _segments(data):
            if marker == 0xDA:  # the scan: the picture runs on to the end marker
                return "JPEG" if data.rfind(b"\xff\xd9") < at else None
            if marker is None or length < 2:
                return None  # no JPEG segment there: broken, not cut short
        return "JPEG"  # the segments run past the end
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-12:]:
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and int.from_bytes(data[4:8], "little") + 8 > len(data):
        return "WebP"
    return None


# the most pixels a picture is decoded to (100 MP: 300 MB as BGR): a PNG of a few MB may claim 40000 x 40000
# pixels, which would take the server's memory (a phone's photo has 12-50 MP, and a JPEG of over 36 MP is decoded
# smaller, decode_to_read)
MAX_DECODED_PIXELS = 100_000_000


def stored_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as a JPEG, PNG or WebP file's header says (:func:`jpeg_size`; a PNG's IHDR; a WebP's VP8,
    VP8L or VP8X header), before any EXIF turn; None for another format or a header too short to say."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8 ":  # lossy: 14 bits each after the frame's start code
            return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
        if chunk == b"VP8L":  # lossless: width - 1 and height - 1 in 14 bits each after the signature byte
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":  # extended: the canvas, width - 1 and height - 1 in 24 bits each
            return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
        return None
    return jpeg_size(data)


def _refuse_too_large(size: tuple[int, int] | None, scale: int, name: str, field: str | None) -> None:
    """A PhotoFileError ("photo_too_large") where a picture of ``size`` decoded at 1/``scale`` of it would hold more
    than MAX_DECODED_PIXELS."""
    if size and size[0] * size[1] // (scale * scale) > MAX_DECODED_PIXELS:
        raise PhotoFileError(f"{name} is {size[0]} x {size[1]} pixels ({size[0] * size[1] / 1e6:.0f} MP), more than a "
                             f"photo is read at here ({MAX_DECODED_PIXELS // 1_000_000} MP at most): send a smaller copy",
                             "photo_too_large", field=field)


def _imdecode(data: bytes, flags: int) -> Any:
    """cv2.imdecode of the bytes, None where OpenCV refuses them (a size past its own limit raises in OpenCV)."""
    import cv2
    import numpy as np

    try:
        return cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    except cv2.error:
        return None


def decode_photo(data: bytes, name: str, field: str | None = None) -> Any:
    """The photo's bytes decoded to a BGR array; else a PhotoFileError naming it (``name``: the file, as the user
    knows it) with the code of the reason ("photo_empty", "photo_heic", "photo_cut_short", "photo_too_large",
    "photo_unreadable") and the form field at fault (``field``, for the web page)."""
    if not data:
        raise PhotoFileError(f"{name} is empty (0 bytes), not a photo", "photo_empty", field=field)
    import cv2

    _refuse_too_large(stored_size(data), 1, name, field)
    image = _imdecode(data, cv2.IMREAD_COLOR)
    if image is None and is_heif(data[:16]):
        return _decode_heif(data, name, field)
    if image is None and (kind := cut_short(data)):
        raise _cut_short_error(kind, data, name, field)
    if image is None:
        raise PhotoFileError(f"{name} is not an image that can be read here (JPEG, PNG, WebP, AVIF, HEIF)",
                             "photo_unreadable", field=field)
    return image


HEIF_SECONDS = 60  # the most a HEIF photo's decoding may take (a 48 MP one takes about 2 s)


def _decode_heif(data: bytes, name: str, field: str | None) -> Any:
    """A HEIF (HEIC) photo's primary picture decoded by pi-heif (libheif with its HEVC decoder), turned and mirrored as
    the file says (an iPhone stores the way it was held so), at 8 bits a channel, to a BGR array; a PhotoFileError
    ("photo_heic") where pi-heif is not installed or the file cannot be decoded ("photo_cut_short" where it ends
    before its picture does), or "photo_too_large" (from its header, before it is decoded).

    It is decoded in a process of its own (companion.heif_child): libheif crashes the process it runs in on some
    broken files (pi-heif 1.4.0's libheif 1.23.0 on one in about a thousand files made by changing the test
    fixture at random, tests/fixtures/vision/heic/crashes_libheif.heic among them), and a server's crash would stop
    every table it serves. Starting that process costs about 0.1 s. Whether pi-heif is installed is the child's to
    find out too ("missing"): this process never loads libheif."""
    import subprocess

    import cv2
    import numpy as np

    from companion import heif_child

    try:
        done = subprocess.run(_heif_child_argv(), input=data, capture_output=True, timeout=HEIF_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise _heif_error("undecodable", f"its decoding took more than {HEIF_SECONDS} s", data, name, field) from None
    if done.returncode == 0 and len(done.stdout) >= 12:
        height, width, channels = (int(v) for v in np.frombuffer(done.stdout[:12], "<u4"))
        if len(done.stdout) == 12 + height * width * channels:
            picture = np.frombuffer(done.stdout, np.uint8, offset=12).reshape(height, width, channels)
            if channels == 1:  # a grey picture
                return cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)
            return np.array(picture[..., :3], order="C")  # its own memory (BGRA where it has an alpha plane)
    kind, _, message = done.stderr.decode("utf-8", "replace").partition("\n")[0].partition("\t")
    if done.returncode != heif_child.FAILED or not message:  # it crashed (a signal: a negative status)
        kind, message = "undecodable", f"the decoder failed on it, status {done.returncode}"
    if kind == "missing":
        raise PhotoFileError(f"{name} is {HEIF_HINT}", "photo_heic", field=field)
    if kind == "too_large":
        width, height = (int(v) for v in message.split(" x "))
        _refuse_too_large((width, height), 1, name, field)
    raise _heif_error(kind, message, data, name, field)


def _heif_child_argv() -> list[str]:
    """The command that decodes a HEIF photo in a process of its own: companion/heif_child.py run as a script (with
    ``-m`` the package's own imports would double its start), this Python, the most pixels it may decode."""
    import sys

    from companion import heif_child

    return [sys.executable, heif_child.__file__, str(MAX_DECODED_PIXELS)]


def _heif_error(kind: str, message: str, data: bytes, name: str, field: str | None) -> PhotoFileError:
    """What to say of a HEIF file that could not be decoded: ``kind`` "cut_short" or another, ``message`` why."""
    if kind == "cut_short":
        return _cut_short_error("HEIC", data, name, field)
    return PhotoFileError(f"{name} is a HEIC photo (an iPhone's own format) that could not be decoded ({message}); "
                          f"{AS_JPEG}", "photo_heic", field=field)


def _cut_short_error(kind: str, data: bytes, name: str, field: str | None) -> PhotoFileError:
    """What to say of a photo file of ``kind`` (JPEG, PNG, WebP, HEIC) that ends before its picture does."""
    return PhotoFileError(f"{name} is a {kind} photo cut short: the file ends ({len(data)} bytes) before the picture "
                          "does, so it was not copied or sent whole; send it again", "photo_cut_short", field=field)


def at_most(image: Any, long_side: int) -> tuple[Any, float]:
    """The picture made at most ``long_side`` px long (averaged down), and the scale it was made at (1: as it was):
    the photos the page keeps (companion.vision.examples) and the held photos it is shown (GET /api/photos/<id>)."""
    import cv2

    height, width = image.shape[:2]
    scale = min(1.0, long_side / max(width, height))
    if scale < 1.0:
        image = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    return image, scale


HELD_JPEG_QUALITY = 95  # heif_as_jpeg: the JPEG a HEIC photo is held as (no loss a reading can tell)


def heif_as_jpeg(data: bytes, name: str, field: str | None = None) -> bytes:
    """A HEIF (HEIC) photo decoded (:func:`decode_photo`, whose errors it raises) and coded again as a JPEG of
    HELD_JPEG_QUALITY, upright: the page's server holds an iPhone's photo so, since it decodes a held photo again
    for every correction (a 12 MP HEIC 0.4-0.8 s each in its own process, its JPEG at half size about 20 ms)."""
    import cv2

    return cv2.imencode(".jpg", decode_photo(data, name, field), [cv2.IMWRITE_JPEG_QUALITY, HELD_JPEG_QUALITY])[1].tobytes()


# a JPEG whose long side is at least twice this is decoded for reading at a half, a quarter or an eighth of its size
# (libjpeg's scaled decoding), as small as keeps this long side or more: a 48 MP photo (8064 x 6048) decodes at half
# size in 108 ms instead of 269, and 120 such photos read 97 requests as when decoded whole (tiles 0.7 points
# fewer). A 12 MP photo is decoded whole here: at half size a hand across a quarter to half of it read 69 requests
# of 100 against 74 (models/TRAINING-LOG.md, "Very large photos read at half size"); read_photo reads one at half
# size first and keeps that where its tiles are wide or read surely, and since session 78 a tablet's 8 MP photo
# (3264 x 2448) too ("8 MP photos at half size first": 6 sets of 3024-3264 px, 3 more requests, 1.5-1.7x as fast)
READ_LONG_SIDE = 3000
HALF_FIRST_FROM = 3000  # a JPEG this long or more (12 MP: 4032, 8 MP: 3264) but under 2 * READ_LONG_SIDE is read at
HALF_TILE_MIN = 65.0  # half size first (read_photo), and kept so where its tiles are this wide there (px, median)
HALF_SURE = 0.4  # or where that reading gives a request and reads every tile at least this surely (its confidence)
_REDUCED = {2: "IMREAD_REDUCED_COLOR_2", 4: "IMREAD_REDUCED_COLOR_4", 8: "IMREAD_REDUCED_COLOR_8"}
# the JPEG markers whose segment starts with the frame's size (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC)
_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class PhotoToRead(NamedTuple):
    """A photo decoded for reading: the picture, how many of the photo's pixels one of its pixels spans (1, or
    2, 4 or 8 where it was decoded smaller), and the photo's own width and height, as shown (EXIF turn applied)."""

    image: Any
    scale: int
    width: int
    height: int


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, as stored (before any EXIF turn); None where ``data`` is no
    JPEG or no frame header is found before the image data."""
    if data[:2] != b"\xff\xd8":
        return None
    for marker, i, length in _segments(data):
        if marker in _FRAMES and i + 9 <= len(data):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        if marker in (None, 0xDA) or length < 2:  # the scan begins, or a broken segment: no frame header before it
            return None
    return None


def _segments(data: bytes) -> Iterator[tuple[int | None, int, int]]:
    """A JPEG's segments after its start marker, up to and including the first scan's (0xDA): (marker, offset,
    length) each, markers without a length given 2; (None, offset, 0) where no marker stands at the offset. Stops
    at the end of ``data`` (a segment whose length runs past it is the last)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            yield None, i, 0
            return
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        yield marker, i, length
        if marker == 0xDA or length < 2:
            return
        i += 2 + length


def decode_to_read(data: bytes, name: str, field: str | None = None, scale: int | None = None) -> PhotoToRead:
    """The photo decoded as the recogniser reads it: a JPEG at least twice READ_LONG_SIDE long at 1/2, 1/4 or 1/8
    of its size (the smallest that keeps READ_LONG_SIDE; ``scale``, 1, 2, 4 or 8, chooses instead), anything else
    whole (:func:`decode_photo`, whose errors it raises)."""
    return _decoded_at(data, name, field, jpeg_size(data), scale)


def _decoded_at(data: bytes, name: str, field: str | None, size: tuple[int, int] | None,
                scale: int | None) -> PhotoToRead:
    """:func:`decode_to_read` with the JPEG's frame size (``size``, :func:`jpeg_size`) read already."""
    if scale is None:
        scale = max((k for k in _REDUCED if size and max(size) // k >= READ_LONG_SIDE), default=1)
    elif scale not in (1, *_REDUCED):
        raise ValueError(f"a photo is decoded at 1/1, 1/2, 1/4 or 1/8 of its size, not 1/{scale}")
    if scale == 1 or size is None:
        image = decode_photo(data, name, field)
        return PhotoToRead(image, 1, image.shape[1], image.shape[0])
    import cv2

    _refuse_too_large(size, scale, name, field)
    image = _imdecode(data, getattr(cv2, _REDUCED[scale]))
    if image is None:  # a broken file: decode_photo says what it is
        image = decode_photo(data, name, field)
        return PhotoToRead(image, 1, image.shape[1], image.shape[0])
    width, height = size
    if (image.shape[1] > image.shape[0]) != (width > height):  # turned on its side by its EXIF orientation
        width, height = height, width
    return PhotoToRead(image, scale, width, height)


def read_photo(data: bytes, name: str, field: str | None, recognize: Callable[..., dict], dora: PhotoToRead | None = None,
               decoded: PhotoToRead | None = None, chosen: int | None = None, **options: Any) -> tuple[dict, PhotoToRead]:
    """The photo's bytes read by ``recognize`` (companion.vision.recognize_image: picture, dora picture, the
    player's corrections ``options``, and the scales the pictures were decoded at), with the dora photo ``dora``
    (:func:`decode_to_read`): the answer, its boxes in the photo's pixels, and the photo as decoded to be read.
    ``decoded``: :func:`decode_first` of the bytes (with ``chosen``), where made already.

    A JPEG HALF_FIRST_FROM long or more (a 12 MP photo, a tablet's 8 MP) and short of :func:`decode_to_read`'s own
    half-size rule is read at half size first: decoding it whole takes longer than reading it (76 ms, 19 at half
    size), and where the hand fills the picture its tiles read as surely at half size. Where they come out narrower than
    HALF_TILE_MIN there (median of the upright ones, rows left out not counted: a hand photographed from further
    away, whose tiles may read worse at half size) and that reading gives no request or reads a tile less surely
    than HALF_SURE, it is decoded whole and read again (models/TRAINING-LOG.md, "12 MP photos at half size where
    their tiles are wide" and "... where they read surely"). The choice is made on the photo's reading without the
    corrections, so that every correction of an answer reads the photo at the size the answer was read at: where
    that choice is known (``chosen``: the ``scale`` of the photo an earlier call returned for these bytes), the
    photo is read at it straight away, not first without the corrections again. Any other photo is read as
    :func:`decode_to_read` decodes it."""

    def read(photo: PhotoToRead, **corrections: Any) -> dict:
        scales = {"scale": photo.scale, "dora_scale": dora.scale if dora is not None else 1}
        return recognize(photo.image, dora.image if dora is not None else None, **corrections,
                         **{key: k for key, k in scales.items() if k != 1})

    photo = decoded if decoded is not None else decode_first(data, name, field, chosen)
    # (decoded at half size as decode_to_read's own rule would not: else whole, or libjpeg could not decode smaller)
    if not (photo.scale == 2 and _half_first(max(photo.width, photo.height))):
        return read(photo, **options), photo
    if chosen in (1, 2):  # as an earlier reading of the photo chose (``decoded`` made without it: at half size)
        photo = photo if chosen == 2 else decode_to_read(data, name, field, scale=1)
        return read(photo, **options), photo
    first = read(photo)
    if _upright_width(first) >= 2 * HALF_TILE_MIN or _read_surely(first):  # (the answer's pixels: the photo's)
        return (read(photo, **options) if options else first), photo
    whole = decode_to_read(data, name, field, scale=1)
    return read(whole, **options), whole


def decode_first(data: bytes, name: str, field: str | None = None, chosen: int | None = None) -> PhotoToRead:
    """The photo decoded as :func:`read_photo` reads it first: a 12 MP JPEG at half size, or at the size an earlier
    reading of it chose (``chosen``, 1 or 2: :func:`read_photo`'s), any other as :func:`decode_to_read` decodes it
    (a clear PhotoFileError where it is no photo)."""
    size = jpeg_size(data)
    half_first = bool(size) and _half_first(max(size))
    return _decoded_at(data, name, field, size, (chosen if chosen in (1, 2) else 2) if half_first else None)


def _half_first(long_side: int) -> bool:
    """Whether a JPEG this long is one :func:`read_photo` reads at half size first (HALF_FIRST_FROM long or more,
    and shorter than :func:`decode_to_read` reads at half size anyway)."""
    return HALF_FIRST_FROM <= long_side < 2 * READ_LONG_SIDE


def _read_surely(answer: dict) -> bool:
    """Whether an answer gives a request and reads each of its tiles HALF_SURE surely or more."""
    return answer["request"] is not None and all(t["confidence"] >= HALF_SURE for t in answer["tiles"])


def _upright_width(answer: dict) -> float:
    """The median width of an answer's upright tiles (rows it leaves out not counted), 0 without any."""
    left_out = set(answer.get("left_out", ()))
    widths = [t["box"][2] - t["box"][0] for i, t in enumerate(answer["tiles"]) if not t["sideways"] and i not in left_out]
    return float(statistics.median(widths)) if widths else 0.0
