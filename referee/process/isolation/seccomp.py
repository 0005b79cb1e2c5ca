"""The seccomp filter every sandboxed bot runs under: a table of rules, one per
system call family, compiled into a classic BPF program for bubblewrap's
``--seccomp``.

Each rule says what a family of system calls does instead of running: fail with
an errno, or "succeed" without running (``SECCOMP_RET_ERRNO`` with errno 0 makes
the kernel return 0 and skip the call).  A rule may apply only when the low 32 bits
of one argument equal one of some values or share a bit with a mask.  Every other
system call runs.  What each rule closes is in docs/security.md; in short:

* no undoing of the core binding (``sched_setaffinity``) and no user namespace
  (``unshare``/``clone`` with ``CLONE_NEWUSER``; ``clone3`` whose flags a filter
  cannot read): see :func:`bot_filter`;
* the kernel keyring (``add_key``, ``request_key``, ``keyctl``): keys are shared by
  every process of a user and outlive their maker, so two seats, or a later rotation
  of the same duplicate block, could read what a bot left there;
* file locks (``flock``, ``fcntl`` ``F_SETLK``/``F_SETLKW``/``F_OFD_SETLK*``)
  succeed without taking a lock: a lock on any file two bots can read (their
  script, a file of the Python installation) is visible to both and would carry one
  bit per locked byte.  So no sandboxed bot ever holds a lock, and ``F_GETLK`` shows
  none; a bot's own processes cannot exclude each other with locks (SQLite used by
  one process works, since it also tracks its own locks in memory);
* leases and directory notification (``fcntl`` ``F_SETLEASE``, ``F_NOTIFY``),
  inotify and fanotify: they tell one bot when another opens or reads a shared file;
* page-cache residency: ``mincore``, ``cachestat``, ``preadv2``/``pwritev2`` with
  ``RWF_NOWAIT`` would say which pages of a shared file are cached, and
  ``posix_fadvise`` (made a no-op) could evict them: a bit per page;
* ``io_uring`` and Linux AIO (``io_setup``), which can do all of the above out of
  the filter's sight;
* ``ptrace`` (a tracer could swallow the SIGSTOP that stops a waiting seat),
  ``perf_event_open`` and ``bpf``.
"""

from __future__ import annotations

import functools
import os
import struct
from dataclasses import dataclass
from typing import Final

ALLOW: Final = 0x7FFF0000
"""``SECCOMP_RET_ALLOW``."""
ERRNO: Final = 0x00050000
"""``SECCOMP_RET_ERRNO``: or-ed with the errno to return (0: return 0, not run)."""

EPERM, ENOSYS, EOPNOTSUPP = 1, 38, 95
CLONE_NEWUSER: Final = 0x10000000
RWF_NOWAIT: Final = 0x8
F_SETLK, F_SETLKW, F_SETLK64, F_SETLKW64 = 6, 7, 13, 14
F_OFD_SETLK, F_OFD_SETLKW = 37, 38
F_SETLEASE, F_NOTIFY = 1024, 1026


@dataclass(frozen=True)
class Rule:
    """What the filter does with the system calls ``names``: return ``action`` (a
    ``SECCOMP_RET_*`` value) instead of running them, either always, or only when the
    low 32 bits of argument ``arg`` (0-5) are one of ``values`` or share a bit with
    ``mask``."""

    names: tuple[str, ...]
    action: int
    arg: int | None = None
    values: tuple[int, ...] = ()
    mask: int = 0


RULES: Final[tuple[Rule, ...]] = (
    Rule(("sched_setaffinity",), ERRNO | EPERM),
    Rule(("clone3",), ERRNO | ENOSYS),
    Rule(("unshare", "clone"), ERRNO | EPERM, arg=0, mask=CLONE_NEWUSER),
    Rule(("add_key", "request_key", "keyctl"), ERRNO | ENOSYS),
    Rule(("flock",), ERRNO),
    Rule(
        ("fcntl", "fcntl64"),
        ERRNO,
        arg=1,
        values=(F_SETLK, F_SETLKW, F_SETLK64, F_SETLKW64, F_OFD_SETLK, F_OFD_SETLKW),
    ),
    Rule(("fcntl", "fcntl64"), ERRNO | EPERM, arg=1, values=(F_SETLEASE, F_NOTIFY)),
    Rule(
        ("inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark"),
        ERRNO | ENOSYS,
    ),
    Rule(("mincore", "cachestat"), ERRNO | ENOSYS),
    Rule(("preadv2", "pwritev2"), ERRNO | EOPNOTSUPP, arg=5, mask=RWF_NOWAIT),
    Rule(("fadvise64", "fadvise64_64", "arm_fadvise64_64"), ERRNO),
    Rule(("io_uring_setup", "io_uring_enter", "io_uring_register", "io_setup"), ERRNO | ENOSYS),
    Rule(("ptrace",), ERRNO | EPERM),
    Rule(("perf_event_open", "bpf"), ERRNO | ENOSYS),
)
"""The bots' rules, first match wins (the two ``fcntl`` rules look at different
commands)."""

