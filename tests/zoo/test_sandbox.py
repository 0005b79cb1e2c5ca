"""The sandbox holds against a hostile bot (docs/protocol.md, "Your process").

Each test seats one attacker (``hostile_bot.py``) between two well-behaved bots on
the toy game, every bot under bubblewrap, and checks that the attack found nothing
(the attacker reports every success on its stderr), that the innocent seats finish
``ok``, that the record replays with its seed checked, and that no process the
attacker started is left.  Where bubblewrap cannot run, the tests skip, except in CI
(``CI`` set), where a missing sandbox fails them.  A few tests run the same attack
without a sandbox to show that it is real.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.match.match import Clock, MatchOutcome, run_match
from referee.match.replay import replay
from referee.process.isolation.sandbox import SandboxPolicy, bot_filter, bwrap_problem
from referee.process.spec import BotLimits, BotSpec
from tests.core.toygame import GAME
from tests.zoo.procs import ready_name, require, tagged_states, while_ready

HERE = Path(__file__).parent
ZOO = HERE / "zoo_bot.py"
HOSTILE = HERE / "hostile_bot.py"
REPO = HERE.parent.parent


@pytest.fixture
def bwrap() -> SandboxPolicy:
    """The bubblewrap policy; skips (fails in CI) where bubblewrap cannot run."""
    require(bwrap_problem(), "sandbox")
    return SandboxPolicy("bwrap")


def tagged(tag: str) -> list[int]:
    """Live (non-zombie) host processes whose command line holds ``tag``."""
    return list(tagged_states(tag))


def attack(
    mode: str,
    run_dir: Path,
    policy: SandboxPolicy,
    tag: str,
    target: str = "",
    script: Path = HOSTILE,
) -> tuple[MatchOutcome, list[str]]:
    """Play one toy match with the attacker in seat 1, ``run_dir`` hidden as a
    tournament's run directory is; return the outcome and the attacker's findings
    (its ``FOUND`` stderr lines).  ``target`` defaults to the run directory."""
    policy = policy.hiding([run_dir])
    victim = [sys.executable, str(ZOO), "ok", "", f"victim-{tag}"]
    bots = [
        BotSpec("good0", victim),
        BotSpec(mode, [sys.executable, str(script), mode, tag, f"target={target or run_dir}"]),
        BotSpec("good2", victim),
    ]
    outcome = asyncio.run(
        run_match(
            GAME,
            bots,
            seed=11,
            clock=Clock(startup_ms=20_000, move_ms=5_000),
            options=GAME.parse_options({"target": 12}),
            record_path=run_dir / "records" / "m.jsonl",
            log_dir=run_dir / "logs",
            limits=BotLimits(exit_grace_s=0.3, term_grace_s=0.3),
            fsync=False,
            sandbox=policy,
        )
    )
    log = (run_dir / "logs" / "seat1.stderr.log").read_text(errors="replace")
    return outcome, [line for line in log.splitlines() if line.startswith("FOUND")]


def fake_run(tmp_path: Path) -> Path:
    """A run directory with a manifest and a results database to forge."""
    run_dir = tmp_path / "run"
    (run_dir / "records").mkdir(parents=True)
    (run_dir / "manifest.json").write_text('{"secret": "s3cret"}')
    db = sqlite3.connect(run_dir / "results.sqlite")
    db.execute("CREATE TABLE matches (id TEXT, ranks TEXT)")
    db.execute("INSERT INTO matches VALUES ('m1', '[3,2,1]')")
    db.commit()
    db.close()
    return run_dir


def gone(tag: str, within_s: float = 3.0) -> bool:
    deadline = time.monotonic() + within_s
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not tagged(tag)


ATTACKS = [
    "sibling_killer",
    "stdin_thief",
    "stdout_injector",
    "proc_spy",
    "db_forger",
    "parent_killer",
    "network",
    "scrubbed_chain",
]


@pytest.fixture
def listener() -> Iterator[str]:
    """A TCP server on the host's loopback that greets every connection: its port."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                conn, _ = server.accept()
                conn.sendall(b"!")
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield str(server.getsockname()[1])
    stop.set()
    thread.join()
    server.close()


