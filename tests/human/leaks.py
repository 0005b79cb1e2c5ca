"""Scanning what a human seat's page received for other seats' hidden information.

The referee shows a seat its view through the protocol; the page may show that view
and nothing more.  :func:`scan` checks every JSON response the page received against
the views ``referee replay --seat K`` says seat K was sent:

* a response's ``view`` is one of the views seat K was sent, exactly;
* no object anywhere in a response holds a secret field (Manila's ``hand``,
  ``mortgaged``, ``hands``, ``mortgaged_hands``) unless it is that very view, and no
  other body (the page's HTML) holds one as a JSON key.

So another seat's view, the omniscient frame, or another seat's holdings put anywhere
in a response are found (``test_leak_scan_finds_a_planted_leak``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from referee.match.replay import replay

SECRET_KEYS = frozenset({"hand", "mortgaged", "hands", "mortgaged_hands"})
"""Fields that carry hidden holdings (Manila)."""


def canonical(value: Any) -> str:
    """One JSON text per value (engine objects as their JSON), keys sorted."""
    value = msgspec.json.decode(msgspec.json.encode(value))
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def objects(value: Any) -> Iterator[Any]:
    """Every object (dict) in a JSON value, depth first."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from objects(v)


def scan(responses: list[str], record: Path, seat: int) -> list[str]:
    """The leaks found in ``responses`` (response bodies, as text), as sentences."""
    shown = {canonical(d.view) for d in replay(record, seat=seat).shown}
    problems: list[str] = []
    for n, body in enumerate(responses):
        try:
            data = json.loads(body)
        except ValueError:
            for key in SECRET_KEYS:
                if f'"{key}":' in body:
                    problems.append(f"response {n}: secret field {key!r} in a non-JSON body")
            continue
        view = data.get("view") if isinstance(data, dict) else None
        if view is not None and canonical(view) not in shown:
            problems.append(f"response {n}: a view seat {seat} was never sent")
        for obj in objects(data):
            if obj is view:
                continue
            found = SECRET_KEYS & obj.keys()
            if found:
                problems.append(f"response {n}: secret field {sorted(found)} outside the view")
    return problems
