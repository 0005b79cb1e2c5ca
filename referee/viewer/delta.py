"""Delta encoding of JSON frames: a frame is stored as the operations that turn the
previous frame (or a base frame) into it.

An operation is ``[path, value]`` (set the value at ``path``, a list of object keys and
list indices), ``[path]`` (delete that object key) or ``[path + ["#len"], n]``
(truncate the list at ``path`` to ``n`` items).
Lists of equal length are diffed item by item; a longer list is truncated first and
grown by setting the new indices in order.  :func:`apply` in Python and ``applyOps`` in
the viewer's script give the same result.
"""

from __future__ import annotations

import copy
from typing import Any

LENGTH = "#len"
"""Pseudo key of a list truncation."""

Op = list[Any]


def diff(old: Any, new: Any, path: list[Any] | None = None) -> list[Op]:
    """The operations that turn JSON value ``old`` into ``new`` (``[]`` if equal).

    Both must be JSON builtins (dict with str keys, list, str, int, float, bool, None).
    """
    ops: list[Op] = []
    _diff(old, new, [] if path is None else path, ops)
    return ops


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    if type(old) is not type(new):
        ops.append([path, new])
    elif isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([[*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops)
            else:
                ops.append([[*path, key], value])
    elif isinstance(new, list):
        if not new or (len(old) != len(new) and len(new) <= 2):
            if old != new:
                ops.append([path, new])
            return
        for i in range(min(len(old), len(new))):
            _diff(old[i], new[i], [*path, i], ops)
        if len(new) < len(old):
            ops.append([[*path, LENGTH], len(new)])
        for i in range(len(old), len(new)):
            ops.append([[*path, i], new[i]])
    elif old != new:
        ops.append([path, new])


def apply(value: Any, ops: list[Op]) -> Any:
    """A copy of ``value`` with ``ops`` applied (the inverse of :func:`diff`)."""
    out = copy.deepcopy(value)
    for op in ops:
        path = op[0]
        if len(op) == 1:
            target = out
            for key in path[:-1]:
                target = target[key]
            del target[path[-1]]
            continue
        new = op[1]
        if not path:
            out = copy.deepcopy(new)
            continue
        target = out
        for key in path[:-1]:
            target = target[key]
        last = path[-1]
        if last == LENGTH and isinstance(target, list):
            del target[new:]
        elif isinstance(target, list) and last == len(target):
            target.append(copy.deepcopy(new))
        else:
            target[last] = copy.deepcopy(new)
    return out
