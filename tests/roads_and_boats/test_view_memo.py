"""The memoised Roads & Boats view (referee/games/roads_and_boats/viewmemo.py) gives
exactly the view built afresh, at every decision, for every seat, after clones and
after changes made to the state outside ``apply_action``."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState, Transporter
from referee.games.roads_and_boats.viewmemo import ViewMemo

encode = msgspec.json.Encoder(order="deterministic").encode


def fresh_view(state: RBState, seat: int) -> bytes:
    """The view of ``seat`` built with an empty memo (everything built anew), encoded."""
    clone = state.clone()
    clone._view_memo = ViewMemo()
    return encode(clone.view(seat))


def _play_until(state: RBState, rng: random.Random, done: Callable[[], bool]) -> None:
    """Random moves (and chance outcomes) until a seat is to decide and ``done()``."""
    while state.to_move() == CHANCE or not done():
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


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
    state = GAME.new_game(2, GAME.parse_options({}))
    _play_until(state, random.Random(5), lambda: bool(state.trans and state.buildings))
    seat = max(state.to_move(), 0)
    state.view(seat)
    transporter = next(iter(state.trans.values()))
    transporter.cargo = [*transporter.cargo, 0]  # type: ignore[assignment]  # a list: made a tuple
    hex_, building = next(iter(state.buildings.items()))
    building[3] += 1
    state.piles.setdefault(transporter.place, []).append(1)
    state.research[0] |= 1
    view = state.view(seat)
    assert encode(view) == fresh_view(state, seat)
    shown = next(t for t in view.transporters if t.id == transporter.id)
    assert shown.cargo == list(transporter.cargo)
    assert next(b for b in view.buildings if b.hex == hex_).used == building[3]


def test_clones_sharing_the_memo_each_see_their_own_game() -> None:
    # Clones share the memo and, until one changes, their transporters' stamps; views
    # of two clones going separate ways, interleaved, must each match their own game.
    rng = random.Random(6)
    state = GAME.new_game(3, GAME.parse_options({}))
    _play_until(state, rng, lambda: len(state.trans) >= 3)
    state.view(0)  # the memo is made at the first view, then shared by clones
    games = [state, state.clone(), state.clone()]
    assert games[1]._view_memo is state._view_memo
    compared = 0
    for _ in range(300):
        for game in games:
            seat = game.to_move()
            if seat == TERMINAL:
                continue
            if seat == CHANCE:
                game.apply_chance(game.sample_chance(rng))
                continue
            assert encode(game.view(seat)) == fresh_view(game, seat)
            compared += 1
            legal = game.legal_actions()
            game.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 600
    views = [encode(game.view(0)) for game in games]
    assert len(set(views)) == 3  # they did go separate ways


def test_every_change_of_a_transporter_gives_it_a_new_stamp() -> None:
    t = Transporter(1, 0, D.DONKEY, 3)
    seen = {t.stamp}
    changes = {"owner": 1, "kind": D.WAGON, "place": 4, "moved": True, "carrier": 5}
    for name, value in [*changes.items(), ("cargo", [2, 3]), ("id", 7)]:
        setattr(t, name, value)
        assert t.stamp not in seen, name
        seen.add(t.stamp)
    # The cargo is kept as a tuple: it cannot change but by assignment.
    assert t.cargo == (2, 3)
    with pytest.raises(AttributeError):
        t.cargo.append(4)  # type: ignore[attr-defined]
    # A copy has the same content, so the same stamp, until either changes.
    copy = t.copy()
    assert type(copy) is Transporter and copy is not t and copy.stamp == t.stamp
    copy.place = 9
    assert copy.stamp not in seen and t.place == 4 and t.stamp in seen
    assert Transporter(2, 0, D.DONKEY, 3).stamp not in seen
