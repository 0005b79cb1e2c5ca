"""What the other Manila seats hold: a belief over the dealt shares, from their play.

Every Manila seat starts with two secret shares (docs/rules/manila.md, "Hidden
information"); every later share is bought in the open by the harbour master. The
shares that were not dealt go face up to the supply, so the dealt shares of the
other seats are known *together* (the dealt shares less this seat's own pair).
Only how that pool is split among them is secret, and their play gives it away:
a harbour master leaves out the good he holds least and launches the punts of
the goods he holds furthest; bids and placements lean the same way.

:class:`ShareBelief` keeps a weight on every way of splitting the pool. It
replays the public history (the protocol's ``events``) on a shadow state, and at
every decision of another seat it asks an *opponent model* (a bot, here the
heuristic ``manila_bot``) what it would have played with each possible pair; a
pair whose model play matches the observed action keeps its weight, any other is
multiplied by :attr:`ShareBelief.epsilon`. Against the heuristic itself the true
split never loses weight. A seat whose play the model does not explain (with its
best pair, the model agreed with fewer than :attr:`ShareBelief.fit` of its
decisions) is dealt at random again, so a bot unlike the model cannot steer the
belief, and every split keeps a positive weight.

Only what this seat may see is used: the events and views the referee sends.
"""

from __future__ import annotations

import random
from itertools import accumulate, combinations_with_replacement
from typing import Any

from referee.botkit import Bot
from referee.games.manila import data as D
from referee.games.manila.actions import Buy, Mortgage, Redeem
from referee.games.manila.state import ManilaState

NGOODS = len(D.GOODS)
Pair = tuple[int, ...]
"""Share counts per good (board order) of one dealt pair."""


def pairs_within(pool: list[int]) -> list[Pair]:
    """Every dealt pair (counts per good, summing to 2) that ``pool`` (counts per
    good) can supply."""
    out = []
    for a, b in combinations_with_replacement(range(NGOODS), D.HAND_SIZE):
        pair = [0] * NGOODS
        pair[a] += 1
        pair[b] += 1
        if all(pair[g] <= pool[g] for g in range(NGOODS)):
            out.append(tuple(pair))
    return out


def splits(pool: list[int], seats: int) -> list[tuple[Pair, ...]]:
    """Every way to deal ``pool`` (counts per good, ``2 * seats`` shares) as one
    pair to each of ``seats`` seats."""
    if seats == 0:
        return [()] if not any(pool) else []
    out: list[tuple[Pair, ...]] = []
    for pair in pairs_within(pool):
        rest = [pool[g] - pair[g] for g in range(NGOODS)]
        out.extend((pair, *tail) for tail in splits(rest, seats - 1))
    return out


def deal_weight(split: tuple[Pair, ...]) -> float:
    """Relative chance of dealing ``split`` from a shuffled pool: every dealt card
    order is equally likely, and a pair of two equal shares arises in half as many
    orders as a pair of two different ones."""
    weight = 1.0
    for pair in split:
        if max(pair) == 2:
            weight *= 0.5
    return weight


