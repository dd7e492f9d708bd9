"""Old name: colour helpers are in :mod:`render.core.colour`, generic themes in
:mod:`render.core.theme`, the Minis theme in :mod:`render.minis.theme`.  This name stays
for code written before the move."""

from render.core.colour import RGB, RGBA, contrast, luminance, parse_colour, rgb, text_on
from render.minis.theme import MinisTheme as Theme
from render.minis.theme import NationStyle, SideStyle, TerrainStyle, theme

__all__ = ["RGB", "RGBA", "NationStyle", "SideStyle", "TerrainStyle", "Theme", "contrast", "luminance",
           "parse_colour", "rgb", "text_on", "theme"]
