"""Hong Kong payments (seed 004 "Zahlungsbetragstabelle", issue 5) against the published tables.

The tables are typed here from issue 5 / seed 004 as data and every amount is
computed from them in the test, independently of the package's own arithmetic.
"""

from __future__ import annotations

import pytest

from companion.errors import InvalidRequestError
from companion.rules import hongkong
from companion.rules.hongkong.options import HongKongOptions
from companion.rules.hongkong.payments import settle

# units for 0..13 fan: "Laak-Laak" doubles every fan, "Boon-Laak" from 4 fan on every two fan
FULL_TABLE = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
HALF_TABLE = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)
TABLES = {"full": FULL_TABLE, "half": HALF_TABLE}
SEATS = "ESWN"


def expected(mode: str, s: float, winner: str, other: str) -> dict[str, float]:
    """Signed change per seat; ``other`` is the discarder or the responsible player."""
    out = {w: 0.0 for w in SEATS}
    losers = [w for w in SEATS if w != winner]
    if mode == "ron_all":
        out[other] = -s
    elif mode == "ron_half":
        for w in losers:
            out[w] = -s / 2 if w == other else -s / 4
    elif mode == "tsumo":
        for w in losers:
            out[w] = -s / 2
    elif mode in ("responsible", "robbed_kong"):
        out[other] = -3 * s / 2
    out[winner] = -sum(out.values())
    return out


@pytest.mark.parametrize("payment", ["full", "half"])
@pytest.mark.parametrize("base", [1, 2, 0.5])
@pytest.mark.parametrize("mode", ["ron_all", "ron_half", "tsumo", "responsible", "robbed_kong"])
def test_every_fan_0_to_13_in_every_payment_mode(payment, base, mode):
    # issue 5: full (2^fan) or half doubling; discarder pays all or S/2 + S/4 each; self-draw S/2 each;
    # a responsible player (seed 004) or a robbed kong's owner pays the whole self-draw amount
    options = HongKongOptions(cap=13, min_fan=0, payment=payment, base=base,
                              discard_pays="half" if mode == "ron_half" else "all")
    for fan in range(14):
        s = TABLES[payment][fan] * base
        for winner, other in (("E", "S"), ("S", "N"), ("N", "W")):
            payments, by_seat = settle(
                fan, options, winner=winner, tsumo=mode in ("tsumo", "responsible"),
                discarder=other if mode.startswith("ron") or mode == "robbed_kong" else None,
                responsible=other if mode == "responsible" else None,
                pays_as_self_draw=mode == "robbed_kong",
            )
            assert by_seat == pytest.approx(expected(mode, s, winner, other)), (fan, winner)
            assert sum(by_seat.values()) == 0
            if mode == "ron_all":
                assert payments == {"discarder": s}
            elif mode == "ron_half":
                assert payments == {"discarder": s / 2, "each_other": s / 4}
            elif mode == "tsumo":
                assert payments == {"each": s / 2}


def test_no_dealer_doubling():
    # issue 5: "no dealer doubling" - East wins or pays the same as anyone
    options = HongKongOptions()
    _, east_wins = settle(5, options, winner="E", tsumo=True)
    _, south_wins = settle(5, options, winner="S", tsumo=True)
    assert east_wins["E"] == south_wins["S"] == 3 * 32 / 2


@pytest.mark.parametrize("cap", [8, 10, 13])
def test_fan_above_the_cap_pays_the_cap(cap):
    # seed 004: hands limited to 8 or 10 fan, 13 at most
    options = HongKongOptions(cap=cap)
    payments, _ = settle(13, options, winner="S", tsumo=False, discarder="E")
    assert payments == {"discarder": FULL_TABLE[cap]}


def hk(hand: str, rules: dict | str, **kw) -> dict:
    request = {"rules": rules, "hand": hand, "win_tile": hand[-2:], "seat_wind": "S", "round_wind": "E"}
    request.update(kw)
    return hongkong.score(request)


NO_MIN = {"preset": "hongkong", "min_fan": 0}


