"""Fixtures of the viewer tests: recorded games and one headless Chromium per session.

Browser tests need Debian's ``chromium`` and the ``playwright`` package (driven with
``executable_path``, nothing is downloaded).  Without them they skip with the reason,
except under CI (``CI`` set in the environment), where a missing browser fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.viewer.chromium import CHROMIUM_ARGS, find_chromium
from tests.viewer.records import write_record

EXTREMES = [
    ("manila", 3),
    ("manila", 5),
    ("navegador", 2),
    ("navegador", 5),
    ("puerto-rico", 3),
    ("puerto-rico", 5),
    ("roads-and-boats", 1),
    ("roads-and-boats", 4),
]
"""Every game at its smallest and largest seat count."""


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (skips without one, fails under CI).

    Module scope, not session: while playwright's synchronous API is active it holds
    an event loop in this thread, so ``asyncio.run`` in another module's tests (run by
    the same worker) would fail; pytest ends module fixtures when the module changes.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("python package playwright is not installed (pip install -e '.[dev]')")
    path = find_chromium()
    if path is None:
        _unavailable("no chromium found (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Path]:
    """A recorded random game per (game, seat count) of :data:`EXTREMES`; seat 1 (seat 0
    in 1-seat games: none) times out at ply 30 so faults and fallbacks show."""
    root = tmp_path_factory.mktemp("records")
    out = {}
    for game, seats in EXTREMES:
        fault = (1, 30) if seats > 1 else None
        out[(game, seats)] = write_record(
            root / f"{game}-{seats}.jsonl", game, seats, seed=seats, fault=fault
        )
    return out
