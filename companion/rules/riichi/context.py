"""The analysed hand that yaku and fu are read from.

Two levels, built once each so that no yaku ever re-analyses the tiles:

* :class:`Situation` - one per request: flags, winds, and the tile facts that do
  not depend on how the hand is split (flush, simples, greens, kan count ...).
* :class:`Reading` - one per interpretation: a decomposition (or seven pairs /
  thirteen orphans) together with one reading of where the winning tile sits.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.hand import decompose, is_seven_pairs, is_thirteen_orphans, wait_shapes
from companion.rules.riichi.request import CHI, FLAGS, KAN, PON, Request
from companion.tiles import GREEN, GREEN_KINDS, NUM_KINDS, RED, WHITE

STANDARD, CHIITOI, KOKUSHI = 0, 1, 2
DRAGONS = frozenset((WHITE, GREEN, RED))
_TERMINAL_OR_HONOR = tuple(k >= 27 or k % 9 in (0, 8) for k in range(NUM_KINDS))
# a chi touches a terminal when it starts on 1 or 7
_OUTSIDE_CHI = tuple(k < 27 and k % 9 in (0, 6) for k in range(NUM_KINDS))


class Situation:
    """Facts of the whole request that every reading shares."""

    __slots__ = ("opts", "tsumo", "seat", "round", "win", "closed", "counts", "full", "melds", "n_melds",
                 "n_kans", "all_simple", "all_th", "has_honor", "n_suits", "all_green", "all_honor",
                 "all_terminal", "dealer", *FLAGS)

    def __init__(self, r: Request) -> None:
        self.opts = r.options
        for key in FLAGS:
            setattr(self, key, getattr(r, key))
        self.tsumo = r.tsumo
        self.seat = r.seat
        self.round = r.round
        self.dealer = r.dealer
        self.win = r.win
        self.closed = r.closed
        self.counts = r.counts
        self.melds = tuple((m.shape, m.first, m.concealed) for m in r.melds)
        self.n_melds = len(r.melds)
        self.n_kans = sum(1 for m in r.melds if m.shape == KAN)
        full = list(r.counts)
        for m in r.melds:
            if m.shape == CHI:
                full[m.first] += 1
                full[m.first + 1] += 1
                full[m.first + 2] += 1
            else:
                full[m.first] += 3 + (m.shape == KAN)
        self.full = full
        present = [k for k in range(NUM_KINDS) if full[k]]
        self.all_simple = not any(_TERMINAL_OR_HONOR[k] for k in present)
        self.all_th = all(_TERMINAL_OR_HONOR[k] for k in present)
        self.has_honor = present[-1] >= 27
        self.n_suits = len({k // 9 for k in present if k < 27})
        self.all_green = all(k in GREEN_KINDS for k in present)
        self.all_honor = present[0] >= 27
        self.all_terminal = all(k < 27 and k % 9 in (0, 8) for k in present)

    def value_pair(self, kind: int) -> bool:
        """A pair that gives fu and breaks pinfu: a dragon, the seat or the round wind."""
        return kind in DRAGONS or kind == self.seat or kind == self.round


class Reading:
    """One interpretation of the hand: its sets, pair and wait."""

    __slots__ = ("shape", "sets", "chis", "pons", "pair", "pairs", "wait", "ankou", "outside", "text")

    def __init__(self, shape: int, sets: tuple, pair: int, wait: str, pairs: tuple = ()) -> None:
        self.shape = shape
        self.sets = sets  # (CHI|PON|KAN, first kind, concealed) incl. melds
        self.pair = pair
        self.pairs = pairs
        self.wait = wait
        chis = []
        pons = []
        ankou = 0
        outside = _TERMINAL_OR_HONOR[pair] if pair >= 0 else False
        for shape_, first, concealed in sets:
            if shape_ == CHI:
                chis.append(first)
                outside = outside and _OUTSIDE_CHI[first]
            else:
                pons.append(first)
                ankou += concealed
                outside = outside and _TERMINAL_OR_HONOR[first]
        chis.sort()
        self.chis = tuple(chis)
        self.pons = tuple(pons)
        self.ankou = ankou
        # every set and the pair touch a terminal or honour (chanta / junchan need a chi as well)
        self.outside = outside and bool(chis)


def readings(s: Situation) -> Iterator[Reading]:
    """Every interpretation of the concealed tiles with the winning tile ``s.win``."""
    counts = s.counts
    win = s.win
    for d in decompose(counts, s.n_melds):
        base = [(CHI if kind == "chi" else PON, first, True) for kind, first in d.sets]
        for wait, index in wait_shapes(d, win):
            sets = list(base)
            if wait == "shanpon" and not s.tsumo:
                # a triplet completed by a discard counts as open (fu, sanankou, suuankou)
                sets[index] = (PON, sets[index][1], False)
            yield Reading(STANDARD, tuple(sets) + s.melds, d.pair, wait)
    if s.n_melds == 0:
        if is_seven_pairs(counts):
            yield Reading(CHIITOI, (), -1, "tanki", tuple(k for k in range(NUM_KINDS) if counts[k]))
        if is_thirteen_orphans(counts):
            yield Reading(KOKUSHI, (), -1, "kokushi")


def describe_reading(h: Reading) -> str:
    """``123m 456p (789s) 111z 22z``: open melds in brackets, kans as four tiles."""
    from companion.tiles import Tile, format_tiles

    if h.shape == KOKUSHI:
        return "thirteen orphans"
    if h.shape == CHIITOI:
        return " ".join(format_tiles([Tile(k)] * 2) for k in h.pairs)
    parts = []
    for shape, first, concealed in h.sets:
        kinds = [first, first + 1, first + 2] if shape == CHI else [first] * (4 if shape == KAN else 3)
        text = format_tiles(Tile(k) for k in kinds)
        parts.append(text if concealed else f"({text})")
    parts.append(format_tiles([Tile(h.pair)] * 2))
    return " ".join(parts)


__all__ = ["STANDARD", "CHIITOI", "KOKUSHI", "CHI", "PON", "KAN", "Situation", "Reading", "readings",
           "describe_reading", "DRAGONS"]
