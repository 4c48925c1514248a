"""Measure the recogniser on a labelled folder.

    python -m training.evaluate DIR [--limit N] [--json] [--thresholds 0.6,0.7,0.8] [--hide N [--seed S]]
    python -m training.evaluate instance/photos --first-read    # the page's first readings, as it kept them

Labels: for a photo DIR/NAME.jpg (.jpeg, .png, .webp, .avif, an iPhone's .heic; any case, as phones name them:
IMG_0042.JPG) either a file DIR/NAME.json with
    {"tiles": [{"tile": "5m", ...}, ...],          # every tile in reading order: rows top to bottom,
                                                     # left to right within a row (an added kan's top tile
                                                     # right after the sideways tile it lies on)
     "request": {...},                               # optional: the scoring request the photo stands for
     "not_tiles": [{"box": [...]}, ...]}             # optional (kept photos): boxes that are no tile, for
                                                     # the verifier's fine-tune; not measured here
or, quicker to type for real photos, a file DIR/NAME.txt with the same tiles in mpsz notation (0 a red five,
1f-8f flowers and seasons, x a face-down tile), a row a line if you like; lines starting with # are comments:
    # dora row, then the hand
    x3z9sx
    444z33s66m 3s 7m89m 9999p
A second photo of the dora indicators (``--dora-photos``: each photo is read as the page reads one, its backs
taken for backs as in a dora row) is labelled with its tiles and, optionally, {"request": {"dora_indicators":
[...]}}, its face-up tiles: "request exact" then counts the photos whose indicators were read right.
Photos without a label are left out (and counted). To label a folder of real photos quickly,
    python -m training.evaluate DIR --draft
writes NAME.txt for every photo that has no label yet, with the tiles as the recogniser reads them under a first
line "# draft ...": check each tile against the photo, mend the text, and delete that line. A label that
still starts with it is not used.
Printed: per-tile accuracy in order (edit-distance alignment of the predicted and the labelled sequence,
so a missed or extra tile costs one error and does not shift the rest), exact-hand rate (whole sequence
right), request exact rate (where labelled), the most frequent confusion pairs, ms per image, and how
many wrong and right tiles the page marks as uncertain for a one-tap correction (``--thresholds``: and how
many a confidence below each threshold would mark, to choose ``CONFIDENCE_MIN``), and how many wrong requests
are offered, and how many of them silently: no tile marked, nothing said of the photo or to check (a guess the
page does not own up to).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from companion.tiles import align


def _norm_request(r: dict | None) -> object:
    if r is None:
        return None
    return (r.get("hand"), r.get("win_tile"), sorted((m["type"], m["tiles"]) for m in r.get("melds", [])),
            sorted(r.get("dora_indicators", [])))


DRAFT = "# draft by the recogniser: check every tile against the photo, mend this text, then delete this line"


def is_draft(path: Path) -> bool:
    """A NAME.txt written by ``--draft`` that no one has checked yet (its first line still says so)."""
    return path.suffix.lower() == ".txt" and path.read_text(encoding="utf-8").lstrip().startswith("# draft")


def read_label(path: Path) -> dict:
    """A photo's label file, NAME.json or NAME.txt (mpsz), as {"tiles": [{"tile": ...}, ...][, "request"]}."""
    from companion.tiles import InvalidTilesError, format_tiles, parse_tiles

    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".txt":
        mpsz = " ".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        try:  # a photo may show more than one hand's tiles: no counting limits here
            tiles = parse_tiles(mpsz, max_red_per_suit=136, max_copies=136)
        except InvalidTilesError as exc:
            raise SystemExit(f"{path}: {exc}") from exc
        return {"tiles": [{"tile": format_tiles([tile])} for tile in tiles]}
    try:
        label = json.loads(text)
        if not all(isinstance(t, dict) and isinstance(t.get("tile"), str) for t in label["tiles"]):
            raise TypeError("every entry of \"tiles\" must be an object with a \"tile\" string")
    except (ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"{path}: not a label of the form {{\"tiles\": [{{\"tile\": \"5m\"}}, ...]}} ({exc})") from exc
    return label


