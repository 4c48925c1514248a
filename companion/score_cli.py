"""``companion score``: score one hand from the command line.

Two forms share one subcommand:

* ``companion score --json`` reads a scoring request (JSON object) on stdin and
  writes the result as JSON on stdout. Bad input exits with status 2 and prints
  ``{"error": message, "code": code}``; unparseable JSON has the code ``invalid_json``.
* ``companion score "123m456p789s11z22z @2z" --tsumo --riichi --dora 1m`` builds
  the request from a hand string and options and prints a readable breakdown.
  ``--photo hand.jpg`` reads the hand, melds, winning tile, dora indicators and
  flowers from a photo instead (as ``companion recognize`` reads it, shown first);
  where the rules count no red fives (EMA 2016, WRC), a red five in it counts as a
  plain five.

Hand string: the concealed tiles in mpsz notation, then ``@`` and the winning
tile. If the concealed part has one tile less than a complete hand (13 with no
melds, 10 with one meld, ...), the winning tile is added to it; if it is already
complete, it must contain the winning tile. Without ``@`` the last tile written
is the winning tile. Called and concealed kans go in repeatable options
(``--chi 123m --pon 777z --minkan 5555p --kakan 2222s --ankan 9999m``); flowers
and seasons written in the hand string are moved to the request's ``flowers``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from companion.errors import CompanionError, InvalidRequestError
from companion.rules import plain_fives, preset_name
from companion.tiles import Tile, format_tiles, parse_tile, parse_tiles, sort_key

MELD_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")
WIND_CHOICES = ("E", "S", "W", "N")
FLAGS = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
         "tenhou", "chiihou", "renhou")

_EXAMPLES = """\
examples:
  companion score "123m456p789s11z22z @2z" --tsumo --riichi --dora 1m
  companion score "234m678p5s @5s" --pon 777z --chi 123s --seat S --round E
  companion score "11m22p33s44z55z66z7z @7z" --rules tenhou --option kiriage=true --lang de
  echo '{"rules": "wrc", "hand": "123m456p789s11z222z", "win_tile": "2z", "riichi": true}' | companion score --json
  companion score --photo hand.jpg --tsumo --riichi --seat S
