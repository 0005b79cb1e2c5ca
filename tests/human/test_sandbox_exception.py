"""The sandbox exception is the built-in human seat's alone (no browser here: this
module runs an event loop of its own, which playwright's would stand in the way of)."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

from referee.human.command import BANK_MS, MOVE_MS, is_human
from referee.process.bot import BotProcess
from referee.process.isolation.sandbox import SandboxPolicy, bwrap_problem
from referee.process.spec import BotSpec, resolve_command
from tests.human.conftest import HumanMatch, play_by_http, start_match
from tests.zoo.procs import require

ROOT = Path(__file__).resolve().parents[2]


def test_only_the_human_seat_leaves_the_sandbox(tmp_path: Path) -> None:
    """Under bubblewrap a normal bot is sandboxed; the built-in human seat is not (it
    serves a page on loopback), and nothing else is mistaken for it."""
    require(bwrap_problem(), "sandbox")
    policy = SandboxPolicy("bwrap")
    human_argv = resolve_command("human --no-browser")
    assert is_human(human_argv)
    assert not is_human(resolve_command("python3 bots/random_bot.py", ROOT))
    assert not is_human(resolve_command("python3 -m referee.human.seat", ROOT))

    async def spawn_both() -> tuple[bool, bool]:
        human = await BotProcess.spawn(BotSpec("h", human_argv), sandbox=policy)
        bot = await BotProcess.spawn(
            BotSpec("b", resolve_command("python3 bots/random_bot.py", ROOT)), sandbox=policy
        )
        try:
            return human.sandboxed, bot.sandboxed
        finally:
            await human.close(graceful=False)
            await bot.close(graceful=False)

    assert asyncio.run(spawn_both()) == (False, True)


def test_a_human_seat_has_a_person_s_clock_unless_given_one() -> None:
    """A human seat's default clock; an entrant's own clock wins; bots keep the match's."""
    human = BotSpec("h", resolve_command("human"))
    assert (human.move_ms, human.bank_ms) == (MOVE_MS, BANK_MS)
    own = BotSpec("h", resolve_command("human"), move_ms=5_000, bank_ms=0)
    assert (own.move_ms, own.bank_ms) == (5_000, 0)
    bot = BotSpec("b", resolve_command("python3 bots/random_bot.py", ROOT))
    assert (bot.move_ms, bot.bank_ms) == (None, None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_sandboxed_bot_cannot_reach_the_human_page(
    tmp_path: Path, human_match: list[HumanMatch]
) -> None:
    """A bot that tries to connect to the human seat's port: refused inside the
    sandbox (its own empty network namespace), connected without one (so the probe
    itself works)."""
    require(bwrap_problem(), "sandbox")
    names = {}
    for mode in ("bwrap", "none"):
        port = free_port()
        probe = f"python3 {ROOT / 'tests' / 'human' / 'probe_bot.py'} {port}"
        match = start_match(
            tmp_path / mode,
            "roads-and-boats",
            [f"human --port {port}", probe],
            seed=1,
            extra=["--sandbox", mode, "--max-plies", "40", "--format", "json"],
        )
        human_match.append(match)
        play_by_http(match)
        names[mode] = json.loads(match.finish())["seats"][1]["ready name"]
    assert "probe-unreachable" in names["bwrap"]
    assert "probe-connected" in names["none"]
