"""Differential test: our riichi engine against the `mahjong` package (PyPI, 2.1.0) on seeded random hands.

The hands come from ``tests/riichi_random.py``: 10,000 winning hands (standard,
seven pairs, thirteen orphans, nine gates and other yakuman shapes), open and
closed, with chi/pon/open kan/added kan/concealed kan, red fives, dora and ura
indicators, riichi/double riichi/ippatsu/tsumo/rinshan/chankan/haitei/houtei and
the three blessings, all seat and round winds, honba and riichi sticks. They are
scored under two rule profiles that together use both values of every option
the package can express (``riichi_random.PROFILES``).

Compared for every hand: the outcome (scored, or "no yaku" on both sides), and
for scored hands the yakuman multiplier, han and fu (ordinary hands), the limit
name (mangan ... sanbaiman, kazoe), every yaku with its han, every payment (honba
included), each seat's point change and the total gain (riichi sticks included).

Run as a script for other sizes and a readable report::

    python tests/test_riichi_differential.py --full            # 20,000 hands
    python tests/test_riichi_differential.py --n 50000 --seed 7 --show 20
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import riichi_random  # noqa: E402  (a helper module next to this file, shared with benchmarks/)

mahjong = pytest.importorskip("mahjong", reason="the differential test needs the test extra (mahjong==2.1.0)")

SEED = 20261122
N_HANDS = int(os.environ.get("COMPANION_DIFF_HANDS", "10000"))


def _engine():
    from companion.rules import riichi

    if not callable(getattr(riichi, "score", None)):
        pytest.skip("companion.rules.riichi.score not there yet")
    return riichi.score


# ---- deliberate differences -------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    """A case where we knowingly score differently from the package, and the rule that says so."""

    id: str
    rule: str
    applies: Callable[[dict, dict | None, object], bool]


# Each entry must match only the hands it explains: the predicate looks at the request and both
# results and is checked for every mismatch; a mismatch no entry explains fails the test.
#
# None is needed so far: on the profiles below the engine and the package agree on every hand
# (10,000 in the test, 60,000+ with the script). Rule choices where the package has no switch are
# not compared at all rather than filtered, because the profiles pin them to the package's value
# (riichi_random.FIXED_OPTIONS): double-wind pair 2 fu, renhou as mangan or not a yaku, kazoe "none",
# yakuman not stacking, no ippatsu/ura/kan dora, honba other than 300, the local yaku (daichiishin,
# ishino uenimo sannen, ryanzou's pinzu bonus yaku), all green needing hatsu, tenhou's free choice of
# the winning tile, and a chosen subset of double yakuman. Those are covered by the engine's own tests.
KNOWN_DIFFERENCES: list[Difference] = []


# ---- comparison ---------------------------------------------------------------------------------------

# the package's yaku_id -> our yaku id (seat and round wind are one id each with us)
PACKAGE_YAKU = {
    0: "menzen_tsumo", 1: "riichi", 3: "ippatsu", 4: "chankan", 5: "rinshan", 6: "haitei", 7: "houtei",
    8: "double_riichi", 11: "renhou", 12: "pinfu", 13: "tanyao", 14: "iipeikou", 15: "yakuhai_haku",
    16: "yakuhai_hatsu", 17: "yakuhai_chun", 18: "yakuhai_seat_wind", 19: "yakuhai_seat_wind",
    20: "yakuhai_seat_wind", 21: "yakuhai_seat_wind", 22: "yakuhai_round_wind", 23: "yakuhai_round_wind",
    24: "yakuhai_round_wind", 25: "yakuhai_round_wind", 26: "sanshoku", 27: "ittsu", 28: "chanta",
    29: "honroutou", 30: "toitoi", 31: "sanankou", 32: "sankantsu", 33: "sanshoku_doukou", 34: "chiitoitsu",
    35: "shousangen", 36: "honitsu", 37: "junchan", 38: "ryanpeikou", 39: "chinitsu", 100: "kokushi",
    101: "chuuren", 102: "suuankou", 103: "daisangen", 104: "shousuushii", 105: "ryuuiisou", 106: "suukantsu",
    107: "tsuuiisou", 108: "chinroutou", 111: "daisuushii", 112: "kokushi_13", 113: "suuankou_tanki",
    114: "junsei_chuuren", 115: "tenhou", 116: "chiihou", 117: "renhou", 120: "dora", 121: "aka_dora",
    122: "ura_dora",
}


def package_yaku(theirs) -> list[tuple[str, int]]:
    """The package's yaku as sorted (our id, han) pairs, han as the package counted it for this hand."""
    out = []
    for y in theirs.yaku:
        han = y.han_open if theirs.is_open_hand and y.han_open else y.han_closed
        out.append((PACKAGE_YAKU.get(y.yaku_id, f"package:{y.name}"), han))
    return sorted(out)


