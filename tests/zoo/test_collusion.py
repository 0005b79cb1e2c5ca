"""Seats cannot collude: two cooperating bots of one match try every channel between
them that the kernel shares (keyring, file locks, file notification, page cache,
host-wide counters, and the channels the namespaces already close), and nothing
gets across under the sandbox; without it the same bots succeed on every channel,
so the test can fail.  A tournament shows that nothing one process leaves behind
(a key, a file, a lock) can be read by a later one, such as a later rotation of the
same duplicate block.  See docs/security.md.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import secrets
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.match.match import Clock, run_match
from referee.process.isolation.sandbox import SandboxPolicy, bot_filter, bwrap_problem
from referee.process.spec import BotLimits, BotSpec
from tests.core.toygame import GAME
from tests.zoo.procs import ready_name, require

COLLUDER = Path(__file__).with_name("colluder.py")
REPO = Path(__file__).parent.parent.parent
SECRET = 0b10110101

CLOSED = {  # channel: what the receiver reads without a sandbox
    "keyring": SECRET,
    "flock": 1,
    "posix_lock": SECRET,
    "ofd_lock": SECRET,
    "inotify": 1,
    "dnotify": 1,
    "fanotify": 1,
    "mincore": SECRET,
    "cachestat": SECRET,
    "preadv2": SECRET,
    "forks": 1,
}
"""Channels the sandbox closes since issue 32."""
HELD = {"dev_shm": SECRET, "tmp": SECRET, "abstract_socket": 1, "sysv_shm": SECRET}
"""Channels the sandbox's namespaces closed before."""


@pytest.fixture
def bwrap() -> SandboxPolicy:
    require(bwrap_problem(), "sandbox")
    return SandboxPolicy("bwrap")


def kernel() -> tuple[int, int]:
    """The running kernel's version (major, minor)."""
    major, minor = os.uname().release.split(".")[:2]
    return int(major), int("".join(c for c in minor if c.isdigit()) or 0)


def shared_folder(tmp_path: Path) -> Path:
    """A folder both bots may read: three lock files, a file to open, and 8 pages far
    apart on the disk, evicted from the page cache."""
    shared = tmp_path / "shared"
    shared.mkdir()
    for name in ("f0", "f1", "f2", "ping"):
        (shared / name).write_bytes(b"x" * 64)
    pages = shared / "pages"
    pages.write_bytes(os.urandom(8 * 64 * os.sysconf("SC_PAGE_SIZE")))
    with open(pages, "rb") as f:
        os.fsync(f.fileno())
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    for path in (tmp_path, shared, *shared.iterdir()):  # bots may run as other users
        path.chmod(0o755 if path.is_dir() else 0o644)
    return shared


def clean(tag: str) -> None:
    """Remove what colluders without a sandbox left on the host: files in /tmp and
    /dev/shm, and the System V segment (keys expire by themselves)."""
    for folder in ("/tmp", "/dev/shm"):
        for path in Path(folder).glob(f"colluder-{tag}*"):
            path.unlink(missing_ok=True)
    libc = ctypes.CDLL(None, use_errno=True)
    shm = libc.shmget(int.from_bytes(tag.encode()[-4:], "little") & 0x7FFFFFFF, 0, 0)
    if shm >= 0:
        libc.shmctl(shm, 0, None)  # IPC_RMID


def collude(policy: SandboxPolicy, tmp_path: Path) -> dict[str, int]:
    """Play sender (seat 0) against receiver (seat 1); what the receiver got."""
    tag = f"tag{secrets.token_hex(6)}"
    try:
        return _collude(policy, tmp_path, tag)
    finally:
        clean(tag)


