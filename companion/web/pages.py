"""The tablet page: one HTML shell; everything it shows comes from the JSON API."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():  # noqa: ANN201
    return render_template("index.html")