def _norm_limit(level: str | None) -> str | None:
    if not level:
        return None
    level = level.lower().replace("kiriage ", "")
    if level == "kazoe sanbaiman":
        return "sanbaiman"
    return level


def package_limit(han: int, fu: int, level: str, is_yakuman: bool) -> str | None:
    """The limit name the package's payment corresponds to.

    The package leaves ``yaku_level`` empty for a hand below 5 han whose base points exceed
    2000 when kiriage is on (it still pays the mangan), so the name is rebuilt from han and fu."""
    if is_yakuman:
        return None
    level = _norm_limit(level)
    if level is None and han < 5 and fu * 2 ** (han + 2) > 2000:
        level = "mangan"
    return level


def payments_from_package(request: dict, cost: dict) -> dict:
    """The package's ``main/additional`` (+ bonuses) in our ``payments`` keys (issue 2)."""
    if not request.get("tsumo"):
        return {"discarder": cost["main"] + cost["main_bonus"]}
    if request.get("seat_wind", "E") == "E":
        return {"each_non_dealer": cost["main"] + cost["main_bonus"]}
    return {"dealer": cost["main"] + cost["main_bonus"],
            "each_non_dealer": cost["additional"] + cost["additional_bonus"]}


def by_seat_from_package(request: dict, pay: dict, total: int) -> dict | None:
    """Each seat's change (issue 5's ``payments_by_seat``, which riichi gives too): payers lose what they
    pay, the winner gains the package's total (riichi sticks included); unknown for a ron without
    a named discarder."""
    seat = request.get("seat_wind", "E")
    seats = dict.fromkeys("ESWN", 0)
    if "discarder" in pay:
        if "discarder" not in request:
            return None
        seats[request["discarder"]] = -pay["discarder"]
    else:
        for w in seats:
            if w != seat:
                seats[w] = -(pay["dealer"] if w == "E" and "dealer" in pay else pay["each_non_dealer"])
    seats[seat] = total
    return seats


@dataclass
class Outcome:
    request: dict
    ours: dict | None
    our_error: str | None
    theirs: object
    diffs: list[str] = field(default_factory=list)
    explained_by: str | None = None


