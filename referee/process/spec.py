"""What a bot is before it runs: its command (:class:`BotSpec`, :func:`resolve_command`),
its limits (:class:`BotLimits`) and its environment (:func:`scrubbed_environment`).

Pure data and checks: nothing here starts a process (:mod:`referee.process.bot` does).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import RefereeError
from referee.human.command import BANK_MS, MOVE_MS, WORD, human_argv, is_human
from referee.process.isolation import reaper
from referee.process.isolation.sandbox import MIB, OOM_SCORE_ADJ

TASKS_PER_PROCESS = 4
"""A sandboxed bot may run ``TASKS_PER_PROCESS * max_processes`` tasks (processes
and threads, ``RLIMIT_NPROC``): the kernel stops a fork bomb there, before it can
take the machine's process ids from the other matches.  Counted per bot: each runs
in a user namespace of its own, or, where the referee is root, as a uid of its own
(:mod:`referee.process.isolation.uids`)."""

PYTHON_ALIASES = frozenset({"python", "python3", f"python3.{sys.version_info.minor}"})


class BotCommandError(RefereeError, ValueError):
    """A bot command that cannot be run (empty, or the program does not exist)."""


@dataclass
class BotLimits:
    """Per-bot caps.

    ``max_line_bytes``/``max_stderr_bytes``: stdout line length and stderr log size
    (bytes); ``exit_grace_s``/``term_grace_s``: seconds allowed to exit after stdin is
    closed and after SIGTERM; ``cpu_s``, ``memory_mb`` (address space) and
    ``open_files``: optional kernel resource limits (``setrlimit``) applied to the
    bot process and inherited by its children (``None`` = no limit);
    ``max_processes``: most processes a bot may run at once, checked whenever its
    processes are stopped (:meth:`BotProcess.freeze`): more is a ``crash`` fault
    (and under the sandbox the kernel refuses tasks beyond
    :data:`TASKS_PER_PROCESS` times it);
    ``disk_mb``: size of the sandboxed bot's working directory, ``/tmp`` and
    ``/dev/shm`` (each a tmpfs, see :func:`referee.process.isolation.sandbox.bwrap_prefix`);
    ``max_memory_mb``: most memory all the bot's processes may use together, its
    in-memory files included (a memory cgroup, :mod:`referee.process.isolation.cgroups`, where the
    referee can make one; 0 = no cap): beyond it the kernel kills one of them.
    """

    max_line_bytes: int = MIB
    max_stderr_bytes: int = MIB
    exit_grace_s: float = 1.0
    term_grace_s: float = 0.5
    cpu_s: int | None = None
    memory_mb: int | None = None
    open_files: int | None = None
    max_processes: int = 256
    disk_mb: int = 128
    max_memory_mb: int = 2048

    def rlimits(self) -> list[tuple[str, int, int]]:
        """The limits in force: ``(prlimit option, resource constant, value)``."""
        pairs = [
            ("cpu", resource.RLIMIT_CPU, self.cpu_s),
            ("as", resource.RLIMIT_AS, None if self.memory_mb is None else self.memory_mb * MIB),
            ("nofile", resource.RLIMIT_NOFILE, self.open_files),
        ]
        return [(name, which, value) for name, which, value in pairs if value is not None]

    def preexec(self) -> Callable[[], None]:
        """The fallback run in the child before exec where util-linux is missing:
        parent-death signal and limits."""
        chosen = [(which, value) for _, which, value in self.rlimits()]

        def apply() -> None:
            # Die with the referee, even if it is SIGKILLed (Linux).
            reaper.die_with_parent()
            with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as f:
                f.write(str(OOM_SCORE_ADJ))
            for which, value in chosen:
                resource.setrlimit(which, (value, value))

        return apply


@dataclass
class BotSpec:
    """A bot to run: display name, argv (already resolved), and an optional wrapper;
    ``move_ms``/``bank_ms``: this seat's own clock (ms; ``None``: the match's), which a
    human seat gets by default (:mod:`referee.human.command`).

    ``wrapper`` is an argv prefix such as ``["firejail", "--quiet"]`` of a sandbox of
    the user's own; ``command`` is the text shown in records (defaults to the joined
    argv).
    """

    name: str
    argv: list[str]
    command: str = ""
    wrapper: list[str] = field(default_factory=list)
    move_ms: int | None = None
    bank_ms: int | None = None

    def __post_init__(self) -> None:
        if not self.command:
            self.command = shlex.join(self.argv)
        if is_human(self.argv):  # a person's clock unless the entrant set one
            self.move_ms = MOVE_MS if self.move_ms is None else self.move_ms
            self.bank_ms = BANK_MS if self.bank_ms is None else self.bank_ms


def resolve_command(command: str, base_dir: str | os.PathLike[str] = ".") -> list[str]:
    """Split ``command`` like a shell (without running one) and make it runnable anywhere.

    ``python``/``python3`` as the program mean the referee's own interpreter (so bots
    can import the ``referee`` package); arguments that name existing files relative
    to ``base_dir`` become absolute (symlinks kept as they are), since a bot runs in
    its own working directory: the program, every argument with a ``/``, and every
    script argument of :func:`referee.process.preflight.script_arguments` (``my_bot.py``).
    Raises :class:`BotCommandError` if the command is empty or the program is not found.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BotCommandError(f"cannot parse bot command {command!r}: {exc}") from None
    if not argv:
        raise BotCommandError("empty bot command")
    if argv[0] == WORD:  # the built-in human seat (referee/human/command.py)
        return human_argv(argv[1:])
    base = Path(base_dir)
    # The arguments preflight checks as scripts (``python3 my_bot.py``, ``node bot.js``)
    # are resolved too, slash or not: the bot runs in a working directory of its own.
    from referee.process.preflight import script_indices  # preflight imports this module

    scripts = set(script_indices(argv))
    if argv[0] in PYTHON_ALIASES:
        argv[0] = sys.executable
    resolved = []
    for i, arg in enumerate(argv):
        candidate = base / arg
        named = "/" in arg or i == 0 or i in scripts
        if not os.path.isabs(arg) and named and candidate.exists():
            # Absolute, but not through symlinks: a virtual environment's
            # ``bin/python`` is a symlink whose own path is what selects the
            # environment (its ``pyvenv.cfg``), so resolving it would start the bare
            # interpreter without the environment's packages.
            arg = os.path.abspath(candidate)
        resolved.append(arg)
    program = resolved[0]
    if os.path.sep in program:
        if not os.access(program, os.X_OK) or os.path.isdir(program):
            raise BotCommandError(f"bot program not found or not executable: {program}")
    elif shutil.which(program) is None:
        raise BotCommandError(f"bot program not found on PATH: {program}")
    return resolved


def scrubbed_environment(home: str, token: str) -> dict[str, str]:
    """The environment a bot gets: PATH, a locale, its own HOME/TMPDIR, its marker."""
    return {
        reaper.MARKER_VAR: token,
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
