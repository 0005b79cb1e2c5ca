"""The event loop every match runs on: uvloop where it is installed, asyncio's own
otherwise.

The referee spends most of its time per move waiting on pipes: a request written to
a bot, its reply read back.  uvloop (libuv) does that wait and the read with less
Python work than asyncio's selector loop: ``benchmarks/overhead.py`` measures the
request path about a third cheaper in CPU with it (``make bench`` prints both
loops).  It is a dependency on Linux and macOS (``pyproject.toml``); where it is
missing, or where ``REFEREE_LOOP=asyncio`` is set, the referee runs on asyncio's
loop with the same behaviour, only slower.

``REFEREE_LOOP`` (environment): ``auto`` (default: uvloop if importable),
``asyncio`` or ``uvloop`` (uvloop or an error).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from referee.errors import RefereeError

T = TypeVar("T")

CHOICES = ("auto", "asyncio", "uvloop")


class LoopError(RefereeError, RuntimeError):
    """``REFEREE_LOOP`` names an unknown loop, or uvloop, which is not installed."""


Factory = Callable[[], asyncio.AbstractEventLoop] | None
"""Makes a new event loop for :class:`asyncio.Runner`; ``None``: asyncio's default."""


def installed() -> dict[str, Factory]:
    """The event loops this Python can run, by name: ``"asyncio"`` always (factory
    ``None``), ``"uvloop"`` where it is importable (benchmarks measure each)."""
    found: dict[str, Factory] = {"asyncio": None}
    try:
        import uvloop
    except ImportError:
        return found
    found["uvloop"] = uvloop.new_event_loop
    return found


def loop_factory() -> Factory:
    """The factory of the loop ``REFEREE_LOOP`` chooses: uvloop's, or ``None`` for
    asyncio's default loop.  Raises :class:`LoopError` (see above)."""
    wanted = os.environ.get("REFEREE_LOOP", "auto").strip().lower() or "auto"
    if wanted not in CHOICES:
        raise LoopError(f"REFEREE_LOOP must be one of {', '.join(CHOICES)}, not {wanted!r}")
    found = installed()
    if wanted == "auto":
        return found.get("uvloop")
    if wanted not in found:
        raise LoopError(f"REFEREE_LOOP={wanted}, but {wanted} is not installed")
    return found[wanted]


def name() -> str:
    """``"uvloop"`` or ``"asyncio"``: the loop :func:`run` and :func:`runner` use."""
    return "asyncio" if loop_factory() is None else "uvloop"


def runner() -> asyncio.Runner:
    """A new :class:`asyncio.Runner` on the chosen loop (close it when done)."""
    return asyncio.Runner(loop_factory=loop_factory())


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion in a new event loop of the chosen kind, as
    :func:`asyncio.run` does, and return its result."""
    with runner() as r:
        return r.run(main)