def compare(request: dict, engine) -> Outcome:
    from companion.errors import CompanionError

    try:
        ours, our_error = engine(request), None
    except CompanionError as exc:
        ours, our_error = None, exc.code
    theirs = riichi_random.score_with_mahjong(request)
    out = Outcome(request, ours, our_error, theirs)
    their_error = {None: None, "no_yaku": "no_yaku"}.get(theirs.error, f"package:{theirs.error}")
    if our_error or their_error:
        if our_error != their_error:
            out.diffs.append(f"outcome: ours {our_error or 'scored'}, package {their_error or 'scored'}")
        return out

    yakuman_yaku = [y for y in theirs.yaku if y.is_yakuman]
    their_yakuman = theirs.han // 13 if yakuman_yaku else 0
    if ours.get("yakuman", 0) != their_yakuman:
        out.diffs.append(f"yakuman: ours {ours.get('yakuman')}, package {their_yakuman}")
    if not yakuman_yaku:
        if ours.get("han") != theirs.han:
            out.diffs.append(f"han: ours {ours.get('han')}, package {theirs.han}")
        if ours.get("fu") != theirs.fu:
            out.diffs.append(f"fu: ours {ours.get('fu')}, package {theirs.fu}")
        their_limit = package_limit(theirs.han, theirs.fu, theirs.cost["yaku_level"], False)
        if _norm_limit(ours.get("limit")) != their_limit:
            out.diffs.append(f"limit: ours {ours.get('limit')}, package {their_limit}")
    our_yaku = sorted((y.get("id"), y.get("han")) for y in ours.get("yaku", ()))
    if our_yaku != package_yaku(theirs):
        out.diffs.append(f"yaku: ours {our_yaku}, package {package_yaku(theirs)}")
    their_pay = payments_from_package(request, theirs.cost)
    if ours.get("payments") != their_pay:
        out.diffs.append(f"payments: ours {ours.get('payments')}, package {their_pay}")
    their_by_seat = by_seat_from_package(request, their_pay, theirs.cost["total"])
    if their_by_seat is not None and ours.get("payments_by_seat") != their_by_seat:
        out.diffs.append(f"payments_by_seat: ours {ours.get('payments_by_seat')}, package {their_by_seat}")
    if ours.get("total_gain") != theirs.cost["total"]:
        out.diffs.append(f"total_gain: ours {ours.get('total_gain')}, package {theirs.cost['total']}")
    if out.diffs:
        for known in KNOWN_DIFFERENCES:
            if known.applies(request, ours, theirs):
                out.explained_by = known.id
                break
    return out


@dataclass
class Report:
    n: int = 0
    agree: int = 0
    scored: int = 0
    no_yaku: int = 0
    explained: collections.Counter = field(default_factory=collections.Counter)
    mismatches: list[Outcome] = field(default_factory=list)
    by_kind: collections.Counter = field(default_factory=collections.Counter)
    seconds: float = 0.0


def run(n: int, seed: int, engine) -> Report:
    report = Report()
    start = time.perf_counter()
    for request in riichi_random.random_requests(n, seed):
        out = compare(request, engine)
        report.n += 1
        if out.ours is not None:
            report.scored += 1
        elif out.our_error == "no_yaku":
            report.no_yaku += 1
        if not out.diffs:
            report.agree += 1
        elif out.explained_by:
            report.explained[out.explained_by] += 1
        else:
            report.mismatches.append(out)
            for d in out.diffs:
                report.by_kind[d.split(":")[0]] += 1
    report.seconds = time.perf_counter() - start
    return report


def describe(out: Outcome) -> str:
    r = out.request
    ours = out.ours or {"error": out.our_error}
    their_yaku = [f"{y.name}" for y in (out.theirs.yaku or [])]
    our_yaku = [f"{y.get('id')}:{y.get('han')}" for y in ours.get("yaku", [])]
    return (f"{r}\n    -> {'; '.join(out.diffs)}\n    ours:    {our_yaku} fu={ours.get('fu')} "
            f"details={ours.get('fu_details')}\n    package: {their_yaku} han={out.theirs.han} "
            f"fu={out.theirs.fu} details={out.theirs.fu_details}")


def summary(report: Report) -> str:
    lines = [
        f"{report.n} hands in {report.seconds:.1f} s: {report.agree} agree "
        f"({100 * report.agree / max(report.n, 1):.2f}%), {sum(report.explained.values())} explained "
        f"differences, {len(report.mismatches)} unexplained",
        f"  scored by us: {report.scored}, no yaku on both sides or ours: {report.no_yaku}",
    ]
    for known, count in report.explained.most_common():
        lines.append(f"  explained by {known}: {count}")
    for kind, count in report.by_kind.most_common():
        lines.append(f"  unexplained differences in {kind}: {count}")
    return "\n".join(lines)


# ---- the tests ------------------------------------------------------------------------------------------

