"""The ways a winning hand can be read: its four sets and pair (or seven pairs,
or thirteen orphans) and where the winning tile sits.

The scorer values every reading and keeps the best, as the book's players
would (ch. 4 I.3: the wait is whatever the completed hand shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from companion.hand import decompose, is_thirteen_orphans, wait_shapes
from companion.rules.oldjapanese.request import Win
from companion.tiles import NUM_KINDS, Tile, format_tiles


class Group(NamedTuple):
    """One of the four sets: ``kind`` "chi" (``first`` = lowest tile) or "pon" (kongs too)."""

    kind: str
    first: int
    concealed: bool
    kan: bool = False
    called: bool = False

    @property
    def tiles(self) -> list[int]:
        if self.kind == "chi":
            return [self.first, self.first + 1, self.first + 2]
        return [self.first] * (4 if self.kan else 3)

    def __str__(self) -> str:
        return format_tiles(Tile(k) for k in self.tiles)


@dataclass(frozen=True)
class Reading:
    shape: str  # "standard", "seven_pairs" or "thirteen_orphans"
    groups: tuple[Group, ...]
    pair: int | None
    wait: str  # ryanmen, kanchan, penchan, tanki, shanpon (seven pairs: tanki; thirteen orphans: kokushi)
    wait_group: int  # index of the set the winning tile completed, -1 for the pair
    counts: tuple[int, ...]  # every tile of the hand, melds included, as 34 counts

    @property
    def pons(self) -> list[Group]:
        return [g for g in self.groups if g.kind == "pon"]

    @property
    def chis(self) -> list[Group]:
        return [g for g in self.groups if g.kind == "chi"]


def all_counts(win: Win) -> tuple[int, ...]:
    counts = list(win.counts)
    for meld in win.melds:
        if meld.is_chi:
            for k in range(meld.first, meld.first + 3):
                counts[k] += 1
        else:
            counts[meld.first] += 4 if meld.is_kan else 3
    return tuple(counts)


def _meld_groups(win: Win) -> tuple[Group, ...]:
    return tuple(
        Group("chi" if m.is_chi else "pon", m.first, not m.is_open, m.is_kan, called=m.is_open)
        for m in win.melds
    )


def is_seven_pairs_shape(counts: tuple[int, ...], allow_four: bool) -> bool:
    """Seven pairs; with ``allow_four`` a concealed four of a kind stands for two pairs (ch. 5 II.5)."""
    if sum(counts) != 14:
        return False
    allowed = (0, 2, 4) if allow_four else (0, 2)
    return all(c in allowed for c in counts)


def readings(win: Win, *, seven_pairs_with_four: bool = True) -> list[Reading]:
    """Every reading of the hand; empty when it is not complete."""
    everything = all_counts(win)
    out: list[Reading] = []
    melded = _meld_groups(win)
    for dec in decompose(win.counts, len(win.melds)):
        for wait, index in wait_shapes(dec, win.win_kind):
            groups = []
            for i, (kind, first) in enumerate(dec.sets):
                # ch. 6 III.3 b/d: a pong completed by a discarded tile counts as open
                concealed = not (wait == "shanpon" and i == index and not win.tsumo)
                groups.append(Group(kind, first, concealed))
            out.append(Reading("standard", tuple(groups) + melded, dec.pair, wait, index, everything))
    if not win.melds:
        if is_seven_pairs_shape(win.counts, seven_pairs_with_four):
            out.append(Reading("seven_pairs", (), None, "tanki", -1, everything))
        if is_thirteen_orphans(win.counts):
            out.append(Reading("thirteen_orphans", (), None, "kokushi", -1, everything))
    return out


def kinds_present(counts: tuple[int, ...]) -> list[int]:
    return [k for k in range(NUM_KINDS) if counts[k]]
