"""Per-seat clocks on the command line: ``--move-ms-for SEAT=MS`` and
``--bank-ms-for SEAT=MS`` on ``referee play`` (a seat's own clock instead of the
match's ``--move-ms``/``--bank-ms``; a tournament entrant's is ``move_ms``/``bank_ms``
in its ``[[bots]]`` entry)."""

from __future__ import annotations

from collections.abc import Sequence

import click


def parse_seat_values(
    values: Sequence[str], seats: int, option: str, minimum: int
) -> dict[int, int]:
    """``["1=30000", ...]`` -> ``{1: 30000}``.  Raises :class:`click.BadParameter`
    naming ``option`` for a malformed item, a seat outside ``0..seats-1``, a value
    below ``minimum`` (ms) or a seat given twice."""
    out: dict[int, int] = {}
    for item in values:
        seat_text, sep, ms_text = item.partition("=")
        try:
            if not sep:
                raise ValueError
            seat, ms = int(seat_text), int(ms_text)
        except ValueError:
            raise click.BadParameter(f"{item!r}: give SEAT=MS", param_hint=option) from None
        if not 0 <= seat < seats:
            raise click.BadParameter(
                f"{item!r}: seat {seat} is not one of 0..{seats - 1}", param_hint=option
            )
        if ms < minimum:
            raise click.BadParameter(f"{item!r}: must be at least {minimum} ms", param_hint=option)
        if seat in out:
            raise click.BadParameter(f"seat {seat} given twice", param_hint=option)
        out[seat] = ms
    return out
