"""Photo files decoded for reading: the JPEG frame header and the smaller decode of large JPEGs
(companion.photo_files; README "Recognition")."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import PhotoFileError
from companion.photo_files import (
    HALF_FIRST_FROM,
    HALF_SURE,
    HALF_TILE_MIN,
    MAX_DECODED_PIXELS,
    READ_LONG_SIDE,
    cut_short,
    decode_photo,
    decode_to_read,
    jpeg_size,
    read_photo,
    stored_size,
)


def _jpeg(width: int, height: int, **params: int) -> bytes:
    """A JPEG of a smooth picture (a gradient with a dark square), so that sizes and content can be checked."""
    x = np.linspace(0, 255, width, dtype=np.float32)[None, :]
    y = np.linspace(0, 255, height, dtype=np.float32)[:, None]
    image = np.dstack([x + 0 * y, y + 0 * x, (x + y) / 2]).astype(np.uint8)
    image[height // 4:height // 2, width // 4:width // 2] = 20
    flags = [v for key, value in params.items() for v in (getattr(cv2, key), value)]
    return cv2.imencode(".jpg", image, flags)[1].tobytes()


@pytest.mark.parametrize(("ext", "params"), [(".png", []), (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]),
                                             (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]), (".jpg", [])])
def test_the_size_a_photo_file_says_it_has_is_read_from_its_header(ext: str, params: list):
    # (WebP quality 101 is lossless: its VP8L header packs the size otherwise than the lossy VP8 one)
    image = cv2.imdecode(np.frombuffer(_jpeg(301, 157), np.uint8), cv2.IMREAD_COLOR)
    data = cv2.imencode(ext, image, params)[1].tobytes()
    assert stored_size(data) == (301, 157)
    assert stored_size(b"GIF89a" + bytes(20)) is None and stored_size(data[:10]) is None


def _claiming(data: bytes, width: int, height: int) -> bytes:
    """A small PNG (``data``) whose header says it is ``width`` x ``height`` (its IHDR's checksum mended)."""
    import zlib

    ihdr = b"IHDR" + width.to_bytes(4, "big") + height.to_bytes(4, "big") + data[24:29]
    return data[:12] + ihdr + zlib.crc32(ihdr).to_bytes(4, "big") + data[33:]


def test_a_photo_that_says_it_has_more_pixels_than_are_read_is_refused_before_it_is_decoded():
    # a PNG of a few hundred bytes may claim 40000 x 40000 pixels (4.8 GB as BGR): OpenCV raised its own error
    # (a traceback on the command line, a 500 on the page) where it was past OpenCV's limit, and decoded it below
    # that, whatever the memory it takes
    png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    assert decode_photo(_claiming(png, 8, 8), "ok.png").shape == (8, 8, 3)  # (the header mended right)
    for width, height in ((40000, 40000), (10001, 10000)):
        with pytest.raises(PhotoFileError) as caught:
            decode_to_read(_claiming(png, width, height), "scan.png", field="image")
        assert caught.value.code == "photo_too_large" and caught.value.field == "image"
        assert str(caught.value) == (f"scan.png is {width} x {height} pixels ({width * height / 1e6:.0f} MP), more than "
                                     "a photo is read at here (100 MP at most): send a smaller copy")
    assert 10000 * 10000 <= MAX_DECODED_PIXELS < 10001 * 10000
    # (a JPEG is decoded at up to 1/8 of its size: even 65535 x 65535 pixels, the most its header can say, come to
    # 67 MP so)


def test_the_size_of_a_jpeg_comes_from_its_frame_header():
    assert jpeg_size(_jpeg(123, 45)) == (123, 45)
    assert jpeg_size(_jpeg(640, 480, IMWRITE_JPEG_PROGRESSIVE=1)) == (640, 480)  # SOF2
    # segments before the frame (an application segment as phones write EXIF) are stepped over by their lengths
    plain = _jpeg(300, 200)
    app1 = b"\xff\xe1" + (2 + 10).to_bytes(2, "big") + b"Exif\x00\x00" + bytes(4)
    assert jpeg_size(plain[:2] + app1 + plain[2:]) == (300, 200)


@pytest.mark.parametrize("data", [b"", b"\xff\xd8", cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))[1].tobytes(),
                                  b"\xff\xd8\xff\xe0\x00", b"\xff\xd8\xff\xda\x00\x08" + bytes(20)],
                         ids=["empty", "only SOI", "png", "cut short", "scan before any frame"])
