"""Engine chance events as sequences of small explicit chance nodes (for OpenSpiel).

An engine draws a whole chance outcome at once (a deal of every hand, all the dice
of a roll, a map seed below 2**31).  OpenSpiel wants each chance node's outcomes
listed with their probabilities, so each event is dealt one piece at a time, as
card games deal one card at a time; the pieces' distribution is exactly the
engine's (draws without replacement weighted by what is left, uniform dice, uniform
digits of a uniform seed):

* Manila: a deal is ``2 * seats`` shares dealt one at a time from the 12 (id = good
  index 0-3, probability by shares left); a roll is one die per punt at sea in punt
  order (id = face - 1, probability 1/6).
* Navegador: a region's tiles are turned up one at a time without replacement from
  the good's unseen tiles (id = price // 10).
* Puerto Rico: the governor (id = seat); a display refill one tile at a time, from
  the stack while it lasts and then from the discards (id = tile kind 0-4, weighted
  by the pile's counts); a hacienda tile likewise.
* Roads & Boats: a map or rivers seed below 2**31 as four base-256 digits, low digit
  first (the last below 128); a drafted land tile (id = terrain index, by the
  terrain weights); the temple order seat by seat; one mine draw per bag (id 0 gold,
  1 iron, weighted by the bag).

:func:`chance_model` gives the game's :class:`ChanceModel`; ``partial`` is the list
of piece ids chosen so far for the pending event.
"""

from __future__ import annotations

from typing import Any, Final

from referee.engine import State

Outcomes = list[tuple[int, float]]


class ChanceModel:
    """Decomposition of one game's chance events; ``max_outcomes`` bounds the ids."""

    max_outcomes: int = 1

    def outcomes(self, state: State, partial: list[int]) -> Outcomes:
        """The next piece's ``(id, probability)`` pairs (probabilities > 0, summing to
        1), or ``[]`` once ``partial`` completes the pending event."""
        raise NotImplementedError

    def assemble(self, state: State, partial: list[int]) -> Any:
        """The engine outcome (JSON value) made of the complete ``partial``."""
        raise NotImplementedError

    def label(self, state: State, partial: list[int], piece: int) -> str:
        """A short text for piece id ``piece`` chosen after ``partial``."""
        return f"chance:{piece}"


def _weighted(counts: list[int]) -> Outcomes:
    total = sum(counts)
    return [(i, c / total) for i, c in enumerate(counts) if c > 0]


class ManilaChance(ChanceModel):
    """Deal share by share; roll die by die."""

    max_outcomes = 6

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL, ROLL, SEA

        if state.phase == DEAL:
            if len(partial) >= D.HAND_SIZE * state.seats:
                return []
            left = [D.DEALT_PER_GOOD] * len(D.GOODS)
            for g in partial:
                left[g] -= 1
            return _weighted(left)
        if state.phase == ROLL:
            at_sea = sum(1 for b in range(3) if state.dest[b] == SEA)
            return [] if len(partial) >= at_sea else [(f, 1 / 6) for f in range(6)]
        raise ValueError("not at a Manila chance node")

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL, SEA

        if state.phase == DEAL:
            n = D.HAND_SIZE
            return [[D.GOODS[g] for g in partial[n * s : n * s + n]] for s in range(state.seats)]
        punts = [b for b in range(3) if state.dest[b] == SEA]
        return {D.GOODS[state.cargo[b]]: partial[i] + 1 for i, b in enumerate(punts)}

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.manila import data as D
        from referee.games.manila.phases import DEAL

        if state.phase == DEAL:
            return f"deal:{D.GOODS[piece]}"
        return f"die:{piece + 1}"


