"""Is the riichi engine running compiled, and was that build made from the sources beside it?

``pip install`` compiles the scorer's modules with mypyc where a C compiler is there (``setup.py``)
and records the SHA-256 of each source in ``companion/native.json``. The compiled module is what
Python imports, even after its ``.py`` file has been edited: :func:`stale` names such modules, the
riichi package warns about them on import, and a test fails on them (tests/test_native.py).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
BUILD_INFO = Path(__file__).with_name("native.json")
REBUILD = "python -m pip install -e . (or COMPANION_PURE_PYTHON=1 python -m pip install -e . for no compiling)"


def build_info() -> dict:
    """What the last compiling install recorded: ``{"compiler": ..., "sources": {path: sha256}}``, or
    ``{}`` where nothing was compiled."""
    try:
        return json.loads(BUILD_INFO.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _is_compiled(path: str) -> bool:
    name = path.removesuffix(".py").replace("/", ".")
    module = sys.modules.get(name)
    if module is not None:
        return Path(getattr(module, "__file__", "") or "").suffix in (".so", ".pyd")
    base = _ROOT / path.removesuffix(".py")
    return any(base.with_name(base.name + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The modules of this package that are imported (or would be) from a compiled extension."""
    return [path.removesuffix(".py").replace("/", ".") for path in build_info().get("sources", {})
            if _is_compiled(path)]


def stale() -> list[str]:
    """Sources that differ from what their compiled module was built from (empty when nothing is
    compiled, or when a regular install left no sources to compare)."""
    out = []
    for path, digest in build_info().get("sources", {}).items():
        if not _is_compiled(path):
            continue
        try:
            data = (_ROOT / path).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            out.append(path)
    return out


def describe() -> str:
    """One line for people: how the engine runs here."""
    modules = compiled_modules()
    if not modules:
        return "riichi engine: pure Python"
    old = stale()
    state = f"; STALE, rebuild with: {REBUILD}" if old else ""
    return f"riichi engine: compiled with {build_info().get('compiler', '?')} ({len(modules)} modules){state}"
