"""The JSON Schema of everything a bot is sent and may send, per game (``referee schema``).

:meth:`referee.api.engine.Game.schema` describes a game's actions, views and options.
This module adds what a bot also meets on the wire, so that a bot validating every
line against the schema accepts every line it is sent:

* ``event``: one entry of ``events`` in ``act`` and ``end``: a move
  ``{"ply", "seat", "action"}`` whose action is a full action or, where the game
  hides part of it from other seats, its redacted form; or a chance outcome
  ``{"ply", "chance"}``, possibly redacted (e.g. another seat's hand shown as
  ``null``);
* ``chance``: the game's chance outcomes, redacted forms included;
* ``redacted_action``: the forms an action takes when seen by another seat;
* ``messages``: the protocol messages themselves (``start``, ``act``, ``end`` from the
  referee; ``ready``, ``action`` from the bot), with ``view``, ``legal``, ``events``
  and ``options`` tied to this game's definitions.

Chance outcomes and redacted actions are not typed by the engines, so each game gives
their shapes as data through its :class:`~referee.api.engine.Game` (``chance_schema``,
``redacted_action_schemas``; the meanings of its fields through ``field_docs``); this
module names no game, and a game that does not describe its chance outcomes fails
loudly.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from referee.api.engine import Game
from referee.process.protocol import Act, ActionReply, End, Ready, Start

JsonSchema = dict[str, Any]

_NATURAL: JsonSchema = {"type": "integer", "minimum": 0}


def _describe_fields(defs: dict[str, JsonSchema], docs: dict[type[Any], dict[str, str]]) -> None:
    """Give the fields of each struct in ``docs`` their description in ``defs``: an
    object's ``properties``, or an array-like struct's ``prefixItems`` (by field order).
    Raises ``KeyError`` for a struct or field the schema does not have."""
    for struct, fields in docs.items():
        schema = defs[struct.__name__] = copy.deepcopy(defs[struct.__name__])
        order: tuple[str, ...] = struct.__struct_fields__
        for name, text in fields.items():
            if "properties" in schema:
                schema["properties"][name] = {**schema["properties"][name], "description": text}
            else:
                at = order.index(name)
                schema["prefixItems"][at] = {**schema["prefixItems"][at], "description": text}


def _ref(name: str) -> JsonSchema:
    return {"$ref": f"#/$defs/{name}"}


def wire_schema(game: Game) -> JsonSchema:
    """The game's schema (:meth:`Game.schema`) plus events, chance outcomes, redacted
    actions and the protocol messages, as one JSON Schema (draft 2020-12) document.

    ``properties`` names each part (``action``, ``view``, ``options``, ``event``,
    ``chance``, ``redacted_action``, ``messages``); ``$defs`` holds the definitions.
    Raises ``NotImplementedError`` for a game whose :meth:`Game.chance_schema` is
    ``None``.
    """
    chance = game.chance_schema()
    if chance is None:
        raise NotImplementedError(f"{game.name}: Game.chance_schema() describes no chance")
    base = game.schema()
    defs: dict[str, JsonSchema] = dict(base["$defs"])
    docs = game.field_docs()
    if docs:
        _describe_fields(defs, docs)
        for name, schema in list(defs.items()):
            tag = schema.get("properties", {}).get("kind", {})
            if len(tag.get("enum", ())) == 1 and "description" not in tag:
                defs[name] = schema = copy.deepcopy(schema)
                schema["properties"]["kind"]["description"] = (
                    f"The action kind, always {tag['enum'][0]!r}."
                )
    props = dict(base["properties"])
    redacted_forms = game.redacted_action_schemas()
    defs["wire.Action"] = props["action"]
    defs["wire.View"] = props["view"]
    defs["wire.Options"] = props["options"]
    defs["wire.Chance"] = chance
    defs["wire.RedactedAction"] = {"anyOf": redacted_forms} if redacted_forms else {"not": {}}
    defs["wire.Event"] = {
        "anyOf": [
            {
                "description": "A move of a seat, as this seat may see it.",
                "type": "object",
                "properties": {
                    "ply": _NATURAL,
                    "seat": _NATURAL,
                    "action": {"anyOf": [_ref("wire.Action"), _ref("wire.RedactedAction")]},
                },
                "required": ["ply", "seat", "action"],
            },
            {
                "description": "A chance outcome, as this seat may see it.",
                "type": "object",
                "properties": {"ply": _NATURAL, "chance": _ref("wire.Chance")},
                "required": ["ply", "chance"],
            },
        ]
    }
    messages, components = msgspec.json.schema_components(
        [Start, Act, End, Ready, ActionReply], ref_template="#/$defs/wire.{name}"
    )
    for name, schema in components.items():
        schema = copy.deepcopy(schema)
        fields = schema.get("properties", {})
        if name == "Start":
            fields["options"] = _ref("wire.Options")
        if name == "Act":
            fields["view"] = _ref("wire.View")
            fields["legal"] = {"type": "array", "items": _ref("wire.Action"), "minItems": 1}
        if name in ("Act", "End"):
            fields["events"] = {"type": "array", "items": _ref("wire.Event")}
        defs[f"wire.{name}"] = schema
    props.update(
        event=_ref("wire.Event"),
        chance=_ref("wire.Chance"),
        redacted_action=_ref("wire.RedactedAction"),
        messages={
            "referee_to_bot": {"anyOf": list(messages[:3])},
            "bot_to_referee": {"anyOf": list(messages[3:])},
        },
    )
    return {
        "$schema": base["$schema"],
        "title": f"{game.title}: protocol messages, actions, views, options, events",
        "properties": props,
        "$defs": defs,
    }
