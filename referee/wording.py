"""Counts in words for the referee's output: ``1 match``, ``2 matches``, ``1 of 1
match``, ``0 plies``."""

from __future__ import annotations


def plural(noun: str) -> str:
    """The English plural of a regular ``noun``: ``match`` -> ``matches``, ``ply`` ->
    ``plies``, ``move`` -> ``moves``."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if len(noun) > 1 and noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def counted(count: int, noun: str, of: int | None = None) -> str:
    """``count`` ``noun``s in words, with ``of`` a total: ``counted(1, "match")`` is
    ``1 match``, ``counted(2, "match", of=5)`` is ``2 of 5 matches`` (the noun agrees
    with the last number)."""
    last = count if of is None else of
    word = noun if last == 1 else plural(noun)
    return f"{count} {word}" if of is None else f"{count} of {of} {word}"
