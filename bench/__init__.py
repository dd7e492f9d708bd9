"""Benchmarks: ``make bench`` (``python -m bench``) prints one ``figure-name: value`` per line.

Each module ``bench/<area>.py`` defines ``figures() -> Iterable[tuple[str, object]]``;
speed and memory targets are checked here, never by timed tests.
"""
