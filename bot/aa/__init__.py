"""Axis & Allies Anniversary by post: the front, the commands, the look-ups and the link
to the odds engine."""
