"""The example bots in other languages (``bots/examples/``) pass ``referee check-bot``
for every game; each is skipped where its toolchain (node, cc, rustc) is absent,
except in CI (``CI`` set), where a missing toolchain fails the test
(:func:`tests.zoo.procs.require`; ``.ci/run`` installs all three)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.games import all_games
from tests.zoo.procs import require

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "bots" / "examples"
GAMES = sorted(all_games())


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and name in ("rustc", "cargo"):
        candidate = Path.home() / ".cargo" / "bin" / name
        found = str(candidate) if candidate.exists() else None
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Command line per language: what each example's header says to build and run."""
    out = tmp_path_factory.mktemp("example-bots")
    out.chmod(0o755)  # a sandboxed bot may run as another user
    commands: dict[str, str] = {}
    if _tool("node"):
        commands["node"] = f"node {EXAMPLES / 'random_bot.js'}"
    if cc := _tool("cc"):
        subprocess.run(
            [cc, "-O2", "-Wall", "-o", str(out / "random_bot_c"), str(EXAMPLES / "random_bot.c")],
            check=True,
            timeout=120,
        )
        commands["c"] = str(out / "random_bot_c")
    if rustc := _tool("rustc"):
        subprocess.run(
            [rustc, "-O", "-o", str(out / "random_bot_rs"), str(EXAMPLES / "random_bot.rs")],
            check=True,
            timeout=300,
            env={**os.environ, "PATH": f"{Path(rustc).parent}:{os.environ.get('PATH', '')}"},
        )
        commands["rust"] = str(out / "random_bot_rs")
    return commands


LANGUAGES = ["node", "c", "rust"]


TOOLS = {"node": "node", "c": "cc", "rust": "rustc"}


def _command(built: dict[str, str], language: str) -> str:
    """The command of the ``language`` example; skips the test where its toolchain is
    missing, fails it in CI."""
    problem = None
    if language not in built:
        problem = f"{TOOLS[language]} (the {language} example's toolchain) is not installed"
    require(problem, f"{language} example bot")
    return built[language]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_example_bot_is_clean(built: dict[str, str], language: str, game: str) -> None:
    # A generous clock: this checks the protocol, not speed, on a possibly busy machine.
    command = _command(built, language)
    result = CliRunner().invoke(main, ["check-bot", game, command, "--move-ms", "10000"])
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[-1].startswith("clean:")


@pytest.mark.parametrize("language", LANGUAGES)
def test_example_bot_reads_legal_and_id(built: dict[str, str], language: str) -> None:
    """A hand-made session: tricky strings and nesting inside view and legal."""
    legal = [{"kind": "a", "x": [1, 2]}, {"kind": "b,]", "s": "q\\"}, 3, "[", None]
    view = {"legal": [0], "id": 99, "type": "act", "note": 'a "quoted", [nested] {text}'}
    lines = [{"type": "start", "seat": 0, "seats": 3, "game": "g", "options": {}}]
    lines += [
        {"type": "act", "id": 40 + i, "ply": i, "view": view, "legal": legal, "events": []}
        for i in range(120)
    ]
    lines += [{"type": "hello"}, {"type": "end", "result": {}}]
    text = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in lines)
    done = subprocess.run(
        _command(built, language).split(), input=text, capture_output=True, text=True, timeout=60
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["type"] == "ready"
    assert [r["id"] for r in replies[1:]] == [40 + i for i in range(120)]
    assert {r["index"] for r in replies[1:]} == set(range(len(legal)))


@pytest.mark.parametrize("name", ["random_bot.js", "random_bot.c", "random_bot.rs"])
def test_examples_are_short_and_say_how_to_run(name: str) -> None:
    text = (EXAMPLES / name).read_text()
    assert len(text.splitlines()) <= 80
    assert "check-bot manila" in "\n".join(text.splitlines()[:4])


def test_a_missing_toolchain_fails_in_ci_and_skips_with_its_reason_elsewhere(
    tmp_path: Path,
) -> None:
    """With no toolchain on the PATH (and no ``~/.cargo``), the example tests skip
    with a reason the summary shows, and under ``CI=true`` they fail instead."""
    python_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": python_dir, "HOME": str(tmp_path)}
    env.pop("PYTEST_ADDOPTS", None)
    test = f"{Path(__file__)}::test_example_bot_reads_legal_and_id"
    argv = [sys.executable, "-m", "pytest", "-q", "-rfEs", "-p", "no:cacheprovider", test]
    env.pop("CI", None)
    local = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert local.returncode == 0, local.stdout
    skipped = [line for line in local.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 3, local.stdout
    assert all("example's toolchain) is not installed" in line for line in skipped)
    ci = subprocess.run(
        argv, env={**env, "CI": "true"}, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert ci.returncode == 1, ci.stdout
    failed = [line for line in ci.stdout.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 3 and "SKIPPED" not in ci.stdout, ci.stdout
    assert "CI must run the node example bot tests for real" in ci.stdout


def test_ci_installs_every_example_toolchain() -> None:
    """``.ci/run`` installs node, a C compiler, rustc and cargo as root, as it does
    bubblewrap, and lists every skip with its reason."""
    script = (ROOT / ".ci" / "run").read_text()
    for package in ("nodejs", "gcc", "rustc", "cargo", "bubblewrap"):
        assert f"missing+=({package})" in script
    assert "-rfEs" in script


def _header_build(name: str) -> str:
    """The build command in the example's header (before ``&& referee``)."""
    head = "\n".join((EXAMPLES / name).read_text().splitlines()[:4])
    line = next(line for line in head.splitlines() if "mkdir -p build" in line)
    return line[line.index("mkdir") :].split(" && referee")[0]


@pytest.mark.parametrize(("name", "language"), [("random_bot.c", "c"), ("random_bot.rs", "rust")])
def test_the_headers_build_command_leaves_nothing_untracked(
    name: str, language: str, tmp_path: Path
) -> None:
    """The header's own build command, run from a checkout's root, writes the binary
    into a folder git ignores (so ``git status`` stays clean)."""
    tool = _tool(TOOLS[language])
    require(None if tool else f"{TOOLS[language]} is not installed", f"{language} example bot")
    assert tool is not None
    (tmp_path / "bots").symlink_to(ROOT / "bots")
    command = _header_build(name)
    env = {**os.environ, "PATH": f"{Path(tool).parent}:{os.environ.get('PATH', '')}"}
    subprocess.run(command, shell=True, cwd=tmp_path, env=env, check=True, timeout=300)
    made = [p.relative_to(tmp_path) for p in (tmp_path / "build").iterdir()]
    assert len(made) == 1 and os.access(tmp_path / made[0], os.X_OK), made
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", str(made[0])])
    assert ignored.returncode == 0, f"{made[0]} is not ignored by git"
    assert str(made[0]) in (ROOT / "docs" / "protocol.md").read_text()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_docs_say_which_examples_offer_reuse(built: dict[str, str], language: str) -> None:
    """docs/bots.md and docs/protocol.md name the C example as the one offering reuse,
    and the Node and Rust ones as exiting after ``end``: as their ``ready`` says."""
    start = {"type": "start", "seat": 0, "seats": 2, "game": "g", "options": {}}
    done = subprocess.run(
        _command(built, language).split(),
        input=json.dumps(start) + "\n" + json.dumps({"type": "end", "result": {}}) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    offers = json.loads(done.stdout.splitlines()[0]).get("reuse") is True
    assert offers == (language == "c")
    bots_md = (ROOT / "docs" / "bots.md").read_text()
    assert "only the C one offers reuse; the Node and Rust examples exit after `end`" in " ".join(
        bots_md.split()
    )
