"""Build step: the riichi scorer's modules are compiled to C with mypyc where a C compiler is there.

Everything else about the package is in pyproject.toml. What is compiled is the same source files
(nothing is written twice), about 1.5x faster. A machine without a C compiler, or
``COMPANION_PURE_PYTHON=1`` at install time, gets the pure-Python engine, which gives the same results
(``tests/test_native.py`` checks that). ``companion/native.json`` records which sources a build was
made from, so that an edited source is noticed (``companion.native``).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# what scoring a riichi hand runs through (everything else stays Python)
NATIVE = [
    "companion/hand.py",
    "companion/rules/riichi/context.py",
    "companion/rules/riichi/fu.py",
    "companion/rules/riichi/options.py",
    "companion/rules/riichi/points.py",
    "companion/rules/riichi/request.py",
    "companion/rules/riichi/scoring.py",
    "companion/rules/riichi/yaku_basic.py",
    "companion/rules/riichi/yaku_local.py",
    "companion/rules/riichi/yaku_sets.py",
    "companion/rules/riichi/yaku_table.py",
    "companion/rules/riichi/yaku_yakuman.py",
]
GROUP = "companion_native"  # mypyc's shared library: a top-level module next to the package
BUILD_INFO = "companion/native.json"
PURE = os.environ.get("COMPANION_PURE_PYTHON") == "1"


def _digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class OptionalBuildExt(build_ext):
    """Compiling is a speed-up, not a requirement: a failed build leaves the pure-Python package."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler shows up as one of several distutils errors
            # no half-built set (a module without its library would not import), no record of an older build
            built = [self.get_ext_fullpath(ext.name) for ext in self.extensions]
            for path in built + ([BUILD_INFO] if self.inplace else []):
                if os.path.exists(path):
                    os.remove(path)
            print(f"warning: the riichi engine was not compiled ({exc}); it runs as pure Python", file=sys.stderr)
            return
        target = BUILD_INFO if self.inplace else os.path.join(self.build_lib, BUILD_INFO)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            json.dump({"compiler": "mypyc", "sources": {path: _digest(path) for path in NATIVE}}, f, indent=1)


def _remove_old_builds() -> None:
    """Compiled modules left in the source tree by an earlier editable install would shadow the sources."""
    stems = [path.removesuffix(".py") for path in NATIVE] + [GROUP + "__mypyc"]
    for path in [stem + suffix for stem in stems for suffix in importlib.machinery.EXTENSION_SUFFIXES] + [BUILD_INFO]:
        if os.path.exists(path):
            os.remove(path)


def _extensions() -> list:
    if PURE:
        _remove_old_builds()
        return []
    from mypyc.build import mypycify  # a build requirement (pyproject.toml)

    return mypycify(NATIVE, group_name=GROUP, opt_level="3")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
