"""Yaku of the situation and the simplest patterns: riichi, tsumo, last tile,
kan wins, pinfu, tanyao, value honours, renhou as an ordinary yaku.

Han from seed 000 ("Yaku"): riichi and ippatsu 1, all simples 1, pinfu 1 (closed),
menzen tsumo 1, each value triplet 1 (a double wind counts twice).
"""

from __future__ import annotations

from companion.rules.riichi.context import Reading, Situation
from companion.rules.riichi.yaku_table import ALL_SHAPES, NOT_KOKUSHI, STANDARD_ONLY, Yaku
from companion.tiles import GREEN, RED, WHITE


def _riichi(h: Reading, s: Situation) -> bool:
    return s.riichi and not s.double_riichi


def _pinfu(h: Reading, s: Situation) -> bool:
    pair = h.pair
    # a dragon (31-33), the seat or the round wind as pair gives fu: no pinfu
    return h.wait == "ryanmen" and len(h.chis) == 4 and pair < 31 and pair != s.seat and pair != s.round


def _pon_of(kind: int):
    def test(h: Reading, s: Situation) -> bool:
        return kind in h.pons
    return test


def _seat_wind(h: Reading, s: Situation) -> bool:
    return s.seat in h.pons


def _round_wind(h: Reading, s: Situation) -> bool:
    return s.round in h.pons


PINFU = Yaku("pinfu", "Pinfu (no-points hand)", "Punktlose Hand (Pinfu)", 1, 0, _pinfu, needs="chis2")
"""The scorer asks for this row by identity: pinfu changes the fu count."""

YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", "Riichi", "Riichi", 1, 0, _riichi, shapes=ALL_SHAPES),
    Yaku("double_riichi", "Double riichi", "Doppel-Riichi", 2, 0,
         lambda h, s: s.double_riichi, shapes=ALL_SHAPES),
    Yaku("ippatsu", "Ippatsu (one-shot)", "Ippatsu (Gewinn innerhalb einer Runde nach Riichi)", 1, 0,
         lambda h, s: s.ippatsu, shapes=ALL_SHAPES, enabled=lambda o: o.ippatsu),
    Yaku("menzen_tsumo", "Fully concealed hand (menzen tsumo)", "Vollständig verdeckte Hand (Menzen Tsumo)",
         1, 0, lambda h, s: s.tsumo, shapes=ALL_SHAPES),
    PINFU,
    # kuitan (open tanyao) is an option: one row per setting
    Yaku("tanyao", "All simples (tanyao)", "Ausschließlich Grundsteine (Tanyao)", 1, 1,
         lambda h, s: s.all_simple, shapes=NOT_KOKUSHI, enabled=lambda o: o.open_tanyao),
    Yaku("tanyao", "All simples (tanyao)", "Ausschließlich Grundsteine (Tanyao)", 1, 0,
         lambda h, s: s.all_simple, shapes=NOT_KOKUSHI, enabled=lambda o: not o.open_tanyao),
    Yaku("yakuhai_haku", "White dragon (haku)", "Weißer Drache (Haku)", 1, 1, _pon_of(WHITE), needs="honor_pons"),
    Yaku("yakuhai_hatsu", "Green dragon (hatsu)", "Grüner Drache (Hatsu)", 1, 1, _pon_of(GREEN), needs="honor_pons"),
    Yaku("yakuhai_chun", "Red dragon (chun)", "Roter Drache (Chun)", 1, 1, _pon_of(RED), needs="honor_pons"),
    Yaku("yakuhai_seat_wind", "Seat wind", "Platzwind", 1, 1, _seat_wind, needs="honor_pons"),
    Yaku("yakuhai_round_wind", "Round wind", "Rundenwind", 1, 1, _round_wind, needs="honor_pons"),
    Yaku("haitei", "Last tile from the wall (haitei raoyue)", "Letzter Stein der Mauer (Haitei)", 1, 1,
         lambda h, s: s.haitei, shapes=ALL_SHAPES),
    Yaku("houtei", "Last discard (houtei raoyui)", "Letzter Abwurf (Houtei)", 1, 1,
         lambda h, s: s.houtei, shapes=ALL_SHAPES),
    Yaku("rinshan", "After a kan (rinshan kaihou)", "Gewinn mit dem Ersatzstein (Rinshan Kaihou)", 1, 1,
         lambda h, s: s.rinshan, shapes=STANDARD_ONLY),
    Yaku("chankan", "Robbing a kan (chankan)", "Kan-Diebstahl (Chankan)", 1, 1,
         lambda h, s: s.chankan, shapes=ALL_SHAPES),
    # renhou as an ordinary yaku (the yakuman form is in yaku_yakuman)
    Yaku("renhou", "Blessing of man (renhou)", "Segen der Menschheit (Renhou)", 5, 0,
         lambda h, s: s.renhou, shapes=ALL_SHAPES, enabled=lambda o: o.renhou == "5han"),
    Yaku("renhou", "Blessing of man (renhou, mangan)", "Segen der Menschheit (Renhou, Mangan)", 5, 0,
         lambda h, s: s.renhou, shapes=ALL_SHAPES, enabled=lambda o: o.renhou == "mangan", standalone=True),
)
