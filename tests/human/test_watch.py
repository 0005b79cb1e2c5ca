"""``referee watch``: a running tournament match followed in a real browser, and the
watch server's access rules over real HTTP."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.match.record import ChanceLine, MoveLine
from referee.viewer.timeline import EmptyRecord, RecordError, read_lines

ROOT = Path(__file__).resolve().parents[2]
SLOW = ROOT / "tests" / "core" / "slow_bot.py"
REFEREE = [sys.executable, "-m", "referee.cli.main"]


def plies(path: Path) -> int:
    """Plies written so far in a record (finished or not)."""
    try:
        lines, _ = read_lines(path)
    except (EmptyRecord, RecordError, FileNotFoundError):
        return 0
    return sum(isinstance(line, (ChanceLine, MoveLine)) for _, line in lines)


def start(argv: list[str], **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs
    )


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A tournament of slow bots (300 ms a move: a game of about 15 s, long enough to
    open its page on a loaded machine) being played: ``(run dir, the .part record of
    its first match)``; ended at the test's end."""
    config = tmp_path / "slow.toml"
    config.write_text(
        'name = "watch-test"\ngame = "manila"\nseats = 3\nrounds = 1\nmove_ms = 5000\n'
        'sandbox = "none"\nreuse = false\n'
        f'[[bots]]\nname = "slow"\ncommand = "python3 {SLOW} 0.3"\n'
        f'[[bots]]\nname = "slow2"\ncommand = "python3 {SLOW} 0.3"\n'
        f'[[bots]]\nname = "slow3"\ncommand = "python3 {SLOW} 0.3"\n'
    )
    out = tmp_path / "run"
    process = start([*REFEREE, "tournament", str(config), "--out", str(out)])
    deadline = time.monotonic() + 60
    part = None
    while part is None:
        found = sorted((out / "records").glob("*.jsonl.part")) if out.exists() else []
        if found and plies(found[0]) > 0:
            part = found[0]
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no match started"
        time.sleep(0.05)
    yield out, part
    process.terminate()
    process.communicate(timeout=30)


@pytest.fixture
def watch_server(running: tuple[Path, Path]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``referee watch RUN_DIR --no-browser`` started on the running tournament: its URL."""
    process = start([*REFEREE, "watch", str(running[0]), "--no-browser"])
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), process.communicate()
    yield url, process
    process.terminate()
    process.communicate(timeout=10)


def shown_plies(page: Any) -> int:
    """The plies the viewer page holds now (-1 while it is reloading)."""
    try:
        return int(
            page.evaluate(
                "document.body && document.body.dataset.ready === '1' ? "
                "RefereeViewer.data().plies : -1"
            )
        )
    except Exception:  # the page is being replaced by its reload
        return -1


def test_watch_follows_a_running_tournament_match(
    browser: Any, running: tuple[Path, Path], watch_server: tuple[str, Any]
) -> None:
    """The index lists the running match; its viewer shows the plies written to the
    record within 2 s, marked unfinished, and shows the finished game at the end."""
    _, part = running
    url, _ = watch_server
    page = browser.new_page()
    page.goto(url)
    match = part.name.removesuffix(".jsonl.part")
    page.wait_for_selector(f"#matches tr.running a:text('{match}')")
    page.click(f"#matches a:text('{match}')")
    page.wait_for_function("document.body.dataset.ready === '1'")
    assert page.evaluate("document.body.dataset.finished") == "0"
    assert "unfinished" in page.inner_text("#status")
    samples = 0
    while samples < 4 and part.exists():
        written, at = plies(part), time.monotonic()
        while shown_plies(page) < written:
            assert time.monotonic() - at < 2.0, f"ply {written} not shown within 2 s"
            time.sleep(0.05)
        samples += 1
        time.sleep(0.3)
    assert samples >= 2
    done = part.with_name(part.name.removesuffix(".part"))
    deadline = time.monotonic() + 60
    while not done.exists():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    deadline = time.monotonic() + 10
    while True:
        try:
            if page.evaluate("document.body.dataset.finished") != "0":
                break
        except Exception:  # reloading
            pass
        assert time.monotonic() < deadline, "the finished game never showed"
        time.sleep(0.1)
    assert shown_plies(page) == plies(done)
    page.close()


def get(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    port = int(url.split("/?", 1)[0].rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_watch_serves_only_the_run_directory_and_needs_the_token(
    running: tuple[Path, Path], watch_server: tuple[str, Any], tmp_path: Path
) -> None:
    """Token, Host and Origin as for the human seat; records by their path inside the
    run directory only: no ``..``, no absolute path, no symbolic link out, no other
    files."""
    run, part = running
    url, _ = watch_server
    token = url.split("token=", 1)[1]
    rel = part.relative_to(run)
    assert get(url, f"/?token={token}")[0] == 200
    assert get(url, f"/view?token={token}&record={rel}")[0] == 200
    assert get(url, "/")[0] == 403
    assert get(url, f"/view?record={rel}")[0] == 403
    assert get(url, f"/?token={token}", {"Origin": "http://evil.example"})[0] == 403
    assert get(url, f"/?token={token}", {"Host": "evil.example"})[0] == 403
    secret = tmp_path / "outside.jsonl"
    secret.write_bytes(part.read_bytes())
    os.symlink(secret, run / "records" / "link.jsonl")
    for name in [
        "../outside.jsonl",
        str(secret),
        "records/link.jsonl",
        "results.sqlite",
        "records/../../outside.jsonl",
        "logs",
    ]:
        status, body = get(url, f"/view?token={token}&record={name}")
        assert status == 404, (name, body)
