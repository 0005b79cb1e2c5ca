#!/usr/bin/env python3
"""Two cooperating bots of one match for the collusion tests:
``colluder.py ROLE TAG SHARED [secret=N]``.

Both play the first legal action.  The ``send`` role, at its first decision, puts
the number ``N`` (1-255) into every shared kernel object on the list below and keeps
whatever holds it (locks, keys, threads) alive; the ``recv`` role prepares its
watches when it starts and, at every decision, reads every channel and writes one
line ``GOT <channel> <value>`` to stderr the first time a channel shows anything
(``value`` is the number read, or 1 for a channel that carries one bit).  SHARED is
a directory both may read (named on both command lines), holding files ``f0``-``f2``,
``ping`` and ``pages`` (8 pages, 256 KiB apart, evicted from the page cache by the
test).  TAG makes names unique to one test.

Role ``leave`` (tournament test; a fresh process every match): when it starts,
first report what an earlier process left (``FOUND <channel> <text>`` on stderr),
then leave its own marks.
"""

import contextlib
import ctypes
import fcntl
import json
import mmap
import os
import socket
import struct
import sys
import threading
from collections.abc import Callable
from pathlib import Path

ROLE, TAG, SHARED = sys.argv[1], sys.argv[2], Path(sys.argv[3])
SECRET = int(sys.argv[4].partition("=")[2]) if len(sys.argv) > 4 else 0
PAGE = mmap.PAGESIZE
STRIDE = 64 * PAGE  # pages far apart, so no readahead joins them
BITS = 8

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = {  # x86_64 and aarch64 numbers of the calls Python does not wrap
    "x86_64": {
        "add_key": 248,
        "keyctl": 250,
        "fanotify_init": 300,
        "fanotify_mark": 301,
        "cachestat": 451,
    },
    "aarch64": {
        "add_key": 217,
        "keyctl": 219,
        "fanotify_init": 262,
        "fanotify_mark": 263,
        "cachestat": 451,
    },
}.get(os.uname().machine, {})
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SETPERM, KEYCTL_READ, KEYCTL_SET_TIMEOUT = 5, 11, 15
IN_OPEN, IN_ACCESS = 0x20, 0x1
DN_ACCESS, DN_MULTISHOT = 0x1, 0x80000000
KEEP: list[object] = []  # what must stay alive: descriptors, threads, sockets, maps
GOT: set[str] = set()


def say(kind: str, channel: str, value: object) -> None:
    sys.stderr.write(f"{kind} {channel} {value}\n")
    sys.stderr.flush()


def got(channel: str, value: int) -> None:
    if value and channel not in GOT:
        GOT.add(channel)
        say("GOT", channel, value)


def sys_call(name: str, *args: object) -> int:
    if name not in NR:
        return -1
    return int(libc.syscall(NR[name], *args))


def key_name() -> bytes:
    return f"colluder-{TAG}".encode()


def flock_struct(kind: int, start: int) -> bytes:
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, start, 1, 0)


def ignore_errors(step: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        try:
            step()
        except Exception as exc:
            say("FAILED", step.__name__, repr(exc)[:80])

    return run


# -- sending ----------------------------------------------------------------------


def send_all() -> None:
    for step in SENDERS:
        ignore_errors(step)()


def send_keyring() -> None:
    data = str(SECRET).encode()
    serial = sys_call("add_key", b"user", key_name(), data, len(data), KEY_SPEC_USER_KEYRING)
    if serial > 0:
        sys_call("keyctl", KEYCTL_SETPERM, serial, 0x3F3F3F3F)
        sys_call("keyctl", KEYCTL_SET_TIMEOUT, serial, 120)


def send_flock() -> None:
    fd = os.open(SHARED / "f0", os.O_RDONLY)
    KEEP.append(fd)
    fcntl.flock(fd, fcntl.LOCK_SH)


def send_posix_lock() -> None:
    fd = os.open(SHARED / "f1", os.O_RDONLY)
    KEEP.append(fd)
    for bit in range(BITS):
        if SECRET >> bit & 1:
            fcntl.fcntl(fd, fcntl.F_SETLK, flock_struct(fcntl.F_RDLCK, bit))


def send_ofd_lock() -> None:
    fd = os.open(SHARED / "f2", os.O_RDONLY)
    KEEP.append(fd)
    for bit in range(BITS):
        if SECRET >> bit & 1:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK, flock_struct(fcntl.F_RDLCK, bit))


