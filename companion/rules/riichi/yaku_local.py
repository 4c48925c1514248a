"""Local yaku of the Ryanzou Chankan Club (seed 003, "Local Yaku"), each one bonus han
on top of the yaku it decorates, switched on by ``pinzu_bonus_yaku``:

* Uupin kaihou: rinshan kaihou won on 5p
* Iipin mouyue: haitei won on 1p
* Chuupin raoyui: houtei won on 9p
* Ryanzou chankan: chankan won on 2s

The local yakuman of that seed (renhou, daichiishin, ishino uenimo sannen) are in
``yaku_yakuman``. A red 5p counts as 5p here: the seed names the tile, not its colour.
"""

from __future__ import annotations

from companion.rules.riichi.yaku_table import ALL_SHAPES, Yaku

_1P, _5P, _9P, _2S = 9, 13, 17, 19


def _on(o) -> bool:
    return o.pinzu_bonus_yaku


YAKU: tuple[Yaku, ...] = (
    Yaku("uupin_kaihou", "Rinshan on 5 circles (uupin kaihou)", "Rinshan mit 5-Pin (Uupin Kaihou)", 1, 1,
         lambda h, s: s.rinshan and s.win == _5P, shapes=ALL_SHAPES, enabled=_on, needs="hand",
         gate=lambda s: s.rinshan),
    Yaku("iipin_mouyue", "Haitei on 1 circle (iipin mouyue)", "Haitei mit 1-Pin (Iipin Mouyue)", 1, 1,
         lambda h, s: s.haitei and s.win == _1P, shapes=ALL_SHAPES, enabled=_on, needs="hand",
         gate=lambda s: s.haitei),
    Yaku("chuupin_raoyui", "Houtei on 9 circles (chuupin raoyui)", "Houtei mit 9-Pin (Chuupin Raoyui)", 1, 1,
         lambda h, s: s.houtei and s.win == _9P, shapes=ALL_SHAPES, enabled=_on, needs="hand",
         gate=lambda s: s.houtei),
    Yaku("ryanzou_chankan", "Chankan on 2 bamboo (ryanzou chankan)", "Chankan mit 2-Sou (Ryanzou Chankan)", 1, 1,
         lambda h, s: s.chankan and s.win == _2S, shapes=ALL_SHAPES, enabled=_on, needs="hand",
         gate=lambda s: s.chankan),
)
