"""Deprecated path of :mod:`referee.api.engine`, kept for one release.

Bots and tools written against ``referee.engine`` keep working; importing it warns
(:class:`DeprecationWarning`).  Import :mod:`referee.api.engine` instead.
"""

import warnings

from referee.api.engine import *  # noqa: F403

warnings.warn(
    "referee.engine is now referee.api.engine; the old path goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