def test_no_size_where_there_is_no_jpeg_frame_header(data: bytes):
    assert jpeg_size(data) is None


def test_a_very_large_jpeg_is_decoded_at_half_size_to_be_read_and_a_12_mp_one_whole():
    data = _jpeg(6400, 800)  # as long as a 48 MP photo's side is (8064), twice READ_LONG_SIDE or more
    photo = decode_to_read(data, "IMG_0001.jpg")
    assert photo.image.shape == (400, 3200, 3)
    assert (photo.scale, photo.width, photo.height) == (2, 6400, 800)
    # the same picture as the whole decode averaged down by 2
    whole = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    halved = cv2.resize(whole, (3200, 400), interpolation=cv2.INTER_AREA)
    assert np.abs(photo.image.astype(int) - halved.astype(int)).mean() < 2
    # a phone's 12 MP photo is read whole: at half size a far hand read 5 requests of 100 fewer (TRAINING-LOG)
    phone = decode_to_read(_jpeg(4032, 3024), "IMG_0002.jpg")
    assert phone.image.shape == (3024, 4032, 3) and (phone.scale, phone.width, phone.height) == (1, 4032, 3024)


@pytest.mark.parametrize(("width", "scale"), [(2 * READ_LONG_SIDE - 1, 1), (2 * READ_LONG_SIDE, 2),
                                              (4 * READ_LONG_SIDE - 1, 2), (4 * READ_LONG_SIDE, 4),
                                              (8 * READ_LONG_SIDE, 8), (16 * READ_LONG_SIDE, 8)])
