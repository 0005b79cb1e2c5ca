"""Compile the rules engines' hot modules and the match loop with mypyc (``make setup``
runs this).

Each package of :data:`TARGETS` gets its listed modules compiled into one extension
group, installed in the package's ``_native`` folder with the manifest that
:mod:`referee.api.native` checks before it loads any of them.  A package whose build
is fresh is skipped, so running this again costs a few stat calls.

Without a C compiler, or without mypyc (the ``dev`` extra), one line says so and the
engines run from their Python sources.  A compile that fails (a mypyc release that
cannot compile a source, a compiler error) prints the end of its output and leaves
that game in Python.  The exit status is 0 in every case: the compiled build is an
accelerator, never a requirement of the set-up (in CI, ``tests/core/test_native.py``
fails for a package without its build).

Run: ``python scripts/build_native.py [--force] [--package referee/games/manila]``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.metadata
import os
import shutil
import sys
import tempfile
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.api import native  # noqa: E402  (the checkout's, not an installed copy)

TARGETS: dict[str, list[str]] = {
    "referee/games/manila": ["data.py", "phases.py", "viewbuild.py", "state.py"],
    "referee/games/navegador": [
        "data.py",
        "phases.py",
        "player.py",
        "sailing.py",
        "viewbuild.py",
        "state.py",
    ],
    "referee/games/puerto_rico": [
        "phases.py",
        "board.py",
        "plantations.py",
        "scoring.py",
        "choices.py",
        "viewbuild.py",
        "state.py",
    ],
    "referee/games/roads_and_boats": [
        "data.py",
        "phases.py",
        "viewmemo.py",
        "base.py",
        "flow.py",
        "chance.py",
        "production.py",
        "consent.py",
        "movement.py",
        "building.py",
        "wonder.py",
        "state.py",
    ],
    # The match loop: a decision's bookkeeping, from a reply to the next act.
    "referee/match": ["match.py"],
}
"""Package folder (from the repository root) -> the modules compiled, in one group.
Modules that define msgspec structs (actions, options, views) stay in Python: a
compiled module keeps its classes' annotations only as bare classes (``dict`` for
``dict[str, int]``), and msgspec reads a struct's fields and tags from them."""


def build(package: str, modules: list[str], work: Path) -> Path:
    """Compile ``modules`` of ``package`` in ``work``; returns the folder holding the
    new ``_native`` build, manifest included.  Raises :class:`SystemExit` (mypyc's
    errors, printed) or another exception (the C compiler's) if the compile fails."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    package_dir = ROOT / package
    name = package.replace("/", ".")
    sources = {m: native.describe(package_dir / m) for m in modules}
    extensions = mypycify(
        # a cache of its own: builds run side by side, and `make lint` keeps its cache
        [f"--cache-dir={work / 'mypy-cache'}", *(str(package_dir / m) for m in modules)],
        opt_level="3",
        group_name=f"{name}.engine",
        target_dir=str(work / "c"),
    )
    dist = Distribution({"name": "referee-native", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "tmp")
    command.inplace = False
    dist.run_command("build_ext")
    if {m: native.describe(package_dir / m) for m in modules} != sources:
        raise RuntimeError(f"{package}: a source changed while it was compiled; run again")
    out = work / native.NATIVE_DIR
    out.mkdir()
    suffix = EXTENSION_SUFFIXES[0]
    files = []
    for built in sorted((work / "lib" / package).glob(f"*{suffix}")):
        shutil.copy2(built, out / built.name)
        files.append(built.name)
    manifest = native.Manifest(
        cache_tag=sys.implementation.cache_tag,
        suffix=suffix,
        compiler=f"mypyc {importlib.metadata.version('mypy')}",
        sources=sources,
        files=files,
    )
    (out / native.MANIFEST).write_bytes(native.msgspec.json.encode(manifest))
    return out


def fresh(package_dir: Path, modules: list[str]) -> bool:
    """True when the package's build is usable and was made from exactly ``modules``."""
    if native.problem(package_dir) is not None:
        return False
    manifest = (package_dir / native.NATIVE_DIR / native.MANIFEST).read_bytes()
    built = native.msgspec.json.decode(manifest, type=native.Manifest)
    return set(built.sources) == set(modules)


def install(new: Path, package_dir: Path) -> None:
    """Replace the package's ``_native`` folder with a copy of ``new``, by renames in
    the package's folder: a process importing the package meanwhile finds the old
    build, no build, or the whole new one, never a file half-written."""
    target = package_dir / native.NATIVE_DIR
    staging = package_dir / f"{native.NATIVE_DIR}.new-{os.getpid()}"
    retired = package_dir / f"{native.NATIVE_DIR}.old-{os.getpid()}"
    shutil.copytree(new, staging)
    if target.exists():
        target.rename(retired)
    staging.rename(target)
    shutil.rmtree(retired, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="compile even a fresh build")
    parser.add_argument("--package", action="append", help="a package folder of TARGETS")
    args = parser.parse_args()
    packages = args.package or list(TARGETS)
    if native.pure_forced():
        print(f"compiled engines: not built ({native.PURE_ENV} is set)")
        return 0
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        print("compiled engines: not built (no C compiler: cc); the engines run in Python")
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("compiled engines: not built (no mypyc: pip install -e '.[dev]')")
        return 0
    stale = [p for p in packages if args.force or not fresh(ROOT / p, TARGETS[p])]
    if not stale:
        return 0
    # one process per package (the compile is one C file per package, so gcc runs
    # one job each), as many at once as there are cores, the largest first
    stale.sort(key=lambda p: -len(TARGETS[p]))
    workers = min(len(stale), os.cpu_count() or 1)
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        jobs = [pool.submit(compile_package, package) for package in stale]
        for package, job in zip(stale, jobs, strict=True):
            try:
                _, seconds = job.result()
            except (Exception, SystemExit) as exc:
                print(f"compiled engines: {package} NOT built, it runs in Python: {exc!r}")
                continue
            print(f"compiled engines: {package} built in {seconds:.0f} s", flush=True)
    return 0


def compile_package(package: str) -> tuple[str, float]:
    """Build and install ``package``'s compiled modules; returns it and the seconds it
    took.  Raises what :func:`build` raises."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="native-") as tmp:
        install(build(package, TARGETS[package], Path(tmp)), ROOT / package)
    return package, time.monotonic() - start


if __name__ == "__main__":
    sys.exit(main())