def load_folder(folder: Path, limit: int = 0) -> list[tuple[Path, dict]]:
    """(photo, label) for every labelled photo in ``folder``, by name; a NAME.json is taken before a NAME.txt."""
    from companion.kept import labelled_photos

    folder = Path(folder)
    if not folder.is_dir():
        raise SystemExit(f"{folder} is not a folder of labelled photos")
    pairs, unlabelled = labelled_photos(folder)
    drafts = [photo for photo, label in pairs if is_draft(label)]
    items = [(photo, read_label(label)) for photo, label in pairs if photo not in drafts]
    if drafts:
        print(f"{len(drafts)} label(s) in {folder} are still drafts (first line '# draft ...') and are left out",
              file=sys.stderr)
    if not items:
        raise SystemExit(f"no labelled photos in {folder} (NAME.jpg with NAME.json or NAME.txt)")
    if unlabelled:
        print(f"{len(unlabelled)} photo(s) in {folder} have no label (NAME.json or NAME.txt) and are left out",
              file=sys.stderr)
    return items[:limit] if limit else items


def draft_text(tiles: list[dict]) -> str:
    """A recogniser's tiles (in reading order, with boxes and groups) as a draft label: a row a line, a space
    between groups of touching tiles. A row ends where the next tile starts left of the one before."""
    from companion.tiles import format_tiles, parse_tile

    lines: list[list[list[str]]] = []
    for i, t in enumerate(tiles):
        before = tiles[i - 1] if i else None
        if before is None or t["box"][0] < before["box"][0]:
            lines.append([[t["tile"]]])
        elif t["group"] != before["group"]:
            lines[-1].append([t["tile"]])
        else:
            lines[-1][-1].append(t["tile"])
    rows = [" ".join(format_tiles(parse_tile(c) for c in group) for group in row) for row in lines]
    return "\n".join([DRAFT, *rows]) + "\n"


def write_drafts(folder: Path, read=None) -> int:  # noqa: ANN001
    """NAME.txt drafts (:func:`draft_text`) for the photos in ``folder`` that have no label; how many written.
    ``read(image_bgr)`` gives recognize_image's answer; by default each photo's file is read as ``companion
    recognize`` reads it (:func:`_answer_as_read`, the shipped models)."""
    from companion.kept import labelled_photos

    folder = Path(folder)
    if not folder.is_dir():
        raise SystemExit(f"{folder} is not a folder of photos")
    _, unlabelled = labelled_photos(folder)
    for photo in unlabelled:
        answer = _answer_as_read(_photo_as_read(photo)) if read is None else read(_photo(photo))
        photo.with_suffix(".txt").write_text(draft_text(answer["tiles"]), encoding="utf-8")
    return len(unlabelled)


def _photo(path: Path):  # noqa: ANN202
    """The photo decoded as companion.vision.pipeline.load_to_read decodes it (a JPEG 6000 px long or more at half
    size, a 12 MP one whole); a clear stop if it is no photo. :func:`ours` reads photos as ``companion recognize``
    does instead (:func:`_photo_as_read`)."""
    from companion.errors import CompanionError
    from companion.vision.pipeline import load_to_read

    try:
        return load_to_read(path).image
    except CompanionError as exc:
        raise SystemExit(str(exc)) from exc


class PhotoAsRead(NamedTuple):
    """A photo's file as ``companion recognize`` and the page read it: its bytes, its name, and its first decoding
    (companion.photo_files.decode_first: a 12 MP JPEG at half size, to be decoded whole again where that reads
    doubtfully)."""

    data: bytes
    name: str
    decoded: Any


def _photo_as_read(path: Path) -> PhotoAsRead:
    """The photo's file and its first decoding (outside the timing, as :func:`_photo`'s decoding); a clear stop if
    it is no photo."""
    from companion.errors import CompanionError
    from companion.photo_files import decode_first

    data = Path(path).read_bytes()
    try:
        return PhotoAsRead(data, Path(path).name, decode_first(data, Path(path).name))
    except CompanionError as exc:
        raise SystemExit(str(exc)) from exc


