"""The HTML page of a ``referee regress`` run (``--html FILE``): the log-likelihood
ratio after every block of games against the SPRT's bounds, and the run's summary.

Self-contained like the viewer and the tournament report (inline CSS and SVG).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from referee.display import html_text

CSS = """
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d232a; background: #f7f6f2; }
header { padding: 10px 16px; background: #23303d; color: #fff; }
header h1 { margin: 0; font-size: 19px; }
section { background: #fff; margin: 10px 16px; padding: 8px 14px; border: 1px solid #d6d9de;
  border-radius: 6px; }
h2 { font-size: 15px; margin: 4px 0 8px; }
svg.llr { max-width: 100%; height: auto; }
table { border-collapse: collapse; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e3e5e8; text-align: left; }
.H1 { color: #2e7d32; } .H0 { color: #c62828; } .inconclusive, .fault { color: #b26a00; }
"""


def _e(value: Any) -> str:
    return html_text(value)


def llr_chart(history: Sequence[tuple[int, float]], lower: float, upper: float) -> str:
    """SVG: LLR (y) over games played (x), with the lower and upper bounds as lines."""
    width, height, left, right, top, bottom = 860, 260, 50, 130, 10, 24
    games = max([g for g, _ in history] + [2])
    values = [v for _, v in history if math.isfinite(v)] + [lower, upper, 0.0]
    lo, hi = min(values), max(values)
    pad = 0.08 * (hi - lo or 1)
    lo, hi = lo - pad, hi + pad

    def x(g: float) -> float:
        return left + (width - left - right) * g / games

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - (v - lo) / (hi - lo))

    parts = [f'<svg class="llr" viewBox="0 0 {width} {height}" width="{width}">']
    for name, v, color in (("upper (H1)", upper, "#2e7d32"), ("lower (H0)", lower, "#c62828")):
        parts.append(
            f'<line class="bound" x1="{left}" x2="{width - right}" y1="{y(v):.1f}" '
            f'y2="{y(v):.1f}" stroke="{color}" stroke-dasharray="6 4" stroke-width="2"/>'
            f'<text x="{width - right + 4}" y="{y(v) + 4:.1f}" font-size="11" '
            f'fill="{color}">{name} {v:.2f}</text>'
        )
    parts.append(
        f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#ccc"/>'
        f'<text x="{left - 4}" y="{y(0) + 4:.1f}" font-size="11" text-anchor="end">0</text>'
        f'<text x="{width - right}" y="{height - 6}" font-size="11" text-anchor="end" '
        f'fill="#666">games: {games}</text>'
    )
    points = [(0.0, 0.0), *((float(g), v) for g, v in history if math.isfinite(v))]
    pts = " ".join(f"{x(g):.1f},{y(v):.1f}" for g, v in points)
    parts.append(
        f'<polyline class="series" fill="none" stroke="#1f77b4" stroke-width="2" points="{pts}"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


LABELS = {
    "exit_code": "exit code",
    "test": "test",
    "llr": "log-likelihood ratio",
    "lower": "lower bound (accept H0)",
    "upper": "upper bound (accept H1)",
    "elo0": "H0: Elo difference",
    "elo1": "H1: Elo difference",
    "alpha": "alpha (false pass)",
    "beta": "beta (false fail)",
    "max_games": "most games",
    "mean": "mean score of the candidate",
    "elo": "Elo difference",
    "confidence": "confidence of the intervals",
    "pentanomial": "game pairs by points (0, 0.5, 1, 1.5, 2)",
    "candidate_faults": "candidate faults",
}
"""Row headings of the summary table (other fields: their name in words)."""

SKIP = frozenset({"status", "mean_low", "mean_high", "elo_low", "elo_high"})
"""Fields shown with another row (the intervals) or in the heading."""


def number(value: float, digits: int = 3) -> str:
    """A float for people: ``digits`` significant digits, integers as integers,
    infinities as ``∞``/``-∞``, ``nan`` as ``n/a``."""
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"


def show(value: Any) -> str:
    """A summary value in words: numbers rounded, lists and mappings without JSON."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "—"}[value]
    if isinstance(value, float):
        return number(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {show(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value) or "none"
    return str(value)


def summary_rows(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """``(heading, value)`` rows of the summary table, intervals folded into their
    estimate (``mean 0.52 [0.47, 0.58]``)."""
    rows = []
    for k, v in fields.items():
        if k in SKIP:
            continue
        text = show(v)
        if k in ("mean", "elo") and f"{k}_low" in fields:
            text += f" [{show(fields[k + '_low'])}, {show(fields[k + '_high'])}]"
        rows.append((LABELS.get(k, k.replace("_", " ")), text))
    return rows


def render_regress_page(summary: Any, history: Sequence[tuple[int, float]]) -> str:
    """The page of a finished regress run: ``summary`` is its
    :class:`referee.regress.run.RegressSummary`, ``history`` ``(games, LLR)`` after each block.
    """
    fields = dataclasses.asdict(summary)
    status = fields["status"]
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in summary_rows(fields))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>regress {_e(fields['game'])}</title><style>{CSS}</style></head><body>"
        f"<header><h1>regress {_e(fields['game'])}: {fields['seats']} seats, "
        f"{_e(fields['mode'])}</h1></header>"
        f'<section><h2>Result: <span class="{_e(status)}">{_e(status)}</span> after '
        f"{fields['games']} games (max {fields['max_games']}); LLR {fields['llr']:.3f} in "
        f"[{fields['lower']:.3f}, {fields['upper']:.3f}]</h2>"
        f"{llr_chart(history, fields['lower'], fields['upper'])}</section>"
        f"<section><h2>Summary</h2><table>{rows}</table></section></body></html>"
    )
