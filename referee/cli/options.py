"""Every option that more than one command takes, declared once as a decorator.

Where commands word an option's help differently (``--sandbox`` in ``regress``...),
the decorator is a function taking that ``help``; name, type and default stay here.
The clock's defaults come from :mod:`referee.match.settings`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from referee.cli.output import FORMATS
from referee.match.settings import DEFAULT_BANK_MS, DEFAULT_MOVE_MS, DEFAULT_STARTUP_MS
from referee.process.isolation.sandbox import MODES

F = TypeVar("F", bound=Callable[..., Any])

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="plain",
    show_default=True,
    help="Table format: plain/grid/github/markdown for people, json/csv for machines.",
)
"""``--format`` (``fmt``): one of :data:`referee.cli.output.FORMATS`, default plain."""


def clock_options(func: F) -> F:
    """``--move-ms``, ``--bank-ms`` and ``--startup-ms`` (ms; defaults from
    :mod:`referee.match.settings`), in that order."""
    for decorate in reversed(
        [
            click.option(
                "--move-ms",
                type=click.IntRange(min=1),
                default=DEFAULT_MOVE_MS,
                show_default=True,
            ),
            click.option(
                "--bank-ms",
                type=click.IntRange(min=0),
                default=DEFAULT_BANK_MS,
                show_default=True,
            ),
            click.option(
                "--startup-ms",
                type=click.IntRange(min=1),
                default=DEFAULT_STARTUP_MS,
                show_default=True,
            ),
        ]
    ):
        func = decorate(func)
    return func


ponder_option = click.option(
    "--ponder",
    is_flag=True,
    help="Let bots compute while other seats are on move (default: a waiting bot is "
    "stopped once the seat on move has thought 10 ms).",
)
"""``--ponder``: a flag."""

game_option_option = click.option(
    "--option", "opts", multiple=True, metavar="KEY=VALUE", help="Game option."
)
"""``--option KEY=VALUE`` (``opts``, repeatable; see
:func:`referee.cli.common.parse_options`)."""

seats_option = click.option(
    "--seats", type=int, default=None, help="Seat count (default: the game's minimum)."
)
"""``--seats``: an int, or ``None`` for the game's minimum."""

network_option = click.option("--network", is_flag=True, help="Let sandboxed bots use the network.")
"""``--network``: a flag."""

SANDBOX_HELP = "Isolate each bot: bubblewrap where it works (auto), bwrap (or fail), or none."


def sandbox_option(help: str = SANDBOX_HELP) -> Callable[[F], F]:
    """``--sandbox``: one of :data:`referee.process.isolation.sandbox.MODES`, default
    auto."""
    return click.option(
        "--sandbox", type=click.Choice(MODES), default="auto", show_default=True, help=help
    )


SIGN_KEY_HELP = (
    "Sign records with this Ed25519 private key (PEM; see `referee keygen`): "
    "each gets a FILE.sig beside it."
)


def sign_key_option(help: str = SIGN_KEY_HELP) -> Callable[[F], F]:
    """``--sign-key``: the path of an Ed25519 private key (PEM), or ``None``."""
    return click.option("--sign-key", type=click.Path(dir_okay=False, path_type=Path), help=help)


def max_plies_option(help: str) -> Callable[[F], F]:
    """``--max-plies``: an int >= 0, default 0 (no limit)."""
    return click.option(
        "--max-plies", type=click.IntRange(min=0), default=0, show_default=True, help=help
    )


def logs_option(help: str) -> Callable[[F], F]:
    """``--logs``: a directory for the bots' stderr logs, or ``None``."""
    return click.option("--logs", type=click.Path(file_okay=False, path_type=Path), help=help)


def concurrency_option(help: str | None = None) -> Callable[[F], F]:
    """``--concurrency``: an int >= 1, default 1."""
    return click.option(
        "--concurrency", type=click.IntRange(min=1), default=1, show_default=True, help=help
    )


def no_reuse_option(help: str) -> Callable[[F], F]:
    """``--no-reuse``: a flag."""
    return click.option("--no-reuse", is_flag=True, help=help)


def affinity_option(help: str) -> Callable[[F], F]:
    """``--affinity/--no-affinity``: ``True``, ``False`` or ``None`` (automatic)."""
    return click.option("--affinity/--no-affinity", default=None, help=help)


def quiet_option(help: str) -> Callable[[F], F]:
    """``--quiet``: a flag."""
    return click.option("--quiet", is_flag=True, help=help)


def html_out_option(help: str) -> Callable[[F], F]:
    """``-o/--out``: the HTML file to write, or ``None`` for the command's default."""
    return click.option(
        "-o",
        "--out",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=help,
    )