# Numbers shared by every ABI (system calls added since Linux 5.1).
_COMMON: Final = {
    "clone3": 435,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "cachestat": 451,
}
_X86_64: Final = {
    **_COMMON,
    "sched_setaffinity": 203,
    "unshare": 272,
    "clone": 56,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "flock": 73,
    "fcntl": 72,
    "inotify_init": 253,
    "inotify_add_watch": 254,
    "inotify_init1": 294,
    "fanotify_init": 300,
    "fanotify_mark": 301,
    "mincore": 27,
    "preadv2": 327,
    "pwritev2": 328,
    "fadvise64": 221,
    "io_setup": 206,
    "ptrace": 101,
    "perf_event_open": 298,
    "bpf": 321,
}
_I386: Final = {
    **_COMMON,
    "sched_setaffinity": 241,
    "unshare": 310,
    "clone": 120,
    "add_key": 286,
    "request_key": 287,
    "keyctl": 288,
    "flock": 143,
    "fcntl": 55,
    "fcntl64": 221,
    "inotify_init": 291,
    "inotify_add_watch": 292,
    "inotify_init1": 332,
    "fanotify_init": 338,
    "fanotify_mark": 339,
    "mincore": 218,
    "preadv2": 378,
    "pwritev2": 379,
    "fadvise64": 250,
    "fadvise64_64": 272,
    "io_setup": 245,
    "ptrace": 26,
    "perf_event_open": 336,
    "bpf": 357,
}
_AARCH64: Final = {  # the generic table (include/uapi/asm-generic/unistd.h)
    **_COMMON,
    "sched_setaffinity": 122,
    "unshare": 97,
    "clone": 220,
    "add_key": 217,
    "request_key": 218,
    "keyctl": 219,
    "flock": 32,
    "fcntl": 25,
    "inotify_init1": 26,
    "inotify_add_watch": 27,
    "fanotify_init": 262,
    "fanotify_mark": 263,
    "mincore": 232,
    "preadv2": 286,
    "pwritev2": 287,
    "fadvise64": 223,
    "io_setup": 0,
    "ptrace": 117,
    "perf_event_open": 241,
    "bpf": 280,
}
_ARM: Final = {  # 32-bit ARM, EABI
    **_COMMON,
    "sched_setaffinity": 241,
    "unshare": 337,
    "clone": 120,
    "add_key": 309,
    "request_key": 310,
    "keyctl": 311,
    "flock": 143,
    "fcntl": 55,
    "fcntl64": 221,
    "inotify_init": 316,
    "inotify_add_watch": 317,
    "inotify_init1": 360,
    "fanotify_init": 367,
    "fanotify_mark": 368,
    "mincore": 219,
    "preadv2": 392,
    "pwritev2": 393,
    "arm_fadvise64_64": 270,
    "io_setup": 243,
    "ptrace": 26,
    "perf_event_open": 364,
    "bpf": 386,
}


@dataclass(frozen=True)
class Abi:
    """One system call ABI a machine runs: its ``AUDIT_ARCH_*`` value, its system call
    numbers by name, and the lowest number refused outright (the x32 ABI of x86_64,
    whose numbers have bit 30 set), if any."""

    arch: int
    numbers: dict[str, int]
    refuse_from: int | None = None


ABIS: Final[dict[str, tuple[Abi, ...]]] = {
    "x86_64": (Abi(0xC000003E, _X86_64, refuse_from=0x40000000), Abi(0x40000003, _I386)),
    "aarch64": (Abi(0xC00000B7, _AARCH64), Abi(0x40000028, _ARM)),
}
"""The ABIs of each machine (``uname -m``) the filter knows; on any other machine
bots run without it."""

