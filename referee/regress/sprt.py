"""Sequential probability ratio tests for regression gates (pure statistics).

Nothing here plays games; :mod:`referee.regress.run` feeds these tests one paired
outcome per block.  Units: Elo are logistic Elo points (400 points = odds of 10:1);
scores are expected points per game in ``[0, 1]`` (win 1, draw 1/2, loss 0); an LLR
is a natural-log likelihood ratio.

Two tests share one interface (:class:`SequentialTest`):

* :class:`PentanomialSPRT` – two players head to head.  A block is a pair of games
  on one seed with the colours swapped; its outcome is the candidate's pair score
  ``0, 1/2, 1, 3/2, 2``, i.e. ``x = pair score / 2`` in ``{0, 1/4, 1/2, 3/4, 1}``.
  Under hypothesis ``H_k`` the mean of ``x`` is ``score_from_elo(elo_k)``; the LLR
  is the generalised (profile-likelihood) LLR of the pentanomial counts, see
  :func:`multinomial_llr`.
* :class:`NormalGSPRT` – any bounded paired statistic ``d`` (used for 3-5 players,
  and for two players against a field).  Under ``H_k`` the mean of ``d`` is
  ``mu_k``; the LLR is the normal approximation with the variance estimated from the
  data, see :func:`normal_llr`.

Both stop at Wald's bounds: accept ``H1`` once ``LLR >= log((1 - beta) / alpha)``,
accept ``H0`` once ``LLR <= log(beta / (1 - alpha))`` (:func:`sprt_bounds`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal, Protocol

#: Logistic Elo scale: a difference of ``ELO_SCALE`` points is odds of 10 to 1.
ELO_SCALE = 400.0

#: The five possible values of ``x = pair score / 2`` in a head-to-head pair.
PENTA_POINTS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)

#: The weight given to an empty pentanomial cell so the constrained MLE always exists.
REGULARIZE_EPSILON = 1e-3

Decision = Literal["H0", "H1"]


# -- Elo and scores ---------------------------------------------------------------


def score_from_elo(elo: float) -> float:
    """Expected score per game of a player ``elo`` points stronger: ``1/(1+10^(-elo/400))``.

    ``elo`` may be ``±inf`` (score 1 or 0).
    """
    if elo == math.inf:
        return 1.0
    if elo == -math.inf:
        return 0.0
    return 1.0 / (1.0 + 10.0 ** (-elo / ELO_SCALE))


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score``: ``-400 log10(1/score - 1)``.

    Returns ``-inf`` for 0 and ``+inf`` for 1.  Raises ``ValueError`` outside ``[0, 1]``.
    """
    if not 0.0 <= score <= 1.0 or math.isnan(score):
        raise ValueError(f"a score must lie in [0, 1], got {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 0.0 - ELO_SCALE * math.log10(1.0 / score - 1.0)  # 0.0 -: no negative zero


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds ``(lower, upper) = (log(beta/(1-alpha)), log((1-beta)/alpha))``.

    ``alpha`` is the probability of accepting H1 when H0 holds, ``beta`` of accepting
    H0 when H1 holds.  Raises ``ValueError`` unless ``0 < alpha``, ``0 < beta`` and
    ``alpha + beta < 1``.
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta and alpha + beta < 1 (got {alpha}, {beta})")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


# -- likelihood ratios ------------------------------------------------------------


def constrained_mle(points: Sequence[float], weights: Sequence[float], mean: float) -> list[float]:
    """The multinomial on ``points`` closest to the data that has the given ``mean``.

    Maximises ``sum_i w_i log p_i`` subject to ``sum p_i = 1`` and
    ``sum p_i x_i = mean``.  The Lagrange conditions give
    ``p_i = q_i / (1 + lam (x_i - mean))`` with ``q_i = w_i / sum w`` and ``lam`` the
    root of ``f(lam) = sum q_i (x_i - mean) / (1 + lam (x_i - mean))``, which is
    strictly decreasing on the interval where every denominator is positive; it is
    found by safeguarded Newton iteration.  Points of zero weight get ``p_i = 0``.

    Returns the probabilities, in the order of ``points``.  Raises ``ValueError``
    unless ``mean`` lies strictly between the smallest and largest point of positive
    weight (no distribution on the observed support has that mean otherwise).
    """
    if len(points) != len(weights):
        raise ValueError("points and weights differ in length")
    total = sum(weights)
    if total <= 0 or any(w < 0 for w in weights):
        raise ValueError("weights must be non-negative with a positive sum")
    q = [w / total for w in weights]
    support = [x for x, qi in zip(points, q, strict=True) if qi > 0]
    lo_x, hi_x = min(support), max(support)
    if not lo_x < mean < hi_x:
        raise ValueError(f"mean {mean} is not strictly inside the observed range [{lo_x}, {hi_x}]")
    dev = [x - mean for x in points]
    # 1 + lam * d > 0 for every observed d:  -1/(hi_x - mean) < lam < 1/(mean - lo_x).
    lo, hi = -1.0 / (hi_x - mean), 1.0 / (mean - lo_x)
    lam = 0.0
    for _ in range(200):
        f = 0.0
        df = 0.0
        for qi, d in zip(q, dev, strict=True):
            if qi > 0:
                t = d / (1.0 + lam * d)
                f += qi * t
                df -= qi * t * t
        if abs(f) < 1e-15:
            break
        if f > 0:
            lo = lam
        else:
            hi = lam
        step = lam - f / df
        lam = step if lo < step < hi else 0.5 * (lo + hi)
        if hi - lo < 1e-15 * max(1.0, abs(lam)):
            break
    return [qi / (1.0 + lam * d) if qi > 0 else 0.0 for qi, d in zip(q, dev, strict=True)]


def multinomial_llr(
    points: Sequence[float], counts: Sequence[float], mean0: float, mean1: float
) -> float:
    """Generalised LLR of ``mean = mean1`` against ``mean = mean0`` for multinomial counts.

    ``counts[i]`` outcomes took the value ``points[i]``.  Under each hypothesis the
    distribution is the :func:`constrained_mle` with that mean, so
    ``LLR = sum_i n_i log(p1_i / p0_i)``.  This is the statistic of the pentanomial
    SPRT of Michel Van den Bergh (used by Fishtest).  Raises ``ValueError`` as
    :func:`constrained_mle` does.
    """
    p0 = constrained_mle(points, counts, mean0)
    p1 = constrained_mle(points, counts, mean1)
    return sum(n * math.log(b / a) for n, a, b in zip(counts, p0, p1, strict=True) if n > 0)


def regularize(counts: Sequence[float], epsilon: float = REGULARIZE_EPSILON) -> list[float]:
    """``counts`` with every zero replaced by ``epsilon`` (so the MLE always exists)."""
    return [float(n) if n > 0 else epsilon for n in counts]


def pentanomial_llr(
    counts: Sequence[float], elo0: float, elo1: float, *, regularized: bool = True
) -> float:
    """LLR of ``H1: elo = elo1`` against ``H0: elo = elo0`` for pentanomial ``counts``.

    ``counts[k]`` is the number of pairs in which the candidate scored ``k/2`` points
    (``k = 0..4``).  Elo map to the mean of ``x = pair score / 2`` by
    :func:`score_from_elo`.  With ``regularized`` (the default) empty cells count
    :data:`REGULARIZE_EPSILON` pairs.  Raises ``ValueError`` for a wrong number of
    counts, or (unregularised) when a mean falls outside the observed outcomes.
    """
    if len(counts) != 5:
        raise ValueError(f"a pentanomial has 5 counts, got {len(counts)}")
    data = regularize(counts) if regularized else [float(n) for n in counts]
    return multinomial_llr(PENTA_POINTS, data, score_from_elo(elo0), score_from_elo(elo1))


def normal_llr(n: float, mean: float, var: float, mu0: float, mu1: float) -> float:
    """LLR of ``N(mu1, var)`` against ``N(mu0, var)`` for ``n`` samples with sample ``mean``.

    ``LLR = n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 var)``: the sum over samples of
    ``((d - mu0)^2 - (d - mu1)^2) / (2 var)``, which depends on the data only through
    their mean.  Raises ``ValueError`` unless ``var > 0``.
    """
    if not var > 0:
        raise ValueError(f"the variance must be positive, got {var}")
    return n * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * var)


