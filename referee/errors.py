"""The errors meant for users, and how the command line tells them from bugs.

Every error the referee raises on purpose for a person to read (an unknown game, a
bad option, a malformed config, a tampered record, a damaged run directory...)
derives from :class:`RefereeError`, besides its other bases (most are also a
``ValueError``, so existing ``except ValueError`` clauses keep working).

The command line's error net (:func:`user_errors`) prints such an error as one line,
``referee: error: ...``, and exits with a status of 2 (``referee regress``: 4). It
treats the same way an ``OSError`` about a file (one with a ``filename``: a missing
config, an unwritable ``--out``). Every other exception is a bug: it is not caught,
so Python prints its traceback and exits with status 1. With ``REFEREE_TRACEBACK=1``
in the environment, the traceback of a user error is printed too, before its line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

TRACEBACK_ENV = "REFEREE_TRACEBACK"
"""Environment variable: ``1`` prints the traceback of every error, user errors too."""


class RefereeError(Exception):
    """Base of every error meant for the user: its message is one clear line that
    names what is wrong (a file, an option, a value) and is shown without a traceback."""


class BadInput(RefereeError, ValueError):
    """A value given on the command line that cannot be used (out of range, or
    clashing with another option or with the file it refers to)."""


def is_user_error(exc: BaseException) -> bool:
    """True for an error to show as one line: a :class:`RefereeError`, or an
    ``OSError`` about a named file (its ``filename`` set) other than a broken pipe."""
    if isinstance(exc, RefereeError):
        return True
    return (
        isinstance(exc, OSError)
        and not isinstance(exc, BrokenPipeError)
        and exc.filename is not None
    )


def traceback_forced() -> bool:
    """True when ``REFEREE_TRACEBACK=1`` asks for the traceback of user errors too."""
    return os.environ.get(TRACEBACK_ENV, "") == "1"


@contextmanager
def user_errors(status: int = 2, prefix: str = "referee: error: ") -> Iterator[None]:
    """The command line's error net: a user error (:func:`is_user_error`) raised in
    the block is printed on stderr as ``prefix`` + its message (escaped for the
    terminal), preceded by its traceback under ``REFEREE_TRACEBACK=1``, and ends the
    program with exit ``status`` (``SystemExit``). Any other exception passes through
    untouched, so a bug shows its traceback."""
    try:
        yield
    except Exception as exc:
        if not is_user_error(exc):
            raise
        import traceback

        from referee.display import terminal

        if traceback_forced():
            traceback.print_exception(exc, file=sys.stderr)
        print(f"{prefix}{terminal(str(exc))}", file=sys.stderr, flush=True)
        raise SystemExit(status) from None