"""


def register(subparsers: Any) -> None:
    """Add the ``score`` subcommand to the ``companion`` parser."""
    p = subparsers.add_parser(
        "score",
        help="score a hand (JSON request on stdin with --json, or a hand string)",
        description=__doc__.split("\n\n", 1)[1],
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # nargs="*": the hand may be typed without quotes (123m456p789s11z22z @2z is two words)
    p.add_argument("hand", nargs="*",
                   help='concealed tiles, "@", winning tile, e.g. "123m456p789s11z22z @2z"')
    p.add_argument("--json", action="store_true",
                   help="read the request as JSON from stdin (or build it from HAND or --photo) and print JSON")
    p.add_argument("--photo", metavar="IMG",
                   help="read the hand, melds, winning tile, dora indicators and flowers from a photo of the hand "
                        "(as companion recognize reads it) instead of HAND; the options add what a photo cannot "
                        "show (--tsumo, --riichi, --seat, ...), and --dora or --flowers replace what it shows; its "
                        "dora indicators go only to rules that have dora (riichi, old Japanese)")
    p.add_argument("--dora-photo", metavar="IMG",
                   help="with --photo: a second photo of the dora indicators (every face-up tile on it counts)")
    for meld in MELD_TYPES:
        p.add_argument(f"--{meld}", action="append", default=[], metavar="TILES",
                       help=f"a {meld} meld, e.g. {_MELD_EXAMPLE[meld]} (repeatable)")
    win = p.add_mutually_exclusive_group()
    win.add_argument("--ron", dest="tsumo", action="store_false", help="won on a discard (default)")
    win.add_argument("--tsumo", dest="tsumo", action="store_true", help="won on a self-drawn tile")
    p.set_defaults(tsumo=False)
    for flag in FLAGS:
        p.add_argument(f"--{flag.replace('_', '-')}", dest=flag, action="store_true", help=_FLAG_HELP[flag])
    p.add_argument("--seat", type=_wind, metavar="E|S|W|N", help="seat wind of the winner (East deals)")
    p.add_argument("--round", type=_wind, metavar="E|S|W|N", help="round (prevailing) wind")
    p.add_argument("--discarder", type=_wind, metavar="E|S|W|N",
                   help="seat wind of the player who discarded the winning tile (families that need it)")
    p.add_argument("--honba", type=_count, metavar="N", help="honba (repeat) counters")
    p.add_argument("--sticks", type=_count, metavar="N", help="riichi sticks on the table")
    p.add_argument("--dora", action="append", default=[], metavar="TILES",
                   help="dora indicator(s), repeatable or several in one string: --dora 1m --dora 5z or --dora 1m5z")
    p.add_argument("--ura", action="append", default=[], metavar="TILES", help="ura dora indicator(s), like --dora")
    p.add_argument("--flowers", action="append", default=[], metavar="TILES",
                   help="flowers and seasons, e.g. 1f6f (Hong Kong, classical, old Japanese)")
    p.add_argument("--rules", metavar="PRESET", help="rules preset, e.g. ema2016, wrc, tenhou, ryanzou, hongkong")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule option, e.g. --option kiriage=true --option kazoe=sanbaiman (repeatable)")
    p.add_argument("--set", dest="extra", action="append", default=[], metavar="KEY=VALUE",
                   help='set any other request key, e.g. --set won=false (value read as JSON if it parses)')
    p.add_argument("--lang", choices=("en", "de"), default="en", help="language of the breakdown")
    p.set_defaults(func=run)


_MELD_EXAMPLE = {"chi": "123m", "pon": "777z", "minkan": "5555p", "kakan": "2222s", "ankan": "9999m"}
_FLAG_HELP = {
    "riichi": "riichi declared",
    "double_riichi": "double riichi (riichi in the first go-around)",
    "ippatsu": "won within one go-around after riichi",
    "rinshan": "won on the replacement tile after a kan",
    "chankan": "won by robbing a kan",
    "haitei": "won on the last tile of the wall",
    "houtei": "won on the last discard",
    "tenhou": "dealer won with the dealt hand",
    "chiihou": "non-dealer won on the first draw",
    "renhou": "non-dealer won on a discard before the first draw",
}


def _wind(text: str) -> str:
    w = text.strip().upper()[:1]
    if w not in WIND_CHOICES or len(text.strip()) != 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a wind: use E, S, W or N")
    return w


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must not be negative")
    return n


def _value(text: str) -> Any:
    """An option value: JSON literal when it is one (true, 4, "x"), the plain text otherwise."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _pairs(items: list[str], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise InvalidRequestError(f"{what} {item!r} must look like name=value")
        out[name.strip()] = _value(raw.strip())
    return out


def _tile_list(values: list[str]) -> list[str]:
    return [str(t) for v in values for t in parse_tiles(v)]


def split_hand(text: str, n_melds: int) -> tuple[list[Tile], Tile, list[Tile]]:
    """Concealed tiles (winning tile included), the winning tile, and any flowers, from ``"... @2z"``."""
    before, at, after = text.partition("@")
    if at:
        if "@" in after:
            raise InvalidRequestError(f"{text!r} has more than one '@'; write the winning tile once, after '@'")
        win = parse_tile(after)
    tiles = parse_tiles(before)
    flowers = [t for t in tiles if t.is_flower]
    tiles = [t for t in tiles if not t.is_flower]
    if not at:
        if not tiles:
            raise InvalidRequestError("the hand is empty")
        win = tiles[-1]
    full = 14 - 3 * n_melds
    if at and len(tiles) == full - 1:
        tiles.append(win)
    elif len(tiles) == full:
        if win not in tiles:
            raise InvalidRequestError(
                f"the hand {format_tiles(tiles)} already has {full} tiles but not the winning tile {win}")
    else:
        melds = f"with {n_melds} meld{'s' if n_melds != 1 else ''}" if n_melds else "without melds"
        raise InvalidRequestError(
            f"the hand {format_tiles(tiles)} has {len(tiles)} tiles; {melds} write {full - 1} tiles and "
            f"'@' plus the winning tile, or all {full} tiles")
    return tiles, win, flowers


PHOTO_KEYS = ("hand", "melds", "win_tile", "dora_indicators", "flowers")  # what a photo's request says of a win


