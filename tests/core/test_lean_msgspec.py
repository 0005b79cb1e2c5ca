"""Bot processes import msgspec without typing_extensions (referee.api.lean_msgspec), and
nothing else notices: typing_extensions stays importable, and a bot that loaded it
first keeps it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_botkit_skips_typing_extensions() -> None:
    code = (
        "import sys; import referee.botkit as b;"
        "print('typing_extensions' in sys.modules, sys.modules['msgspec'] is b.msgspec);"
        "import typing_extensions; print(typing_extensions.__name__)"
    )
    assert run(code).split() == ["False", "True", "typing_extensions"]


def test_a_bot_that_loaded_typing_extensions_first_keeps_it() -> None:
    code = (
        "import sys, typing_extensions; import referee.botkit;"
        "print(sys.modules['typing_extensions'] is typing_extensions)"
    )
    assert run(code) == "True"


def test_messages_still_decode_and_validate() -> None:
    code = (
        "from referee.botkit import msgspec, Clock;"
        'print(msgspec.json.decode(b\'{"move_ms": 5, "bank_ms": 7}\', type=Clock));'
        "import sys\n"
        "try:\n"
        '    msgspec.json.decode(b\'{"move_ms": "x", "bank_ms": 7}\', type=Clock)\n'
        "except msgspec.ValidationError as e:\n"
        "    print('invalid', e)"
    )
    out = run(code).splitlines()
    assert out[0] == "Clock(move_ms=5, bank_ms=7)"
    assert out[1].startswith("invalid Expected `int`")


def test_the_engine_interface_first_also_skips_typing_extensions() -> None:
    """Sorted imports put ``referee.api.engine`` before ``referee.botkit`` in a bot
    (the Navegador bot did): the engine interface imports msgspec the lean way too."""
    code = (
        "import sys; import referee.api.engine; import referee.botkit;"
        "print('typing_extensions' in sys.modules, 'inspect' in sys.modules)"
    )
    assert run(code).split() == ["False", "False"]
