"""Hidden information on the wire: no bot learns the seed, another seat's secret or a
hidden order.

Every registered game is played at every seat count through :func:`run_match` by
bot processes (``tests/hidden/dump_bot.py``) that copy every line they receive to a
file.  The tests then read those copies and the game record and check:

* the match seed (and the two RNG seeds derived from it) never reaches a bot, nor the
  output of ``referee replay --seat K``, and the record holds it only in the result;
* ``replay(path, seat=K)`` shows exactly the views, legal lists and events that seat K
  received, at the same plies;
* per game, what seat K received is compared with the engine's full state at the
  same ply (the engine is stepped along the record):

  - Manila: another seat's shares (which goods, held or mortgaged) are secret.  Each
    view K received must stay the same when the other seats' shares are dealt again
    at random (keeping every public count), the deal event shows K only its own
    hand, and another seat's mortgage or redeem event carries nothing but its kind;
  - Navegador, Puerto Rico, Roads & Boats: the hidden thing is what a future chance
    event will reveal (unexplored colony prices, the order of the face-down
    plantation stack, the next mine draws).  No message sent before such an event
    may contain its outcome, views show only counts of what is face down, and the
    engine must not know the outcome in advance either: at every chance node,
    different RNGs must draw different, equally acceptable outcomes.

Random play never builds a Roads & Boats mine, so that game is played from a start
with two mines already standing (:class:`MinedRoadsAndBoats`) so that mine draws
really happen.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

from referee.api.engine import CHANCE, Game, GameError, State
from referee.games import all_games, get_game
from referee.games.manila import data as manila_data
from referee.games.manila.actions import Mortgage, Redeem
from referee.games.manila.phases import DEAL, NGOODS
from referee.games.manila.state import ManilaState
from referee.games.navegador import data as navegador_data
from referee.games.navegador.state import NavegadorState
from referee.games.puerto_rico.data import GOOD_NAMES as PR_GOODS
from referee.games.puerto_rico.state import P_DRAW, PuertoRicoState
from referee.games.roads_and_boats import data as rb_data
from referee.games.roads_and_boats.game import RoadsAndBoatsGame
from referee.games.roads_and_boats.options import RBOptions
from referee.games.roads_and_boats.state import RBState
from referee.match.match import Clock, derive_seed, new_match_id, run_match
from referee.match.record import ChanceLine, Header, MoveLine, iter_record
from referee.match.replay import SeatShown, replay
from referee.process.spec import BotSpec

SEED = 73_914_826_051
"""A distinctive match seed: eleven digits that no view would show by accident."""

DUMP_BOT = Path(__file__).resolve().parent / "hidden" / "dump_bot.py"

SAMPLES = 8
"""Outcomes drawn at every chance node to see that the engine does not know the next one."""

Json = Any


class MinedRoadsAndBoats(RoadsAndBoatsGame):
    """Roads & Boats starting with two 5/5 mines on mountain hexes (owned by seat 0).

    Random bots never gather the boards and stone a mine costs, so without this the
    mine draws (the only hidden thing in the game) would never happen in a test match.
    """

    def new_game(self, seats: int, options: RBOptions | None = None) -> RBState:
        """The usual start, plus the two mines (on a pinned generated map, so the
        mountains are known before the setup chance)."""
        options = options or RBOptions()
        if options.map_seed is None:
            options = msgspec.structs.replace(options, map_seed=1)
        state = super().new_game(seats, options)
        world = state.world
        mountains = [h for h, hexagon in enumerate(world.hexes) if hexagon.terrain == "MTN"]
        for h in mountains[:2]:
            state.buildings[h] = [rb_data.MINE, world.areas[h][0], 0, 0]
            state.bags[h] = list(rb_data.MINE_MIXES["5/5"])
            state.mines += 1
        return state


MINED = MinedRoadsAndBoats()


def match_game(name: str) -> Game:
    """The game object the matches of ``name`` are played (and replayed) with."""
    return MINED if name == MINED.name else get_game(name)


CASES = [
    pytest.param(name, seats, id=f"{name}-{seats}")
    for name, game in all_games().items()
    for seats in range(game.min_seats, game.max_seats + 1)
]


@dataclass
class Played:
    """One finished match: its record and, per seat, every message that seat received."""

    game: Game
    seats: int
    record: Path
    raw: list[str]
    received: list[list[dict[str, Any]]]
    plies: int
    replayed: dict[int, list[SeatShown]] = field(default_factory=dict)

    def shown(self, seat: int) -> list[SeatShown]:
        """What ``referee replay --seat`` says ``seat`` was shown (computed once)."""
        if seat not in self.replayed:
            self.replayed[seat] = replay(self.record, seat=seat, lookup=match_game).shown
        return self.replayed[seat]


def _play(game: Game, seats: int, directory: Path) -> Played:
    dumps = [directory / f"seat{k}.jsonl" for k in range(seats)]
    bots = [
        BotSpec(
            f"dump{k}",
            [sys.executable, str(DUMP_BOT), "--seed", str(k + 1), "--out", str(dumps[k])],
        )
        for k in range(seats)
    ]
    record = directory / "record.jsonl"
    outcome = asyncio.run(
        run_match(
            game,
            bots,
            seed=SEED,
            clock=Clock(startup_ms=30_000, move_ms=30_000),
            match_id=new_match_id(),  # what `referee play` sends, not an id of our own
            record_path=record,
            log_dir=directory / "logs",
            fsync=False,
        )
    )
    assert outcome.verdicts == ["ok"] * seats, [s.detail for s in outcome.seats]
    raw = [path.read_text(encoding="utf-8") for path in dumps]
    received = [[json.loads(line) for line in text.splitlines()] for text in raw]
    return Played(game, seats, record, raw, received, outcome.plies)


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], Played]:
    """Play each (game, seats) match once per module, on first use."""
    cache: dict[tuple[str, int], Played] = {}

    def get(name: str, seats: int) -> Played:
        if (name, seats) not in cache:
            directory = tmp_path_factory.mktemp(f"{name}-{seats}")
            cache[name, seats] = _play(match_game(name), seats, directory)
        return cache[name, seats]

    return get


def as_json(value: Any) -> Json:
    """``value`` exactly as it looks after a trip over the wire."""
    return json.loads(msgspec.json.encode(value))


def canonical(value: Json) -> str:
    """A JSON text that is equal for equal values (dict keys sorted)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def fragments(value: Json) -> Iterator[Json]:
    """Every list and object nested in ``value`` (``value`` included)."""
    if isinstance(value, list):
        yield value
        for item in value:
            yield from fragments(item)
    elif isinstance(value, dict):
        yield value
        for item in value.values():
            yield from fragments(item)


