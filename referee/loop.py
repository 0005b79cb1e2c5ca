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

T = TypeVar("T")

CHOICES = ("auto", "asyncio", "uvloop")


class LoopError(RuntimeError):
    """``REFEREE_LOOP`` names an unknown loop, or uvloop, which is not installed."""


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of new event loops for :class:`asyncio.Runner`: uvloop's, or
    ``None`` for asyncio's default loop.  Raises :class:`LoopError` (see above)."""
    wanted = os.environ.get("REFEREE_LOOP", "auto").strip().lower() or "auto"
    if wanted not in CHOICES:
        raise LoopError(f"REFEREE_LOOP must be one of {', '.join(CHOICES)}, not {wanted!r}")
    if wanted == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if wanted == "uvloop":
            raise LoopError("REFEREE_LOOP=uvloop, but uvloop is not installed") from None
        return None
    return uvloop.new_event_loop


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
