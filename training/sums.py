"""SHA-256 sums of a models folder's nets, so that a training run can be compared file by file with another.

    python -m training.sums models/                           # (re)writes models/SHA256SUMS
    python -m training.sums DIR --check models/SHA256SUMS      # which nets of DIR are byte-identical to those

SHA256SUMS is written as `sha256sum` writes it (`cd models && sha256sum -c SHA256SUMS` checks it too). It lists
the folder's `.onnx` and `.pt` files; training.train writes it at the end of every run, training.quantize after
the int8 copies.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

NAME = "SHA256SUMS"
KINDS = (".onnx", ".pt")


def sums(folder: Path) -> dict[str, str]:
    """File name -> SHA-256 (hex) of every net in ``folder``."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file() and p.suffix in KINDS}


def write(folder: Path) -> Path:
    """``folder``/SHA256SUMS for the nets there now."""
    path = folder / NAME
    path.write_text("".join(f"{digest}  {name}\n" for name, digest in sums(folder).items()))
    return path


def read(path: Path) -> dict[str, str]:
    """A SHA256SUMS file (``sha256sum``'s text format, a `*` before binary names allowed) as name -> hex."""
    listed = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        digest, _, name = line.strip().partition(" ")
        name = name.strip().removeprefix("*")
        if len(digest) != 64 or not name or any(c not in "0123456789abcdef" for c in digest.lower()):
            raise SystemExit(f"{path}, line {number}: not '<64 hex digits>  <file name>': {line.strip()!r}")
        listed[name] = digest.lower()
    return listed


def compare(folder: Path, reference: dict[str, str]) -> dict[str, str]:
    """Each net named in ``reference`` -> "same", "differs" or "missing" in ``folder``; a net of ``folder`` that
    the reference does not name -> "not listed"."""
    here = sums(folder)
    verdict = {name: "missing" if name not in here else "same" if here[name] == digest else "differs"
               for name, digest in reference.items()}
    verdict.update({name: "not listed" for name in here if name not in reference})
    return verdict


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--check", type=Path, metavar="SUMS",
                    help="compare the folder's nets with this SHA256SUMS instead of writing the folder's own")
    args = ap.parse_args(argv)
    if not args.folder.is_dir():
        raise SystemExit(f"{args.folder}: no such folder")
    if args.check is None:
        print(f"wrote {write(args.folder)}")
        return 0
    if not args.check.is_file():
        raise SystemExit(f"{args.check}: no such file")
    verdict = compare(args.folder, read(args.check))
    for name, word in verdict.items():
        print(f"{name}: {word}")
    same = sum(word == "same" for word in verdict.values())
    print(f"{same} of {len(verdict)} byte-identical")
    return 0 if same == len(verdict) else 1


if __name__ == "__main__":
    raise SystemExit(main())
