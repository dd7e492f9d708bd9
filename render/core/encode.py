"""Image bytes for an attachment: a palette PNG that keeps every colour we draw.

- An image with at most 256 colours becomes a palette PNG with exactly those colours
  (lossless).
- A bigger one (anti-aliased edges blend our colours into thousands of shades) becomes
  a palette PNG whose palette holds every flat colour of the theme (``keep``) plus
  entries chosen by Pillow's fast octree for the shades in between (from a sample of
  a big picture's pixels).  Every pixel drawn
  in a kept colour keeps it exactly; an edge shade gets the nearest palette entry (on
  the demo battle: mean error 0.5/255 on the worst channel, none visible).  Exactness
  comes from how Pillow maps colours: it picks the palette entry nearest to the pixel's
  colour with the two low bits of each channel cleared, so a kept colour whose channels
  are multiples of 4 (:func:`render.core.colour.aligned`, a rule the theme tests check)
  is always its own nearest entry; for the few kept colours that are not aligned (pure
  white), octree entries that would be nearer are left out of the palette.
- ``lossless=True`` gives a plain RGB PNG (every pixel exact), for tools and tests.

Against the RGB PNG at zlib level 1 that the bot used before, a phase image is about a
third of the size and encodes faster (``make bench``: ``render-phase-png-kb``,
``render-png-encode-ms``).
"""

from __future__ import annotations

from io import BytesIO
from typing import Iterable, Sequence

from PIL import Image

from render.core.colour import RGB

RGB_PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}
PALETTE_LEVEL = 4  # zlib level for palette PNGs: the best size per millisecond measured here
# A big picture's in-between shades are chosen from a sample of its pixels (every
# SAMPLE_STEP-th of every SAMPLE_STEP-th row): a phase map's palette in ~1/4 of the time,
# the same mean error (tests/render/test_render_board.py checks the error).
SAMPLE_ABOVE = 400_000
SAMPLE_STEP = 4


def _cache_point(c: RGB) -> RGB:
    return c[0] & ~3, c[1] & ~3, c[2] & ~3


def _d2(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def palette_for(image: Image.Image, keep: Sequence[RGB]) -> list[RGB]:
    """The palette of :func:`to_palette`: ``keep`` first, then octree entries that
    steal no kept colour."""
    keep = list(dict.fromkeys(keep))[:240]
    room = 256 - len(keep)
    rgb_image = image if image.mode == "RGB" else image.convert("RGB")
    if rgb_image.width * rgb_image.height > SAMPLE_ABOVE:
        # The octree only picks the in-between shades: one pixel in SAMPLE_STEP² shows it
        # the same shades (no pixel is blended: nearest), at a quarter of the time.
        rgb_image = rgb_image.resize((max(1, rgb_image.width // SAMPLE_STEP), max(1, rgb_image.height // SAMPLE_STEP)),
                                     Image.Resampling.NEAREST)
    octree = rgb_image.quantize(room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    raw = octree.getpalette() or []
    others = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, min(len(raw), 3 * room), 3)]
    guarded = [(c, _cache_point(c), _d2(c, _cache_point(c))) for c in keep if _cache_point(c) != c]
    kept = set(keep)
    out = list(keep)
    for o in others:
        if o in kept:
            continue
        if any(_d2(o, p) < d for _, p, d in guarded):  # a tie goes to the earlier (kept) entry
            continue
        out.append(o)
        kept.add(o)
    return out[:256]


def to_palette(image: Image.Image, keep: Iterable[RGB] = ()) -> Image.Image:
    """``image`` as a "P" image (see the module's docstring)."""
    rgb_image = image if image.mode == "RGB" else image.convert("RGB")
    few = rgb_image.getcolors(256)
    if few is not None:
        # at most 256 colours: median cut gives each its own entry (lossless)
        return rgb_image.quantize(max(1, len(few)), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    pal = palette_for(rgb_image, list(keep))
    holder = Image.new("P", (1, 1))
    holder.putpalette([v for c in pal for v in c])
    return rgb_image.quantize(palette=holder, dither=Image.Dither.NONE)


def png(image: Image.Image, *, keep: Iterable[RGB] = (), lossless: bool = False) -> bytes:
    """PNG bytes of ``image``: a palette PNG keeping ``keep`` exactly, or with
    ``lossless`` an RGB PNG."""
    out = BytesIO()
    if lossless:
        image.save(out, format="PNG", **RGB_PNG_OPTIONS)
    else:
        to_palette(image, keep).save(out, format="PNG", compress_level=PALETTE_LEVEL, optimize=False)
    return out.getvalue()


def palette_conflicts(colours: Iterable[RGB]) -> list[tuple[RGB, RGB]]:
    """Pairs of kept colours that could not both stay exact (one nearer to the other's
    cache point than that colour itself): a theme test requires none."""
    cs = list(dict.fromkeys(colours))
    out = []
    for c in cs:
        p = _cache_point(c)
        d = _d2(c, p)
        for o in cs:
            if o != c and _d2(o, p) <= d:
                out.append((c, o))
    return out