# Classic BPF opcodes: load word (absolute), jump if equal / if any bit set /
# if greater or equal (unsigned), return.
_LD, _JEQ, _JSET, _JGE, _RET = 0x20, 0x15, 0x45, 0x35, 0x06
_ARCH_AT, _NR_AT = 4, 0  # offsets in struct seccomp_data


def _arg_low(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` (little-endian machines)."""
    return 16 + 8 * index


Jump = str | int
Instruction = tuple[int, Jump, Jump, int]


def compile_rules(abis: tuple[Abi, ...], rules: tuple[Rule, ...]) -> bytes:
    """The BPF program (``struct sock_filter`` array) that applies ``rules`` to every
    ABI of ``abis``; any other architecture's calls are allowed (the kernel runs no
    other ABI on these machines).  Raises ValueError if a jump would not fit in the
    8 bits classic BPF gives it."""
    program: list[str | Instruction] = []
    for n, abi in enumerate(abis):
        program += [(_LD, 0, 0, _ARCH_AT), (_JEQ, 0, f"abi{n + 1}", abi.arch), (_LD, 0, 0, _NR_AT)]
        if abi.refuse_from is not None:
            program.append((_JGE, "enosys", 0, abi.refuse_from))
        for r, rule in enumerate(rules):
            for name in rule.names:
                if name in abi.numbers:
                    program.append((_JEQ, f"rule{r}", 0, abi.numbers[name]))
        program += [(_RET, 0, 0, ALLOW), f"abi{n + 1}"]
    program.append((_RET, 0, 0, ALLOW))
    for r, rule in enumerate(rules):
        program.append(f"rule{r}")
        if rule.arg is None:
            program.append((_RET, 0, 0, rule.action))
            continue
        # A later rule for the same calls (the other fcntl commands) is tried next.
        later = [
            f"rule{q}" for q in range(r + 1, len(rules)) if set(rules[q].names) & set(rule.names)
        ]
        program.append((_LD, 0, 0, _arg_low(rule.arg)))
        program += [(_JEQ, f"act{r}", 0, value) for value in rule.values]
        if rule.mask:
            program.append((_JSET, f"act{r}", 0, rule.mask))
        if later:  # both ways lead there: an unconditional jump
            program.append((_JEQ, later[0], later[0], 0))
        else:
            program.append((_RET, 0, 0, ALLOW))
        program += [f"act{r}", (_RET, 0, 0, rule.action)]
    program += ["enosys", (_RET, 0, 0, ERRNO | ENOSYS)]
    return _assemble(program)


def _assemble(program: list[str | Instruction]) -> bytes:
    where: dict[str, int] = {}
    code: list[Instruction] = []
    for item in program:
        if isinstance(item, str):
            where[item] = len(code)
        else:
            code.append(item)

    def offset(target: Jump, at: int) -> int:
        if isinstance(target, int):
            return target
        jump = where[target] - at - 1
        if not 0 <= jump <= 255:
            raise ValueError(f"seccomp jump to {target} does not fit: {jump}")
        return jump

    return b"".join(
        struct.pack("=HBBI", op, offset(jt, i), offset(jf, i), k)
        for i, (op, jt, jf, k) in enumerate(code)
    )


@functools.cache
def bot_filter() -> bytes | None:
    """The seccomp program (classic BPF, a ``struct sock_filter`` array) every
    sandboxed bot runs under, for bubblewrap's ``--seccomp``: :data:`RULES` for every
    ABI of this machine; ``None`` on a machine without an :data:`ABIS` entry.

    * ``sched_setaffinity`` fails with EPERM: a bot cannot undo the core binding of
      :mod:`referee.process.isolation.affinity`, so a crowd of busy processes started on its own
      move
      stays on its match's core, where the other seats are stopped anyway.
    * ``unshare`` and ``clone`` with ``CLONE_NEWUSER`` fail with EPERM, and
      ``clone3`` (whose flags a filter cannot read) with ENOSYS, so that C
      libraries and runtimes fall back to ``clone``: in a user namespace of its own a
      bot would be root over new mounts, and could fill the memory through a tmpfs
      of no size limit, whose pages the out-of-memory killer charges to no process,
      so that it would kill an innocent bot instead.
    * The shared kernel objects through which two bots could talk, or a bot could
      leave a message for a later process, are closed (the module docstring).
    """
    abis = ABIS.get(os.uname().machine)
    return None if abis is None else compile_rules(abis, RULES)


__all__ = ["ABIS", "RULES", "Abi", "Rule", "bot_filter", "compile_rules"]
