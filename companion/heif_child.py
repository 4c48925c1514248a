"""Decodes one HEIF (HEIC) photo in a process of its own (companion.photo_files.decode_photo starts it): libheif is C
code reading a file from anyone, and on some broken files it crashes the process it runs in. Run so, a crash ends
this process only; the server that asked goes on with its tables.

    python companion/heif_child.py MAX_PIXELS < photo.heic > picture

On stdout: the picture's height, width and channels (three little-endian uint32), then its bytes (BGR, 8 bits a
channel, rows top to bottom), turned and mirrored as the file says. Where it cannot: exit status 2 and one line on
stderr, ``KIND<tab>message``, KIND one of "missing" (no pi-heif), "too_large" (the message: width x height),
"cut_short" or "undecodable".
"""

from __future__ import annotations

import sys

FAILED = 2  # the exit status that goes with a KIND line on stderr


def _fail(kind: str, message: str) -> int:
    sys.stderr.write(f"{kind}\t{message}\n")
    return FAILED


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    most = int(argv[0])
    data = sys.stdin.buffer.read()
    try:
        import pi_heif  # (no numpy here: importing it would take longer than most decodings)
    except ImportError as exc:
        return _fail("missing", str(exc))
    # libheif's errors come as ValueError ("Invalid input: ..."), SyntaxError ("Unsupported feature: ..."),
    # RuntimeError (its security limits) and IndexError (a file with no picture in it)
    try:
        heif = pi_heif.open_heif(data, bgr_mode=True)  # its header only
        width, height = heif.size
    except Exception as exc:  # noqa: BLE001
        return _fail(_kind(exc), str(exc))
    if width * height > most:
        return _fail("too_large", f"{width} x {height}")
    try:
        rows, stride = heif.data, heif.stride  # decoded here
    except Exception as exc:  # noqa: BLE001
        return _fail(_kind(exc), str(exc))
    channels = {"L": 1, "BGR": 3, "BGRA": 4}.get(heif.mode)
    if channels is None:
        return _fail("undecodable", f"its picture is {heif.mode}, not BGR")
    out = sys.stdout.buffer
    out.write(b"".join(v.to_bytes(4, "little") for v in (height, width, channels)))
    line = width * channels
    view = memoryview(rows)
    if stride == line:
        out.write(view[:height * line])
    else:  # rows padded to the stride
        for y in range(height):
            out.write(view[y * stride:y * stride + line])
    out.flush()
    return 0


def _kind(exc: Exception) -> str:
    """The KIND of a libheif error: "cut_short" where the file ends too soon, else "undecodable"."""
    return "cut_short" if "end of file" in str(exc).lower() else "undecodable"


if __name__ == "__main__":
    raise SystemExit(main())
