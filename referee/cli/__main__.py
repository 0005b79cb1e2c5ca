"""``python -m referee.cli``: the ``referee`` command."""

from referee.cli.main import main

main()
