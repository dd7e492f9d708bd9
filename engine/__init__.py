"""Warroom's rules engines: pure Python, standard library only.

Nothing in this package touches Discord, asyncio, a database, the clock or the global
``random`` module; dice are injected (see :mod:`engine.core.dice`).
"""
