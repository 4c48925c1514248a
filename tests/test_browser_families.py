"""The tablet page for the rule families other than Riichi, in Debian's headless Chromium.

Issue 5: Hong Kong, classical (Gravon) and old Japanese games "work at the table page like Riichi
does". Expected points are worked out by hand from the seeds (004 Hong Kong, 002 classical).
The server fixture and the score reader are the Riichi browser test's.
"""

from __future__ import annotations

import os

import pytest
from test_browser import ARTIFACTS, CHROMIUM, _scores, server, tablet  # noqa: F401 (server is a fixture)

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed")

PLAYERS = ("Ann", "Bob", "Cid", "Dan")


@pytest.fixture()
def page(server):  # noqa: F811 (the imported fixture)
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package (test extra) is missing")
    ARTIFACTS.mkdir(exist_ok=True)
    with tablet(sync_api, server + "/?lang=en") as pg:
        yield pg


def _start(page, preset: str) -> None:
    page.select_option("#preset", preset)
    for i, name in enumerate(PLAYERS):
        page.fill(f'input[name="p{i}"]', name)
    page.click("#new-game button[type=submit]")
    page.wait_for_selector('[data-score="Ann"]')


def _confirm(page) -> None:
    page.wait_for_selector("[data-confirm]:not([disabled])")
    page.click("[data-confirm]")
    page.wait_for_selector("#dialog", state="hidden")


def test_new_game_form_offers_the_families_and_only_their_house_rules(page):
    groups = page.eval_on_selector_all("#preset optgroup", "gs => gs.map(g => [g.label, g.children.length])")
    assert groups == [["Riichi", 6], ["Other rule families", 3]]
    page.click("#new-game .overrides summary")
    assert page.locator('input[name="uma"]').is_visible()
    page.select_option("#preset", "hongkong")
    # Hong Kong has no uma and no honba (companion.table.rules family defaults)
    assert page.locator('input[name="uma"]').is_hidden()
    assert page.locator('input[name="honba_value"]').is_hidden()
    assert page.locator('input[name="start_points"]').is_visible()
    page.select_option("#preset", "ema2016")
    assert page.locator('input[name="uma"]').is_visible()


def test_house_rules_for_scoring_are_stored_with_the_game(page):
    # a Hong Kong club playing without the 3-fan minimum (seed 004: minimum "nach Verabredung") and
    # with a 10-fan limit: the form sends them as the game's scoring rules
    page.select_option("#preset", "hongkong")
    page.click("#new-game .overrides summary")
    assert page.locator('select[name="open_tanyao"]').is_hidden()  # a riichi rule
    page.fill('input[name="min_fan"]', "0")
    page.select_option('select[name="cap"]', "10")
    _start(page, "hongkong")
    state = page.evaluate("window.Companion.state")
    assert state["rules"]["scoring"] == {"min_fan": 0, "cap": 10}


def test_hong_kong_self_drawn_win_by_typed_tiles(page):
    _start(page, "hongkong")
    # seed 004: no riichi, no sticks, no counters; everybody starts at 0
    assert page.locator(".riichi-btn").count() == 0
    assert page.locator("#stick-count").is_hidden() and page.locator("#honba-count").is_hidden()
    assert _scores(page) == dict.fromkeys(PLAYERS, 0)

    page.click('[data-action="win"]')
    page.click('#dialog .choice[data-value="tsumo"]')
    page.click('[data-step="winner"] .choice[data-value="Bob"]')
    # han/fu is not offered for Hong Kong
    assert page.locator('[data-winner="Bob"] .choice[data-value="hanfu"]').count() == 0
    page.fill('[data-winner="Bob"] input[data-field="hand"]', "123m456m789m555z99m")
    page.fill('[data-winner="Bob"] input[data-field="flowers"]', "2f")
    page.wait_for_selector("[data-confirm]:not([disabled])")
    # Bob sits South: self-drawn 1 + own flower (2 = South) 1 + mixed one suit 3 + dragon pung 1 = 6 fan;
    # full doubling 2^6 = 64 with base unit 1; on a self-draw each of the three pays half: 32
    preview = page.inner_text(".preview-box")
    assert "+96" in preview and "6 Fan" in preview
    page.screenshot(path=str(ARTIFACTS / "families_hongkong_preview.png"))
    _confirm(page)
    assert _scores(page) == {"Ann": -32, "Bob": 96, "Cid": -32, "Dan": -32}
    st = page.evaluate("window.Companion.state")
    # seed 004: the deal passes when someone other than the dealer wins
    assert st["dealer"] == "Bob" and st["round"] == "E2"
    page.screenshot(path=str(ARTIFACTS / "families_hongkong.png"))

    # seed 004: after a draw the dealer stays (the common agreement); nobody pays, no tenpai question
    page.click('[data-action="draw"]')
    assert page.locator('#dialog .choice[data-value="Ann"]').count() == 0
    _confirm(page)
    st = page.evaluate("window.Companion.state")
    assert st["dealer"] == "Bob" and st["round"] == "E2"
    assert _scores(page) == {"Ann": -32, "Bob": 96, "Cid": -32, "Dan": -32}

    # ending by hand: the running tally is the result; no uma or oka column in these rules
    page.click('[data-action="more"]')
    page.click('#dialog .choice:has-text("End game")')
    _confirm_end = page.wait_for_selector("[data-confirm]:not([disabled])")
    _confirm_end.click()
    page.wait_for_selector(".end-screen")
    head = page.inner_text(".final thead")
    assert "Uma" not in head and "Oka" not in head
    rows = [r.split("\t") for r in page.inner_text(".final tbody").split("\n") if r.strip()]
    assert (rows[0][1], rows[0][-1]) == ("Bob", "+96")
    assert sorted(r[-1] for r in rows[1:]) == ["\u221232"] * 3
    page.screenshot(path=str(ARTIFACTS / "families_hongkong_end.png"))


