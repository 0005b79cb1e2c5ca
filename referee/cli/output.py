"""Tables on stdout: one renderer for every ``--format``, and the results tables of a
tournament run (``tournament`` and ``results`` print the same ones)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from tabulate import tabulate

from referee.display import csv_cell, markdown_cell, terminal, terminal_json
from referee.tournament.standings import (
    display_standings,
    pairwise,
    pairwise_data,
    seat_advantage,
    standings,
)
from referee.wording import counted

FORMATS = ["plain", "grid", "github", "markdown", "json", "csv"]
"""The values of ``--format``: for people (plain, grid, github, markdown) and for
machines (json, csv)."""


def render(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None) -> str:
    """A table in one of :data:`FORMATS` (tabulate for the human ones).

    Every string, header or cell, is escaped for its output (:mod:`referee.display`):
    :func:`terminal_json` for json, :func:`csv_cell` for csv, :func:`markdown_cell`
    for github and markdown, :func:`terminal` for plain and grid.  Columns of text
    are never read as numbers (a bot named ``1e3`` stays ``1e3``).
    """
    if fmt == "json":
        return terminal_json(list(rows))
    keys = list(dict.fromkeys(k for row in rows for k in row))
    if fmt == "csv":
        buffer = io.StringIO()
        if rows:
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow([csv_cell(k) for k in keys])
            writer.writerows([csv_cell(row.get(k)) for k in keys] for row in rows)
        return buffer.getvalue().rstrip("\n")
    cell = markdown_cell if fmt in ("github", "markdown") else terminal
    tablefmt = "pipe" if fmt == "markdown" else fmt
    if rows:
        data = [[_cell(cell, row.get(k)) for k in keys] for row in rows]
        text_columns = [
            i for i, k in enumerate(keys) if all(isinstance(r.get(k), str) for r in rows)
        ]
        table = tabulate(
            data,
            headers=[_cell(cell, k) for k in keys],
            tablefmt=tablefmt,
            disable_numparse=text_columns or False,
        )
    else:
        table = tabulate([], headers="keys", tablefmt=tablefmt)
    return f"{title}\n{table}" if title else table


def _cell(escape: Callable[[str], str], value: Any) -> Any:
    return escape(value) if isinstance(value, str) else value


def results_tables(rows: Sequence[Any], names: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Every results table of a run as machine data (numbers as numbers), by table name:
    ``standings``, ``pairwise``, ``seats``."""
    return {
        "standings": standings(rows, names),
        "pairwise": pairwise_data(rows, names),
        "seats": seat_advantage(rows),
    }


def print_tables(
    rows: Sequence[Any],
    names: Sequence[str],
    fmt: str,
    scheduled: int | None = None,
    out_dir: Path | None = None,
) -> None:
    """Print standings, pairwise and seat tables in ``fmt`` (every format, every table).

    ``scheduled`` is the run's number of matches (shown as "N of M").  With
    ``out_dir`` (json/csv only) each table goes to ``out_dir/<table>.<fmt>`` instead;
    raises ``click.UsageError`` for ``out_dir`` with another format.
    """
    scheduled = len(rows) if scheduled is None else scheduled
    if fmt in ("json", "csv"):
        tables = results_tables(rows, names)
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            for name, table in tables.items():
                text = render(table, fmt)
                (out_dir / f"{name}.{fmt}").write_text(text + "\n", encoding="utf-8")
            click.echo(f"tables written to {out_dir}: " + ", ".join(tables), err=True)
        elif fmt == "json":
            data = {"matches": len(rows), "scheduled": scheduled, **tables}
            click.echo(terminal_json(data))
        else:
            sections = [f"# {name}\n{render(table, fmt)}" for name, table in tables.items()]
            click.echo("\n\n".join(sections))
        return
    if out_dir is not None:
        raise click.UsageError("--out-dir needs --format json or csv")
    count = (
        counted(len(rows), "match")
        if len(rows) == scheduled
        else counted(len(rows), "match", of=scheduled)
    )
    click.echo(render(display_standings(standings(rows, names)), fmt, f"Standings ({count})"))
    click.echo()
    click.echo(render(pairwise(rows, names), fmt, "Finished ahead of (row vs column, 95% CI)"))
    click.echo()
    click.echo(render(seat_advantage(rows), fmt, "Seat advantage"))
    cut = sum(1 for r in rows if r.reason == "ply_limit")
    if cut:
        click.echo(
            f"{counted(cut, 'match', of=len(rows))} "
            f"{'was' if cut == 1 else 'were'} cut at the ply limit (adjudicated)"
        )