def build_request(args: argparse.Namespace, photo: dict | None = None) -> dict:
    """The scoring request that the command-line options describe; ``photo``: what a photo of the hand gives it
    (--photo: :func:`photo_part` of :func:`read_photo_request`'s request), whose tiles stand in for the hand string
    and the meld options."""
    melds = []
    for kind in MELD_TYPES:
        for text in getattr(args, kind):
            melds.append({"type": kind, "tiles": format_tiles(parse_tiles(text))})
    flowers: list = []
    if photo is not None:  # (HAND and the meld options are refused beside --photo before it is read: run)
        request: dict[str, Any] = dict(photo)
    else:
        hand = " ".join(args.hand) if isinstance(args.hand, list) else args.hand
        tiles, win, flowers = split_hand(hand, len(melds))
        request = {"hand": format_tiles(sorted(tiles, key=sort_key)), "win_tile": str(win)}
        if melds:
            request["melds"] = melds
    request["tsumo"] = bool(args.tsumo)
    for flag in FLAGS:
        if getattr(args, flag):
            request[flag] = True
    for key, name in (("seat_wind", "seat"), ("round_wind", "round"), ("discarder", "discarder"),
                      ("honba", "honba"), ("riichi_sticks", "sticks")):
        if getattr(args, name) is not None:
            request[key] = getattr(args, name)
    if args.dora:
        request["dora_indicators"] = _tile_list(args.dora)
    if args.ura:
        request["ura_indicators"] = _tile_list(args.ura)
    all_flowers = [str(t) for t in flowers] + _tile_list(args.flowers) + list(request.pop("flowers", []))
    if all_flowers:
        request["flowers"] = all_flowers
    if (rules := _rules_value(args)) is not None:
        request["rules"] = rules
    for key, value in _pairs(args.extra, "--set").items():
        request[key] = value
    return request


def _rules_value(args: argparse.Namespace) -> str | dict | None:
    """The request's "rules" that --rules and --option name (None: neither, the default preset)."""
    options = _pairs(args.option, "--option")
    if options:
        return {"preset": args.rules or _default_preset(), **options}
    return args.rules or None


def photo_part(args: argparse.Namespace, photo: dict) -> tuple[dict, int]:
    """What a photo's request (:func:`read_photo_request`'s) gives the request the options build: its hand, melds,
    winning tile, flowers and dora indicators, less what the options say instead or the rules do not read; and
    how many red fives in it are scored as plain fives: all where the rules count none (EMA 2016, WRC, Hong Kong,
    ...: a set with red fives played without them, as the page does)."""
    from companion.rules import family, red_fives

    part: dict[str, Any] = {key: photo[key] for key in PHOTO_KEYS if photo.get(key)}
    # the photo's dora row only where the rules read indicators, as the page does (the classical book refuses
    # them, Hong Kong has no dora); --dora says them instead
    if args.dora or "dora_indicators" not in family(args.rules).INDICATOR_KEYS:
        part.pop("dora_indicators", None)
    if args.flowers:
        part.pop("flowers", None)
    return plain_fives(part) if red_fives(_rules_value(args)) == 0 else (part, 0)


