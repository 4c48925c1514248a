"""The JSON API. Views stay thin: they parse the request, call the table / scoring / vision code,
and turn its errors into ``{"error": message, "code": code}`` with a 4xx status."""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any, NamedTuple

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError, InvalidRequestError, PhotoGoneError, TableError

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger(__name__)

# codes that are not "your input is wrong" (400) but a state of the server's data
_STATUS_BY_CODE = {
    "conflict": 409,
    "unknown_game": 404,
    "game_not_found": 404,
    "not_found": 404,
    "model_missing": 503,
    "vision_unavailable": 503,
}


class ApiError(CompanionError):
    """An error the web layer itself detects, with its own status and code."""

    def __init__(self, message: str, code: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


# ---------------------------------------------------------------- helpers


def get_store() -> Any:
    """The table store for this request. One per request: SQLite connections must not cross
    waitress' worker threads, and opening one is far cheaper than a hand of mahjong."""
    if "store" not in g:
        from companion.table.store import Store

        g.store = Store(current_app.config["DATABASE"])
    return g.store


@bp.teardown_app_request
def _close_store(_exc: BaseException | None) -> None:
    store = g.pop("store", None)
    close = getattr(store, "close", None)
    if close is not None:
        close()


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a clear 400."""
    body = request.get_json(silent=True)
    if body is None:
        raise InvalidRequestError("the request body must be JSON (Content-Type: application/json)")
    if not isinstance(body, dict):
        raise InvalidRequestError("the request body must be a JSON object")
    return body


def error_response(message: str, code: str, status: int, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, "code": code, **extra}), status


def _status_for(exc: CompanionError) -> int:
    status = getattr(exc, "status", None)
    if isinstance(status, int) and 400 <= status < 600:
        return status
    return _STATUS_BY_CODE.get(exc.code, 400)


def _conflict_extra(exc: CompanionError, game_id: str) -> dict[str, Any]:
    """What a tablet needs to recover from a conflict: the seq to expect now, and the state."""
    extra: dict[str, Any] = {}
    for name in ("next_seq", "current_seq", "seq", "expected_seq"):
        value = getattr(exc, name, None)
        if isinstance(value, int):
            extra["next_seq"] = value
            break
    try:
        state = _game_payload(game_id)
    except CompanionError:
        return extra
    extra.setdefault("next_seq", state.get("next_seq", state.get("state", {}).get("next_seq")))
    extra["state"] = state
    return extra


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CompanionError)
    def _companion_error(exc: CompanionError):  # noqa: ANN202 - Flask handler
        status = _status_for(exc)
        extra: dict[str, Any] = {}
        if exc.code == "conflict" and request.view_args and "game_id" in request.view_args:
            extra = _conflict_extra(exc, request.view_args["game_id"])
        if exc.field:
            extra["field"] = exc.field
        return error_response(str(exc), exc.code, status, **extra)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):  # noqa: ANN202 - Flask handler
        if not request.path.startswith("/api/"):
            return exc
        messages = {
            404: f"no API endpoint {request.path}",
            405: f"{request.method} is not allowed on {request.path}",
            413: f"the upload is larger than {current_app.config['MAX_CONTENT_LENGTH'] // (1024 * 1024)} MB",
        }
        code = (exc.name or "error").lower().replace(" ", "_")
        return error_response(messages.get(exc.code or 400, exc.description or code), code, exc.code or 400)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # noqa: ANN202 - Flask handler
        log.exception("unhandled error on %s %s", request.method, request.path)
        if not request.path.startswith("/api/"):
            return "Internal server error", 500
        return error_response("internal error; the server log has the details", "internal_error", 500)


# ---------------------------------------------------------------- games


def _game_payload(game_id: str) -> dict[str, Any]:
    """The folded state plus the stored events (undone ones and undos included), from one read."""
    from companion.table.game import fold

    game, events = get_store().load(game_id)
    state = fold(game, events).to_dict()
    state["events"] = events
    return state


@bp.get("/games")
def list_games():  # noqa: ANN201
    return jsonify({"games": get_store().list_games()})


@bp.post("/games")
def create_game():  # noqa: ANN201
    body = json_body()
    unknown = sorted(set(body) - {"rules", "preset", "overrides", "players"})
    if unknown:
        raise InvalidRequestError(f"unknown key(s) {', '.join(unknown)}; expected rules, overrides, players")
    preset = body.get("rules", body.get("preset", "ema2016"))
    if not isinstance(preset, str) or not preset:
        raise InvalidRequestError('"rules" must be a preset name such as "ema2016"')
    overrides = body.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise InvalidRequestError('"overrides" must be an object of rule options')
    players = body.get("players")
    if not isinstance(players, list) or len(players) != 4:
        raise InvalidRequestError('"players" must be a list of four names, East first')
    from companion.table import service
    from companion.table.store import check_player_names

    try:  # the rule every game is held to, imports too, said as this request's fault
        check_player_names(players)
    except TableError as exc:
        raise InvalidRequestError(str(exc)) from None
    state = service.create_game(get_store(), preset, overrides, [name.strip() for name in players])
    return jsonify(_game_payload(state["id"])), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str):  # noqa: ANN201
    return jsonify(_game_payload(game_id))


def _event_from_body() -> tuple[dict[str, Any], str, int]:
    body = json_body()
    client_id = body.pop("client_id", None)
    expected_seq = body.pop("expected_seq", None)
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= 200:
        raise InvalidRequestError('"client_id" must be a string (1-200 characters) unique to this entry')
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise InvalidRequestError('"expected_seq" must be the sequence number this event gets (next_seq)')
    if not isinstance(body.get("type"), str):
        raise InvalidRequestError('an event needs a "type" such as "riichi", "win", "draw" or "undo"')
    return body, client_id, expected_seq


@bp.post("/games/<game_id>/events")
def append_event(game_id: str):  # noqa: ANN201
    from companion.table import service

    event, client_id, expected_seq = _event_from_body()
    return jsonify(service.append_event(get_store(), game_id, event, client_id, expected_seq))


@bp.post("/games/<game_id>/preview")
def preview_event(game_id: str):  # noqa: ANN201
    from companion.table import service

    body = json_body()
    body.pop("client_id", None)
    body.pop("expected_seq", None)
    if not isinstance(body.get("type"), str):
        raise InvalidRequestError('an event needs a "type" such as "win" or "draw"')
    return jsonify(service.preview_event_detail(get_store(), game_id, body))


@bp.get("/games/<game_id>/export")
def export_game(game_id: str):  # noqa: ANN201
    data = get_store().export_game(game_id)
    response = jsonify(data)
    response.headers["Content-Disposition"] = f'attachment; filename="mahjong-game-{game_id}.json"'
    return response


@bp.post("/games/import")
def import_game():  # noqa: ANN201
    game = get_store().import_game(json_body())
    return jsonify(_game_payload(game["id"])), 201


# ---------------------------------------------------------------- scoring and photos


@bp.post("/score")
def score():  # noqa: ANN201
    import companion

    return jsonify(companion.score(json_body()))


@bp.post("/settle/classical")
def settle_classical():  # noqa: ANN201
    """Seed 002's settlement from the four hand values: the winner collects, the losers settle among
    themselves, East pays and receives double."""
    from companion.rules.classical.settlement import settle, transfers

    body = json_body()
    values, winner, east = body.get("values_by_seat"), body.get("winner"), body.get("east", "E")
    return jsonify({"payments_by_seat": settle(values, winner, east),
                    "transfers": transfers(values, winner, east)})


def _uploaded_image(field: str = "image") -> tuple[Any, str]:
    """The uploaded photo decoded to a BGR array; a clear 400 for anything that is not an image, naming the form
    field ("field" in the answer), so that a page with two photos (the hand and the dora indicators) knows which
    one to ask for again. Instead of the file, the form may name a photo sent before by the id an answer gave it
    (field "image_id" for "image", "dora_id" for "dora"; companion.web.held_photos); one no longer held gives the
    code "photo_gone". Returns the array and the id the photo is held by."""
    from companion.photo_files import decode_photo

    upload = _uploaded(field, decode_photo)
    return upload.decoded, upload.held_id


class _Upload(NamedTuple):
    """A photo sent (or named by the id it is held by): its bytes, its name for errors, it decoded, and that id."""

    data: bytes
    name: str
    decoded: Any
    held_id: str


def _uploaded(field: str, decode: Any) -> _Upload:
    """The photo in ``field`` (or held by the id in ``field``_id) decoded by ``decode`` (bytes, name, field): a
    photo sent as a file is held only once decoded (see :func:`_uploaded_image`). An iPhone's HEIC photo is
    decoded once and held, and read, as a JPEG (companion.photo_files.heif_as_jpeg): each correction of it
    decodes the photo again, which takes libheif ten times as long as a JPEG of the same size."""
    from companion.photo_files import heif_as_jpeg, is_heif

    data, held_id, name = _sent_photo(field)
    if not held_id and is_heif(data[:16]):
        data = heif_as_jpeg(data, name, field)
    decoded = decode(data, name, field)
    return _Upload(data, name, decoded, held_id or current_app.extensions["held_photos"].put(data))


def _sent_photo(field: str = "image") -> tuple[bytes, str, str]:
    """The bytes of the photo in ``field`` (or held by the id in ``field``_id: see :func:`_uploaded_image`), that id
    ("" for a file sent: it is held once decoded) and the photo's name for errors."""
    upload = request.files.get(field)
    if upload is None and request.form.get(f"{field}_id"):
        held_id = request.form[f"{field}_id"]
        data = current_app.extensions["held_photos"].get(held_id)
        if data is None:
            raise PhotoGoneError(f"the photo {held_id[:12]}... is no longer held by the server (restarted, or many "
                                 f'photos since): send it again in "{field}"', field=field)
        return data, held_id, _photo_name("", field)
    if upload is None:
        raise InvalidRequestError(f'send the photo as multipart/form-data in the field "{field}"', field=field)
    return upload.read(), "", _photo_name(upload.filename or "", field)


def _photo_name(filename: str, field: str) -> str:
    """The photo as an error names it: the dora photo or the uploaded file, and the file's name where sent."""
    what = "the dora photo" if field == "dora" else "the uploaded file"
    return f"{what} ({filename})" if filename else what


def _tile_fixes(field: str) -> dict[int, str] | None:
    """The form field ``field``, a JSON object of tile index -> tile, as a dict; None when it is not sent."""
    raw = request.form.get(field)
    if raw is None:
        return None
    try:
        fixes = json.loads(raw)
    except ValueError as exc:
        raise InvalidRequestError(f'"{field}" must be a JSON object of tile index -> tile, e.g. {{"3": "5m"}} ({exc})') from exc
    if not isinstance(fixes, dict) or not all(isinstance(k, str) and k.isdigit() and isinstance(v, str)
                                              for k, v in fixes.items()):
        raise InvalidRequestError(f'"{field}" must be a JSON object of tile index -> tile, e.g. {{"3": "5m"}}')
    return {int(k): v for k, v in fixes.items()}


def _turned_field() -> int | None:
    """The form field "turned" (the answer's "turned": the degrees clockwise the photo was read turned by), checked;
    None when not sent."""
    turned = request.form.get("turned")
    if turned in (None, ""):
        return None
    if turned not in ("0", "90", "180", "270"):
        raise InvalidRequestError(f'"turned" must be 0, 90, 180 or 270 (the first answer\'s "turned"), not {turned!r}')
    return int(turned)


def _corrections_of_a_reading() -> dict:
    """The form fields "fixes", "dora_fixes", "turned", "low_angle", "restore", "drop", "add", "turn" and "win"
    of /api/recognize, checked; {} when none is sent."""
    options: dict = {}
    for field in ("fixes", "dora_fixes"):
        fixes = _tile_fixes(field)
        if fixes is not None:
            options[field] = fixes
    turned = _turned_field()
    if turned is not None:
        options["turned"] = turned
    low_angle = request.form.get("low_angle")
    if low_angle not in (None, ""):
        if low_angle not in ("0", "1", "false", "true"):
            raise InvalidRequestError(f'"low_angle" must be 1 or 0 (true or false: whether the first answer has '
                                      f'"low_angle": true), not {low_angle!r}')
        options["low_angle"] = low_angle in ("1", "true")
    win = request.form.get("win")
    if win not in (None, ""):
        if not win.isdigit():
            raise InvalidRequestError(f'"win" must be the index of the winning tile among the answer\'s "tiles" '
                                      f"(0, 1, ...), not {win!r}")
        options["win"] = int(win)
    # their boxes are checked by recognize_image
    for key, of in (("restore", 'from the answer\'s "not_tiles"'), ("drop", 'from the answer\'s "tiles"'),
                    ("add", "on the photo where a tile was missed"),
                    ("turn", 'from the answer\'s "tiles" that lie the other way (sideways or upright)')):
        raw = request.form.get(key)
        if raw in (None, ""):
            continue
        try:
            options[key] = json.loads(raw)
        except ValueError as exc:
            raise InvalidRequestError(f'"{key}" must be a JSON list of boxes {of}, e.g. [[812, 410, 868, 492]] '
                                      f"({exc})") from exc
    return options


def _vision() -> Any:
    import importlib

    try:
        vision = importlib.import_module("companion.vision")
    except ImportError as exc:
        raise ApiError(f"tile recognition is not available on this server ({exc})", "vision_unavailable", 503) from exc
    return vision


def _model_missing(exc: Exception) -> ApiError:
    return ApiError(
        f"the recognition model is missing on this server ({exc}); see models/ in the README",
        "model_missing",
        503,
    )


@bp.post("/recognize")
def recognize():  # noqa: ANN201
    from companion.photo_files import decode_first, decode_to_read, read_photo

    # a large JPEG may be read at half size (read_photo); boxes in and out stay in the photo's pixels. A photo that
    # cannot be read is refused before the dora photo is looked at, and one that can is held from now on
    held = current_app.extensions["held_photos"]
    # a correction names the photo by its id: decoded straight away at the size its answer was read at (held with it)
    chosen = None if "image" in request.files else held.scale_read_at(request.form.get("image_id", ""))
    photo_sent = _uploaded("image", partial(decode_first, chosen=chosen))
    # an optional second photo of the dora indicators (the dead wall), in the field "dora"
    dora, dora_id = None, ""
    if "dora" in request.files or request.form.get("dora_id"):
        dora_sent = _uploaded("dora", decode_to_read)
        dora, dora_id = dora_sent.decoded, dora_sent.held_id
    # the player's corrections of a first answer ("fixes": JSON {"tile index": "class"}, "dora_fixes": the same for
    # its "dora_photo" tiles, "turned": its "turned", "low_angle": its "low_angle", "restore": JSON [box, ...] of
    # its "not_tiles" that are tiles, "drop": of its "tiles" that are none, "add": boxes on the photo where a tile
    # lies that was not found, "turn": of its "tiles" that lie the other way, "win": the index of the tile the
    # player says is the winning tile): the photo is read again that way round, with the localisers it was read
    # with, and the request built from the corrected tiles
    options = _corrections_of_a_reading()
    vision = _vision()
    try:  # (corrections read at the scale the photo's first answer was read at, remembered with the photo)
        result, photo = read_photo(photo_sent.data, photo_sent.name, "image", vision.recognize_image, dora,
                                   photo_sent.decoded, chosen, **options)
    except FileNotFoundError as exc:
        raise _model_missing(exc) from exc
    except CompanionError as exc:
        if exc.code == "model_missing":
            raise _model_missing(exc) from exc
        raise
    held.read_at(photo_sent.held_id, photo.scale)
    if isinstance(result, dict):
        result.setdefault("width", photo.width)
        result.setdefault("height", photo.height)
        # the ids to name the photos by in the requests that follow, instead of sending them again
        result["photo_id"] = photo_sent.held_id
        if dora is not None:
            result["dora_id"] = dora_id
    return jsonify(result)


SHOWN_LONG_SIDE = 2048  # GET /api/photos/<id>: the held photo as the page is shown it, at most this long (px)


@bp.get("/photos/<photo_id>")
def held_photo(photo_id: str):  # noqa: ANN201
    """The photo held by this id (an answer's "photo_id" or "dora_id") as a JPEG, upright as it was read and at most
    SHOWN_LONG_SIDE long: the page shows it where the browser cannot show the file it sent (an iPhone's HEIC in a
    browser but Safari); the answer's boxes are in the photo's own pixels (its "width" and "height"). 404
    ``photo_gone`` where no photo is held by the id (the server restarted, or many photos came since)."""
    import cv2

    from companion.photo_files import at_most, decode_photo

    data = current_app.extensions["held_photos"].get(photo_id)
    if data is None:
        return error_response(f"no photo {photo_id[:12]}... is held by the server (restarted, or many photos since): "
                              "send it again", "photo_gone", 404)
    image, _ = at_most(decode_photo(data, "the held photo"), SHOWN_LONG_SIDE)
    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})


