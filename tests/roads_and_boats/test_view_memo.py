"""The memoised Roads & Boats view (referee/games/roads_and_boats/viewmemo.py) gives
exactly the view built afresh, at every decision, for every seat, after clones and
after changes made to the state outside ``apply_action``."""

from __future__ import annotations

import random

import msgspec

from referee.api.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats.state import RBState
from referee.games.roads_and_boats.viewmemo import ViewMemo

encode = msgspec.json.Encoder(order="deterministic").encode


def fresh_view(state: RBState, seat: int) -> bytes:
    """The view of ``seat`` built with an empty memo (everything built anew), encoded."""
    clone = state.clone()
    clone._view_memo = ViewMemo()
    return encode(clone.view(seat))


def test_memoised_view_equals_fresh_view_through_whole_games() -> None:
    options = GAME.parse_options({})
    compared = rebuilt_parts = 0
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        rng = random.Random(seed)
        state = GAME.new_game(seats, options)
        while (seat := state.to_move()) != TERMINAL:
            if seat == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            before = state.view(seat)
            # Every seat, twice (the second view reuses everything), matches afresh.
            for viewer in (seat, *range(seats), seat):
                assert encode(state.view(viewer)) == fresh_view(state, viewer)
                compared += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            after = state.view(state.to_move() if state.to_move() >= 0 else 0)
            rebuilt_parts += after.transporters is not before.transporters
    assert compared > 1000
    assert rebuilt_parts > 0  # the memo really rebuilt parts that changed


def test_views_already_returned_do_not_change_later() -> None:
    rng = random.Random(4)
    state = GAME.new_game(2, GAME.parse_options({}))
    kept: list[tuple[object, bytes]] = []
    while (seat := state.to_move()) != TERMINAL and len(kept) < 400:
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        view = state.view(seat)
        kept.append((view, encode(view)))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert all(encode(view) == data for view, data in kept)


def test_changes_made_outside_apply_action_show_in_the_next_view() -> None:
    rng = random.Random(5)
    state = GAME.new_game(2, GAME.parse_options({}))
    while state.to_move() == CHANCE or not state.trans or not state.buildings:
        seat = state.to_move()
        if seat == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    seat = max(state.to_move(), 0)
    state.view(seat)
    transporter = next(iter(state.trans.values()))
    transporter.cargo.append(0)  # in place: the same list object
    hex_, building = next(iter(state.buildings.items()))
    building[3] += 1
    state.piles.setdefault(transporter.place, []).append(1)
    state.research[0] |= 1
    view = state.view(seat)
    assert encode(view) == fresh_view(state, seat)
    shown = next(t for t in view.transporters if t.id == transporter.id)
    assert shown.cargo == transporter.cargo
    assert next(b for b in view.buildings if b.hex == hex_).used == building[3]
