"""The typed contract: OpenAPI components made from the types the rules engine declares.

A decision's options and a feed's events are typed once, by the engines: each option shape is a
TypedDict of ``games.rules.engine.Option`` (a campaign's: ``campaigns.rules.decider.Option``)
and each event kind declares the TypedDict of its data (``KINDS``). This module turns them into
OpenAPI 3.0 schemas: one component per option shape and per event kind, joined by ``oneOf``
with a ``discriminator`` (``action`` for options, ``kind`` for events) that maps every value to
its branch. ``add_components`` (a drf-spectacular postprocessing hook) puts them in the schema,
where the serializers' fields point at them by name.
"""

import functools
import types
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints

from campaigns.rules import decider as campaign_decider
from campaigns.rules.events import KINDS as CAMPAIGN_KINDS
from games.rules import engine
from games.rules.engine import HIDDEN_FIELDS, KINDS, PLAYABLE, AstraResult, Option, Text, step_actions

OPTION = "Option"
CAMPAIGN_OPTION = "CampaignOption"
EVENT = "Event"
CAMPAIGN_EVENT = "CampaignEvent"
MARK = "Mark"
SCORE_BREAKDOWN = "ScoreBreakdown"
SHEET_SCORE = "SheetScore"
SHEET_DERIVED = "SheetDerived"
ASTRA_BREAKDOWN = "AstraBreakdown"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def type_schema(hint: Any) -> dict[str, Any]:
    """The JSON schema (OpenAPI 3.0) of a type hint of the engine's TypedDicts."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return {}
    if hint is Text:  # a sentence for people, written in the reader's language
        return {"type": "string"}
    if origin in (NotRequired, Required):
        return type_schema(get_args(hint)[0])
    if origin is Literal:
        values = list(get_args(hint))
        kind = "string" if all(isinstance(value, str) for value in values) else "integer"
        return {"type": kind, "enum": values}
    if origin is Union or isinstance(hint, types.UnionType):
        members = [member for member in get_args(hint) if member is not type(None)]
        schema = (
            type_schema(members[0])
            if len(members) == 1
            else {"oneOf": [type_schema(member) for member in members]}
        )
        return {**schema, "nullable": True} if len(members) < len(get_args(hint)) else schema
    if origin is list:
        return {"type": "array", "items": type_schema(get_args(hint)[0])}
    if origin is dict:
        return {"type": "object", "additionalProperties": type_schema(get_args(hint)[1])}
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        return typed_dict_schema(hint)
    simple = {bool: "boolean", int: "integer", str: "string", float: "number"}
    if hint in simple:
        return {"type": simple[hint]}
    raise TypeError(f"no JSON schema for {hint!r}")


def typed_dict_schema(schema: Any, *, hidden: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A closed object with the TypedDict's keys (``hidden`` ones left out), its required keys
    required, and its docstring as description."""
    hints = {key: hint for key, hint in get_type_hints(schema).items() if key not in hidden}
    result: dict[str, Any] = {
        "type": "object",
        "properties": {key: type_schema(hint) for key, hint in hints.items()},
        "additionalProperties": False,
    }
    required = [key for key in hints if key in schema.__required_keys__]
    if required:  # OpenAPI 3.0 wants a `required` list to name one key at least
        result["required"] = required
    if schema.__doc__ and not schema.__doc__.startswith(schema.__name__ + "("):
        result["description"] = " ".join(schema.__doc__.split())
    return result


def _discriminated(
    branches: dict[str, tuple[dict[str, Any], list[str]]], key: str, description: str
) -> dict[str, Any]:
    """The union of ``branches`` (name: schema and the values of ``key`` it takes)."""
    return {
        "oneOf": [ref(name) for name in branches],
        "discriminator": {
            "propertyName": key,
            "mapping": {
                value: ref(name)["$ref"] for name, (_, values) in branches.items() for value in values
            },
        },
        "description": description,
    }


def option_branches(union: Any) -> dict[str, tuple[dict[str, Any], list[str]]]:
    """One schema per option shape of ``union``, named as its TypedDict, with its ``action``
    values; a step's use (``action: str``) takes the actions of the adventures' steps."""
    branches = {}
    for shape in get_args(union):
        schema = typed_dict_schema(shape)
        action = schema["properties"]["action"]
        values = action.get("enum") or step_actions()
        schema["properties"]["action"] = {"type": "string", "enum": values}
        branches[shape.__name__] = (schema, values)
    return branches


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def event_branches(
    kinds: Any, envelope: dict[str, Any], hidden: dict[str, frozenset[str]]
) -> dict[str, tuple[dict[str, Any], list[str]]]:
    """One schema per event kind: ``envelope`` (the event serializer's schema) with its kind,
    its current version (events are read upcast) and the data its kind declares."""
    branches = {}
    for kind in kinds.values():
        properties = {
            **envelope["properties"],
            "kind": {"type": "string", "enum": [kind.name]},
            "v": {"type": "integer", "enum": [kind.version]},
            "data": typed_dict_schema(kind.schema, hidden=hidden.get(kind.name, frozenset())),
        }
        schema = {**envelope, "properties": properties, "additionalProperties": False}
        schema.pop("description", None)
        branches[f"{_camel(kind.name)}Event"] = (schema, [kind.name])
    return branches