def test_end_to_end_half_doubling_and_half_responsibility():
    # half flush 3 + dragon 1 + no flowers 1 = 5 fan -> Boon-Laak 24; discarder 12, the others 6 each
    r = hk("123m456m789m555z55m", {"preset": "hongkong", "payment": "half", "discard_pays": "half"},
           discarder="W")
    assert r["fan"] == 5
    assert r["payments"] == {"discarder": 12, "each_other": 6}
    assert r["payments_by_seat"] == {"E": -6, "S": 24, "W": -12, "N": -6} and r["total_gain"] == 24


def test_fourth_meld_fed_makes_the_feeder_pay_a_self_draw_alone():
    # seed 004 "Vier Beanspruchungen": self 1 + no flowers 1 = 2 fan -> 4; self-draw total 3 * 2 = 6 from N
    melds = [{"type": "chi", "tiles": "123p"}, {"type": "pon", "tiles": "777s"},
             {"type": "chi", "tiles": "456s"}, {"type": "pon", "tiles": "999m"}]
    r = hk("55m", NO_MIN, melds=melds, tsumo=True, responsible="N", responsibility="fourth_meld")
    assert r["payments"] == {"responsible": 6}
    assert r["payments_by_seat"] == {"E": 0, "S": 6, "W": 0, "N": -6}


def test_third_dragon_fed():
    # seed 004 "Dritter Drilling der Drachen": big three dragons 8 + self 1 + no flowers 1 -> cap 8 = 256
    melds = [{"type": "pon", "tiles": "555z"}, {"type": "pon", "tiles": "666z"}, {"type": "pon", "tiles": "777z"}]
    r = hk("123m99m", NO_MIN, melds=melds, tsumo=True, responsible="E", responsibility="third_dragon")
    assert r["payments_by_seat"] == {"E": -384, "S": 384, "W": 0, "N": 0}


def test_win_on_replacement_after_a_fed_kong():
    # seed 004: the one who discarded into the kong pays the self-draw total: self 1 + kong 1 + no flowers 1 = 3
    r = hk("123m456m789m55s", NO_MIN, melds=[{"type": "minkan", "tiles": "2222p"}], tsumo=True, rinshan=True,
           responsible="E", responsibility="kong_replacement")
    assert r["payments_by_seat"] == {"E": -12, "S": 12, "W": 0, "N": 0}


def test_responsibility_cases_are_checked():
    with pytest.raises(InvalidRequestError):
        hk("123m456m789m55s", NO_MIN, melds=[{"type": "minkan", "tiles": "2222p"}], tsumo=True, rinshan=True,
           responsible="E")  # which case?
    with pytest.raises(InvalidRequestError):
        hk("123m456m789m55s", NO_MIN, melds=[{"type": "pon", "tiles": "222p"}], tsumo=True,
           responsible="E", responsibility="fourth_meld")  # only one called set


def test_robbing_the_kong_pays_like_a_self_draw():
    # seed 004: "der Gegner bezahlt den Gesamtbetrag, als wäre der Gewinn mit einem eigenen Zug"
    # all chows 1 + robbing 1 + no flowers 1 = 3 fan -> 8; the kong's owner pays 3 * 4 = 12
    r = hk("123m456m789m234p55s", NO_MIN, chankan=True, discarder="N")
    assert r["fan"] == 3 and r["payments_by_seat"] == {"E": 0, "S": 12, "W": 0, "N": -12}


@pytest.mark.parametrize("reading,payment,each", [("self_draw", "full", 128), ("discard", "full", 256),
                                                  ("self_draw", "half", 32), ("discard", "half", 64)])
def test_false_win_pays_a_limit_to_every_other_player(reading, payment, each):
    # seed 004: the offender pays each other player the maximum, "nach Verabredung den Betrag für eigenen
    # Zug oder Abwurf": cap 8 -> full 256 / half 64 per discard, half that per self-draw share
    r = hongkong.score({"rules": {"preset": "hongkong", "false_win": reading, "payment": payment},
                        "false_win": True, "seat_wind": "W"})
    assert r["payments_by_seat"] == {"E": each, "S": each, "W": -3 * each, "N": each}
