"""The face-down plantation stack and its discard pile, as counts per kind.

A pile is a list of 5 counts (corn, indigo, sugar, tobacco, coffee).  The stack is never
ordered: a draw is a chance outcome naming the tiles drawn, so no hidden order exists to
leak.  Rulebook "拓荒者" (refilling the display, reshuffling the discards) and research
notes 6.13-6.14.
"""

from __future__ import annotations

import random

from referee.api.engine import InvalidChance


def expand(counts: list[int]) -> list[int]:
    """The tiles of a pile as a sorted list of kinds: ``[2, 0, 1] -> [0, 0, 2]``."""
    return [k for k in range(len(counts)) for _ in range(counts[k])]


def count(tiles: list[int]) -> list[int]:
    """Counts per kind of a list of tile kinds 0-4."""
    out = [0] * 5
    for t in tiles:
        out[t] += 1
    return out


def display_draw_size(face_up: int, stack: list[int], discard: list[int]) -> int:
    """Tiles a display refill draws: ``face_up`` unless stack and discards run short."""
    return min(face_up, sum(stack) + sum(discard))


def sample_display(
    need: int, stack: list[int], discard: list[int], rng: random.Random
) -> list[int]:
    """A random refill of ``need`` tiles: from the stack, and when it runs out, the whole
    rest of the stack first and then tiles of the reshuffled discards."""
    first = expand(stack)
    if need <= len(first):
        return rng.sample(first, need)
    rng.shuffle(first)
    return first + rng.sample(expand(discard), need - len(first))


def apply_display(
    outcome: object, need: int, stack: list[int], discard: list[int]
) -> tuple[list[int], list[int]]:
    """The new ``(stack, discard)`` after drawing ``outcome`` (a list of tile kinds).

    Raises :class:`InvalidChance` if ``outcome`` is malformed, has the wrong length, or
    cannot come from the piles (the stack must be used up before the discards).
    """
    if not isinstance(outcome, list) or not all(type(t) is int and 0 <= t < 5 for t in outcome):
        raise InvalidChance(f"a plantation draw is a list of tile kinds 0-4: {outcome!r}")
    if len(outcome) != need:
        raise InvalidChance(f"expected {need} plantations, got {len(outcome)}")
    in_stack = sum(stack)
    head, tail = count(outcome[:in_stack]), count(outcome[in_stack:])
    if need <= in_stack:
        if any(head[k] > stack[k] for k in range(5)):
            raise InvalidChance(f"not in the plantation stack: {outcome!r}")
        return [stack[k] - head[k] for k in range(5)], discard
    if head != stack or any(tail[k] > discard[k] for k in range(5)):
        raise InvalidChance(f"not drawable from stack and discards: {outcome!r}")
    return [discard[k] - tail[k] for k in range(5)], [0] * 5


def sample_one(stack: list[int], discard: list[int], rng: random.Random) -> int:
    """One random tile from the stack, or from the reshuffled discards if it is empty."""
    return rng.choice(expand(stack if sum(stack) else discard))


def apply_one(outcome: object, stack: list[int], discard: list[int]) -> tuple[list[int], list[int]]:
    """The new ``(stack, discard)`` after drawing the single tile ``outcome``.

    Raises :class:`InvalidChance` if it is not a tile kind 0-4 present in the stack (or,
    with an empty stack, in the discards about to be reshuffled).
    """
    if type(outcome) is not int or not 0 <= outcome < 5:
        raise InvalidChance(f"a hacienda draw is one tile kind 0-4: {outcome!r}")
    if sum(stack) == 0:
        stack, discard = discard, [0] * 5
    if stack[outcome] <= 0:
        raise InvalidChance(f"tile {outcome} cannot be drawn now")
    stack = stack[:]
    stack[outcome] -= 1
    return stack, discard
