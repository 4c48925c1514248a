"""`companion recognize`, `companion watch` and `companion train` (heavy imports stay inside the handlers)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("recognize", help="read the tiles in photos and build the scoring request",
                              description="Read the tiles in photos. Photo convention: hand row nearest the "
                                          "camera (winning tile set apart at its right, melds after it), dora "
                                          "indicators in a row above.")
    p.add_argument("images", nargs="+", metavar="IMG",
                   help="photo files (JPEG, PNG, WebP, AVIF, HEIC), or folders: each folder's photos in name order")
    p.add_argument("--json", action="store_true", help="one JSON object per image, one line each")
    p.add_argument("--annotate", metavar="DIR", type=Path, help="write each photo with boxes and labels here")
    p.add_argument("--dora", metavar="IMG", help="a second photo with the dora indicators (every face-up tile "
                                                  "on it counts), added to each request")
    p.set_defaults(func=cmd_recognize)

    w = subparsers.add_parser("watch", help="live recognition from a webcam; prints the hand once it is stable")
    w.add_argument("--camera", default="0",
                   help="OpenCV camera index (default 0), or a stream's URL (a phone's camera app as a webcam, e.g. "
                        "http://192.168.1.20:8080/video; rtsp://...) or a video file, read to its end")
    w.add_argument("--stable", type=int, default=5, help="frames that must agree before the hand is shown")
    w.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0 = until Ctrl-C)")
    w.add_argument("--width", type=int, default=1920,
                   help="frame width to ask the camera for (default 1920, at 16:9; it gives the nearest it has; 0 = "
                        "its own default, often 640 x 480, where a hand's tiles are only about 30 px wide)")
    w.set_defaults(func=cmd_watch)

    t = subparsers.add_parser("train", help="adapt the tile classifier to a club's own set (needs the train extra)")
    t.add_argument("--finetune", action="store_true",
                   help="fine-tune the shipped classifiers on corrected crops (and the verifier and the orienter, "
                        "with --photos)")
    t.add_argument("--corrections", type=Path, default=None,
                   help="folder of saved corrections (<tile>/<file>.png), e.g. instance/corrections; default "
                        "./corrections unless --photos is given")
    t.add_argument("--photos", type=Path, default=None,
                   help="folder of photos checked on the page (NAME.jpg + NAME.json), e.g. instance/photos: "
                        "every tile of them trains too, the boxes their labels list as no tile (not_tiles: "
                        "dice, point sticks) train the verifier, and the upright tiles of those that say which way "
                        "round they were read (turned) train the orienter")
    t.add_argument("--steps", type=int, default=300)
    t.add_argument("--out", type=Path, default=None,
                   help="models folder to write (default: the shipped one); another folder gets the models not "
                        "fine-tuned copied too, to be read with COMPANION_MODELS=OUT")
    t.add_argument("--restore", action="store_true",
                   help="put back the models a fine-tune replaced in the models folder (or --out): the files it set "
                        "aside as NAME.base.*; the kept corrections and photos stay (no PyTorch needed)")
    t.set_defaults(func=cmd_train)


def _error(exc: Exception) -> int:
    code = getattr(exc, "code", "error")
    print(f"error: {exc}", file=sys.stderr)
    return 2 if code != "error" else 1


def cmd_recognize(args: argparse.Namespace) -> int:
    import cv2

    from companion.errors import CompanionError, InvalidRequestError
    from companion.kept import PHOTO_SUFFIXES
    from companion.vision import pipeline

    status = 0
    dora = None
    if args.annotate:  # before any photo is read: a wrong folder is said at once
        if args.annotate.exists() and not args.annotate.is_dir():
            print(f"error: --annotate {args.annotate} is a file; name a folder to write the annotated photos to",
                  file=sys.stderr)
            return 2
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"error: --annotate {args.annotate}: cannot make the folder ({exc.strerror or exc})", file=sys.stderr)
            return 2
    if args.dora:
        try:
            dora = pipeline.load_to_read(args.dora)
        except CompanionError as exc:
            print(f"error: dora photo: {exc}", file=sys.stderr)
            return 2
    for path in _photos_named(args.images, PHOTO_SUFFIXES):
        try:
            if Path(path).is_dir():
                raise InvalidRequestError(f"{path} is a folder with no photo in it ({', '.join(PHOTO_SUFFIXES)})")
            # a large JPEG may be read at half size (photo_files.read_photo); the boxes are in its own pixels
            result, photo = pipeline.read_photo_file(path, dora)
        except CompanionError as exc:
            if args.json:
                print(json.dumps({"image": path, "error": str(exc), "code": exc.code}))
            else:
                print(f"{path}: error: {exc}", file=sys.stderr)
            status = 2
            continue
        except FileNotFoundError as exc:
            return _error(exc)
        if args.annotate:
            image = photo.image if photo.scale == 1 else pipeline.load_image(path)  # (boxes in the photo's pixels)
            cv2.imwrite(str(args.annotate / (Path(path).stem + ".annotated.jpg")), pipeline.annotate(image, result))
        if args.json:
            print(json.dumps(recognition_json(path, result)), flush=True)
        else:
            print(describe(path, result), flush=True)
    return status


def _photos_named(paths: list[str], suffixes: tuple[str, ...]) -> list[str]:
    """The photos ``recognize`` is given: each file as named, each folder's photos (its files with one of
    ``suffixes``, in any case) in name order in its place; a folder without any stays named, to be said to hold
    none. (Other files in a folder, its labels and notes, are passed over.)"""
    photos = []
    for path in paths:
        inside = sorted(str(f) for f in Path(path).iterdir() if f.suffix.lower() in suffixes and f.is_file()) \
            if Path(path).is_dir() else []
        photos += inside or [path]
    return photos


TILE_KEYS = ("tile", "box", "confidence", "sideways", "group")  # a tile in `recognize --json`, as issue 4 names them


def recognition_json(path: str, result: dict) -> dict:
    """The object `companion recognize --json` prints for the photo ``path`` read as ``result`` (recognize_image's
    answer): "image", "tiles" (TILE_KEYS each), "request", and what else the answer says where it says it."""
    out = {"image": path, "tiles": _contract_tiles(result["tiles"]), "request": result["request"]}
    if result["uncertain"]:
        out["uncertain"] = result["uncertain"]
    if "reason" in result:
        out["reason"] = result["reason"]
    for key in ("left_out", "dora_row", "not_tiles", "colourless", "overexposed", "blurred", "small_tiles",
                "small_photo", "flat_tiles", "at_edge", "dora_photo", "completed", "named", "offered"):
        if result.get(key):
            out[key] = result[key]
    if "dora_photo" in out:
        out["dora_photo"] = {**out["dora_photo"], "tiles": _contract_tiles(out["dora_photo"]["tiles"])}
    if result.get("turned"):
        out["turned"] = result["turned"]
    return out


def _contract_tiles(tiles: list[dict]) -> list[dict]:
    """The answer's tiles with the keys of `recognize --json` only (the page's "alternatives" left out)."""
    return [{key: t[key] for key in TILE_KEYS} for t in tiles]


def describe(path: str, result: dict) -> str:
    turned = result.get("turned")
    lines = [f"{path}: {len(result['tiles'])} tiles"
             + (f", read turned by {turned} degrees clockwise (taken from another seat)" if turned else "")]
    groups: dict[int, list[str]] = {}
    aside: dict[int, list[str]] = {}  # the wall and discards beyond the hand (left out of the request)
    left_out = set(result.get("left_out", ()))
    for i, t in enumerate(result["tiles"]):
        mark = ("~" if t["sideways"] else "") + ("?" if i in result["uncertain"] else "")
        (aside if i in left_out else groups).setdefault(t["group"], []).append(t["tile"] + mark)
    if aside:
        lines.append("  left out: " + " | ".join(" ".join(g) for g in aside.values()))
    lines.append("  " + " | ".join(" ".join(g) for g in groups.values()))
    unsure = [f"#{i + 1} {t['tile']}" + (f" (or {' '.join(t['alternatives'])})" if t.get("alternatives") else "")
              for i, t in enumerate(result["tiles"]) if i in result["uncertain"]]
    if unsure:  # counted from 1 in reading order, as the page names them, with the next likeliest readings
        lines.append("  unsure: " + ", ".join(unsure))
    if "dora_photo" in result:  # the second photo's tiles (its face-up ones are indicators), unsure ones marked ?
        photo = result["dora_photo"]
        lines.append("  dora photo: " + (" ".join(t["tile"] + "?" * (i in photo["uncertain"])
                                                  for i, t in enumerate(photo["tiles"])) or "no tiles")
                     + (f" (read turned by {photo['turned']} degrees clockwise)" if photo.get("turned") else ""))
    req = result["request"]
    if req is None:
        lines.append(f"  no request: {result.get('reason', '')}")
    else:
        melds = " ".join(f"{m['type']}:{m['tiles']}" for m in req["melds"])
        lines.append(f"  hand {req['hand']}  win {req['win_tile']}  melds {melds or '-'}  "
                     f"dora {' '.join(req['dora_indicators']) or '-'}")
        if result.get("reason"):
            lines.append(f"  check: {result['reason']}" + (" (marked ?)" if result["uncertain"] else ""))
    return "\n".join(lines)


WAY_UP_FRAMES = 5  # frames with tiles `companion watch` asks which way up the camera sees them, at most


def cmd_watch(args: argparse.Namespace) -> int:
    import cv2

    from companion.vision import pipeline

    if args.width < 0:
        print(f"error: --width must be 0 (the camera's own) or a width in pixels, not {args.width}", file=sys.stderr)
        return 2
    source, error = camera_source(args.camera)
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    video = isinstance(source, str) and "://" not in source  # a file: its end is the end, not a camera failing
    # OpenCV's own warnings of each backend it tried ("[ WARN:0@0.05] global cap_v4l.cpp ...") would come before
    # the one line below that says what is wrong; its errors still show
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        what = "video file" if video else "stream" if isinstance(source, str) else "camera"
        print(f"error: {what} {args.camera} cannot be opened", file=sys.stderr)
        return 2
    if args.width and not video:
        # more pixels a tile: at 640 x 480 a whole hand's tiles come near the width where photos are said to be
        # taken from too far (pipeline.SMALL_TILE)
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, args.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, round(args.width * 9 / 16))
    gui = _has_gui(cv2)
    history: list[str] = []
    shown = None
    frames = 0
    upside_down = None  # whether the camera sees the hand upside down, once a frame's tiles say (pipeline.way_up)
    asked = 0  # frames with tiles asked so far
    try:
        while True:
            ok, frame = cap.read()
            if not ok and video:
                if not frames:
                    print(f"error: video file {args.camera} has no frame that can be read", file=sys.stderr)
                    return 2
                print(f"camera {args.camera}: the video ends after {frames} frames", file=sys.stderr, flush=True)
                break
            if not ok:
                print("error: the camera stopped delivering frames", file=sys.stderr)
                return 2
            frames += 1
            if frames == 1:
                print(f"camera {args.camera}: {frame.shape[1]} x {frame.shape[0]} frames", file=sys.stderr, flush=True)
            if upside_down:
                frame = cv2.rotate(frame, cv2.ROTATE_180)
            result = pipeline.recognize_image(frame, turns=False)
            # which way up the camera sees the tiles, asked of frames that show some (an empty table costs no look)
            # until one says, WAY_UP_FRAMES of them at most (a vote between the bounds: taken as the right way up)
            if upside_down is None and result["tiles"]:
                asked += 1
                upside_down = pipeline.way_up(frame)
                if upside_down is None and asked >= WAY_UP_FRAMES:
                    upside_down = False
                if upside_down:
                    print(f"camera {args.camera}: the tiles are seen upside down (a camera across the table): "
                          "its frames are read turned by 180 degrees", file=sys.stderr, flush=True)
                    frame = cv2.rotate(frame, cv2.ROTATE_180)
                    result = pipeline.recognize_image(frame, turns=False)
            key = " ".join(t["tile"] for t in result["tiles"])
            history = (history + [key])[-args.stable:]
            # a hand is shown only when several frames in a row agree, so a moving hand does not flicker
            if len(history) == args.stable and len(set(history)) == 1 and key and key != shown:
                shown = key
                print(describe(f"camera {args.camera}", result), flush=True)
            if gui:
                cv2.imshow("companion watch (q quits)", pipeline.annotate(frame, result))
                if cv2.waitKey(1) & 0xFF == ord("q"):
                    break
            if args.max_frames and frames >= args.max_frames:
                break
    except KeyboardInterrupt:
        pass
    finally:
        cap.release()
        if gui:
            cv2.destroyAllWindows()
    return 0


def camera_source(camera: str) -> tuple[int | str, str]:
    """What ``watch --camera`` names, as cv2.VideoCapture takes it: a camera's index (digits), a stream's URL
    (scheme://...) or a video file's path; and "" or what is wrong with it (a file that is not there)."""
    text = camera.strip()
    if text.isdigit():
        return int(text), ""
    if "://" in text:
        return text, ""
    if not Path(text).is_file():
        return text, (f"--camera {camera!r} is no camera index (0, 1, ...), stream URL (http://..., rtsp://...) or "
                      "video file")
    return text, ""


def _has_gui(cv2) -> bool:  # noqa: ANN001
    try:
        cv2.namedWindow("probe")
        cv2.destroyWindow("probe")
        return True
    except cv2.error:
        return False


def cmd_train(args: argparse.Namespace) -> int:
    if args.restore:
        if args.finetune:
            print("error: --restore puts back what a fine-tune replaced; give it without --finetune", file=sys.stderr)
            return 2
        from companion.vision.finetune import restore

        try:
            print(restore(args.out))
        except (ValueError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if not args.finetune:
        print("full training runs from the source tree: python -m training.train --out models/\n"
              "to adapt the shipped classifier to saved corrections: companion train --finetune", file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
    except ImportError:
        print("error: fine-tuning needs PyTorch: pip install 'mahjong-companion[train]' (torch==2.13.0, CPU build)",
              file=sys.stderr)
        return 2
    from companion.vision.finetune import finetune

    try:
        corrections = args.corrections if args.corrections or args.photos else Path("corrections")
        report = finetune(corrections, args.out, steps=args.steps, photos=args.photos)
    except PermissionError as exc:  # (an installed models folder may be the system's)
        print(f"error: {exc}; write the fine-tuned nets to a folder of your own with --out DIR, and read them with "
              "COMPANION_MODELS=DIR", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0
