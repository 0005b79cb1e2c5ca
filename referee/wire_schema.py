"""The JSON Schema of everything a bot is sent and may send, per game (``referee schema``).

:meth:`referee.engine.Game.schema` describes a game's actions, views and options.
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

Chance outcomes and redacted actions are not typed by the engines, so their shapes
are data here, one entry per game (the rulebook sources are in each game's
``sample_chance``/``observe_*`` docstrings); a game without an entry fails loudly.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from referee.engine import Game
from referee.protocol import Act, ActionReply, End, Ready, Start

JsonSchema = dict[str, Any]

_SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 4}
_NATURAL: JsonSchema = {"type": "integer", "minimum": 0}


def _manila_chance() -> JsonSchema:
    from referee.games.manila.data import GOODS

    good = {"enum": list(GOODS)}
    return {
        "anyOf": [
            {
                "description": "The deal: one hand of two goods per seat, by seat; "
                "another seat's hand is redacted to null.",
                "type": "array",
                "items": {
                    "anyOf": [
                        {"type": "array", "items": good, "minItems": 2, "maxItems": 2},
                        {"type": "null"},
                    ]
                },
            },
            {
                "description": "The roll: a die (1-6) per good whose ship is still at sea.",
                "type": "object",
                "propertyNames": good,
                "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 6},
            },
        ]
    }


def _manila_redacted() -> list[JsonSchema]:
    return [
        {
            "description": "Another seat's mortgage or redeem: which share is hidden.",
            "type": "object",
            "properties": {"kind": {"enum": ["mortgage", "redeem"]}},
            "required": ["kind"],
            "additionalProperties": False,
        }
    ]


def _navegador_chance() -> JsonSchema:
    return {
        "description": "The explored region's colony tiles turned up: their prices, sorted.",
        "type": "array",
        "items": _NATURAL,
    }


def _puerto_rico_chance() -> JsonSchema:
    tile = {"type": "integer", "minimum": 0, "maximum": 4}
    return {
        "anyOf": [
            {
                "description": "The first governor's seat, or one hacienda tile (kind 0-4).",
                **_SEAT,
            },
            {"description": "The face-up plantation tiles drawn (kinds 0-4).", "type": "array",
             "items": tile},
        ]
    }  # fmt: skip


def _roads_and_boats_chance() -> JsonSchema:
    return {
        "anyOf": [
            {"description": "The generated map's seed (setup).", **_NATURAL},
            {
                "description": "The temple order (seats, closest first), or the mine "
                "draws: one [hex, 'gold' | 'iron'] per non-empty bag.",
                "type": "array",
                "items": {
                    "anyOf": [
                        _SEAT,
                        {
                            "type": "array",
                            "prefixItems": [_NATURAL, {"enum": ["gold", "iron"]}],
                            "items": False,
                            "minItems": 2,
                        },
                    ]
                },
            },
        ]
    }


CHANCE_SHAPES = {
    "manila": _manila_chance,
    "navegador": _navegador_chance,
    "puerto-rico": _puerto_rico_chance,
    "roads-and-boats": _roads_and_boats_chance,
}
"""Game name -> JSON Schema of its chance outcomes as bots see them."""

REDACTED_ACTIONS = {"manila": _manila_redacted}
"""Game name -> the redacted forms of its actions (games that hide nothing are absent)."""


def _roads_and_boats_fields() -> dict[type[Any], dict[str, str]]:
    from referee.games.roads_and_boats.fields import FIELD_DOCS

    return FIELD_DOCS


FIELD_DOCS = {"roads-and-boats": _roads_and_boats_fields}
"""Game name -> the one-line meaning of every field of its view and action structs
(struct -> field -> text), shown as each field's ``description``."""


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
    Raises ``KeyError`` for a game without an entry in :data:`CHANCE_SHAPES`.
    """
    base = game.schema()
    defs: dict[str, JsonSchema] = dict(base["$defs"])
    if game.name in FIELD_DOCS:
        _describe_fields(defs, FIELD_DOCS[game.name]())
        for name, schema in list(defs.items()):
            tag = schema.get("properties", {}).get("kind", {})
            if len(tag.get("enum", ())) == 1 and "description" not in tag:
                defs[name] = schema = copy.deepcopy(schema)
                schema["properties"]["kind"]["description"] = (
                    f"The action kind, always {tag['enum'][0]!r}."
                )
    props = dict(base["properties"])
    redacted_forms = REDACTED_ACTIONS[game.name]() if game.name in REDACTED_ACTIONS else []
    defs["wire.Action"] = props["action"]
    defs["wire.View"] = props["view"]
    defs["wire.Options"] = props["options"]
    defs["wire.Chance"] = CHANCE_SHAPES[game.name]()
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
