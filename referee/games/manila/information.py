"""Deprecated alias of :mod:`referee.games.manila.viewbuild`, where :func:`build_view` now
lives; this module goes in the next release."""

import warnings

from referee.games.manila.viewbuild import build_view

warnings.warn(
    "referee.games.manila.information is deprecated: import build_view from "
    "referee.games.manila.viewbuild",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["build_view"]
