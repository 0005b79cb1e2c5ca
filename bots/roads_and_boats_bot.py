#!/usr/bin/env python3
"""A heuristic Roads & Boats bot: gold from mines next to the home, a sawmill economy, bricks.

Plan (rule-based, no search; measured against the frozen v1 in docs/bots/roads_and_boats.md):

* home on a hex (preferably not desert) with woods, mountains and a rock around it, or
  on a mountain itself (a mine on the home hex puts its gold straight at home);
* a target list of producers next to the home, in order: a first woodcutter, the first
  mine (before the sawmill when no rock is near, so that the starting stone pays for
  it; on a mountain home the home mine), a sawmill on the home hex (next door when the
  home hex holds the mine; a woodcutter instead when the home is woods with too few
  woods around), the next mine, a quarry, the other woodcutters, a third mine; each
  3/3 mine is 3 gold = 30 points when carried at the end, worth far more than the
  bricks its 3 boards and 1 stone would buy; targets whose cost goods we neither hold
  (at home or on our transporters) nor produce are skipped;
* donkeys at home carry the goods a target still lacks to its site ("errands"); the
  others shuttle everything lying next to the home back home (gold first), and gold
  lying where our transporters stand is loaded during production, before other
  players move; one transporter always ends the movement at home for the wonder;
* a home building never uses goods owed to a target whose goods are partly delivered;
* trunks at home are kept for the sawmill (loose trunks are sawn at the end of
  production), the cost of the next target is kept back, and every other good buys
  bricks as long as it lasts (cheapest goods first, never gold, coins or stock);
* when the game may end this turn (every player's goods counted as bricks, plus slack),
  gold and coins go onto transporters at home (other cargo is put down to make room)
  and stay there, and the wonder phase spends everything.

* mountains two off-road steps from the home are mine sites too, after the ones next
  to it (``FAR_MINES``): errands step towards them, a transporter carrying goods such
  a site lacks takes them on, and empty donkeys fetch the draws of far producers;
  errands count cargo already on its way (``COUNT_TRANSIT``).

* the length of the game decides the bricks (``PACE``): a 4-seat game ends when the
  wonder holds 69 bricks or after 33 turns (one neutral brick a turn).  While the
  wonder has filled slowly enough for a game of 25 turns or more, the bot buys one
  brick a turn only while the wonder lags a 34-turn schedule, invests the rest, and
  its last turn comes from the schedule; among rushers (the frozen v1) it rushes too;
* in such a long game, from turn 2: the sawmill before the first mine, a clay pit and
  a stone factory where no rock is near (``CLAY``), partial costs left on a site
  (``LONG_DROP``), and a mint, a coal burner (two steps out when only one site is
  free, ``FAR_COAL``; both two steps out when none is, ``FAR_MINT``) and a papermill
  (``LONG_INDUSTRY``), fed by donkeys that leave inputs on the site until a set is
  complete (a donkey holds 2 goods, a mint set is 2 gold and 1 fuel);
* in a long game (round 4) the research point buys new shafts (``SHAFTS``): the two
  starting geese and two iron are kept, the papermill is planned once a mine stands
  (two steps out when no site next door is left, ``FAR_PAPER``), and a mine of ours
  whose bag is empty gets 1 iron + 1 fuel carried to it for a new 3/3 shaft, the
  fuel coming from the coal burner (``SHAFT_FUEL``);
* in a long game donkeys move with fewer wasted steps: a donkey stops one step short of
  a site two steps out when the last step would be off-road (``FAR_STAY``), a donkey
  home in mid-move waits there for an errand next door that needs an off-road step
  (``NEXT_DOOR_WAIT``, ``ERRAND_WAIT``), the last donkey at home may leave on a turn
  when no brick is due (``ALL_OUT``), and only one woodcutter stands next to the home
  (``LONG_WOODCUTTERS``; the woods host the mint and coal burner);
* round 5: goods lying on a target's site count towards its cost (``SITE_GOODS``); a
  donkey of ours on one of our producers loads its good in production (``TAKE_OWN``);
  a donkey beside a far building of ours with gold on it steps in, or waits there
  when it may not step off-road this phase (``OUTING_STAY``), two donkeys breed on a
  free pasture next to the home while the game counts as long (``LONG_BREED``; before
  the pace is known not while a mine's goods are to be carried,
  ``BREED_ERRANDS_FIRST``).

* round 6: the home choice values a mountain home 2 and adds 3 for a rock next to a
  mountain (``ROCK_AND_MOUNTAIN``: 5 boards and 1 stone pay for one mine or one
  sawmill, the quarry's stone for the rest); in a long game a woods home gets the
  sawmill on its own hex, not a woodcutter (``LONG_HOME_SAWMILL``; turn 1 waits for
  the pace, ``HOME_WAIT``); two donkeys breed on a free pasture two steps out when
  none is next to the home, once a mine stands or is planned (``FAR_BREED``).

* round 7 (``RAFTS``, at 2 seats only: ``RAFT_SEATS``; in a long game): when no mountain
  is a land site but mountains more than ``RAFT_LAND`` land steps away lie within
  ``RAFT_REACH`` boat steps of the home's coast (The Pacific: islands), the plan gets a
  quarry on the nearest rock two steps out (``RAFT_QUARRY``), a raft factory on a free
  shore hex next to the home and mines on those islands (up to ``RAFT_MINES``).  One
  donkey keeps 2 trunks from the sawmill for each raft (up to ``RAFT_COUNT``), fetching
  the second from our woodcutter, and takes them to the factory; each raft loads the
  cost of the next island mine at the home dock or the stone at our quarry, leaves it
  on the island, and the mine is built from the docked raft; the rafts then take the
  gold in production, bring it home (unloaded while more gold waits) and keep it
  aboard in the last turns, where it scores like a donkey's.

Off in short games (measured worse against v1, see the doc): the mint, coal burner and
papermill (``INDUSTRY``, ``PAPER``) and partial costs left on a site
(``DROP_AND_RETURN``).  Off everywhere: a quarry two steps away (``FAR_QUARRY``),
donkey breeding in a short game (``BREED``), roads to our industry
(``ROADS_TO_INDUSTRY``), the papermill before the mint (``SHAFT_PAPER_FIRST``), the
stock exchange (``STOCK``: no stock was made in 33-turn games), sparing the goods on
other players' buildings in a long game (``LEAVE_OTHERS``, ``LEAVE_OTHERS_LOADS``:
a gift to a field that does not spare ours).  While pacing, a seat buys a
scheduled brick only when no player has fewer bricks (``FAIR_SHARE``).
Not done: boats at 4 seats (a raft parked at home for more carrying capacity was
measured in round 6 and did not pay; round 7's raft plan is kept to 2 seats, see the
doc), wagons, bridges.

Usage: ``roads_and_boats_bot.py`` (speaks protocol v1 through referee.botkit), or
``roads_and_boats_bot.py --evaluate GAMES [--seats N]`` to measure it in-process against
uniform random players.
"""

from __future__ import annotations

import random
import sys
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.botkit import Bot, run
from referee.games.roads_and_boats import GAME
from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import (
    BUILDING,
    MOVEMENT,
    PRODUCTION,
    RBState,
)
from referee.games.roads_and_boats.world import DOCK, World

MAX_PRICE = 6
"""Highest price (goods) the bot pays for one brick in a turn, except in the last turn."""
PAY_ORDER = (
    D.GOOSE, D.CLAY, D.PAPER, D.FUEL, D.IRON, D.STONE, D.BOARD, D.TRUNK, D.GOLD, D.COINS, D.STOCK,
)  # fmt: skip
"""Cheapest first: trunks come late (a home sawmill doubles them next turn), scoring goods last."""
KEEP = frozenset({D.GOLD, D.COINS, D.STOCK})
"""Goods that score when carried at the end: never paid for bricks."""
LOAD_ORDER = (
    D.COINS, D.GOLD, D.STOCK, D.BOARD, D.STONE, D.IRON, D.TRUNK, D.CLAY, D.FUEL, D.PAPER, D.GOOSE,
)  # fmt: skip
HOME_TERRAIN = {D.WOODS: 3.0, D.MOUNTAIN: 2.0, D.DESERT: -4.0}
"""Value of the home hex's own terrain when choosing a home (others 1)."""
NEIGHBOUR_VALUE: dict[str, tuple[float, ...]] = {
    D.WOODS: (3.0, 3.0, 2.0, 1.0),
    D.MOUNTAIN: (3.0, 2.0, 1.0),
    D.ROCK: (2.0,),
    D.PASTURE: (1.0,),
}
"""Value of the first, second... neighbouring hex of each terrain when choosing a home."""
ROCK_AND_MOUNTAIN = 3.0
"""Round 6: extra value of a home with a rock next to it and a mountain on or next to
it (a quarry's stone pays for the mines after the first: a home starts with 5 boards and
1 stone, and a mine costs 3 boards + 1 stone, a sawmill 2 boards + 1 stone)."""
LATE_TURNS = 2
"""No new producers when the game is expected to end within this many turns."""
END_MARGIN = 4
"""Bricks of slack when guessing whether the game may end this turn."""


def brick_cost(k: int, wonder: int) -> int:
    """Goods for ``k`` bricks bought in one turn with ``wonder`` bricks standing."""
    total = 0
    for i in range(k):
        total += i + 1 + (1 if wonder + i >= D.PRICE_STEP_AT else 0)
    return total


def links(state: RBState, place: int) -> list[tuple[int, int]]:
    """(crossing, neighbouring land area) pairs of a (possibly bridged) land area."""
    w = state.world
    out: list[tuple[int, int]] = []
    for a in w.areas[w.place_hex[place]]:
        if state.root[a] == place:
            out.extend((edge, state.root[q]) for edge, q in w.land_links[a])
    return out


def trunks_aboard(t: Any) -> int:
    """Trunks in transporter ``t``'s cargo."""
    return sum(1 for g in t.cargo if g & D.GOOD_MASK == D.TRUNK)


_NEIGHBOURS: dict[int, list[int]] | None = None
"""Neighbours by land area while ``Planner.choose`` looks at one state (None outside
it): a decision asks for the same ones many times, and the state does not change."""


def neighbours(state: RBState, place: int) -> list[int]:
    """Distinct land areas one off-road step from ``place`` (callers must not change
    the list returned)."""
    memo = _NEIGHBOURS
    if memo is not None and (got := memo.get(place)) is not None:
        return got
    out: list[int] = []
    for _edge, q in links(state, place):
        if q not in out:
            out.append(q)
    if memo is not None:
        memo[place] = out
    return out


def home_value(state: RBState, place: int) -> float:
    """Worth of a home on land area ``place``: its hex's terrain (``HOME_TERRAIN``)
    plus its land neighbours' (``NEIGHBOUR_VALUE``: the first, second... hex of each
    terrain, each neighbouring hex counted once).  The search bot groups homes by it."""
    w = state.world
    h = w.place_hex[place]
    score = HOME_TERRAIN.get(w.hexes[h].terrain, 1.0)
    seen: set[int] = {h}
    counts: dict[str, int] = {}
    for q in neighbours(state, place):
        j = w.place_hex[q]
        if j in seen:
            continue
        seen.add(j)
        t = w.hexes[j].terrain
        k = counts.get(t, 0)
        counts[t] = k + 1
        gains = NEIGHBOUR_VALUE.get(t, ())
        if k < len(gains):
            score += gains[k]
    if counts.get(D.ROCK) and (counts.get(D.MOUNTAIN) or w.hexes[h].terrain == D.MOUNTAIN):
        score += ROCK_AND_MOUNTAIN
    return score


