"""``referee replay RECORD``: re-apply a record through the rules engine."""

from __future__ import annotations

from pathlib import Path

import click
import msgspec

from referee.cli.common import clean_errors
from referee.errors import BadInput
from referee.match.replay import replay as replay_record
from referee.wording import counted


@click.command()
@click.argument("record", type=click.Path(path_type=Path))
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=None,
    help="Print what this seat (0-based) was shown: one JSON line per decision; with "
    "--at, only its view before that ply.",
)
@click.option(
    "--at",
    "at_ply",
    type=click.IntRange(min=0),
    default=None,
    help="Print the position before this ply (0 .. number of plies) as one JSON object: "
    "the full state, or with --seat what that seat saw (instead of its decisions).",
)
@click.option(
    "--unchecked-chance",
    is_flag=True,
    help="Accept a record without a seed (its chance outcomes and fallbacks go unchecked).",
)
@click.option(
    "--verify-key",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also check RECORD.sig: RECORD must be exactly what this Ed25519 key (PEM) signed.",
)
@clean_errors
def replay(
    record: Path,
    seat: int | None,
    at_ply: int | None,
    unchecked_chance: bool,
    verify_key: Path | None,
) -> None:
    """Re-apply RECORD through the rules engine; exit 0 only if it is consistent.

    Chance outcomes and fallback moves are re-drawn from the seed in the result line.
    Stdout carries one output: with --at, the position before that ply (seat K's
    view with --seat K); with --seat alone, seat K's decisions, one JSON line each;
    else the verdict line (which goes to stderr when stdout carries one of the others).
    With --verify-key, the signature is checked first (a changed line is named).
    """
    signed_by = ""
    if verify_key is not None:
        from referee.match.signing import load_public_key, verify_file

        signed_by = verify_file(record, load_public_key(verify_key)).key[:16]
    result = replay_record(record, seat=seat, at_ply=at_ply, unchecked_chance=unchecked_chance)
    seats = len(result.header.seats)
    if seat is not None and seat >= seats:
        raise BadInput(f"--seat {seat}: {record} has seats 0-{seats - 1}")
    if at_ply is not None and at_ply > result.plies:
        raise BadInput(f"--at {at_ply}: {record} has plies 0-{result.plies}")
    encode = msgspec.json.encode
    if seat is not None and at_ply is None:
        for shown in result.shown:
            line = {
                "ply": shown.ply,
                "view": shown.view,
                "legal": shown.legal,
                "events": shown.events,
            }
            click.echo(encode(line).decode())
    if at_ply is not None:
        if result.state_at is None:
            raise BadInput(f"ply {at_ply} is beyond the end of the game ({result.plies} plies)")
        from referee.viewer.timeline import frame_at  # named fields, as the viewer draws

        named = frame_at(record, at_ply, seat)
        click.echo(msgspec.json.format(encode(named)).decode())
    click.echo(
        f"ok: {result.header.game}, {counted(len(result.header.seats), 'seat')}, "
        f"{counted(result.plies, 'ply')}, "
        f"ranks {result.result.ranks}, verdicts {list(result.result.verdicts)}"
        + (", adjudicated at the ply limit" if result.result.reason == "ply_limit" else "")
        + ("" if result.chance_checked else ", CHANCE UNCHECKED (no seed)")
        + (f", signed by key {signed_by}" if signed_by else ""),
        err=seat is not None or at_ply is not None,
    )
