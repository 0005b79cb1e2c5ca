"""Behaviours of the Roads & Boats heuristic bot fixed in issue 16 (fast, seeded).

Positions come from seeded in-process games (the engine decides the map and the
chance outcomes), then a few goods are moved by hand where a test needs a precise
situation.  Each test plays at most one 4-seat game (about 0.1 s).
"""

from __future__ import annotations

import copy
import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.engine import CHANCE, TERMINAL
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import PRODUCTION, WONDER, RBState

ROOT = Path(__file__).resolve().parents[2]


def _load(path: str, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


BOT = _load("bots/roads_and_boats_bot.py", "rb_heuristic_under_test")
V1 = _load("bots/baselines/roads_and_boats_bot_v1.py", "rb_heuristic_v1_for_tests")


def _play(
    seats: int,
    seed: int,
    planners: list[Any],
    until: Callable[[RBState], bool] | None = None,
) -> RBState:
    """Play a seeded game with one planner per seat; stop (before the decision) at the
    first decision where ``until(state)`` holds, or at the end."""
    state = GAME.new_game(seats, GAME.parse_options({}))
    rng = random.Random(seed)
    while (who := state.to_move()) != TERMINAL:
        if who == CHANCE:
            state.apply_chance(state.sample_chance(rng))
            continue
        if until is not None and until(state):
            return state
        legal = state.legal_actions()
        state.apply_action(legal[planners[who].choose(state, legal)])
    return state


def _mixed(seats: int) -> list[Any]:
    """The new planner in seat 0, the frozen v1 elsewhere."""
    return [BOT.Planner(0)] + [V1.Planner(s) for s in range(1, seats)]


def _hexes_around(state: RBState, place: int) -> set[str]:
    w = state.world
    h = w.place_hex[place]
    return {w.hexes[w.place_hex[q]].terrain for q in BOT.neighbours(state, place)} | {
        w.hexes[h].terrain
    }


def test_home_is_chosen_next_to_a_mountain_where_v1_ignores_them() -> None:
    """Seed 3001, 4 seats, seat 0: v1 takes a woods home without mountains; the bot
    takes one with a mountain on or next to it (gold is its main source of points)."""
    state = _play(4, 3001, _mixed(4), until=lambda s: s.step == "homes")
    legal = state.legal_actions()
    assert isinstance(legal[0], A.Home)
    new = legal[BOT.Planner(state.to_move()).choose(state, legal)]
    old = legal[V1.Planner(state.to_move()).choose(state, legal)]
    assert D.MOUNTAIN in _hexes_around(state, new.place)
    assert new.place != old.place


def test_mine_is_built_when_its_goods_are_on_the_way() -> None:
    """Seed 3000, 4 seats: the home has a mountain but no rock.  v1 builds no mine
    there (the starting stone goes into the sawmill); the bot carries boards to the
    mountain, keeps the stone for the mine and builds it."""
    state = _play(4, 3000, _mixed(4))
    assert state.to_move() == TERMINAL
    mines = [b for b in state.buildings.values() if b[2] == 0 and b[0] == D.MINE]
    assert mines
    assert state.goods_points()[0] >= 10


def test_gold_lying_under_our_transporter_is_taken_in_production() -> None:
    """A gold counter lying where our donkey stands away from home is loaded in the
    production phase (before anyone moves), not left for other players' donkeys."""

    def away_in_production(s: RBState) -> bool:
        if s.stage != PRODUCTION or s.step != "act" or s.to_move() != 0 or s.turn < 2:
            return False
        home = s.homes[0]
        return any(
            t.owner == 0 and t.place != home and not t.cargo and not t.water
            for t in s.trans.values()
        )

    state = _play(4, 3000, _mixed(4), until=away_in_production)
    assert state.to_move() == 0
    donkey = next(
        t
        for t in state.trans.values()
        if t.owner == 0 and t.place != state.homes[0] and not t.cargo and not t.water
    )
    state.piles.setdefault(donkey.place, []).append(D.GOLD)
    legal = state.legal_actions()
    action = legal[BOT.Planner(0).choose(state, legal)]
    assert isinstance(action, A.Take)
    assert action.good == D.GOODS[D.GOLD]


def test_choose_leaves_the_view_unchanged() -> None:
    """The search bot calls ``choose`` as a guide: the view must not be modified."""
    state = _play(4, 3000, _mixed(4), until=lambda s: s.turn >= 3 and s.to_move() == 1)
    seat = state.to_move()
    bot = BOT.RoadsAndBoatsBot()
    bot.seat = seat
    bot.on_start()
    view = state.view(seat)
    before = copy.deepcopy(view)
    legal = state.legal_actions()
    index = bot.choose(view, legal, [])
    assert 0 <= index < len(legal)
    assert view == before


def test_mine_two_steps_from_home_is_built_and_worked() -> None:
    """Seed 3006, 4 seats of the bot: seat 1 carries boards and stone two off-road
    steps out, builds a mine there and draws from it (v1 only ever used mountains on
    or next to its home)."""
    state = _play(4, 3006, [BOT.Planner(s) for s in range(4)])
    assert state.to_move() == TERMINAL
    home = state.homes[1]
    near = set(BOT.neighbours(state, home))
    far = [
        h
        for h, b in state.buildings.items()
        if b[2] == 1 and b[0] == D.MINE and b[1] != home and b[1] not in near
    ]
    assert far
    gold, iron = state.bags[far[0]]
    assert gold + iron < 6  # the bag has been drawn from


def test_goods_on_their_way_to_a_far_site_are_not_sent_twice() -> None:
    """Seed 7008, 4 seats of the bot: seat 3's second mine stands two steps out.  Its
    errands count the boards already on their way, so the stone follows and the mine
    is built; counting only the goods on the site, two donkeys took boards there and
    waited for the stone for the rest of the game, and the seat ended without gold."""
    state = _play(4, 7008, [BOT.Planner(s) for s in range(4)])
    assert state.to_move() == TERMINAL
    mines = [b for b in state.buildings.values() if b[2] == 3 and b[0] == D.MINE]
    assert len(mines) == 2
    assert state.goods_points()[3] >= 30


def test_self_play_paces_the_wonder_and_the_game_runs_long() -> None:
    """Seed 7000, 4 seats of the bot: every seat sees the wonder filling slowly, buys
    one brick a turn only while it lags a 30-turn schedule, and the game runs to turn
    30 (15 turns when every seat bought bricks every turn)."""
    seen: list[bool] = []

    def record(s: RBState) -> bool:
        if s.stage == PRODUCTION and s.step == "act" and s.turn in (5, 15):
            seen.append(BOT.Planner(s.to_move())._long_game(s))
        return False

    state = _play(4, 7000, [BOT.Planner(s) for s in range(4)], until=record)
    assert state.to_move() == TERMINAL
    assert seen and all(seen)
    assert state.turn >= 28


def test_among_rushers_the_bot_rushes_too() -> None:
    """Seed 3000, the bot in seat 0 and the frozen v1 (which buys bricks every turn)
    elsewhere: by turn 3 the wonder has filled too fast for a long game, so the bot
    buys bricks every turn as well and ends with at least as many as the median v1
    seat."""
    seen: list[bool] = []

    def record(s: RBState) -> bool:
        if s.stage == PRODUCTION and s.step == "act" and s.turn == 3 and not seen:
            seen.append(BOT.Planner(0)._long_game(s))
        return False

    state = _play(4, 3000, _mixed(4), until=record)
    assert state.to_move() == TERMINAL
    assert seen == [False]
    bricks = [state.wonder.count(s) for s in range(4)]
    assert bricks[0] >= sorted(bricks[1:])[1]
    assert state.turn <= 20


def test_wonder_phase_holds_back_when_ahead_of_the_schedule(monkeypatch: Any) -> None:
    """Seed 7000, 4 seats of the bot: in a long game a seat whose goods would buy a
    brick buys none while the wonder is on its 30-turn schedule; with ``PACE`` off
    the same seat in the same position buys one."""

    def ahead_with_goods(s: RBState) -> bool:
        if s.stage != WONDER or s.step != "act" or s.turn < 6 or s.paying:
            return False
        planner = BOT.Planner(s.to_move())
        home = s.homes[s.to_move()]
        spare = sum(n for g, n in enumerate(s.pool(home, [])) if g not in BOT.KEEP)
        return (
            A.BRICK in s.legal_actions()
            and planner._long_game(s)
            and not planner._behind_schedule(s)
            and spare >= 12
        )

    state = _play(4, 7000, [BOT.Planner(s) for s in range(4)], until=ahead_with_goods)
    assert state.to_move() != TERMINAL
    seat = state.to_move()
    legal = state.legal_actions()
    assert legal[BOT.Planner(seat).choose(state, legal)] != A.BRICK
    monkeypatch.setattr(BOT, "PACE", False)
    assert legal[BOT.Planner(seat).choose(state, legal)] == A.BRICK


def test_coins_are_minted_and_carried_home() -> None:
    """Seed 7024, 4 seats of the bot: seat 3 builds a mint and a coal burner next to
    its home; donkeys leave gold and fuel on the mint's site until a set is complete
    (a donkey holds 2 goods, a set is 3), and the coins end on its transporters."""
    state = _play(4, 7024, [BOT.Planner(s) for s in range(4)])
    assert state.to_move() == TERMINAL
    kinds = {b[0] for b in state.buildings.values() if b[2] == 3}
    assert {D.MINT, D.COAL_BURNER} <= kinds
    coins = sum(
        1
        for t in state.trans.values()
        if t.owner == 3
        for g in t.cargo
        if g & D.GOOD_MASK == D.COINS
    )
    assert coins >= 2
