"""The compiled riichi engine (setup.py compiles the scorer with mypyc) against its own sources run as
plain Python, and the check that tells an edited source from the build that actually runs."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import riichi_random

from companion import native
from companion.errors import CompanionError
from companion.rules.riichi import score

ROOT = Path(__file__).resolve().parent.parent

_PURE_RUNNER = """
import json, sys
import companion.rules.riichi.scoring as scoring
from companion.errors import CompanionError
assert scoring.__file__.endswith(".py"), scoring.__file__
out = []
for request in json.load(sys.stdin):
    try:
        out.append(scoring.score(request))
    except CompanionError as exc:
        out.append({"error": str(exc), "code": exc.code})
print(json.dumps(out))
"""


def _outcome(request: object) -> dict:
    try:
        return score(request)
    except CompanionError as exc:
        return {"error": str(exc), "code": exc.code}


def _requests() -> list:
    """Random winning hands of both rule profiles, and as many of them mangled (wrong types,
    impossible tiles, missing keys): a compiled module checks types its own way, so the errors
    have to be compared too."""
    hands = list(riichi_random.random_requests(1200, 4242))
    rng = random.Random(31)
    junk = [None, 0, -1, 2.5, True, False, "", "x", "E", "s", "99m", "0z", "1f", "123m", [], {}, ["1m", 3],
            [{"type": "pon", "tiles": "555z"}], [{"type": "chi", "tiles": 123}], {"preset": "wrc"}]
    keys = ["rules", "hand", "melds", "win_tile", "tsumo", "riichi", "ippatsu", "seat_wind", "round_wind",
            "honba", "riichi_sticks", "dora_indicators", "ura_indicators", "discarder", "tenhou", "haitei"]
    mangled = [riichi_random.mangle(rng, request, keys, junk) for request in hands[:800]]
    return hands + mangled + [[], "hand", None]


def test_compiled_and_pure_python_engines_agree(tmp_path):
    if not native.compiled_modules():
        pytest.skip("nothing is compiled here (no C compiler, or COMPANION_PURE_PYTHON=1): the sources run")
    # the sources alone, in a folder of their own: without the compiled modules Python imports the .py files
    shutil.copytree(ROOT / "companion", tmp_path / "companion",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "native.json", "__pycache__"))
    requests = _requests()
    run = subprocess.run([sys.executable, "-c", _PURE_RUNNER], input=json.dumps(requests), capture_output=True,
                         text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
                         timeout=300)
    assert run.returncode == 0, run.stderr
    pure = json.loads(run.stdout)
    compiled = json.loads(json.dumps([_outcome(r) for r in requests]))
    assert len(pure) == len(compiled) == len(requests)
    differ = [(r, p, c) for r, p, c in zip(requests, pure, compiled, strict=True) if p != c]
    assert not differ, f"{len(differ)} of {len(requests)} differ, the first: {differ[0]}"
    # the comparison covered answers and errors alike
    assert sum("error" in c for c in compiled) > 300 and sum("han" in c for c in compiled) > 1000


def test_the_build_that_runs_is_the_sources():
    assert not native.stale(), (f"{native.stale()} changed since the engine was compiled, and the compiled "
                                f"code is what runs: {native.REBUILD}")


def test_every_module_recorded_is_compiled():
    recorded = [p.removesuffix(".py").replace("/", ".") for p in native.build_info().get("sources", {})]
    assert sorted(native.compiled_modules()) == sorted(recorded)


def test_stale_names_the_edited_source(tmp_path, monkeypatch):
    tiles = (ROOT / "companion" / "tiles.py").read_bytes()
    info = {"compiler": "mypyc", "sources": {"companion/tiles.py": hashlib.sha256(tiles).hexdigest(),
                                             "companion/errors.py": "0" * 64}}
    (tmp_path / "native.json").write_text(json.dumps(info), encoding="utf-8")
    monkeypatch.setattr(native, "BUILD_INFO", tmp_path / "native.json")
    monkeypatch.setattr(native, "_is_compiled", lambda path: True)  # as if both were compiled
    assert native.stale() == ["companion/errors.py"]
    monkeypatch.setattr(native, "_is_compiled", lambda path: path != "companion/errors.py")
    assert native.stale() == []  # an edited source that is not compiled (a failed build) runs as it is


def test_no_build_info_means_pure_python(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "BUILD_INFO", tmp_path / "missing.json")
    assert native.build_info() == {} and native.stale() == [] and native.compiled_modules() == []
    assert native.describe() == "riichi engine: pure Python"
