"""Action ids and observation tensors shared by the OpenSpiel and PettingZoo bindings.

**Action ids.** Learning and search libraries want each decision to be an integer
below a fixed bound.  :func:`action_codec` gives a game's :class:`ActionCodec`:

* A game whose actions can be listed once uses an **id table** (:class:`TableCodec`):
  every action the game can ever offer, enumerated once from the game's data tables
  (goods, spots, regions, buildings, roles...) as the product of each action kind's
  field domains, kinds in the order of the game's action union.  An action's id is its
  position in that table, whatever the state: the same id always means the same move.
  Numeric fields have documented bounds (in the game's ``interop`` module); an action
  outside its table raises :class:`ActionIdError`, which a test over random playouts
  guards against.
* A game whose actions name places of a generated map (its ``action_table`` gives
  ``None``) uses the **legal index** (:class:`LegalIndexCodec`): id ``k`` is entry
  ``k`` of the engine's legal list in the engine's stable order, below the game's
  ``MAX_LEGAL``.

Each game's table, bounds and tensor size are in its package's ``interop`` module
(:mod:`referee.api.interop`).

**Observation tensor.** :func:`view_tensor` encodes a seat's protocol view (nothing
else) as a flat ``float32`` vector of :func:`tensor_size` entries by feature hashing:
the view is taken as JSON (``msgspec.to_builtins``), each leaf gets its path (object
keys and list indices joined by ``/``); a number or bool adds its value at entry
``crc32(path) % size``, a string adds 1.0 at ``crc32(path + "=" + text) % size``, and
``null`` adds nothing.  The shape is fixed per game (it does not depend on the seat
count or the options); colliding features add up.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import msgspec
import numpy as np

from referee.api.engine import Game, State
from referee.api.interop import interop_of
from referee.errors import RefereeError


class ActionIdError(RefereeError, ValueError):
    """An action id out of range or not legal now, or an action outside the id table."""


class ActionCodec:
    """Maps a game's actions to integer ids below :attr:`num_actions` and back.

    ``scheme`` is ``"table"`` (fixed meaning per id) or ``"legal-index"``.
    """

    scheme: str = ""
    num_actions: int = 0

    def legal_ids(self, state: State) -> list[int]:
        """The ids of ``state``'s legal actions, ascending."""
        raise NotImplementedError

    def encode(self, state: State, action: Any) -> int:
        """The id of ``action`` (legal in ``state``); raises :class:`ActionIdError`."""
        raise NotImplementedError

    def decode(self, state: State, action_id: int) -> Any:
        """The engine action of ``action_id``, which must be legal in ``state``;
        raises :class:`ActionIdError` otherwise."""
        raise NotImplementedError


def _describe(action: Any) -> str:
    """Compact JSON of an action (``{"kind":"bid","amount":7}``)."""
    return msgspec.json.encode(action).decode()


class TableCodec(ActionCodec):
    """Ids are positions in a fixed table of every action of the game."""

    scheme = "table"

    def __init__(self, table: Sequence[Any]) -> None:
        self.table: list[Any] = list(table)
        self.index: dict[Any, int] = {}
        for i, action in enumerate(self.table):
            self.index.setdefault(action, i)
        self.num_actions = len(self.table)

    def encode(self, state: State | None, action: Any) -> int:
        """The table id of ``action`` (``state`` is not needed); raises
        :class:`ActionIdError` for an action outside the table."""
        try:
            return self.index[action]
        except KeyError:
            raise ActionIdError(f"action {_describe(action)} is not in the id table") from None

    def legal_ids(self, state: State) -> list[int]:
        """Ids of the legal actions, ascending (raises :class:`ActionIdError` if one
        is outside the table)."""
        return sorted(self.encode(state, a) for a in state.legal_actions())

    def decode(self, state: State, action_id: int) -> Any:
        """The action of table entry ``action_id`` if it is legal in ``state``."""
        if not 0 <= action_id < self.num_actions:
            raise ActionIdError(f"action id {action_id} out of range 0..{self.num_actions - 1}")
        action = self.table[action_id]
        if action not in state.legal_actions():
            raise ActionIdError(f"action id {action_id} ({_describe(action)}) is not legal now")
        return action


