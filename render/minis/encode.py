"""PNG encoding of finished images (the bytes the bot attaches).

Settings: zlib level 1 with Pillow's default filter choice.  On a phase image
(≈1000 × 1400 px) this is about twice as fast as the default level 6 for a file
about 15 % larger, still far below Discord's limits (see bench/render.py for
``render-phase-over-png-encode`` and the file size).
"""

from __future__ import annotations

from io import BytesIO

from PIL import Image

PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes."""
    out = BytesIO()
    image.save(out, format="PNG", **PNG_OPTIONS)
    return out.getvalue()
