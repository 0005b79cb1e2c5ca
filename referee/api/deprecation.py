"""Old names kept for one release: a module ``__getattr__`` that answers each old name
with its new object and a :class:`DeprecationWarning` naming the new one."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any


def renamed(module: str, aliases: Mapping[str, tuple[str, Any]]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``module`` (its ``__name__``) for ``aliases``: old name
    -> ``(new name, object)``.  Any other missing name raises :class:`AttributeError`,
    as a module without ``__getattr__`` would."""

    def __getattr__(name: str) -> Any:
        if name not in aliases:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new, value = aliases[name]
        warnings.warn(f"{module}.{name} is deprecated: use {new}", DeprecationWarning, stacklevel=2)
        return value

    return __getattr__