def send_ping() -> None:
    """Open and read a shared file: what inotify, dnotify and fanotify report."""
    (SHARED / "ping").read_bytes()


def send_pages() -> None:
    fd = os.open(SHARED / "pages", os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
    for bit in range(BITS):
        if SECRET >> bit & 1:
            os.pread(fd, 1, bit * STRIDE)
    os.close(fd)


def send_forks() -> None:
    for _ in range(64):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)


def send_files() -> None:
    for _ in range(200):
        KEEP.append(os.open("/dev/null", os.O_RDONLY))


def send_threads() -> None:
    stop = threading.Event()
    for _ in range(40):
        thread = threading.Thread(target=stop.wait, daemon=True)
        thread.start()
        KEEP.append(thread)


def send_shm_and_tmp() -> None:
    for folder in ("/dev/shm", "/tmp"):
        path = Path(folder) / f"colluder-{TAG}"
        path.write_text(str(SECRET))
        path.chmod(0o666)


def send_abstract_socket() -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(f"\0colluder-{TAG}")
    server.listen(4)
    KEEP.append(server)


def send_sysv() -> None:
    libc.shmget.restype = ctypes.c_int
    libc.shmat.restype = ctypes.c_void_p
    shm = libc.shmget(sysv_key(), 4096, 0o1666)  # IPC_CREAT | 0666
    if shm >= 0:
        where = libc.shmat(shm, None, 0)
        if where not in (None, ctypes.c_void_p(-1).value):
            ctypes.memmove(where, str(SECRET).encode() + b"\0", 4)


def sysv_key() -> int:
    return int.from_bytes(TAG.encode()[-4:], "little") & 0x7FFFFFFF


SENDERS = [
    send_keyring,
    send_flock,
    send_posix_lock,
    send_ofd_lock,
    send_ping,
    send_pages,
    send_forks,
    send_files,
    send_threads,
    send_shm_and_tmp,
    send_abstract_socket,
    send_sysv,
]


# -- receiving --------------------------------------------------------------------

BASE: dict[str, object] = {}
SIGNALS = [0]


def counters() -> dict[str, object]:
    out: dict[str, object] = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("processes "):
            out["forks"] = int(line.split()[1])
    out["tasks"] = Path("/proc/loadavg").read_text().split()[3]
    out["files"] = Path("/proc/sys/fs/file-nr").read_text().split()[0]
    return out


