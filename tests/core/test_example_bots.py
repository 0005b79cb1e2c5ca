"""The example bots in other languages (``bots/examples/``) pass ``referee check-bot``
for every game; each is skipped where its toolchain (node, cc, rustc) is absent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.games import all_games

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


def _command(built: dict[str, str], language: str) -> str:
    if language not in built:
        pytest.skip(f"no toolchain for the {language} example on this machine")
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
