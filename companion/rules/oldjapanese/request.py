"""A scoring request read into the facts the old Japanese scorer needs.

The shared keys (tiles, melds, flowers, seats, copies) are read by
:mod:`companion.rules.hand_request`; here come the book's own checks (flags it
does not know, riichi on an open hand, Himmels/Erden Hand, dora), so that
scoring only ever sees a consistent winning situation. Flowers may be written
in ``hand`` too: ch. 8 has them set aside from the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import InvalidRequestError
from companion.rules.hand_request import (
    Meld,
    check_discarder,
    read_count,
    read_flag,
    read_hand_request,
)
from companion.tiles import dora_from_indicator

# flags of the shared request format that this book has (ch. 3 XII, ch. 5 I.9-10, II.7, IV.1-2)
FLAGS = ("riichi", "double_riichi", "haitei", "houtei", "tenhou", "chiihou")
# flags of the shared format that the book does not know; true is refused rather than ignored
FOREIGN_FLAGS = ("ippatsu", "rinshan", "chankan", "renhou")


@dataclass(frozen=True)
class Win:
    """One winning situation: concealed counts include the winning tile."""

    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_kind: int
    tsumo: bool
    seat: str
    round_wind: str
    discarder: str | None
    riichi: bool
    double_riichi: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    dora: tuple[int, ...]
    flowers: tuple[int, ...]
    riichi_sticks: int

    @property
    def concealed_hand(self) -> bool:
        """No set was called (a concealed kong keeps the hand concealed)."""
        return not any(m.is_open for m in self.melds)

    @property
    def east(self) -> bool:
        return self.seat == "E"


INDICATOR_KEYS = ("dora_indicators",)  # the request's indicator lists the book reads (dora; no ura)


def read_request(request: dict) -> Win:
    """Check a request and turn it into a :class:`Win`; raises a CompanionError naming the problem."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    hand = read_hand_request(request, flags=FLAGS, flowers_in_hand=True, indicator_keys=INDICATOR_KEYS)
    if request.get("ura_indicators"):
        raise InvalidRequestError("the old Japanese rule book has no ura dora (ura_indicators)")
    for name in FOREIGN_FLAGS:
        if read_flag(request, name):
            raise InvalidRequestError(f'"{name}" is not part of the old Japanese rule book (seed 001)')
    sticks = read_count(request, "riichi_sticks")
    read_count(request, "honba")  # a table counter: checked, but it does not change what this hand is worth
    seat, tsumo, melds = hand.seat_wind or "E", hand.tsumo, hand.melds
    discarder = hand.discarder
    check_discarder(discarder, seat=seat, tsumo=tsumo, required=True)
    flags = {name: hand.flag(name) for name in FLAGS}
    if flags["double_riichi"]:
        flags["riichi"] = True
    if flags["riichi"] and not hand.is_concealed:
        raise InvalidRequestError("riichi needs a concealed hand (ch. 3 XII): this hand has called sets")
    if flags["haitei"] and not tsumo:
        raise InvalidRequestError("haitei is a win on the last drawn tile, so it needs tsumo")
    if flags["houtei"] and tsumo:
        raise InvalidRequestError("houtei is a win on the last discard, so it cannot be tsumo")
    if flags["tenhou"] and not (seat == "E" and tsumo and not melds):
        raise InvalidRequestError("tenhou (Himmels Hand) is East's dealt hand: seat E, tsumo, no melds")
    if flags["chiihou"] and not (seat != "E" and not tsumo and discarder == "E" and not melds):
        raise InvalidRequestError(
            "chiihou (Erden Hand) is a non-East player winning on East's first discard: ron from E, no melds"
        )
    return Win(
        counts=hand.counts,
        melds=melds,
        win_kind=hand.win_kind,
        tsumo=tsumo,
        seat=seat,
        round_wind=hand.round_wind or "E",
        discarder=discarder,
        dora=tuple(dora_from_indicator(t.kind) for t in hand.indicator_tiles("dora_indicators")),
        flowers=hand.flowers,
        riichi_sticks=sticks,
        **flags,
    )
