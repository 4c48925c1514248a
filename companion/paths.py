"""Where the shipped files are: the tablet page (``web/``) and the recognition models (``models/``).

In a checkout (and an editable install, as the README's) they sit next to the package; a regular
install (``pip install .`` or a wheel) puts them under ``<prefix>/share/mahjong-companion/``
(``[tool.setuptools.data-files]`` in pyproject.toml).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[1]
_SHARED = Path(sys.prefix) / "share" / "mahjong-companion"


def shipped(name: str) -> Path:
    """The folder ``name`` (``web`` or ``models``) of this installation."""
    here = _CHECKOUT / name
    if here.is_dir():
        return here
    installed = _SHARED / name
    return installed if installed.is_dir() else here


def models_folder() -> Path:
    """The models folder the recogniser reads: the one COMPANION_MODELS names (a fine-tune's or a training run's
    folder), else the shipped one (also where it is set empty)."""
    return Path(os.environ.get("COMPANION_MODELS") or shipped("models"))
