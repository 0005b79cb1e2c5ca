"""The switches and weights of the Roads & Boats heuristic bot (one place, read at
every use as ``settings.NAME``: setting one here, as tests and the measuring tools do,
changes the whole planner).  What each round measured: docs/bots/roads_and_boats.md."""

from __future__ import annotations

from referee.games.roads_and_boats import data as D

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