def _collude(policy: SandboxPolicy, tmp_path: Path, tag: str) -> dict[str, int]:
    shared = shared_folder(tmp_path)
    send = [sys.executable, str(COLLUDER), "send", tag, str(shared), f"secret={SECRET}"]
    recv = [sys.executable, str(COLLUDER), "recv", tag, str(shared)]
    outcome = asyncio.run(
        run_match(
            GAME,
            [BotSpec("send", send), BotSpec("recv", recv)],
            seed=3,
            clock=Clock(startup_ms=20_000, move_ms=10_000),
            options=GAME.parse_options({"target": 12}),
            log_dir=tmp_path / "logs",
            limits=BotLimits(exit_grace_s=0.3, term_grace_s=0.3),
            fsync=False,
            sandbox=policy,
        )
    )
    assert outcome.verdicts == ["ok", "ok"], [s.detail for s in outcome.seats]
    log = (tmp_path / "logs" / "seat1.stderr.log").read_text(errors="replace")
    found = {}
    for line in log.splitlines():
        if line.startswith("GOT "):
            _, channel, value = line.split()
            found[channel] = int(value)
    return found


@pytest.mark.skipif(bot_filter() is None, reason="no seccomp table for this machine")
def test_nothing_gets_across_between_two_seats_in_the_sandbox(
    tmp_path: Path, bwrap: SandboxPolicy
) -> None:
    assert collude(bwrap, tmp_path) == {}


def test_without_a_sandbox_the_same_seats_collude(tmp_path: Path) -> None:
    found = collude(SandboxPolicy("none"), tmp_path)
    expected = {**CLOSED, **HELD}
    if kernel() < (6, 5):
        expected.pop("cachestat")  # a kernel older than 6.5 has no cachestat
    if os.geteuid() != 0:
        expected.pop("fanotify")  # unprivileged fanotify watches no directory's children
    # A preadv2(RWF_NOWAIT) probe of a page that is not resident starts reading it
    # in, and on a fast device the read can finish within the probe: that bit then
    # reads as set.  The probe never misses a page the sender made resident, so the
    # channel shows every bit of the secret, and at most a few more (never all eight).
    probed = found.get("preadv2", 0)
    if probed & SECRET == SECRET and probed != 0xFF:
        found = {**found, "preadv2": SECRET}
    missing = {k: v for k, v in expected.items() if found.get(k) != v}
    assert not missing, f"expected {missing}, got {found}"


PROBE = """
import ctypes, fcntl, json, os, sqlite3, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(number, *args):
    ok = libc.syscall(number, *args)
    return "ok" if ok >= 0 else os.strerror(ctypes.get_errno())
report = {}
nr = {"x86_64": dict(keyctl=250, ptrace=101, io_uring_setup=425, perf_event_open=298,
                     bpf=321, inotify_init1=294, mincore=27, getpid_x32=0x40000000 | 39),
      "aarch64": dict(keyctl=219, ptrace=117, io_uring_setup=425, perf_event_open=241,
                      bpf=280, inotify_init1=26, mincore=232)}[os.uname().machine]
report["keyctl"] = call(nr["keyctl"], 0, -4, 0)  # KEYCTL_GET_KEYRING_ID
report["ptrace"] = call(nr["ptrace"], 16, 1 << 22, 0, 0)  # PTRACE_ATTACH to no process
report["io_uring_setup"] = call(nr["io_uring_setup"], 1, ctypes.create_string_buffer(120))
report["perf_event_open"] = call(nr["perf_event_open"], 0, 0, -1, -1, 0)
report["bpf"] = call(nr["bpf"], 0, 0, 0)
report["inotify_init1"] = call(nr["inotify_init1"], 0)
report["mincore"] = call(nr["mincore"], 0, 4096, ctypes.create_string_buffer(1))
if "getpid_x32" in nr:
    report["x32"] = call(nr["getpid_x32"])
# A lock "taken" by this process does not keep out a child: locks are no-ops.
with open("lockfile", "w") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    pid = os.fork()
    if pid == 0:
        try:
            fcntl.flock(os.open("lockfile", os.O_RDONLY), fcntl.LOCK_EX | fcntl.LOCK_NB)
            os._exit(0)
        except BlockingIOError:
            os._exit(1)
    report["flock_excludes"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 1
# SQLite in the bot's own directory works, in WAL mode too.
db = sqlite3.connect("own.sqlite")
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE t (x)")
db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)])
db.commit()
other = sqlite3.connect("own.sqlite")
report["sqlite"] = other.execute("SELECT count(*) FROM t").fetchone()[0]
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "ready", "name": json.dumps(report)}), flush=True)
"""


