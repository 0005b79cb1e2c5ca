"""Checks made on bot commands before anything is started.

A mistyped script name does not stop an interpreter from starting: ``python3
bots/nosuch.py`` runs, prints ``can't open file`` on its stderr and exits, and the
referee would only see a bot that never answered.  :func:`check_script_paths` catches
that before a match, tournament or check begins, so the user gets one error line.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

from referee.errors import BadInput
from referee.human.command import is_human
from referee.process.spec import BotCommandError

SCRIPT_SUFFIXES = frozenset(
    {".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".sh", ".jar", ".lua", ".php", ".r"}
)
"""File name endings that mark an argument as a script path."""

INTERPRETERS = frozenset(
    {"python", "python3", "node", "nodejs", "deno", "bun", "ruby", "perl", "bash", "sh"}
    | {"lua", "php", "rscript", "pypy", "pypy3"}
)
"""Programs whose first non-option argument is the script they run."""


def _is_interpreter(program: str) -> bool:
    name = os.path.basename(program).lower()
    return name in INTERPRETERS or name.startswith("python3.")


INLINE_OPTIONS = frozenset({"-c", "-e", "-m", "-p", "--eval", "--print"})
"""Interpreter options after which no script file follows (inline code or a module)."""

VALUE_OPTIONS = frozenset({"-X", "-W", "-r", "--require", "-I", "-C"})
"""Interpreter options whose value is the next argument (not a script)."""


def script_arguments(argv: Sequence[str]) -> list[str]:
    """The arguments of ``argv`` (program first) that look like paths to existing files.

    Those are: any argument ending in a script suffix (``.py``, ``.js``, ``.jar``...)
    and, when the program is an interpreter (``python3``, ``node``, ``ruby``...), its
    first argument that is not an option or an option's value (none after ``-c``,
    ``-e`` or ``-m``).  Option-looking arguments (``-x``) are never paths here.
    """
    return [argv[i] for i in script_indices(argv)]


def script_indices(argv: Sequence[str]) -> list[int]:
    """The positions in ``argv`` of :func:`script_arguments` (never 0, the program)."""
    found: list[int] = []
    first_operand = _is_interpreter(argv[0]) if argv else False
    skip_next = False
    for index, arg in enumerate(argv[1:], start=1):
        if skip_next:
            skip_next = False
            continue
        if arg.startswith("-"):
            if first_operand and arg in INLINE_OPTIONS:
                first_operand = False
                skip_next = True
            elif first_operand and arg in VALUE_OPTIONS:
                skip_next = True
            continue
        if first_operand or Path(arg).suffix.lower() in SCRIPT_SUFFIXES:
            found.append(index)
        first_operand = False
    return found


def check_script_paths(
    command: str | Sequence[str], base_dir: str | os.PathLike[str] = "."
) -> None:
    """Raise :class:`BotCommandError` if a script argument of ``command`` does not exist.

    ``command`` is a command line (split like a shell) or an argv list; relative
    paths are taken relative to ``base_dir`` (the config file's folder for
    tournaments, the working directory otherwise).  The message is one line naming
    the missing file and the command.
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BotCommandError(f"cannot parse bot command {command!r}: {exc}") from None
        shown = command
    else:
        argv = list(command)
        shown = shlex.join(argv)
    for arg in script_arguments(argv):
        path = Path(base_dir) / arg
        if not path.is_file():
            what = "is a directory" if path.is_dir() else "not found"
            raise BotCommandError(f"bot script {what}: {path} (in bot command {shown!r})")


def display_stem(command: str) -> str:
    """A short display name for a bot command: its script's name without the suffix.

    ``"python3 bots/my_bot.py --cautious"`` gives ``"my_bot"``; a command
    without a script argument gives its program's name (``"./mybot"`` gives
    ``"mybot"``); an unparsable or empty command gives ``"bot"``.
    """
    try:
        argv = shlex.split(command)
    except ValueError:
        return "bot"
    if not argv:
        return "bot"
    scripts = script_arguments(argv)
    return Path(scripts[0] if scripts else argv[0]).stem or "bot"


