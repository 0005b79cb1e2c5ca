"""Deprecated alias of :mod:`referee.games.manila.view`, where :func:`build_view` now
lives; this module goes in the next release."""

import warnings

from referee.games.manila.view import build_view

warnings.warn(
    "referee.games.manila.information is deprecated: import build_view from "
    "referee.games.manila.view",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["build_view"]
