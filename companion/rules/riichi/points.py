"""Riichi base points, limits and payments.

Seed 000 ("Punkteermittlung"): fu rounded up to tens, doubled han + 2 times, is the
base; the dealer receives 6x base, a non-dealer 4x, each payment rounded up to 100.
Worked example there: 2 han 52 fu -> 60 * 16 = 960; dealer tsumo 2000 all, dealer
ron 5800, non-dealer ron 3900.

>>> base_points(2, 52)
(960, None)
>>> payments(960, dealer=True, tsumo=False)
{'discarder': 5800}
"""

from __future__ import annotations

# (minimum han, limit name, base points); 5 han or more never looks at fu
LIMITS = ((11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000), (5, "mangan", 2000))
YAKUMAN_BASE = 8000
_MULTI = {1: "yakuman", 2: "double_yakuman", 3: "triple_yakuman"}


def yakuman_limit(multiplier: int) -> str:
    """``yakuman``, ``double_yakuman``, ``triple_yakuman``, then ``4x_yakuman`` ..."""
    return _MULTI.get(multiplier, f"{multiplier}x_yakuman")


def round_fu(fu: int) -> int:
    """Fu rounded up to the next 10; seven pairs keep their 25."""
    return fu if fu == 25 else -(-fu // 10) * 10


def base_points(han: int, fu: int, yakuman: int = 0, *, kiriage: bool = False,
                kazoe: str = "yakuman") -> tuple[int, str | None]:
    """Base points and limit name (``None`` below mangan).

    ``yakuman`` is the multiplier (1 single, 2 double ...). ``kazoe`` says what 13+
    han of ordinary yaku reach: ``yakuman`` (kazoe yakuman, limit name ``yakuman``),
    ``sanbaiman`` or ``none`` (the count table simply ends at sanbaiman)."""
    if yakuman:
        return YAKUMAN_BASE * yakuman, yakuman_limit(yakuman)
    if han >= 13 and kazoe == "yakuman":
        return YAKUMAN_BASE, "yakuman"
    if han >= 5:
        for min_han, name, base in LIMITS:
            if han >= min_han:
                return base, name
    base = round_fu(fu) * 2 ** (han + 2)
    # 1920 is 4 han 30 fu or 3 han 60 fu: kiriage rounds it up to mangan
    if base >= 2000 or (kiriage and base >= 1920):
        return 2000, "mangan"
    return base, None


def round_up_100(x: int) -> int:
    return -(-x // 100) * 100


def payments(base: int, dealer: bool, tsumo: bool, honba: int = 0, honba_value: int = 300) -> dict:
    """Who pays what, honba included (each honba is ``honba_value`` in total: a third from each on tsumo)."""
    if tsumo:
        per_honba = honba * honba_value // 3
        if dealer:
            return {"each_non_dealer": round_up_100(2 * base) + per_honba}
        return {"dealer": round_up_100(2 * base) + per_honba, "each_non_dealer": round_up_100(base) + per_honba}
    return {"discarder": round_up_100(base * (6 if dealer else 4)) + honba * honba_value}


def total_from_payments(p: dict, dealer: bool) -> int:
    """What the winner collects from the other players (sticks on the table not included)."""
    if "discarder" in p:
        return p["discarder"]
    if dealer:
        return 3 * p["each_non_dealer"]
    return p["dealer"] + 2 * p["each_non_dealer"]