MINES = 3
"""Most mines next to the home (each 3/3 mine is 3 gold = 30 points when carried)."""
HOME_MINE = True
"""A mine on the home hex when the home is a mountain."""
MINE_FIRST = False
"""The first mine before the sawmill (else right after it)."""
HOME_MINE_EARLY = True
"""On a mountain home, the home mine right after the first woodcutter (else after the
sawmill next door)."""
MINE_FIRST_NO_ROCK = True
"""The first mine before the sawmill when no rock is next to the home (the starting
stone is then the only stone for a mine)."""
KEEP_FOR_EARLIER = False
"""A building at home must not use goods an earlier (unfinished) target still needs
(always for targets whose goods are already partly on their site)."""
QUARRY_EARLY = True
"""The quarry right after the first mine (stone for the next mines and the roads)."""
ROADS = True
"""Build roads from home to own producers with spare stone."""
TAKE_GOLD = True
"""In production, load gold lying where our transporters stand away from home (a mine's
draw lies loose on its hex, where other players' donkeys could take it)."""
BREED = False
"""Send two empty donkeys to an empty pasture next to the home to breed."""
BREED_TURNS = 3
"""No breeding when the game is expected to end within this many turns."""
RESERVE_TARGETS = 1
"""Targets whose cost is kept back from the wonder."""
FAR_MINES = True
"""Mines may also stand two steps from the home (after the ones next to it)."""
CARRY_ON = True
"""A transporter away from home carrying goods the first target still lacks takes them
on to its site when that site is two steps from home (next-door sites get their goods
from home)."""
COUNT_TRANSIT = True
"""Errands count the cargo of our transporters away from home as already on its way
(without it two donkeys took boards to a far mine and the stone never followed)."""
DROP_AND_RETURN = False
"""A transporter that brought part of a target's cost leaves it on the site and goes
home for more (instead of waiting there until the rest arrives)."""
FAR_QUARRY = False
"""A quarry two steps from the home when no rock is next to it."""
INDUSTRY = False
"""Plan a coal burner and a mint next to the home once a mine exists or is planned:
2 gold (20 points) + 1 fuel become 1 coin (40 points)."""
PAPER = False
"""Plan a papermill next to the home and spend the two starting geese and its first
paper on one research point (specialisation: later mines are 4/0, all gold)."""
INDUSTRY_NEEDS_SAWMILL = True
"""Plan the mint and coal burner only once a sawmill of ours stands (board income)."""
INDUSTRY_WOODCUTTERS = 2
"""Woodcutters (built or planned) before spare woods next to the home may host the
mint or coal burner instead."""
INDUSTRY_AT = 99
"""Position in the target list where the secondary buildings go (99: last)."""
INDUSTRY_TURNS = 6.0
"""Least expected turns left when a coal burner and a mint are planned."""
PAPER_TURNS = 8.0
"""Least expected turns left when a papermill is planned."""
PAPER_NEEDS_MINE = True
"""Plan the papermill only while a mine is still to be built (specialisation then pays)."""
LONG_INDUSTRY = True
"""In a long game plan the mint, coal burner and papermill (as ``INDUSTRY`` and
``PAPER`` do in every game) and keep the two starting geese for research."""
LONG_WOODCUTTERS = 1
"""Woodcutters next to the home in a long game (the other woods may host industry)."""
KEEP_GEESE = False
"""In a long game keep the two starting geese for research from the first turn."""
FAR_COAL = True
"""In a long game with one free site next to the home, the mint takes it and the coal
burner stands two steps out (boards are carried there, fuel fetched back)."""
SCORING_WEIGHT = 10
"""Worth of a loose gold, coin or stock against one of any other good when choosing
where a donkey fetches goods from (gold lay for 20 turns beside trunk piles)."""
MINT_TURNS = 4.0
"""Least expected turns left when gold is still taken to the mint."""
FEEDS = (D.MINT, D.COAL_BURNER, D.PAPERMILL, D.STONE_FACTORY, D.STOCK_EXCHANGE)
"""Secondary buildings next to the home that donkeys feed with input sets."""
LONG_PLAN = True
"""In a long game (``PACE``) the sawmill comes before the first mine, and a home
without rock nearby plans a clay pit and a stone factory (``CLAY``)."""
LONG_SAWMILL_FIRST = False
"""In a long game a mountain home builds the sawmill next door before its home mine."""
LONG_PLAN_FROM = 1
"""The long plan starts after this turn (the first turn's builds come before anyone has
bought a brick, so they follow the short plan)."""
CLAY = True
"""Clay pit and stone factory next to a home without rock (long games only)."""
LONG_DROP = True
"""``DROP_AND_RETURN`` in a long game: with three donkeys and one kept at home, two
donkeys waiting on a site for a missing board stopped the whole economy."""
PACE = True
"""Buy bricks by the expected length of the game: while the other players' bricks
leave the game long, buy one brick a turn only while the wonder is behind a schedule
of ``SCHEDULE_TURNS`` turns and invest the rest; when it is going to be short (a field
of rushers), buy every turn as before."""
SCHEDULE_TURNS = 34.0
"""Game length (turns) of the brick schedule while the game is long (round 5: 34, so
that a field of pacers plays until the 33rd neutral brick ends the game; 32 until
round 4)."""
LONG_GAME = 25.0
"""Least expected total game length (turns) that counts as a long game."""
LAST_BY_SCHEDULE = True
"""In a long game the last turn is when the wonder is within ``FINAL_TURNS`` turns of
its mark on the schedule (every player then spends all), not when the goods every
player holds could fill it (in a long game everyone holds many)."""
FINAL_TURNS = 2.0
"""Turns of the schedule's pace left to the mark when a long game's last turn comes."""
FAIR_SHARE = True
"""While pacing, buy the scheduled brick only when no player has fewer bricks."""
LONG_SLACK = 0.5
"""Bricks the wonder may lead the ``LONG_GAME`` pace by and still count as long."""
SHAFTS = True
"""In a long game the research point buys new shafts instead of specialisation, and a
mine of ours whose bag is (nearly) empty gets a new shaft: 1 iron + 1 fuel, carried from
home, refill its bag with 3 gold and 3 iron (shared rules §7-8).  A mine draws one
counter a turn, so a 3/3 bag is empty six turns after the mine is built; refilled, it
keeps drawing for the rest of a long game.  The geese and iron are kept from bricks,
and the papermill and coal burner are planned once a mine stands."""
SHAFT_LOW = 1
"""A mine of ours gets its new shaft once its bag holds at most this many counters."""
SHAFT_GEESE_FROM = 0
"""With ``SHAFTS`` the two starting geese are kept from bricks after this turn."""
FAR_MINT = True
"""In a long game with no free site next to the home, the mint stands two steps out too
(beside the coal burner of ``FAR_COAL``): gold and fuel are carried there and the coins
fetched back."""
FAR_PAPER = True
"""With ``SHAFTS`` (and ``SHAFT_SITES`` off) the papermill stands two steps out when no
site next to the home is left after the mint and coal burner."""
SHAFT_KEEP_LATE = True
"""With ``SHAFTS`` the geese are kept from bricks only once a mine of ours stands, and
two iron and two fuel only once new shafts are researched."""
NEXT_DOOR_WAIT = True
"""In a long game a donkey back home in mid-move with goods for a site next to the home
that only an off-road step reaches waits at home for the next turn (it used to step to
a neighbour of that site, come back and step out again, turn after turn)."""
ERRAND_WAIT = True
"""With ``NEXT_DOOR_WAIT``, such a donkey also skips its outing and stays home, so that
the errand starts from home next turn (donkeys on roads to the woodcutters came home in
mid-move every turn, went out again and never ran the errand to a mint without a road)."""
ROADS_TO_INDUSTRY = False
"""In a long game, spare stone also builds roads from the home to our mint, coal burner,
papermill and stone factory next door (a donkey moves two steps a turn along roads)."""
ALL_OUT = True
"""In a long game the last donkey at home may leave too on a turn when no brick is due
(bricks are paid from home, where one of our transporters must stand)."""
SHAFT_GEESE_EARLY = True
"""With ``SHAFTS`` the two starting geese are kept from bricks from the first turn on
(also with ``SHAFT_KEEP_LATE``)."""
SHAFT_FUEL = True
"""With ``SHAFTS`` the coal burner also makes fuel for the new shaft of each dry mine."""
SHAFT_IRON_EARLY = True
"""With ``SHAFTS`` two iron are kept from bricks before the research too."""
SHAFT_PAPER_FIRST = False
"""With ``SHAFTS`` the papermill comes before the mint and coal burner (research sooner)."""
FAR_STAY = True
"""In a long game a donkey carrying goods for a site two steps out stops on the way when
the last step would be off-road (a donkey takes one off-road step or two road steps,
shared rules §6); it used to turn back home with the goods."""
SHAFT_NEAR = (D.MINT, D.PAPERMILL, D.COAL_BURNER)
"""With ``SHAFTS``, which of these takes a free site next to the home first."""
SHAFT_ORDER = (D.PAPERMILL, D.COAL_BURNER, D.MINT)
"""With ``SHAFTS``, the order in which these are built."""
SITE_GOODS = True
"""Round 5: goods already lying on a target's site count towards its cost when the
target list drops targets the seat cannot pay for (boards left on a mine site had made
the mine drop out, and the starting stone then went into a road)."""
TAKE_OWN = True
"""Round 5: in production, a transporter of ours standing on one of our primary
producers away from home loads its new good at once, before the other players move
(other seats' donkeys took the trunks of a woodcutter next to their homes every turn)."""
OUTING_STAY = True
"""Round 5: a transporter away from home next to a far producer of ours where gold
lies steps in, or waits there when it came along a road and may not take the off-road
step this phase (a donkey went to the quarry on the road towards a far mine, saw the
mine's gold, could not step in, loaded a stone and went home, every turn: the gold was
never fetched)."""
LEAVE_OTHERS = False
"""Round 5, off: in a long game our donkeys would not go to fetch the goods lying on
another player's building (its woodcutter's trunks, its mine's gold).  On, self-play
winners score far more (median 134 against 120.5 on seeds 13000-13099, 136.5 against
97.5 on 15000-15099), but only because every seat spares the others: one such seat
among three round-4 bots, which do not spare it, finished first in 17 of 100 games
(seeds 18000-18024; fair 25%, 26 with it off).  A reference opponent should not give
goods away to whoever does not return the favour."""
LEAVE_OTHERS_LOADS = False
"""Round 5, off: nor would a donkey of ours that stands there load them (long game
only; see ``LEAVE_OTHERS``)."""
STOCK = False
"""Round 5: a stock exchange (3 stone; 1 paper + 2 coins make 1 stock, 120 points for
the 80 of the coins; shared rules §4 and §10) once our mint and coal burner stand, fed
from home with 2 coins and a paper, which the papermill then makes also after research."""
STOCK_COINS = 2
"""Coins of ours (at home or carried) at least when the stock exchange is planned."""
STOCK_TURNS = 6.0
"""Turns left at least when the stock exchange is planned."""
STOCK_FEED_TURNS = 4.0
"""Turns left at least when coins are carried to the stock exchange."""
HOME_WOODCUTTER = True
"""A woods home with fewer than two woods around gets a woodcutter on its own hex
instead of the sawmill."""
HOME_WOODCUTTER_WOODS = 2
"""With ``HOME_WOODCUTTER``, the woods (free or with our woodcutter) next to a woods home
below which the woodcutter stands on the home hex."""
LONG_HOME_SAWMILL = True
"""Round 6: in a long game a woods home gets the sawmill on its own hex, never the
woodcutter of ``HOME_WOODCUTTER`` (a woodcutter there left the seat without boards once
the starting 5 were spent)."""
HOME_WAIT = True
"""Round 6: with ``LONG_HOME_SAWMILL``, a woods home that ``HOME_WOODCUTTER`` would give a
woodcutter builds nothing on its own hex in the first turn, before the pace is known."""
LONG_BREED = True
"""Round 5: donkey breeding (``BREED``) in a long game.  Three donkeys carry 6 goods;
a seat with more gold and coins than that ended with some of them at home, where they
do not count."""
FAR_BREED = True
"""Round 6: in a long game, with no free pasture next to the home, two empty donkeys
breed on a free pasture two steps out, once a mine of ours stands or is planned (only 70
of 160 seats bred in round 5; on the 2-seat map, where no mine can be built, the trips
only cost)."""
BREED_ERRANDS_FIRST = True
"""Round 5: before the pace is known, a donkey with an errand to a mine site runs it
before it goes to breed (``_mine_errand``)."""
STAY = "stay"
"""Marker returned by ``Planner._far_feed_step``: stop here this turn."""
SHAFT_SITES = False
"""With ``SHAFTS`` the papermill and coal burner may stand two steps out when no site next
to the home is free (``_place_shaft_industry``)."""
RAFTS = True
"""Round 7: island mines served by rafts.  When no mountain is a land site (next to the
home or two steps out) but mountains without a building lie within ``RAFT_REACH`` boat
steps of the home's coast, the plan (in a long game) gets a quarry on the nearest rock
two steps out (stone for the raft factory and the mines), a raft factory on a free
shore hex next to the home and mines on those islands.  A donkey takes 2 trunks to the
factory (shared rules §4: a raft factory costs 1 board + 1 stone on a shore hex, makes
a raft from 2 trunks, launched at once on the coast of its hex); a raft loads the
mine's 3 boards + 1 stone at the home dock (capacity 3, so some goods are left on the
island and the raft fetches the rest), docks at the island (sea to land that is no
river ends the move), the mine is built from the docked raft (build where one's own
docked boat is), and the rafts then take the gold in production and bring it home;
gold on a boat at the end scores like a donkey's."""
RAFT_SEATS = 2
"""With ``RAFTS``, the most seats at which the raft plan is used (4-seat games were left
as they were: see the doc)."""
RAFT_REACH = 5
"""With ``RAFTS``, the most boat steps from a home dock to an island's dock (a raft moves
3 steps, and docking ends its move: 3 is one move, 5 two)."""
RAFT_MINES = 4
"""With ``RAFTS``, the most mines of the seat (``MINES`` is for land mines)."""
RAFT_LAND = 2
"""With ``RAFTS``, a mountain more than this many land steps from the home (or with no
land path to it) counts as an island."""
RAFT_QUARRY = True
"""With ``RAFTS``, a quarry on the nearest rock two steps out when no rock is next to the
home (the home starts with 1 stone, which the sawmill takes)."""
RAFT_COUNT = 3
"""With ``RAFTS``, rafts the seat makes (each carries 3 goods)."""


