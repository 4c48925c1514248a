"""Errors that say what was wrong with the input.

Every error carries a stable machine-readable ``code`` so that the CLI and the
HTTP API can answer ``{"error": message, "code": code}`` without guessing.
"""

from __future__ import annotations


class CompanionError(ValueError):
    """Base class: bad input of any kind. ``code`` is stable, ``str()`` is for people."""

    code = "invalid_request"
    field: str | None = None  # the input at fault where a request has several (a form's field); answers name it

    def __init__(self, *args: object, field: str | None = None) -> None:
        super().__init__(*args)
        if field is not None:
            self.field = field

    def to_dict(self) -> dict:
        return {"error": str(self), "code": self.code, **({"field": self.field} if self.field else {})}


class InvalidTilesError(CompanionError):
    """A tile string is malformed, or a tile occurs more often than the set has it."""

    code = "invalid_tiles"


class InvalidRequestError(CompanionError):
    """A request is missing a key, has a wrong type or contradicts itself."""

    code = "invalid_request"


class PhotoFileError(InvalidRequestError):
    """An uploaded photo that cannot be read, with a code for each reason, so that the page can say it in its own
    language: "photo_empty", "photo_heic" (an iPhone's own format, where it cannot be decoded), "photo_cut_short" (a
    JPEG, PNG, WebP or HEIC file that ends before its picture does), "photo_too_large" (more pixels than a photo is
    read at) or "photo_unreadable" (no image at all)."""

    def __init__(self, message: str, code: str, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.code = code


class PhotoGoneError(CompanionError):
    """A request names a photo by the id an earlier answer gave it, and the server no longer holds it."""

    code = "photo_gone"


class NotCompleteError(CompanionError):
    """The tiles do not form a winning hand."""

    code = "not_complete"


class NoYakuError(CompanionError):
    """A complete riichi hand without any yaku (dora do not count)."""

    code = "no_yaku"


class BelowMinimumError(CompanionError):
    """A complete hand below the rule set's minimum (fan, doubles)."""

    code = "below_minimum"


class UnknownRulesError(CompanionError):
    """An unknown preset name or rule option."""

    code = "unknown_rules"


class TableError(CompanionError):
    """An event that the table cannot accept in its current state."""

    code = "table_error"
