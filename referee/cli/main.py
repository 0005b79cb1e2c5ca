"""The ``referee`` command line: the group, its error net and its commands (one module
each in :mod:`referee.cli`, their shared options in :mod:`referee.cli.options`).

Every command turns user errors (unknown game, bad seat count, missing bot program,
malformed config, unreadable or inconsistent record: a :class:`referee.errors.RefereeError`
or an ``OSError`` about a named file) into one clear error line on stderr and exit
status 2, never a traceback, while a bug keeps its traceback (exit status 1;
``REFEREE_TRACEBACK=1`` shows the traceback of user errors too; see
:func:`referee.cli.common.clean_errors`); exits with 130 on Ctrl-C and quietly with 141
when its output pipe is closed (:class:`RefereeGroup`); and escapes everything it
prints for its output (:mod:`referee.display`).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from typing import Any

import click

from referee import __version__
from referee.cli.check_bot import check_bot_command
from referee.cli.common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from referee.cli.games import games
from referee.cli.keygen import keygen
from referee.cli.play import play
from referee.cli.regress import regress
from referee.cli.replay import replay
from referee.cli.report import report
from referee.cli.results import results
from referee.cli.schema import schema
from referee.cli.tournament import tournament
from referee.cli.view import view
from referee.cli.watch import watch
from referee.process import loop as event_loop

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "RefereeGroup", "main"]


def _output_gone() -> bool:
    """True if our stdout or stderr is a pipe whose reader has gone (poll: POLLERR)."""
    poller = select.poll()
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            poller.register(stream.fileno(), select.POLLOUT)  # type: ignore[union-attr]
        except (AttributeError, OSError, ValueError):
            continue
    return any(events & select.POLLERR for _, events in poller.poll(0))


class RefereeGroup(click.Group):
    """The ``referee`` group: every command exits with :data:`EXIT_INTERRUPTED` on
    Ctrl-C (after its own clean-up ran), and quietly with :data:`EXIT_BROKEN_PIPE`
    when the reader of its output went away, as Unix tools do."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            with contextlib.suppress(BrokenPipeError):
                click.echo("\nreferee: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            if not _output_gone():
                raise
            # Nothing more reaches the reader; the interpreter's last flush must not fail.
            devnull = os.open(os.devnull, os.O_WRONLY)
            for stream in (sys.__stdout__, sys.__stderr__):
                with contextlib.suppress(AttributeError, OSError, ValueError):
                    os.dup2(devnull, stream.fileno())  # type: ignore[union-attr]
            os.close(devnull)
            sys.exit(EXIT_BROKEN_PIPE)


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="referee")
def main() -> None:
    """Referee and tournament runner for board-game bots (protocol v1, JSON Lines).

    Matches run on uvloop where it is installed; set ``REFEREE_LOOP=asyncio`` to use
    asyncio's own event loop instead.
    """
    try:
        event_loop.loop_factory()
    except event_loop.LoopError as exc:
        raise click.UsageError(str(exc)) from None


main.add_command(games)
main.add_command(schema)
main.add_command(play)
main.add_command(replay)
main.add_command(tournament)
main.add_command(results)
main.add_command(check_bot_command)
main.add_command(keygen)
main.add_command(regress)
main.add_command(view)
main.add_command(watch)
main.add_command(report)


if __name__ == "__main__":
    main()