def shape_branches(shapes: list[Any]) -> dict[str, dict[str, Any]]:
    """One closed schema per TypedDict of ``shapes`` (each once), named as it."""
    return {shape.__name__: typed_dict_schema(shape) for shape in dict.fromkeys(shapes)}


def _shapes() -> dict[str, tuple[dict[str, dict[str, Any]], str]]:
    """The unions of what the adventures' rules give beside the marks, by component name: each
    adventure's score, a sheet's score, what a sheet draws, and ASTRA's score. Their shapes have
    no key in common to tell them apart, and need none: each is closed and has required keys
    the others lack, so exactly one fits (a game's ``adventure`` says which, too)."""
    rules = [PLAYABLE[number] for number in sorted(PLAYABLE)]
    return {
        SCORE_BREAKDOWN: (
            shape_branches([adventure.score_shape for adventure in rules]),
            "A seat's score line by line, with `total`: one shape per adventure.",
        ),
        SHEET_SCORE: (
            shape_branches([adventure.sheet_score_shape for adventure in rules]),
            "A sheet's live score: its seat's score (adventure 8: each side's).",
        ),
        SHEET_DERIVED: (
            shape_branches([adventure.derived_shape for adventure in rules]),
            "What is drawn on a sheet that is not a mark: one shape per adventure.",
        ),
        ASTRA_BREAKDOWN: (
            shape_branches(list(get_args(get_type_hints(AstraResult)["breakdown"]))),
            "ASTRA's score line by line, with `total` (adventure 1: its rocket track).",
        ),
    }


EXAMPLE_TIME = "2026-01-01T12:00:00Z"


def _refusal(state: engine.GameState, seat: int, command: dict[str, Any]) -> engine.RuleViolation | None:
    """The engine's refusal of ``command``, or None when it is legal."""
    try:
        engine.decide(state, seat, command)
    except engine.RuleViolation as refused:
        return refused
    return None


@functools.cache
def examples() -> dict[str, dict[str, Any]]:
    """Real answers for the schema's examples, played by the engine when the schema is built:
    seat 0's first decision of a game, its first option, the event writing it, and the refusal
    of a combination that is not dealt. Components not listed get no example."""
    opening = engine.new_game(adventure=1, players=2, seed=1)
    state = engine.replay(opening)
    decision = dict(engine.options(state, 0).as_dict())
    option = decision["options"][0]
    written = engine.decide(state, 0, {"type": "move", "choice": option})[0]
    refused = _refusal(state, 0, {"type": "move", "choice": {**option, "combination": 7}})
    assert refused is not None, "a combination that is not dealt is refused"
    error = {"code": refused.code, "detail": refused.detail}
    event = {
        "seq": len(opening) + 1, "turn": written["turn"], "seat": written["seat"], "kind": written["kind"],
        "v": written["v"], "data": written["data"], "created_at": EXAMPLE_TIME,
    }  # fmt: skip
    return {"Decision": decision, OPTION: option, EVENT: event, "Error": error}


def add_components(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the option and event unions and their branches."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    unions = {
        OPTION: (option_branches(Option), "action", "A legal choice of a game's decision."),
        CAMPAIGN_OPTION: (
            option_branches(campaign_decider.Option), "action", "A legal choice of a campaign's decision."
        ),
        EVENT: (event_branches(KINDS, schemas[EVENT], HIDDEN_FIELDS), "kind", "A game's event."),
        CAMPAIGN_EVENT: (
            event_branches(CAMPAIGN_KINDS, schemas[CAMPAIGN_EVENT], {}), "kind", "A campaign's event."
        ),
    }
    for union, (branches, key, description) in unions.items():
        for name, (schema, _values) in branches.items():
            assert name not in schemas, f"{name} is already a component"
            schemas[name] = schema
        schemas[union] = _discriminated(branches, key, description)
    for union, (shapes, description) in _shapes().items():
        for name, schema in shapes.items():
            # a seat's score and its sheet's are one shape but in adventure 8
            assert schemas.setdefault(name, schema) == schema, f"{name} is another component"
        schemas[union] = {"oneOf": [ref(name) for name in shapes], "description": description}
    for name, example in examples().items():
        schemas[name]["example"] = example
    for name, schema in schemas.items():
        # a request body names only the fields it declares: any other is `unknown_field`
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    schemas[MARK] = {
        "oneOf": [{"type": "integer"}, {"type": "string"}],
        "description": "A mark on a sheet element: a number written, or a symbol (`X`, `O`, ...).",
    }
    return result
