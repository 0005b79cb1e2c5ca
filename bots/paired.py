"""The choice among candidates compared by paired playouts: the search bot's flat
simulations in Manila (``search_bot.py``), Navegador (``search_navegador.py``) and
Roads & Boats (``search_roads_and_boats.py``).

Every sample plays all candidates with the same chance (one determinization and
one stream of dice, tiles or mine draws), so the difference between two candidates
in one sample measures the candidates, not the luck.
"""

from __future__ import annotations

import math


def pick(values: list[list[float]], guide: int = 0, z: float = 1.0, min_gain: float = 0.0) -> int:
    """The index of the candidate to play.

    ``values[k][i]`` is candidate ``k``'s outcome in sample ``i`` (in the game's
    units: pesos, VP, wealth points), every list of the same length; ``guide`` is
    the index of the guide's own choice.  The candidate with the best mean paired
    gain over the guide's is played if that gain exceeds ``min_gain`` and ``z``
    standard errors of the paired differences (with one sample the error is 0);
    otherwise, and without samples, the guide's.
    """
    n = len(values[guide])
    if n == 0:
        return guide
    best, best_gain = guide, min_gain
    for k, outcomes in enumerate(values):
        if k == guide:
            continue
        diffs = [a - b for a, b in zip(outcomes, values[guide], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if mean > best_gain and mean > z * math.sqrt(var / n):
            best, best_gain = k, mean
    return best