@pytest.mark.parametrize("mode", ATTACKS)
def test_attack_finds_nothing_in_the_sandbox(
    mode: str, tmp_path: Path, bwrap: SandboxPolicy, listener: str
) -> None:
    tag = f"tag{secrets.token_hex(6)}"
    run_dir = fake_run(tmp_path)
    outcome, findings = attack(
        mode, run_dir, bwrap, tag, target=listener if mode == "network" else ""
    )
    assert findings == []
    assert outcome.verdicts == ["ok", "ok", "ok"], [s.detail for s in outcome.seats]
    result = replay(run_dir / "records" / "m.jsonl", lookup=lambda name: GAME)
    assert result.result.ranks == outcome.ranks
    assert result.header.sandbox == "bwrap"
    db = sqlite3.connect(run_dir / "results.sqlite")
    assert db.execute("SELECT ranks FROM matches").fetchall() == [("[3,2,1]",)]
    db.close()
    assert gone(tag), f"processes left: {tagged(tag)}"


def test_the_run_directory_is_hidden_inside_the_bots_own_directory(
    tmp_path: Path, bwrap: SandboxPolicy
) -> None:
    """A bot whose own folder holds the run directory still cannot read the run."""
    script = tmp_path / "hostile_bot.py"
    shutil.copy(HOSTILE, script)
    tmp_path.chmod(0o755)  # as root, bots run as their own uid: their folder must be readable
    tag = f"tag{secrets.token_hex(6)}"
    outcome, findings = attack("db_forger", fake_run(tmp_path), bwrap, tag, script=script)
    assert findings == []
    assert outcome.verdicts == ["ok", "ok", "ok"]


@pytest.mark.parametrize("mode", ["sibling_killer", "db_forger", "proc_spy", "network"])
def test_the_same_attack_succeeds_without_a_sandbox(
    mode: str, tmp_path: Path, listener: str
) -> None:
    """The attacks are real: without the sandbox they reach their targets."""
    tag = f"tag{secrets.token_hex(6)}"
    target = listener if mode == "network" else ""
    outcome, findings = attack(mode, fake_run(tmp_path), SandboxPolicy("none"), tag, target)
    assert findings, "the attack found nothing even without a sandbox"
    if mode == "sibling_killer":
        assert "ok" not in (outcome.verdicts[0], outcome.verdicts[2])
    gone(tag)


