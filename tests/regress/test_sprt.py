"""The statistics of ``referee regress``: known values and simulations with a known truth."""

from __future__ import annotations

import math
import random

import pytest

from referee.regress.sprt import (
    PENTA_POINTS,
    NormalGSPRT,
    PentanomialSPRT,
    constrained_mle,
    elo_from_paired_mean,
    elo_from_score,
    multinomial_llr,
    normal_llr,
    paired_mean_from_elo,
    pentanomial_llr,
    score_from_elo,
    sprt_bounds,
)

# -- conversions and bounds -------------------------------------------------------


def test_elo_score_known_values() -> None:
    assert score_from_elo(0) == 0.5
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert score_from_elo(-400) == pytest.approx(1 / 11)
    # 3:1 odds is 400 log10(3) = 190.8485... Elo
    assert elo_from_score(0.75) == pytest.approx(190.848501887865)
    assert elo_from_score(0.5) == 0.0 and math.copysign(1, elo_from_score(0.5)) == 1
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf
    assert score_from_elo(math.inf) == 1.0 and score_from_elo(-math.inf) == 0.0
    for elo in (-700.0, -35.5, 0.0, 12.25, 300.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)
    with pytest.raises(ValueError):
        elo_from_score(1.5)


def test_paired_mean_mapping() -> None:
    assert paired_mean_from_elo(0) == 0.0
    assert paired_mean_from_elo(400) == pytest.approx(10 / 11 - 0.5)
    assert elo_from_paired_mean(paired_mean_from_elo(-50)) == pytest.approx(-50)
    assert elo_from_paired_mean(-0.5) == -math.inf and elo_from_paired_mean(0.7) == math.inf


def test_wald_bounds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))
    lower, upper = sprt_bounds(0.01, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.99))
    assert upper == pytest.approx(math.log(0.9 / 0.01))
    for bad in ((0.0, 0.1), (0.6, 0.5), (0.1, -0.1)):
        with pytest.raises(ValueError):
            sprt_bounds(*bad)


# -- likelihood ratios against hand computations ----------------------------------


def test_pentanomial_llr_on_two_outcomes_is_bernoulli() -> None:
    # Only pair scores 0 and 2 observed: the constrained MLE is Bernoulli(s) on x in {0, 1},
    # so LLR = n1 log(s1/s0) + n0 log((1-s1)/(1-s0)).
    s0, s1 = score_from_elo(-20), 0.5  # s0 = 1/(1 + 10^0.05) = 0.4712494...
    assert s0 == pytest.approx(0.4712494361077314)
    hand = 14 * math.log(0.5 / 0.4712494361077314) + 10 * math.log(0.5 / 0.5287505638922686)
    assert hand == pytest.approx(0.2700008)
    llr = pentanomial_llr([10, 0, 0, 0, 14], -20, 0, regularized=False)
    assert llr == pytest.approx(hand, rel=1e-9)
    assert s1 == score_from_elo(0)


def test_pentanomial_llr_on_quarter_points() -> None:
    # Only x = 1/4 (5 pairs) and x = 3/4 (3 pairs): the MLE with mean m puts
    # p = (m - 1/4) / (1/2) on 3/4.  s0 = 0.47125 -> p0 = 0.44250, s1 = 1/2 -> p1 = 1/2.
    p0, p1 = (0.4712494361077314 - 0.25) / 0.5, 0.5
    hand = 3 * math.log(p1 / p0) + 5 * math.log((1 - p1) / (1 - p0))
    assert hand == pytest.approx(-0.1777716)
    assert pentanomial_llr([0, 5, 0, 3, 0], -20, 0, regularized=False) == pytest.approx(hand)


def test_constrained_mle_meets_its_constraints() -> None:
    counts = [3.0, 7.0, 20.0, 9.0, 1.0]
    for mean in (0.3, 0.47, 0.5, 0.62):
        p = constrained_mle(PENTA_POINTS, counts, mean)
        assert sum(p) == pytest.approx(1.0)
        assert sum(pi * x for pi, x in zip(p, PENTA_POINTS, strict=True)) == pytest.approx(mean)
        # Stationarity: n_i / p_i = N (1 + lam (x_i - mean)) is affine in x_i.
        ratios = [n / pi for n, pi in zip(counts, p, strict=True)]
        slopes = {round((ratios[i + 1] - ratios[i]) / 0.25, 6) for i in range(4)}
        assert len(slopes) == 1
    # The unconstrained MLE (mean = sample mean) is the empirical distribution.
    sample_mean = sum(n * x for n, x in zip(counts, PENTA_POINTS, strict=True)) / sum(counts)
    p = constrained_mle(PENTA_POINTS, counts, sample_mean)
    assert p == pytest.approx([n / sum(counts) for n in counts])
    with pytest.raises(ValueError):
        constrained_mle(PENTA_POINTS, [0, 5, 5, 0, 0], 0.6)  # outside [1/4, 1/2]


