"""Tournament API (``/api/tournaments...``) and the scorekeeper page (``/tournament``).

Views stay thin: they parse the request and call ``companion.tournament.Tournaments``. Errors
answer ``{"error": message, "code": code}`` with 400 (bad input), 404 (unknown tournament) or
409 (right request, wrong moment: a round still being played, all rounds seated).

Register with ``from companion.web.tournament_api import bp as tournament_bp;
app.register_blueprint(tournament_bp)``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from companion.errors import CompanionError, InvalidRequestError
from companion.web.api import json_body

bp = Blueprint("tournament", __name__)

_STATUS = {"not_found": 404, "conflict": 409}


@bp.errorhandler(CompanionError)
def _error(exc: CompanionError) -> tuple[Response, int]:
    return jsonify({"error": str(exc), "code": exc.code}), _STATUS.get(exc.code, 400)


def _service() -> Any:
    from companion.tournament import Tournaments

    return Tournaments(current_app.config["DATABASE"])


def _client_id(body: dict[str, Any]) -> str:
    cid = body.get("client_id")
    if not isinstance(cid, str) or not 1 <= len(cid) <= 200:
        raise InvalidRequestError('"client_id" must be a string (1-200 characters) unique to this request; '
                                  "a retry sends the same one")
    return cid


# ---------------------------------------------------------------- page


@bp.get("/tournament")
@bp.get("/tournament/<tid>")
@bp.get("/tournament/<tid>/table/<int:number>")
def page(tid: str | None = None, number: int | None = None):  # noqa: ANN201
    # /tournament/<id>/table/<n> is the bookmark of a table's tablet: it opens that table's game
    # of the latest round, and waits for the next round once the game has ended
    return render_template("tournament.html", tournament_id=tid or "", table_number=number or "")


# ---------------------------------------------------------------- API


@bp.get("/api/tournaments")
def list_tournaments():  # noqa: ANN201
    return jsonify({"tournaments": _service().list()})


@bp.post("/api/tournaments")
def create_tournament():  # noqa: ANN201
    view, duplicate = _service().create(json_body())
    return jsonify(view), 200 if duplicate else 201


@bp.get("/api/tournaments/<tid>")
def get_tournament(tid: str):  # noqa: ANN201
    return jsonify(_service().view(tid))


@bp.get("/api/tournaments/<tid>/tables/<int:number>")
def table_now(tid: str, number: int):  # noqa: ANN201
    return jsonify(_service().table_now(tid, number))


@bp.post("/api/tournaments/<tid>/rounds")
def seat_round(tid: str):  # noqa: ANN201
    body = json_body()
    force = body.get("force", False)
    if not isinstance(force, bool):
        raise InvalidRequestError('"force" must be true or false')
    svc = _service()
    entry, duplicate = svc.seat_next_round(tid, _client_id(body), force=force)
    view = svc.view(tid)
    seated = next(r for r in view["rounds"] if r["round"] == entry["round"])
    return jsonify({"round": seated, "duplicate": duplicate, "tournament": view}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/rounds/<int:rnd>/cancel")
def cancel_round(tid: str, rnd: int):  # noqa: ANN201
    body = json_body()
    svc = _service()
    entry, duplicate = svc.cancel_round(tid, rnd, body.get("reason"), _client_id(body))
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/settings")
def change_settings(tid: str):  # noqa: ANN201
    body = json_body()
    unknown = sorted(set(body) - {"rounds", "reason", "client_id"})
    if unknown or "rounds" not in body:
        raise InvalidRequestError('settings: send "rounds" (the new number of rounds), "reason" and "client_id"')
    svc = _service()
    entry, duplicate = svc.set_rounds(tid, body["rounds"], body.get("reason"), _client_id(body))
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/rounds/<int:rnd>/tables/<int:number>/result")
def enter_result(tid: str, rnd: int, number: int):  # noqa: ANN201
    body = json_body()
    svc = _service()
    game = svc.enter_result(tid, rnd, number, body.get("points"), _client_id(body))
    return jsonify({"game": game, "tournament": svc.view(tid)}), 201


@bp.post("/api/tournaments/<tid>/clock")
def start_clock(tid: str):  # noqa: ANN201
    body = json_body()
    svc = _service()
    entry, duplicate = svc.start_clock(tid, body.get("minutes"), _client_id(body))
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/penalties")
def add_penalty(tid: str):  # noqa: ANN201
    svc = _service()
    entry, duplicate = svc.add_penalty(tid, json_body())
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/players")
def add_player(tid: str):  # noqa: ANN201
    body = json_body()
    svc = _service()
    entry, duplicate = svc.add_player(tid, body, _client_id(body))
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.post("/api/tournaments/<tid>/players/<pid>/withdraw")
@bp.post("/api/tournaments/<tid>/players/<pid>/return")
def withdraw_player(tid: str, pid: str):  # noqa: ANN201
    body = json_body()
    svc = _service()
    back = request.path.endswith("/return")
    entry, duplicate = svc.withdraw_player(tid, pid, body.get("reason"), _client_id(body), back=back)
    return jsonify({"entry": entry, "duplicate": duplicate, "tournament": svc.view(tid)}), 200 if duplicate else 201


@bp.get("/api/tournaments/<tid>/export.json")
def export_json(tid: str):  # noqa: ANN201
    from companion.tournament.export import to_json

    response = jsonify(to_json(_service().view(tid)))
    response.headers["Content-Disposition"] = f'attachment; filename="tournament-{tid}.json"'
    return response


@bp.get("/api/tournaments/<tid>/export.csv")
def export_csv(tid: str):  # noqa: ANN201
    from companion.tournament.export import to_csv

    kind = request.args.get("kind", "standings")
    text = to_csv(_service().view(tid), kind)
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tid}-{kind}.csv"'})
