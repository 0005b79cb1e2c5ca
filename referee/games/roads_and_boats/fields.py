"""One-line meanings and units of every field of the Roads & Boats view and actions, as
``referee schema roads-and-boats`` shows them (:mod:`referee.process.wire_schema` merges them into
the schema), so that a bot author in any language can read every field without the Python
sources.  Ids are explained in docs/roads_and_boats_wire.md: hex indices (position in the
``map`` spec), place ids, edge ids, crossing ids, sides 0-5 (N, NE, SE, S, SW, NW); goods in
the view are ints ``good_index | moved_mask << 4``, goods in actions are names."""

from __future__ import annotations

from typing import Any

from referee.games.roads_and_boats import actions as A
from referee.games.roads_and_boats import view as V

GOOD = "Good name: trunk, board, paper, goose, clay, stone, fuel, iron, gold, coins or stock."
SIDE = "Hex side 0-5: N, NE, SE, S, SW, NW (clockwise; +r is north)."

FIELD_DOCS: dict[type[Any], dict[str, str]] = {
    V.TransporterView: {
        "id": "Transporter id (stable for the game; ids of removed transporters are not reused).",
        "owner": "Owning seat (0-based).",
        "kind": "Transporter kind: donkey, wagon, truck, raft, rowboat or steamer.",
        "place": "Place id where it stands (see 'map').",
        "moved": "Whether it has moved in this movement phase.",
        "cargo": "Goods it carries, each encoded as good_index | moved_mask << 4.",
        "carrier": "Id of the transporter carrying it, or -1 when it is not carried.",
    },
    V.BuildingView: {
        "hex": "Hex index (position of the hex in the 'map' spec, 0-based).",
        "kind": "Building kind, e.g. woodcutter, quarry, mine, sawmill, truck_factory.",
        "place": "Place id of the land area (or sea place, for an oil rig) it stands on.",
        "owner": "Seat that built it.",
        "used": "Goods (or transporters) it made in this production phase.",
        "bag_gold": "Gold counters left in a mine's bag (0 for other buildings).",
        "bag_iron": "Iron counters left in a mine's bag (0 for other buildings).",
    },
    V.WallView: {
        "edge": "Edge id (a hex side shared by two hexes) the wall stands on.",
        "owner": "Owning seat, or -1 for a neutral (demolished) wall.",
        "strength": "Wall strength in tokens (each wall built there adds one).",
    },
    V.PileView: {
        "place": "Place id where the goods lie.",
        "goods": "Goods lying loose there, each encoded as good_index | moved_mask << 4.",
    },
    V.RBView: {
        "seat": "The seat this view is for (0-based).",
        "options": "The match's options, as given in start.",
        "map_name": "Name of the map ('undrawn' before a drafted or generated map exists).",
        "map": (
            "The map spec 'q,r TER[SIDE+SIDE]; ...': one hex per item, in hex-index order, axial "
            "q,r (+r north), terrain WOO/PAS/ROC/MTN/DES/SEA, the sides its river crosses among N"
            " NE SE S SW NW; place, edge and crossing ids are numbered from it "
            "(docs/roads_and_boats_wire.md). Empty while a drafted map is laid."
        ),
        "turn": "Turn number, from 1.",
        "stage": "Current phase: setup, production, movement, building or wonder.",
        "step": (
            "Current step: map, setup, deal, tile, rivers, homes, draw, request, pray, position, "
            "act, consent, scrap or over."
        ),
        "actor": (
            "Index into the step's list of seats ('temple' in the temple steps, 'sequence' while "
            "acting) of the seat to move."
        ),
        "temple": "Seats in temple order, the figure closest to the temple first.",
        "sequence": "Seats in acting order for the current phase.",
        "requested": "Whether a seat demanded the temple procedure before this phase.",
        "cashed": "Seats that cashed in at the temple this time, in order.",
        "slots": (
            "Sequence-chart slot (1 = acts first) taken per seat in the position step; 0: none "
            "yet; empty outside the temple procedure."
        ),
        "homes": "Place id of each seat's home area (-1 before it is placed).",
        "transporters": "Every transporter on the map.",
        "next_transporter": "Id the next new transporter will get.",
        "buildings": "Every building on the map.",
        "piles": "Loose goods per place (places without goods are left out).",
        "roads": "Crossing ids of the roads on sides without a river (the edge id there).",
        "bank_roads": (
            "Roads along a river as [edge, half]: half 0 is the half of the edge nearer the "
            "corner between sides d-1 and d of the edge's first hex, 1 the other."
        ),
        "bridges": "Bridges as [hex index, side 0-5].",
        "walls": "Every wall.",
        "research": "Research projects completed, per seat (project names).",
        "fresh": (
            "Projects each seat completed in this production phase (their benefit starts now)."
        ),
        "wonder": "Owner of each wonder brick, bottom row first (-1: neutral brick).",
        "neutral_left": "Neutral bricks still to be added to the wonder.",
        "bricks_now": "Bricks bought in the current wonder phase.",
        "paying": "Goods still owed for the brick being bought (0: none being bought).",
        "active": (
            "The moving transporter as [transporter id, moves left, steps taken], or [-1, 0, 0]."
        ),
        "draws": "Hex indices of the mines whose bags are drawn from in this production.",
        "mines": "Mines built so far in the game.",
        "herd": "Geese following the moving transporter, as goods (good_index | moved_mask << 4).",
        "breeders": "Donkey pairs that may still breed this production, as [place id, seat].",
        "offer": (
            "The hand-over, carrying or borrowing awaiting its owner's consent (step consent), or"
            " null."
        ),
        "refused": "Transporter ids whose owners refused the moving transporter this movement.",
        "loans": (
            "Goods lent for building in this building phase, as [place id, good index, lender"
            " transporter id]; one a building did not use goes back to the lender at the"
            " phase's end."
        ),
        "tiles": "While a drafted map is laid: placed land tiles as [q, r, terrain].",
        "hand": "While a drafted map is laid: terrain codes of the drawn tiles still to place.",
    },
    A.Home: {
        "place": "Place id of the land area for the home.",
    },
    A.PlaceTile: {
        "q": "Axial q of the free cell.",
        "r": "Axial r of the free cell (+r north).",
        "terrain": "Terrain code of the drawn tile: WOO, PAS, ROC, MTN or DES.",
    },
    A.Position: {
        "slot": "Sequence-chart slot, 1 = acts first.",
    },
    A.Produce: {
        "hex": "Hex index of the producing building.",
        "launch": (
            "For a boat factory: the river or dock place id where the new boat enters the water; "
            "else -1."
        ),
    },
    A.Take: {
        "transporter": "Id of one's own transporter.",
        "good": GOOD,
        "place": "Place id where the good lies.",
    },
    A.Put: {
        "transporter": "Id of one's own transporter.",
        "good": GOOD,
        "place": "Place id of the building's area where it is set down.",
    },
    A.Borrow: {
        "transporter": "Id of the other player's transporter.",
        "good": GOOD,
        "place": "Place id where it is set down.",
    },
    A.Scrap: {
        "transporter": "Id of one's own transporter to remove.",
    },
    A.Breed: {
        "place": "Place id of the pasture area with the two donkeys.",
    },
    A.Research: {
        "place": "Place id where the geese and paper are paid.",
        "project": "Research project name.",
    },
    A.Upgrade: {
        "hex": "Hex index of the factory.",
        "building": "Building kind it becomes.",
    },
    A.MoveTransporter: {
        "transporter": "Id of one's own transporter to move.",
    },
    A.Step: {
        "to": "Place id of the adjacent place it moves to.",
    },
    A.Load: {
        "good": GOOD,
        "place": "Place id where the good lies.",
    },
    A.Unload: {
        "good": GOOD,
        "place": "Place id where it is dropped.",
    },
    A.Lead: {
        "place": "Place id where the loose goose is.",
    },
    A.Settle: {
        "place": "Place id of the land area (or oil rig sea place) where the goose stays.",
    },
    A.Give: {
        "good": GOOD,
        "transporter": "Id of the receiving transporter beside it.",
    },
    A.Receive: {
        "good": GOOD,
        "transporter": "Id of the transporter beside it that gives.",
    },
    A.Carry: {
        "transporter": "Id of the empty, unmoved transporter picked up.",
    },
    A.Release: {
        "transporter": "Id of the carried transporter.",
        "to": "Place id where it is set down.",
    },
    A.Build: {
        "building": "Building kind.",
        "place": "Place id of the land area (or sea place) of the hex built on.",
        "mix": "For a mine: bag filling gold/iron, one of 3/3, 4/0, 0/4, 5/5; else empty.",
    },
    A.Road: {
        "place": "Place id of the land area the road starts from.",
        "side": SIDE,
        "bank": "On a river side: 0 counter-clockwise of the river, 1 clockwise; -1 elsewhere.",
    },
    A.Bridge: {
        "hex": "Hex index.",
        "side": "River side 0-5 (N, NE, SE, S, SW, NW) bridged.",
        "place": "Place id where the stone is paid.",
    },
    A.Wall: {
        "place": "Place id of a land area of the hex.",
        "side": SIDE,
    },
    A.Demolish: {
        "place": "Place id of a land area of the hex.",
        "side": SIDE,
    },
    A.Shaft: {
        "hex": "Hex index of the mine.",
        "mix": "Bag filling gold/iron: 3/3, 4/0, 0/4 or 5/5.",
    },
    A.Pay: {
        "good": GOOD,
    },
}
"""Struct -> field name -> its one-line meaning (units and id kinds included)."""
