"""Phases of a Roads & Boats turn, the game's node kinds by stage.

A match starts at :data:`SETUP` (map and temple draws, home placement), then repeats the
four phases of a turn, production, movement, building and wonder (rulebook, "Turn
sequence"), in the order of :data:`STAGES`; a state's ``stage`` is an index into it.
Within a phase, the state's ``step`` says which decision is due (``act`` most of the
time; ``request``, ``position``, ``pray``, ``homes``... around the temple and setup).
"""

from __future__ import annotations

STAGES = ("production", "movement", "building", "wonder")
"""Phase names by stage index (as views and records spell them)."""

PRODUCTION, MOVEMENT, BUILDING, WONDER = range(4)

SETUP = -1
"""The stage before the first production phase."""
