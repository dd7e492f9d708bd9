"""Axis & Allies Anniversary Edition (2008) rules engine (spec ``A-x.y``)."""
