"""Riichi base points, limits and payments (seed 000: base = fu * 2^(han+2), rounded up to 100 per payment)."""

from __future__ import annotations

LIMITS = ((13, "yakuman", 8000), (11, "sanbaiman", 6000), (8, "baiman", 4000), (6, "haneman", 3000),
          (5, "mangan", 2000))


def base_points(han: int, fu: int, yakuman: int = 0, *, kiriage: bool = False,
                kazoe: str = "yakuman") -> tuple[int, str | None]:
    """Base points and limit name.

    ``yakuman`` is the multiplier (1 single, 2 double ...). ``kazoe`` says what 13+
    han of ordinary yaku reach: ``yakuman``, ``sanbaiman`` or ``none`` (then the
    count table simply ends at sanbaiman)."""
    if yakuman:
        return 8000 * yakuman, "yakuman" if yakuman == 1 else f"{yakuman}x yakuman"
    if han >= 13:
        if kazoe == "yakuman":
            return 8000, "kazoe yakuman"
        return 6000, "sanbaiman"
    for min_han, name, base in LIMITS[1:]:
        if han >= min_han:
            return base, name
    if fu != 25:  # seven pairs keep their 25; every other count rounds up to the next 10 (52 -> 60)
        fu = -(-fu // 10) * 10
    base = fu * 2 ** (han + 2)
    if base >= 2000 or (kiriage and base >= 1920):
        return 2000, "mangan"
    return base, None


def round_up_100(x: float) -> int:
    return int(-(-x // 100) * 100)


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