@bp.post("/photos")
def keep_checked_photo():  # noqa: ANN201
    """A photo whose tiles the player checked on the page (and scored), kept with them as a labelled example:
    "label" is JSON {"tiles": [{"tile", "box", "sideways"}, ...], "request": {...} (optional), "not_tiles":
    [{"box", "sideways"}, ...] (optional: boxes the page showed as no tile and the player left so), "turned": 0, 90,
    180 or 270 (optional: the answer's "turned", the degrees the photo was read turned by), "first_read": {"tiles":
    [...], "unsure": [...]} (optional: the tiles as read before the player corrected any, and the indices of those
    marked for a check; GET /api/kept tells how many were right)}."""
    image, _ = _uploaded_image()
    raw = request.form.get("label", "")
    try:
        label = json.loads(raw)
    except ValueError as exc:
        raise InvalidRequestError(f'"label" must be JSON {{"tiles": [...], "request": {{...}}}} ({exc})') from exc
    if not isinstance(label, dict):
        raise InvalidRequestError('"label" must be a JSON object {"tiles": [...], "request": {...}}')
    if not current_app.config["KEEP_PHOTOS"]:  # the club keeps none (COMPANION_KEEP_PHOTOS=0)
        return jsonify({"saved": None})
    path = _vision().save_checked_photo(image, label.get("tiles"), label.get("request"), current_app.config["PHOTOS_DIR"],
                                        label.get("not_tiles"), label.get("turned"), label.get("first_read"))
    return jsonify({"saved": str(path), "tiles": len(label["tiles"])}), 201


