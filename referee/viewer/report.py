"""``referee report RUN_DIR``: one self-contained HTML page for a tournament run.

The page shows the standings, each bot's rating as an interval (mu +- 2 sigma, with the
ordinal mu - 3 sigma marked), the pairwise "finished ahead" table as a heat map (the
95% Wilson interval on hover), the seat-advantage table, each bot's rating as matches
accumulate, faults by verdict, and every match with a link to its viewer page.  It
reads the run's manifest and results database only, so it works on a partial run and
says how many of the scheduled matches are done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.api.render import SEAT_COLORS
from referee.display import html_text
from referee.match.record import RecordError
from referee.process.protocol import FAULTS
from referee.progress import Progress
from referee.tournament.resultsdb import MatchRow, ResultsDB
from referee.tournament.run import load_run
from referee.tournament.standings import pairwise_data, ratings, seat_advantage, standings
from referee.viewer import default_output, write_viewer

MAX_RATING_POINTS = 120
"""Most points of the rating-over-matches chart (prefixes are sampled evenly)."""

CSS = """
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d232a; background: #f7f6f2; }
header { padding: 10px 16px; background: #23303d; color: #fff; }
header h1 { margin: 0; font-size: 19px; }
header p { margin: 2px 0 0; color: #cfd8e3; }
section { background: #fff; margin: 10px 16px; padding: 8px 14px; border: 1px solid #d6d9de;
  border-radius: 6px; }
h2 { font-size: 15px; margin: 4px 0 8px; }
table { border-collapse: collapse; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e3e5e8; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.heat { text-align: center; min-width: 64px; cursor: help; }
.bad { color: #c62828; font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 5px; }
.partial { color: #ffd54f; font-weight: 600; }
svg text { font-family: system-ui, sans-serif; }
"""


def _e(value: Any) -> str:
    return html_text(value)


def _table(rows: Sequence[dict[str, Any]], cls: str = "") -> str:
    if not rows:
        return "<p>no matches yet</p>"
    keys = list(rows[0])
    out = [f'<table class="{cls}"><tr>' + "".join(f"<th>{_e(k)}</th>" for k in keys) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{_e(row[k])}</td>" for k in keys) + "</tr>")
    return "".join(out) + "</table>"


def _color(name: str, names: Sequence[str]) -> str:
    return SEAT_COLORS[names.index(name) % len(SEAT_COLORS)] if name in names else "#777"


def rating_intervals(table: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    """SVG: one row per bot, a bar from mu - 2 sigma to mu + 2 sigma, a dot at mu and a
    tick at the ordinal (mu - 3 sigma)."""
    if not table:
        return ""
    lo = min(r["mu"] - 3 * r["sigma"] for r in table)
    hi = max(r["mu"] + 2 * r["sigma"] for r in table)
    hi = hi if hi > lo else lo + 1
    width, left, right, row_h = 760, 150, 20, 26
    height = 30 + row_h * len(table)

    def x(v: float) -> float:
        return left + (width - left - right) * (v - lo) / (hi - lo)

    parts = [f'<svg class="ratings" viewBox="0 0 {width} {height}" width="{width}">']
    for k in range(6):
        v = lo + (hi - lo) * k / 5
        parts.append(
            f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="4" y2="{height - 20}" stroke="#eee"/>'
            f'<text x="{x(v):.1f}" y="{height - 6}" font-size="11" text-anchor="middle" '
            f'fill="#666">{v:.1f}</text>'
        )
    for i, r in enumerate(table):
        y = 16 + i * row_h
        mu, sigma, color = r["mu"], r["sigma"], _color(r["bot"], names)
        parts.append(
            f'<g class="interval" data-bot="{_e(r["bot"])}">'
            f'<text x="{left - 8}" y="{y + 4}" font-size="12" text-anchor="end">'
            f"{_e(r['bot'])}</text>"
            f'<line x1="{x(mu - 2 * sigma):.1f}" x2="{x(mu + 2 * sigma):.1f}" y1="{y}" y2="{y}" '
            f'stroke="{color}" stroke-width="6" stroke-linecap="round" opacity="0.55"/>'
            f'<line x1="{x(mu - 3 * sigma):.1f}" x2="{x(mu - 3 * sigma):.1f}" y1="{y - 7}" '
            f'y2="{y + 7}" stroke="#111" stroke-width="2"/>'
            f'<circle cx="{x(mu):.1f}" cy="{y}" r="5" fill="{color}" stroke="#111"/>'
            f"<title>mu {mu:.2f}, sigma {sigma:.2f}, ordinal {mu - 3 * sigma:.2f}</title></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def heat_map(rows: Sequence[MatchRow], names: Sequence[str]) -> str:
    """The pairwise table, each cell coloured by how often the row's bot finished ahead
    (red 0% .. white 50% .. green 100%), its Wilson interval and n in the tooltip."""
    cells = {(r["bot"], r["opponent"]): r for r in pairwise_data(rows, names)}
    out = ['<table class="pairwise"><tr><th>bot \\ opponent</th>']
    out += [f"<th>{_e(n)}</th>" for n in names]
    out.append("</tr>")
    for a in names:
        out.append(f"<tr><td>{_e(a)}</td>")
        for b in names:
            r = cells.get((a, b))
            if r is None:
                out.append('<td class="heat">-</td>')
                continue
            p = r["ahead %"] / 100
            if p >= 0.5:
                t = (p - 0.5) * 2
                rgb = (int(255 - 155 * t), int(255 - 60 * t), int(255 - 155 * t))
            else:
                t = (0.5 - p) * 2
                rgb = (int(255 - 20 * t), int(255 - 155 * t), int(255 - 155 * t))
            tip = f"{a} ahead of {b}: {r['ahead %']}% [95% {r['low %']}-{r['high %']}] n={r['n']}"
            out.append(
                f'<td class="heat" style="background:rgb{rgb}" title="{_e(tip)}">'
                f"{r['ahead %']:.0f}%</td>"
            )
        out.append("</tr>")
    return "".join(out) + "</table>"


def rating_history(rows: Sequence[MatchRow], names: Sequence[str]) -> str:
    """SVG line chart: each bot's mu after the first k matches (k sampled evenly)."""
    n = len(rows)
    if n == 0:
        return ""
    ks = sorted({max(1, round(n * i / MAX_RATING_POINTS)) for i in range(1, MAX_RATING_POINTS + 1)})
    ks = [k for k in ks if k <= n]
    history = [(k, ratings(rows[:k], names)) for k in ks]
    values = [mu for _, r in history for mu, _ in r.values()]
    lo, hi = min(values), max(values)
    hi = hi if hi > lo else lo + 1
    width, height, left, bottom = 760, 240, 46, 22

    def x(k: int) -> float:
        return left + (width - left - 10) * (k / n)

    def y(v: float) -> float:
        return 8 + (height - 8 - bottom) * (1 - (v - lo) / (hi - lo))

    parts = [f'<svg class="history" viewBox="0 0 {width} {height}" width="{width}">']
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        parts.append(
            f'<line x1="{left}" x2="{width - 10}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>'
            f'<text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end" '
            f'fill="#666">{v:.1f}</text>'
        )
    parts.append(
        f'<text x="{width - 10}" y="{height - 4}" font-size="11" text-anchor="end" '
        f'fill="#666">matches: {n}</text>'
    )
    for name in names:
        pts = " ".join(f"{x(k):.1f},{y(r[name][0]):.1f}" for k, r in history)
        parts.append(
            f'<polyline class="series" data-bot="{_e(name)}" fill="none" '
            f'stroke="{_color(name, names)}" stroke-width="2" points="{pts}"/>'
        )
    parts.append("</svg>")
    legend = " ".join(
        f'<span><span class="swatch" style="background:{_color(n_, names)}"></span>{_e(n_)}</span>'
        for n_ in names
    )
    return "".join(parts) + f"<p>{legend}</p>"


def faults_table(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """Faulted seats per bot and verdict (only bots or verdicts with a fault)."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        for bot, verdict in zip(row.bots, row.verdicts, strict=True):
            if verdict != "ok":
                counts[bot, verdict] += 1
    verdicts = [v for v in FAULTS if any(k[1] == v for k in counts)]
    return [
        {
            "bot": n,
            **{v: counts[n, v] for v in verdicts},
            "total": sum(counts[n, v] for v in verdicts),
        }
        for n in names
        if any(counts[n, v] for v in verdicts)
    ]


def record_path(run: Path, row: MatchRow) -> Path | None:
    """The record file of ``row`` in ``run`` (``None`` if it cannot be found)."""
    candidates = [run / "records" / f"{row.id}.jsonl"]
    if row.record:
        candidates = [run / "records" / row.record, run / row.record, Path(row.record), *candidates]
    return next((p for p in candidates if p.is_file()), None)


def match_table(run: Path, out: Path, rows: Sequence[MatchRow], make_viewers: bool) -> str:
    """Every finished match: id, bots, scores, ranks, verdicts, plies, viewer link."""
    lines = [
        "<table class='matches'><tr><th>match</th><th>bots (seat order)</th><th>scores</th>"
        "<th>ranks</th><th>verdicts</th><th>plies</th><th>viewer</th></tr>"
    ]
    records = [record_path(run, row) for row in rows]
    todo = sum(1 for r in records if r is not None and not default_output(r).exists())
    progress = Progress(f"viewers of {run.name}", None, "viewers")
    made = 0
    for row, record in zip(rows, records, strict=True):
        link = "no record"
        if record is not None:
            viewer = default_output(record)
            if make_viewers and not viewer.exists():
                try:
                    write_viewer(record, viewer)
                except (RecordError, LookupError, ValueError, OSError) as exc:
                    link = f'<span class="bad">{_e(exc)}</span>'
                made += 1
                progress.update(made, total=todo)
            if viewer.exists():
                rel = Path(_relative(viewer, out.parent))
                link = f'<a href="{_e(rel.as_posix())}">view</a>'
            elif link == "no record":
                link = f"<code>referee view {_e(record)}</code>"
        verdicts = ", ".join(
            f'<span class="bad">{_e(v)}</span>' if v != "ok" else "ok" for v in row.verdicts
        )
        lines.append(
            f"<tr><td>{_e(row.id)}</td><td>{_e(', '.join(row.bots))}</td>"
            f"<td>{_e(', '.join(f'{s:g}' for s in row.scores))}</td>"
            f"<td>{_e(row.ranks)}</td><td>{verdicts}</td><td>{row.plies}</td><td>{link}</td></tr>"
        )
    progress.close()
    return "".join(lines) + "</table>"


def _relative(path: Path, base: Path) -> str:
    import os

    return os.path.relpath(path.resolve(), base.resolve())


def render_report(run: Path, out: Path, *, make_viewers: bool = False) -> str:
    """The report page of the run directory ``run`` (to be written at ``out``).

    Raises :class:`TournamentError` (no manifest) or :class:`ResultsError` (no usable
    database).
    """
    manifest = load_run(run)
    db = ResultsDB(run / "results.sqlite")
    try:
        rows = db.rows()
    finally:
        db.close()
    names = [b.name for b in manifest.config.bots]
    scheduled = len(manifest.schedule)
    cfg = manifest.config
    status = f"{len(rows)} of {scheduled} matches done"
    if len(rows) < scheduled:
        status = f'<span class="partial">partial run: {status}</span>'
    table = standings(rows, names) if rows else []
    shown = [
        {
            "bot": r["bot"],
            "games": r["games"],
            "wins": r["wins"],
            "win %": r["win %"],
            "mean rank": r["mean rank"],
            "mean score": r["mean score"],
            "mu": round(r["mu"], 2),
            "sigma": round(r["sigma"], 2),
            "ordinal": round(r["ordinal"], 2),
            "faults": r["faults"],
        }
        for r in table
    ]
    fault_rows = faults_table(rows, names)
    faults = _table(fault_rows) if fault_rows else ("<p>no faults</p>" if rows else "")
    body = [
        f"<header><h1>{_e(cfg.name)}: {_e(cfg.game)}, {manifest.seats} seats</h1>"
        f"<p>{status} · {len(names)} bots · {_e(cfg.format)}</p></header>",
        f"<section id='standings'><h2>Standings</h2>{_table(shown)}</section>",
        "<section id='ratings'><h2>Ratings (OpenSkill Plackett-Luce): bar mu ± 2 sigma, "
        f"tick = ordinal mu - 3 sigma</h2>{rating_intervals(table, names)}</section>",
        "<section id='pairwise'><h2>Finished ahead (row bot vs column bot; hover for the 95% "
        f"Wilson interval)</h2>{heat_map(rows, names)}</section>",
        f"<section id='seats'><h2>Seat advantage</h2>{_table(seat_advantage(rows))}</section>",
        "<section id='history'><h2>Rating (mu) as matches accumulate</h2>"
        f"{rating_history(rows, names)}</section>",
        f"<section id='faults'><h2>Faults by verdict</h2>{faults}</section>",
        f"<section id='matches'><h2>Matches</h2>{match_table(run, out, rows, make_viewers)}"
        "</section>",
    ]
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(cfg.name)} report</title><style>{CSS}</style></head><body>"
        + "".join(body)
        + "</body></html>"
    )
