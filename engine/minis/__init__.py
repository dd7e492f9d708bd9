"""Axis & Allies Miniatures (2005 rules, revised card values): ``../shared/spec/minis.md``."""
