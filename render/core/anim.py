"""An animated image from a sequence of pictures (a battle replay): one frame per picture,
the frame's name in a caption band on top, all frames the size of the largest.

Format: GIF by default — the one animated format every Discord client plays.  Every
frame uses one shared palette (the theme's flat colours exact, the other shades chosen
from a few frames, :func:`render.core.encode.palette_for`), so Pillow writes only the box
that changed since the previous frame.  Animated WebP (lossless) on request.
"""

from __future__ import annotations

from io import BytesIO
from typing import Iterable, Sequence

from PIL import Image

from render.core.canvas import Canvas
from render.core.colour import RGB
from render.core.encode import palette_for
from render.core.theme import Theme, core_theme
from render.core.title import draw_title, title_height, title_lines

DISPLAY_WIDTH = 550  # how wide Discord shows an image in a chat on a phone


def caption_unit(width: int, th: Theme) -> float:
    """The unit for a caption band on an image ``width`` wide: its text keeps a cap
    height of about 9 px when the image is shown 550 px wide."""
    scale = max(1.0, width / DISPLAY_WIDTH)
    return max(float(th.unit_px) * 0.6, 20.0 * scale)


def with_caption(image: Image.Image, text: str, th: Theme | None = None) -> tuple[Image.Image, Canvas]:
    """``image`` under a title band saying ``text`` (the canvas records the caption)."""
    th = th or core_theme()
    unit = caption_unit(image.width, th)
    lines = title_lines(text, "", image.width, unit, th)
    band = title_height(lines, unit, th)
    out = Image.new("RGB", (image.width, image.height + band), th.colour("panel")[:3])
    out.paste(image.convert("RGB"), (0, band))
    canvas = Canvas(out)
    draw_title(canvas, image.width, band, lines, unit, th)
    return out, canvas


def _padded(images: Sequence[Image.Image], fill: RGB) -> list[Image.Image]:
    w = max(im.width for im in images)
    h = max(im.height for im in images)
    out = []
    for im in images:
        if im.size == (w, h):
            out.append(im.convert("RGB"))
        else:
            bg = Image.new("RGB", (w, h), fill)
            bg.paste(im.convert("RGB"), (0, 0))
            out.append(bg)
    return out


def _shared_palette(images: Sequence[Image.Image], keep: Sequence[RGB], samples: int = 4) -> Image.Image:
    """One palette for every frame (the kept colours exact, the rest from a few frames
    spread over the sequence), so that what does not change between two frames is
    written once: Pillow stores only the box that differs from the previous frame."""
    picks = sorted({round(i * (len(images) - 1) / max(1, samples - 1)) for i in range(samples)})
    w, h = images[0].size
    mosaic = Image.new("RGB", (w, h * len(picks)))
    for k, i in enumerate(picks):
        mosaic.paste(images[i], (0, h * k))
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for c in palette_for(mosaic, list(keep)) for v in c])
    return holder


def animate(frames: Sequence[tuple[str, Image.Image]], *, caption: bool = True, seconds: float = 1.6,
            last_seconds: float = 4.0, fmt: str = "gif", keep: Iterable[RGB] = (), th: Theme | None = None) -> bytes:
    """The animated image of ``frames`` (name, picture), as GIF (``fmt="gif"``) or
    lossless animated WebP (``"webp"``) bytes.  With ``caption`` each picture gets its
    name in a band on top; without, the pictures must already name what they show."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    th = th or core_theme()
    images = [with_caption(im, name, th)[0] if caption else im for name, im in frames]
    images = _padded(images, th.colour("panel")[:3])
    durations = [round(seconds * 1000)] * len(images)
    durations[-1] = round(last_seconds * 1000)
    out = BytesIO()
    if fmt == "gif":
        kept = list(keep) + list(th.flat_colours())
        pal = _shared_palette(images, kept)
        frames_p = [im.quantize(palette=pal, dither=Image.Dither.NONE) for im in images]
        frames_p[0].save(out, format="GIF", save_all=True, append_images=frames_p[1:], duration=durations, loop=0,
                         optimize=False, disposal=1)
    elif fmt == "webp":
        images[0].save(out, format="WEBP", save_all=True, append_images=images[1:], duration=durations, loop=0,
                       lossless=True, method=0, quality=0)
    else:
        raise ValueError(f"unknown animation format {fmt!r} (gif or webp)")
    return out.getvalue()
