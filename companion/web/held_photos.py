"""The photos the page sent last, held in memory so that it need not send one again.

A photo is read on the page, then read again with each tile put back or taken out, its corrected tiles are
kept as crops, and the checked photo is kept whole: before, every one of those requests carried the whole
photo (a few MB from a tablet camera) over the club's wifi. Now /api/recognize answers with the photo's id,
and the requests after it name that id instead ("image_id", "dora_id"); a photo no longer held (the server
restarted, or many photos came since) gives the error code ``photo_gone``, and the page sends the photo again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

HELD_MAX_PHOTOS = 16  # the photos of the last hands on all the tables a server serves
HELD_MAX_BYTES = 96 * 1024 * 1024  # and at most this much memory for them


def photo_id(data: bytes) -> str:
    """The id a photo is held by: the SHA-256 of its bytes (the same photo sent twice is held once)."""
    return hashlib.sha256(data).hexdigest()


class HeldPhotos:
    """The last photos received, by id (the SHA-256 of their bytes), oldest dropped first; safe across threads."""

    def __init__(self, max_photos: int = HELD_MAX_PHOTOS, max_bytes: int = HELD_MAX_BYTES) -> None:
        self.max_photos, self.max_bytes = max_photos, max_bytes
        self._photos: OrderedDict[str, bytes] = OrderedDict()
        self._scales: dict[str, int] = {}  # the scale each was read at (companion.photo_files.read_photo's choice)
        self._lock = threading.Lock()

    def put(self, data: bytes) -> str:
        """Hold ``data`` (again: it becomes the newest) and return its id."""
        key = photo_id(data)
        with self._lock:
            self._photos[key] = data
            self._photos.move_to_end(key)
            while len(self._photos) > 1 and (len(self._photos) > self.max_photos
                                              or sum(map(len, self._photos.values())) > self.max_bytes):
                self._scales.pop(self._photos.popitem(last=False)[0], None)
        return key

    def get(self, key: str) -> bytes | None:
        """The photo's bytes, or None when it is not held (any more)."""
        with self._lock:
            data = self._photos.get(key)
            if data is not None:
                self._photos.move_to_end(key)
            return data

    def read_at(self, key: str, scale: int) -> None:
        """Note that the photo held by ``key`` was read decoded at ``scale`` (a PhotoToRead's), for the corrections
        of its answer to be read at it (companion.photo_files.read_photo's ``chosen``); nothing where not held."""
        with self._lock:
            if key in self._photos:
                self._scales[key] = scale

    def scale_read_at(self, key: str) -> int | None:
        """The scale noted by :meth:`read_at` for the photo held by ``key``; None where none is (any more)."""
        with self._lock:
            return self._scales.get(key)
