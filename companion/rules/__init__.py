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


def score(request: dict) -> dict:
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    return family(request.get("rules")).score(request)