# -- estimates --------------------------------------------------------------------


@dataclass(frozen=True)
class EloEstimate:
    """A point estimate and a two-sided confidence interval, in Elo and on the test's scale.

    ``mean``/``low``/``high`` are on the statistic's own scale (a score per game for
    the pentanomial, the mean paired difference for :class:`NormalGSPRT`); ``elo``/
    ``elo_low``/``elo_high`` are the same numbers mapped to Elo (``±inf`` at the
    edges of the scale).  ``confidence`` is e.g. 0.95.
    """

    mean: float
    low: float
    high: float
    elo: float
    elo_low: float
    elo_high: float
    confidence: float


def _interval(
    n: float, mean: float, var: float, confidence: float, lo: float, hi: float
) -> tuple[float, float]:
    """``mean ± z sqrt(var / n)`` clipped to ``[lo, hi]``; the whole range if ``n < 2``."""
    if n < 2:
        return lo, hi
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    half = z * math.sqrt(max(var, 0.0) / n)
    return max(lo, mean - half), min(hi, mean + half)


# -- sequential tests -------------------------------------------------------------


class SequentialTest(Protocol):
    """What :mod:`referee.regress.run` needs from a test: feed blocks, read the LLR."""

    lower: float
    upper: float

    def add(self, value: float) -> None: ...

    @property
    def blocks(self) -> int: ...

    def llr(self) -> float: ...

    def decision(self) -> Decision | None: ...

    def estimate(self, confidence: float = 0.95) -> EloEstimate: ...


