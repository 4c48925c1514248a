"""Yaku of the sets and the suits: sequences, triplets, terminals, flushes, seven pairs.

Han from seed 000 ("Yaku", closed/open): sanshoku 2/1, iipeikou 1 (closed only),
ittsu 2/1, junchan 3/2, chanta 2/1, sanankou 2, toitoi 2, sanshoku doukou 2,
chinitsu 6/5, honitsu 3/2, seven pairs 2; the common additions: ryanpeikou 3
(closed), sankantsu 2, shousangen 2, honroutou 2.
"""

from __future__ import annotations

from companion.rules.riichi.context import CHIITOI, DRAGONS, Reading, Situation
from companion.rules.riichi.yaku_table import NOT_KOKUSHI, Yaku


def _ryanpeikou(h: Reading, s: Situation) -> bool:
    c = h.chis
    return len(c) == 4 and c[0] == c[1] and c[2] == c[3]


def _iipeikou(h: Reading, s: Situation) -> bool:
    c = h.chis
    return len(set(c)) < len(c) and not _ryanpeikou(h, s)


def _sanshoku(h: Reading, s: Situation) -> bool:
    c = h.chis
    for k in c:
        if k < 9 and k + 9 in c and k + 18 in c:
            return True
    return False


def _ittsu(h: Reading, s: Situation) -> bool:
    c = h.chis
    return (0 in c and 3 in c and 6 in c) or (9 in c and 12 in c and 15 in c) or (18 in c and 21 in c and 24 in c)


def _sanshoku_doukou(h: Reading, s: Situation) -> bool:
    p = h.pons
    for k in p:
        if k < 9 and k + 9 in p and k + 18 in p:
            return True
    return False


def _chanta(h: Reading, s: Situation) -> bool:
    return h.outside and s.has_honor


def _junchan(h: Reading, s: Situation) -> bool:
    return h.outside and not s.has_honor


def _shousangen(h: Reading, s: Situation) -> bool:
    return h.pair in DRAGONS and sum(1 for k in h.pons if k in DRAGONS) == 2


def _honroutou(h: Reading, s: Situation) -> bool:
    # with only honours or only terminals it is tsuuiisou / chinroutou, which replace it anyway
    return s.all_th


YAKU: tuple[Yaku, ...] = (
    Yaku("iipeikou", "Pure double sequence (iipeikou)", "Verdoppelte Straße (Iipeikou)", 1, 0, _iipeikou, needs="chis2"),
    Yaku("chiitoitsu", "Seven pairs (chiitoitsu)", "Sieben Paare (Chiitoitsu)", 2, 0,
         lambda h, s: True, shapes=(CHIITOI,)),
    Yaku("sanshoku", "Mixed triple sequence (sanshoku doujun)", "Gleiche Straße in allen drei Farben (Sanshoku)",
         2, 1, _sanshoku, needs="chis2"),
    Yaku("ittsu", "Pure straight (ittsu)", "Große Straße (Ittsu)", 2, 1, _ittsu, needs="chis2"),
    Yaku("chanta", "Half outside hand (chanta)", "Gemischte Außenhand (Chanta)", 2, 1, _chanta, needs="outside"),
    Yaku("toitoi", "All triplets (toitoi)", "Hand ohne Straßen (Toitoi)", 2, 2, lambda h, s: len(h.pons) == 4, needs="pons3"),
    Yaku("sanankou", "Three concealed triplets (sanankou)", "Drei versteckte Drillinge (Sanankou)", 2, 2,
         lambda h, s: h.ankou >= 3, needs="pons3"),
    Yaku("sanshoku_doukou", "Triple triplets (sanshoku doukou)", "Drei gleiche Drillinge (Sanshoku Doukou)",
         2, 2, _sanshoku_doukou, needs="pons3"),
    Yaku("sankantsu", "Three kans (sankantsu)", "Drei Vierlinge (Sankantsu)", 2, 2, lambda h, s: s.n_kans == 3),
    Yaku("shousangen", "Little three dragons (shousangen)", "Kleine drei Drachen (Shousangen)", 2, 2, _shousangen, needs="honor_pons"),
    Yaku("honroutou", "All terminals and honours (honroutou)", "Nur Rand- und Ehrensteine (Honroutou)", 2, 2,
         _honroutou, shapes=NOT_KOKUSHI),
    Yaku("junchan", "Fully outside hand (junchan)", "Reine Außenhand (Junchan)", 3, 2, _junchan, needs="outside"),
    Yaku("ryanpeikou", "Twice pure double sequence (ryanpeikou)", "Zweimal verdoppelte Straße (Ryanpeikou)",
         3, 0, _ryanpeikou, needs="chis2"),
    Yaku("honitsu", "Half flush (honitsu)", "Unreiner Flush (Honitsu)", 3, 2,
         lambda h, s: s.n_suits == 1 and s.has_honor, shapes=NOT_KOKUSHI),
    Yaku("chinitsu", "Full flush (chinitsu)", "Reiner Flush (Chinitsu)", 6, 5,
         lambda h, s: s.n_suits == 1 and not s.has_honor, shapes=NOT_KOKUSHI),
)
