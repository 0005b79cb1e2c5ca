"""What the commands share besides options and tables: the error net, the exit
statuses of an interrupted or cut-off command, ``KEY=VALUE`` parsing, the signer of
``--sign-key`` and the words for a sandbox mode."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click

from referee.errors import user_errors
from referee.process.preflight import check_key_hidden

P = ParamSpec("P")
R = TypeVar("R")

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status of every command stopped by Ctrl-C (SIGINT), as shells report a
process the signal ended."""

EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""Exit status when the reader of our output went away (``referee ... | head``)."""


def clean_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Run a command inside the error net (:func:`referee.errors.user_errors`): a user
    error (a :class:`referee.errors.RefereeError`, or an ``OSError`` about a named file)
    becomes ``referee: error: ...`` and exit status 2; any other exception is a bug and
    keeps its traceback (exit status 1); ``REFEREE_TRACEBACK=1`` shows the traceback of
    user errors too.  A broken pipe on our own output is left to
    :class:`referee.cli.main.RefereeGroup`."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with user_errors(status=2):
            return func(*args, **kwargs)

    return wrapper


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """``--option`` values, ``KEY=VALUE`` strings, to a dict (keys and values
    stripped); raises ``click.BadParameter`` for a string without ``=`` or a key."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        out[key.strip()] = value.strip()
    return out


def load_signer(key: Path | None, argvs: Sequence[Sequence[str]], mode: str) -> Any:
    """The :class:`referee.match.signing.Signer` of ``--sign-key`` (``None`` without one),
    after checking that no bot could read the key (under ``--sandbox none`` a warning).

    Raises :class:`referee.errors.RefereeError` for an unreadable key or one a bot
    could read."""
    if key is None:
        return None
    from referee.match.signing import Signer

    signer = Signer(key)
    for argv in argvs:
        check_key_hidden(argv, mode, key, "--sign-key")
    if mode == "none":
        click.echo(
            "referee: warning: --sandbox none: the bots could read the --sign-key file",
            err=True,
        )
    return signer


def sandbox_note(mode: str) -> str:
    """How a run's bots were isolated, in words (``mode`` from its manifest)."""
    if mode == "bwrap":
        return "sandbox bwrap (each bot isolated)"
    if mode == "none":
        return "sandbox none: bots were NOT isolated from each other or the run"
    return "sandbox unknown (run made before sandboxes)"
