"""Roads & Boats action kinds (atomic decisions; ids refer to the map's places, hexes
and sides, see :mod:`referee.games.roads_and_boats.world`)."""

from __future__ import annotations

from referee.api.engine import Action


class Home(Action, frozen=True, tag="home"):
    """Setup: put one's home (and 3 donkeys, 5 boards, 1 stone, 2 geese) on land area ``place``."""

    place: int


class PlaceTile(Action, frozen=True, tag="place_tile"):
    """Setup of a drafted map (option ``map=drafted``): put the drawn land tile
    ``terrain`` on the free cell ``q, r`` next to the map (the opening tile at 0,0)."""

    q: int
    r: int
    terrain: str


class RequestOrder(Action, frozen=True, tag="request_order"):
    """Before a phase: demand that the order of play be set at the temple."""


class NoRequest(Action, frozen=True, tag="no_request"):
    """Before a phase: do not demand the temple procedure."""


class Pray(Action, frozen=True, tag="pray"):
    """Temple step 1: keep praying (stay in place)."""


class CashIn(Action, frozen=True, tag="cash_in"):
    """Temple step 1: cash in (move the figure to the back of the temple row)."""


class Position(Action, frozen=True, tag="position"):
    """Temple step 2: take the free sequence-chart slot ``slot`` (1 = acts first)."""

    slot: int


class Produce(Action, frozen=True, tag="produce"):
    """Production: feed one input set into the building on ``hex``.

    For a water-transporter factory ``launch`` is the river or dock place where the
    new boat enters the water (-1 otherwise).
    """

    hex: int
    launch: int = -1


class Take(Action, frozen=True, tag="take"):
    """Production: one's own ``transporter`` takes one loose ``good`` at ``place`` (for
    instance a factory's output) instead of leaving it there."""

    transporter: int
    good: str
    place: int


class Put(Action, frozen=True, tag="put"):
    """Production: one's own ``transporter`` sets one ``good`` it carries down at
    ``place``, an area (or oil rig) it touches, with or without a building: during the
    whole production phase transporters on a tile may exchange goods with the tile and
    with each other (rulebook p9; ``rules=referee-0.2`` and older: only at a building).
    A good taken in this production is not set down again, so exchanges cannot loop."""

    transporter: int
    good: str
    place: int


class Borrow(Action, frozen=True, tag="borrow"):
    """Production or building: ask the owner of another player's ``transporter`` to set
    one ``good`` it carries down at ``place`` (where the asker has a transporter) for the
    asker to use (with the owner's permission one may use the goods on their
    transporters, rulebook p13).  The owner answers in the ``consent`` step.  In the
    building phase only goods a building action of the asker there could consume are
    offered, and a lent good that no building used goes back to ``transporter`` when
    the phase ends (option ``loans_stay``: it stays loose)."""

    transporter: int
    good: str
    place: int


class Scrap(Action, frozen=True, tag="scrap"):
    """Production: remove one's own ``transporter`` standing at a transporter factory (to
    make room under the transporter limit, or, in the ``scrap`` step, because a
    production broke it: rulebook p9); its cargo is left loose."""

    transporter: int


class Breed(Action, frozen=True, tag="breed"):
    """Production: the two lone donkeys of one's own at ``place`` (on an empty pasture
    at the start of production) breed a third.  Donkey breeding is optional, so it is a
    decision (rulebook p9); it is offered only within the transporter limit (§0 item 5)."""

    place: int


class Research(Action, frozen=True, tag="research"):
    """Production: pay 2 geese + 1 paper at ``place`` for one point on ``project``."""

    place: int
    project: str


class Upgrade(Action, frozen=True, tag="upgrade"):
    """Production, right after researching a factory type: the factory on ``hex``
    becomes a ``building`` factory."""

    hex: int
    building: str


class MoveTransporter(Action, frozen=True, tag="move"):
    """Movement: start moving one's own transporter ``transporter`` (it counts as moved)."""

    transporter: int


class Step(Action, frozen=True, tag="step"):
    """Movement: the moving transporter goes to the adjacent place ``to``."""

    to: int


class Load(Action, frozen=True, tag="load"):
    """Movement: the moving transporter picks up one ``good`` lying at ``place``."""

    good: str
    place: int


class Unload(Action, frozen=True, tag="unload"):
    """Movement: the moving transporter drops one ``good`` at ``place``."""

    good: str
    place: int


