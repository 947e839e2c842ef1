"""Animated GIFs of a replay written frame by frame, for any game that draws RGB pictures of its positions.

Pillow is an optional extra (it comes with matplotlib: ``pip install 'industry_env[render]'``); this module imports
without it and :class:`GifWriter` raises :class:`ImportError` naming the extra when it is missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

MISSING_RENDER = (
    "pictures of the board need matplotlib (and Pillow, which comes with it), an optional extra: "
    "pip install 'industry_env[render]' (or pip install matplotlib)"
)


def pillow() -> Any:
    """Import Pillow's ``Image`` on first use, or raise an ImportError that names the extra to install (Pillow comes
    with matplotlib)."""
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError(MISSING_RENDER) from exc
    return Image


class GifWriter:
    """An animated GIF written frame by frame, so a whole replay never sits in memory.

    All frames share one palette of 255 colours made from the first frame and the ``swatch`` colours (the players'
    colours: they must survive the palette even when the first frame hardly shows them); each frame stores only the
    rectangle that changed since the previous one, with its unchanged pixels transparent (they compress to almost
    nothing), and an unchanged frame only lengthens the previous one's display time. Every frame has the shape of
    the first; ``scale`` shrinks the frames. Use as a context manager, or call ``close()``.
    """

    _CLEAR = 255  # palette index of "unchanged": transparent in every frame but the first

    def __init__(self, path: str | os.PathLike[str], frame_ms: int = 400, last_ms: int = 3000,
                 scale: float = 1.0, swatch: Sequence[str] = (), draw: Callable[[Any], np.ndarray] | None = None,
                 ) -> None:  # fmt: skip
        pillow()
        self.draw = draw  # a game's picture, for a frame given as a game
        if not 0.1 <= scale <= 1.0:
            raise ValueError(f"scale={scale!r}: must be from 0.1 to 1.0")
        if frame_ms < 10 or last_ms < 10:
            raise ValueError(f"frame_ms={frame_ms!r}, last_ms={last_ms!r}: a frame shows for at least 10 ms")
        self.path, self.frame_ms, self.last_ms, self.scale = os.fspath(path), int(frame_ms), int(last_ms), scale
        self.swatch = tuple(swatch)
        self.shape: tuple[int, ...] | None = None  # of every frame: the first frame's
        self.size: tuple[int, int] | None = None  # (width, height) of the GIF
        self._fh = open(self.path, "wb")  # closed by close()
        self._palette_bytes = b""
        self._shown: np.ndarray | None = None  # palette indices the GIF shows after the frames so far
        self._pending: tuple[np.ndarray, tuple[int, int], int] | None = None  # (indices, offset, ms) to write
        self.frames = 0

    def _indices(self, rgb: np.ndarray) -> np.ndarray:
        """uint8 palette indices of ``rgb``: nearest colours, looked up once per colour ever seen."""
        packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
        index = self._lut[packed]
        if (index < 0).any():
            new = np.unique(packed[index < 0])
            colours = np.stack([new >> 16, (new >> 8) & 255, new & 255], axis=1)
            dist = ((colours[:, None, :] - self._rgb_palette[None, :, :]) ** 2).sum(axis=2)
            self._lut[new] = dist.argmin(axis=1)
            index = self._lut[packed]
        return index.astype(np.uint8)

    def add(self, rgb: Any) -> None:
        """Append one frame: uint8[H, W, 3], of the first frame's shape (or a game, drawn by ``draw``)."""
        if self.draw is not None and not isinstance(rgb, np.ndarray):
            rgb = self.draw(rgb)
        Image = pillow()
        from PIL import ImageColor

        ok = isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
        if not ok or (self.shape is not None and rgb.shape != self.shape):
            want = "uint8[H, W, 3]" if self.shape is None else f"uint8{list(self.shape)} (the first frame's shape)"
            got = f"{rgb.dtype}{rgb.shape}" if isinstance(rgb, np.ndarray) else type(rgb).__name__
            raise ValueError(f"GifWriter.add: a frame must be {want}, not {got}")
        if self.shape is None:
            self.shape = rgb.shape
            self.size = (round(rgb.shape[1] * self.scale), round(rgb.shape[0] * self.scale))
        if self.scale != 1.0:
            rgb = np.asarray(Image.fromarray(rgb).resize(self.size, Image.Resampling.LANCZOS))
        if not self._palette_bytes:
            swatch = np.array([ImageColor.getrgb(c) for c in (*self.swatch, "#ffffff")], np.uint8)
            band = np.resize(swatch, (8 * rgb.shape[1], 3)).reshape(8, rgb.shape[1], 3)
            palette = Image.fromarray(np.concatenate([rgb, band])).quantize(
                self._CLEAR, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)  # fmt: skip
            colours = bytes(palette.getpalette()[: 3 * self._CLEAR])
            self._palette_bytes = colours.ljust(768, b"\0")
            self._rgb_palette = np.frombuffer(colours, np.uint8).reshape(-1, 3).astype(np.int32)
            self._lut = np.full(1 << 24, -1, np.int16)  # packed RGB -> palette index, filled as colours appear
            self._write_header()
            index = self._indices(rgb)
            self._queue(index, (0, 0))
        else:
            index = self._indices(rgb)
            diff = index != self._shown
            rows, cols = np.flatnonzero(diff.any(axis=1)), np.flatnonzero(diff.any(axis=0))
            if rows.size == 0:  # nothing changed: show the previous frame longer
                data, offset, ms = self._pending
                self._pending = (data, offset, ms + self.frame_ms)
                return
            y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
            crop = np.where(diff[y0:y1, x0:x1], index[y0:y1, x0:x1], np.uint8(self._CLEAR))
            self._queue(crop, (int(x0), int(y0)))
        self._shown = index
        self.frames += 1

    def _write_header(self) -> None:
        w, h = self.size
        self._fh.write(b"GIF89a" + w.to_bytes(2, "little") + h.to_bytes(2, "little") + bytes([0xF7, 0, 0])
                       + self._palette_bytes)  # fmt: skip
        self._fh.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever

    def _queue(self, data: np.ndarray, offset: tuple[int, int]) -> None:
        self._flush()
        self._pending = (data, offset, self.frame_ms)

    def _flush(self, last: bool = False) -> None:
        """Write the frame held back (its display time is known only once the next frame differs)."""
        Image = pillow()
        from PIL import GifImagePlugin

        if self._pending is None:
            return
        data, offset, ms = self._pending
        ms = max(ms, self.last_ms) if last else ms
        image = Image.fromarray(data, mode="P")
        image.putpalette(self._palette_bytes)
        # disposal 1: leave the frame in place; the transparent index lets the previous pixels show through
        for chunk in GifImagePlugin.getdata(image, offset, duration=ms, disposal=1, transparency=self._CLEAR):
            self._fh.write(chunk)
        self._pending = None

    def close(self) -> None:
        """Write the last frame and the GIF trailer, and close the file."""
        if self._fh.closed:
            return
        try:
            self._flush(last=True)
            self._fh.write(b";")
        finally:
            self._fh.close()

    def __enter__(self) -> GifWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["GifWriter", "MISSING_RENDER", "pillow"]