class PentanomialSPRT:
    """Head-to-head SPRT of ``H0: elo = elo0`` against ``H1: elo = elo1`` (``elo0 < elo1``).

    Feed :meth:`add` the candidate's pair score of each block (0, 0.5, 1, 1.5 or 2).
    Raises ``ValueError`` for ``elo0 >= elo1`` or bad ``alpha``/``beta``.
    """

    def __init__(self, elo0: float, elo1: float, alpha: float, beta: float) -> None:
        if not elo0 < elo1:
            raise ValueError(f"need elo0 < elo1 (got {elo0}, {elo1})")
        self.elo0, self.elo1 = elo0, elo1
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.counts = [0, 0, 0, 0, 0]

    def add(self, value: float) -> None:
        """Count one pair with pair score ``value``; raises ``ValueError`` for other values."""
        k = round(value * 2)
        if not (0 <= k <= 4 and math.isclose(k / 2, value)):
            raise ValueError(f"a pair score is 0, 0.5, 1, 1.5 or 2, not {value}")
        self.counts[k] += 1

    @property
    def blocks(self) -> int:
        return sum(self.counts)

    def llr(self) -> float:
        """The current LLR (0 before the first pair)."""
        if self.blocks == 0:
            return 0.0
        return pentanomial_llr(self.counts, self.elo0, self.elo1)

    def decision(self) -> Decision | None:
        """``"H1"`` / ``"H0"`` once the LLR reaches a bound, else ``None``."""
        llr = self.llr()
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def estimate(self, confidence: float = 0.95) -> EloEstimate:
        """Score per game and Elo with a normal-approximation interval over pairs.

        The variance is that of ``x = pair score / 2`` across pairs, so the interval
        accounts for the correlation of the two games of a pair.
        """
        n = self.blocks
        mean = sum(c * x for c, x in zip(self.counts, PENTA_POINTS, strict=True)) / n if n else 0.5
        var = (
            sum(c * (x - mean) ** 2 for c, x in zip(self.counts, PENTA_POINTS, strict=True))
            / (n - 1)
            if n > 1
            else 0.0
        )
        low, high = _interval(n, mean, var, confidence, 0.0, 1.0)
        return EloEstimate(
            mean,
            low,
            high,
            elo_from_score(mean),
            elo_from_score(low),
            elo_from_score(high),
            confidence,
        )