def message_ply(message: dict[str, Any], played: Played) -> int:
    """The ply at which a message was sent (``end`` comes after the last ply)."""
    return int(message["ply"]) if message["type"] == "act" else played.plies


# --------------------------------------------------------------------- per-game checks


class SecretCheck:
    """Checks what each seat received against the full state, while the engine steps.

    The walker calls :meth:`chance` and :meth:`move` before each line is applied and
    :meth:`message` for each ``act`` (before its move) and ``end``; then :meth:`finish`.
    The base class does the checks every game shares: at each chance node the engine
    must accept several independently sampled outcomes (it does not hold the next one),
    and no message sent before a chance event contains one of its :meth:`fingerprints`.
    """

    varied_share = 0.5
    """Least share of chance nodes where the samples must differ."""

    def __init__(self, played: Played) -> None:
        self.played = played
        self.nodes = 0
        self.varied = 0
        self.future: list[tuple[int, set[str]]] = []

    def chance(self, state: State, ply: int, outcome: Json) -> None:
        """Sample outcomes here; remember what must not have been shown before ``ply``."""
        drawn: set[str] = set()
        for i in range(SAMPLES):
            sample = state.sample_chance(random.Random(f"hidden-{ply}-{i}"))
            trial = state.clone()
            try:
                trial.apply_chance(sample)
            except GameError as exc:  # pragma: no cover - reported by the assert
                pytest.fail(f"ply {ply}: the engine refused its own sample {sample!r}: {exc}")
            drawn.add(canonical(as_json(sample)))
        self.nodes += 1
        self.varied += len(drawn) > 1
        prints = {canonical(p) for p in self.fingerprints(state, outcome)}
        if prints:
            self.future.append((ply, prints))

    def fingerprints(self, state: State, outcome: Json) -> list[Json]:
        """Parts of a chance outcome that no message before it may contain."""
        return []

    def move(self, state: State, ply: int, seat: int, action: Any) -> None:
        """Hook before a move is applied."""

    def message(self, state: State, seat: int, message: dict[str, Any]) -> None:
        """Check one message ``seat`` received, ``state`` being the state it was built from."""

    def scrub(self, message: dict[str, Any]) -> Json:
        """The part of a message to search for future outcomes (default: all of it).

        A game drops fields here that :meth:`message` checks exactly against the state
        and that may repeat past outcomes by coincidence."""
        return message

    def finish(self) -> None:
        """Checks over the whole match."""
        if self.nodes:
            assert self.varied >= self.varied_share * self.nodes, (
                f"only {self.varied} of {self.nodes} chance nodes gave different outcomes "
                "for different RNGs: the engine seems to know outcomes in advance"
            )
        plies = [ply for ply, _ in self.future]
        revealed: list[set[str]] = [set()]
        for _, prints in self.future:
            revealed.append(revealed[-1] | prints)
        for seat, messages in enumerate(self.played.received):
            for message in messages:
                if message["type"] == "start":
                    continue
                sent = message_ply(message, self.played)
                index = bisect_right(plies, sent)
                # What an earlier event already revealed (the same draw twice) is not secret.
                secret = {p: ply for ply, prints in reversed(self.future[index:]) for p in prints}
                for known in revealed[index]:
                    secret.pop(known, None)
                if not secret:
                    continue
                leaked = {canonical(f) for f in fragments(self.scrub(message))} & secret.keys()
                assert not leaked, (
                    f"seat {seat} was shown {sorted(leaked)} at ply {sent}, before the "
                    f"chance event of ply {min(secret[p] for p in leaked)} revealed it"
                )


