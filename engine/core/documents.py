"""Reading JSON documents a player hands us (custom scenarios, unit cards, .m44 files).

``json.loads`` recurses once per level of nesting, so a few kilobytes of brackets (well
under Discord's 6,000-character option limit) exhaust Python's stack.  Real documents are
shallow; anything nested deeper than :data:`MAX_DEPTH` is refused before it is parsed.
"""

from __future__ import annotations

MAX_DEPTH = 64


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``{``/``[`` outside JSON strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "}]":
            depth -= 1
    return deepest
