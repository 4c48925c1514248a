"""``companion serve`` (issue 3: "starts it (waitress ...) and prints the address to open on the tablet")."""

from __future__ import annotations

import argparse
import ipaddress
import json
import socket
import subprocess
import sys
import threading
import time

from companion.web import cli


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion")
    cli.register(parser.add_subparsers(dest="command"))
    return parser


def test_serve_takes_host_port_and_instance():
    args = _parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "8123", "--instance", "/tmp/x"])
    assert (args.host, args.port, args.instance, args.func) == ("127.0.0.1", 8123, "/tmp/x", cli.serve)
    defaults = _parser().parse_args(["serve"])
    assert defaults.instance == "instance"  # ./instance/companion.sqlite3 by default


def test_urls_for_all_interfaces_include_loopback_and_the_lan_address(monkeypatch):
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.20")
    assert cli.urls("0.0.0.0", 8000) == ["http://127.0.0.1:8000/", "http://192.168.1.20:8000/"]
    assert cli.urls("10.0.0.5", 80) == ["http://10.0.0.5:80/"]
    monkeypatch.setattr(cli, "lan_address", lambda: None)
    assert cli.urls("0.0.0.0", 8000) == ["http://127.0.0.1:8000/"]


def test_lan_address_is_a_real_non_loopback_address_or_none():
    found = cli.lan_address()
    assert found is None or not ipaddress.ip_address(found).is_loopback


def test_bad_port_is_refused_with_a_message(capsys):
    args = _parser().parse_args(["serve", "--port", "70000"])
    assert cli.serve(args) == 2
    assert "--port" in capsys.readouterr().err


def test_serve_prints_the_address_and_answers_there(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--instance", str(tmp_path / "inst")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(2)]
        assert f"http://127.0.0.1:{port}/" in lines[1]
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        assert proc.poll() is None
        assert (tmp_path / "inst" / "companion.sqlite3").exists()  # created at start, before any request
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _serve_with(monkeypatch, tmp_path, warm_up) -> None:  # noqa: ANN001
    """serve() run with ``warm_up`` as companion.vision's and a waitress that returns at once; the warm-up thread
    it started is waited for."""
    import types

    import waitress

    vision = types.ModuleType("companion.vision")
    vision.warm_up = warm_up
    monkeypatch.setitem(sys.modules, "companion.vision", vision)
    monkeypatch.setattr(waitress, "serve", lambda *a, **k: None)
    assert cli.serve(_parser().parse_args(["serve", "--port", "8123", "--instance", str(tmp_path / "inst")])) == 0
    for thread in threading.enumerate():
        if thread.name == "companion-warm-up":
            thread.join(timeout=30)


def test_serve_loads_the_recognition_models_in_the_background_as_it_starts(monkeypatch, tmp_path, capsys):
    # the first photo at the table should not wait for the models to load (companion.vision.warm_up)
    calls = []  # the thread each warm-up ran in: not the one that serves
    _serve_with(monkeypatch, tmp_path, lambda: calls.append(threading.current_thread().name) or ["localiser-one"])
    assert calls == ["companion-warm-up"]
    assert "note" not in capsys.readouterr().err


def test_serve_without_its_models_keeps_the_table_and_says_why_once(monkeypatch, tmp_path, capsys):
    def missing() -> list[str]:
        raise FileNotFoundError("recognition model /x/localiser-one.onnx is missing")

    _serve_with(monkeypatch, tmp_path, missing)
    err = capsys.readouterr().err
    assert err.count("note: the recognition models were not loaded ahead of the first photo") == 1
    assert "localiser-one.onnx is missing" in err and "Traceback" not in err


def test_serve_says_what_is_kept_for_a_finetune_and_the_command(monkeypatch, tmp_path, capsys):
    # the page keeps each correction and each checked photo, but only `companion train --finetune` teaches them
    _serve_with(monkeypatch, tmp_path, lambda: [])
    assert "kept for adapting" not in capsys.readouterr().out  # nothing kept yet: nothing said
    inst = tmp_path / "inst"
    for name in ("a.png", "b.png"):
        (inst / "corrections" / "2f").mkdir(parents=True, exist_ok=True)
        (inst / "corrections" / "2f" / name).write_bytes(b"png")
    (inst / "corrections" / "labels.jsonl").write_text("{}\n")  # (the log beside the crops is no crop)
    (inst / "photos").mkdir()
    (inst / "photos" / "p1.json").write_text("{}")
    (inst / "photos" / "p1.jpg").write_bytes(b"jpg")
    _serve_with(monkeypatch, tmp_path, lambda: [])
    out = capsys.readouterr().out
    assert "2 corrected tile(s), 1 checked photo(s)" in out
    assert (f"companion train --finetune --corrections {inst / 'corrections'} --photos {inst / 'photos'}") in out
    # a checked photo that keeps its first reading: how well the recogniser read the club's tiles is said too
    # (by hand: 1m2m3m read 1m2m4m, 2 of 3 right; the other photo keeps none)
    (inst / "photos" / "p2.jpg").write_bytes(b"jpg")
    (inst / "photos" / "p2.json").write_text(json.dumps({"tiles": [{"tile": t} for t in ("1m", "2m", "3m")],
                                                         "first_read": {"tiles": ["1m", "2m", "4m"], "unsure": [2]}}))
    _serve_with(monkeypatch, tmp_path, lambda: [])
    assert "2 checked photo(s) (read first: 66.7% of their tiles right, 0 of 1 whole);" in capsys.readouterr().out