class Lead(Action, frozen=True, tag="lead"):
    """Movement: one loose goose at ``place`` (an area the moving transporter touches, or
    its own sea hex for geese at sea) follows it without using capacity (rulebook p12)."""

    place: int


class Settle(Action, frozen=True, tag="settle"):
    """Movement: one goose following the moving transporter stays at land area (or oil
    rig) ``place`` that it touches.  Followers still there when it stops stay with it."""

    place: int


class Give(Action, frozen=True, tag="give"):
    """Movement: the moving transporter hands one ``good`` to ``transporter`` beside it
    (rulebook p11).  One's own receiver must already have moved this phase; another
    player's receiver needs that player's consent (the ``consent`` step)."""

    good: str
    transporter: int


class Receive(Action, frozen=True, tag="receive"):
    """Movement: the moving transporter takes one ``good`` from ``transporter`` beside it
    (rulebook p11); another player's transporter needs that player's consent."""

    good: str
    transporter: int


class Agree(Action, frozen=True, tag="agree"):
    """Consent step: allow the pending hand-over, carrying or use of goods of one's
    transporter."""


class Refuse(Action, frozen=True, tag="refuse"):
    """Consent step: refuse the pending hand-over, carrying or use of goods of one's
    transporter."""


class Carry(Action, frozen=True, tag="carry"):
    """Movement: the moving (empty) transporter picks up the unmoved, empty transporter
    ``transporter``; neither may carry goods while it is aboard.  Another player's
    transporter needs that player's consent (the ``consent`` step)."""

    transporter: int


class Release(Action, frozen=True, tag="release"):
    """Movement, before the carrier moves: the carrier's owner sets carried
    ``transporter`` down at ``to``."""

    transporter: int
    to: int


class Stop(Action, frozen=True, tag="stop"):
    """Movement: the moving transporter ends its movement."""


class Build(Action, frozen=True, tag="build"):
    """Building: put ``building`` on the hex of land area (or sea) ``place``.

    ``mix`` is the mine bag filling (``"3/3"``, ``"4/0"``, ``"0/4"``, ``"5/5"``) for a mine.
    """

    building: str
    place: int
    mix: str = ""


class Road(Action, frozen=True, tag="road"):
    """Building: a road from the centre of area ``place`` across side ``side`` (1 stone).

    On a side a river flows through, ``bank`` picks the half of the side the road
    crosses, seen from the hex of ``place``: 0 counter-clockwise of the river (towards
    side ``side - 1``), 1 clockwise; -1 on a side without a river.
    """

    place: int
    side: int
    bank: int = -1


class Bridge(Action, frozen=True, tag="bridge"):
    """Building: a bridge over river side ``side`` of ``hex``, paid at ``place`` (1 stone)."""

    hex: int
    side: int
    place: int


class Wall(Action, frozen=True, tag="wall"):
    """Building: build or strengthen the wall on side ``side`` of the hex of ``place``."""

    place: int
    side: int


class Demolish(Action, frozen=True, tag="demolish"):
    """Building: demolish the wall on side ``side`` of the hex of ``place`` (boards)."""

    place: int
    side: int


class Shaft(Action, frozen=True, tag="shaft"):
    """Building: a new shaft (1 iron + 1 fuel) refilling the mine on ``hex`` with ``mix``."""

    hex: int
    mix: str


class Brick(Action, frozen=True, tag="brick"):
    """Wonder: buy the next brick (then pay its price good by good)."""


class Pay(Action, frozen=True, tag="pay"):
    """Wonder: pay one ``good`` from the home area towards the brick being bought."""

    good: str


class Done(Action, frozen=True, tag="done"):
    """End one's part of the current phase."""


RBAction = (
    Home
    | PlaceTile
    | RequestOrder
    | NoRequest
    | Pray
    | CashIn
    | Position
    | Produce
    | Take
    | Put
    | Borrow
    | Scrap
    | Breed
    | Research
    | Upgrade
    | MoveTransporter
    | Step
    | Load
    | Unload
    | Lead
    | Settle
    | Give
    | Receive
    | Agree
    | Refuse
    | Carry
    | Release
    | Stop
    | Build
    | Road
    | Bridge
    | Wall
    | Demolish
    | Shaft
    | Brick
    | Pay
    | Done
)
"""The tagged union of every action kind."""

REQUEST = RequestOrder()
NO_REQUEST = NoRequest()
PRAY = Pray()
CASH_IN = CashIn()
STOP = Stop()
AGREE = Agree()
REFUSE = Refuse()
DONE = Done()
BRICK = Brick()