def test_llr_is_antisymmetric_and_zero_at_equal_hypotheses() -> None:
    counts = [2.0, 5.0, 11.0, 6.0, 1.0]
    forward = multinomial_llr(PENTA_POINTS, counts, 0.45, 0.5)
    assert multinomial_llr(PENTA_POINTS, counts, 0.5, 0.45) == pytest.approx(-forward)
    assert multinomial_llr(PENTA_POINTS, counts, 0.48, 0.48) == 0.0


def test_regularised_pentanomial_agrees_with_normal_approximation() -> None:
    # Many pairs, close hypotheses: the profile LLR and the normal one coincide.
    counts = [400, 2200, 4600, 2300, 500]
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PENTA_POINTS, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PENTA_POINTS, strict=True)) / n
    exact = pentanomial_llr(counts, -5, 0)
    approx = normal_llr(n, mean, var, score_from_elo(-5), score_from_elo(0))
    assert exact == pytest.approx(approx, rel=0.02)
    assert exact > 2  # the data favour 0 over -5 Elo


def test_normal_llr_by_hand() -> None:
    # d = [1, 0, -1, 0.5]: mean 0.125, variance (1 + 0 + 1 + 0.25)/4 - 0.125^2 = 0.546875.
    # mu0 = score(-40) - 1/2 = 0.4426884 - 0.5 = -0.0573116, mu1 = 0.
    # LLR = 4 * (0 + 0.0573116) * (0.25 + 0.0573116) / (2 * 0.546875) = 0.0644115
    test = NormalGSPRT(-40, 0, 0.05, 0.05, prior_weight=0.0)
    for d in (1, 0, -1, 0.5):
        test.add(d)
    assert test.moments() == pytest.approx((4, 0.125, 0.546875))
    assert test.llr() == pytest.approx(0.0644115, abs=1e-7)
    assert normal_llr(4, 0.125, 0.546875, -0.0573116, 0.0) == pytest.approx(0.0644115, abs=1e-6)
    with pytest.raises(ValueError):
        normal_llr(4, 0.0, 0.0, -0.1, 0.0)


def test_normal_gsprt_prior_pseudo_blocks() -> None:
    # Two blocks of d = 0 plus half a block at -1 and half at +1:
    # weight 3, mean 0, variance (0.5 + 0.5) / 3 = 1/3.
    test = NormalGSPRT(-40, 0, 0.05, 0.05)
    test.add(0.0)
    test.add(0.0)
    assert test.moments() == pytest.approx((3, 0.0, 1 / 3))
    mu0 = score_from_elo(-40) - 0.5
    assert test.llr() == pytest.approx(3 * (-mu0) * (-mu0) / (2 / 3))
    with pytest.raises(ValueError):
        test.add(1.5)


# -- estimates --------------------------------------------------------------------


def test_pentanomial_estimate_interval() -> None:
    test = PentanomialSPRT(-20, 0, 0.05, 0.05)
    for score, n in ((0.0, 10), (1.0, 60), (2.0, 30)):
        for _ in range(n):
            test.add(score)
    est = test.estimate(0.95)
    # x = pair/2: 0 (10), 0.5 (60), 1 (30); mean 0.6; var = (10*0.36 + 60*0.01 + 30*0.16)/99
    assert est.mean == pytest.approx(0.6)
    half = 1.959964 * math.sqrt((3.6 + 0.6 + 4.8) / 99 / 100)
    assert (est.low, est.high) == pytest.approx((0.6 - half, 0.6 + half), abs=1e-6)
    assert est.elo == pytest.approx(400 * math.log10(1.5))
    assert est.elo_low < est.elo < est.elo_high
    assert est.elo_low == pytest.approx(elo_from_score(0.6 - half))


def test_normal_estimate_uses_raw_data() -> None:
    test = NormalGSPRT(-20, 0, 0.05, 0.05)
    for d in (0.5, 0.0, 0.5, 0.0):
        test.add(d)
    est = test.estimate(0.9)
    assert est.mean == 0.25
    assert est.elo == pytest.approx(elo_from_score(0.75))
    half = 1.644854 * math.sqrt((4 * 0.0625) / 3 / 4)
    assert est.high == pytest.approx(0.25 + half, abs=1e-6)


def test_pair_scores_are_validated() -> None:
    test = PentanomialSPRT(-20, 0, 0.05, 0.05)
    with pytest.raises(ValueError):
        test.add(0.3)
    with pytest.raises(ValueError):
        test.add(2.5)
    with pytest.raises(ValueError):
        PentanomialSPRT(0, 0, 0.05, 0.05)
    assert test.llr() == 0.0 and test.decision() is None


# -- simulations with a known truth -----------------------------------------------

ELO0, ELO1, ALPHA, BETA = -40.0, 0.0, 0.05, 0.05
RUNS = 200
MAX_BLOCKS = 20_000


