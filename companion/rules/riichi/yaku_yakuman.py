"""Yakuman: the limit hands, each worth one yakuman (or two where the rules say so,
see ``RiichiOptions.double_yakuman``), plus the yakuman forms of renhou and the
Ryanzou club's local yakuman (seed 003: daichiishin, ishino uenimo sannen).

Rows with ``han_open == 0`` need a closed hand.
"""

from __future__ import annotations

from companion.rules.riichi.context import CHIITOI, DRAGONS, KOKUSHI, Reading, Situation
from companion.rules.riichi.yaku_table import ALL_SHAPES, NOT_KOKUSHI, Yaku
from companion.tiles import EAST, GREEN, NORTH

_WINDS = range(EAST, NORTH + 1)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _kokushi(h: Reading, s: Situation) -> bool:
    return s.counts[s.win] == 1


def _kokushi_13(h: Reading, s: Situation) -> bool:
    # the 13 tiles before the win were all different: the winning tile made the pair
    return s.counts[s.win] == 2


def _suuankou(h: Reading, s: Situation) -> bool:
    return h.ankou == 4 and h.wait != "tanki"


def _suuankou_tanki(h: Reading, s: Situation) -> bool:
    return h.ankou == 4 and h.wait == "tanki"


def _daisangen(h: Reading, s: Situation) -> bool:
    return sum(1 for k in h.pons if k in DRAGONS) == 3


def _shousuushii(h: Reading, s: Situation) -> bool:
    return h.pair in _WINDS and sum(1 for k in h.pons if k in _WINDS) == 3


def _daisuushii(h: Reading, s: Situation) -> bool:
    return sum(1 for k in h.pons if k in _WINDS) == 4


def _tsuuiisou(h: Reading, s: Situation) -> bool:
    if h.shape == CHIITOI and s.opts.daichiishin:
        return False  # seven honour pairs are daichiishin in these rules
    return s.all_honor


def _ryuuiisou(h: Reading, s: Situation) -> bool:
    return s.all_green and (s.full[GREEN] > 0 or not s.opts.ryuuiisou_needs_hatsu)


def _nine_gates_suit(s: Situation) -> tuple[int, ...] | None:
    if s.n_melds or s.n_suits != 1 or s.has_honor:
        return None
    present = s.present  # one suit and no honours: the lowest set bit says which suit
    base = 0 if present & 0x1FF else 9 if present & 0x3FE00 else 18
    suit = s.counts[base:base + 9]
    if all(c >= need for c, need in zip(suit, _NINE_GATES, strict=True)):
        return suit
    return None


def _one_suit_no_honours(s: Situation) -> bool:
    return s.n_suits == 1 and not s.has_honor


def _chuuren(h: Reading, s: Situation) -> bool:
    suit = _nine_gates_suit(s)
    return suit is not None and suit[s.win % 9] - 1 != _NINE_GATES[s.win % 9]


def _junsei_chuuren(h: Reading, s: Situation) -> bool:
    # the 13 tiles before the win were exactly 1112345678999: a nine-sided wait
    suit = _nine_gates_suit(s)
    return suit is not None and suit[s.win % 9] - 1 == _NINE_GATES[s.win % 9]


def _suukantsu(h: Reading, s: Situation) -> bool:
    return s.n_kans == 4 and not (s.rinshan and "suukan_kaihou" in s.opts.double_yakuman)


def _suukan_kaihou(h: Reading, s: Situation) -> bool:
    # seed 003: "Suukantsu mit Rinshan Kaihou (Suukankaihou)" is a double yakuman there
    return s.n_kans == 4 and s.rinshan and "suukan_kaihou" in s.opts.double_yakuman


