"""``python -m referee.human``: the built-in human seat (see :mod:`referee.human.seat`)."""

from referee.human.seat import main

main()