@pytest.mark.skipif(bot_filter() is None, reason="no seccomp table for this machine")
def test_the_filter_refuses_the_shared_objects_and_sqlite_still_works(
    bwrap: SandboxPolicy,
) -> None:
    """Each closed call fails with the errno the rule gives, a lock keeps out nothing,
    and a bot's own SQLite database still works (two connections, WAL mode).  Without
    the sandbox the same probe sees real locks."""
    report = json.loads(ready_name(PROBE, bwrap)[0])
    nosys, perm = os.strerror(38), os.strerror(1)
    expected = {
        "keyctl": nosys,
        "ptrace": perm,
        "io_uring_setup": nosys,
        "perf_event_open": nosys,
        "bpf": nosys,
        "inotify_init1": nosys,
        "mincore": nosys,
        "flock_excludes": False,
        "sqlite": 100,
    }
    if "x32" in report:
        expected["x32"] = nosys
    assert report == expected
    free = json.loads(ready_name(PROBE, SandboxPolicy("none"))[0])
    assert free["flock_excludes"] is True and free["sqlite"] == 100
    assert free["ptrace"] == os.strerror(3) and free["inotify_init1"] == "ok"  # ESRCH


def test_the_host_counters_a_sandboxed_bot_reads_stand_still(bwrap: SandboxPolicy) -> None:
    """/proc/stat, /proc/loadavg, /proc/vmstat and the open-file count seen from the sandbox are
    constant copies: a burst of forks outside moves none of them."""
    script = """
import json, os, sys
from pathlib import Path
files = ("/proc/stat", "/proc/loadavg", "/proc/sys/fs/file-nr", "/proc/vmstat")
before = [Path(f).read_text() for f in files]
for _ in range(50):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
after = [Path(f).read_text() for f in files]
cpus = sum(1 for line in before[0].splitlines() if line[:3] == "cpu" and line[3:4].isdigit())
for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        name = json.dumps([before == after, cpus, os.cpu_count()])
        print(json.dumps({"type": "ready", "name": name}), flush=True)
"""
    same, cpus, count = json.loads(ready_name(script, bwrap)[0])
    assert same is True
    assert cpus == count == os.cpu_count()
    moved, _, _ = json.loads(ready_name(script, SandboxPolicy("none"))[0])
    assert moved is False


def leaver_tournament(tmp_path: Path, sandbox: str) -> list[str]:
    """A Manila round robin with three leavers (one bot, three seats: every
    rotation of the block is a new process); the FOUND lines of all logs."""
    tag = f"tag{secrets.token_hex(6)}"
    shared = shared_folder(tmp_path)
    out = tmp_path / "run"
    config = tmp_path / "leave.toml"
    command = f"python3 {COLLUDER} leave {tag} {shared}"
    config.write_text(
        f"""
name = "leave"
game = "manila"
seats = 3
rounds = 1
move_ms = 5000
sandbox = "{sandbox}"

[[bots]]
name = "leaver"
command = "{command}"

[[bots]]
name = "random"
command = "python3 {REPO / "bots" / "random_bot.py"}"
"""
    )
    try:
        result = CliRunner().invoke(
            main, ["tournament", str(config), "--out", str(out), "--concurrency", "1", "--quiet"]
        )
    finally:
        clean(tag)
    assert result.exit_code == 0, result.output
    db = sqlite3.connect(out / "results.sqlite")
    rows = db.execute("SELECT verdicts FROM matches").fetchall()
    db.close()
    assert rows and all(set(json.loads(v)) == {"ok"} for (v,) in rows)
    found = []
    for log in out.glob("logs/**/*.log"):
        found += [x for x in log.read_text(errors="replace").splitlines() if x.startswith("FOUND")]
    return found


@pytest.mark.skipif(bot_filter() is None, reason="no seccomp table for this machine")
def test_no_process_reads_what_an_earlier_one_left(tmp_path: Path, bwrap: SandboxPolicy) -> None:
    assert leaver_tournament(tmp_path, "bwrap") == []


def test_without_a_sandbox_later_processes_read_what_earlier_ones_left(tmp_path: Path) -> None:
    found = leaver_tournament(tmp_path, "none")
    channels = {line.split()[1] for line in found}
    assert {"keyring", "file"} <= channels, found