def paired_mean_from_elo(elo: float) -> float:
    """Expected paired difference of :class:`NormalGSPRT` at ``elo``: ``score_from_elo(elo) - 1/2``.

    The candidate's expected pairwise score against a field as strong as the
    baseline, minus the baseline's own ``1/2`` (see docs/regress.md).
    """
    return score_from_elo(elo) - 0.5


def elo_from_paired_mean(mean: float) -> float:
    """Inverse of :func:`paired_mean_from_elo` (``±inf`` outside ``(-1/2, 1/2)``)."""
    if mean <= -0.5:
        return -math.inf
    if mean >= 0.5:
        return math.inf
    return elo_from_score(mean + 0.5)


class NormalGSPRT:
    """SPRT on the mean of a bounded paired statistic ``d`` in ``[lo, hi]``.

    ``H0: E[d] = mu0`` against ``H1: E[d] = mu1`` with ``mu_k = paired_mean_from_elo(
    elo_k)``.  The LLR is :func:`normal_llr` with the sample mean and the sample
    variance (``1/n`` form, the MLE) of the data plus ``prior_weight`` pseudo-blocks
    split equally between ``lo`` and ``hi``: half a best and half a worst outcome, so
    the variance is never zero and early estimates lean towards the middle of the
    range (conservative).  Raises ``ValueError`` for ``elo0 >= elo1``, bad error
    rates, or ``lo >= hi``.
    """

    def __init__(
        self,
        elo0: float,
        elo1: float,
        alpha: float,
        beta: float,
        *,
        lo: float = -1.0,
        hi: float = 1.0,
        prior_weight: float = 1.0,
    ) -> None:
        if not elo0 < elo1:
            raise ValueError(f"need elo0 < elo1 (got {elo0}, {elo1})")
        if not lo < hi:
            raise ValueError(f"need lo < hi (got {lo}, {hi})")
        self.elo0, self.elo1 = elo0, elo1
        self.mu0, self.mu1 = paired_mean_from_elo(elo0), paired_mean_from_elo(elo1)
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.lo, self.hi = lo, hi
        self.prior_weight = prior_weight
        self.n = 0
        self.total = 0.0
        self.total_sq = 0.0

    def add(self, value: float) -> None:
        """Add one block's statistic; raises ``ValueError`` outside ``[lo, hi]``."""
        if not self.lo <= value <= self.hi:
            raise ValueError(f"statistic {value} outside [{self.lo}, {self.hi}]")
        self.n += 1
        self.total += value
        self.total_sq += value * value

    @property
    def blocks(self) -> int:
        return self.n

    def moments(self) -> tuple[float, float, float]:
        """``(weight, mean, variance)`` of the data plus the pseudo-blocks (variance 1/n form)."""
        w = self.n + self.prior_weight
        half = self.prior_weight / 2.0
        s = self.total + half * (self.lo + self.hi)
        ss = self.total_sq + half * (self.lo**2 + self.hi**2)
        if w <= 0:
            return 0.0, 0.0, 0.0
        mean = s / w
        return w, mean, max(ss / w - mean * mean, 0.0)

    def llr(self) -> float:
        """The current LLR (0 before the first block, or while the variance is 0)."""
        if self.n == 0:
            return 0.0
        w, mean, var = self.moments()
        if var <= 0:
            return 0.0
        return normal_llr(w, mean, var, self.mu0, self.mu1)

    def decision(self) -> Decision | None:
        """``"H1"`` / ``"H0"`` once the LLR reaches a bound, else ``None``."""
        llr = self.llr()
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def estimate(self, confidence: float = 0.95) -> EloEstimate:
        """Mean paired difference (raw data, no pseudo-blocks) and its Elo, with interval."""
        n = self.n
        mean = self.total / n if n else 0.0
        var = (self.total_sq - n * mean * mean) / (n - 1) if n > 1 else 0.0
        low, high = _interval(n, mean, var, confidence, self.lo, self.hi)
        return EloEstimate(
            mean,
            low,
            high,
            elo_from_paired_mean(mean),
            elo_from_paired_mean(low),
            elo_from_paired_mean(high),
            confidence,
        )
