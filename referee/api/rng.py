"""The referee's random number generators: chance outcomes and fallback moves.

Bots see every chance outcome (dice, draws, deals) of a match, so the generator
behind them must not be predictable from its outputs.  :class:`KeyedRandom` is a
:class:`random.Random` whose bits come from SHA-256 in counter mode under a key
derived from the match seed; without the seed, past outcomes say nothing about
future ones.  (The Mersenne Twister of :class:`random.Random` can be rebuilt from
enough of its outputs, so it is used only to replay records written before this
generator existed.)

A record's header names the generator (``chance``): :data:`KEYED` for new records,
:data:`LEGACY` for records that carry no name.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Final, Literal

KEYED: Final = "sha256-ctr"
"""SHA-256 counter-mode generator keyed by the match seed (every new record)."""

LEGACY: Final = "mt19937"
"""Python's Mersenne Twister seeded with the derived seed (records before 0.2)."""

RngKind = Literal["sha256-ctr", "mt19937"]


def derive_seed(seed: int, purpose: str) -> int:
    """A 64-bit seed for ``purpose`` derived from ``seed`` (SHA-256, stable across runs)."""
    digest = hashlib.sha256(f"{seed}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class KeyedRandom(random.Random):
    """A :class:`random.Random` drawing its bits from SHA-256(key || counter).

    Every method of :class:`random.Random` (``randrange``, ``shuffle``, ``choice``,
    ``sample``, ``random``...) works on top of :meth:`getrandbits`.  ``key`` is any
    byte string; two generators with the same key give the same sequence.
    """

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = 0
        self._avail = 0
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Ignored: a keyed generator is fixed by its key (kept for the base class)."""

    def getrandbits(self, k: int) -> int:
        """``k`` random bits as a non-negative int.  Raises ValueError for ``k < 0``."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._avail < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool |= int.from_bytes(block, "big") << self._avail
            self._avail += 256
        out = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._avail -= k
        return out

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return self.getrandbits(53) * (1.0 / (1 << 53))

    def getstate(self) -> Any:
        """The generator's position (key, counter and buffered bits)."""
        return (self._key, self._counter, self._pool, self._avail)

    def setstate(self, state: Any) -> None:
        """Restore a position returned by :meth:`getstate`."""
        self._key, self._counter, self._pool, self._avail = state


def match_rng(seed: int, purpose: str, kind: RngKind = KEYED) -> random.Random:
    """The generator for ``purpose`` (``"chance"`` or ``"fallback"``) of a match seeded
    with ``seed``, of the kind a record names.  Raises ValueError for an unknown kind."""
    if kind == KEYED:
        return KeyedRandom(hashlib.sha256(f"referee:{purpose}:{seed}".encode()).digest())
    if kind == LEGACY:
        return random.Random(derive_seed(seed, purpose))
    raise ValueError(f"unknown chance generator {kind!r}")
