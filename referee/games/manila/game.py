"""The Manila :class:`~referee.api.engine.Game`: metadata, factory and determinization."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.api.engine import Game, OptionError
from referee.games.manila import data as D
from referee.games.manila.actions import ManilaAction
from referee.games.manila.options import ManilaOptions
from referee.games.manila.phases import DEST_NAMES, NGOODS, NOBODY, PHASE_NAMES
from referee.games.manila.state import ManilaState
from referee.games.manila.view import ManilaView


class ManilaGame(Game[ManilaOptions]):
    """Manila (Delonge, Zoch 2005) for 3-5 players; see docs/rules/manila.md."""

    name: ClassVar[str] = "manila"
    title: ClassVar[str] = "Manila"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 5
    action_type: ClassVar[object] = ManilaAction
    view_type: ClassVar[object] = ManilaView
    options_type: ClassVar[type[ManilaOptions]] = ManilaOptions

    def new_game(self, seats: int, options: ManilaOptions | None = None) -> ManilaState:
        """A match at its deal chance node.  Raises :class:`OptionError` for a seat
        count outside 3..5 or a ``first_opener`` that is not a seat."""
        self.check_seats(seats)
        opts = options if options is not None else ManilaOptions()
        if not 0 <= opts.first_opener < seats:
            raise OptionError(f"manila: first_opener must be a seat 0..{seats - 1}")
        return ManilaState(seats, opts)

    def chance_schema(self) -> dict[str, Any]:
        """The deal (a hand of two goods per seat; other seats' hands redacted to null)
        and the roll (a die per good at sea); see ``ManilaState.sample_chance``."""
        good = {"enum": list(D.GOODS)}
        return {
            "anyOf": [
                {
                    "description": "The deal: one hand of two goods per seat, by seat; "
                    "another seat's hand is redacted to null.",
                    "type": "array",
                    "items": {
                        "anyOf": [
                            {"type": "array", "items": good, "minItems": 2, "maxItems": 2},
                            {"type": "null"},
                        ]
                    },
                },
                {
                    "description": "The roll: a die (1-6) per good whose ship is still at sea.",
                    "type": "object",
                    "propertyNames": good,
                    "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 6},
                },
            ]
        }

    def redacted_action_schemas(self) -> list[dict[str, Any]]:
        """Another seat's mortgage or redeem shows its kind only (which share is hidden)."""
        return [
            {
                "description": "Another seat's mortgage or redeem: which share is hidden.",
                "type": "object",
                "properties": {"kind": {"enum": ["mortgage", "redeem"]}},
                "required": ["kind"],
                "additionalProperties": False,
            }
        ]

    def determinize(
        self,
        view: ManilaView,
        rng: random.Random,
        options: ManilaOptions | None = None,
        *,
        holdings: list[list[int]] | None = None,
    ) -> ManilaState:
        """A full state matching ``view``; the other seats' hidden shares (and which
        of them are mortgaged) are dealt at random from the shares nobody sees.

        ``holdings``, if given, fixes what every seat holds instead: one list per
        seat of share counts per good (board order, mortgaged shares included; this
        seat's row is ignored), for a caller that knows more than the view, such as a
        bot that tracked the public purchases or weighed the deal by the other seats'
        play.  Which of a seat's shares are mortgaged is still drawn at random.
        Without it, only the view's counts constrain the deal (earlier public
        purchases are not replayed).  Another seat's finance window in progress is
        not known and is reset.  Raises :class:`ValueError` if the view's counts (or
        ``holdings``) are inconsistent.
        """
        opts = options if options is not None else ManilaOptions(first_opener=view.opener)
        st = ManilaState(view.seats, opts)
        st.phase = PHASE_NAMES.index(view.phase)
        if view.phase == "deal":
            return st
        me = view.seat
        gi = D.GOOD_INDEX
        st.step = view.step
        st.voyage = view.voyage
        st.cash = list(view.cash)
        st.supply = [view.supply[g] for g in D.GOODS]
        st.price = [D.PRICE_TRACK.index(view.prices[g]) for g in D.GOODS]
        st.held[me] = [view.hand[g] for g in D.GOODS]
        st.mort[me] = [view.mortgaged[g] for g in D.GOODS]
        unseen = [
            D.SHARES_PER_GOOD - st.supply[g] - st.held[me][g] - st.mort[me][g]
            for g in range(NGOODS)
        ]
        others = [s for s in range(view.seats) if s != me]
        if holdings is None:
            pool = [g for g in range(NGOODS) for _ in range(unseen[g])]
            rng.shuffle(pool)
            if len(pool) != sum(view.shares[s] for s in others):
                raise ValueError("view share counts do not add up")
            hands = []
            for s in others:
                hands.append(pool[: view.shares[s]])
                pool = pool[view.shares[s] :]
        else:
            if [sum(holdings[s][g] for s in others) for g in range(NGOODS)] != unseen or any(
                sum(holdings[s]) != view.shares[s] or min(holdings[s]) < 0 for s in others
            ):
                raise ValueError("holdings do not match the view's counts")
            hands = [[g for g in range(NGOODS) for _ in range(holdings[s][g])] for s in others]
        for s, hand in zip(others, hands, strict=True):
            mortgaged = set(rng.sample(range(len(hand)), view.mortgaged_counts[s]))
            for k, g in enumerate(hand):
                (st.mort if k in mortgaged else st.held)[s][g] += 1
        st.left = list(view.accomplices)
        st.passed = list(view.passed)
        st.hm = view.harbour_master
        st.opener = view.opener
        st.high = view.high_bid
        st.high_bidder = view.high_bidder
        st.auc_out = list(view.auction_out)
        st.auc_turn = view.auction_turn
        st.cargo = [gi[g] for g in view.cargo]
        st.pos = list(view.positions)
        st.dest = [DEST_NAMES.index(d) for d in view.destinations]
        st.crew = [list(c) for c in view.crews]
        st.plundered = list(view.plundered)
        st.port_occ = list(view.port)
        st.yard_occ = list(view.shipyard)
        st.port_boats = [st.cargo.index(gi[g]) for g in view.port_boats]
        st.yard_boats = [st.cargo.index(gi[g]) for g in view.shipyard_boats]
        st.pirates = list(view.pirates)
        st.small_pilot = view.small_pilot
        st.large_pilot = view.large_pilot
        st.insurer = view.insurance
        st.place_turn = view.place_turn
        st.board_stays = view.board_stays
        st.board_left = view.board_left
        st.just_boarded = (view.just_boarded[0], view.just_boarded[1])
        st.pilot_turn = view.pilot_turn
        st.plunder_pending = [st.cargo.index(gi[g]) for g in view.plunder_pending]
        st.debtor = view.debtor
        st.debt = view.debt
        st.debt_kind = view.debt_kind
        st.rolls = view.rolls
        st.last_roll = dict(view.last_roll)
        st.win_m = [view.window_mortgaged[g] for g in D.GOODS]
        st.win_r = [view.window_redeemed[g] for g in D.GOODS]
        st.win_seat = me if any(st.win_m) or any(st.win_r) else NOBODY
        return st