@bp.post("/corrections")
def save_correction():  # noqa: ANN201
    """A tile the player corrected on the photo page, kept as a labelled crop for fine-tuning. "sideways" is the
    answer's (optional: else the crop's orientation is guessed), "turned" the answer's too (optional): a tile of a
    photo read turned by 90 or 270 degrees lies the other way on the photo as taken, where its crop is cut."""
    image, _ = _uploaded_image()
    tile = request.form.get("tile", "")
    from companion.tiles import ALL_CLASSES

    if tile not in ALL_CLASSES:
        raise InvalidRequestError(f'"tile" must be one of the recognition classes ({" ".join(ALL_CLASSES)})')
    box_text = request.form.get("box", "")
    try:
        box = [int(round(float(v))) for v in box_text.replace("[", "").replace("]", "").split(",")]
    except (ValueError, OverflowError):  # (not a number, NaN; infinity)
        box = []
    turned = _turned_field()
    height, width = image.shape[:2]
    if len(box) != 4 or not (0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height):
        raise InvalidRequestError(f'"box" must be x1,y1,x2,y2 inside the {width}x{height} photo')
    # the recogniser knows whether the tile lay sideways; without it the crop's orientation is guessed
    sideways = {"true": True, "false": False}.get(request.form.get("sideways", "").lower())
    vision = _vision()
    from companion.vision.pipeline import lies_across

    if sideways is not None and lies_across(turned):  # read on its side: its "sideways" the other way on the photo
        sideways = not sideways
    path = vision.save_correction(image, box, tile, current_app.config["CORRECTIONS_DIR"], sideways=sideways)
    return jsonify({"saved": str(path) if path is not None else None, "tile": tile, "box": box}), 201


