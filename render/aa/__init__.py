"""The A&A Anniversary world map: our own schematic drawing (render/aa/world.py)."""
