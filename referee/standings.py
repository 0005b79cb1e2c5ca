"""Tables computed from finished matches: standings, pairwise, seat advantage.

Shared wins are split: a seat that ties for rank 1 with ``k - 1`` others gets ``1/k``
of a win.  Ratings use OpenSkill's Plackett-Luce model over finishing orders
(mu, sigma and the ordinal mu - 3 sigma).  Pairwise rates carry 95% Wilson intervals.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from referee.protocol import FAULTS
from referee.resultsdb import MatchRow


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (default 95%); ``(0, 1)`` for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def win_shares(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` seats ranked 1."""
    winners = sum(1 for r in ranks if r == 1)
    return [1.0 / winners if r == 1 else 0.0 for r in ranks]


def ratings(rows: Sequence[MatchRow], names: Sequence[str]) -> dict[str, tuple[float, float]]:
    """OpenSkill Plackett-Luce ``(mu, sigma)`` per bot, rating matches in finishing order.

    A bot that holds several seats of one match is rated on its best-placed seat.
    """
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in names}
    for row in rows:
        best: dict[str, int] = {}
        for bot, rank in zip(row.bots, row.ranks, strict=True):
            best[bot] = min(rank, best.get(bot, rank))
        if len(best) < 2:
            continue
        players = list(best)
        teams = [[current[p]] for p in players]
        new = model.rate(teams, ranks=[float(best[p]) for p in players])
        for p, team in zip(players, new, strict=True):
            current[p] = team[0]
    return {n: (r.mu, r.sigma) for n, r in current.items()}


def standings(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """One row per bot, best first by rating ordinal.

    Columns: bot, games (seats played), wins (shared wins split), win %, mean rank,
    mean score, mu, sigma, ordinal (mu - 3 sigma), faults by verdict, mean and max ms
    per move.
    """
    acc: dict[str, dict[str, Any]] = {
        n: {
            "games": 0,
            "wins": 0.0,
            "rank": 0,
            "score": 0.0,
            "faults": defaultdict(int),
            "moves": 0,
            "ms": 0.0,
            "max_ms": 0.0,
        }
        for n in names
    }
    for row in rows:
        shares = win_shares(row.ranks)
        for seat, bot in enumerate(row.bots):
            a = acc[bot]
            a["games"] += 1
            a["wins"] += shares[seat]
            a["rank"] += row.ranks[seat]
            a["score"] += row.scores[seat]
            if row.verdicts[seat] != "ok":
                a["faults"][row.verdicts[seat]] += 1
            a["moves"] += row.moves[seat]
            a["ms"] += row.total_ms[seat]
            a["max_ms"] = max(a["max_ms"], row.max_ms[seat])
    rated = ratings(rows, names)
    table = []
    for name in names:
        a = acc[name]
        g = a["games"] or 1
        mu, sigma = rated[name]
        faults = ", ".join(f"{v} {a['faults'][v]}" for v in FAULTS if a["faults"].get(v))
        table.append(
            {
                "bot": name,
                "games": a["games"],
                "wins": round(a["wins"], 2),
                "win %": round(100.0 * a["wins"] / g, 1),
                "mean rank": round(a["rank"] / g, 2),
                "mean score": round(a["score"] / g, 1),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "ordinal": round(mu - 3 * sigma, 2),
                "faults": faults or "-",
                "mean ms": round(a["ms"] / a["moves"], 1) if a["moves"] else 0.0,
                "max ms": round(a["max_ms"], 1),
            }
        )
    table.sort(key=lambda r: (-r["ordinal"], -r["win %"], r["bot"]))
    return table


def pairwise_data(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """How often each bot finished ahead of each other bot (ties count half).

    One record per ordered pair that met: ``bot``, ``opponent``, ``ahead %``, the 95%
    Wilson interval ``low %``/``high %``, and ``n`` (seat pairs compared).
    """
    ahead: dict[tuple[str, str], float] = defaultdict(float)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        for i, a in enumerate(row.bots):
            for j, b in enumerate(row.bots):
                if i == j or a == b:
                    continue
                met[a, b] += 1
                if row.ranks[i] < row.ranks[j]:
                    ahead[a, b] += 1.0
                elif row.ranks[i] == row.ranks[j]:
                    ahead[a, b] += 0.5
    out = []
    for a in names:
        for b in names:
            n = met[a, b]
            if a == b or n == 0:
                continue
            lo, hi = wilson_interval(ahead[a, b], n)
            out.append(
                {
                    "bot": a,
                    "opponent": b,
                    "ahead %": round(100 * ahead[a, b] / n, 1),
                    "low %": round(100 * lo, 1),
                    "high %": round(100 * hi, 1),
                    "n": n,
                }
            )
    return out


def pairwise(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """:func:`pairwise_data` as a matrix: cells read ``"62% [55-69] n=120"``."""
    cells = {(r["bot"], r["opponent"]): r for r in pairwise_data(rows, names)}
    table = []
    for a in names:
        line: dict[str, Any] = {"bot": a}
        for b in names:
            r = cells.get((a, b))
            line[b] = (
                "-"
                if r is None
                else f"{r['ahead %']:.0f}% [{r['low %']:.0f}-{r['high %']:.0f}] n={r['n']}"
            )
        table.append(line)
    return table


def seat_advantage(rows: Sequence[MatchRow]) -> list[dict[str, Any]]:
    """Win % (shared wins split) and mean score by seat, over all matches."""
    if not rows:
        return []
    seats = max(len(r.ranks) for r in rows)
    wins = [0.0] * seats
    score = [0.0] * seats
    games = [0] * seats
    for row in rows:
        for seat, share in enumerate(win_shares(row.ranks)):
            wins[seat] += share
            score[seat] += row.scores[seat]
            games[seat] += 1
    return [
        {
            "seat": s,
            "games": games[s],
            "win %": round(100 * wins[s] / games[s], 1) if games[s] else 0.0,
            "mean score": round(score[s] / games[s], 1) if games[s] else 0.0,
        }
        for s in range(seats)
    ]
