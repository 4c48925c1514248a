"""SHA256SUMS: the shipped nets' sums, and the file a training run writes to compare it with another."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from companion.paths import shipped
from training import sums

MODELS = Path(shipped("models"))


def _listed(path: Path) -> dict[str, str]:
    # read here by sha256sum's own layout (hex, two spaces, name), not by training.sums
    pairs = [line.split("  ", 1) for line in path.read_text().splitlines()]
    return {name: digest for digest, name in pairs}


def test_every_shipped_net_is_listed_with_its_sum():
    # a net replaced without its sums (or sums written before the last net was copied in) fails here
    listed = _listed(MODELS / "SHA256SUMS")
    nets = sorted(p.name for p in MODELS.iterdir() if p.suffix in (".onnx", ".pt"))
    assert sorted(listed) == nets and "localiser-b-low.int8.onnx" in nets and "classifier.pt" in nets
    for name in nets:
        assert listed[name] == hashlib.sha256((MODELS / name).read_bytes()).hexdigest(), name


def test_a_folder_checked_against_sums_says_which_nets_differ(tmp_path: Path, capsys):
    (tmp_path / "a.onnx").write_bytes(b"one")
    (tmp_path / "b.pt").write_bytes(b"two")
    (tmp_path / "notes.txt").write_text("not a net")
    assert sums.main([str(tmp_path)]) == 0
    assert _listed(tmp_path / "SHA256SUMS") == {"a.onnx": hashlib.sha256(b"one").hexdigest(),
                                                "b.pt": hashlib.sha256(b"two").hexdigest()}
    reference = tmp_path / "reference"
    (tmp_path / "SHA256SUMS").rename(reference)
    capsys.readouterr()
    assert sums.main([str(tmp_path), "--check", str(reference)]) == 0
    assert "2 of 2 byte-identical" in capsys.readouterr().out

    (tmp_path / "a.onnx").write_bytes(b"one, retrained")
    (tmp_path / "b.pt").unlink()
    (tmp_path / "c.onnx").write_bytes(b"three")
    assert sums.main([str(tmp_path), "--check", str(reference)]) == 1
    out = capsys.readouterr().out
    assert "a.onnx: differs" in out and "b.pt: missing" in out and "c.onnx: not listed" in out
    assert "0 of 3 byte-identical" in out


def test_sums_as_sha256sum_writes_them_in_binary_mode_are_read(tmp_path: Path):
    digest = hashlib.sha256(b"x").hexdigest()
    (tmp_path / "SUMS").write_text(f"{digest.upper()} *a.onnx\n\n")
    assert sums.read(tmp_path / "SUMS") == {"a.onnx": digest}


@pytest.mark.parametrize("line", ["abc  a.onnx", f"{'g' * 64}  a.onnx", f"{'0' * 64}"])
def test_a_line_that_is_no_sum_is_refused_with_its_number(tmp_path: Path, line: str):
    (tmp_path / "SUMS").write_text(f"{'0' * 64}  ok.onnx\n{line}\n")
    with pytest.raises(SystemExit, match="SUMS, line 2: not"):
        sums.read(tmp_path / "SUMS")


def test_a_missing_folder_or_sums_file_is_named(tmp_path: Path):
    with pytest.raises(SystemExit, match="no such folder"):
        sums.main([str(tmp_path / "nowhere")])
    with pytest.raises(SystemExit, match="no such file"):
        sums.main([str(tmp_path), "--check", str(tmp_path / "SUMS")])