_BOAT_STEPS: dict[int, tuple[World, dict[tuple[int, ...], dict[int, int]]]] = {}
"""Boat distances by map (``id`` of its :class:`World`, which is kept here so the id
stays its own) and start places: see ``Planner._boat_distances``."""


class Planner:
    """Chooses among legal actions for one seat given the full state."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        # Kept for the length of one ``choose`` (None outside it): the state does not
        # change within a decision, which asks for these many times.
        self._land_steps: dict[int, dict[int, int]] | None = None
        self._target_list: list[tuple[int, int]] | None = None

    # ------------------------------------------------------------------ entry

    def choose(self, state: RBState, legal: list[Any]) -> int:
        """Index into ``legal`` of the action to take."""
        global _NEIGHBOURS
        _NEIGHBOURS, self._land_steps, self._target_list = {}, {}, None
        try:
            action = self._pick(state, legal)
        finally:
            _NEIGHBOURS, self._land_steps, self._target_list = None, None, None
        return legal.index(action) if action is not None else len(legal) - 1

    def _pick(self, state: RBState, legal: list[Any]) -> Any | None:
        first = legal[0]
        if isinstance(first, A.PlaceTile):  # drafted map: the first free cell
            return first
        if isinstance(first, A.Home):
            return self._home(state, legal)
        if isinstance(first, A.NoRequest | A.Pray):
            return first
        if isinstance(first, A.Position):
            return first
        if isinstance(first, A.Agree):  # accept gifts; keep our goods and transporters
            return first if isinstance(state.offer, A.Give) else A.REFUSE
        if state.step == "scrap":  # over the transporter limit: drop the emptiest
            return min(legal, key=lambda a: (len(state.trans[a.transporter].cargo), a.transporter))
        if state.stage == PRODUCTION:
            return self._production(state, legal)
        if state.stage == MOVEMENT:
            return self._movement(state, legal)
        if state.stage == BUILDING:
            return self._building(state, legal)
        return self._wonder(state, legal)

    # ------------------------------------------------------------------ setup

    def _home(self, state: RBState, legal: list[Any]) -> Any:
        w = state.world

        def value(action: A.Home) -> float:
            return home_value(state, action.place) + 0.1 * len(w.area_sides[action.place])

        return max(legal, key=value)

    # ------------------------------------------------------------------ plan

    def _targets(self, state: RBState) -> list[tuple[int, int]]:
        """Producers still to build, best first: (land area, building kind); within one
        ``choose`` the list is worked out once (callers must not change it)."""
        if self._target_list is not None:
            return self._target_list
        kept = self._plan_targets(state)
        if self._land_steps is not None:  # inside choose
            self._target_list = kept
        return kept

    def _plan_targets(self, state: RBState) -> list[tuple[int, int]]:
        """``_targets`` worked out from ``state``."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        own = [b[0] for b in state.buildings.values() if b[2] == self.seat]
        sites: dict[str, list[int]] = {D.WOODS: [], D.ROCK: [], D.MOUNTAIN: []}
        for q in neighbours(state, home):
            j = w.place_hex[q]
            terrain = w.hexes[j].terrain
            if j != hh and j not in state.buildings and terrain in sites:
                sites[terrain].append(q)
        woods = sites[D.WOODS]
        room = max(0, MINES - own.count(D.MINE))
        if FAR_MINES:
            sites[D.MOUNTAIN] += self._far_sites(state, D.MOUNTAIN)
        if FAR_QUARRY and not sites[D.ROCK] and D.QUARRY not in own:
            sites[D.ROCK] += self._far_sites(state, D.ROCK)[:1]
        mines = [(q, D.MINE) for q in sites[D.MOUNTAIN][:room]]
        islands: list[int] = []
        raft_site: int | None = None
        raft_plan = self._raft_seats(state) and self._long_plan(state)
        if raft_plan and not mines and w.hexes[hh].terrain != D.MOUNTAIN:
            islands = self._islands(state)[: max(0, RAFT_MINES - own.count(D.MINE))]
        if islands:
            if RAFT_QUARRY and not sites[D.ROCK] and D.QUARRY not in own:
                sites[D.ROCK] += self._far_sites(state, D.ROCK)[:1]
            if D.RAFT_FACTORY not in own and not self._rafts(state):
                cutter = set(woods[:1]) if D.WOODCUTTER not in own else set()
                raft_site = self._raft_factory_site(state, cutter)
        out: list[tuple[int, int]] = []
        if D.WOODCUTTER not in own and woods:
            out.append((woods.pop(0), D.WOODCUTTER))
        home_mine: list[tuple[int, int]] = []
        long = LONG_PLAN and self._long_plan(state)
        first = MINE_FIRST or (
            MINE_FIRST_NO_ROCK and not sites[D.ROCK] and D.QUARRY not in own and not long
        )
        if first and not (hh not in state.buildings and w.hexes[hh].terrain == D.MOUNTAIN):
            out.extend(mines[:1])
            mines = mines[1:]
        if hh not in state.buildings:
            terrain = w.hexes[hh].terrain
            if terrain == D.MOUNTAIN and HOME_MINE and room:
                home_mine.append((home, D.MINE))
            elif (
                HOME_WOODCUTTER
                and terrain == D.WOODS
                and len(woods) + own.count(D.WOODCUTTER) < HOME_WOODCUTTER_WOODS
                and not (long and LONG_HOME_SAWMILL)
            ):
                if not (HOME_WAIT and LONG_HOME_SAWMILL and state.turn <= LONG_PLAN_FROM):
                    out.append((home, D.WOODCUTTER))  # (turn 1: the pace decides next turn)
            elif terrain != D.DESERT or state.irrigated:
                out.append((home, D.SAWMILL))
        mined_home = hh in state.buildings and state.buildings[hh][0] == D.MINE
        if D.SAWMILL not in own and (home_mine or mined_home):
            spots = []  # the sawmill next door instead: pasture first, never a mountain
            taken = {q for q, _kind in out} | set(woods[:1])
            for q in neighbours(state, home):
                j = w.place_hex[q]
                terrain = w.hexes[j].terrain
                if j == hh or j in state.buildings or terrain in (D.MOUNTAIN, D.DESERT):
                    continue
                if q in taken:
                    continue
                spare = terrain == D.PASTURE or (terrain == D.ROCK and len(sites[D.ROCK]) > 1)
                spots.append((0 if spare else 1 if terrain == D.ROCK else 2, q))
            if spots:
                out.append((min(spots)[1], D.SAWMILL))
        if home_mine and HOME_MINE_EARLY and not (long and LONG_SAWMILL_FIRST):
            out[1:1] = home_mine  # right after the first woodcutter
            mines = mines[: room - 1]
        elif home_mine:
            mines = home_mine + mines[: room - 1]  # after the sawmill next door
        out.extend(mines[:1])
        if D.QUARRY not in own and sites[D.ROCK] and QUARRY_EARLY:
            out.append((sites[D.ROCK][0], D.QUARRY))
        elif long and CLAY and D.QUARRY not in own and not sites[D.ROCK]:
            self._plan_clay(state, out, own, sites)
        out.extend(mines[1:2])
        if raft_site in woods:  # the raft factory's shore site
            woods.remove(raft_site)
        if long:  # one woodcutter feeds a sawmill (2 boards a turn): woods host industry
            woods = woods[: max(0, LONG_WOODCUTTERS - own.count(D.WOODCUTTER))]
        out.extend((q, D.WOODCUTTER) for q in woods)
        out.extend(mines[2:])
        if D.QUARRY not in own and sites[D.ROCK] and not QUARRY_EARLY:
            out.append((sites[D.ROCK][0], D.QUARRY))
        if raft_site is not None:
            out.append((raft_site, D.RAFT_FACTORY))
        if raft_site is not None or D.RAFT_FACTORY in own or self._rafts(state):
            out.extend((q, D.MINE) for q in islands)
        self._plan_industry(state, out, own, sites)
        made = {D.BUILDINGS[k].output for k in own}
        here = state.presence(self.seat)
        counts = state.pool(home, here.get(home, []))
        for t in state.trans.values():  # cargo already on its way counts too
            if t.owner == self.seat and t.place != home:
                for g in t.cargo:
                    counts[g & D.GOOD_MASK] += 1
        kept = []
        for site, kind in out:
            lying = state.pool(site, []) if SITE_GOODS and site != home else [0] * D.NUM_GOODS
            cost = D.BUILDINGS[kind].cost
            if all(counts[g] + lying[g] >= n or g in made for g, n in cost):
                kept.append((site, kind))
        return kept

    def _plan_clay(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        own: list[int],
        sites: dict[str, list[int]],
    ) -> None:
        """Append (in place) a clay pit on a shore hex next to the home and a stone
        factory next to it (1 clay makes 2 stone), the stone source of a home without
        rock nearby; nothing when no shore hex is free."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        taken = {q for q, _kind in out} | set(sites[D.MOUNTAIN])
        if D.CLAY_PIT not in own:
            shore = []
            for q in neighbours(state, home):
                j = w.place_hex[q]
                if j == hh or j in state.buildings or q in taken or not w.shore[j]:
                    continue
                terrain = w.hexes[j].terrain
                if terrain == D.DESERT and not state.irrigated:
                    continue
                rank = {D.PASTURE: 0, D.ROCK: 1, D.DESERT: 1, D.WOODS: 2}.get(terrain, 3)
                shore.append((rank, q))
            if not shore:
                return
            q = min(shore)[1]
            out.append((q, D.CLAY_PIT))
            taken.add(q)
        if D.STONE_FACTORY not in own:
            spots = self._spare_sites(state, taken, sites)
            if spots:
                out.append((spots[0], D.STONE_FACTORY))

    def _drop(self, state: RBState) -> bool:
        """True when a transporter leaves part of a building's cost on its site and
        goes home for the rest (``DROP_AND_RETURN``; ``LONG_DROP`` in a long game)."""
        if DROP_AND_RETURN:
            return True
        return LONG_DROP and self._long_plan(state)

    def _pacing(self, state: RBState) -> bool:
        """True when this seat paces itself (``PACE``, more than one seat) and the game
        counts as long (``_long_game``)."""
        return PACE and state.seats > 1 and self._long_game(state)

    def _long_plan(self, state: RBState) -> bool:
        """True when the game is long (``_pacing``) and at least one wonder phase has
        shown how the others buy bricks (``LONG_PLAN_FROM``)."""
        return state.turn > LONG_PLAN_FROM and self._pacing(state)

    def _far_sites(self, state: RBState, terrain: str) -> list[int]:
        """Areas of ``terrain`` without a building two off-road steps from the home."""
        w = state.world
        home = state.homes[self.seat]
        near = neighbours(state, home)
        out: list[int] = []
        for q in near:
            for r in neighbours(state, q):
                j = w.place_hex[r]
                if r == home or r in near or r in out or j in state.buildings:
                    continue
                if w.hexes[j].terrain == terrain:
                    out.append(r)
        return out

    def _spare_sites(
        self, state: RBState, taken: set[int], sites: dict[str, list[int]]
    ) -> list[int]:
        """Land areas next to the home for secondary buildings, best first: pastures,
        (irrigated) deserts, rock, woods; ``taken`` areas (sites of other targets) are
        left out."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        ranked = []
        for q in neighbours(state, home):
            j = w.place_hex[q]
            if j == hh or j in state.buildings or q in taken:
                continue
            terrain = w.hexes[j].terrain
            if terrain == D.PASTURE:
                rank = 0
            elif terrain == D.DESERT and state.irrigated:
                rank = 1
            elif terrain == D.ROCK:
                rank = 2
            elif terrain == D.WOODS:
                rank = 3
            else:
                continue
            ranked.append((rank, q))
        return [q for _rank, q in sorted(ranked)]

    def _plan_industry(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        own: list[int],
        sites: dict[str, list[int]],
    ) -> None:
        """Append (in place) the secondary buildings of the economy plan to ``out``:
        a mint and a coal burner once a mine stands or is planned, a papermill for one
        research point while the two starting geese are kept."""
        kinds = {kind for _q, kind in out}
        wanted: list[int] = []
        left = self._turns_left(state)
        boards = D.SAWMILL in own or not INDUSTRY_NEEDS_SAWMILL
        long = LONG_INDUSTRY and self._long_plan(state)
        if (INDUSTRY or long) and boards and D.MINE in own and left >= INDUSTRY_TURNS:
            wanted += [k for k in (D.MINT, D.COAL_BURNER) if k not in own]
        mine_to_come = any(k == D.MINE for _q, k in out) or not PAPER_NEEDS_MINE
        stone = D.QUARRY in own or D.STONE_FACTORY in own  # the mines need the rest
        shafts = long and self._shafts(state) and D.MINE in own
        if (
            (PAPER or (long and (stone or shafts)))
            and (mine_to_come or shafts)
            and left >= PAPER_TURNS
            and self._research_pending(state)
            and D.PAPERMILL not in own
        ):
            wanted.insert(0 if shafts and SHAFT_PAPER_FIRST else len(wanted), D.PAPERMILL)
        if self._stock_plan(state, own, left):
            if D.PAPERMILL not in own and D.PAPERMILL not in wanted:
                wanted.append(D.PAPERMILL)
            if D.STOCK_EXCHANGE not in own:
                wanted.append(D.STOCK_EXCHANGE)
        if not wanted:
            return
        woodcutters = own.count(D.WOODCUTTER)
        taken = set()
        for q, k in out:  # woods beyond the first two woodcutters may host industry
            if k == D.WOODCUTTER:
                woodcutters += 1
                if woodcutters > (LONG_WOODCUTTERS if long else INDUSTRY_WOODCUTTERS):
                    continue
            taken.add(q)
        spots = self._spare_sites(state, taken, sites)
        at = min(INDUSTRY_AT, len(out))
        if shafts and SHAFT_SITES:
            self._place_shaft_industry(state, out, at, wanted, kinds, spots)
            return
        far: list[int] = []
        short = len(spots) < (2 if D.MINT in wanted else 1)
        if long and FAR_COAL and D.COAL_BURNER in wanted and short:
            far = self._far_spare_sites(state)  # the coal burner two steps out
        far_mint = long and FAR_MINT and not spots
        if far_mint and D.COAL_BURNER in wanted:
            far = self._far_spare_sites(state)
        both = D.MINT in wanted and D.COAL_BURNER in wanted
        if both and len(spots) + len(far[:1]) < 2 and not (far_mint and len(far) >= 2):
            wanted = [k for k in wanted if k not in (D.MINT, D.COAL_BURNER)]  # no fuel
        for kind in wanted:
            if kind in kinds:
                continue
            if kind == D.COAL_BURNER and far:
                out.insert(at, (far.pop(0), kind))
            elif spots:
                out.insert(at, (spots.pop(0), kind))
            elif kind == D.MINT and far_mint and far:
                out.insert(at, (far.pop(0), kind))
            elif (kind == D.PAPERMILL and FAR_PAPER and (shafts or STOCK)) or (
                kind == D.STOCK_EXCHANGE
            ):
                used = {q for q, _k in out}
                spare = [q for q in self._far_spare_sites(state) if q not in used]
                if not spare:
                    continue
                out.insert(at, (spare[0], kind))
            else:
                continue
            at += 1

    def _place_shaft_industry(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        at: int,
        wanted: list[int],
        kinds: set[int],
        spots: list[int],
    ) -> None:
        """Insert (in place, at ``at``) the papermill, coal burner and mint of a seat that
        plays for new shafts, built in that order: the research point first, then the
        fuel of the shafts and the mint.  Free sites next to the home go to the mint
        first (its gold stays near home), then the papermill and the coal burner, which
        may also stand two steps out (boards are carried there, paper and fuel fetched
        back); no mint without a coal burner."""
        far = self._far_spare_sites(state) if FAR_COAL else []
        where: dict[int, int] = {}
        for kind in SHAFT_NEAR:
            if kind not in wanted or kind in kinds:
                continue
            if spots:
                where[kind] = spots.pop(0)
            elif kind != D.MINT and far:
                where[kind] = far.pop(0)
        own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
        if D.MINT in where and D.COAL_BURNER not in where and D.COAL_BURNER not in own:
            del where[D.MINT]  # no fuel for it
        for kind in SHAFT_ORDER:
            if kind in where:
                out.insert(at, (where[kind], kind))
                at += 1

    def _stock_plan(self, state: RBState, own: list[int], left: float) -> bool:
        """True when a stock exchange is planned (``STOCK``, a long game): our mint stands,
        coins are made or on hand, and at least ``STOCK_TURNS`` turns are left for the
        stock exchange, the paper and a stock to be carried home."""
        if not STOCK or not self._long_plan(state) or D.MINT not in own or left < STOCK_TURNS:
            return False
        if D.COAL_BURNER not in own:
            return False
        coins = sum(
            1
            for t in state.trans.values()
            if t.owner == self.seat
            for g in t.cargo
            if g & D.GOOD_MASK == D.COINS
        )
        home = state.homes[self.seat]
        coins += state.pool(home, [])[D.COINS]
        return coins >= STOCK_COINS

    def _paper_wanted(self, state: RBState, avail: list[int]) -> bool:
        """True when our stock exchange wants a paper (``avail``: goods at home): it
        stands, and 2 coins are at home or lying on its site, and no paper is at home."""
        if not STOCK or avail[D.PAPER]:
            return False
        for b in state.buildings.values():
            if b[0] == D.STOCK_EXCHANGE and b[2] == self.seat:
                lying = state.pool(b[1], [])
                return avail[D.COINS] + lying[D.COINS] >= 2 and not lying[D.PAPER]
        return False

    def _far_spare_sites(self, state: RBState) -> list[int]:
        """Land areas two off-road steps from the home without a building, for a
        secondary building: pastures first, then rock and woods."""
        out: list[int] = []
        for terrain in (D.PASTURE, D.ROCK, D.WOODS):
            out += self._far_sites(state, terrain)
        return out

    def _research_pending(self, state: RBState) -> bool:
        """True while the seat has not researched yet (the two starting geese buy one
        point together with a paper)."""
        return not state.research[self.seat]

    def _feed(self, state: RBState) -> tuple[int, list[int]] | None:
        """(site, input set) of one of our secondary buildings next to the home whose
        inputs lie at home and are not kept for something else, or None."""
        w = state.world
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        reserve = self._reserve(state)
        near = set(neighbours(state, home))
        best: tuple[int, tuple[int, list[int]]] | None = None
        for b in state.buildings.values():
            kind, place, owner, _used = b
            if owner != self.seat or kind not in FEEDS:
                continue
            far_ok = kind == D.COAL_BURNER and FAR_COAL
            far_paper = kind == D.PAPERMILL and (SHAFT_SITES or FAR_PAPER)
            far_ok = far_ok or (far_paper and self._shafts(state))
            far_ok = far_ok or (kind == D.MINT and FAR_MINT) or kind == D.STOCK_EXCHANGE
            if place not in near and not far_ok:
                continue
            if w.place_hex[place] == w.place_hex[home]:
                continue
            if any(t.owner == self.seat and t.place == place for t in state.trans.values()):
                continue  # someone is already there
            wanted = self._input_need(state, kind, place, avail)
            if wanted is None:
                continue
            rank, need = wanted
            enough = all(
                avail[g] - (reserve[g] if g == D.BOARD else 0) >= need[g]
                for g in range(D.NUM_GOODS)
            )
            if enough and (best is None or rank < best[0]):
                best = (rank, (place, need))
        return best[1] if best is not None else None

    def _input_need(
        self, state: RBState, kind: int, place: int, avail: list[int]
    ) -> tuple[int, list[int]] | None:
        """(rank, goods) still to bring to our secondary building ``kind`` at ``place``
        for its next input set (``avail``: goods at home), or None when it needs none;
        lower ranks are fed first."""
        need = [0] * D.NUM_GOODS
        lying = state.pool(place, [])  # in drop mode a set is completed on the site
        if kind == D.MINT:
            if self._turns_left(state) < MINT_TURNS:
                return None  # the coin would not be home in time
            need[D.GOLD], need[D.FUEL] = 2 - min(2, lying[D.GOLD]), 1 - min(1, lying[D.FUEL])
            rank = 0
        elif kind == D.STOCK_EXCHANGE:
            if self._turns_left(state) < STOCK_FEED_TURNS:
                return None  # the stock would not be home in time
            coins = 2 - min(2, lying[D.COINS])
            if avail[D.COINS] < coins:
                return None  # a set is carried only when complete (coins are worth 40)
            need[D.COINS], need[D.PAPER] = coins, 1 - min(1, lying[D.PAPER])
            rank = 0
        elif kind == D.STONE_FACTORY:
            if avail[D.CLAY] < 1:
                return None
            need[D.CLAY] = min(2, avail[D.CLAY])
            rank = 0
        elif kind == D.COAL_BURNER:
            gold = avail[D.GOLD] + self._gold_coming(state)
            shafts = self._shaft_fuel(state)
            if avail[D.FUEL] * 2 >= (gold if gold >= 2 else 0) + 2 * shafts or lying[D.FUEL]:
                return None
            need[D.BOARD] = max(0, 2 - lying[D.BOARD] - lying[D.TRUNK])
            rank = 1
        else:
            research = self._research_pending(state) or self._paper_wanted(state, avail)
            if not research or avail[D.PAPER] or lying[D.PAPER]:
                return None
            need[D.BOARD] = max(0, 2 - lying[D.BOARD] - lying[D.TRUNK])
            rank = 2
        return (rank, need) if any(need) else None

    def _wants_output(self, state: RBState, kind: int) -> bool:
        """True when our secondary building ``kind`` should process the goods of our
        transporters there: paper only while research is pending and none is at home,
        fuel only while gold waits for it (boards passing on their way to a building
        site are not made into paper)."""
        if kind == D.PAPERMILL:
            home = state.homes[self.seat]
            at_home = state.pool(home, state.presence(self.seat).get(home, []))
            wanted = self._research_pending(state) or self._paper_wanted(state, at_home)
            return wanted and not at_home[D.PAPER]
        if kind == D.COAL_BURNER:
            home = state.homes[self.seat]
            at_home = state.pool(home, state.presence(self.seat).get(home, []))
            gold = at_home[D.GOLD] + self._gold_coming(state)
            return at_home[D.FUEL] * 2 < gold + 2 * self._shaft_fuel(state)
        return True

    def _shaft_fuel(self, state: RBState) -> int:
        """Fuel wanted for new shafts (``SHAFT_FUEL``): one per dry mine of ours once
        new shafts are researched."""
        return len(self._dry_mines(state)) if SHAFT_FUEL else 0

    def _gold_coming(self, state: RBState) -> int:
        """Gold of ours away from home: on our transporters or loose at our mines."""
        n = 0
        home = state.homes[self.seat]
        for t in state.trans.values():
            if t.owner == self.seat and t.place != home:
                n += sum(1 for g in t.cargo if g & D.GOOD_MASK == D.GOLD)
        for b in state.buildings.values():
            if b[0] in (D.MINE, D.MINT) and b[2] == self.seat and b[1] != home:
                n += sum(1 for g in state.piles.get(b[1], ()) if g & D.GOOD_MASK == D.GOLD)
        return n

    def _turns_left(self, state: RBState) -> float:
        """A rough guess of the turns still to play."""
        if state.seats == 1:
            return state.options.solo_turns - state.turn
        left = D.END_MARK[state.seats] - len(state.wonder)
        if PACE and self._long_game(state):
            pace = D.END_MARK[state.seats] / SCHEDULE_TURNS
        else:
            pace = max(len(state.wonder) / max(state.turn, 1), 1.0 + state.seats)
        return min(state.neutral_left, left / pace)

    def _wonder_before(self, state: RBState) -> int:
        """Bricks that stood when this turn's wonder phase began (each turn's wonder
        phase ends with the neutral brick, so the bricks after the last neutral one
        were bought this turn)."""
        wonder = state.wonder
        for i in range(len(wonder) - 1, -1, -1):
            if wonder[i] < 0:
                return i + 1
        return 0

    def _long_game(self, state: RBState) -> bool:
        """True when the wonder has filled slowly enough in the turns played so far
        for the game to last ``LONG_GAME`` turns or more at that pace (every player's
        bricks and the neutral ones; 69 bricks end a 4-seat game)."""
        done = max(0, state.turn - 1)
        if done == 0:
            return True
        pace = D.END_MARK[state.seats] / LONG_GAME
        return self._wonder_before(state) <= done * pace + LONG_SLACK

    def _behind_schedule(self, state: RBState) -> bool:
        """True while one more brick keeps the wonder (with this turn's neutral brick)
        within a game of ``SCHEDULE_TURNS`` turns."""
        due = D.END_MARK[state.seats] * state.turn / SCHEDULE_TURNS
        if FAIR_SHARE:  # no more bricks than the player with the fewest
            mine = state.wonder.count(self.seat)
            if any(mine > state.wonder.count(s) for s in range(state.seats)):
                return False
        return len(state.wonder) + 2 <= due + 0.5

    def _last_turn(self, state: RBState, margin: int = 0) -> bool:
        """True when the game may end in this turn's wonder phase (``margin`` bricks of
        slack on top of what every player could buy with the goods it holds)."""
        if state.seats == 1:
            return state.turn >= state.options.solo_turns
        if state.neutral_left <= 1:
            return True
        if PACE and LAST_BY_SCHEDULE and self._long_game(state):
            # everyone paces: the game ends when the schedule (or one last spending
            # turn of every player) fills the wonder
            left = D.END_MARK[state.seats] - self._wonder_before(state)
            return left <= D.END_MARK[state.seats] / SCHEDULE_TURNS * FINAL_TURNS + margin
        bricks = len(state.wonder) + 1 + margin
        for seat in range(state.seats):
            goods = 0
            for t in state.trans.values():
                if t.owner == seat:
                    goods += len(t.cargo)
            goods += sum(state.pool(state.homes[seat], [])) if state.homes[seat] >= 0 else 0
            k = 0
            while brick_cost(k + 1, len(state.wonder)) <= goods:
                k += 1
            bricks += k
        return bricks >= D.END_MARK[state.seats]

    def _reserve(self, state: RBState) -> list[int]:
        """Goods at home kept back from the wonder for the next producers."""
        need = [0] * D.NUM_GOODS
        if self._turns_left(state) <= LATE_TURNS:
            return need
        targets = self._targets(state)
        for _place, kind in targets[:RESERVE_TARGETS]:
            for g, n in D.BUILDINGS[kind].cost:
                need[g] += n
        for place, kind in targets[RESERVE_TARGETS:]:
            if kind == D.RAFT_FACTORY or (kind == D.MINE and self._by_water(state, place)):
                for g, n in D.BUILDINGS[kind].cost:  # the raft plan's stone is scarce
                    need[g] += n
        return need

    # ------------------------------------------------------------------ production

    def _production(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        last = self._last_turn(state, END_MARGIN)
        for action in legal:
            if isinstance(action, A.Breed):
                return action  # more donkeys (offered only within the transporter limit)
            if (
                isinstance(action, A.Take)
                and (last or (TAKE_GOLD and action.place != home))
                and D.G[action.good] in KEEP
            ):
                return action  # scoring goods onto our transporters before others move
        if TAKE_OWN:
            w = state.world
            for action in legal:
                if not isinstance(action, A.Take) or action.place == home:
                    continue
                b = state.buildings.get(w.place_hex[action.place])
                if b is None or b[2] != self.seat or b[1] != action.place:
                    continue
                if RAFTS and state.trans[action.transporter].water:
                    continue  # a boat's room is kept for gold
                if D.BUILDINGS[b[0]].kind == D.PRIMARY:
                    return action  # our producer's good onto our donkey there
        raft = self._raft_production(state, legal)
        if raft is not None:
            return raft
        for action in legal:
            if isinstance(action, A.Produce):
                kind = state.buildings[action.hex][0]
                if kind in FEEDS and self._wants_output(state, kind):
                    return action
        for action in legal:
            if isinstance(action, A.Research) and action.project == self._project(state):
                return action
        return None

    def _project(self, state: RBState) -> str:
        """The research project to take: new shafts in a long game (``SHAFTS``), else
        specialisation (4/0 mines, all gold)."""
        if self._shafts(state):
            return D.RESEARCH[D.NEW_SHAFTS]
        return D.RESEARCH[D.SPECIALISATION]

    def _shafts(self, state: RBState) -> bool:
        """True when this seat plays for new shafts (``SHAFTS``, a long game)."""
        return SHAFTS and self._pacing(state)

    def _dry_mines(self, state: RBState) -> list[tuple[int, int]]:
        """(hex, land area) of our mines whose bags hold at most ``SHAFT_LOW`` counters,
        once new shafts are researched."""
        if not state.research[self.seat] >> D.NEW_SHAFTS & 1:
            return []
        return [
            (h, b[1])
            for h, b in state.buildings.items()
            if b[0] == D.MINE and b[2] == self.seat and sum(state.bags.get(h, (0, 0))) <= SHAFT_LOW
        ]

    def _shaft_errand(self, state: RBState) -> tuple[int, list[int]] | None:
        """(mine, goods) of a new shaft for one of our dry mines whose iron and fuel lie at
        home, or None (also when such goods are already on their way)."""
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        for _h, place in self._dry_mines(state):
            if place == home:
                continue
            have = state.pool(place, here.get(place, []))
            for u in state.trans.values():
                if u.owner == self.seat and u.place not in (home, place):
                    for g in u.cargo:
                        have[g & D.GOOD_MASK] += 1
            need = [0] * D.NUM_GOODS
            for g, n in D.SHAFT_COST:
                need[g] = max(0, n - have[g])
            if not any(need):
                continue
            if all(avail[g] >= need[g] for g in range(D.NUM_GOODS)):
                return place, need
        return None

    # ------------------------------------------------------------------ movement

    def _movement(self, state: RBState, legal: list[Any]) -> Any | None:
        seat = self.seat
        home = state.homes[seat]
        if state.active < 0:
            moves = [a for a in legal if isinstance(a, A.MoveTransporter)]
            land = [a for a in moves if not state.trans[a.transporter].water]
            site = self._breeding_site(state)
            stay = self._breeders(state, site)
            for a in land:  # first the ones away from home come back
                if state.trans[a.transporter].place != home and a.transporter not in stay:
                    return a
            for a in moves:  # then the boats (the raft plan)
                if state.trans[a.transporter].water:
                    return a
            if site is not None and len(stay) < 2:  # send donkeys to breed
                for a in land:
                    t = state.trans[a.transporter]
                    if t.kind == D.DONKEY and t.place == home and self._spare_at_home(state, t):
                        if self._mine_errand(state, t) or self._trunk_holder(state, t):
                            continue
                        return a
            for a in land:
                t = state.trans[a.transporter]
                others = sum(
                    1
                    for u in state.trans.values()
                    if u.owner == seat and u.place == home and u is not t
                )
                if self._raft_feed(state, t) is not None:
                    return a  # the raft comes before this turn's brick
                if others == 0 and not self._home_free(state):
                    continue  # keep one transporter home for the wonder
                if self._trunk_fetch(state, t) is not None:
                    return a  # the raft's second trunk from our woodcutter
                if self._trunk_holder(state, t):
                    continue  # it keeps its trunks at home for the raft
                if self._errand(state, t) is not None or self._outing(state, home) is not None:
                    return a
            return None
        t = state.trans[state.active]
        if t.water:
            return self._boat(state, t, legal)
        if t.place == home:
            return self._at_home(state, t, legal)
        return self._away(state, t, legal)

    def _home_free(self, state: RBState) -> bool:
        """True when the last transporter at home may leave too: in a long game
        (``ALL_OUT``) on a turn when no brick is due (the wonder is on schedule or
        another player has fewer bricks) and the game is not about to end."""
        if not ALL_OUT or not self._long_plan(state):
            return False
        if self._last_turn(state, END_MARGIN) or self._turns_left(state) <= FINAL_TURNS + 1:
            return False
        return not self._behind_schedule(state)

    def _breeding_site(self, state: RBState) -> int | None:
        """A pasture next to the home where two of our donkeys may breed next turn: no
        building, no goods, no other player's transporter; None when we are at the
        land transporter limit or the game is about to end."""
        long = self._pacing(state)
        breed = BREED or (LONG_BREED and long)
        if not breed or self._turns_left(state) <= BREED_TURNS:
            return None
        land = sum(1 for t in state.trans.values() if t.owner == self.seat and not t.water)
        if land >= D.MAX_LAND:
            return None
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        for q in neighbours(state, home):
            h = w.place_hex[q]
            if h == hh or h in state.buildings or w.hexes[h].terrain != D.PASTURE:
                continue
            if any(state.piles.get(a) for a in w.areas[h]):
                continue
            if any(
                w.place_hex[t.place] == h and t.owner != self.seat for t in state.trans.values()
            ):
                continue
            if any(site == q for site, _kind in self._targets(state)):
                continue
            return q
        if FAR_BREED and self._long_plan(state):
            own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
            targets = self._targets(state)
            if D.MINE not in own and not any(kind == D.MINE for _q, kind in targets):
                return None  # no gold to carry: the trips would cost more than they give
            for r in self._far_sites(state, D.PASTURE):
                h = w.place_hex[r]
                if any(state.piles.get(a) for a in w.areas[h]):
                    continue
                if any(
                    w.place_hex[t.place] == h and t.owner != self.seat for t in state.trans.values()
                ):
                    continue
                if any(site == r for site, _kind in targets):
                    continue
                return r
        return None

    def _mine_errand(self, state: RBState, t: Any) -> bool:
        """True when ``t`` has an errand before the pace is known while a mine away from
        the home is one of the first two targets (``BREED_ERRANDS_FIRST``): it carries
        goods instead of going to breed (a home without rock builds its mine in turn 1
        with the starting stone, or the sawmill takes that stone)."""
        if not BREED_ERRANDS_FIRST or self._long_plan(state):
            return False
        if self._errand(state, t) is None:
            return False
        home = state.homes[self.seat]
        return any(site != home and kind == D.MINE for site, kind in self._targets(state)[:2])

    def _breeders(self, state: RBState, site: int | None) -> set[int]:
        """Ids of (at most two) empty donkeys of ours standing on the breeding site."""
        if site is None:
            return set()
        ids = sorted(
            t.id
            for t in state.trans.values()
            if t.owner == self.seat and t.place == site and t.kind == D.DONKEY and not t.cargo
        )
        return set(ids[:2])

    def _spare_at_home(self, state: RBState, t: Any) -> bool:
        """True when another transporter of ours stays at home besides ``t``."""
        home = state.homes[self.seat]
        return any(
            u.owner == self.seat and u.place == home and u is not t and not u.moved
            for u in state.trans.values()
        )

    def _at_home(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        factory = self._raft_feed(state, t)
        if factory is not None:  # 2 trunks to the raft factory
            if trunks_aboard(t) < 2:
                for a in legal:
                    if isinstance(a, A.Load) and a.place == home and D.G[a.good] == D.TRUNK:
                        return a
            for a in legal:
                if isinstance(a, A.Step) and a.to == factory:
                    return a
            return None
        fetch = self._trunk_fetch(state, t)
        if fetch is not None:
            for a in legal:
                if isinstance(a, A.Step) and a.to == fetch:
                    return a
        if self._trunk_holder(state, t):
            return None  # it keeps its trunks for the raft
        site = self._breeding_site(state)
        if (
            site is not None
            and t.kind == D.DONKEY
            and len(self._breeders(state, site)) < 2
            and self._spare_at_home(state, t)
            and not self._mine_errand(state, t)
        ):
            steps = {a.to: a for a in legal if isinstance(a, A.Step)}
            toward = site if site in steps else self._toward(state, site, steps)
            if toward is not None and toward in steps:
                if t.cargo:
                    return A.Unload(D.GOODS[t.cargo[0] & D.GOOD_MASK], home)
                return steps[toward]
        last = self._last_turn(state, END_MARGIN)
        steps = {a.to: a for a in legal if isinstance(a, A.Step)}
        loads = {D.G[a.good]: a for a in legal if isinstance(a, A.Load) and a.place == home}
        capacity = D.TRANSPORTERS[t.kind].capacity
        if last:  # scoring goods onto transporters (in place of other cargo), then stay
            for g in (D.STOCK, D.COINS, D.GOLD):
                if g in loads:
                    if len(t.cargo) < capacity:
                        return loads[g]
                    for c in t.cargo:
                        if c & D.GOOD_MASK not in KEEP:
                            return A.Unload(D.GOODS[c & D.GOOD_MASK], home)
        errand = self._errand(state, t)
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        wait = False
        if errand is not None and errand[0] not in steps:
            toward = self._toward(state, errand[0], steps)
            next_door = errand[0] in neighbours(state, home)
            if next_door and NEXT_DOOR_WAIT and self._long_plan(state):
                toward = None  # only an off-road step leads there: next turn, straight
                wait = ERRAND_WAIT
            if toward is not None:
                steps = {**steps, errand[0]: steps[toward]}
        if errand is not None and errand[0] in steps:
            site, need = errand
            for g in set(cargo):
                if need[g] < cargo.count(g) and not (last and g in KEEP):
                    return A.Unload(D.GOODS[g], home)
            if len(cargo) < capacity:
                for g in range(D.NUM_GOODS):
                    if need[g] > cargo.count(g) and g in loads:
                        return loads[g]
            if site in steps and any(need[g] and g in cargo for g in range(D.NUM_GOODS)):
                return steps[site]
        for g in set(cargo):
            if not (last and g in KEEP):
                return A.Unload(D.GOODS[g], home)
        if last and any(g in KEEP for g in cargo):
            return None
        if wait:
            return None  # no outing: the errand starts from home next turn
        target = self._outing(state, home)
        if target is not None and target in steps and not cargo:
            return steps[target]
        return None

    def _away(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        if (
            self._raft_seats(state)
            and t.place == self._raft_factory(state)
            and trunks_aboard(t) >= 2
            and self._raft_wanted(state)
        ):
            return None  # the raft is made here next production
        site = self._breeding_site(state)
        if site is not None and t.place == site and t.id in self._breeders(state, site):
            return None  # stay and breed
        if (
            FAR_BREED
            and site is not None
            and t.kind == D.DONKEY
            and not t.cargo
            and t.place != site
            and len(self._breeders(state, site)) < 2
            and site in neighbours(state, t.place)
        ):
            for a in legal:
                if isinstance(a, A.Step) and a.to == site:
                    return a
            if not any(isinstance(a, A.Load) for a in legal):
                return None  # the off-road step to the pasture next turn
        loads = [a for a in legal if isinstance(a, A.Load)]
        steps = [a for a in legal if isinstance(a, A.Step)]
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        if any(place == t.place for _h, place in self._dry_mines(state)) and (
            D.IRON in cargo or D.FUEL in cargo
        ):
            pool = state.pool(t.place, state.presence(self.seat).get(t.place, []))
            if all(pool[g] >= n for g, n in D.SHAFT_COST):
                return None  # the new shaft is built here this turn
            if self._drop(state):  # leave it on the mine and fetch the rest
                return A.Unload(D.GOODS[D.IRON if D.IRON in cargo else D.FUEL], t.place)
        waiting = False
        for site, kind in self._targets(state):
            cost = D.BUILDINGS[kind].cost
            if site != t.place or not any(cargo.count(g) and n for g, n in cost):
                continue
            mine_here = state.presence(self.seat).get(site, [])
            if not self._drop(state) or all(state.pool(site, mine_here)[g] >= n for g, n in cost):
                waiting = True  # everything is here: build this turn
            else:  # leave the goods on the site and fetch the rest
                for g, _n in cost:
                    if g in cargo:
                        return A.Unload(D.GOODS[g], t.place)
        b = state.buildings.get(state.world.place_hex[t.place])
        if b is not None and b[2] == self.seat and b[0] in FEEDS and b[1] == t.place:
            inputs = D.BUILDINGS[b[0]].inputs
            if self._drop(state):  # inputs lie loose there until the set is complete
                home = state.homes[self.seat]
                wanted = self._input_need(
                    state, b[0], t.place, state.pool(home, state.presence(self.seat).get(home, []))
                )
                for g, _n in inputs:
                    if g in cargo and wanted is not None and wanted[1][g]:
                        return A.Unload(D.GOODS[g], t.place)
            elif all(cargo.count(g) >= n for g, n in inputs):
                waiting = True  # produce here next production
        if waiting:
            return None  # building here this turn
        step_to = {a.to: a for a in steps}
        near = neighbours(state, home)
        for site, kind in self._targets(state) if CARRY_ON else []:
            if site == t.place or site == home:
                continue
            if site in near:
                break  # goods for sites next to home go home first
            have = state.pool(site, [])
            if any(g in cargo and have[g] < n for g, n in D.BUILDINGS[kind].cost):
                toward = self._toward(state, site, step_to)
                dist = self._distances(state, site)
                if toward is not None and dist.get(toward, 99) < dist.get(t.place, 99):
                    return step_to[toward]
                if FAR_STAY and self._long_plan(state) and dist.get(t.place, 99) == 1:
                    return None  # off-road, a donkey takes only a first step: next turn
            break
        far_feed = self._far_feed_step(state, t, cargo, step_to)
        if far_feed == STAY:
            return None
        if far_feed is not None:
            return far_feed
        if OUTING_STAY and len(cargo) < D.TRANSPORTERS[t.kind].capacity:
            fetch = self._far_pile_step(state, t, step_to)
            if fetch == STAY:
                return None
            if fetch is not None and not cargo:
                return fetch
        if not cargo and not loads:
            w = state.world
            for q in step_to:
                b = state.buildings.get(w.place_hex[q])
                if (
                    b is not None
                    and b[2] == self.seat
                    and b[1] == q
                    and q != home
                    and (D.BUILDINGS[b[0]].kind == D.PRIMARY or b[0] in FEEDS)
                    and self._pile_worth(state, q)
                    and q not in neighbours(state, home)
                ):
                    return step_to[q]  # fetch from a far producer
        if loads and self._drop(state):
            sites = {site for site, _kind in self._targets(state)}
            loads = [a for a in loads if a.place not in sites]  # goods left for a build
        if loads and LEAVE_OTHERS_LOADS and self._spared(state, t.place):
            loads = []  # another player's production
        if loads:
            keep = self._inputs_at(state, t.place)
            loads = [a for a in loads if D.G[a.good] not in keep or a.place != t.place]
        if loads:
            return min(loads, key=lambda a: LOAD_ORDER.index(D.G[a.good]))
        dist = self._distances(state, home)
        here = dist.get(t.place, 99)
        for a in steps:
            if dist.get(a.to, 99) < here:
                return a
        return None

    def _far_pile_step(self, state: RBState, t: Any, step_to: dict[int, Any]) -> Any | None:
        """For a transporter away from home with room (``OUTING_STAY``): a step to a
        neighbouring producer of ours two steps from the home where a scoring good
        (gold, coins, stock) lies, or ``STAY`` when only an off-road step leads there
        and the transporter has already moved this phase (it arrived along a road: a
        donkey's road step cannot be followed by an off-road one, shared rules §6, so
        it waits there and steps in next turn); None otherwise."""
        w = state.world
        home = state.homes[self.seat]
        near = neighbours(state, home)
        for q in neighbours(state, t.place):
            if q == home or q in near:
                continue
            b = state.buildings.get(w.place_hex[q])
            if b is None or b[2] != self.seat or b[1] != q:
                continue
            if not any(g & D.GOOD_MASK in KEEP for g in state.piles.get(q, ())):
                continue
            if q in step_to:
                return step_to[q]
            return STAY
        return None

    def _far_feed_step(
        self, state: RBState, t: Any, cargo: list[int], step_to: dict[int, Any]
    ) -> Any | None:
        """A step towards one of our secondary buildings two steps from the home (the
        coal burner of ``FAR_COAL``) that wants goods this transporter carries, or to a
        dry mine of ours for the iron and fuel of a new shaft; ``STAY`` when the place is
        next door but only an off-road step leads there (next turn's first step)."""
        if not cargo:
            return None
        home = state.homes[self.seat]
        near = neighbours(state, home)
        avail = state.pool(home, state.presence(self.seat).get(home, []))
        places: list[int] = []
        for b in state.buildings.values():
            kind, place, owner, _used = b
            if owner != self.seat or kind not in FEEDS or place in near or place == t.place:
                continue
            wanted = self._input_need(state, kind, place, avail)
            if wanted is None or not any(wanted[1][g] for g in cargo):
                continue
            places.append(place)
        if D.IRON in cargo or D.FUEL in cargo:  # a new shaft's goods (``SHAFTS``)
            places += [q for _h, q in self._dry_mines(state) if q not in (home, t.place)]
        for place in places:
            toward = self._toward(state, place, step_to)
            dist = self._distances(state, place)
            if toward is not None and dist.get(toward, 99) < dist.get(t.place, 99):
                return step_to[toward]
            if FAR_STAY and self._long_plan(state) and dist.get(t.place, 99) == 1:
                return STAY  # off-road, a donkey takes only a first step: next turn
        return None

    def _toward(self, state: RBState, site: int, steps: dict[int, Any]) -> int | None:
        """The step destination (a key of ``steps``) closest to ``site``, if closer
        than staying."""
        dist = self._distances(state, site)
        best = min(steps, key=lambda q: dist.get(q, 99), default=None)
        return best if best is not None and dist.get(best, 99) < 99 else None

    def _distances(self, state: RBState, start: int) -> dict[int, int]:
        """Off-road land steps from ``start`` to every land area reached (kept for the
        rest of the decision; callers must not change the dictionary returned)."""
        memo = self._land_steps
        if memo is not None and (got := memo.get(start)) is not None:
            return got
        dist = {start: 0}
        todo = deque([start])
        while todo:
            p = todo.popleft()
            for q in neighbours(state, p):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        if memo is not None:
            memo[start] = dist
        return dist

    def _errand(self, state: RBState, t: Any) -> tuple[int, list[int]] | None:
        """(site, goods still needed there) of the first planned producer that this
        transporter at home can help pay for, or None."""
        if self._turns_left(state) <= LATE_TURNS - 1:
            return None
        shaft = self._shaft_errand(state)
        if shaft is not None:
            return shaft
        feed = self._feed(state)
        if feed is not None:
            return feed
        if self._turns_left(state) <= LATE_TURNS:
            return None
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        bit = 1 << (self.seat + D.GOOD_BITS)
        loadable = [0] * D.NUM_GOODS
        for g in state.piles.get(home, ()):
            if not g & bit:
                loadable[g & D.GOOD_MASK] += 1
        for g in t.cargo:
            loadable[g & D.GOOD_MASK] += 1
        for site, kind in self._targets(state):
            cost = D.BUILDINGS[kind].cost
            if site == home:
                for g, n in cost:
                    avail[g] -= min(n, avail[g])
                continue
            if self._by_water(state, site):  # the raft carries these from home
                lying = state.pool(site, [])
                for g, n in cost:
                    avail[g] -= min(max(0, n - lying[g]), avail[g])
                continue
            have = state.pool(site, here.get(site, []))
            if COUNT_TRANSIT:  # cargo on its way to a far site is not sent twice
                for u in state.trans.values():
                    if u.owner == self.seat and u.place not in (home, site):
                        for g in u.cargo:
                            have[g & D.GOOD_MASK] += 1
            need = [0] * D.NUM_GOODS
            for g, n in cost:
                need[g] = max(0, n - have[g])
            if not any(need):
                continue
            if all(
                avail[g] >= need[g] and loadable[g] >= min(need[g], 1) for g in range(D.NUM_GOODS)
            ):
                return site, need
            return None  # save up for this one first
        return None

    def _outing(self, state: RBState, place: int) -> int | None:
        """A neighbouring land area with goods (or a producer) worth fetching from."""
        w = state.world
        best, best_score = None, 0
        sites = {site for site, _kind in self._targets(state)} if self._drop(state) else set()
        for q in neighbours(state, place):
            score = self._pile_worth(state, q) if q not in sites else 0
            b = state.buildings.get(w.place_hex[q])
            if b is not None and b[1] == q and D.BUILDINGS[b[0]].kind == D.PRIMARY:
                score += 1
            for r in neighbours(state, q):
                m = state.buildings.get(w.place_hex[r])
                ours = m is not None and (D.BUILDINGS[m[0]].kind == D.PRIMARY or m[0] in FEEDS)
                far = r != place and r not in neighbours(state, place)
                if ours and m is not None and m[2] == self.seat and m[1] == r and far:
                    score += self._pile_worth(state, r)
            busy = sum(1 for t in state.trans.values() if t.owner == self.seat and t.place == q)
            score -= 2 * busy
            if score > best_score:
                best, best_score = q, score
        return best

    def _spared(self, state: RBState, place: int) -> bool:
        """Whether the goods at ``place`` lie on another player's building in a long
        game (``_long_plan``): what ``LEAVE_OTHERS`` and ``LEAVE_OTHERS_LOADS`` leave
        alone."""
        b = state.buildings.get(state.world.place_hex[place])
        return b is not None and b[2] != self.seat and b[2] >= 0 and self._long_plan(state)

    def _pile_worth(self, state: RBState, place: int) -> int:
        """How much the loose goods at ``place`` are worth fetching: one per good,
        ``SCORING_WEIGHT`` per gold, coin or stock; the inputs lying at one of our
        secondary buildings count nothing (they wait there for the rest of a set)."""
        if LEAVE_OTHERS and self._spared(state, place):
            return 0  # another player's production, left to them in a long game
        keep = self._inputs_at(state, place)
        worth = 0
        for g in state.piles.get(place, ()):
            g &= D.GOOD_MASK
            if g in keep:
                continue
            worth += SCORING_WEIGHT if g in KEEP else 1
        return worth

    def _inputs_at(self, state: RBState, place: int) -> set[int]:
        """Goods left at ``place`` for our secondary building there (inputs of its set)."""
        b = state.buildings.get(state.world.place_hex[place])
        if b is None or b[2] != self.seat or b[0] not in FEEDS or b[1] != place:
            return set()
        return {g for g, _n in D.BUILDINGS[b[0]].inputs}

    # ------------------------------------------------------------------ boats

    def _raft_seats(self, state: RBState) -> bool:
        """True when the raft plan may be used at this table size (``RAFTS``,
        ``RAFT_SEATS``)."""
        return RAFTS and 1 < state.seats <= RAFT_SEATS

    def _boat_distances(self, state: RBState, starts: list[int]) -> dict[int, int]:
        """Boat steps from the nearest of ``starts`` (docks, sea or river places) to every
        place a boat reaches; a dock is a dead end (a boat that docks stops there).
        Boats' links are part of the map, so the answer is kept per map and ``starts``
        (``_BOAT_STEPS``); callers must not change the dictionary returned."""
        w = state.world
        kept = _BOAT_STEPS.get(id(w))
        if kept is None or kept[0] is not w:
            kept = _BOAT_STEPS[id(w)] = (w, {})
        key = tuple(starts)
        dist = kept[1].get(key)
        if dist is not None:
            return dist
        dist = dict.fromkeys(starts, 0)
        todo = deque(starts)
        while todo:
            p = todo.popleft()
            if w.place_kind[p] == DOCK and dist[p] > 0:
                continue
            for _edge, q, _dock in w.boat_links[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        kept[1][key] = dist
        return dist

    def _area_docks(self, state: RBState, place: int) -> list[int]:
        """Docks of the (possibly bridged) land area ``place``."""
        w = state.world
        out: list[int] = []
        for a in w.areas[w.place_hex[place]]:
            if state.root[a] == place:
                out.extend(w.docks_of_area[a])
        return out

    def _islands(self, state: RBState) -> list[int]:
        """Mountain land areas without a building more than ``RAFT_LAND`` land steps from
        the home (or with no land path to it) whose coast lies within ``RAFT_REACH`` boat
        steps of the home's coast, nearest first (the raft plan's mine sites)."""
        w = state.world
        home = state.homes[self.seat]
        docks = self._area_docks(state, home)
        if not docks:
            return []
        by_land = self._distances(state, home)
        by_boat = self._boat_distances(state, docks)
        found: list[tuple[int, int]] = []
        for h, hx in enumerate(w.hexes):
            if hx.terrain != D.MOUNTAIN or h in state.buildings:
                continue
            for a in w.areas[h]:
                q = state.root[a]
                if by_land.get(q, 99) <= RAFT_LAND or any(q == r for _d, r in found):
                    continue
                steps = min((by_boat.get(d, 99) for d in self._area_docks(state, q)), default=99)
                if steps <= RAFT_REACH:
                    found.append((steps, q))
        return [q for _d, q in sorted(found)]

    def _by_water(self, state: RBState, site: int) -> bool:
        """True when ``site`` is a target of the raft plan: more than ``RAFT_LAND`` land
        steps from the home, or no land path joins it to the home."""
        if not self._raft_seats(state):
            return False
        return self._distances(state, state.homes[self.seat]).get(site, 99) > RAFT_LAND

    def _raft_factory_site(self, state: RBState, taken: set[int]) -> int | None:
        """A free shore land area next to the home (not in ``taken``) for the raft
        factory, in the order of ``_spare_sites`` (pasture first, woods last)."""
        for q in self._spare_sites(state, taken, {}):
            if self._area_docks(state, q):
                return q
        return None

    def _raft_pending(self, state: RBState) -> bool:
        """True while the raft plan has a raft factory or an island mine to build (its
        stone is then not spent on roads)."""
        if not self._raft_seats(state):
            return False
        return any(
            kind == D.RAFT_FACTORY or (kind == D.MINE and self._by_water(state, q))
            for q, kind in self._targets(state)
        )

    def _raft_production(self, state: RBState, legal: list[Any]) -> Any | None:
        """In production, for the raft plan: our raft factory makes a raft (launched on
        the coastline nearest the home's) when one is wanted, or a land transporter of
        ours at home takes the trunks lying there (up to the 2 of a raft) so that the
        sawmill does not saw them; None otherwise."""
        if not self._raft_seats(state):
            return None
        job = self._raft_job(state)
        home = state.homes[self.seat]
        if job is not None:  # a boat docked at home takes the mine's goods now
            for t in self._rafts(state):
                if home not in state.reach(t):
                    continue
                cargo = [g & D.GOOD_MASK for g in t.cargo]
                if len(cargo) >= D.TRANSPORTERS[t.kind].capacity:
                    continue
                for g in (D.STONE, D.BOARD):
                    if job[1][g] > cargo.count(g):
                        for a in legal:
                            if (
                                isinstance(a, A.Take)
                                and a.transporter == t.id
                                and a.place == home
                                and D.G[a.good] == g
                            ):
                                return a
        if not self._raft_wanted(state):
            return None
        launches = [
            a
            for a in legal
            if isinstance(a, A.Produce) and state.buildings[a.hex][0] == D.RAFT_FACTORY
        ]
        if launches:
            dist = self._boat_distances(state, self._area_docks(state, home))
            return min(launches, key=lambda a: (dist.get(a.launch, 99), a.launch))
        if self._raft_factory(state) is None:
            return None
        held = 0
        for t in state.trans.values():
            if t.owner == self.seat and t.place == home and not t.water:
                held += trunks_aboard(t)
        if held >= 2:
            return None
        takes = [
            a
            for a in legal
            if isinstance(a, A.Take)
            and a.place == home
            and D.G[a.good] == D.TRUNK
            and not state.trans[a.transporter].water
        ]

        def order(a: A.Take) -> tuple[int, int]:
            t = state.trans[a.transporter]
            trunks = trunks_aboard(t)
            return (-trunks, a.transporter)

        return min(takes, key=order) if takes else None

    def _rafts(self, state: RBState) -> list[Any]:
        """Our boats."""
        return [t for t in state.trans.values() if t.owner == self.seat and t.water]

    def _island_mines(self, state: RBState) -> list[int]:
        """Land areas of our mines more than ``RAFT_LAND`` land steps from the home (or
        with no land path to it): the raft plan's."""
        dist = self._distances(state, state.homes[self.seat])
        return [
            b[1]
            for b in state.buildings.values()
            if b[0] == D.MINE and b[2] == self.seat and dist.get(b[1], 99) > RAFT_LAND
        ]

    def _raft_wanted(self, state: RBState) -> bool:
        """True when the raft plan wants another raft: fewer than ``RAFT_COUNT`` boats of
        ours, and an island mine to build or to work, and turns enough left."""
        if not self._raft_seats(state) or len(self._rafts(state)) >= RAFT_COUNT:
            return False
        if self._turns_left(state) <= LATE_TURNS + 1:
            return False
        return bool(self._island_mines(state)) or any(
            kind == D.MINE and self._by_water(state, q) for q, kind in self._targets(state)
        )

    def _raft_factory(self, state: RBState) -> int | None:
        """Land area of our raft factory next to the home, if any."""
        near = neighbours(state, state.homes[self.seat])
        for b in state.buildings.values():
            if b[0] == D.RAFT_FACTORY and b[2] == self.seat and b[1] in near:
                return int(b[1])
        return None

    def _trunk_holder(self, state: RBState, t: Any) -> bool:
        """True when ``t`` is the land transporter of ours at home that keeps trunks for
        a raft (while a raft is wanted and our raft factory stands): of those at home
        with trunks aboard, the one with the most (the lowest id on a tie); the others
        unload theirs for the sawmill."""
        home = state.homes[self.seat]
        if t.water or t.place != home:
            return False
        if not trunks_aboard(t):
            return False
        if self._raft_factory(state) is None or not self._raft_wanted(state):
            return False
        best: tuple[int, int] | None = None
        for u in state.trans.values():
            if u.owner != self.seat or u.water or u.place != home:
                continue
            trunks = trunks_aboard(u)
            if trunks and (best is None or (-trunks, u.id) < best):
                best = (-trunks, u.id)
        return best is not None and best[1] == t.id

    def _trunk_fetch(self, state: RBState, t: Any) -> int | None:
        """For the trunk holder (``_trunk_holder``) with room and no trunk at home that it
        may load: a neighbouring woodcutter of ours where a trunk lies, to fetch it
        there; None otherwise."""
        if not self._trunk_holder(state, t) or len(t.cargo) >= D.TRANSPORTERS[t.kind].capacity:
            return None
        home = state.homes[self.seat]
        bit = 1 << (self.seat + D.GOOD_BITS)
        if any(g & D.GOOD_MASK == D.TRUNK and not g & bit for g in state.piles.get(home, ())):
            return None
        w = state.world
        for q in neighbours(state, home):
            b = state.buildings.get(w.place_hex[q])
            if b is None or b[0] != D.WOODCUTTER or b[2] != self.seat or b[1] != q:
                continue
            if any(g & D.GOOD_MASK == D.TRUNK and not g & bit for g in state.piles.get(q, ())):
                return q
        return None

    def _raft_feed(self, state: RBState, t: Any) -> int | None:
        """Our raft factory next to the home when land transporter ``t`` at home can take
        it the 2 trunks of a raft this phase (its trunks plus loose ones at home that it
        may load); None otherwise."""
        home = state.homes[self.seat]
        if t.water or t.place != home or not self._raft_wanted(state):
            return None
        factory = self._raft_factory(state)
        if factory is None:
            return None
        for u in state.trans.values():
            trunks = trunks_aboard(u)
            if u.owner == self.seat and u.place == factory and trunks >= 2:
                return None  # the trunks are there
        held = trunks_aboard(t)
        bit = 1 << (self.seat + D.GOOD_BITS)
        loose = sum(
            1 for g in state.piles.get(home, ()) if g & D.GOOD_MASK == D.TRUNK and not g & bit
        )
        room = D.TRANSPORTERS[t.kind].capacity - len(t.cargo)
        if held + min(loose, room) < 2:
            return None
        return factory

    def _raft_job(self, state: RBState) -> tuple[int, list[int]] | None:
        """(site, goods it still lacks on its ground) of the first island mine target
        whose cost is not all lying there, or None."""
        for site, kind in self._targets(state):
            if kind != D.MINE or not self._by_water(state, site):
                continue
            lying = state.pool(site, [])
            lack = [0] * D.NUM_GOODS
            for g, n in D.BUILDINGS[kind].cost:
                lack[g] = max(0, n - lying[g])
            return site, lack
        return None

    def _raft_goal(self, state: RBState, t: Any) -> int:
        """The land area where our boat ``t`` should be docked: the island mine site when
        it carries goods the site lacks, else home while a site lacks goods; else one of
        our island mines with gold lying or still in its bag while the boat has room;
        else home."""
        home = state.homes[self.seat]
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        room = D.TRANSPORTERS[t.kind].capacity - len(cargo)
        job = self._raft_job(state)
        if job is not None:
            site, lack = job
            left = [max(0, n - cargo.count(g)) for g, n in enumerate(lack)]
            if room and any(left):
                source = self._raft_source(state, t, left)
                if source is not None:
                    return source
            if any(lack[g] for g in cargo):
                return site
            return home
        if len(cargo) < D.TRANSPORTERS[t.kind].capacity:
            islands = self._gold_islands(state)
            if islands:  # where gold lies first, then where it is still in the bag

                def lying(q: int) -> bool:
                    return any(g & D.GOOD_MASK in KEEP for g in state.piles.get(q, ()))

                return min(islands, key=lambda q: (not lying(q), q))
        return home

    def _raft_source(self, state: RBState, t: Any, left: list[int]) -> int | None:
        """Where our boat ``t`` fetches goods an island mine site still lacks (``left``):
        home when they lie there (loadable this phase), else the nearest producer of ours
        on the coast within ``RAFT_REACH`` boat steps where one of them lies (the quarry's
        stone), else None."""
        home = state.homes[self.seat]
        bit = 1 << (self.seat + D.GOOD_BITS)

        def has(place: int) -> bool:
            return any(left[g & D.GOOD_MASK] and not g & bit for g in state.piles.get(place, ()))

        if has(home):
            return home
        w = state.world
        dist = self._boat_distances(state, [t.place])
        best: tuple[int, int] | None = None
        for b in state.buildings.values():
            if b[2] != self.seat or D.BUILDINGS[b[0]].kind != D.PRIMARY or not has(b[1]):
                continue
            if w.place_hex[b[1]] == w.place_hex[home]:
                continue
            steps = min((dist.get(d, 99) for d in self._area_docks(state, b[1])), default=99)
            if steps <= RAFT_REACH and (best is None or (steps, b[1]) < best):
                best = (steps, b[1])
        return best[1] if best is not None else None

    def _boat(self, state: RBState, t: Any, legal: list[Any]) -> Any | None:
        """The next action of our moving boat ``t`` (``RAFTS``): load or unload where it
        is docked, then steer towards ``_raft_goal``; None stops it."""
        home = state.homes[self.seat]
        reach = state.reach(t)
        cargo = [g & D.GOOD_MASK for g in t.cargo]
        room = D.TRANSPORTERS[t.kind].capacity - len(cargo)
        loads = {(D.G[a.good], a.place): a for a in legal if isinstance(a, A.Load)}
        last = self._last_turn(state, END_MARGIN)
        if last:  # scoring goods aboard (they score wherever the boat is)
            for q in reach:
                for g in (D.STOCK, D.COINS, D.GOLD):
                    if (g, q) in loads:
                        if room:
                            return loads[(g, q)]
                        for c in cargo:
                            if c not in KEEP:
                                return A.Unload(D.GOODS[c], q)
            if not room:
                return None
            lying = self._gold_islands(state)
            if not lying or any(q in reach for q in lying):
                return None
            return self._steer(state, t, legal, lying)
        job = self._raft_job(state)
        if home in reach:
            want = [0] * D.NUM_GOODS
            if job is not None:
                want = [max(0, n - cargo.count(g)) for g, n in enumerate(job[1])]
            needed = job is not None and any(job[1][g] for g in cargo)
            for g in set(cargo):
                if g in KEEP:
                    continue
                if job is None or cargo.count(g) > job[1][g]:
                    return A.Unload(D.GOODS[g], home)
            for g in (D.STONE, D.BOARD):
                if want[g] and (g, home) in loads:
                    if room:
                        return loads[(g, home)]
                    for c in cargo:
                        if c in KEEP:
                            return A.Unload(D.GOODS[c], home)  # room for the mine's goods
            if not needed and self._gold_islands(state):
                for c in cargo:
                    if c in KEEP:
                        return A.Unload(D.GOODS[c], home)  # room for more gold
        elif job is not None and job[0] in reach:
            site, lack = job
            have = state.pool(site, state.presence(self.seat).get(site, []))
            if all(have[g] >= n for g, n in D.BUILDINGS[D.MINE].cost):
                return None  # the mine is built from this boat this turn
            for g in set(cargo):
                if lack[g]:
                    return A.Unload(D.GOODS[g], site)
        for q in reach:
            if q != home and room:
                for g in (D.STOCK, D.COINS, D.GOLD):
                    if (g, q) in loads:
                        return loads[(g, q)]
                if job is not None and q != job[0]:  # the site's goods from our producer
                    for g in (D.STONE, D.BOARD):
                        if job[1][g] > cargo.count(g) and (g, q) in loads:
                            return loads[(g, q)]
        goal = self._raft_goal(state, t)
        if goal in reach:
            return None
        return self._steer(state, t, legal, [goal])

    def _steer(self, state: RBState, t: Any, legal: list[Any], goals: list[int]) -> Any | None:
        """The step of our moving boat ``t`` that brings it nearest a dock of one of the
        land areas ``goals``, or None when no step brings it nearer."""
        steps = {a.to: a for a in legal if isinstance(a, A.Step)}
        if not steps:
            return None
        docks = [d for q in goals for d in self._area_docks(state, q)]
        dist = self._boat_distances(state, docks)
        here = dist.get(t.place, 99)
        best = min(steps, key=lambda q: (dist.get(q, 99), q))
        return steps[best] if dist.get(best, 99) < here else None

    def _gold_islands(self, state: RBState) -> list[int]:
        """Our island mines (``_island_mines``) with gold, coins or stock lying there or
        gold still in the bag."""
        w = state.world
        return [
            q
            for q in self._island_mines(state)
            if state.bags.get(w.place_hex[q], [0, 0])[0]
            or any(g & D.GOOD_MASK in KEEP for g in state.piles.get(q, ()))
        ]

    # ------------------------------------------------------------------ building

    def _mix(self, state: RBState) -> str:
        """Bag filling of our next mine: 4/0 (all gold) once specialisation is ours."""
        return "4/0" if state.research[self.seat] >> D.SPECIALISATION & 1 else "3/3"

    def _building(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        w = state.world
        mix = self._mix(state)
        builds = {
            (a.place, D.B[a.building]): a
            for a in legal
            if isinstance(a, A.Build) and (a.building != "mine" or a.mix == mix)
        }
        dry = {h for h, _place in self._dry_mines(state)}
        for a in legal:
            if isinstance(a, A.Shaft) and a.hex in dry and a.mix == mix:
                return a  # refill our mine (1 iron + 1 fuel)
        if self._turns_left(state) > LATE_TURNS:
            # goods at home still owed to earlier targets are not spent on later ones
            held = state.pool(home, state.presence(self.seat).get(home, []))
            for site, kind in self._targets(state):
                cost = D.BUILDINGS[kind].cost
                action = builds.get((site, kind))
                if action is not None:
                    if site != home:
                        return action
                    if all(held[g] >= n for g, n in cost):
                        return action
                have = state.pool(site, state.presence(self.seat).get(site, []))
                started = site != home and any(have[g] for g, _n in cost)
                if KEEP_FOR_EARLIER or started:
                    for g, n in cost:
                        owed = n if site == home else max(0, n - have[g])
                        held[g] -= min(held[g], owed)
        # roads from home to neighbouring producers, with stone to spare
        spare = state.pool(home, state.presence(self.seat).get(home, []))[D.STONE]
        spare -= self._reserve(state)[D.STONE]
        if spare > 0 and ROADS and not self._raft_pending(state):
            for a in legal:
                if isinstance(a, A.Road) and a.place == home:
                    j = w.nbr[w.place_hex[home]][a.side]
                    b = state.buildings.get(j)
                    if b is None or b[2] != self.seat:
                        continue
                    fed = ROADS_TO_INDUSTRY and b[0] in FEEDS and self._long_plan(state)
                    if D.BUILDINGS[b[0]].kind == D.PRIMARY or fed:
                        return a
        return None

    # ------------------------------------------------------------------ wonder

    def _keep_for_industry(self, state: RBState, reserve: list[int], counts: list[int]) -> None:
        """Raise ``reserve`` (in place) by what the economy plan needs from home: the two
        geese and the paper of a pending research point, fuel for the mint."""
        own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
        planned = {kind for _q, kind in self._targets(state)}
        long = LONG_INDUSTRY and self._pacing(state)
        keep_geese = long and KEEP_GEESE
        if (D.PAPERMILL in own | planned or keep_geese) and self._research_pending(state):
            reserve[D.GOOSE] = max(reserve[D.GOOSE], 2)
            reserve[D.PAPER] = max(reserve[D.PAPER], 1)
        if self._shafts(state) and state.turn > SHAFT_GEESE_FROM:
            early = SHAFT_GEESE_EARLY or not SHAFT_KEEP_LATE
            if self._research_pending(state) and (D.MINE in own or early):
                reserve[D.GOOSE] = max(reserve[D.GOOSE], 2)
            if SHAFT_IRON_EARLY or state.research[self.seat] >> D.NEW_SHAFTS & 1:
                reserve[D.IRON] = max(reserve[D.IRON], min(counts[D.IRON], 2))
            if state.research[self.seat] >> D.NEW_SHAFTS & 1 or not SHAFT_KEEP_LATE:
                reserve[D.IRON] = max(reserve[D.IRON], min(counts[D.IRON], 2))
                reserve[D.FUEL] = max(reserve[D.FUEL], min(counts[D.FUEL], 2))
        if (INDUSTRY or long) and (D.MINT in own or D.MINT in planned):
            reserve[D.FUEL] = counts[D.FUEL]

    def _wonder(self, state: RBState, legal: list[Any]) -> Any | None:
        home = state.homes[self.seat]
        own = state.presence(self.seat).get(home, [])
        counts = state.pool(home, own)
        last = self._last_turn(state)
        reserve = [0] * D.NUM_GOODS if last else self._reserve(state)
        b = state.buildings.get(state.world.place_hex[home])
        if not last and b is not None and b[0] == D.SAWMILL and b[1] == home:
            reserve[D.TRUNK] = max(reserve[D.TRUNK], 3)  # boards (twice as many) next turn
        if not last:
            self._keep_for_industry(state, reserve, counts)
        if state.paying:
            pays = {D.G[a.good]: a for a in legal if isinstance(a, A.Pay)}
            for spare in (True, False):
                for g in PAY_ORDER:
                    if g in pays and (counts[g] > reserve[g] or not spare):
                        return pays[g]
            return legal[0]
        if A.BRICK not in legal:
            return None
        price = state.brick_price()
        if price > MAX_PRICE and not last:
            return None
        pacing = not last and self._pacing(state)
        if pacing and (state.bricks_now or not self._behind_schedule(state)):
            return None  # a long game: one brick a turn, on the schedule
        spendable = sum(max(0, counts[g] - reserve[g]) for g in range(D.NUM_GOODS) if g not in KEEP)
        return A.BRICK if spendable >= price else None


class RoadsAndBoatsBot(Bot):
    """Protocol wrapper around :class:`Planner`."""

    name = "roads-and-boats-heuristic"
    version = "1"

    def on_start(self) -> None:
        """Set up the planner for this seat."""
        self.planner = Planner(self.seat)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        """Rebuild the state from the (complete) view and ask the planner."""
        state = GAME.determinize(view, random.Random(0))
        return self.planner.choose(state, legal)


def evaluate(games: int, seats: int) -> str:
    """Play ``games`` in-process games of this bot against uniform random players
    (the bot's seat rotates) and summarise wins and mean scores."""
    from referee.engine import CHANCE, TERMINAL

    wins = 0
    mine = best_other = 0.0
    for game in range(games):
        rng = random.Random(game)
        bot_seat = game % seats
        planner = Planner(bot_seat)
        state = GAME.new_game(seats, GAME.parse_options({}))
        while (seat := state.to_move()) != TERMINAL:
            if seat == CHANCE:
                state.apply_chance(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            pick = planner.choose(state, legal) if seat == bot_seat else rng.randrange(len(legal))
            state.apply_action(legal[pick])
        scores = state.scores()
        wins += state.ranks()[bot_seat] == 1
        mine += scores[bot_seat]
        best_other += max([x for s, x in enumerate(scores) if s != bot_seat] or [0.0])
    return (
        f"seats={seats} games={games} bot_wins={wins} ({100 * wins / games:.1f}%) "
        f"bot_mean={mine / games:.1f} best_random_mean={best_other / games:.1f}"
    )


if __name__ == "__main__":
    if "--evaluate" in sys.argv:
        count = int(sys.argv[sys.argv.index("--evaluate") + 1])
        n = int(sys.argv[sys.argv.index("--seats") + 1]) if "--seats" in sys.argv else 2
        print(evaluate(count, n))
    else:
        run(RoadsAndBoatsBot())
