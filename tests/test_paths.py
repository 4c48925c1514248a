"""Shipped files for installs that are not editable: the page and the models as data files."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from companion import paths

ROOT = Path(__file__).resolve().parents[1]


def test_a_checkout_uses_its_own_folders_and_an_install_the_shared_ones(tmp_path, monkeypatch):
    checkout, shared = tmp_path / "checkout", tmp_path / "share"
    (shared / "web").mkdir(parents=True)
    monkeypatch.setattr(paths, "_CHECKOUT", checkout)
    monkeypatch.setattr(paths, "_SHARED", shared)
    assert paths.shipped("web") == shared / "web"  # a wheel install: no web/ next to the package
    (checkout / "web").mkdir(parents=True)
    assert paths.shipped("web") == checkout / "web"  # a checkout (editable install) wins
    assert paths.shipped("models") == checkout / "models"  # neither: the checkout's path, for the message


def test_every_file_the_page_and_the_recogniser_read_is_shipped_as_data():
    # a file added to web/ or models/ that no data-files pattern names would be missing from a wheel
    data_files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    patterns = [(target, pattern) for target, globs in data_files.items() for pattern in globs]
    needed = [p for folder in ("web/templates", "web/static") for p in (ROOT / folder).rglob("*") if p.is_file()]
    needed += [p for p in (ROOT / "models").iterdir()
               if p.suffix in (".onnx", ".md", ".json", ".pt", ".jpg") or p.name == "SHA256SUMS"]  # .pt, .jpg: fine-tune
    missing = []
    for path in needed:
        rel = path.relative_to(ROOT).as_posix()
        hit = [t for t, pattern in patterns if fnmatch.fnmatchcase(rel, pattern) and "/" not in rel[len(pattern.rsplit("/", 1)[0]) + 1:]]
        if not hit or hit[0] != "share/mahjong-companion/" + rel.rsplit("/", 1)[0]:
            missing.append(rel)
    assert not missing, missing
