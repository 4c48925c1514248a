"""Issue 3 ("Storage", "Proof"): a server killed with SIGKILL while events are posted loses no
acknowledged event, and after a restart its state is exactly a replay of the stored events.

Everything runs on the loopback interface, with a temporary instance folder; every loop is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from companion.table.game import fold
from companion.table.store import Store

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(instance: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--instance", instance],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(150):  # at most ~15 s
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("companion serve exited while starting") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("companion serve did not come up")


def _call(port: int, method: str, path: str, body: dict | None = None, timeout: float = 5) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _event(i: int) -> dict:
    # events that can follow each other without end: point corrections and all-tenpai draws
    # (nobody pays, the dealer keeps the deal, a honba is added)
    if i % 2:
        return {"type": "draw", "tenpai": list(PLAYERS)}
    return {"type": "correction", "deltas": {"Ann": 100, "Bob": -100, "Cid": 0, "Dan": 0}, "reason": f"test {i}"}


def test_sigkill_while_posting_loses_no_acknowledged_event(tmp_path):
    instance = str(tmp_path / "instance")
    port = _free_port()
    server = _start(instance, port)
    acked: dict[str, int] = {}   # client_id -> seq the server answered 200 for
    unanswered: list[tuple[str, int, dict]] = []
    refused: list[tuple[int, dict]] = []
    try:
        status, state = _call(port, "POST", "/api/games", {"rules": "ema2016", "players": PLAYERS})
        assert status == 201
        gid = state["id"]

        def post_until_the_server_dies() -> None:
            seq = 1
            for i in range(2000):  # bounded; the kill ends it much earlier
                body = {**_event(i), "client_id": f"c{i}", "expected_seq": seq}
                try:
                    status, answer = _call(port, "POST", f"/api/games/{gid}/events", body, timeout=3)
                except (OSError, ValueError, http.client.HTTPException):  # killed mid-answer
                    unanswered.append((f"c{i}", seq, _event(i)))
                    return
                if status != 200:
                    refused.append((status, answer))
                    return
                acked[f"c{i}"] = answer["append"]["seq"]
                seq += 1

        poster = threading.Thread(target=post_until_the_server_dies, daemon=True)
        poster.start()
        for _ in range(600):  # up to ~30 s for 40 acknowledged events
            if len(acked) >= 40 or not poster.is_alive():
                break
            time.sleep(0.05)
        os.kill(server.pid, signal.SIGKILL)  # mid-stream: the poster has a request in flight
        server.wait(timeout=10)
        poster.join(timeout=15)
        assert not poster.is_alive()
        assert refused == []
        assert len(acked) >= 40

        server = _start(instance, port)
        status, state = _call(port, "GET", f"/api/games/{gid}")
        assert status == 200
        stored = {e["client_id"]: e["seq"] for e in state["events"]}
        for client_id, seq in acked.items():
            assert stored.get(client_id) == seq, client_id
        # seqs have no gaps: nothing half-written
        assert sorted(stored.values()) == list(range(1, len(stored) + 1))

        # the event whose answer was lost is retried with its client id: stored exactly once
        for client_id, seq, event in unanswered:
            status, answer = _call(port, "POST", f"/api/games/{gid}/events",
                                   {**event, "client_id": client_id, "expected_seq": seq})
            assert status == 200, answer
            assert answer["append"]["duplicate"] == (client_id in stored)
        status, state = _call(port, "GET", f"/api/games/{gid}")
        client_ids = [e["client_id"] for e in state["events"]]
        assert len(client_ids) == len(set(client_ids)) == len(acked) + len(unanswered)

        # the served state is exactly a fresh replay of what is on disk
        database = os.path.join(instance, "companion.sqlite3")
        game, events = Store(database).load(gid)
        replay = fold(game, events).to_dict()
        for key in ("scores", "honba", "riichi_sticks", "dealer", "round", "next_seq", "history", "finished"):
            assert state[key] == replay[key], key
        # correction n adds 100 to Ann: every stored correction counts once
        corrections = sum(1 for e in events if e["type"] == "correction")
        assert state["scores"]["Ann"] == 30000 + 100 * corrections
        with sqlite3.connect(database) as con:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        server.kill()
        server.wait(timeout=10)