class ManilaCheck(SecretCheck):
    """Manila: which goods another seat holds or has mortgaged stays secret."""

    redeals = 3

    def __init__(self, played: Played) -> None:
        super().__init__(played)
        self.deal: list[list[str]] | None = None
        self.deal_ply = -1
        self.rng = random.Random(SEED % 1000)
        self.changed = 0
        self.finance_seen = 0

    def chance(self, state: State, ply: int, outcome: Json) -> None:
        """Remember the deal (the dice are public once rolled)."""
        if isinstance(state, ManilaState) and state.phase == DEAL:
            self.deal, self.deal_ply = outcome, ply
        super().chance(state, ply, outcome)

    def redeal(self, state: State, seat: int) -> State:
        """``state`` with the shares of every seat but ``seat`` dealt again at random.

        Everything public is kept: each seat's held and mortgaged counts, and how many
        shares of each good the other seats hold together.
        """
        assert isinstance(state, ManilaState)
        alt = state.clone()
        held, mort = alt.held, alt.mort
        others = [o for o in range(state.seats) if o != seat]
        pool = [g for o in others for g in range(NGOODS) for _ in range(held[o][g] + mort[o][g])]
        self.rng.shuffle(pool)
        for o in others:
            h, m = sum(held[o]), sum(mort[o])
            take, pool = pool[: h + m], pool[h + m :]
            new_held, new_mort = [0] * NGOODS, [0] * NGOODS
            for g in take[:h]:
                new_held[g] += 1
            for g in take[h:]:
                new_mort[g] += 1
            self.changed += new_held != held[o] or new_mort != mort[o]
            held[o], mort[o] = new_held, new_mort
        alt._legal = None
        return alt

    def message(self, state: State, seat: int, message: dict[str, Any]) -> None:
        """The view is the same for every deal of the others' shares; events hide goods."""
        if message["type"] == "act":
            view = as_json(state.view(seat))
            assert message["view"] == view
            assert isinstance(state, ManilaState)
            assert view["hand"] == dict(zip(manila_data.GOODS, state.held[seat], strict=True))
            legal = as_json(state.legal_actions())
            for _ in range(self.redeals):
                alt = self.redeal(state, seat)
                assert as_json(alt.view(seat)) == view, (
                    f"seat {seat}'s view at ply {message['ply']} changes with the "
                    "other seats' shares"
                )
                assert as_json(alt.legal_actions()) == legal
        for event in message["events"]:
            if "chance" in event and self.deal is not None and event["ply"] == self.deal_ply:
                mine = [hand if o == seat else None for o, hand in enumerate(self.deal)]
                assert event["chance"] == mine, f"seat {seat} saw the deal {event['chance']}"
            if "seat" in event and event["seat"] != seat:
                kind = event["action"]["kind"]
                if kind in ("mortgage", "redeem"):
                    self.finance_seen += 1
                    assert event["action"] == {"kind": kind}, (
                        f"seat {seat} saw seat {event['seat']}'s {event['action']}"
                    )

    def move(self, state: State, ply: int, seat: int, action: Any) -> None:
        """Another seat's view of a loan does not depend on the good."""
        if isinstance(action, Mortgage | Redeem):
            for viewer in range(state.seats):
                if viewer != seat:
                    seen = {
                        canonical(as_json(state.observe_action(seat, type(action)(g), viewer)))
                        for g in manila_data.GOODS
                    }
                    assert len(seen) == 1, f"seat {viewer} can tell which good was {action}"

    def finish(self) -> None:
        """The redeals really moved shares around and loans really happened."""
        super().finish()
        assert self.changed > 0
        assert self.finance_seen > 0


