"""Old and new side by side: the baseline revision as shipped, in its own venv.

:func:`prepare` extracts a revision (``git archive``) into
``.bench/base-<commit>/`` (ignored by git) and runs that revision's own ``make
setup`` there, so the baseline runs with its own ``pyproject.toml``, its own
dependencies and its own compiled bytecode, exactly as it was shipped; the folder is
kept and reused by later runs.  :func:`current` is this checkout with its ``.venv``.

Measurements run in a fresh interpreter of each side (:func:`run_probe`, the script
``benchmarks/probe.py``, which uses only the API both sides share) and alternate
between sides, old, new, old, new... (:func:`alternate`), so both see the same drift
of a shared machine.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".bench"
PROBE = Path(__file__).resolve().parent / "probe.py"
T = TypeVar("T")


class BaselineError(RuntimeError):
    """The baseline could not be built (unknown revision, no git, setup failed)."""


@dataclass(frozen=True)
class Side:
    """One version under test: a label, its source tree and its venv's interpreter."""

    label: str
    tree: Path
    python: Path


def current() -> Side:
    """This checkout, run with the interpreter running this process (its ``.venv``)."""
    return Side("new", ROOT, Path(sys.executable))


def _git(*args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise BaselineError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def prepare(revision: str, log: Callable[[str], None] = print) -> Side:
    """The baseline ``revision`` built in its own venv under ``.bench/`` (built on first
    use, about a minute; reused afterwards).

    Raises :class:`BaselineError` when git cannot resolve the revision or its
    ``make setup`` fails (the half-built folder is removed).
    """
    commit = _git("rev-parse", "--verify", f"{revision}^{{commit}}")
    tree = CACHE / f"base-{commit[:12]}"
    python = tree / ".venv" / "bin" / "python"
    stamp = tree / ".venv" / ".setup-stamp"
    if not stamp.exists():
        log(f"(building baseline {commit[:12]} in {tree}: git archive and its own make setup)")
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=False
        )
        if archive.returncode != 0:
            raise BaselineError(f"git archive {commit[:12]} failed")
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        done = subprocess.run(
            ["make", "-C", str(tree), "setup", "PYTHON=python3"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if done.returncode != 0 or not stamp.exists():
            shutil.rmtree(tree, ignore_errors=True)
            raise BaselineError(f"make setup of {commit[:12]} failed:\n{done.stderr[-2000:]}")
    else:
        # Its bots run with PYTHONDONTWRITEBYTECODE; keep their bytecode as setup left it.
        subprocess.run(
            ["make", "-C", str(tree), "-s", "setup", "PYTHON=python3"],
            capture_output=True,
            check=False,
        )
    return Side(f"old {commit[:7]}", tree, python)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_probe(side: Side, kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run ``probe.py KIND ARGS`` with ``side``'s interpreter in ``side``'s tree; returns
    the probe's JSON result plus ``children_cpu`` (CPU seconds of the probe and all it
    reaped: referee, sandbox, bots).

    Raises :class:`RuntimeError` if the probe fails or imported another ``referee``.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONPATH"] = str(side.tree)
    before = _children_cpu()
    done = subprocess.run(
        [str(side.python), str(PROBE), kind, json.dumps(args)],
        cwd=side.tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    spent = _children_cpu() - before
    if done.returncode != 0:
        raise RuntimeError(f"probe {kind} of {side.label} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result.pop("package")).resolve() != (side.tree / "referee").resolve():
        raise RuntimeError(f"probe of {side.label} imported a referee outside {side.tree}")
    result["children_cpu"] = spent
    return result


def alternate(sides: list[Side], repeats: int, measure: Callable[[Side], T]) -> dict[str, list[T]]:
    """``measure`` each side ``repeats`` times, alternating (ABAB...), the order of each
    pair flipped every other round; results by side label, in run order."""
    got: dict[str, list[T]] = {side.label: [] for side in sides}
    for round_ in range(repeats):
        order = sides if round_ % 2 == 0 else sides[::-1]
        for side in order:
            got[side.label].append(measure(side))
    return got
