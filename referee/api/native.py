"""Compiled builds of the rules engines, used only while they match their sources.

A game package may ship its hot modules (the state, the view) compiled with mypyc
as well as in Python.  ``make setup`` builds them (``scripts/build_native.py``) into
the package's ``_native`` folder, with a manifest naming every compiled source file
and what it held when it was compiled.  The package's ``__init__`` calls
:func:`accelerate` before importing anything else of its own; when the build is
fresh, the folder goes first on the package's ``__path__``, so importing the
package's ``state`` module loads the compiled one; otherwise the package runs
from its Python sources, exactly as without a build.

A build is fresh when it was made for this interpreter (``sys.implementation
.cache_tag`` and the extension suffix) and every source it lists is unchanged.  A
source whose size and modification time (ns) are those recorded is unchanged; one
whose differ is hashed (SHA-256) and compared with the recorded digest, so touching
a file without changing it costs a hash at each import but keeps the build, and any
edit to a compiled source sends the whole package back to Python until the next
``make setup``.  Never are compiled and stale modules mixed: the check covers every
file of the build before any is loaded.

Setting the environment variable ``REFEREE_PURE`` (to anything but ``""`` or
``"0"``) runs every package from its Python sources; set to a comma-separated list of
packages (``referee.match``), only those.  :func:`status` says, per
package, which one runs and why.

Both builds play the same games: ``tests/core/test_native.py`` compares them move by
move.  The compiled one plays them 1.8-2.4 times as fast (``docs/native.md``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from referee.api.lean_msgspec import msgspec

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr, trait
else:

    def trait(cls: Any) -> Any:
        """mypyc's mark of a class mixed into a compiled class with others (read by
        mypyc when it compiles the module; the class itself where it runs in Python)."""
        return cls

    def mypyc_attr(*_flags: str, **_settings: Any) -> Any:
        """mypyc's class settings (``native_class=False``: compiled methods, a plain
        Python class); read by mypyc, a no-op where the module runs in Python."""
        return lambda cls: cls


NATIVE_DIR = "_native"
"""The folder of a package's compiled build, inside the package."""

MANIFEST = "manifest.json"
"""The build's manifest, in :data:`NATIVE_DIR`; written last, so a build without one
is unfinished and never used."""

T = TypeVar("T")

PURE_ENV = "REFEREE_PURE"
"""The environment variable that turns every compiled build off."""


class Source(msgspec.Struct, frozen=True):
    """One compiled source file as it was compiled: ``size`` (bytes), ``mtime_ns``
    (its modification time, ns since the epoch) and ``sha256`` (hex digest)."""

    size: int
    mtime_ns: int
    sha256: str


class Manifest(msgspec.Struct, frozen=True):
    """What a build holds and what it was made from.

    ``cache_tag`` and ``suffix``: the interpreter's ``sys.implementation.cache_tag`` and
    extension-module suffix the build is for; ``compiler``: what compiled it (e.g.
    ``"mypyc 1.11.2"``); ``sources``: source file name (in the package) -> :class:`Source`;
    ``files``: the compiled files in :data:`NATIVE_DIR`."""

    cache_tag: str
    suffix: str
    compiler: str
    sources: dict[str, Source]
    files: list[str]


_STATUS: dict[str, str] = {}


def pure_forced(package: str | None = None) -> bool:
    """True when :data:`PURE_ENV` asks for the Python sources of every package (any
    value but ``""``, ``"0"`` or a list of packages), or names ``package`` (a package's
    ``__name__``) in a comma-separated list of packages, e.g.
    ``REFEREE_PURE=referee.match``: only the match loop in Python."""
    value = os.environ.get(PURE_ENV, "")
    if value in ("", "0"):
        return False
    names = {name.strip() for name in value.split(",")}
    if all(name.startswith("referee.") for name in names):
        return package in names
    return True


def environment(python: bool) -> dict[str, str]:
    """This process's environment for a child process that runs the engines from their
    Python sources (``python``, :data:`PURE_ENV` set) or from any fresh build (unset)."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if python:
        env[PURE_ENV] = "1"
    return env


def reduce(obj: Any, args: tuple[Any, ...], names: Iterable[str], **fields: Any) -> tuple[Any, ...]:
    """What ``obj.__reduce__`` returns for ``pickle`` and ``copy`` (a compiled class has
    no default for either): :func:`restore` with ``obj``'s class, its constructor's
    ``args`` and the attributes ``names`` by name, ``fields`` taking the place of any of
    them.  The class's constructor must take ``*args, _blank=True`` and set nothing."""
    return restore, (type(obj), args, {name: getattr(obj, name) for name in names} | fields)


def restore(cls: type[T], args: tuple[Any, ...], fields: dict[str, Any]) -> T:
    """The object :func:`reduce` took apart: ``cls(*args, _blank=True)`` with every
    attribute of ``fields`` set."""
    obj = cls(*args, _blank=True)  # type: ignore[call-arg]
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def describe(path: Path) -> Source:
    """The :class:`Source` record of the file at ``path`` as it is now.  Raises
    :class:`OSError` if it cannot be read."""
    import hashlib  # only for a build or a touched file: OpenSSL costs a bot ~4 ms at start

    stat = path.stat()
    return Source(stat.st_size, stat.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())


def problem(package_dir: Path, package: str | None = None) -> str | None:
    """Why the build in ``package_dir``'s :data:`NATIVE_DIR` must not be used (one
    line), or ``None`` when it is fresh; ``package``, the package's name, is what a
    list of packages in :data:`PURE_ENV` is matched against.  Raises nothing."""
    if pure_forced(package):
        return f"{PURE_ENV} is set"
    native = package_dir / NATIVE_DIR
    try:
        manifest = msgspec.json.decode((native / MANIFEST).read_bytes(), type=Manifest)
    except FileNotFoundError:
        return "no compiled build (make setup builds one where a C compiler is found)"
    except (OSError, msgspec.DecodeError) as exc:
        return f"unreadable manifest: {exc}"
    if (
        manifest.cache_tag != sys.implementation.cache_tag
        or manifest.suffix != EXTENSION_SUFFIXES[0]
    ):
        return f"built for another interpreter ({manifest.cache_tag}, {manifest.suffix})"
    for name in manifest.files:
        if not (native / name).is_file():
            return f"compiled file {name} is missing"
    for name, built in manifest.sources.items():
        path = package_dir / name
        try:
            stat = path.stat()
            if (stat.st_size, stat.st_mtime_ns) == (built.size, built.mtime_ns):
                continue
            if stat.st_size == built.size and describe(path).sha256 == built.sha256:
                continue
        except OSError:
            return f"{name} cannot be read"
        return f"{name} changed since it was compiled (make setup compiles it again)"
    return None


def accelerate(package: str, path: list[str]) -> bool:
    """Put the compiled build of ``package`` (a package's ``__name__``; ``path`` its
    ``__path__``, changed in place) first on its path when it is fresh (see the module
    docstring).  Returns True when the compiled build is used.  Raises nothing."""
    package_dir = Path(path[0])
    reason = problem(package_dir, package)
    if reason is None:
        path.insert(0, str(package_dir / NATIVE_DIR))
    _STATUS[package] = "compiled" if reason is None else f"Python ({reason})"
    return reason is None


def status() -> dict[str, str]:
    """How each package that called :func:`accelerate` runs: ``"compiled"`` or
    ``"Python (<why>)"``, by package name."""
    return dict(_STATUS)
