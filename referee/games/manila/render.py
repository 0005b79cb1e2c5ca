"""Manila's drawing for the replay viewer (see :mod:`referee.api.render`)."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.api.engine import State
from referee.api.render import GameRenderer, generic_action
from referee.games.manila import data as D


class ManilaRenderer(GameRenderer):
    """Frames are :class:`ManilaView` fields; the omniscient frame replaces ``hand`` /
    ``mortgaged`` by ``hands`` / ``mortgaged_hands`` (every seat's shares by good).
    The chart shows cash in pesos (share holdings are secret until the end)."""

    progress_label = "cash (pesos)"

    def frame(self, state: State, seat: int | None) -> dict[str, Any]:
        """The seat's view, or the omniscient frame (see the class docstring)."""
        if seat is not None:
            data: dict[str, Any] = msgspec.to_builtins(state.view(seat))
            return data
        views = [msgspec.to_builtins(state.view(s)) for s in range(state.seats)]
        mover = state.to_move()
        data = dict(views[mover if 0 <= mover < state.seats else 0])
        data["seat"] = -1
        data["hands"] = [v.pop("hand") for v in views]
        data["mortgaged_hands"] = [v.pop("mortgaged") for v in views]
        data.pop("hand", None)
        data.pop("mortgaged", None)
        return data

    def static(self, state: State) -> dict[str, Any]:
        """Board tables: goods, crew seat costs, payouts, office costs, price track."""
        return {
            "goods": list(D.GOODS),
            "seat_costs": [list(c) for c in D.SEAT_COSTS],
            "cargo_payout": list(D.CARGO_PAYOUT),
            "price_track": list(D.PRICE_TRACK),
            "office_costs": list(D.OFFICE_COSTS),
            "office_payouts": list(D.OFFICE_PAYOUTS),
            "harbour_length": D.HARBOUR_LENGTH,
        }

    def progress(self, state: State, seat: int | None) -> list[float]:
        """Cash of every seat (public)."""
        view = state.view(0)
        return [float(c) for c in view.cash]

    def describe_action(self, action: Any) -> str:
        """Manila moves in the rulebook's words."""
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "bid":
            return f"bids {action['amount']} for harbour master"
        if kind == "pass":
            return "passes"
        if kind == "buy":
            return f"buys a {action.get('good')} share" if action.get("good") else "buys no share"
        if kind == "leave_out":
            return f"leaves {action['good']} ashore"
        if kind == "launch":
            return "launches the punts at " + ", ".join(str(x) for x in action["starts"])
        if kind == "place":
            return f"places an accomplice on {action['spot']}"
        if kind == "board":
            return f"pirate boards the {action['good']} punt"
        if kind == "pilot":
            moves = ", ".join(f"{g} {d:+d}" for g, d in action["moves"]) or "no move"
            return f"pilot moves {moves}"
        if kind == "deliver":
            return f"pirates send the {action['good']} punt to the {action['to']}"
        if kind in ("mortgage", "redeem"):
            what = f" a {action['good']} share" if "good" in action else " a share"
            return ("mortgages" if kind == "mortgage" else "redeems") + what
        return generic_action(action)

    def describe_chance(self, outcome: Any, state: State | None = None) -> str:
        """Deals and dice in words (hidden hands as ``?``)."""
        if (
            isinstance(outcome, list)
            and outcome
            and all(h is None or isinstance(h, list) for h in outcome)
        ):
            hands = ["?" if h is None else "+".join(h) for h in outcome]
            return "deal: " + " | ".join(hands)
        if isinstance(outcome, dict):
            return "dice: " + ", ".join(f"{g} {v}" for g, v in outcome.items())
        if isinstance(outcome, list):
            return "dice: " + ", ".join(str(v) for v in outcome)
        return str(outcome)


RENDERER = ManilaRenderer()