def _answer_as_read(photo: PhotoAsRead) -> dict:
    """recognize_image's answer for the photo's file as ``companion recognize`` reads it
    (companion.photo_files.read_photo: a 12 MP JPEG decoded whole again only where its half-size reading is
    doubtful)."""
    from companion.photo_files import read_photo
    from companion.vision.pipeline import recognize_image

    return read_photo(photo.data, photo.name, None, recognize_image, decoded=photo.decoded)[0]


def _red_and_plain(a: str, b: str) -> bool:
    """A red five and the plain five of its suit (either way round): 0m/5m, 0p/5p, 0s/5s."""
    return {a[:1], b[:1]} == {"0", "5"} and a[1:] == b[1:]


# what a photo may be said to need taken again for, in the order :func:`evaluate`'s ``predict`` says them (its
# fourth item on), as the result's key and the report's words
RETAKES = (("too_bright", "said to be too bright"), ("too_small", "tiles said to be too small"),
           ("blurred", "said to be blurred"), ("too_low", "said to be taken from too low"),
           ("cut_off", "said to cut the hand off at an edge"))


def evaluate(items: list[tuple[Path, dict]], predict, name: str = "ours", map_tile=None,  # noqa: ANN001
             thresholds: tuple[float, ...] = (), load=None) -> dict:  # noqa: ANN001
    """predict(photo) -> (tiles in reading order, request or None[, per tile (confidence, listed as
    uncertain)[, the photo said to be too bright[, its tiles said to be too small[, it said to be blurred[, it said
    to be taken from too low[, it said to cut the hand off at an edge[, something to check said (a row left out, a
    box taken for no tile)]]]]]]]).
    ``load(path)`` gives the photo (outside the timing; :func:`_photo` by default: the decoded picture).
    map_tile maps labels (e.g. 0m->5m). With the third item, the result also says how many wrong and right tiles the page would mark for
    correction (in the hands where as many tiles were found as lie there, tile by tile), and how many a confidence
    below each of ``thresholds`` would mark; with the fourth (fifth to eighth), how many photos were said to be
    too bright (their tiles too small, blurred, taken from too low, cut off at an edge), and how many of those read
    exactly. A wrong request is counted as offered silently where no tile is marked and none of the later items is
    said."""
    map_tile = map_tile or (lambda t: t)
    total = hits = exact = req_total = req_exact = wrong_requests = silent = 0
    doubts_said = False  # predict says which tiles it doubts (its third item)
    # photos said to be so: "photos", "exact"
    retake = {key: Counter() for key, _ in RETAKES}
    marks: list[tuple[bool, float, bool]] = []  # (right, confidence, marked) per comparable tile
    confusions: Counter = Counter()
    ms = []
    load = load or _photo
    predict(load(items[0][0]))  # load the model outside the timing
    for path, label in items:
        img = load(path)
        t0 = time.perf_counter()
        tiles, request, *more = predict(img)
        sure = more[:1]
        doubts_said |= bool(sure)
        ms.append((time.perf_counter() - t0) * 1000)
        truth = [map_tile(t["tile"]) for t in label["tiles"]]
        pred = [map_tile(t) for t in tiles]
        if sure and len(pred) == len(truth):
            marks += [(p == t, conf, marked) for p, t, (conf, marked) in zip(pred, truth, sure[0], strict=True)]
        h, subs = align(pred, truth)
        total += len(truth)
        hits += h
        exact += pred == truth
        for key, said in zip(retake, more[1:], strict=False):  # predict may say neither or only the first
            if said:
                retake[key].update(photos=1, exact=int(pred == truth))
        confusions.update(subs)
        if "request" in label and request is not False:
            req_total += 1
            right = _norm_request(request) == _norm_request(label["request"])
            req_exact += right
            if sure and request is not None and not right:  # a request the page would offer to score, wrong
                wrong_requests += 1
                silent += not any(marked for _, marked in sure[0]) and not any(more[1:])
    ms.sort()
    out = {
        "model": name, "images": len(items), "tiles": total,
        "tile_accuracy": hits / max(1, total), "exact_hand_rate": exact / len(items),
        "request_exact_rate": (req_exact / req_total) if req_total else None, "requests_labelled": req_total,
        "ms_per_image_mean": sum(ms) / len(ms), "ms_per_image_median": ms[len(ms) // 2],
        "confusions": [f"{a}->{b} x{n}" for (a, b), n in confusions.most_common(12)],
        # the misread tiles split: red five and plain five of one suit taken for each other, and other kinds
        "red_fives": {"read_plain": sum(n for (a, b), n in confusions.items() if _red_and_plain(a, b) and a[0] == "0"),
                      "plain_read_red": sum(n for (a, b), n in confusions.items() if _red_and_plain(a, b) and a[0] == "5"),
                      "in_labels": sum(t["tile"][0] == "0" for _, label in items for t in label["tiles"])},
        "other_kind": sum(n for (a, b), n in confusions.items() if "-" not in (a, b) and not _red_and_plain(a, b)),
        **{key: {"photos": n["photos"], "exact": n["exact"]} for key, n in retake.items()},
    }
    if doubts_said:
        out["wrong_requests"] = {"given": wrong_requests, "silent": silent}
    if marks:
        wrong = [m for m in marks if not m[0]]
        right = [m for m in marks if m[0]]
        out["marked"] = {"wrong": [sum(m[2] for m in wrong), len(wrong)], "right": [sum(m[2] for m in right), len(right)]}
        out["marked_below"] = {f"{t:g}": {"wrong": sum(m[1] < t for m in wrong), "right": sum(m[1] < t for m in right)}
                               for t in thresholds}
    return out


def hidden_tiles(label: dict, n: int, rng: random.Random) -> list[int]:
    """Up to ``n`` tiles of the label's hand row (its last row) to hide from the localisers (``--hide``): upright
    ones with upright neighbours on both sides in that row, no two side by side, chosen by ``rng``."""
    tiles = label["tiles"]
    if any("box" not in t for t in tiles):
        raise SystemExit("--hide needs labels with the tiles' boxes (NAME.json, as training.make_eval writes them)")
    rows = [t.get("row", 0) for t in tiles]
    inner = [i for i in range(1, len(tiles) - 1) if rows[i - 1] == rows[i] == rows[i + 1] == max(rows)
             and not any(tiles[j].get("sideways") for j in (i - 1, i, i + 1))]
    chosen: list[int] = []
    for i in rng.sample(inner, len(inner)):
        if len(chosen) < n and all(abs(i - j) > 1 for j in chosen):
            chosen.append(i)
    return sorted(chosen)


class Hiding:
    """The localisers made to miss tiles (``--hide``): while :meth:`installed`, what companion.vision.pipeline's
    localise finds with its centre inside a hidden tile's label box is dropped. :meth:`load` loads a photo and
    hides its tiles (``boxes``: per photo, the label boxes). The boxes are on the photo as taken: a photo read
    straightened (its rows tilted by DESKEW_MIN, 10 degrees, or more) or scaled has its tiles found elsewhere,
    and ``cut`` (the photos where a find was dropped) says on how many the hiding took."""

    def __init__(self, boxes: dict[Path, list]) -> None:
        self.boxes = boxes
        self.now: list = []
        self.photo: Path | None = None
        self.cut: set[Path] = set()

    def load(self, path: Path):  # noqa: ANN201
        self.photo, self.now = path, self.boxes[path]
        return _photo(path)

    @contextmanager
    def installed(self) -> Iterator[None]:
        from companion.vision import pipeline

        real = pipeline.localise

        def localise(image, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            found = real(image, *args, **kwargs)
            kept = [f for f in found if not any(pipeline._centre_in(f[0], box) for box in self.now)]
            if len(kept) < len(found):
                self.cut.add(self.photo)
            return kept

        pipeline.localise = localise
        try:
            yield
        finally:
            pipeline.localise = real


def ours(image):  # noqa: ANN001, ANN201
    """The pipeline's reading of a decoded picture, or of a :class:`PhotoAsRead` as ``companion recognize`` reads
    the photo's file (:func:`_answer_as_read`), for :func:`evaluate`."""
    from companion.vision.pipeline import recognize_image

    r = _answer_as_read(image) if isinstance(image, PhotoAsRead) else recognize_image(image)
    unsure = set(r.get("uncertain", ()))
    return ([t["tile"] for t in r["tiles"]], r["request"],
            [(t["confidence"], i in unsure) for i, t in enumerate(r["tiles"])], "overexposed" in r, "small_tiles" in r,
            "blurred" in r, "flat_tiles" in r, "at_edge" in r, bool(r.get("reason")))


def ours_dora(image):  # noqa: ANN001, ANN201
    """:func:`ours` for a second photo of the dora indicators: its tiles, and its face-up ones as the request's
    indicators."""
    from companion.vision.pipeline import _unsure, read_dora_photo

    dets, _, _ = read_dora_photo(image)
    tiles = [d.tile for d in dets]
    return tiles, {"dora_indicators": [t for t in tiles if t != "x"]}, [(d.confidence, _unsure(d)) for d in dets]


def first_readings(items: list[tuple[Path, dict]]) -> dict:
    """:func:`evaluate`'s measures of the first readings the page kept with its checked photos (``--first-read``:
    each label's "first_read", the tiles as the recogniser read them before the player corrected any, and those
    it marked), against the tiles as checked; no recogniser is run, so these are the readings of whichever
    models read the photos then, on the club's own tiles. Photos without a first reading are left out."""
    kept = [(path, label) for path, label in items if isinstance(label.get("first_read"), dict)]
    if not kept:
        raise SystemExit("no label keeps a first reading (\"first_read\": the page keeps one with each photo it "
                         "checks since session 78)")
    firsts = {path: label["first_read"] for path, label in kept}

    def as_read(path: Path) -> tuple:
        first = firsts[path]
        unsure = set(first.get("unsure", []))
        return list(first["tiles"]), False, [(0.0 if i in unsure else 1.0, i in unsure) for i in range(len(first["tiles"]))]

    res = evaluate(kept, as_read, name="first readings, as kept", load=lambda path: path)
    res["ms_per_image_mean"] = res["ms_per_image_median"] = None  # (read when the photo was taken, not timed here)
    return res


def report(res: dict) -> str:
    req = "n/a" if res["request_exact_rate"] is None else f"{res['request_exact_rate']:.1%} of {res['requests_labelled']}"
    ms = ("n/a (read when kept)" if res["ms_per_image_mean"] is None else
          f"{res['ms_per_image_mean']:.1f} mean, {res['ms_per_image_median']:.1f} median")
    return (f"{res['model']}: {res['images']} images, {res['tiles']} tiles\n"
            f"  per-tile accuracy (in order): {res['tile_accuracy']:.1%}\n"
            f"  exact-hand rate:              {res['exact_hand_rate']:.1%}\n"
            f"  request exact:                {req}\n"
            f"  ms per image:                 {ms}\n"
            f"  confusions (truth->predicted): {', '.join(res['confusions']) or 'none'}\n"
            f"  misread: {res['other_kind']} tiles as another kind; red fives read as plain "
            f"{res['red_fives']['read_plain']} (of {res['red_fives']['in_labels']}), plain fives read as red "
            f"{res['red_fives']['plain_read_red']}" + _marking(res) + _silence(res) + _retakes(res))


def _retakes(res: dict) -> str:
    lines = []
    for key, what in RETAKES:
        n, right = res[key]["photos"], res[key]["exact"]
        if n:
            lines.append(f"\n  {what}: {n} photos ({right} of them read exactly)")
    return "".join(lines)


def _silence(res: dict) -> str:
    w = res.get("wrong_requests")
    if not w or not w["given"]:
        return ""
    return (f"\n  wrong requests offered: {w['given']}, {w['silent']} of them silently (no tile marked, nothing said "
            "to check)")


def _marking(res: dict) -> str:
    if "marked" not in res:
        return ""
    (mw, nw), (mr, nr) = res["marked"]["wrong"], res["marked"]["right"]
    lines = [f"\n  marked uncertain (hands with every tile found): {mw} of {nw} wrong tiles ({mw / max(1, nw):.0%}), "
             f"{mr} of {nr} right ones ({mr / max(1, nr):.1%})"]
    for t, n in res["marked_below"].items():
        lines.append(f"\n    confidence below {t}: {n['wrong']} wrong ({n['wrong'] / max(1, nw):.0%}), "
                     f"{n['right']} right ({n['right'] / max(1, nr):.1%})")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--thresholds", default="", help="e.g. 0.6,0.7,0.8: how many tiles a confidence below "
                    "each would mark as uncertain")
    ap.add_argument("--dora-photos", action="store_true", help="read each photo as a second photo of the dora "
                    "indicators (the dead wall), as the page does")
    ap.add_argument("--draft", action="store_true", help="write NAME.txt draft labels, read by the recogniser, "
                    "for the photos that have none, to be checked by a person (nothing is measured)")
    ap.add_argument("--hide", type=int, default=0, metavar="N", help="hide N tiles of each photo's hand row from "
                    "the localisers (upright, between upright neighbours, none side by side; photos with none left "
                    "out), to measure how the reading gets over tiles it misses")
    ap.add_argument("--seed", type=int, default=1, help="which tiles --hide hides")
    ap.add_argument("--first-read", action="store_true", help="measure the first readings the page kept with its "
                    "checked photos (instance/photos, or a folder unpacked from GET /api/kept/export) instead of "
                    "reading the photos now: the recogniser on the club's own tiles as it read them at the table")
    args = ap.parse_args(argv)
    if args.hide < 0:
        ap.error("--hide must be 0 or more")
    if args.draft:
        written = write_drafts(args.folder)
        print(f"{written} draft label(s) written in {args.folder}: check each against its photo and delete its "
              "first line")
        return 0
    if args.first_read:
        res = first_readings(load_folder(args.folder, args.limit))
        print(json.dumps(res) if args.json else report(res))
        return 0
    thresholds = tuple(float(t) for t in args.thresholds.split(",") if t.strip())
    # hand photos read as `companion recognize` reads their files; dora photos as the page decodes them
    items = load_folder(args.folder, args.limit)
    if args.hide:
        rng = random.Random(args.seed)
        chosen = [(path, label, hidden_tiles(label, args.hide, rng)) for path, label in items]
        items = [(path, label) for path, label, hide in chosen if hide]
        if not items:
            raise SystemExit(f"no photo in {args.folder} has a tile --hide could hide")
        hiding = Hiding({path: [label["tiles"][i]["box"] for i in hide] for path, label, hide in chosen if hide})
        with hiding.installed():  # a 12 MP JPEG decoded whole (not at half size first): the label boxes fit it
            res = evaluate(items, ours_dora if args.dora_photos else ours, thresholds=thresholds, load=hiding.load)
        res["hidden"] = {"per_photo": args.hide, "seed": args.seed, "photos": len(items),
                         "photos_cut": len(hiding.cut & {path for path, _ in items})}
    else:
        res = evaluate(items, ours_dora if args.dora_photos else ours,
                       thresholds=thresholds, load=None if args.dora_photos else _photo_as_read)
    print(json.dumps(res) if args.json else report(res) + _hidden(res))
    return 0


def _hidden(res: dict) -> str:
    h = res.get("hidden")
    if not h:
        return ""
    return (f"\n  hidden from the localisers: up to {h['per_photo']} tile(s) of the hand row per photo (seed "
            f"{h['seed']}); a find dropped in {h['photos_cut']} of the {h['photos']} photos")


if __name__ == "__main__":
    raise SystemExit(main())
