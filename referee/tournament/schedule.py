"""Tournament schedules: which bots sit in which seats, on which seed.

A schedule is fixed up front and written to the run directory.  Seeds come from a
tournament secret (never from a public counter alone): the seed of a block is
``SHA-256(secret, block)``, and every seat rotation of a block is played on that
same seed, so luck cancels out between the entrants of a block (duplicate games).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Sequence
from typing import Literal

import msgspec


class ScheduledMatch(msgspec.Struct, frozen=True):
    """One match: its id, its block (shared seed), and bot indices by seat."""

    id: str
    block: int
    rotation: int
    lineup: tuple[int, ...]


def new_secret() -> str:
    """A fresh 256-bit tournament secret (hex)."""
    return secrets.token_hex(32)


def block_seed(secret: str, block: int) -> int:
    """The 63-bit seed of ``block`` derived from the tournament ``secret``."""
    digest = hashlib.sha256(f"{secret}/block/{block}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineups(
    bots: int, seats: int, fmt: Literal["round-robin", "gauntlet"] = "round-robin"
) -> list[tuple[int, ...]]:
    """The groups of bot indices that meet, before rotation.

    Round robin: every combination of ``seats`` distinct bots, or, when there are
    fewer bots than seats, every multiset in which each bot appears (bots then take
    several seats).  Gauntlet: bot 0 with every combination of the others.
    """
    if fmt == "gauntlet":
        if bots < 2:
            raise ValueError("a gauntlet needs a candidate and at least one opponent")
        field = range(1, bots)
        pick = (
            itertools.combinations
            if bots - 1 >= seats - 1
            else itertools.combinations_with_replacement
        )
        return [(0, *g) for g in pick(field, seats - 1)]
    if bots >= seats:
        return list(itertools.combinations(range(bots), seats))
    return [
        g
        for g in itertools.combinations_with_replacement(range(bots), seats)
        if len(set(g)) == bots
    ]


def rotations(group: Sequence[int]) -> list[tuple[int, ...]]:
    """Every cyclic seat rotation of ``group``: each entrant sits in each seat once."""
    k = len(group)
    return [tuple(group[(i + r) % k] for i in range(k)) for r in range(k)]


def round_robin(
    bots: int,
    seats: int,
    rounds: int,
    fmt: Literal["round-robin", "gauntlet"] = "round-robin",
) -> list[ScheduledMatch]:
    """The whole schedule: for each round, each lineup, each rotation, one match.

    All rotations of one lineup in one round form a block and share a seed.
    Ordered round by round so a partial run is balanced.
    """
    schedule = []
    groups = lineups(bots, seats, fmt)
    block = 0
    for rnd in range(rounds):
        for group in groups:
            for r, lineup in enumerate(rotations(group)):
                schedule.append(
                    ScheduledMatch(
                        id=f"r{rnd}-b{block}-s{r}", block=block, rotation=r, lineup=lineup
                    )
                )
            block += 1
    return schedule