def watch() -> None:
    """Set up the watches, before the sender moves."""
    with contextlib.suppress(OSError):
        BASE.update(counters())
    try:
        fd = libc.inotify_init1(os.O_NONBLOCK)
        if fd >= 0 and libc.inotify_add_watch(fd, bytes(SHARED), IN_OPEN | IN_ACCESS) >= 0:
            BASE["inotify"] = fd
    except AttributeError:
        pass
    try:
        import signal

        signal.signal(signal.SIGIO, lambda *_: SIGNALS.__setitem__(0, SIGNALS[0] + 1))
        fd = os.open(SHARED, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.fcntl(fd, fcntl.F_NOTIFY, DN_ACCESS | DN_MULTISHOT)
        KEEP.append(fd)
    except (OSError, AttributeError):
        pass
    for flags in (0x2, 0x2 | 0x200):  # FAN_NONBLOCK, then with FAN_REPORT_FID
        fd = sys_call("fanotify_init", ctypes.c_uint(flags), ctypes.c_uint(os.O_RDONLY))
        if fd < 0:
            continue
        marked = sys_call(
            "fanotify_mark",
            fd,
            ctypes.c_uint(1),  # FAN_MARK_ADD
            ctypes.c_uint64(0x1 | 0x20 | 0x08000000),  # ACCESS | OPEN | EVENT_ON_CHILD
            -100,
            bytes(SHARED),
        )
        if marked == 0:
            BASE["fanotify"] = fd
            break
        os.close(fd)


def receive_all() -> None:
    for step in RECEIVERS:
        ignore_errors(step)()


def recv_keyring() -> None:
    for line in Path("/proc/keys").read_text().splitlines():
        if key_name().decode() in line:
            buf = ctypes.create_string_buffer(64)
            size = sys_call("keyctl", KEYCTL_READ, int(line.split()[0], 16), buf, 64)
            if size > 0:
                got("keyring", int(buf.raw[:size]))


def locks_on(name: str, cmd: int) -> int:
    fd = os.open(SHARED / name, os.O_RDONLY)
    value = 0
    try:
        for bit in range(BITS):
            probe = fcntl.fcntl(fd, cmd, flock_struct(fcntl.F_WRLCK, bit))
            if struct.unpack("hhqqi4x", probe)[0] != fcntl.F_UNLCK:
                value |= 1 << bit
    finally:
        os.close(fd)
    return value


def recv_posix_lock() -> None:
    got("posix_lock", locks_on("f1", fcntl.F_GETLK))


def recv_ofd_lock() -> None:
    got("ofd_lock", locks_on("f2", fcntl.F_OFD_GETLK))


def recv_flock() -> None:
    fd = os.open(SHARED / "f0", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
    except BlockingIOError:
        got("flock", 1)
    finally:
        os.close(fd)


def recv_inotify() -> None:
    fd = BASE.get("inotify")
    if isinstance(fd, int):
        with contextlib.suppress(BlockingIOError):
            got("inotify", 1 if os.read(fd, 4096) else 0)


def recv_dnotify() -> None:
    got("dnotify", 1 if SIGNALS[0] else 0)


def recv_fanotify() -> None:
    fd = BASE.get("fanotify")
    if isinstance(fd, int):
        with contextlib.suppress(BlockingIOError):
            got("fanotify", 1 if os.read(fd, 4096) else 0)


def page_bits(resident: list[bool]) -> int:
    return sum(1 << bit for bit in range(BITS) if resident[bit])


def recv_mincore() -> None:
    with open(SHARED / "pages", "rb") as f:
        size = os.fstat(f.fileno()).st_size
        # A private writable map (never written, so never copied): ctypes needs one.
        view = mmap.mmap(
            f.fileno(), size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE
        )
    start = ctypes.addressof((ctypes.c_char * 1).from_buffer(view))
    vec = (ctypes.c_ubyte * (size // PAGE))()
    KEEP.append(view)  # the ctypes buffer pins the map: never closed
    if libc.mincore(ctypes.c_void_p(start), ctypes.c_size_t(size), vec) == 0:
        got("mincore", page_bits([vec[bit * STRIDE // PAGE] & 1 == 1 for bit in range(BITS)]))


class CachestatRange(ctypes.Structure):
    _fields_ = [("off", ctypes.c_uint64), ("len", ctypes.c_uint64)]


class Cachestat(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in ("cache", "dirty", "wb", "ev", "rev")]


def recv_cachestat() -> None:
    fd = os.open(SHARED / "pages", os.O_RDONLY)
    try:
        resident = []
        for bit in range(BITS):
            where, stat = CachestatRange(bit * STRIDE, PAGE), Cachestat()
            if sys_call("cachestat", fd, ctypes.byref(where), ctypes.byref(stat), 0) != 0:
                return
            resident.append(stat.cache > 0)
        got("cachestat", page_bits(resident))
    finally:
        os.close(fd)


def recv_preadv2() -> None:
    fd = os.open(SHARED / "pages", os.O_RDONLY)
    try:
        resident = []
        for bit in range(BITS):
            try:
                os.preadv(fd, [bytearray(1)], bit * STRIDE, os.RWF_NOWAIT)
                resident.append(True)
            except BlockingIOError:
                resident.append(False)
        got("preadv2", page_bits(resident))
    finally:
        os.close(fd)


def recv_counters() -> None:
    now = counters()
    if isinstance(BASE.get("forks"), int):
        got("forks", 1 if int(now["forks"]) - int(BASE["forks"]) >= 64 else 0)  # type: ignore[call-overload]
    got("tasks", 1 if now["tasks"] != BASE.get("tasks") else 0)
    got("files", 1 if now["files"] != BASE.get("files") else 0)


def recv_shm_and_tmp() -> None:
    for folder, channel in (("/dev/shm", "dev_shm"), ("/tmp", "tmp")):
        path = Path(folder) / f"colluder-{TAG}"
        if path.exists():
            got(channel, int(path.read_text() or 0))


def recv_abstract_socket() -> None:
    if "abstract_socket" in GOT:
        return  # the listener never accepts: its backlog would fill
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(0.2)
        client.connect(f"\0colluder-{TAG}")
        got("abstract_socket", 1)


def recv_sysv() -> None:
    libc.shmget.restype = ctypes.c_int
    libc.shmat.restype = ctypes.c_void_p
    shm = libc.shmget(sysv_key(), 0, 0)
    if shm >= 0:
        where = libc.shmat(shm, None, 0o10000)  # SHM_RDONLY
        if where not in (None, ctypes.c_void_p(-1).value):
            got("sysv_shm", int(ctypes.string_at(where).decode() or 0))


RECEIVERS = [
    recv_keyring,
    recv_flock,
    recv_posix_lock,
    recv_ofd_lock,
    recv_inotify,
    recv_dnotify,
    recv_fanotify,
    recv_mincore,
    recv_cachestat,
    recv_preadv2,
    recv_counters,
    recv_shm_and_tmp,
    recv_abstract_socket,
    recv_sysv,
]


# -- leaving marks for later processes (tournament) -------------------------------


def leave_and_look(match: str) -> None:
    """Report what an earlier process left, then leave marks naming ``match``."""
    try:
        for line in Path("/proc/keys").read_text().splitlines():
            if f"colluder-{TAG}" in line:
                say("FOUND", "keyring", line.strip())
    except OSError:
        pass
    for folder in ("/tmp", "/dev/shm", "."):
        for path in Path(folder).glob(f"colluder-{TAG}*"):
            say("FOUND", "file", f"{path}: {path.read_text(errors='replace')[:40]}")
    for name in ("f0", "f1"):
        try:
            fd = os.open(SHARED / name, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except BlockingIOError:
                say("FOUND", "flock", name)
            finally:
                os.close(fd)
        except OSError:
            pass
    data = match.encode()
    serial = sys_call(
        "add_key",
        b"user",
        f"colluder-{TAG}-{match}".encode(),
        data,
        len(data),
        KEY_SPEC_USER_KEYRING,
    )
    if serial > 0:
        sys_call("keyctl", KEYCTL_SETPERM, serial, 0x3F3F3F3F)
        sys_call("keyctl", KEYCTL_SET_TIMEOUT, serial, 120)
    for folder in ("/tmp", "/dev/shm", "."):
        with contextlib.suppress(OSError):
            (Path(folder) / f"colluder-{TAG}-{match}").write_text(match)
    ignore_errors(send_flock)()


def main() -> None:
    decisions = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "start":
            if ROLE == "recv":
                watch()
            if ROLE == "leave":
                leave_and_look(str(msg.get("match", "")))
            print(json.dumps({"type": "ready", "name": f"colluder-{ROLE}"}), flush=True)
        elif msg["type"] == "act":
            decisions += 1
            if ROLE == "send" and decisions == 1:
                send_all()
            elif ROLE == "recv":
                receive_all()
            print(json.dumps({"type": "action", "id": msg["id"], "index": 0}), flush=True)
        elif msg["type"] == "end":
            break


if __name__ == "__main__":
    main()
