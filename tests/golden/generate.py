"""Write the golden trajectory files: ``python -m tests.golden.generate [--game NAME]``.

Writes ``tests/golden/digests.json`` (one SHA-256 per game, see
:mod:`tests.golden.trajectory`) and the games listed in ``FULL`` in full under
``tests/golden/full/``.  Run it only when an engine's output is meant to change
(a rules fix), and say so in the commit; the point of the files is that
optimisations leave them untouched.

With ``--game NAME`` (repeatable) only the cases of those games are played: their
digests replace or add their own keys in the existing ``digests.json`` (every other
key is kept byte for byte as it was decoded) and only their full games are written.
"""

from __future__ import annotations

import argparse
import lzma
from pathlib import Path
from typing import Any

import msgspec

from tests.golden.trajectory import CASES, FULL, case_key, digest, game_seed, trajectory

HERE = Path(__file__).resolve().parent
DIGESTS = HERE / "digests.json"
FULL_DIR = HERE / "full"


def full_path(case: int, index: int) -> Path:
    """The file of a fully stored game, e.g. ``full/manila-3-0.jsonl.xz``."""
    game, seats, _, _ = CASES[case]
    return FULL_DIR / f"{game}-{seats}-case{case}-{index}.jsonl.xz"


def main(argv: list[str] | None = None) -> None:
    """Play the cases' games (all, or those of ``--game``) and write digests and full games."""
    parser = argparse.ArgumentParser(description="Write the golden trajectory files.")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    games = parser.parse_args(argv).game
    picked = [case for case in CASES if games is None or case[0] in games]
    table: dict[str, list[dict[str, Any]]] = {}
    if games is not None:
        table = msgspec.json.decode(DIGESTS.read_bytes())
        for game, seats, options, _ in picked:
            table.pop(case_key(game, seats, options), None)
    for game, seats, options, count in picked:
        rows = table.setdefault(case_key(game, seats, options), [])
        for index in range(count):
            seed = game_seed(game, seats, options, index)
            rows.append({"seed": seed, "sha256": digest(trajectory(game, seats, options, seed))})
        print(f"{case_key(game, seats, options)}: {count} games", flush=True)
    DIGESTS.write_bytes(msgspec.json.format(msgspec.json.encode(table)) + b"\n")
    FULL_DIR.mkdir(exist_ok=True)
    for case, index in FULL:
        game, seats, options, _ = CASES[case]
        if games is not None and game not in games:
            continue
        seed = game_seed(game, seats, options, index)
        data = b"".join(line + b"\n" for line in trajectory(game, seats, options, seed))
        full_path(case, index).write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))


if __name__ == "__main__":
    main()
