"""The yaku table: one :class:`Yaku` per row, gathered from the theme modules.

A row names the yaku (id, English, German), gives its han closed and open (0 =
not possible), the yakuman multiplier (0 for ordinary yaku), the hand shapes it
can occur in, whether the rules in force use it, and a predicate that reads a
:class:`~companion.rules.riichi.context.Reading` and its
:class:`~companion.rules.riichi.context.Situation`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from companion.rules.riichi.context import CHIITOI, KOKUSHI, STANDARD, Reading, Situation
from companion.rules.riichi.options import RiichiOptions

ALL_SHAPES = (STANDARD, CHIITOI, KOKUSHI)
STANDARD_ONLY = (STANDARD,)
NOT_KOKUSHI = (STANDARD, CHIITOI)


def _always(_: RiichiOptions) -> bool:
    return True


@dataclass(frozen=True)
class Yaku:
    id: str
    name: str
    name_de: str
    han_closed: int
    han_open: int
    test: Callable[[Reading, Situation], bool]
    yakuman: int = 0
    shapes: tuple[int, ...] = STANDARD_ONLY
    enabled: Callable[[RiichiOptions], bool] = _always
    standalone: bool = False
    """Scored on its own, not added to other yaku or dora (renhou as mangan)."""
    needs: str = "situation"
    """What the predicate reads, so that a reading skips rows it cannot have: ``situation`` (nothing but
    the flags and the tile facts in ``Situation.facts``, and the hand shape: the answer is memoised per
    facts), ``hand`` (the situation plus the concealed counts or the winning tile: evaluated once per
    hand shape), ``chis2`` (two or more chi), ``pons3`` (three or more triplets/kans), ``honor_pons`` (a
    triplet of honours), ``outside`` (every set touches a terminal or honour)."""
    gate: Callable[[Situation], bool] | None = None
    """For ``hand`` rows: a condition on ``Situation.facts`` alone that the predicate cannot hold
    without; the scorer memoises it with the situation rows and skips the predicate when it fails."""


def all_yaku() -> tuple[Yaku, ...]:
    """Every row of every theme module, in the order results list them."""
    from companion.rules.riichi import yaku_basic, yaku_local, yaku_sets, yaku_yakuman

    return yaku_basic.YAKU + yaku_sets.YAKU + yaku_local.YAKU + yaku_yakuman.YAKU


Row = tuple
"""(yaku, han in this hand state, yakuman multiplier, place in the table, predicate, result item): the
result item is the ``{id, name, name_de, han[, yakuman]}`` entry a result lists, copied per result."""
GROUPS = ("situation", "chis2", "pons3", "honor_pons", "outside", "hand")


_GROUPED: dict[int, tuple[RiichiOptions, dict]] = {}


def grouped_table(options: RiichiOptions) -> dict[tuple[int, bool], tuple]:
    """:func:`table_for` split by what the rows need, in the order of ``GROUPS``, followed by a dict
    that memoises the ``situation`` rows that hold, keyed by ``Situation.facts``.

    Looked up by the options object's identity: hashing a frozen dataclass of 20 fields on
    every hand cost more than all yaku predicates together (options objects are cached
    by ``resolve_rules``, so the same rules come back as the same object)."""
    entry = _GROUPED.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    out: dict[tuple[int, bool], tuple] = {}
    for key, rows in table_for(options).items():
        out[key] = tuple(tuple(row for row in rows if row[0].needs == g) for g in GROUPS) + ({},)
    if len(_GROUPED) > 1024:
        _GROUPED.clear()
    _GROUPED[id(options)] = (options, out)
    return out


@cache
def table_for(options: RiichiOptions) -> dict[tuple[int, bool], tuple[Row, ...]]:
    """The rows these rules use, per (shape, hand open), with han and multiplier resolved."""
    rows = [y for y in all_yaku() if y.enabled(options)]
    out: dict[tuple[int, bool], tuple[Row, ...]] = {}
    for shape in ALL_SHAPES:
        for is_open in (False, True):
            chosen = []
            for place, y in enumerate(rows):
                if shape not in y.shapes:
                    continue
                if y.yakuman:
                    if is_open and not y.han_open:
                        continue
                    mult = y.yakuman * (2 if y.id in options.double_yakuman else 1)
                    chosen.append((y, 13 * mult, mult, place, y.test, _item(y, 13 * mult, mult)))
                    continue
                han = y.han_open if is_open else y.han_closed
                if han:
                    chosen.append((y, han, 0, place, y.test, _item(y, han, 0)))
            out[shape, is_open] = tuple(chosen)
    return out


def _item(y: Yaku, han: int, mult: int) -> dict:
    item = {"id": y.id, "name": y.name, "name_de": y.name_de, "han": han}
    if mult:
        item["yakuman"] = mult
    return item