def test_the_smallest_decode_that_keeps_the_long_side_to_read(width: int, scale: int):
    # 1/2, 1/4 and 1/8 are what libjpeg decodes fastest; never below READ_LONG_SIDE on the long side
    photo = decode_to_read(_jpeg(width, 64), "wide.jpg")
    assert photo.scale == scale and (photo.width, photo.height) == (width, 64)
    assert photo.image.shape[1] == -(-width // scale) >= min(width, READ_LONG_SIDE)


def test_a_large_photo_in_another_format_is_decoded_whole():
    image = np.full((300, 2 * READ_LONG_SIDE, 3), 90, np.uint8)
    photo = decode_to_read(cv2.imencode(".png", image)[1].tobytes(), "scan.png")
    assert photo.image.shape == image.shape and (photo.scale, photo.width, photo.height) == (1, 2 * READ_LONG_SIDE, 300)


def test_a_broken_large_jpeg_is_refused_as_the_whole_decode_refuses_it():
    data = _jpeg(2 * READ_LONG_SIDE, 600)
    header_only = data[:data.index(b"\xff\xda")] + b"\xff\xda\x00\x0c" + bytes(40)
    with pytest.raises(PhotoFileError) as caught:
        decode_to_read(header_only, "IMG_0002.jpg")
    assert caught.value.code == "photo_cut_short" and "IMG_0002.jpg" in str(caught.value)
    garbled = data[:data.index(b"\xff\xda")] + b"\xff\xda\x00\x0c" + bytes(40) + b"\xff\xd9"  # ends, but is no picture
    with pytest.raises(PhotoFileError) as caught:
        decode_to_read(garbled, "IMG_0003.jpg")
    assert caught.value.code == "photo_unreadable" and "IMG_0003.jpg" in str(caught.value)


@pytest.mark.parametrize(("ext", "kind"), [(".jpg", "JPEG"), (".png", "PNG"), (".webp", "WebP")])
@pytest.mark.parametrize("share", [0.3, 0.7, 0.99])
def test_a_photo_cut_short_is_named_so(ext: str, kind: str, share: float):
    # a copy or an upload broken off: the player is told to send it again, not that it is no image
    image = cv2.imdecode(np.frombuffer(_jpeg(400, 300), np.uint8), cv2.IMREAD_COLOR)
    whole = cv2.imencode(ext, image)[1].tobytes()
    assert cut_short(whole) is None and decode_photo(whole, "IMG_0004" + ext).shape == image.shape
    assert cut_short(whole[:20]) == kind  # cut within its header
    part = whole[:int(len(whole) * share)]
    with pytest.raises(PhotoFileError) as caught:
        decode_photo(part, "IMG_0004" + ext, field="image")
    error = caught.value
    assert error.code == "photo_cut_short" and error.field == "image"
    assert str(error) == (f"IMG_0004{ext} is a {kind} photo cut short: the file ends ({len(part)} bytes) before the "
                          "picture does, so it was not copied or sent whole; send it again")


def test_a_jpeg_cut_short_after_its_exif_thumbnail_is_named_so():
    # a phone's JPEG carries a small JPEG (the thumbnail, with its own end marker) in its EXIF segment, before the
    # picture's own scan
    thumb = _jpeg(40, 30)
    app1 = b"Exif\x00\x00" + thumb
    main = _jpeg(400, 300)
    data = main[:2] + b"\xff\xe1" + (len(app1) + 2).to_bytes(2, "big") + app1 + main[2:]
    assert cut_short(data) is None and decode_photo(data, "IMG_0005.jpg").shape == (300, 400, 3)
    part = data[:len(thumb) + (len(data) - len(thumb)) // 2]
    assert b"\xff\xd9" in part and cut_short(part) == "JPEG"
    with pytest.raises(PhotoFileError) as caught:
        decode_photo(part, "IMG_0005.jpg")
    assert caught.value.code == "photo_cut_short"
    assert cut_short(b"%PDF-1.4 not a photo") is None


def _reader(tile_width_on_photo: float, request: dict | None = None, confidences: tuple = (0.99,) * 5):  # noqa: ANN202
    """A stand-in for recognize_image that answers one row of upright tiles ``tile_width_on_photo`` wide on the
    photo (in the pixels of the picture it is given, times its scale), read as surely as ``confidences`` say,
    with ``request``, and notes what each read was given."""
    reads: list[tuple] = []

    def recognize(image, dora_image=None, scale=1, dora_scale=1, **corrections):  # noqa: ANN001, ANN202
        reads.append((image.shape[1], scale, dora_image is not None, dora_scale, corrections))
        w = tile_width_on_photo / scale
        return {"tiles": [{"tile": "1m", "box": [round((i * w) * scale), 0, round((i + 1) * w * scale), 10],
                           "sideways": False, "confidence": c} for i, c in enumerate(confidences)],
                "request": request}

    return recognize, reads


def test_a_12_mp_jpeg_is_read_at_half_size_first_and_kept_so_where_its_tiles_are_wide():
    data = _jpeg(4032, 600)
    recognize, reads = _reader(2 * HALF_TILE_MIN)  # as wide as kept, at half size
    answer, photo = read_photo(data, "IMG.jpg", None, recognize)
    assert photo.scale == 2 and reads == [(2016, 2, False, 1, {})] and answer["tiles"]
    # a correction: decided on the reading without it, then read at that size with it
    reads.clear()
    read_photo(data, "IMG.jpg", None, recognize, drop=[[0, 0, 9, 9]])
    assert reads == [(2016, 2, False, 1, {}), (2016, 2, False, 1, {"drop": [[0, 0, 9, 9]]})]


@pytest.mark.parametrize(("width", "half"), [(3264, True), (3024, True), (2999, False), (1920, False)])
def test_a_tablets_8_mp_jpeg_is_read_at_half_size_first_too_and_a_smaller_one_whole(width: int, half: bool):
    # since session 78 from 3000 px long (a tablet camera's 3264 x 2448, a 4:3 phone mode's 3024): decoding and
    # turning such a photo took more than reading it, and at half size its tiles read as well (TRAINING-LOG, "8 MP
    # photos at half size first"); the live camera's 1920 px frames are read as they come
    recognize, reads = _reader(2 * HALF_TILE_MIN)
    _, photo = read_photo(_jpeg(width, 600), "IMG.jpg", None, recognize)
    assert photo.scale == (2 if half else 1) and reads[0][0] == (width // 2 if half else width)


@pytest.mark.parametrize(("chosen", "width"), [(2, 2016), (1, 4032)])
def test_a_12_mp_jpeg_whose_size_was_chosen_before_is_read_at_it_once(chosen: int, width: int):
    # a correction of an answer whose photo was read at half size (2) or whole (1): read so straight away, with the
    # correction, whatever its tiles (here wide, so a first reading would keep half size)
    recognize, reads = _reader(2 * HALF_TILE_MIN)
    _, photo = read_photo(_jpeg(4032, 600), "IMG.jpg", None, recognize, chosen=chosen, drop=[[0, 0, 9, 9]])
    assert photo.scale == chosen and reads == [(width, chosen, False, 1, {"drop": [[0, 0, 9, 9]]})]


def test_a_12_mp_jpeg_whose_tiles_come_out_narrow_at_half_size_is_read_whole():
    data = _jpeg(4032, 600)
    recognize, reads = _reader(2 * HALF_TILE_MIN - 2)
    _, photo = read_photo(data, "IMG.jpg", None, recognize, fixes={0: "2m"})
    assert photo.scale == 1 and photo.image.shape[1] == 4032
    assert reads == [(2016, 2, False, 1, {}), (4032, 1, False, 1, {"fixes": {0: "2m"}})]


_A_REQUEST = {"hand": "123m456p789s11z", "melds": [], "win_tile": "1z"}


def test_a_12_mp_jpeg_whose_narrow_tiles_give_a_request_read_surely_is_kept_at_half_size():
    data = _jpeg(4032, 600)
    recognize, reads = _reader(2 * HALF_TILE_MIN - 2, _A_REQUEST, (0.99, HALF_SURE, 0.7, 0.99, 0.99))
    answer, photo = read_photo(data, "IMG.jpg", None, recognize)
    assert photo.scale == 2 and reads == [(2016, 2, False, 1, {})] and answer["request"] == _A_REQUEST


@pytest.mark.parametrize(("request_read", "confidences"), [
    (_A_REQUEST, (0.99, HALF_SURE - 0.01, 0.99, 0.99, 0.99)),  # a tile read less surely
    (None, (0.99,) * 5),  # no request
])
def test_a_12_mp_jpeg_whose_narrow_tiles_read_doubtfully_at_half_size_is_read_whole(request_read, confidences):
    recognize, reads = _reader(2 * HALF_TILE_MIN - 2, request_read, confidences)
    _, photo = read_photo(_jpeg(4032, 600), "IMG.jpg", None, recognize)
    assert photo.scale == 1 and reads == [(2016, 2, False, 1, {}), (4032, 1, False, 1, {})]


@pytest.mark.parametrize(("width", "scale"), [(HALF_FIRST_FROM - 1, 1), (2 * READ_LONG_SIDE, 2)])
def test_other_photos_are_read_once_as_decode_to_read_decodes_them(width: int, scale: int):
    recognize, reads = _reader(10)  # narrow: no matter
    dora = decode_to_read(_jpeg(2 * READ_LONG_SIDE, 300), "wall.jpg")
    _, photo = read_photo(_jpeg(width, 300), "IMG.jpg", "image", recognize, dora)
    assert photo.scale == scale and reads == [(-(-width // scale), scale, True, 2, {})]


HEIC = Path(__file__).parent / "fixtures" / "vision" / "heic" / "closed_dora_held.heic"


def test_an_iphone_heic_photo_is_decoded_upright_as_its_file_says():
    # the fixture is closed_dora.jpg stored turned counter-clockwise with the HEIF transform that turns it back
    # (tests/fixtures/vision/ART-LICENSE.md): decoded, it is that JPEG's picture again, the way up it was taken,
    # but for the lossy coding
    image = decode_photo(HEIC.read_bytes(), HEIC.name)
    jpeg = cv2.imread(str(HEIC.parents[1] / "closed_dora.jpg"))
    assert image.shape == jpeg.shape == (600, 800, 3) and image.dtype == np.uint8
    assert np.abs(image.astype(int) - jpeg).mean() < 4
    assert np.abs(image.astype(int) - cv2.rotate(cv2.rotate(jpeg, cv2.ROTATE_90_CLOCKWISE), cv2.ROTATE_90_CLOCKWISE)
                  ).mean() > 20  # (not the same picture upside down: the check can tell)
    image[0, 0] = 0  # the pipeline may write into it: its own memory, not the decoder's
    assert decode_to_read(HEIC.read_bytes(), HEIC.name).image.shape == (600, 800, 3)


def test_a_heic_photo_cut_short_or_broken_is_named_so_with_how_to_send_jpeg():
    data = HEIC.read_bytes()
    with pytest.raises(PhotoFileError) as cut:
        decode_photo(data[: len(data) // 2], "IMG_0042.HEIC")
    assert cut.value.code == "photo_cut_short" and "IMG_0042.HEIC is a HEIC photo cut short" in str(cut.value)
    with pytest.raises(PhotoFileError) as broken:
        decode_photo(data[:32] + bytes(4000), "IMG_0043.HEIC", field="image")
    assert broken.value.code == "photo_heic" and broken.value.field == "image"
    assert "IMG_0043.HEIC is a HEIC photo" in str(broken.value) and "send it as JPEG" in str(broken.value)


def test_a_heic_photo_without_pi_heif_is_named_with_how_to_send_jpeg(monkeypatch: pytest.MonkeyPatch):
    # the decoding process run without site-packages (python -S), where pi-heif is not to be found
    import companion.photo_files as photo_files
    from companion import heif_child

    monkeypatch.setattr(photo_files, "_heif_child_argv", lambda: [sys.executable, "-S", heif_child.__file__, "1000000"])
    with pytest.raises(PhotoFileError) as refused:
        decode_photo(HEIC.read_bytes(), "IMG_0042.HEIC")
    assert refused.value.code == "photo_heic" and "without pi-heif" in str(refused.value)
    assert "Most Compatible" in str(refused.value)


def test_a_heic_photo_with_more_pixels_than_are_read_is_refused_before_it_is_decoded(monkeypatch: pytest.MonkeyPatch):
    import companion.photo_files as photo_files

    monkeypatch.setattr(photo_files, "MAX_DECODED_PIXELS", 800 * 600 - 1)
    with pytest.raises(PhotoFileError) as refused:
        decode_photo(HEIC.read_bytes(), "big.heic")
    assert refused.value.code == "photo_too_large" and "800 x 600 pixels" in str(refused.value)


def test_a_heic_photo_that_crashes_its_decoder_is_named_so_and_the_reader_goes_on(monkeypatch: pytest.MonkeyPatch):
    # libheif crashes the process it runs in on some broken files: the photo is decoded in a process of its own, so
    # that the server reading it (and its tables) goes on and the player is told the photo could not be decoded.
    # A decoder that crashes, as a stand-in whatever pi-heif's version:
    import companion.photo_files as photo_files

    crash = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    with monkeypatch.context() as patched:
        patched.setattr(photo_files, "_heif_child_argv", lambda: [sys.executable, "-c", crash])
        with pytest.raises(PhotoFileError) as crashed:
            decode_photo(HEIC.read_bytes(), "IMG_0042.HEIC")
    assert crashed.value.code == "photo_heic" and "the decoder failed on it" in str(crashed.value)
    assert "send it as JPEG" in str(crashed.value)
    # and the file that crashed pi-heif 1.4.0 (the fixture with a few bytes of its header changed): an error
    # or a picture, never a crash here; the next photo is decoded as ever
    try:
        decode_photo((HEIC.parent / "crashes_libheif.heic").read_bytes(), "IMG_0043.HEIC")
    except PhotoFileError as exc:
        assert exc.code in ("photo_heic", "photo_cut_short")
    assert decode_photo(HEIC.read_bytes(), "IMG_0044.HEIC").shape == (600, 800, 3)


@pytest.mark.parametrize("name", ["gradient_grey.heic", "gradient_alpha.heic"])
def test_a_grey_heic_or_one_with_an_alpha_plane_is_decoded_to_bgr(name: str):
    # 301 x 203 (an odd width): red rising left to right, green top to bottom, a block (200, 30, 30) (RGB); the
    # grey one coded as its luma, the other with an alpha plane (tests/fixtures/vision/ART-LICENSE.md)
    rgb = np.zeros((203, 301, 3), np.uint8)
    rgb[:, :, 0] = np.linspace(0, 255, 301)[None, :]
    rgb[:, :, 1] = np.linspace(0, 255, 203)[:, None]
    rgb[50:100, 50:150] = (200, 30, 30)
    want = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    if "grey" in name:
        want = cv2.cvtColor(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2BGR)
    image = decode_photo((HEIC.parent / name).read_bytes(), name)
    assert image.shape == (203, 301, 3) and image.dtype == np.uint8
    assert np.abs(image.astype(int) - want).mean() < 2