def test_generator_covers_every_meld_type_flag_and_red_fives():
    # issue 2 asks for open and closed hands, all kan types, red fives and the flags
    reqs = list(riichi_random.random_requests(N_HANDS, SEED))
    melds = collections.Counter(m["type"] for r in reqs for m in r.get("melds", ()))
    flags = collections.Counter(f for r in reqs for f in riichi_random_flags(r))
    for meld in ("chi", "pon", "minkan", "kakan", "ankan"):
        assert melds[meld] >= N_HANDS // 100, (meld, melds)
    for flag in ("riichi", "double_riichi", "ippatsu", "tsumo", "rinshan", "chankan", "haitei", "houtei",
                 "tenhou", "chiihou", "renhou"):
        assert flags[flag] >= N_HANDS // 1000, (flag, flags)
    closed = sum(1 for r in reqs if all(m["type"] == "ankan" for m in r.get("melds", ())))
    assert N_HANDS // 4 < closed < N_HANDS * 3 // 4
    assert sum(1 for r in reqs if "0" in r["hand"] + "".join(m["tiles"] for m in r.get("melds", ()))) > N_HANDS // 20
    assert {r["seat_wind"] for r in reqs} == set("ESWN") and {r["round_wind"] for r in reqs} == set("ESWN")
    assert sum(1 for r in reqs if r.get("honba")) > N_HANDS // 4


def riichi_random_flags(request: dict) -> list[str]:
    return [k for k, v in request.items() if v is True]


def test_generator_hands_are_winning_hands_for_the_package():
    # the package is an independent judge of completeness: none of our hands may be "not winning"
    errors = collections.Counter()
    yaku = collections.Counter()
    for request in riichi_random.random_requests(min(N_HANDS, 3000), SEED + 1):
        res = riichi_random.score_with_mahjong(request)
        errors[res.error] += 1
        for y in res.yaku or ():
            yaku[y.name] += 1
    assert set(errors) <= {None, "no_yaku"}, errors
    assert errors["no_yaku"] < sum(errors.values()) // 5
    # every common yaku turns up often enough to be compared
    for name in ("Riichi", "Pinfu", "Tanyao", "Iipeiko", "Chiitoitsu", "Toitoi", "San Ankou", "Honitsu",
                 "Chinitsu", "Ittsu", "Sanshoku Doujun", "Chantai", "Junchan", "Ryanpeikou", "Yakuhai (haku)",
                 "Rinshan Kaihou", "Chankan", "Haitei Raoyue", "Houtei Raoyui", "Kokushi Musou"):
        assert yaku[name] >= 5, (name, yaku[name])


def test_comparison_notices_a_wrong_engine():
    # the harness itself must be able to fail: an engine off by 100 points on some tsumo payments
    # and by one han on some hands is caught on exactly those hands
    import copy

    engine = _engine()
    wrong = set()

    def broken(request):
        result = copy.deepcopy(engine(request))
        if request.get("honba") == 3 and request.get("tsumo"):
            result["payments"]["each_non_dealer"] += 100
            wrong.add(id(request))
        elif request.get("round_wind") == "S" and request.get("riichi_sticks") == 2 and not result["yakuman"]:
            result["han"] += 1
            wrong.add(id(request))
        return result

    requests = list(riichi_random.random_requests(1500, SEED + 2))
    caught = {id(o.request) for o in (compare(r, broken) for r in requests) if o.diffs}
    assert wrong and caught == wrong


def test_engine_agrees_with_mahjong_package_on_random_hands():
    report = run(N_HANDS, SEED, _engine())
    print(summary(report))
    shown = "\n".join(describe(o) for o in report.mismatches[:8])
    assert not report.mismatches, f"{summary(report)}\nfirst unexplained differences:\n{shown}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="riichi engine vs the mahjong package on random hands")
    parser.add_argument("--n", type=int, default=N_HANDS)
    parser.add_argument("--full", action="store_true", help="20,000 hands")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--show", type=int, default=10, help="unexplained differences to print")
    args = parser.parse_args(argv)
    from companion.rules.riichi import score

    report = run(20000 if args.full else args.n, args.seed, score)
    print(summary(report))
    for out in report.mismatches[: args.show]:
        print(describe(out))
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