class LegalIndexCodec(ActionCodec):
    """Id ``k`` is the ``k``-th entry of the engine's legal list (below ``bound``)."""

    scheme = "legal-index"

    def __init__(self, bound: int) -> None:
        self.num_actions = bound

    def legal_ids(self, state: State) -> list[int]:
        """``0 .. len(legal) - 1``; raises :class:`ActionIdError` above the bound."""
        n = len(state.legal_actions())
        if n > self.num_actions:
            raise ActionIdError(f"{n} legal actions exceed the bound {self.num_actions}")
        return list(range(n))

    def encode(self, state: State, action: Any) -> int:
        """The position of ``action`` in ``state``'s legal list."""
        try:
            return state.legal_actions().index(action)
        except ValueError:
            raise ActionIdError(f"action {_describe(action)} is not legal now") from None

    def decode(self, state: State, action_id: int) -> Any:
        """Entry ``action_id`` of the legal list."""
        legal = state.legal_actions()
        if not 0 <= action_id < len(legal):
            raise ActionIdError(f"action id {action_id} is not legal now (0..{len(legal) - 1})")
        return legal[action_id]


_codecs: dict[str, ActionCodec] = {}


def action_codec(game: Game) -> ActionCodec:
    """The action-id scheme of ``game`` (built once per game and cached)."""
    codec = _codecs.get(game.name)
    if codec is None:
        spec = interop_of(game)
        table = spec.action_table(game)
        codec = TableCodec(table) if table is not None else LegalIndexCodec(spec.MAX_LEGAL)
        _codecs[game.name] = codec
    return codec


def action_label(action: Any) -> str:
    """A short human text of an engine action: its compact JSON."""
    return _describe(action)


# --- observation tensors -------------------------------------------------------------


def tensor_size(game: Game) -> int:
    """Entries of ``game``'s observation tensor (its ``interop.TENSOR_SIZE``)."""
    size: int = interop_of(game).TENSOR_SIZE
    return size


def view_tensor(view: Any, size: int, out: np.ndarray[Any, Any] | None = None) -> Any:
    """The hashed feature vector of ``view`` (a view Struct or its JSON form), a flat
    ``float32`` array of ``size`` entries (written into ``out`` when given)."""
    vec = np.zeros(size, np.float32) if out is None else out
    if out is not None:
        vec.fill(0.0)
    slots = _slots.setdefault(size, {})
    index: list[int] = []
    values: list[float] = []
    stack: list[tuple[str, Any]] = [("", msgspec.to_builtins(view))]
    pop, push = stack.pop, stack.append
    while stack:
        path, value = pop()
        kind = type(value)
        if kind is dict:
            for k, v in value.items():
                push((f"{path}/{k}", v))
            continue
        if kind is list:
            for i, v in enumerate(value):
                push((f"{path}/{i}", v))
            continue
        if kind is str:
            path = f"{path}={value}"
            number = 1.0
        elif kind is int or kind is float or kind is bool:
            if not value:
                continue
            number = float(value)
        else:
            continue
        slot = slots.get(path)
        if slot is None:
            slot = slots[path] = zlib.crc32(path.encode()) % size
        index.append(slot)
        values.append(number)
    if index:
        np.add.at(vec, np.asarray(index, np.intp), np.asarray(values, np.float32))
    return vec


_slots: dict[int, dict[str, int]] = {}
"""Cache of feature slots by tensor size (the same paths recur at every ply)."""


def view_text(view: Any) -> str:
    """The canonical JSON text of a view (keys in struct order)."""
    return msgspec.json.encode(view).decode()
