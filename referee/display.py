"""Escaping of hostile text at the point where a person sees it.

Everything a bot controls (its ``ready`` name, its stderr, a stray stdout line quoted
in a fault detail, an unknown message ``type`` echoed in a protocol detail) is kept
as the bot sent it in records and databases, within the caps of
:mod:`referee.process.protocol`, and escaped only here, by one function per kind of output:

- :func:`terminal`: control characters (C0, DEL, C1), the line and paragraph
  separators U+2028/U+2029 and the bidirectional controls become visible escapes
  (``\\x1b``, ``\\r``, ``\\u2028``), so no text can clear the screen, set the window
  title or the clipboard, ring the bell, overwrite a line or reorder what follows.
- :func:`csv_cell`: :func:`terminal`, then the OWASP rule against formula
  injection: a cell starting with ``= + - @``, a tab or a carriage return gets a
  leading ``'``.
- :func:`markdown_cell`: a cell of a markdown (pipe) table: ``\\``, ``|``, ``&``,
  ``<`` and ``>`` escaped, line breaks as ``<br>``, then :func:`terminal`, so a cell
  can neither add columns or rows nor open an HTML tag.
- :func:`html_text`: text in an HTML element or attribute.
- :func:`script_json`: JSON to embed in ``<script>``: every ``<``, ``>``, ``&``,
  U+2028 and U+2029 as a ``\\u`` escape, so no string can end the script, open a
  comment (``<!--``) or break a JavaScript string.
- :func:`terminal_json`: JSON printed to a terminal: also C1, DEL and the
  separators and bidirectional controls as ``\\u`` escapes (still the same data).
"""

from __future__ import annotations

import html
import re
from typing import Any

import msgspec

__all__ = [
    "csv_cell",
    "html_text",
    "markdown_cell",
    "script_json",
    "terminal",
    "terminal_json",
]

_UNSAFE = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_TERMINAL_UNSAFE = re.compile(f"[{_UNSAFE}]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LINE_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_SCRIPT_UNSAFE = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal(text: str) -> str:
    """``text`` safe to print on a terminal, on one line.

    Every C0 control (newline and tab included), DEL, C1 control, U+2028, U+2029 and
    bidirectional control is replaced by a visible escape: ``\\n``, ``\\r``, ``\\t``,
    ``\\xNN`` up to U+00FF, ``\\uNNNN`` above.  Other characters, backslashes
    included, are kept, so ordinary text reads as it was written.
    """
    return _TERMINAL_UNSAFE.sub(_visible, text)


def csv_cell(value: Any) -> Any:
    """A CSV cell: strings pass :func:`terminal` and, when they start with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return, get a leading ``'`` so no
    spreadsheet reads them as a formula (OWASP).  The tables' ``-`` placeholder
    alone cannot start a formula and is kept.  Other values (numbers, ``None``)
    are returned unchanged."""
    if not isinstance(value, str):
        return value
    shown = terminal(value)
    if value.startswith(_FORMULA_START) and value != "-":
        return "'" + shown
    return shown


def markdown_cell(value: Any) -> Any:
    """A cell of a markdown (pipe) table: ``\\`` and ``|`` escaped with a backslash,
    ``&``, ``<`` and ``>`` as HTML entities, every line break as ``<br>``, and
    :func:`terminal` for what is left.  Non-strings are returned unchanged."""
    if not isinstance(value, str):
        return value
    text = html.escape(value.replace("\\", "\\\\").replace("|", "\\|"), quote=False)
    return terminal(_LINE_BREAK.sub("<br>", text))


def html_text(value: Any) -> str:
    """``str(value)`` escaped for HTML text or a quoted attribute (``& < > " '``)."""
    return html.escape(str(value), quote=True)


def script_json(obj: Any) -> str:
    """``obj`` as JSON text safe inside ``<script type="application/json">``.

    ``<``, ``>``, ``&``, U+2028 and U+2029 occur in JSON text only inside strings,
    where their ``\\u`` escapes mean the same: ``JSON.parse`` of the result gives
    ``obj``, and the text contains no ``</script``, ``<!--`` or ``-->``.  Raises
    :class:`msgspec.EncodeError` for what JSON cannot encode.
    """
    return msgspec.json.encode(obj).decode().translate(_SCRIPT_UNSAFE)


def terminal_json(obj: Any) -> str:
    """``obj`` as indented JSON text safe to print on a terminal: JSON escapes C0
    controls already; DEL, C1 controls, U+2028/U+2029 and the bidirectional
    controls become ``\\u`` escapes too (the same data for any JSON reader).  Raises
    :class:`msgspec.EncodeError` for what JSON cannot encode."""
    text = msgspec.json.format(msgspec.json.encode(obj)).decode()
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
