"""The scorekeeper page in headless Chromium (Debian's /usr/bin/chromium, never downloaded).

Creates a tournament through the form, seats round 1 with the button, ends one table's game
through the table service and checks the standings the page shows after its refresh: South of
that table +18.9 (3 han 30 fu ron from East under EMA 2016: +3,900 + 15,000 uma, see
tests/test_tournament_standings.py). Screenshots go to test-artifacts/.

Also the words of the tablet's final-result dialog: every end reason the table's fold can give has a
text in web/static/i18n.js in English and German, and the dialog shows them rather than a key.
"""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture()
def server(tmp_path):
    from werkzeug.serving import make_server

    from companion.web import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    if "tournament" not in app.blueprints:
        from companion.web.tournament_api import bp

        app.register_blueprint(bp)
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join()


@needs_chromium
def test_create_seat_and_show_standings_in_the_browser(server) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from companion.table import service as table_service
    from companion.table.store import Store

    app, base = server
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/tournament")
        page.fill("#create-form input[name=name]", "Autumn Cup")
        page.fill("#create-form textarea[name=players]",
                  "\n".join(f"Player {i}; Club {i % 3}; DE" for i in range(1, 18)))
        assert "not a multiple of 4" in page.inner_text("#player-count")
        page.fill("#create-form textarea[name=players]",
                  "\n".join(f"Player {i}; Club {i % 3}; DE" for i in range(1, 17)))
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/tournament/*")
        page.wait_for_selector("#standings-body tr")
        assert page.locator("#standings-body tr").count() == 16

        page.click(".tabs button[data-tab=rounds]")
        page.click("#seat")
        page.wait_for_selector("#rounds .table-card")
        assert page.locator("#rounds .table-card").count() == 4
        tid = page.url.rsplit("/", 1)[1]
        page.click(".tabs button[data-tab=seating]")
        assert page.locator("#seating-list li").count() == 16

        store = Store(app.config["DATABASE"])
        view = app.test_client().get(f"/api/tournaments/{tid}").get_json()
        table = view["rounds"][0]["tables"][0]
        names = [s["name"] for s in table["seats"]]
        table_service.append_event(store, table["game_id"], {
            "type": "win", "winners": [{"player": names[1], "han": 3, "fu": 30}], "discarder": names[0]}, "a", 1)
        table_service.append_event(store, table["game_id"], {"type": "end"}, "b", 2)

        # table 2 played on paper: the score sheet's final points (script B of the standings tests)
        page.click(".tabs button[data-tab=rounds]")
        card = page.locator("#rounds .table-card").nth(1)
        card.get_by_role("button", name="Score sheet…").click()
        for wind, pts in zip("ESWN", (41700, 26100, 26100, 26100), strict=True):
            card.locator(f"input[name={wind}]").fill(str(pts))
        card.get_by_role("button", name="Save final points").click()
        page.wait_for_selector("#rounds .table-card.finished")
        # a table played on paper keeps its score-sheet form for a corrected sheet; the tablet's table has none
        assert page.locator("#rounds .table-card").nth(1).get_by_role("button", name="Score sheet…").count() == 1
        assert page.locator("#rounds .table-card").nth(0).get_by_role("button", name="Score sheet…").count() == 0

        page.reload()
        page.click(".tabs button[data-tab=standings]")
        page.wait_for_selector("#standings-body tr")
        first = page.locator("#standings-body tr").first
        paper_east = view["rounds"][0]["tables"][1]["seats"][0]["name"]
        assert paper_east in first.inner_text() and "+26.7" in first.inner_text()
        second = page.locator("#standings-body tr").nth(1)
        assert names[1] in second.inner_text() and "+18.9" in second.inner_text()
        last = page.locator("#standings-body tr").last
        assert names[0] in last.inner_text() and "\u221218.9" in last.inner_text()
        second.click()  # the ron winner's games: round 1, South, 1st place, +18.9
        detail = page.inner_text("#standings-body .player-detail")
        assert "+18.9" in detail and names[0] in detail
        page.screenshot(path=str(ARTIFACTS / "tournament-standings.png"), full_page=True)

        page.click("[data-lang=de]")
        assert page.inner_text(".tabs button[data-tab=standings]") == "Tabelle"
        page.click(".tabs button[data-tab=rounds]")
        assert "2 / 4 Tische fertig" in page.inner_text("#rounds")
        page.screenshot(path=str(ARTIFACTS / "tournament-rounds-de.png"), full_page=True)
        page.evaluate("localStorage.removeItem('companion.lang')")

        # a table's tablet bookmark goes to its game of the latest round while that is running
        tablet = browser.new_page()
        tablet.on("pageerror", lambda e: errors.append(str(e)))
        game3 = view["rounds"][0]["tables"][2]["game_id"]
        tablet.goto(f"{base}/tournament/{tid}/table/3")
        tablet.wait_for_url(f"**/?game={game3}")
        browser.close()
    assert errors == []


