"""``referee keygen KEY``: an Ed25519 key pair for ``--sign-key``."""

from __future__ import annotations

from pathlib import Path

import click

from referee.cli.common import clean_errors
from referee.errors import BadInput


@click.command()
@click.argument("key", type=click.Path(dir_okay=False, path_type=Path))
@clean_errors
def keygen(key: Path) -> None:
    """Make an Ed25519 key pair for --sign-key: KEY (private, PEM, mode 0600) and
    KEY.pub (public, PEM, for replay --verify-key).  Never overwrites KEY."""
    from referee.match.signing import generate_key

    try:
        private, public, print_ = generate_key(key)
    except FileExistsError:
        raise BadInput(f"{key} already exists (not overwritten)") from None
    click.echo(f"private key {private} (keep it secret), public key {public}")
    click.echo(f"fingerprint {print_}")
