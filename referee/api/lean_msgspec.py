"""msgspec for bot processes, imported without ``typing_extensions``.

msgspec reads ``typing_extensions`` at import, when it is installed, only for typing
constructs that older Pythons lack; on Python 3.11 and later those are ``typing``'s
own objects, so msgspec behaves the same with ``typing``.  Skipping that import
(``typing_extensions`` pulls in ``inspect``, ``ast`` and ``dis``) saves a bot about
8-9 ms of CPU at every start: importing a bundled bot took 49.6 ms of CPU with it and
40.8 ms without (median of 25 fresh interpreters on the 2-core benchmark machine).

:mod:`referee.botkit` imports msgspec from here.  If msgspec or typing_extensions is
already loaded (a bot that imported either before botkit), nothing is blocked, and
``typing_extensions`` stays importable afterwards in any case.

Usage: ``from referee.api.lean_msgspec import msgspec``.
"""

from __future__ import annotations

import sys

if "msgspec" not in sys.modules and "typing_extensions" not in sys.modules:
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # import fails
    try:
        import msgspec
    finally:
        del sys.modules["typing_extensions"]
else:
    import msgspec

__all__ = ["msgspec"]
