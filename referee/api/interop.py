"""What a game tells the OpenSpiel and PettingZoo bindings (:mod:`referee.interop`),
in the game's own package: a module ``interop`` beside its ``render``, found by
:func:`interop_of`, with

* ``CHANCE``: a :class:`ChanceModel` subclass, the game's chance events dealt one
  small piece at a time (OpenSpiel wants each chance node's outcomes listed with their
  probabilities, so an event too large to list, a deal or a map seed, becomes a
  sequence of pieces whose distribution is exactly the engine's);
* ``TENSOR_SIZE``: the entries of its observation tensor;
* ``action_table(game)``: every action, in a fixed order (the action ids), or ``None``
  when the actions name places of a generated map, with ``MAX_LEGAL`` bounding the
  legal-index ids used instead.

Pure Python: nothing here imports OpenSpiel, PettingZoo or numpy.
"""

from __future__ import annotations

import importlib
import itertools
import typing
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from referee.api.engine import Game, State

Outcomes = list[tuple[int, float]]
"""A chance node's ``(piece id, probability)`` pairs."""


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


def weighted(counts: list[int]) -> Outcomes:
    """``(index, probability)`` of every index with a positive count, by count."""
    total = sum(counts)
    return [(i, c / total) for i, c in enumerate(counts) if c > 0]


def _kinds(game: Game) -> list[type[Any]]:
    """The action classes of ``game``'s action union, in union order."""
    args = typing.get_args(game.action_type)
    return list(args) if args else [game.action_type]


def product_table(
    game: Game, domains: dict[str, Iterable[Any]], by_kind: dict[tuple[str, str], Iterable[Any]]
) -> list[Any]:
    """Every action of ``game`` as the product of its fields' domains, kinds in union
    order: a field's domain is ``by_kind[(tag, field)]``, else ``domains[field]``.
    Raises :class:`ValueError` for a field without a domain."""
    table: list[Any] = []
    for cls in _kinds(game):
        tag = cls.__struct_config__.tag
        fields = cls.__struct_fields__
        pools = [list(by_kind.get((tag, f), domains.get(f, ()))) for f in fields]
        for f, pool in zip(fields, pools, strict=True):
            if not pool:
                raise ValueError(f"{game.name}: no domain for field {tag}.{f}")
        for values in itertools.product(*pools):
            table.append(cls(**dict(zip(fields, values, strict=True))))
    return table


def interop_of(game: Game) -> ModuleType:
    """The ``interop`` module of ``game``'s package.  Raises :class:`LookupError` when
    the game has none (it then has no OpenSpiel or PettingZoo binding)."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.interop")
    except ModuleNotFoundError as exc:
        raise LookupError(f"{game.name}: no interop module ({exc})") from None