class NavegadorCheck(SecretCheck):
    """Navegador: colony prices of a region stay unknown until it is explored."""

    def __init__(self, played: Played) -> None:
        super().__init__(played)
        self.reveals = 0

    def fingerprints(self, state: State, outcome: Json) -> list[Json]:
        """The revealed prices, in any of the orders a leak would likely use."""
        self.reveals += 1
        prices = list(outcome)
        return [prices, sorted(prices), sorted(prices, reverse=True)]

    def message(self, state: State, seat: int, message: dict[str, Any]) -> None:
        """Face-down regions show their tile count only; ``unseen`` is the public pool."""
        if message["type"] != "act":
            return
        assert isinstance(state, NavegadorState)
        tiles = state.tiles
        for r, region in enumerate(message["view"]["regions"]):
            if region["explored"]:
                assert region["tiles"] == tiles[r] and region["hidden"] == 0
            else:
                assert region["tiles"] == [], f"unexplored {region['name']} shows prices"
                assert region["hidden"] == navegador_data.REGION_TILES[r]
        assert message["view"]["unseen"] == state.unseen

    def scrub(self, message: dict[str, Any]) -> Json:
        """Without the fields checked above: explored regions' prices and the unseen pool
        (a region's remaining prices may equal another good's future prices)."""
        if message["type"] != "act":
            return message
        view = dict(message["view"])
        view["regions"] = [{**r, "tiles": []} for r in view["regions"]]
        del view["unseen"]
        return {**message, "view": view}

    def finish(self) -> None:
        """At least one region was explored, so the check was not empty."""
        super().finish()
        assert self.reveals > 0


class PuertoRicoCheck(SecretCheck):
    """Puerto Rico: the order of the face-down plantation stack stays unknown."""

    def __init__(self, played: Played) -> None:
        super().__init__(played)
        self.draws = 0

    def fingerprints(self, state: State, outcome: Json) -> list[Json]:
        """A face-up draw of three or more tiles, by index and by name."""
        assert isinstance(state, PuertoRicoState)
        if state.phase != P_DRAW or len(outcome) < 3:
            return []
        self.draws += 1
        return [list(outcome), [PR_GOODS[k] for k in outcome]]

    def message(self, state: State, seat: int, message: dict[str, Any]) -> None:
        """The stack is shown as one count."""
        if message["type"] == "act":
            stack = message["view"]["plantation_stack"]
            assert isinstance(state, PuertoRicoState)
            assert type(stack) is int and stack == sum(state.stack)

    def finish(self) -> None:
        """Plantations were drawn during the match."""
        super().finish()
        assert self.draws > 0


class RoadsAndBoatsCheck(SecretCheck):
    """Roads & Boats: everything is public except what the next mine draws will yield."""

    def __init__(self, played: Played) -> None:
        super().__init__(played)
        self.draws = 0

    def fingerprints(self, state: State, outcome: Json) -> list[Json]:
        """A whole mine draw and each ``[hex, good]`` in it (the temple order is public)."""
        assert isinstance(state, RBState)
        if state.step != "draw":
            return []
        self.draws += 1
        return [list(outcome), *outcome]

    def message(self, state: State, seat: int, message: dict[str, Any]) -> None:
        """Mines due to draw are listed as hexes only."""
        if message["type"] == "act":
            assert all(type(h) is int for h in message["view"]["draws"])

    def finish(self) -> None:
        """Mines drew (except solo, where the majority type comes without chance)."""
        super().finish()
        assert self.draws > 0 or self.played.seats == 1