def test_python_bots_import_referee_in_the_sandbox(tmp_path: Path, bwrap: SandboxPolicy) -> None:
    result = CliRunner().invoke(
        main,
        [
            "play",
            "manila",
            *("--bot", f"python3 {REPO / 'bots' / 'manila_bot.py'}"),
            *("--bot", f"python3 {REPO / 'bots' / 'random_bot.py'}"),
            *("--bot", f"python3 {REPO / 'bots' / 'random_bot.py'}"),
            *("--sandbox", "bwrap", "--record", str(tmp_path / "m.jsonl")),
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["seats"]
    assert [row["verdict"] for row in rows] == ["ok"] * 3, result.output
    assert replay(tmp_path / "m.jsonl").header.sandbox == "bwrap"


FILLER = """
import json, os, sys
def fill(folder):
    written = 0
    try:
        with open(os.path.join(folder, "filler"), "wb") as f:
            while written < 64 << 20:
                f.write(b"x" * (1 << 20))
                f.flush()
                written += 1 << 20
    except OSError:
        pass
    return written >> 20
try:
    open("/dev/extra", "w").close()
    dev = "writable"
except OSError:
    dev = "read-only"
where = (fill(os.getcwd()), fill("/tmp"), fill("/dev/shm"), dev, os.getcwd())
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": json.dumps(where)}), flush=True)
"""


def test_a_bot_cannot_fill_the_disk(tmp_path: Path, bwrap: SandboxPolicy) -> None:
    """The working directory, /tmp and /dev/shm of a sandboxed bot are tmpfs of
    disk_mb MiB each and /dev is read-only: writing 64 MiB stops at the cap, and
    nothing reaches the host's disk."""

    name, on_host = ready_name(FILLER, bwrap, BotLimits(disk_mb=4))
    workdir_mib, tmp_mib, shm_mib, dev, cwd = json.loads(name)
    assert max(workdir_mib, tmp_mib, shm_mib) <= 4, (workdir_mib, tmp_mib, shm_mib)
    assert shm_mib >= 1  # POSIX shared memory works (multiprocessing needs it)
    assert dev == "read-only"
    assert cwd.startswith("/") and on_host == []


def test_a_requested_sandbox_that_cannot_run_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    bwrap_problem.cache_clear()
    try:
        result = CliRunner().invoke(
            main,
            ["play", "manila", *["--bot", "python3 bots/random_bot.py"] * 3, "--sandbox", "bwrap"],
        )
    finally:
        bwrap_problem.cache_clear()
    assert result.exit_code == 2
    assert "sandbox 'bwrap' requested" in result.output


def test_a_tournament_with_an_attacker_stays_fair(tmp_path: Path, bwrap: SandboxPolicy) -> None:
    """One entrant attacks everything at once (the run, its siblings, its parent, a
    fork chain) in a Manila round robin at concurrency 2: every innocent seat ends
    ``ok``, the attacker plays on (its attacks fail silently), every record replays
    with its seed checked, the database matches the records, nothing is left."""
    tag = f"tag{secrets.token_hex(6)}"
    out = tmp_path / "run"
    modes = "db_forger+sibling_killer+stdout_injector+parent_killer+scrubbed_chain"
    config = tmp_path / "attack.toml"
    config.write_text(
        f"""
name = "attack"
game = "manila"
seats = 3
move_ms = 5000
sandbox = "bwrap"

[[bots]]
name = "random1"
command = "python3 {REPO / "bots" / "random_bot.py"} victim-{tag}"

[[bots]]
name = "random2"
command = "python3 {REPO / "bots" / "random_bot.py"} victim-{tag}"

[[bots]]
name = "attacker"
command = "python3 {HOSTILE} {modes} {tag} target={out}"
"""
    )
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["tournament", str(config), "--out", str(out), "--concurrency", "2", "--quiet"],
    )
    assert result.exit_code == 0, result.output
    db = sqlite3.connect(out / "results.sqlite")
    rows = db.execute("SELECT verdicts, record FROM matches").fetchall()
    db.close()
    assert len(rows) == 3
    for verdicts, record in rows:
        assert json.loads(verdicts) == ["ok", "ok", "ok"]
        assert replay(out / "records" / record).header.sandbox == "bwrap"
    for log in out.glob("logs/*/*.log"):
        assert "FOUND" not in log.read_text(errors="replace"), log
    check = runner.invoke(main, ["results", str(out), "--check"])
    assert check.exit_code == 0, check.output
    assert gone(tag), f"processes left: {tagged(tag)}"


FORKER = """
import json, os, sys, time
made = 0
for _ in range(200):
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
    except OSError:
        break
    made += 1
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": str(made)}), flush=True)
"""


def test_the_kernel_stops_a_fork_bomb_in_the_sandbox(bwrap: SandboxPolicy) -> None:
    """Under the sandbox a bot may run 4 x max_processes tasks: with max_processes 16,
    a bot that forks 200 children gets fewer than 64."""

    name, _ = ready_name(FORKER, bwrap, BotLimits(max_processes=16))
    assert 0 < int(name) < 64


def test_a_bot_at_its_task_cap_leaves_the_others_theirs(bwrap: SandboxPolicy) -> None:
    """The kernel counts each sandboxed bot's tasks apart (a uid of its own when the
    referee is root, a user namespace otherwise): while one bot holds every task it
    may run, a second bot still starts and gets as many as the first."""

    limits = BotLimits(max_processes=16)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first, second = while_ready(
            [sys.executable, "-c", FORKER],
            bwrap,
            lambda _: pool.submit(ready_name, FORKER, bwrap, limits).result()[0],
            limits,
        )
    assert 32 < int(first) < 64
    assert int(second) == int(first)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("cc") is None, reason="root and cc")