@bp.get("/kept")
def kept_for_finetune():  # noqa: ANN201
    """What the page has kept of this club's tiles for ``companion train --finetune`` (companion.kept):
    {"corrections": n, "by_tile": {tile: n}, "photos": n, "photo_bytes": n, "first_read": {"photos", "tiles", "right",
    "whole", "silent"} (how the checked photos were read before any correction), "adapted": {"when", "corrections",
    "photos"} of the last fine-tune written into the models folder this server reads (null: none), "since": the same
    counts of what was kept after it (null without one), "command": the command that adapts the recogniser to all
    that is kept (null where nothing is)}. A server reads with the adapted nets from the next photo on
    (pipeline.read_adapted_nets)."""
    from companion.kept import finetune_command, kept_counts, last_finetune
    from companion.paths import models_folder

    corrections, photos = current_app.config["CORRECTIONS_DIR"], current_app.config["PHOTOS_DIR"]
    record = last_finetune(models_folder())
    kept, since = kept_counts(corrections, photos, since=record["time"] if record is not None else None)
    adapted = None if record is None else {"when": record.get("when"), "corrections": record.get("corrections", 0),
                                           "photos": record.get("photos", 0)}
    return jsonify({**kept, "adapted": adapted, "since": since, "command": finetune_command(corrections, photos, kept)})


@bp.get("/kept/export")
def export_kept():  # noqa: ANN201
    """What the page has kept of this club's tiles as one zip archive (companion.kept.write_kept_zip): the checked
    photos with their labels and the corrected crops, as ``companion train --finetune`` and training/evaluate.py
    read them, to share or to move to another server. 404 ``nothing_kept`` where nothing is kept."""
    import tempfile
    import time

    from flask import send_file

    from companion.kept import write_kept_zip

    archive = tempfile.SpooledTemporaryFile(max_size=32 << 20)  # (on disk once larger: hundreds of photos)
    written = write_kept_zip(current_app.config["CORRECTIONS_DIR"], current_app.config["PHOTOS_DIR"], archive)
    if not written["photos"] and not written["corrections"]:
        archive.close()
        return error_response("nothing is kept yet: the page keeps the photos checked and scored on it and the tiles "
                              "corrected there", "nothing_kept", 404)
    archive.seek(0)
    return send_file(archive, mimetype="application/zip", as_attachment=True,
                     download_name=f"mahjong-kept-{time.strftime('%Y%m%d')}.zip")
