"""The limit hands of chapter 5 IV ("Man gan yaku"), Four Kongs (ch. 8 I.4) and
the Bouquet of flowers or seasons (ch. 8 II.4c).  Each is worth the limit for a
limit hand, 8000 (ch. 4 VII.5); several together are still one limit.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules.oldjapanese.doubles import Context, concealed_pons
from companion.tiles import DRAGONS, FIRST_FLOWER, GREEN, GREEN_KINDS, WINDS, is_honor, is_terminal

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _tenhou(c: Context) -> bool:
    return c.win.tenhou


def _chiihou(c: Context) -> bool:
    return c.win.chiihou


def _daisangen(c: Context) -> bool:
    return sum(1 for g in c.reading.pons if g.first in DRAGONS) == 3


def _chinroto(c: Context) -> bool:
    return c.options.all_terminals and all(is_terminal(k) for k in c.kinds)


def _tsuuiisou(c: Context) -> bool:
    return all(is_honor(k) for k in c.kinds)


def _suuankou(c: Context) -> bool:
    # ch. 5 IV.6: the pair may be won on a discard, a pong completed by a discard is open
    return c.standard and concealed_pons(c) == 4


def _daisuushii(c: Context) -> bool:
    return sum(1 for g in c.reading.pons if g.first in WINDS) == 4


def _shousuushii(c: Context) -> bool:
    wind_pons = sum(1 for g in c.reading.pons if g.first in WINDS)
    return c.options.little_four_winds and wind_pons == 3 and c.reading.pair in WINDS


def _kokushi(c: Context) -> bool:
    return c.reading.shape == "thirteen_orphans"


def _chuuren(c: Context) -> bool:
    if c.win.melds or len(c.suits()) != 1 or any(is_honor(k) for k in c.kinds):
        return False
    base = min(c.kinds) // 9 * 9
    suit = c.win.counts[base:base + 9]
    if c.options.nine_gates_strict:
        # ch. 5 IV.9: the waiting hand is exactly 1112345678999, the winning tile any of the suit
        waiting = list(suit)
        waiting[c.win.win_kind - base] -= 1
        return tuple(waiting) == _NINE_GATES
    return all(n >= need for n, need in zip(suit, _NINE_GATES, strict=True))


def _ryuuiisou(c: Context) -> bool:
    # ch. 5 IV.10: "Grüne Drachen müssen immer im Bild enthalten sein"
    return c.options.all_green and all(k in GREEN_KINDS for k in c.kinds) and c.reading.counts[GREEN] > 0


def _suukantsu(c: Context) -> bool:
    return c.options.four_kongs and sum(1 for m in c.win.melds if m.is_kan) == 4


def _bouquet(c: Context) -> bool:
    flowers = set(c.win.flowers)
    return flowers >= set(range(FIRST_FLOWER, FIRST_FLOWER + 4)) or flowers >= set(
        range(FIRST_FLOWER + 4, FIRST_FLOWER + 8))


# (id, English name, German name as the book writes it, test)
LIMIT_HANDS: tuple[tuple[str, str, str, Callable[[Context], bool]], ...] = (
    ("tenhou", "Heavenly hand", "Himmels Hand", _tenhou),
    ("chiihou", "Earthly hand", "Erden Hand", _chiihou),
    ("daisangen", "Big three dragons", "Drei Große Drachen", _daisangen),
    ("chinroto", "All terminals", "Nur Ecksteine", _chinroto),
    ("tsuuiisou", "All honours", "Nur Ehrensteine", _tsuuiisou),
    ("suuankou", "Four concealed triplets", "Vier Verdeckte Drillinge", _suuankou),
    ("daisuushii", "Big four winds", "Vier große Winde", _daisuushii),
    ("shousuushii", "Little four winds", "Vier kleine Winde", _shousuushii),
    ("kokushi", "Thirteen orphans", "Dreizehn Waise", _kokushi),
    ("chuuren", "Nine gates", "Neun Tore", _chuuren),
    ("ryuuiisou", "All green", "Nur Grüne", _ryuuiisou),
    ("suukantsu", "Four kongs", "Vier Vierlinge", _suukantsu),
    ("bouquet", "Bouquet (all four flowers or all four seasons)", "Bouquet", _bouquet),
)


def limit_items(c: Context) -> list[dict]:
    return [
        {"id": id_, "name": name, "name_de": name_de, "limit": "yakuman"}
        for id_, name, name_de, test in LIMIT_HANDS
        if test(c)
    ]