# ---------------------------------------------------------------- the tablet's final result

# the reasons companion/table/game.py gives without a literal in a _finish call: an end entered at the
# table ("manual", via _end) and agari-yame / tenpai-yame (f"{yame}_yame")
_UNWRITTEN_REASONS = {"manual", "agari_yame", "tenpai_yame"}


def _end_reasons() -> set[str]:
    """Every ``end_reason`` the server can send: each literal ``_finish(st, "...")`` of the table's fold,
    and the ones it builds (``_UNWRITTEN_REASONS``, read off the code by hand)."""
    source = (ROOT / "companion" / "table" / "game.py").read_text(encoding="utf-8")
    return set(re.findall(r'_finish\(st, "(\w+)"\)', source)) | _UNWRITTEN_REASONS


def _page_texts() -> dict[str, dict[str, str]]:
    """web/static/i18n.js as ``{language: {key: text}}`` (one ``xx: {`` block per language)."""
    source = (ROOT / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
    blocks = re.split(r"^  (\w+): \{$", source, flags=re.M)
    return {lang: dict(re.findall(r'(\w+): "((?:[^"\\]|\\.)*)"', body))
            for lang, body in zip(blocks[1::2], blocks[2::2], strict=True)}


def test_every_end_reason_the_table_can_send_has_words_in_english_and_german() -> None:
    reasons = _end_reasons()
    # read off companion/table/game.py by hand: all rounds played, extra rounds (sudden death, run
    # out), bust, the two yame, and an end entered at the table; the collector must find at least these
    assert reasons >= {"complete", "sudden_death", "extra_rounds_exhausted", "bust", "agari_yame",
                       "tenpai_yame", "manual"}
    texts = _page_texts()
    for lang in ("en", "de"):
        missing = sorted(r for r in reasons if not texts[lang].get(f"reason_{r}", "").strip())
        assert missing == [], f"web/static/i18n.js has no {lang} words for end reason(s) {missing}"


@needs_chromium
def test_the_final_result_says_in_words_why_the_game_ended(server) -> None:
    # QA: "Game over: reason_complete" after every game played to its end. East only (EMA 2016 with
    # length east): South, West, North and East each ron the dealer, so the deal passes four times
    # and the game ends "complete"; a reason the page does not know (a newer server) leaves the
    # heading alone rather than show a key
    sync_api = pytest.importorskip("playwright.sync_api")
    from companion.table import service as table_service
    from companion.table.store import Store

    app, base = server
    store = Store(app.config["DATABASE"])
    names = ["Ann", "Bob", "Cid", "Dan"]
    game = table_service.create_game(store, "ema2016", {"length": "east"}, names)
    for i in range(4):
        game = table_service.append_event(store, game["id"], {
            "type": "win", "winners": [{"player": names[(i + 1) % 4], "han": 1, "fu": 30}],
            "discarder": names[i]}, f"w{i}", i + 1)
    assert game["finished"] and game["end_reason"] == "complete"
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("pageerror", lambda e: errors.append(str(e)))
        for lang, words in (("en", "Game over: all rounds played"), ("de", "Spielende: alle Runden gespielt")):
            page.goto(f"{base}/?lang={lang}&game={game['id']}")
            page.wait_for_selector(".end-screen")
            assert page.inner_text(".end-screen p") == words

        def newer_server(route) -> None:  # noqa: ANN001
            response = route.fetch()
            route.fulfill(response=response, json={**response.json(), "end_reason": "time_over"})

        page.route(f"**/api/games/{game['id']}", newer_server)
        page.goto(f"{base}/?lang=de&game={game['id']}")
        page.wait_for_selector(".end-screen")
        assert page.inner_text(".end-screen p") == "Spielende"
        browser.close()
    assert errors == []