YAKU: tuple[Yaku, ...] = (
    Yaku("kokushi", "Thirteen orphans (kokushi musou)", "13 Waisen (Kokushi Musou)", 13, 0, _kokushi,
         yakuman=1, shapes=(KOKUSHI,), needs="hand"),
    Yaku("kokushi_13", "Thirteen orphans, 13-sided wait", "13 Waisen mit 13-fachem Wait", 13, 0, _kokushi_13,
         yakuman=1, shapes=(KOKUSHI,), needs="hand"),
    Yaku("suuankou", "Four concealed triplets (suuankou)", "Vier verdeckte Drillinge (Suuankou)", 13, 0,
         _suuankou, yakuman=1, needs="pons3"),
    Yaku("suuankou_tanki", "Four concealed triplets, single wait (suuankou tanki)",
         "Vier verdeckte Drillinge mit Tankiwait (Suuankou Tanki)", 13, 0, _suuankou_tanki, yakuman=1, needs="pons3"),
    Yaku("daisangen", "Big three dragons (daisangen)", "Große drei Drachen (Daisangen)", 13, 13, _daisangen,
         yakuman=1, needs="honor_pons"),
    Yaku("shousuushii", "Little four winds (shousuushii)", "Kleine vier Winde (Shousuushii)", 13, 13,
         _shousuushii, yakuman=1, needs="honor_pons"),
    Yaku("daisuushii", "Big four winds (daisuushii)", "Große vier Winde (Daisuushii)", 13, 13, _daisuushii,
         yakuman=1, needs="honor_pons"),
    Yaku("tsuuiisou", "All honours (tsuuiisou)", "Nur Ehrensteine (Tsuuiisou)", 13, 13, _tsuuiisou,
         yakuman=1, shapes=NOT_KOKUSHI),
    Yaku("chinroutou", "All terminals (chinroutou)", "Nur Randsteine (Chinroutou)", 13, 13,
         lambda h, s: s.all_terminal, yakuman=1),
    Yaku("ryuuiisou", "All green (ryuuiisou)", "Grüne Hand (Ryuuiisou)", 13, 13, _ryuuiisou, yakuman=1,
         needs="hand", gate=lambda s: s.all_green),
    Yaku("chuuren", "Nine gates (chuuren poutou)", "Neun Pforten (Chuuren Poutou)", 13, 0, _chuuren, yakuman=1,
         needs="hand", gate=_one_suit_no_honours),
    Yaku("junsei_chuuren", "True nine gates, 9-sided wait (junsei chuuren poutou)",
         "Neun Pforten mit 9-fachem Wait (Junsei Chuuren Poutou)", 13, 0, _junsei_chuuren, yakuman=1, needs="hand",
         gate=_one_suit_no_honours),
    Yaku("suukantsu", "Four kans (suukantsu)", "Vier Vierlinge (Suukantsu)", 13, 13, _suukantsu, yakuman=1),
    Yaku("suukan_kaihou", "Four kans with rinshan (suukan kaihou)", "Vier Vierlinge mit Rinshan (Suukan Kaihou)",
         13, 13, _suukan_kaihou, yakuman=1),
    Yaku("tenhou", "Blessing of heaven (tenhou)", "Segen des Himmels (Tenhou)", 13, 0,
         lambda h, s: s.tenhou, yakuman=1, shapes=ALL_SHAPES),
    Yaku("chiihou", "Blessing of earth (chiihou)", "Segen der Erde (Chiihou)", 13, 0,
         lambda h, s: s.chiihou, yakuman=1, shapes=ALL_SHAPES),
    Yaku("renhou", "Blessing of man (renhou)", "Segen der Menschheit (Renhou)", 13, 0,
         lambda h, s: s.renhou, yakuman=1, shapes=ALL_SHAPES, enabled=lambda o: o.renhou == "yakuman"),
    Yaku("daichiishin", "Big seven stars (daichiishin)", "Große 7 Sterne (Daichiishin)", 13, 0,
         lambda h, s: s.all_honor, yakuman=1, shapes=(CHIITOI,), enabled=lambda o: o.daichiishin),
    Yaku("ishino_uenimo_sannen", "Double riichi on the last tile (ishino uenimo sannen)",
         "Steter Tropfen höhlt den Stein (Ishino Uenimo Sannen)", 13, 0,
         lambda h, s: s.double_riichi and (s.haitei or s.houtei), yakuman=1, shapes=ALL_SHAPES,
         enabled=lambda o: o.double_riichi_last_tile_yakuman),
)
