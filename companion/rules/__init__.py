"""Rule families and their presets.

A request names its rules either as a preset name (``"wrc"``) or as a dict
``{"preset": "wrc", <option>: <value>, ...}``; the family that owns the preset
scores it.  Each family package exposes ``PRESETS`` and ``score(request)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.errors import InvalidRequestError, UnknownRulesError

DEFAULT_PRESET = "ema2016"

# preset name -> family package; kept here so that naming a preset never imports every family
FAMILIES: dict[str, str] = {
    "ema2016": "companion.rules.riichi",
    "wrc": "companion.rules.riichi",
    "mleague": "companion.rules.riichi",
    "tenhou": "companion.rules.riichi",
    "mahjongsoul": "companion.rules.riichi",
    "ryanzou": "companion.rules.riichi",
    "hongkong": "companion.rules.hongkong",
    "classical": "companion.rules.classical",
    "oldjapanese": "companion.rules.oldjapanese",
}


def preset_name(rules: object) -> str:
    """The preset a request's ``rules`` value names."""
    if rules is None:
        return DEFAULT_PRESET
    if isinstance(rules, str):
        name = rules
    elif isinstance(rules, dict):
        name = rules.get("preset", DEFAULT_PRESET)
        if not isinstance(name, str):
            raise InvalidRequestError("rules.preset must be a preset name")
    else:
        raise InvalidRequestError('"rules" must be a preset name or an object with "preset" and options')
    if name not in FAMILIES:
        raise UnknownRulesError(f"unknown rules preset {name!r}; known: {', '.join(sorted(FAMILIES))}")
    return name


def family(rules: object) -> ModuleType:
    """The family package that scores this ``rules`` value."""
    return importlib.import_module(FAMILIES[preset_name(rules)])


# where each family reads a ``rules`` value into its options object (module, function)
_OPTIONS_READERS: dict[str, tuple[str, str]] = {
    "companion.rules.riichi": ("companion.rules.riichi.options", "resolve_rules"),
    "companion.rules.hongkong": ("companion.rules.hongkong.options", "options_from_rules"),
    "companion.rules.classical": ("companion.rules.classical.request", "parse_options"),
    "companion.rules.oldjapanese": ("companion.rules.oldjapanese.options", "parse_options"),
}


def resolve_options(rules: object) -> object:
    """The family's options object for a ``rules`` value: how a table checks house rules once,
    when a game is created, instead of at its first hand. Raises what scoring would raise
    (``UnknownRulesError`` for an unknown option, ``InvalidRequestError`` for a bad value)."""
    module, function = _OPTIONS_READERS[FAMILIES[preset_name(rules)]]
    return getattr(importlib.import_module(module), function)(rules)


def red_fives(rules: object) -> int:
    """How many red fives (0m 0p 0s) these rules count as red fives: a Riichi preset's ``red_fives`` (0 for EMA
    2016 and WRC, whose requests refuse one); 0 for the other families, which read a red five as the five it is. A
    photo of a set that has red fives, scored under rules that count none, has them counted as plain fives
    (:func:`plain_fives`)."""
    return getattr(resolve_options(rules), "red_fives", 0)


# the request keys that hold tiles, whose red fives plain_fives writes as plain ones
_TILE_KEYS = ("hand", "win_tile", "dora_indicators", "ura_indicators")


def plain_fives(request: dict) -> tuple[dict, int]:
    """A copy of a scoring ``request`` with every red five in its hand, winning tile, melds and indicators written
    as the plain five (a ``0`` digit in mpsz is a red five, and nothing else), and how many tiles were changed
    (the winning tile is one of the hand's).

    >>> plain_fives({"hand": "406p11z", "win_tile": "0p", "melds": [{"type": "chi", "tiles": "067s"}]})
    ({'hand': '456p11z', 'win_tile': '5p', 'melds': [{'type': 'chi', 'tiles': '567s'}]}, 2)
    """
    def plain(value: object) -> object:
        if isinstance(value, str):
            return value.replace("0", "5")
        return [plain(v) for v in value] if isinstance(value, list) else value

    def reds(value: object) -> int:
        if isinstance(value, str):
            return value.count("0")
        return sum(map(reds, value)) if isinstance(value, list) else 0

    out = {key: plain(value) if key in _TILE_KEYS else value for key, value in request.items()}
    changed = sum(reds(request.get(key)) for key in _TILE_KEYS if key != "win_tile")
    if isinstance(request.get("melds"), list):
        out["melds"] = [{**m, "tiles": plain(m["tiles"])} if isinstance(m, dict) and "tiles" in m else m
                        for m in request["melds"]]
        changed += sum(reds(m["tiles"]) for m in request["melds"] if isinstance(m, dict) and "tiles" in m)
    return out, changed


def score(request: dict) -> dict:
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    return family(request.get("rules")).score(request)
