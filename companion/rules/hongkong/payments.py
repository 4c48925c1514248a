"""Hong Kong payment tables and who pays whom (seed 004, "Zahlungsbetragstabelle").

``S`` is the value of a hand won on a discard: the table amount for its fan
times the base unit.  A self-drawn win is shared by the three others (S/2
each); there is no dealer doubling in Hong Kong play.
"""

from __future__ import annotations

from companion.rules.hongkong.options import HongKongOptions
from companion.rules.seat_payments import payments_by_seat, plain_number
from companion.tiles import WIND_LETTERS

# "Boon-Laak": from 4 fan on the amount doubles only every two fan
HALF_DOUBLING = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)


def table_amount(fan: int, options: HongKongOptions) -> float:
    """S, the discard value of a hand of ``fan`` fan (already capped)."""
    fan = max(0, min(fan, options.cap))
    units = 2 ** fan if options.payment == "full" else HALF_DOUBLING[fan]
    return units * options.base


def settle(
    fan: int,
    options: HongKongOptions,
    *,
    winner: str,
    tsumo: bool,
    discarder: str | None = None,
    responsible: str | None = None,
    pays_as_self_draw: bool = False,
) -> tuple[dict, dict]:
    """(``payments``, ``payments_by_seat``) for one win.

    ``responsible`` (self-draw only) takes over the whole self-draw amount; the
    other two pay nothing.  ``pays_as_self_draw`` (robbing a kong) makes the
    discarder pay the whole self-draw amount, as seed 004 says for it.
    """
    s = table_amount(fan, options)
    others = [w for w in WIND_LETTERS if w != winner]
    paid: dict[str, float] = {}
    if tsumo:
        if responsible is not None:
            paid[responsible] = 3 * s / 2
            payments = {"responsible": plain_number(3 * s / 2)}
        else:
            for w in others:
                paid[w] = s / 2
            payments = {"each": plain_number(s / 2)}
    else:
        assert discarder is not None
        if pays_as_self_draw:
            paid[discarder] = 3 * s / 2
            payments = {"discarder": plain_number(3 * s / 2)}
        elif options.discard_pays == "half":
            for w in others:
                paid[w] = s / 2 if w == discarder else s / 4
            payments = {"discarder": plain_number(s / 2), "each_other": plain_number(s / 4)}
        else:
            paid[discarder] = s
            payments = {"discarder": plain_number(s)}
    return payments, payments_by_seat(winner, paid)


def false_win_penalty(offender: str, options: HongKongOptions) -> dict:
    """What a false win costs: the offender pays every other player a limit hand.

    Seed 004: "den Höchstbetrag (nach Verabredung den Betrag für eigenen Zug
    oder Abwurf)": either what each player would pay on a self-drawn limit
    hand (S/2) or what a discarder would pay (S).
    """
    s = table_amount(options.cap, options)
    each = s / 2 if options.false_win == "self_draw" else s
    by_seat = {w: plain_number(each) for w in WIND_LETTERS if w != offender}
    by_seat[offender] = plain_number(-3 * each)
    return {
        "false_win": True,
        "offender": offender,
        "payments": {"each": plain_number(each)},
        "payments_by_seat": {w: by_seat[w] for w in WIND_LETTERS},
        "total_loss": plain_number(3 * each),
    }