def check_writable_file(path: Path, option: str) -> None:
    """Raise :class:`~referee.errors.BadInput` (one line) if no file can be made at ``path``.

    Catches what would otherwise surface as a raw ``OSError`` mid-run: a parent
    that is a file, or a ``path`` that is a directory.  Missing parent folders are
    fine (they are created).
    """
    if path.is_dir():
        raise BadInput(f"{option} {path}: is a directory, not a file")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise BadInput(f"{option} {path}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise BadInput(f"{option} {path}: cannot write in {parent}")
            return


def check_writable_dir(path: Path, option: str) -> None:
    """Raise :class:`~referee.errors.BadInput` (one line) if no folder can be made at ``path``:
    ``path`` is a file, or its nearest existing parent is a file or not writable."""
    if path.exists() and not path.is_dir():
        raise BadInput(f"{option} {path}: is a file, not a folder")
    if not path.exists():
        check_writable_file(path, option)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def bot_files(argv: Sequence[str]) -> list[str]:
    """The files a resolved bot command names: its program (found on ``PATH`` when it
    has no ``/``) and every absolute argument that exists, each as given and as its
    real path (symlinks followed), deduplicated."""
    if is_human(argv):  # the human seat is not sandboxed; its --terminal is no bot file
        return []
    program = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
    found: list[str] = []
    for arg in [program or "", *argv[1:]]:
        if not os.path.isabs(arg) or not os.path.exists(arg):
            continue
        for path in (os.path.abspath(arg), os.path.realpath(arg)):
            if path not in found:
                found.append(path)
    return found


def _blocked(path: str, roots: Sequence[str], program: bool) -> tuple[str, str] | None:
    """The first place on ``path`` a user that is neither owner nor group cannot pass:
    ``(place, needed permission)``, from the root of ``roots`` that holds ``path``."""
    holders = [r for r in roots if _inside(path, r)]
    if not holders:
        return None
    root = max(holders, key=len)
    steps = [root]
    rest = os.path.relpath(path, root)
    if rest != ".":
        for part in Path(rest).parts:
            steps.append(os.path.join(steps[-1], part))
    for step in steps:
        try:
            mode = os.stat(step).st_mode
        except OSError:
            return None
        if stat.S_ISDIR(mode):
            if not mode & stat.S_IXOTH:
                return step, "o+rx"
        elif step == path:
            needed = stat.S_IROTH | (stat.S_IXOTH if program else 0)
            if mode & needed != needed:
                return step, "o+rx" if program else "o+r"
    return None


def check_sandbox_access(
    argv: Sequence[str],
    mode: str,
    hidden: Sequence[tuple[str, str | os.PathLike[str] | None]] = (),
) -> None:
    """Raise :class:`BotCommandError` (one line, naming the file and the fix) if a bot
    run with the resolved ``argv`` under sandbox ``mode`` could not reach its own files.

    Only mode ``bwrap`` is checked.  Two ways a sandboxed bot loses its files:

    * the referee runs as root, so the bot runs as a user id of its own (neither owner
      nor group of anything): a folder it must pass without ``o+x`` (``mktemp -d``
      makes 0700 folders), or a script without ``o+r``, stops it;
    * ``hidden`` gives ``(what, folder)`` pairs (``("--record", folder)``): output
      folders the sandbox covers with an empty filesystem where a bot could see them,
      so a bot file inside one is gone for the bot.
    """
    if mode != "bwrap":
        return
    from referee.process.isolation.sandbox import SYSTEM_DIRS, visible_dirs

    visible = visible_dirs(argv)
    files = bot_files(argv)
    shown = shlex.join(argv)
    for what, folder in hidden:
        if folder is None:
            continue
        where = os.path.realpath(folder)
        if not any(_inside(where, v) for v in visible):
            continue  # not covered: the sandbox shows none of it anyway
        for path in files:
            if _inside(path, where):
                raise BotCommandError(
                    f"bot file {path} is inside {where}, the folder of {what}, which the "
                    f"sandbox hides from bots (bot command {shown!r}); fix: give {what} "
                    "another folder (a subfolder works), or move the bot"
                )
    if os.geteuid() != 0:
        return  # the bot runs as the referee's own user (in a user namespace)
    roots = [*visible, *SYSTEM_DIRS]
    program = bot_files(argv[:1])
    for path in files:
        blocked = _blocked(path, roots, program=path in program)
        if blocked is None:
            continue
        place, fix = blocked
        perms = stat.S_IMODE(os.stat(place).st_mode)
        raise BotCommandError(
            f"bot file {path} cannot be read by the sandboxed bot: {place} is mode "
            f"{perms:04o}, and the referee runs as root, so the bot runs as an unprivileged "
            f"user of its own (bot command {shown!r}); fix: chmod {fix} {place}, or "
            "--sandbox none"
        )


def check_key_hidden(
    argv: Sequence[str], mode: str, key: str | os.PathLike[str] | None, option: str
) -> None:
    """Raise :class:`BotCommandError` if a bot sandboxed under ``mode`` could read the
    private key file ``key``: it lies in a folder the sandbox shows the bot (the folder
    of a file on its command line), and the bot runs as the referee's own user, or the
    file is readable by others.  Mode ``none`` isolates nothing and is not checked
    here (the caller warns)."""
    if key is None or mode != "bwrap":
        return
    from referee.process.isolation.sandbox import visible_dirs

    where = os.path.realpath(key)
    folder = next((v for v in visible_dirs(argv) if _inside(where, v)), None)
    if folder is None:
        return
    if os.geteuid() == 0 and not os.stat(where).st_mode & stat.S_IROTH:
        return  # the bot runs as a user of its own, who cannot read it
    raise BotCommandError(
        f"{option} {key} lies in {folder}, which the sandbox shows to the bot "
        f"{shlex.join(argv)!r}; keep the key in a folder of its own"
    )