def _default_preset() -> str:
    from companion.rules import DEFAULT_PRESET

    return DEFAULT_PRESET


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None,
        stderr: TextIO | None = None) -> int:
    """Handler of ``companion score``; returns the exit status (0 scored, 2 bad input, 1 internal error)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if args.dora_photo and not args.photo:
        print("companion score: --dora-photo goes with --photo (the photo of the hand)", file=stderr)
        return 2
    if args.photo and (args.hand or any(getattr(args, kind) for kind in MELD_TYPES)):  # (before the photo is read)
        print("companion score: give the hand either as tiles (HAND and the meld options) or by --photo, not both",
              file=stderr)
        return 2
    if args.json:
        return _run_json(args, stdin, stdout)
    if not args.hand and not args.photo:
        print("companion score: give a hand such as \"123m456p789s11z22z @2z\", a photo of it (--photo), or use "
              "--json with a request on stdin", file=stderr)
        return 2
    try:
        photo = None
        if args.photo:
            photo, said = read_photo_request(args.photo, args.dora_photo)
            stdout.write(said + "\n\n")  # the tiles as read, doubts marked, before what they score
        part, plain = photo_part(args, _photo_hand(photo)) if photo else (None, 0)
        request = build_request(args, part)
        if plain:
            rules = preset_name(request.get("rules"))
            stdout.write(f"{plain} red five(s) of the photo counted as plain: the rules {rules} play without red fives\n\n")
        result = _score(request)
    except CompanionError as exc:
        print(f"error ({exc.code}): {exc}", file=stderr)
        return 2
    except Exception as exc:  # an engine bug must not end in a bare traceback for a player at the table
        if os.environ.get("COMPANION_DEBUG"):
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (set COMPANION_DEBUG=1 for the traceback)",
              file=stderr)
        return 1
    stdout.write(format_result(request, result, args.lang))
    return 0


def read_photo_request(path: str, dora_path: str | None = None) -> tuple[dict, str]:
    """The photo of a hand read as `companion recognize` reads it (with a second photo of the dora indicators):
    the object `recognize --json` prints for it (its "request" None where it gives no hand, and "reason" says why)
    and its readable lines; a CompanionError where the photo cannot be read ("model_missing": the models)."""
    from companion.vision import pipeline
    from companion.vision.cli import describe, recognition_json

    try:
        dora = pipeline.load_to_read(dora_path) if dora_path else None
        result, _ = pipeline.read_photo_file(path, dora)
    except FileNotFoundError as exc:  # (a photo that does not exist is a CompanionError: the models are missing)
        error = CompanionError(f"the recognition models cannot be read: {exc}")
        error.code = "model_missing"
        raise error from exc
    return recognition_json(path, result), describe(path, result)


def _photo_hand(photo: dict) -> dict:
    """The request a photo read by :func:`read_photo_request` gave, or an InvalidRequestError with its reason."""
    if photo["request"] is None:
        raise InvalidRequestError(f"the photo gives no hand to score: {photo.get('reason', '')}")
    return photo["request"]


def _score(request: dict) -> dict:
    from companion import score

    return score(request)


def _run_json(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    def fail(error: dict, status: int = 2) -> int:
        stdout.write(json.dumps(error, ensure_ascii=False) + "\n")
        return status

    photo = None
    try:
        if args.photo:
            photo, _ = read_photo_request(args.photo, args.dora_photo)
            request = build_request(args, photo_part(args, _photo_hand(photo))[0])
        elif args.hand:
            request = build_request(args)
        else:
            text = stdin.read()
            try:
                request = json.loads(text)
            except ValueError as exc:
                return fail({"error": f"the request is not valid JSON: {exc}", "code": "invalid_json"})
        result = _score(request)
    except CompanionError as exc:  # (with what the photo read, where one was)
        return fail({**exc.to_dict(), **({"photo": photo} if photo is not None else {})})
    except Exception as exc:  # keep stdout machine-readable even when the engine itself fails
        if os.environ.get("COMPANION_DEBUG"):
            raise
        return fail({"error": f"internal error: {type(exc).__name__}: {exc}", "code": "internal_error"}, 1)
    if photo is not None:  # what the photo read, as `companion recognize --json` prints it
        result = {**result, "photo": photo}
    stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 0


# ---- the human-readable breakdown -------------------------------------------------------------

_LABELS = {
    "en": {
        "hand": "Hand", "melds": "Melds", "won": "Won", "ron": "ron on", "tsumo": "tsumo on",
        "seat": "seat", "round": "round", "rules": "Rules", "default": "default", "dora": "Dora indicators",
        "ura": "Ura indicators", "flowers": "Flowers", "yaku": "Yaku", "fu": "Fu", "score": "Score",
        "limit": "Limit", "payments": "Payments", "total_gain": "Total gain", "honba": "Honba",
        "sticks": "Riichi sticks", "yakuman": "yakuman", "by_seat": "Points by seat", "other": "Other",
        "items": "Items",
    },
    "de": {
        "hand": "Hand", "melds": "Meldungen", "won": "Gewonnen", "ron": "Ron auf", "tsumo": "Tsumo auf",
        "seat": "Platz", "round": "Runde", "rules": "Regeln", "default": "Standard", "dora": "Dora-Indikatoren",
        "ura": "Ura-Indikatoren", "flowers": "Blumen", "yaku": "Yaku", "fu": "Fu", "score": "Wertung",
        "limit": "Limit", "payments": "Zahlungen", "total_gain": "Gesamtgewinn", "honba": "Honba",
        "sticks": "Riichi-Stöcke", "yakuman": "Yakuman", "by_seat": "Punkte je Platz", "other": "Weiteres",
        "items": "Posten",
    },
}

_PAYERS = {
    "en": {"discarder": "discarder pays", "dealer": "dealer pays", "each_non_dealer": "each non-dealer pays",
           "each_other": "each other player pays", "each": "each player pays"},
    "de": {"discarder": "Abwerfer zahlt", "dealer": "Geber (Ost) zahlt",
           "each_non_dealer": "jeder Nicht-Geber zahlt", "each_other": "jeder andere Spieler zahlt",
           "each": "jeder Spieler zahlt"},
}

_WIND_NAMES = {"en": {"E": "East", "S": "South", "W": "West", "N": "North"},
               "de": {"E": "Ost", "S": "Süd", "W": "West", "N": "Nord"}}

# keys shown in their own sections; everything else a result carries is listed under "Other"
_SHOWN = {"han", "fu", "yakuman", "limit", "yaku", "fu_details", "payments", "total_gain", "payments_by_seat",
          "fan", "points", "doubles", "value"}
_KNOWN_EXTRAS = {
    "en": {"decomposition": "Reading", "wait": "Wait", "base_points": "Base points"},
    "de": {"decomposition": "Zerlegung", "wait": "Wartemuster", "base_points": "Basispunkte"},
}
_ECHOED = {"rules", "win_tile", "seat_wind", "tsumo", "won", "winner", "discarder", "riichi_sticks"}
_ITEM_LISTS = ("yaku", "fan_details", "fan_items", "doubles_details", "points_details", "items")


def format_result(request: dict, result: dict, lang: str = "en") -> str:
    """A readable breakdown of ``result`` (any rule family), in English or German."""
    lab = _LABELS.get(lang, _LABELS["en"])
    lines: list[str] = []
    lines.extend(_describe_request(request, lab, lang))

    yaku = result.get("yaku")
    if isinstance(yaku, list) and yaku:
        lines.append(f"{lab['yaku']}:")
        lines.extend(_item_lines(yaku, lang, unit="han"))
    fu_details = result.get("fu_details")
    if isinstance(fu_details, list) and fu_details:
        lines.append(f"{lab['fu']}:")
        lines.extend(_item_lines(fu_details, lang, unit="fu"))
    for key in _ITEM_LISTS[1:]:
        items = result.get(key)
        if isinstance(items, list) and items and items != yaku:  # a family may give the same list twice
            lines.append(f"{lab['items'] if key == 'items' else key.replace('_', ' ').capitalize()}:")
            lines.extend(_item_lines(items, lang, unit=""))

    summary = []
    if result.get("yakuman"):
        mult = result["yakuman"]
        summary.append(f"{mult}x {lab['yakuman']}" if mult != 1 else lab["yakuman"])
    else:
        for key in ("han", "fu"):
            if result.get(key) is not None:
                summary.append(f"{result[key]} {_unit(key, result[key], lang)}")
    for key in ("fan", "points", "doubles", "value"):
        if result.get(key) is not None:
            summary.append(f"{result[key]} {_unit(key, result[key], lang)}")
    if summary:
        lines.append(f"{lab['score']}: {', '.join(summary)}")
    if result.get("limit"):
        lines.append(f"{lab['limit']}: {result['limit']}")

    payments = result.get("payments")
    if isinstance(payments, dict) and payments:
        lines.append(f"{lab['payments']}:")
        payers = _PAYERS.get(lang, _PAYERS["en"])
        for key, amount in payments.items():
            lines.append(f"  {payers.get(key, key.replace('_', ' '))}: {amount}")
    by_seat = result.get("payments_by_seat")
    if isinstance(by_seat, dict) and by_seat:
        names = _WIND_NAMES.get(lang, _WIND_NAMES["en"])
        parts = [f"{names.get(seat, seat)} {amount:+d}" if isinstance(amount, int) else f"{seat} {amount}"
                 for seat, amount in by_seat.items()]
        lines.append(f"{lab['by_seat']}: {', '.join(parts)}")
    if result.get("total_gain") is not None:
        lines.append(f"{lab['total_gain']}: {result['total_gain']}")

    known = _KNOWN_EXTRAS.get(lang, _KNOWN_EXTRAS["en"])
    for key, label in known.items():
        if result.get(key) not in (None, ""):
            lines.append(f"{label}: {result[key]}")
    # keys that only echo the request are left out; anything else a family adds is listed as it is
    other = {k: v for k, v in result.items()
             if k not in _SHOWN and k not in _ITEM_LISTS and k not in known and k not in _ECHOED}
    if other:
        lines.append(f"{lab['other']}:")
        for key, value in other.items():
            shown = value if isinstance(value, str | int | float) else json.dumps(value, ensure_ascii=False)
            lines.append(f"  {key}: {shown}")
    return "\n".join(lines) + "\n"


def _describe_request(request: dict, lab: dict, lang: str) -> list[str]:
    lines = [f"{lab['hand']}: {request.get('hand', '')}"]
    melds = request.get("melds") or []
    if melds:
        lines.append(f"{lab['melds']}: " + ", ".join(f"{m.get('type')} {m.get('tiles')}" for m in melds))
    how = lab["tsumo"] if request.get("tsumo") else lab["ron"]
    winds = _WIND_NAMES.get(lang, _WIND_NAMES["en"])
    context = []
    if request.get("seat_wind"):
        context.append(f"{lab['seat']} {winds.get(request['seat_wind'], request['seat_wind'])}")
    if request.get("round_wind"):
        context.append(f"{lab['round']} {winds.get(request['round_wind'], request['round_wind'])}")
    flags = [f for f in FLAGS if request.get(f)]
    won = f"{lab['won']}: {how} {request.get('win_tile', '?')}"
    if flags:
        won += " (" + ", ".join(flags) + ")"
    if context:
        won += "; " + ", ".join(context)
    lines.append(won)
    extras = []
    if request.get("honba"):
        extras.append(f"{lab['honba']}: {request['honba']}")
    if request.get("riichi_sticks"):
        extras.append(f"{lab['sticks']}: {request['riichi_sticks']}")
    if request.get("dora_indicators"):
        extras.append(f"{lab['dora']}: {' '.join(request['dora_indicators'])}")
    if request.get("ura_indicators"):
        extras.append(f"{lab['ura']}: {' '.join(request['ura_indicators'])}")
    if request.get("flowers"):
        extras.append(f"{lab['flowers']}: {' '.join(request['flowers'])}")
    if extras:
        lines.append("; ".join(extras))
    rules = request.get("rules")
    if isinstance(rules, dict):
        opts = ", ".join(f"{k}={v}" for k, v in rules.items() if k != "preset")
        lines.append(f"{lab['rules']}: {rules.get('preset', lab['default'])}" + (f" ({opts})" if opts else ""))
    else:
        lines.append(f"{lab['rules']}: {rules or _default_preset()}")
    return lines


def _item_lines(items: list, lang: str, unit: str) -> list[str]:
    """One line per scoring item: value, then the name in the chosen language and the other one."""
    rows = []
    for item in items:
        if not isinstance(item, dict):
            rows.append(("", str(item)))
            continue
        en = item.get("name") or item.get("reason") or item.get("id") or ""
        de = item.get("name_de") or ""
        first, second = (de, en) if lang == "de" and de else (en, de)
        name = f"{first} / {second}" if second and second != first else str(first)
        if isinstance(item.get("tiles"), str) and item["tiles"] not in name:
            name += f" ({item['tiles']})"
        amount = ""
        for key in (unit, "han", "fu", "fan", "points", "doubles", "value", "yakuman"):
            if key and item.get(key) is not None:
                amount = f"{item[key]} {_unit(key, item[key], lang)}"
                break
        rows.append((amount, name))
    width = max((len(a) for a, _ in rows), default=0)
    return [f"  {amount:>{width}}  {name}".rstrip() for amount, name in rows]


# unit words (plural, singular) per language
_UNITS = {
    "en": {"han": ("han", "han"), "fu": ("fu", "fu"), "fan": ("fan", "fan"), "points": ("points", "point"),
           "doubles": ("doubles", "double"), "value": ("value", "value"), "yakuman": ("yakuman", "yakuman")},
    "de": {"han": ("Han", "Han"), "fu": ("Fu", "Fu"), "fan": ("Fan", "Fan"), "points": ("Punkte", "Punkt"),
           "doubles": ("Verdopplungen", "Verdopplung"), "value": ("Wert", "Wert"),
           "yakuman": ("Yakuman", "Yakuman")},
}


def _unit(key: str, amount: object, lang: str) -> str:
    plural, singular = _UNITS.get(lang, _UNITS["en"]).get(key, (key, key))
    return singular if amount == 1 else plural

