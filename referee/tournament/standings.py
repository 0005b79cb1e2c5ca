"""Tables computed from finished matches: standings, pairwise, seat advantage.

Standings and pairwise tables count per match per entrant: a bot that holds several
seats of one match plays one game of it, ranks as its best-placed seat and wins it if
any of its seats ranks 1; ``k`` entrants tied for first get ``1/k`` of a win each.
The seat table counts seats.  Ratings use OpenSkill's Plackett-Luce model over finishing orders
(mu, sigma and the ordinal mu - 3 sigma).  Pairwise rates carry 95% Wilson intervals.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from referee.process.protocol import FAULTS
from referee.tournament.resultsdb import MatchRow


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


def entrant_results(row: MatchRow) -> dict[str, tuple[int, float, float]]:
    """Per entrant of one match: ``(best rank, win share, mean score)``.

    A bot holding several seats is one entrant: it ranks as its best-placed seat,
    it wins the match if any of its seats ranks 1 (``k`` winning entrants split the
    win, ``1/k`` each), and its score is the mean of its seats' scores.
    """
    best: dict[str, int] = {}
    scores: dict[str, list[float]] = defaultdict(list)
    for bot, rank, score in zip(row.bots, row.ranks, row.scores, strict=True):
        best[bot] = min(rank, best.get(bot, rank))
        scores[bot].append(score)
    winners = [bot for bot, rank in best.items() if rank == 1]
    return {
        bot: (
            rank,
            1.0 / len(winners) if bot in winners else 0.0,
            sum(scores[bot]) / len(scores[bot]),
        )
        for bot, rank in best.items()
    }


def standings(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """One row per bot, best first by rating ordinal; every value is a number but ``bot``.

    Counted per match per entrant (see :func:`entrant_results`), so a bot holding
    several seats of a match plays one game of it.  Columns: bot, games (matches
    played), wins (shared wins split), win %, mean rank (of its best seat), mean
    score (of its seats), mu, sigma, ordinal (mu - 3 sigma), seats (seats held,
    summed over matches), faults (faulted seats) and one column per fault verdict,
    mean and max ms per move.  :func:`display_standings` folds the fault columns
    into one text column for people.
    """
    acc: dict[str, dict[str, Any]] = {
        n: {
            "games": 0,
            "seats": 0,
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
        for bot, (rank, share, score) in entrant_results(row).items():
            a = acc[bot]
            a["games"] += 1
            a["wins"] += share
            a["rank"] += rank
            a["score"] += score
        for seat, bot in enumerate(row.bots):
            a = acc[bot]
            a["seats"] += 1
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
        by_verdict: dict[str, int] = {v: a["faults"].get(v, 0) for v in FAULTS}
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
                "seats": a["seats"],
                "faults": sum(a["faults"].values()),
                **by_verdict,
                "mean ms": round(a["ms"] / a["moves"], 1) if a["moves"] else 0.0,
                "max ms": round(a["max_ms"], 1),
            }
        )
    table.sort(key=lambda r: (-r["ordinal"], -r["win %"], r["bot"]))
    return table


def display_standings(table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`standings` for people: the fault columns become one ``faults`` text
    (``"timeout 2, crash 1"`` or ``"-"``), and ``seats`` is dropped when every bot
    held one seat per game."""
    shared = any(r["seats"] != r["games"] for r in table)
    out = []
    for r in table:
        line = {k: v for k, v in r.items() if k not in FAULTS and (shared or k != "seats")}
        line["faults"] = ", ".join(f"{v} {r[v]}" for v in FAULTS if r[v]) or "-"
        out.append(line)
    return out


def pairwise_data(rows: Sequence[MatchRow], names: Sequence[str]) -> list[dict[str, Any]]:
    """How often each bot finished ahead of each other bot (ties count half).

    Counted per match: each bot ranks as its best-placed seat (see
    :func:`entrant_results`), so ``n`` is the number of matches the two bots met in.
    One record per ordered pair that met: ``bot``, ``opponent``, ``ahead %``, the 95%
    Wilson interval ``low %``/``high %``, and ``n``.
    """
    ahead: dict[tuple[str, str], float] = defaultdict(float)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        best = {bot: rank for bot, (rank, _, _) in entrant_results(row).items()}
        for a, rank_a in best.items():
            for b, rank_b in best.items():
                if a == b:
                    continue
                met[a, b] += 1
                if rank_a < rank_b:
                    ahead[a, b] += 1.0
                elif rank_a == rank_b:
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
