"""Showing a game's picture to a person: inline in a Jupyter notebook, or in one matplotlib window updated in
place (``render_mode="human"``); without a display, a warning saying what is missing instead of an error, so that
a training run never ends for want of a window. Every game's picture module shows its frames through this."""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import numpy as np


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython already imported by it, with a kernel attached)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class Window:
    """One matplotlib window titled ``title``, opened on the first frame and updated in place afterwards."""

    def __init__(self, title: str, dpi: int) -> None:
        self.title, self.dpi = title, dpi
        self._fig: Any = None
        self._image: Any = None

    def show(self, frame: np.ndarray, instead: str) -> bool:
        """Show ``frame`` (uint8[H, W, 3]); True when shown. Without a display it warns (naming ``instead``, what to
        use in its place) and returns False."""
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            warnings.warn("render_mode='human': no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no "
                          f"window can open; use render_mode='rgb_array', or {instead}", RuntimeWarning,
                          stacklevel=3)  # fmt: skip
            return False
        try:
            import matplotlib.pyplot as plt

            backend = plt.get_backend().lower()
            if backend in ("agg", "pdf", "ps", "svg", "cairo", "pgf", "template"):
                raise RuntimeError(f"matplotlib's backend {backend!r} draws no windows: a GUI toolkit such as Tk "
                                   "(python3-tk) is missing, or MPLBACKEND selects a file backend")  # fmt: skip
            if self._fig is None or not plt.fignum_exists(self._fig.number):
                height, width = frame.shape[:2]
                self._fig = plt.figure(self.title, figsize=(width / self.dpi, height / self.dpi), dpi=self.dpi)
                ax = self._fig.add_axes((0, 0, 1, 1))
                ax.set_axis_off()
                self._image = ax.imshow(frame)
                plt.show(block=False)
            else:
                self._image.set_data(frame)
                self._fig.canvas.draw_idle()
            plt.pause(0.001)
            return True
        except Exception as exc:  # a GUI toolkit that fails to start must not end a training run
            warnings.warn(f"render_mode='human': cannot open a window ({exc}); use render_mode='rgb_array', or "
                          f"{instead}", RuntimeWarning, stacklevel=3)  # fmt: skip
            return False