class NavegadorChance(ChanceModel):
    """Turn up a region's tiles one at a time."""

    max_outcomes = 19

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.navegador import data as D

        region = state.reveal
        if region < 0:
            raise ValueError("not at a Navegador chance node")
        if len(partial) >= D.REGION_TILES[region]:
            return []
        taken = {10 * p for p in partial}
        left = [p for p in state.unseen[D.REGION_GOOD[region]] if p not in taken]
        return [(p // 10, 1 / len(left)) for p in sorted(left)]

    def assemble(self, state: Any, partial: list[int]) -> Any:
        return sorted(10 * p for p in partial)

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        return f"tile:{10 * piece}"


class PuertoRicoChance(ChanceModel):
    """The governor; display and hacienda tiles one at a time."""

    max_outcomes = 5

    def _piles(self, state: Any, partial: list[int]) -> tuple[list[int], list[int], int]:
        """(stack, discard) after ``partial`` was drawn, and the tiles still to draw."""
        from referee.games.puerto_rico.phases import P_DRAW
        from referee.games.puerto_rico.plantations import display_draw_size

        stack, discard = list(state.stack), list(state.discard)
        if state.phase == P_DRAW:
            need = display_draw_size(state.setup.face_up, stack, discard)
        else:
            need = 1
        for kind in partial:
            if sum(stack) == 0:
                stack, discard = discard, [0] * len(discard)
            stack[kind] -= 1
        if sum(stack) == 0:
            stack, discard = discard, [0] * len(discard)
        return stack, discard, need - len(partial)

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.puerto_rico.phases import P_DRAW, P_GOVERNOR, P_HACIENDA_DRAW

        if state.phase == P_GOVERNOR:
            return [] if partial else [(s, 1 / state.seats) for s in range(state.seats)]
        if state.phase not in (P_DRAW, P_HACIENDA_DRAW):
            raise ValueError("not at a Puerto Rico chance node")
        stack, _discard, todo = self._piles(state, partial)
        return _weighted(stack) if todo > 0 else []

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.puerto_rico.phases import P_DRAW

        if state.phase == P_DRAW:
            return list(partial)
        return partial[0]

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.puerto_rico import data as D
        from referee.games.puerto_rico.phases import P_GOVERNOR

        if state.phase == P_GOVERNOR:
            return f"governor:{piece}"
        return f"tile:{D.TILE_NAMES[piece]}"


SEED_DIGITS: Final = (256, 256, 256, 128)
"""Roads & Boats map seeds (below 2**31) as base-256 digits, low digit first."""


class RoadsAndBoatsChance(ChanceModel):
    """Seeds digit by digit; land tiles, temple order and mine draws one at a time."""

    max_outcomes = 256

    def outcomes(self, state: Any, partial: list[int]) -> Outcomes:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            if len(partial) >= len(SEED_DIGITS):
                return []
            base = SEED_DIGITS[len(partial)]
            return [(d, 1 / base) for d in range(base)]
        if step == "deal":
            if len(partial) >= state._deal_size():
                return []
            return _weighted([w for _t, w in D.GEN_TERRAIN_WEIGHTS])
        if step == "setup":
            left = [s for s in range(state.seats) if s not in partial]
            return [(s, 1 / len(left)) for s in left] if left else []
        if step == "draw":
            if len(partial) >= len(state.draws):
                return []
            gold, iron = state.bags[state.draws[len(partial)]]
            return _weighted([gold, iron])
        raise ValueError("not at a Roads & Boats chance node")

    def assemble(self, state: Any, partial: list[int]) -> Any:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            seed, scale = 0, 1
            for digit, base in zip(partial, SEED_DIGITS, strict=True):
                seed += digit * scale
                scale *= base
            return seed
        if step == "deal":
            return [D.GEN_TERRAIN_WEIGHTS[t][0] for t in partial]
        if step == "setup":
            return list(partial)
        return [
            [h, "gold" if g == 0 else "iron"] for h, g in zip(state.draws, partial, strict=True)
        ]

    def label(self, state: Any, partial: list[int], piece: int) -> str:
        from referee.games.roads_and_boats import data as D

        step = state.step
        if step in ("map", "rivers"):
            return f"seed-digit:{piece}"
        if step == "deal":
            return f"land:{D.GEN_TERRAIN_WEIGHTS[piece][0]}"
        if step == "setup":
            return f"temple:{piece}"
        return f"mine:{'gold' if piece == 0 else 'iron'}"


_MODELS: Final[dict[str, type[ChanceModel]]] = {
    "manila": ManilaChance,
    "navegador": NavegadorChance,
    "puerto-rico": PuertoRicoChance,
    "roads-and-boats": RoadsAndBoatsChance,
}


def chance_model(name: str) -> ChanceModel:
    """The chance decomposition of the game called ``name``; raises KeyError."""
    return _MODELS[name]()
