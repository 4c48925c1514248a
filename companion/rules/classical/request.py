"""Reading a classical request: rule options and one player's hand.

The shared keys (``hand``, ``melds``, ``win_tile``, ``tsumo``, ``seat_wind``,
``round_wind``, ``flowers``, ``discarder``, flags) are read by
:mod:`companion.rules.hand_request`; classical adds ``won`` (false scores a losing
hand), seats and round wind imposed by a table of four hands (``others``, read by
:mod:`.settlement`), and the flags of seed 002's doubles table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from companion.errors import InvalidRequestError
from companion.rules.hand_request import HandInput, check_discarder, read_hand_request, read_wind
from companion.rules.options import options_from_rules, require_bool, require_choice

from .tables import DEFAULT_LIMIT, LIMITS

PRESET = "classical"

# Flags of the shared request format that have a row in seed 002's doubles table.
FLAGS = ("rinshan", "haitei", "houtei", "chankan")
# Riichi-only keys: accepted when they say "nothing" (false/0/empty), so one client can send one
# shape of request for every family, but refused when they would change a riichi score.
_RIICHI_ONLY = ("riichi", "double_riichi", "ippatsu", "tenhou", "chiihou", "renhou", "honba", "riichi_sticks",
                "dora_indicators", "ura_indicators")


@dataclass(frozen=True)
class Options:
    """House rules of a classical table. ``limit`` None plays without a limit; ``flowers`` False plays
    without flower and season tiles (a Gravon table option); ``loser_hand_doubles`` lets a losing hand
    also count Nur Trumpf / Unreines / Reines Farbenspiel, which common practice keeps for the winner."""

    limit: int | None = DEFAULT_LIMIT
    flowers: bool = True
    loser_hand_doubles: bool = False

    def __post_init__(self) -> None:
        require_choice("limit", self.limit, LIMITS, "1000, 3000, 5000, 10000 or null (no limit)")
        require_bool("flowers", self.flowers)
        require_bool("loser_hand_doubles", self.loser_hand_doubles)

    def to_dict(self) -> dict:
        return asdict(self)


def parse_options(rules: object) -> Options:
    return options_from_rules(rules, Options, preset=PRESET, family="classical")


def parse_hand(request: dict, options: Options, *, seat: str | None = None, won: bool | None = None,
               round_wind: str | None = None) -> HandInput:
    """Validate one player's part of a request. ``seat``/``won``/``round_wind`` are imposed by a
    table request (the others' hands) and must agree with what the part says itself."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a hand must be a JSON object with at least \"hand\"")
    for key in _RIICHI_ONLY:
        if request.get(key):
            raise InvalidRequestError(f'"{key}" is a riichi rule; classical (Gravon) scoring has no such thing')
    own_seat = read_wind(request, "seat_wind")
    if seat is not None and own_seat is not None and own_seat != seat:
        raise InvalidRequestError(f'the hand given for seat {seat} says "seat_wind": "{own_seat}"')
    seat = seat or own_seat or "E"
    own_round = read_wind(request, "round_wind")
    if round_wind is not None and own_round is not None and own_round != round_wind:
        raise InvalidRequestError(f"seat {seat}'s hand says round wind {own_round}, the table says {round_wind}")
    round_wind = round_wind or own_round or "E"
    own_won = request.get("won", True if won is None else won)
    if not isinstance(own_won, bool):
        raise InvalidRequestError(f'"won" must be true or false, got {own_won!r}')
    if won is not None and own_won != won:
        raise InvalidRequestError(f"seat {seat}'s hand says \"won\": {str(own_won).lower()}, but the winner is another seat"
                                  if not won else f"seat {seat} is the winner but its hand says \"won\": false")
    hand = read_hand_request(request, flags=FLAGS, won=own_won, seat_default=seat, round_default=round_wind,
                             who=f"seat {seat}: ")
    if hand.flowers and not options.flowers:
        raise InvalidRequestError('these rules are played without flowers ("flowers": false) but the hand has some')
    if not own_won:
        if hand.tsumo or hand.flags or hand.discarder:
            raise InvalidRequestError(f"seat {seat}: tsumo, discarder and the win flags belong to the winning hand only")
        return hand
    check_discarder(hand.discarder, seat=seat, tsumo=hand.tsumo, required=False)
    rinshan, haitei = hand.flag("rinshan"), hand.flag("haitei")
    if rinshan or haitei:
        if not hand.tsumo:
            raise InvalidRequestError('"rinshan" and "haitei" are about a drawn final tile: set "tsumo": true')
        if rinshan and haitei:
            raise InvalidRequestError('the final tile is either from the dead wall ("rinshan") or the last of the '
                                      'live wall ("haitei"), not both')
    if rinshan and not (any(m.is_kan for m in hand.melds) or hand.flowers):
        raise InvalidRequestError('"rinshan": a replacement tile is drawn only after a kan or a flower, and the hand '
                                  'has neither')
    if (hand.flag("houtei") or hand.flag("chankan")) and hand.tsumo:
        raise InvalidRequestError('"houtei" and "chankan" are about a called final tile: "tsumo" must be false')
    return hand
