"""``human --tty``: a person plays the seat in a terminal, by numbers.

At each decision the terminal shows what happened since the seat's last move, the
seat's view (its fields, one a line), the clock, and every legal action numbered in
the game's words (with the engine's kind and fields); the person types a number.
The terminal is the referee's own (passed as ``--terminal PATH`` by
:func:`referee.human.command.human_argv`), since the seat's standard streams carry the
protocol.
"""

from __future__ import annotations

import json
import threading
from typing import Any, TextIO

from referee.display import terminal as escape
from referee.human.table import Table


def _fields(fields: dict[str, Any]) -> str:
    return " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())


def render_turn(snapshot: dict[str, Any], shown: int) -> str:
    """The text of one decision: the log from entry ``shown`` on, the view, the clock
    and the numbered legal actions.  Everything is escaped for the terminal."""
    seats = snapshot["seats"]
    lines = []
    for entry in snapshot["log"][shown:]:
        who = "chance" if entry["seat"] < 0 else seats[entry["seat"]]
        lines.append(f"  ply {entry['ply']:>4}  {who}: {entry['text']}")
    view = snapshot["view"]
    if isinstance(view, dict):
        lines.append("your view:")
        for key, value in view.items():
            text = json.dumps(value, separators=(",", ":"))
            lines.append(f"  {key}: {text if len(text) <= 160 else text[:157] + '...'}")
    request = snapshot["request"]
    clock = request["clock"]
    lines.append(
        f"ply {request['ply']}: your move (seat {snapshot['seat']}; {clock.get('move_ms', 0)} ms "
        f"for the move, then bank {clock.get('bank_ms', 0)} ms)"
    )
    for control in request["legal"]:
        extra = _fields(control["fields"])
        lines.append(
            f"  {control['index']:>3}. {control['label']}   [{control['kind']}"
            f"{' ' + extra if extra else ''}]"
        )
    return "\n".join(escape(line) for line in lines) + "\n"


def converse(table: Table, reader: TextIO, writer: TextIO) -> None:
    """Show each decision on ``writer`` and read the person's number from ``reader``
    until the game ends or ``reader`` ends."""
    version, shown, asked = -1, 0, None
    while True:
        version = table.wait_change(version, 1.0)
        snapshot = table.snapshot()
        if snapshot["result"] is not None or table.closed:
            writer.write(_result(snapshot))
            writer.flush()
            return
        request = snapshot["request"]
        if request is None or request["id"] == asked:
            continue
        asked = request["id"]
        writer.write(render_turn(snapshot, shown))
        shown = len(snapshot["log"])
        while True:
            writer.write(f"your choice (0-{len(request['legal']) - 1}): ")
            writer.flush()
            line = reader.readline()
            if not line:
                return
            try:
                index = int(line.strip())
            except ValueError:
                writer.write("type the number of an action\n")
                continue
            ok, text = table.choose(request["id"], index)
            writer.write(escape(("you: " if ok else "refused: ") + text) + "\n")
            if ok:
                break
        shown = len(table.snapshot()["log"])


def _result(snapshot: dict[str, Any]) -> str:
    outcome = snapshot["result"]
    if outcome is None:
        return "the referee ended this seat\n"
    result = outcome.get("result") or {}
    rows = [
        f"  seat {i} {escape(name)}: score {score}, rank {rank}, {verdict}"
        for i, (name, score, rank, verdict) in enumerate(
            zip(
                snapshot["seats"],
                result.get("scores", []),
                result.get("ranks", []),
                outcome.get("verdicts") or [],
                strict=False,
            )
        )
    ]
    return "game over:\n" + "\n".join(rows) + "\n"


def play_in_terminal(table: Table, terminal: str | None) -> threading.Thread:
    """Converse with the person on the terminal at path ``terminal`` in a thread.
    Raises :class:`SystemExit` when there is no terminal to play on."""
    if not terminal:
        raise SystemExit("human --tty: the referee has no terminal to play on")
    try:
        reader = open(terminal, encoding="utf-8", errors="replace")  # noqa: SIM115
        writer = open(terminal, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise SystemExit(f"human --tty: cannot open {terminal}: {exc}") from None
    thread = threading.Thread(
        target=converse, args=(table, reader, writer), name="referee-tty", daemon=True
    )
    thread.start()
    return thread