def test_a_program_in_a_private_folder_runs_with_limits_as_its_own_user(
    tmp_path: Path, bwrap: SandboxPolicy
) -> None:
    """As root, a compiled bot in a folder only root may enter (pytest's 0700 tmp) is
    still started by setpriv while it drops to the bot's uid, with kernel limits
    set too."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    program = private / "random_bot"
    source = REPO / "bots" / "examples" / "random_bot.c"
    subprocess.run(["cc", "-O2", "-o", str(program), str(source)], check=True)
    outcome = asyncio.run(
        run_match(
            GAME,
            [BotSpec(f"c{k}", [str(program)]) for k in range(3)],
            seed=1,
            clock=Clock(startup_ms=15_000, move_ms=5000),
            limits=BotLimits(memory_mb=512, open_files=64),
            sandbox=bwrap,
            fsync=False,
        )
    )
    assert outcome.verdicts == ["ok", "ok", "ok"], [s.detail for s in outcome.seats]


PINNER = """
import json, os, sys
try:
    os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    result = "changed"
except PermissionError:
    result = "refused"
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": result}), flush=True)
"""


@pytest.mark.skipif(bot_filter() is None, reason="no seccomp table for this machine")
def test_a_sandboxed_bot_cannot_undo_its_core_binding(bwrap: SandboxPolicy) -> None:
    """seccomp makes sched_setaffinity fail inside the sandbox (and only there), so a
    crowd a bot starts on its own move stays on its match's core."""

    assert ready_name(PINNER, bwrap)[0] == "refused"
    assert ready_name(PINNER, SandboxPolicy("none"))[0] == "changed"


NAMESPACER = """
import ctypes, json, os, subprocess, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
if os.fork() == 0:  # in a child: a user namespace would change the bot's own view
    os._exit(0 if libc.unshare(0x10000000) == 0 else ctypes.get_errno())
code = os.waitstatus_to_exitcode(os.wait()[1])
namespace = "made" if code == 0 else os.strerror(code)
box = []
worker = threading.Thread(target=box.append, args=["thread"])
worker.start()
worker.join()
child = subprocess.run(["echo", "child"], capture_output=True, text=True).stdout.strip()
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        name = f"{namespace},{box[0]},{child}"
        print(json.dumps({"type": "ready", "name": name}), flush=True)
"""


@pytest.mark.skipif(bot_filter() is None, reason="no seccomp table for this machine")
def test_a_sandboxed_bot_cannot_make_a_user_namespace(bwrap: SandboxPolicy) -> None:
    """In a user namespace of its own a bot could mount a tmpfs of no size limit and
    fill the memory: the seccomp filter refuses it (and only it; threads and child
    processes still start).  As root, without the sandbox, the same call succeeds."""

    assert ready_name(NAMESPACER, bwrap)[0] == "Operation not permitted,thread,child"
    if os.geteuid() == 0:
        assert ready_name(NAMESPACER, SandboxPolicy("none"))[0] == "made,thread,child"


def test_the_options_built_once_still_hide_what_each_spawn_must_hide(tmp_path: Path) -> None:
    """The options every bot shares and a command line's visible folders are built once
    per process; the paths to hide are still looked at for every spawn (a folder made
    after the first bot started is hidden from the next one), and the options are the
    same as a fresh build's."""
    from referee.process.isolation import sandbox

    folder = tmp_path.resolve() / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("")
    argv = [sys.executable, str(folder / "bot.py")]
    secret = folder / "secret"
    policy = SandboxPolicy("bwrap", False, (str(secret),))

    def hides(options: list[str]) -> bool:
        return any(options[i : i + 2] == ["--tmpfs", str(secret)] for i in range(len(options)))

    before = sandbox.bwrap_prefix(argv, "/tmp/bot-1", policy, 64, None)
    secret.mkdir()
    after = sandbox.bwrap_prefix(argv, "/tmp/bot-1", policy, 64, None)
    assert not hides(before) and hides(after)
    after.append("--changed-by-the-caller")
    again = sandbox.bwrap_prefix(argv, "/tmp/bot-1", policy, 64, None)
    assert again == after[:-1]  # the caller's list is its own copy
    sandbox._common_options.cache_clear()
    sandbox._visible_cached.cache_clear()
    assert sandbox.bwrap_prefix(argv, "/tmp/bot-1", policy, 64, None) == again
