"""The table's web layer: a JSON API (``/api``) and the tablet page (``/``).

>>> app = create_app({"INSTANCE_PATH": "/tmp/companion-doc"})   # doctest: +SKIP
>>> app.test_client().get("/api/games").get_json()               # doctest: +SKIP
{'games': []}
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from companion.paths import shipped

# the page lives at the repository root (web/), next to the package, so designers can work on it
# without touching Python; a regular install ships it as data (companion.paths)
WEB_ROOT = shipped("web")

# photos from a tablet camera are a few MB; anything far larger is not a photo of tiles
MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``test_config`` overrides configuration, e.g. ``INSTANCE_PATH`` or ``DATABASE``.

    The instance folder (default ``./instance``, or ``$COMPANION_INSTANCE``) holds the SQLite
    database, the ``corrections/`` crops saved from the photo page and the ``photos/`` checked there; it is
    created if missing."""
    config = dict(test_config or {})
    instance = os.path.abspath(
        config.pop("INSTANCE_PATH", None) or os.environ.get("COMPANION_INSTANCE") or "instance"
    )
    app = Flask(
        __name__,
        instance_path=instance,
        template_folder=str(WEB_ROOT / "templates"),
        static_folder=str(WEB_ROOT / "static"),
        static_url_path="/static",
    )
    app.config.from_mapping(
        DATABASE=os.path.join(instance, "companion.sqlite3"),
        CORRECTIONS_DIR=os.path.join(instance, "corrections"),
        # photos checked on the page, kept with their tiles as a club's own labelled set (POST /api/photos);
        # COMPANION_KEEP_PHOTOS=0 keeps none
        PHOTOS_DIR=os.path.join(instance, "photos"),
        KEEP_PHOTOS=os.environ.get("COMPANION_KEEP_PHOTOS", "1") != "0",
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.sort_keys = False
    from companion.web.held_photos import HeldPhotos

    app.extensions["held_photos"] = HeldPhotos()  # the photos sent last, named by id in the requests after
    os.makedirs(app.instance_path, exist_ok=True)

    from companion.web import api, pages
    from companion.web.tournament_api import bp as tournament_bp

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(tournament_bp)  # /api/tournaments and the scorekeeper page /tournament
    api.register_error_handlers(app)
    return app
