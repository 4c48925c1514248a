"""The tablet page in Debian's headless Chromium: a short game entered by tapping, as at a table.

Issue 3 ("Proof"): start a game, declare riichi, enter a ron, a draw, a chombo, undo, and finish;
screenshots of the table view and the end screen go to test-artifacts/. Expected points are worked
out by hand from the EMA 2016 rules (seed 000: 30,000 start, 1000 per riichi, 3000 tenpai payment,
uma 15/5/-5/-15, no oka; chombo is a 20,000 penalty after uma).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed "
                                "(apt-get install chromium); the browser test drives Debian's chromium only")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def server(tmp_path):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--instance", str(tmp_path / "instance")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):  # at most ~10 s to come up
            try:
                urllib.request.urlopen(base + "/api/games", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(proc.stdout.read().decode()) from None
                time.sleep(0.1)
        else:
            raise RuntimeError("companion serve did not answer within 10 s")
        yield base
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _scores(page) -> dict[str, int]:
    out = {}
    for name in ("Ann", "Bob", "Cid", "Dan"):
        text = page.locator(f'[data-score="{name}"] .points').inner_text()
        out[name] = int(text.replace(",", "").replace(".", "").replace("\u2212", "-"))
    return out


def test_a_short_game_entered_by_tapping(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package (test extra) is missing")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
            page.set_default_timeout(8000)
            page.goto(server + "/?lang=en")

            page.select_option("#preset", "ema2016")
            for i, name in enumerate(("Ann", "Bob", "Cid", "Dan")):
                page.fill(f'input[name="p{i}"]', name)
            page.click("#new-game button[type=submit]")
            page.wait_for_selector('[data-score="Ann"]')
            assert _scores(page) == {"Ann": 30000, "Bob": 30000, "Cid": 30000, "Dan": 30000}

            # one tap declares riichi: Ann puts 1000 on the table
            page.click('.riichi-btn[data-player="Ann"]')
            page.wait_for_selector('.riichi-btn.on[data-player="Ann"]')
            assert page.inner_text("#stick-count b") == "1"
            assert _scores(page)["Ann"] == 29000

            # Bob (non-dealer) rons Cid with 3 han 30 fu: 30 * 2^5 * 4 = 3840 -> 3900, plus Ann's stick
            page.click('[data-action="win"]')
            page.click('#dialog .choice[data-value="ron"]')
            page.click('[data-step="winner"] .choice[data-value="Bob"]')
            page.click('[data-step="discarder"] .choice[data-value="Cid"]')
            page.click('[data-step="han"] .choice[data-value="3"]')
            page.click('[data-step="fu"] .choice[data-value="30"]')
            page.wait_for_selector("[data-confirm]:not([disabled])")
            assert "+4,900" in page.inner_text(".preview")  # previewed before confirming
            page.click("[data-confirm]")
            page.wait_for_selector("#dialog", state="hidden")
            assert _scores(page) == {"Ann": 29000, "Bob": 34900, "Cid": 26100, "Dan": 30000}

            # exhaustive draw in East 2 (dealer Bob), only Ann tenpai: +3000, the others -1000
            page.click('[data-action="draw"]')
            page.click('#dialog .choice[data-value="Ann"]')
            page.wait_for_selector("[data-confirm]:not([disabled])")
            page.click("[data-confirm]")
            page.wait_for_selector("#dialog", state="hidden")
            assert _scores(page) == {"Ann": 32000, "Bob": 33900, "Cid": 25100, "Dan": 29000}
            assert page.inner_text("#honba-count b") == "1"
            page.screenshot(path=str(ARTIFACTS / "table.png"))

            # chombo by Dan, then undone: the log keeps both, the penalty is gone
            page.click('[data-action="chombo"]')
            page.click('#dialog .choice[data-value="Dan"]')
            page.wait_for_selector("[data-confirm]:not([disabled])")
            page.click("[data-confirm]")
            page.wait_for_selector("#dialog", state="hidden")
            state = page.evaluate("window.Companion.state")
            assert state["chombo_penalties"]["Dan"] == 20000
            page.click('[data-action="undo"]')
            page.wait_for_selector("[data-confirm]:not([disabled])")
            assert "Chombo" in page.inner_text("#dialog-body")
            page.click("[data-confirm]")
            page.wait_for_selector("#dialog", state="hidden")
            state = page.evaluate("window.Companion.state")
            assert state["chombo_penalties"]["Dan"] == 0
            assert [h["type"] for h in state["history"]] == ["riichi", "win", "draw", "chombo", "undo"]

            page.click('[data-action="history"]')
            assert page.locator("#dialog tr.undone").count() == 1
            page.click("#dialog-foot [data-close]")

            # end the game by hand; uma 15/5/-5/-15 around 30,000 (EMA 2016, no oka)
            page.click('[data-action="more"]')
            page.click('#dialog .choice:has-text("End game")')
            page.wait_for_selector("[data-confirm]:not([disabled])")
            page.click("[data-confirm]")
            page.wait_for_selector(".end-screen")
            rows = [r.split("\t") for r in page.inner_text(".final tbody").split("\n") if r.strip()]
            assert [(r[1], r[-1]) for r in rows] == [("Bob", "+18,900"), ("Ann", "+7,000"),
                                                      ("Dan", "\u22126,000"), ("Cid", "\u221219,900")]
            page.screenshot(path=str(ARTIFACTS / "end.png"))

            # /?game=<id> (the tournament page's link to a table) opens that game
            page.goto(f"{server}/?game={state['id']}")
            page.wait_for_selector('[data-score="Ann"]')
            page.click("#dialog-foot .primary")

            # the language switch is remembered across a reload
            page.click('#view-table [data-lang="de"]')
            assert page.inner_text('[data-action="history"]') == "Verlauf"
            page.goto(server + "/")
            page.wait_for_selector('[data-lang="de"].on')
        finally:
            browser.close()
