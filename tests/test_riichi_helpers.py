"""Small helpers shared by the riichi engine tests (it holds no tests itself)."""

from __future__ import annotations

import pytest

from companion.errors import CompanionError
from companion.rules.riichi import score


def req(hand: str, win: str, rules: object = "tenhou", melds: list | None = None, **kw) -> dict:
    """A request; melds as ("pon", "555z") pairs; seat and round default to South (no dealer,
    no East value) so that only what a test adds counts."""
    r = {"rules": rules, "hand": hand, "win_tile": win, "seat_wind": "S", "round_wind": "E"}
    if melds:
        r["melds"] = [{"type": t, "tiles": tiles} for t, tiles in melds]
    r.update(kw)
    return r


def sc(hand: str, win: str, rules: object = "tenhou", melds: list | None = None, **kw) -> dict:
    return score(req(hand, win, rules, melds, **kw))


def ids(result: dict) -> list[str]:
    """Yaku ids of a result, dora entries left out."""
    return [y["id"] for y in result["yaku"] if y["id"] not in ("dora", "ura_dora", "aka_dora")]


def han_of(result: dict, yaku_id: str) -> int:
    return next(y["han"] for y in result["yaku"] if y["id"] == yaku_id)


def error_code(request: dict) -> str:
    with pytest.raises(CompanionError) as info:
        score(request)
    return info.value.code
