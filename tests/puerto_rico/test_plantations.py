"""The plantation stack as counts: sampled draws always apply, and tiles are conserved."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.engine import InvalidChance
from referee.games.puerto_rico.plantations import (
    apply_display,
    apply_one,
    count,
    display_draw_size,
    sample_display,
    sample_one,
)

piles = st.lists(st.integers(0, 4), min_size=5, max_size=5)


@settings(max_examples=60, deadline=None)
@given(stack=piles, discard=piles, face_up=st.integers(3, 6), seed=st.integers(0, 999))
def test_sampled_display_draws_apply_and_conserve_tiles(
    stack: list[int], discard: list[int], face_up: int, seed: int
) -> None:
    need = display_draw_size(face_up, stack, discard)
    drawn = sample_display(need, stack, discard, random.Random(seed))
    new_stack, new_discard = apply_display(drawn, need, stack, discard)
    for k in range(5):
        assert new_stack[k] + new_discard[k] + count(drawn)[k] == stack[k] + discard[k]
    assert min(new_stack + new_discard) >= 0


@settings(max_examples=30, deadline=None)
@given(stack=piles, discard=piles, seed=st.integers(0, 999))
def test_single_draw_applies(stack: list[int], discard: list[int], seed: int) -> None:
    if sum(stack) + sum(discard) == 0:
        return
    tile = sample_one(stack, discard, random.Random(seed))
    new_stack, new_discard = apply_one(tile, stack, discard)
    assert sum(new_stack) + sum(new_discard) == sum(stack) + sum(discard) - 1


def test_display_draw_must_exhaust_the_stack_before_the_discards() -> None:
    with pytest.raises(InvalidChance):
        apply_display([0, 2], 2, [0, 0, 1, 0, 0], [1, 0, 5, 0, 0])
    assert apply_display([2, 0], 2, [0, 0, 1, 0, 0], [1, 0, 5, 0, 0]) == (
        [0, 0, 5, 0, 0],
        [0] * 5,
    )
