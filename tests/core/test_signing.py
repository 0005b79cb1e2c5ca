"""Signed records (issue 32 s. 4): who played, bound to the moves by an Ed25519 key.

Real matches are played and signed with ``--sign-key``; ``replay --verify-key``
accepts them and rejects any edit, naming the changed line, even one (a seat's name
or command in the header) that replays without a complaint.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.regress import regress
from referee.games import all_games
from referee.match.signing import SignatureError, Signer, signature_path, verify_file
from referee.process.isolation.sandbox import bwrap_problem
from tests.core.cli_helpers import (
    RANDOM,
    invoke,
    one_error_line,
    toy_game,  # noqa: F401  (autouse: the toy game registered)
)
from tests.core.toygame import GAME

pytest.importorskip("cryptography")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("keys")
    result = invoke("keygen", folder / "key.pem")
    assert result.exit_code == 0, result.output
    assert "fingerprint" in result.stdout
    return folder / "key.pem", folder / "key.pem.pub"


@pytest.fixture(scope="module")
def other_keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("other")
    assert invoke("keygen", folder / "k").exit_code == 0
    return folder / "k", folder / "k.pub"


@pytest.fixture(scope="module")
def signed(
    tmp_path_factory: pytest.TempPathFactory, keys: tuple[Path, Path]
) -> Iterator[list[str]]:
    """The lines of a record played for real and signed."""
    all_games()[GAME.name] = GAME
    record = tmp_path_factory.mktemp("signed") / "records" / "m.jsonl"
    result = invoke(
        "play", GAME.name, "--bot", RANDOM, "--bot", RANDOM, "--name", "alice", "--name", "bob",
        "--seed", "5", "--record", record, "--sign-key", keys[0],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"signed in {signature_path(record)}" in result.stdout
    assert stat.S_IMODE(signature_path(record).stat().st_mode) == 0o600
    ok = invoke("replay", record, "--verify-key", keys[1])
    assert ok.exit_code == 0, ok.output
    assert "ok: secret-race" in ok.stdout and "signed by key" in ok.stdout
    yield [record.read_text(), signature_path(record).read_text()]
    all_games().pop(GAME.name, None)


def write(tmp_path: Path, record: str, signature: str) -> Path:
    path = tmp_path / "m.jsonl"
    path.write_text(record)
    signature_path(path).write_text(signature)
    return path


def test_keygen_makes_a_private_key_and_never_overwrites(keys: tuple[Path, Path]) -> None:
    private, public = keys
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in private.read_bytes() and b"PUBLIC KEY" in public.read_bytes()
    before = private.read_bytes()
    one_error_line(invoke("keygen", private), "already exists")
    assert private.read_bytes() == before


def test_an_edited_name_replays_but_fails_verification(
    signed: list[str], keys: tuple[Path, Path], tmp_path: Path
) -> None:
    record = signed[0].replace('"name":"alice"', '"name":"mallory"', 1)
    assert record != signed[0]
    path = write(tmp_path, record, signed[1])
    assert invoke("replay", path).exit_code == 0  # the rules alone cannot tell
    one_error_line(
        invoke("replay", path, "--verify-key", keys[1]), f"{path}: line 1: changed after"
    )


def test_an_edited_move_is_named_by_its_line(
    signed: list[str], keys: tuple[Path, Path], tmp_path: Path
) -> None:
    lines = signed[0].splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    obj = json.loads(lines[index])
    obj["ms"] = obj["ms"] + 1.0  # a legal-looking edit: only thinking time
    lines[index] = json.dumps(obj, separators=(",", ":")) + "\n"
    path = write(tmp_path, "".join(lines), signed[1])
    one_error_line(invoke("replay", path, "--verify-key", keys[1]), f"line {index + 1}: changed")


def test_removed_and_added_lines(
    signed: list[str], keys: tuple[Path, Path], tmp_path: Path
) -> None:
    lines = signed[0].splitlines(keepends=True)
    path = write(tmp_path, "".join(lines[:-1]), signed[1])
    one_error_line(invoke("replay", path, "--verify-key", keys[1]), f"line {len(lines)}", "removed")
    path = write(tmp_path, "".join([*lines, lines[-1]]), signed[1])
    one_error_line(invoke("replay", path, "--verify-key", keys[1]), "added")


def test_another_key_a_changed_signature_and_no_signature(
    signed: list[str], keys: tuple[Path, Path], other_keys: tuple[Path, Path], tmp_path: Path
) -> None:
    path = write(tmp_path, *signed)
    one_error_line(invoke("replay", path, "--verify-key", other_keys[1]), "signed by another key")
    # a forger who re-digests the edited line cannot re-sign the signature file
    sig = json.loads(signed[1])
    sig["lines"][0] = "0" * 16
    path = write(tmp_path, signed[0], json.dumps(sig))
    one_error_line(invoke("replay", path, "--verify-key", keys[1]), "does not verify")
    signature_path(path).unlink()
    one_error_line(invoke("replay", path, "--verify-key", keys[1]), "not signed")
    # the private key verifies too (its public half is used)
    path = write(tmp_path, *signed)
    assert invoke("replay", path, "--verify-key", keys[0]).exit_code == 0


def test_sign_key_errors_are_one_line(tmp_path: Path, keys: tuple[Path, Path]) -> None:
    bots = ["--bot", RANDOM, "--bot", RANDOM]
    not_a_key = tmp_path / "junk.pem"
    not_a_key.write_text("hello\n")
    record = tmp_path / "r" / "m.jsonl"
    args = ["play", GAME.name, *bots, "--record", str(record), "--sign-key"]
    one_error_line(invoke(*args, not_a_key), "not an unencrypted PEM private key")
    one_error_line(invoke(*args, keys[1]), "--sign-key")  # a public key cannot sign
    assert not record.exists()  # refused before the match
    result = invoke("play", GAME.name, *bots, "--sign-key", keys[0])
    assert result.exit_code == 2 and "--sign-key needs --record" in result.output


def test_signed_tournament_run(
    tmp_path: Path, keys: tuple[Path, Path], other_keys: tuple[Path, Path]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f'name = "signed"\ngame = "{GAME.name}"\nseats = 2\ngames = 2\n[options]\ntarget = 6\n'
        + "".join(f'[[bots]]\nname = "{n}"\ncommand = "{RANDOM}"\n' for n in "ab")
    )
    out = tmp_path / "run"
    result = invoke("tournament", config, "--out", out, "--quiet", "--sign-key", keys[0])
    assert result.exit_code == 0, result.output
    from referee.match.signing import load_public_key

    public = load_public_key(keys[1])
    verify_file(out / "manifest.json", public)
    records = sorted((out / "records").glob("*.jsonl"))
    assert len(records) == 2
    for record in records:
        verify_file(record, public)
        assert stat.S_IMODE(signature_path(record).stat().st_mode) == 0o600
    # a resume keeps the run's key
    one_error_line(invoke("tournament", "--resume", out, "--quiet"), "signs its records")
    one_error_line(
        invoke("tournament", "--resume", out, "--quiet", "--sign-key", other_keys[0]),
        "not with --sign-key's",
    )
    # a record played again after damage is signed again, the damaged one set aside
    records[0].write_bytes(records[0].read_bytes().replace(b'"ms":', b'"ms": ', 1))
    resumed = invoke("tournament", "--resume", out, "--quiet", "--sign-key", keys[0])
    assert resumed.exit_code == 0, resumed.output
    verify_file(records[0], public)
    assert signature_path(out / "records" / "set-aside" / f"{records[0].stem}.1.jsonl").exists()


def test_regress_signs_its_records(tmp_path: Path, keys: tuple[Path, Path]) -> None:
    records = tmp_path / "records"
    result = CliRunner().invoke(
        regress,
        ["--game", GAME.name, "--candidate", RANDOM, "--baseline", RANDOM, "--quiet",
         "--max-games", "2", "--records", str(records), "--sign-key", str(keys[0])],
    )  # fmt: skip
    assert result.exit_code == 2, result.output  # inconclusive after one block
    from referee.match.signing import load_public_key

    played = sorted(records.glob("*.jsonl"))
    assert len(played) == 2
    for record in played:
        verify_file(record, load_public_key(keys[1]))


@pytest.mark.skipif(bwrap_problem() is not None, reason="bubblewrap cannot run here")
def test_a_key_a_bot_could_read_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    for path in (tmp_path, folder):
        path.chmod(0o755)
    bot = folder / "b.py"
    bot.write_bytes((ROOT / "bots" / "random_bot.py").read_bytes())
    bot.chmod(0o644)
    key = folder / "key.pem"
    assert invoke("keygen", key).exit_code == 0
    key.chmod(0o644)  # readable by others, next to the bot's script
    record = tmp_path / "out" / "m.jsonl"
    args = ["play", GAME.name, "--bot", f"python3 {bot}", "--bot", f"python3 {bot}"]
    result = invoke(*args, "--record", record, "--sign-key", key, "--sandbox", "bwrap")
    one_error_line(result, f"--sign-key {key}", "keep the key in a folder of its own")


def test_without_cryptography_the_error_names_the_extra(
    keys: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cryptography", None)
    with pytest.raises(SignatureError, match=r"referee\[sign\]"):
        Signer(keys[0])


def test_the_referee_starts_without_importing_cryptography() -> None:
    code = "import sys, referee.cli.main; print('cryptography' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    assert found.stdout.strip() == "False"