def pentanomial_probabilities(elo: float, draw: float = 0.2, luck: float = 0.3) -> list[float]:
    """Pair-score probabilities with per-game expected score ``score_from_elo(elo)``.

    With probability ``luck`` the seed decides the pair (each side wins once: pair
    score 1); otherwise two independent games with draw rate ``draw`` and the score
    that keeps the overall mean at ``score_from_elo(elo)``.
    """
    s = (score_from_elo(elo) - 0.5 * luck) / (1 - luck)
    game = [1 - s - draw / 2, draw, s - draw / 2]  # loss, draw, win
    p = [0.0] * 5
    for i in range(3):
        for j in range(3):
            p[i + j] += (1 - luck) * game[i] * game[j]
    p[2] += luck
    return p


def test_simulated_pentanomial_has_the_requested_mean() -> None:
    for elo in (-40.0, 0.0, 25.0):
        p = pentanomial_probabilities(elo)
        assert sum(p) == pytest.approx(1.0) and min(p) > 0
        assert sum(pi * x for pi, x in zip(p, PENTA_POINTS, strict=True)) == pytest.approx(
            score_from_elo(elo)
        )


def run_pentanomial(rng: random.Random, elo: float) -> str | None:
    p = pentanomial_probabilities(elo)
    test = PentanomialSPRT(ELO0, ELO1, ALPHA, BETA)
    while test.blocks < MAX_BLOCKS:
        test.add(rng.choices(range(5), p)[0] / 2)
        if (decision := test.decision()) is not None:
            return decision
    return None


@pytest.mark.parametrize(
    ("truth", "wrong", "limit"),
    [(ELO0, "H1", ALPHA), (ELO1, "H0", BETA), (40.0, "H0", 0.0), (-80.0, "H1", 0.0)],
)
def test_pentanomial_sprt_error_rates(truth: float, wrong: str, limit: float) -> None:
    rng = random.Random(20240611 + int(truth))
    decisions = [run_pentanomial(rng, truth) for _ in range(RUNS)]
    assert None not in decisions
    errors = decisions.count(wrong) / RUNS
    # Wald's SPRT keeps the error at a hypothesis near the nominal rate (slightly under,
    # overshoot); 200 runs give a standard error of about 0.015 at 0.05.
    assert errors <= limit + 0.04, errors
    if limit:
        assert errors >= 0.01  # the test is not degenerate: errors do happen at the boundary


GUMBEL_SCALE = 400 / math.log(10)


def gumbel(rng: random.Random) -> float:
    return -GUMBEL_SCALE * math.log(-math.log(rng.random()))


def paired_difference(rng: random.Random, elo: float, seats: int = 3, luck: float = 0.5) -> float:
    """One block of a ``seats``-player game with a known truth.

    Performance = strength + Gumbel noise with scale 400/ln 10, so any two players
    meet with the logistic Elo probability exactly.  Game A: the candidate
    (strength ``elo``) in seat 0 against baselines (strength 0); game B: all
    baselines.  With probability ``luck`` game B repeats game A's noise (same seed,
    same luck), otherwise it is independent.  Returns u_A(seat 0) - u_B(seat 0), so
    E[d] = score_from_elo(elo) - 1/2 exactly.
    """
    noise_a = [gumbel(rng) for _ in range(seats)]
    noise_b = noise_a if rng.random() < luck else [gumbel(rng) for _ in range(seats)]
    perf_a = [noise_a[0] + elo, *noise_a[1:]]

    def u(perf: list[float]) -> float:
        return sum(perf[0] > p for p in perf[1:]) / (seats - 1)

    return u(perf_a) - u(noise_b)


def test_simulated_paired_difference_has_the_mapped_mean() -> None:
    rng = random.Random(7)
    n = 40_000
    mean = sum(paired_difference(rng, 100.0) for _ in range(n)) / n
    assert mean == pytest.approx(paired_mean_from_elo(100.0), abs=0.01)


def run_normal(rng: random.Random, elo: float) -> str | None:
    test = NormalGSPRT(ELO0, ELO1, ALPHA, BETA)
    while test.blocks < MAX_BLOCKS:
        test.add(paired_difference(rng, elo))
        if (decision := test.decision()) is not None:
            return decision
    return None


@pytest.mark.parametrize(
    ("truth", "wrong", "limit"),
    [(ELO0, "H1", ALPHA), (ELO1, "H0", BETA), (40.0, "H0", 0.0)],
)
def test_normal_gsprt_error_rates(truth: float, wrong: str, limit: float) -> None:
    rng = random.Random(99 + int(truth))
    decisions = [run_normal(rng, truth) for _ in range(RUNS)]
    assert None not in decisions
    errors = decisions.count(wrong) / RUNS
    assert errors <= limit + 0.04, errors
    if limit:
        assert errors >= 0.01
