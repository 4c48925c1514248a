"""A server killed (SIGKILL) while penalties are posted loses no acknowledged entry.

The contract is the table's (issue 3, storage): every accepted entry is committed before the
answer is sent, and a retry after a lost answer does not apply twice.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

SERVER = """
import sys
from waitress import serve
from companion.web import create_app
from companion.web.tournament_api import bp
app = create_app({"INSTANCE_PATH": sys.argv[1]})
if "tournament" not in app.blueprints:
    app.register_blueprint(bp)
serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=4, _quiet=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body: dict | None = None, timeout: float = 5) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def start(instance: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", SERVER, instance, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            call(base, "GET", "/api/tournaments", timeout=1)
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    pytest.fail("the server did not start")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_killed_server_keeps_every_acknowledged_entry(tmp_path) -> None:
    pytest.importorskip("waitress")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(str(tmp_path), port)
    try:
        status, t = call(base, "POST", "/api/tournaments",
                         {"name": "Cup", "rounds": 2, "players": [f"P{i}" for i in range(8)], "client_id": "c"})
        assert status == 201
        tid = t["id"]
        status, _ = call(base, "POST", f"/api/tournaments/{tid}/rounds", {"client_id": "r1"})
        assert status == 201
        acked: list[str] = []
        stop = threading.Event()

        def post_penalties() -> None:
            i = 0
            while not stop.is_set():
                i += 1
                try:
                    status, _ = call(base, "POST", f"/api/tournaments/{tid}/penalties",
                                     {"player": f"p{1 + i % 8}", "points": 100, "reason": f"n{i}",
                                      "client_id": f"k{i}"})
                except (OSError, http.client.HTTPException):
                    return  # the server is gone: this one was not acknowledged
                if status == 201:
                    acked.append(f"n{i}")

        writer = threading.Thread(target=post_penalties)
        writer.start()
        time.sleep(0.8)
        proc.send_signal(signal.SIGKILL)  # while the writer is sending: one entry may be half done
        proc.wait()
        stop.set()
        writer.join()
        assert len(acked) > 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    proc = start(str(tmp_path), port)
    try:
        status, view = call(base, "GET", f"/api/tournaments/{tid}")
        assert status == 200
        reasons = [p["reason"] for p in view["penalties"]]
        # every acknowledged entry is there, in order; the one in flight may have been committed
        assert reasons[:len(acked)] == acked and len(acked) <= len(reasons) <= len(acked) + 1
        assert len(view["rounds"]) == 1 and len(view["rounds"][0]["tables"]) == 2
        # a retry of the last acknowledged entry does not apply twice
        status, again = call(base, "POST", f"/api/tournaments/{tid}/penalties",
                             {"player": "p1", "points": 100, "reason": acked[-1], "client_id": f"k{len(acked)}"})
        assert status == 200 and again["duplicate"] is True
        assert sum(r["penalties"] for r in again["tournament"]["standings"]) == 100 * len(reasons)
    finally:
        proc.kill()
        proc.wait()