def test_classical_win_settles_as_seed_002_says(page):
    _start(page, "classical")
    page.click('[data-action="win"]')
    page.click('#dialog .choice[data-value="tsumo"]')
    page.click('[data-step="winner"] .choice[data-value="Bob"]')
    page.click('[data-winner="Bob"] .choice[data-value="direct"]')
    # seed 002's worked example: South's hand is 38 points with 3 doubles = 304, the others hold nothing
    for name, value in {"Ann": 0, "Bob": 304, "Cid": 0, "Dan": 0}.items():
        page.fill(f'[data-winner="Bob"] input[data-amount="{name}"]', str(value))
    page.wait_for_selector("[data-confirm]:not([disabled])")
    assert "+1,216" in page.inner_text(".preview-box")
    _confirm(page)
    # the winner collects 304 from West and North and double (608) from East: 1216
    assert _scores(page) == {"Ann": -608, "Bob": 1216, "Cid": -304, "Dan": -304}
    page.screenshot(path=str(ARTIFACTS / "families_classical.png"))


def test_classical_typed_tiles_seed_002_worked_example(page):
    _start(page, "classical")
    page.click('[data-action="win"]')
    page.click('#dialog .choice[data-value="tsumo"]')
    page.click('[data-step="winner"] .choice[data-value="Bob"]')
    # seed 002: South, three chis, an open pong of East, red dragon pair completed by a drawn tile,
    # flowers 2 and 4: 38 points, 3 doubles -> 304; the losers' hands are left empty (winner only)
    page.fill('[data-winner="Bob"] input[data-field="hand"]', "234m567p678s77z")
    page.fill('[data-winner="Bob"] input[data-field="melds"]', "111z")
    page.fill('[data-winner="Bob"] input[data-field="flowers"]', "2f4f")
    page.wait_for_selector("[data-confirm]:not([disabled])")
    assert "304" in page.inner_text(".preview-box") and "+1,216" in page.inner_text(".preview-box")
    _confirm(page)
    assert _scores(page) == {"Ann": -608, "Bob": 1216, "Cid": -304, "Dan": -304}


def test_old_japanese_riichi_ron_by_typed_tiles(page):
    _start(page, "oldjapanese")
    assert _scores(page) == dict.fromkeys(PLAYERS, 27000)  # seed 001: 27,000 in sticks each
    page.click('.riichi-btn[data-player="Cid"]')
    page.wait_for_selector('.riichi-btn.on[data-player="Cid"]')
    page.click('[data-action="win"]')
    page.click('#dialog .choice[data-value="ron"]')
    page.click('[data-step="winner"] .choice[data-value="Cid"]')
    page.click('[data-step="discarder"] .choice[data-value="Bob"]')
    assert page.locator('[data-winner="Cid"] input[data-flag="riichi"]').is_checked()  # from the table
    # seed 001 ch. 4 IV/V: West, riichi, 3m from South into the 2-4m kanchan: 36 points, 3 doubles;
    # method 2 (the book's "more popular" one, the preset default) makes it 1300 from the discarder
    page.fill('[data-winner="Cid"] input[data-field="hand"]', "24m234p234s666p55s3m")
    page.wait_for_selector("[data-confirm]:not([disabled])")
    _confirm(page)
    # Cid: 27000 - 1000 stick + 1300 + his stick back
    assert _scores(page) == {"Ann": 27000, "Bob": 25700, "Cid": 28300, "Dan": 27000}


def test_hong_kong_counted_fan_fills_the_discarder_payment(page):
    _start(page, "hongkong")
    page.click('[data-action="win"]')
    page.click('#dialog .choice[data-value="ron"]')
    page.click('[data-step="winner"] .choice[data-value="Dan"]')
    page.click('[data-step="discarder"] .choice[data-value="Ann"]')
    page.click('[data-winner="Dan"] .choice[data-value="direct"]')
    page.click('[data-winner="Dan"] [data-step="fan"] .choice[data-value="3"]')
    # seed 004, full doubling: 3 fan = 2^3 = 8, all of it from the discarder
    _confirm(page)
    assert _scores(page) == {"Ann": -8, "Bob": 0, "Cid": 0, "Dan": 8}
    # the dealer (Ann) lost: the deal passes to Bob
    assert page.evaluate("window.Companion.state.dealer") == "Bob"