CHECKS: dict[str, type[SecretCheck]] = {
    "manila": ManilaCheck,
    "navegador": NavegadorCheck,
    "puerto-rico": PuertoRicoCheck,
    "roads-and-boats": RoadsAndBoatsCheck,
}


def walk(played: Played, check: SecretCheck) -> None:
    """Step the engine along the record, checking every message against its state.

    Also checks that each message's ``events`` are what the engine says that seat may
    learn (``observe_action``/``observe_chance``) since its previous message.
    """
    lines = iter(iter_record(played.record))
    _, header = next(lines)
    assert isinstance(header, Header)
    game = played.game
    state = game.new_game(played.seats, game.parse_options(header.options))
    acts = [deque(m for m in got if m["type"] == "act") for got in played.received]
    pending: list[list[Json]] = [[] for _ in range(played.seats)]
    for _, line in lines:
        if isinstance(line, ChanceLine):
            assert state.to_move() == CHANCE
            check.chance(state, line.ply, line.outcome)
            for viewer in range(played.seats):
                seen = state.observe_chance(line.outcome, viewer)
                if seen is not None:
                    pending[viewer].append(as_json({"ply": line.ply, "chance": seen}))
            state.apply_chance(line.outcome)
        elif isinstance(line, MoveLine):
            action = game.decode_action(line.action)
            message = acts[line.seat].popleft()
            assert message["ply"] == line.ply
            assert message["events"] == pending[line.seat]
            pending[line.seat] = []
            check.message(state, line.seat, message)
            check.move(state, line.ply, line.seat, action)
            for viewer in range(played.seats):
                seen = state.observe_action(line.seat, action, viewer)
                if seen is not None:
                    event = {"ply": line.ply, "seat": line.seat, "action": seen}
                    pending[viewer].append(as_json(event))
            state.apply_action(action)
    assert state.is_terminal()
    for seat, got in enumerate(played.received):
        assert not acts[seat]
        end = got[-1]
        assert end["type"] == "end"
        assert end["events"] == pending[seat]
        check.message(state, seat, end)
    check.finish()


# ----------------------------------------------------------------------------- tests


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_seed_never_reaches_a_bot(
    name: str, seats: int, matches: Callable[[str, int], Played]
) -> None:
    """Neither the seed nor the RNG seeds derived from it appear in what a seat can read."""
    played = matches(name, seats)
    secrets = [str(SEED), str(derive_seed(SEED, "chance")), str(derive_seed(SEED, "fallback"))]
    for seat, text in enumerate(played.raw):
        kinds = [m["type"] for m in played.received[seat]]
        assert kinds[0] == "start" and kinds[-1] == "end"
        assert set(kinds[1:-1]) <= {"act"}
        for secret in secrets:
            assert secret not in text, f"seat {seat} received {secret}"
        shown = played.shown(seat)
        replayed = msgspec.json.encode(shown).decode()
        for secret in secrets:
            assert secret not in replayed, f"replay --seat {seat} shows {secret}"
    lines = played.record.read_text(encoding="utf-8").splitlines()
    assert all(str(SEED) not in line for line in lines[:-1])
    assert json.loads(lines[-1])["seed"] == SEED


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_replay_seat_shows_what_the_bot_received(
    name: str, seats: int, matches: Callable[[str, int], Played]
) -> None:
    """``replay --seat K`` gives the same plies, views, legal lists and events as the wire."""
    played = matches(name, seats)
    for seat in range(seats):
        shown = played.shown(seat)
        acts = [m for m in played.received[seat] if m["type"] == "act"]
        assert len(acts) == len(shown)
        for message, decision in zip(acts, shown, strict=True):
            assert message["ply"] == decision.ply
            assert message["view"] == as_json(decision.view)
            assert message["legal"] == as_json(decision.legal)
            assert message["events"] == as_json(decision.events)


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_no_seat_sees_a_secret(
    name: str, seats: int, matches: Callable[[str, int], Played]
) -> None:
    """What each seat received holds no other seat's secret and no hidden order."""
    played = matches(name, seats)
    walk(played, CHECKS.get(name, SecretCheck)(played))