class ShareBelief:
    """The posterior over the other seats' dealt pairs for seat ``seat``.

    Feed it every ``act``'s view and events with :meth:`observe` (forced moves
    included); draw holdings with :meth:`sample` for
    ``ManilaGame.determinize(..., holdings=...)``. Whenever the replay disagrees
    with a view (events missing, an unexpected record), the belief switches itself
    off (:attr:`active` false) and :meth:`sample` returns ``None``: the caller
    then deals at random as before.
    """

    epsilon = 0.1
    """Factor on a pair's weight when the model would not have played the observed
    action with it."""
    fit = 0.75
    """The least share of a seat's decisions the model must explain with one pair
    for the belief to use that seat's play."""

    def __init__(self, game: Any, options: Any, seat: int, seats: int, model: Bot | None) -> None:
        """``model``: a bot whose ``choose(view, legal, events)`` depends only on the
        view (it is asked about every seat's decisions), or ``None`` to track the
        public purchases only."""
        self.game = game
        self.options = options
        self.seat = seat
        self.seats = seats
        self.model = model
        self.others = [s for s in range(seats) if s != seat]
        self.shadow: ManilaState | None = None
        self.active = True
        self.bought = [[0] * NGOODS for _ in range(seats)]
        self.splits: list[tuple[Pair, ...]] = []
        self.prior: list[float] = []
        self.misses: dict[int, dict[Pair, int]] = {s: {} for s in self.others}
        """Per other seat and dealt pair: its decisions the model would have made
        otherwise with that pair."""
        self.asked = dict.fromkeys(self.others, 0)
        """Per other seat: its decisions with a choice the model was asked about."""
        self._cumulative: list[float] | None = None
        """Running sums of :meth:`weights`, kept until the next update (every
        search sample draws from them)."""
        self.failure = ""
        """Why the belief switched itself off (empty if it did not fail)."""

    @property
    def updates(self) -> int:
        """Decisions of other seats the model has been asked about."""
        return sum(self.asked.values())

    # ------------------------------------------------------------------ replay

    def observe(self, view: Any, events: list[Any]) -> None:
        """Replay ``events`` (the raw protocol events of one ``act``) and check the
        result against ``view``; switches the belief off on any mismatch."""
        if not self.active:
            return
        try:
            for event in events:
                if "chance" in event:
                    self._chance(event["chance"], view)
                elif "action" in event and self.shadow is not None:
                    self._action(int(event["seat"]), event["action"])
            if self.shadow is None or self.shadow.view(self.seat) != view:
                self.active = False
        except Exception as exc:  # any surprise switches the belief off
            self.active = False
            self.failure = repr(exc)

    def _chance(self, outcome: Any, view: Any) -> None:
        if self.shadow is not None:
            self.shadow.apply_chance(outcome)
            return
        # the deal: this seat's pair; the others' from the pool the supply leaves
        mine = outcome[self.seat]
        supply = [view.supply[g] for g in D.GOODS]
        if sum(supply) != D.SHARES_PER_GOOD * NGOODS - D.HAND_SIZE * self.seats:
            raise ValueError("a share was bought before the first view")
        pool = [D.SHARES_PER_GOOD - supply[g] for g in range(NGOODS)]
        for good in mine:
            pool[D.GOOD_INDEX[good]] -= 1
        self.splits = splits(pool, len(self.others))
        if not self.splits:
            raise ValueError("no deal matches the supply")
        self.prior = [deal_weight(split) for split in self.splits]
        self._cumulative = None
        hands: list[Any] = []
        first = iter(self.splits[0])
        for s in range(self.seats):
            if s == self.seat:
                hands.append(list(mine))
            else:
                pair = next(first)
                hands.append([D.GOODS[g] for g in range(NGOODS) for _ in range(pair[g])])
        shadow = self.game.new_game(self.seats, self.options)
        shadow.apply_chance(hands)
        self.shadow = shadow

    def _action(self, seat: int, raw: dict[str, Any]) -> None:
        shadow = self.shadow
        assert shadow is not None
        if shadow.to_move() != seat:
            raise ValueError("event out of turn")
        masked = raw.get("kind") in ("mortgage", "redeem") and "good" not in raw
        if masked:
            action = self._some_finance(shadow, seat, raw["kind"])
        else:
            action = self.game.decode_action(raw)
            if seat != self.seat and self.model is not None:
                self._weigh(shadow, seat, action)
            if type(action) is Buy:
                self.bought[seat][D.GOOD_INDEX[action.good]] += 1
        shadow.apply_action(action)

    @staticmethod
    def _some_finance(shadow: ManilaState, seat: int, kind: str) -> Any:
        """A masked mortgage or redemption of ``seat`` as some good the shadow can
        apply (which one is secret; the cash is the same)."""
        cls = Mortgage if kind == "mortgage" else Redeem
        for action in shadow.legal_actions():
            if type(action) is cls:
                return action
        raise ValueError(f"no {kind} the shadow can apply")

    # -------------------------------------------------------------- inference

    def _weigh(self, shadow: ManilaState, seat: int, observed: Any) -> None:
        """Count a miss for every pair ``seat`` may hold with which the model would
        not have played ``observed`` here."""
        assert self.model is not None
        if len(shadow.legal_actions()) < 2:
            return
        k = self.others.index(seat)
        pairs = {split[k] for split, w in zip(self.splits, self.prior, strict=True) if w > 0}
        table = self.misses[seat]
        self.asked[seat] += 1
        self._cumulative = None
        for pair in pairs:
            state = self.hypothesis(shadow, seat, pair)
            legal = state.legal_actions()
            try:
                played = legal[self.model.choose(state.view(seat), legal, [])]
            except (IndexError, ValueError, KeyError, AttributeError):
                continue
            if played != observed:
                table[pair] = table.get(pair, 0) + 1

    def hypothesis(self, shadow: ManilaState, seat: int, pair: Pair) -> ManilaState:
        """A copy of ``shadow`` where ``seat`` was dealt ``pair``: its holdings are
        the pair plus its public purchases, its mortgaged shares (a public count)
        the cheapest goods first, as the model mortgages."""
        state = shadow.clone()
        holding = [pair[g] + self.bought[seat][g] for g in range(NGOODS)]
        owed = sum(shadow.mort[seat])
        mort = [0] * NGOODS
        for g in sorted(range(NGOODS), key=lambda g: (shadow.price[g], g)):
            take = min(owed, holding[g])
            mort[g] = take
            owed -= take
        state.mort[seat] = mort
        state.held[seat] = [holding[g] - mort[g] for g in range(NGOODS)]
        state._legal = None
        return state

    def explained(self, seat: int) -> bool:
        """Whether the model explains ``seat``'s play (with its best pair, at least
        :attr:`fit` of the decisions it was asked about)."""
        asked = self.asked[seat]
        if not asked:
            return False
        k = self.others.index(seat)
        table = self.misses[seat]
        fewest = min(table.get(split[k], 0) for split in self.splits)
        return fewest <= (1.0 - self.fit) * asked

    def weights(self) -> list[float]:
        """The posterior weight of every split (same order as :attr:`splits`): the
        deal's own chance times ``epsilon`` per decision the model would have made
        otherwise, over the seats whose play the model explains."""
        used = [(k, self.misses[s]) for k, s in enumerate(self.others) if self.explained(s)]
        misses = [sum(table.get(split[k], 0) for k, table in used) for split in self.splits]
        least = min(misses, default=0)  # counted from the best split: no underflow
        return [
            prior * self.epsilon ** (m - least) for prior, m in zip(self.prior, misses, strict=True)
        ]

    def sample(self, rng: random.Random) -> list[list[int]] | None:
        """Every seat's holdings (counts per good, mortgaged included; this seat's
        row zeros) drawn from the posterior, or ``None`` when the belief is off."""
        if not self.active or not self.splits:
            return None
        if self._cumulative is None:
            self._cumulative = list(accumulate(self.weights()))
        split = rng.choices(self.splits, cum_weights=self._cumulative)[0]
        out = [[0] * NGOODS for _ in range(self.seats)]
        for k, seat in enumerate(self.others):
            out[seat] = [split[k][g] + self.bought[seat][g] for g in range(NGOODS)]
        return out
