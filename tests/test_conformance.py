"""API battery every registered game must pass (in the spirit of PettingZoo's api_test)."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.api.engine import CHANCE, TERMINAL, Game, IllegalAction, InvalidChance
from referee.api.playout import random_playout
from tests.conftest import GAME_SEATS, GAMES

pytestmark = pytest.mark.skipif(not GAMES, reason="no game registered")


def test_game_names_are_cli_names() -> None:
    for name, game in GAMES.items():
        assert name == game.name
        assert name.islower() and " " not in name and "_" not in name
        assert 1 <= game.min_seats <= game.max_seats


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_random_play_is_well_formed(game: Game, seats: int) -> None:
    """Random games end; every view, legal list and action round-trips through JSON."""
    rng = random.Random(f"conformance-{game.name}-{seats}")
    for _ in range(3):
        state = game.new_game(seats, game.parse_options({}))
        plies = 0
        while (seat := state.to_move()) != TERMINAL:
            plies += 1
            assert plies < 200_000, "game does not end"
            if seat == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply_chance(msgspec.json.decode(msgspec.json.encode(outcome)))
                continue
            assert 0 <= seat < seats
            legal = state.legal_actions()
            assert legal, "a decision node with no legal action"
            wire = msgspec.json.encode(legal)
            decoded = [game.decode_action(obj) for obj in msgspec.json.decode(wire)]
            assert decoded == legal
            view = state.view(seat)
            msgspec.json.encode(view)
            state.apply_action(legal[rng.randrange(len(legal))])
        scores, ranks = state.scores(), state.ranks()
        assert len(scores) == len(ranks) == seats
        assert min(ranks) == 1 and max(ranks) <= seats
        for a in range(seats):
            for b in range(seats):
                if scores[a] > scores[b]:
                    assert ranks[a] <= ranks[b]


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_replay_from_history_is_deterministic(game: Game, seats: int) -> None:
    """Re-applying recorded chance outcomes and actions reproduces the same game."""
    played = random_playout(game, seats, random.Random(7), game.parse_options({}), record=True)
    state = game.new_game(seats, game.parse_options({}))
    for who, what in played.history:
        if who == "chance":
            state.apply_chance(msgspec.json.decode(msgspec.json.encode(what)))
        else:
            assert state.to_move() == who
            state.apply_action(game.decode_action(msgspec.to_builtins(what)))
    assert state.is_terminal()
    assert state.scores() == played.state.scores()
    assert state.ranks() == played.state.ranks()


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_clone_is_independent(game: Game, seats: int) -> None:
    rng = random.Random(11)
    state = game.new_game(seats, game.parse_options({}))
    for _ in range(60):
        if state.is_terminal():
            break
        copy = state.clone()
        before = msgspec.json.encode([state.view(s) for s in range(seats)])
        # advance the copy; the original must not change
        if copy.to_move() == CHANCE:
            copy.apply_chance(copy.sample_chance(rng))
        else:
            legal = copy.legal_actions()
            copy.apply_action(legal[rng.randrange(len(legal))])
        assert msgspec.json.encode([state.view(s) for s in range(seats)]) == before
        if state.to_move() == CHANCE:
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("game", "seats"), GAME_SEATS)
def test_wrong_node_kind_raises_typed_errors(game: Game, seats: int) -> None:
    state = game.new_game(seats, game.parse_options({}))
    rng = random.Random(3)
    while state.to_move() == CHANCE:
        state.apply_chance(state.sample_chance(rng))
    with pytest.raises(InvalidChance):
        state.sample_chance(rng)
    while state.to_move() != TERMINAL:
        if state.to_move() == CHANCE:
            with pytest.raises(IllegalAction):
                state.legal_actions()
            state.apply_chance(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    with pytest.raises(IllegalAction):
        state.legal_actions()


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_bad_seat_count_and_options_rejected(game: Game) -> None:
    from referee.api.engine import OptionError

    with pytest.raises(OptionError):
        game.new_game(game.max_seats + 1, game.parse_options({}))
    with pytest.raises(OptionError):
        game.parse_options({"no-such-option": "1"})


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_schema_is_json(game: Game) -> None:
    schema = game.schema()
    msgspec.json.encode(schema)
    assert "$defs" in schema
