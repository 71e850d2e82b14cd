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
from collections.abc import Iterable, Iterator
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


def is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and hasattr(hint, "__required_keys__")


def typed_dicts_in(hint: Any) -> Iterator[Any]:
    """The TypedDicts ``hint`` is made of, at any depth (``hint`` itself first when it is one)."""
    if is_typed_dict(hint):
        yield hint
        for member in get_type_hints(hint).values():
            yield from typed_dicts_in(member)
    else:
        for member in get_args(hint):
            yield from typed_dicts_in(member)


# The engines a TypedDict may come from, and the prefix its component's name takes when another
# schema has its name (``Components``).
ENGINES = {"games.": "Game", "campaigns.": "Campaign"}


class Components:
    """The engines' TypedDicts as named components, each once: a TypedDict is the component of
    its own name wherever it is used, nested ones included (a client's generator names its
    model so, not after the place it was first met). A name two schemas would take (two engines'
    TypedDicts, or a TypedDict and a serializer's component) is given to neither: each takes
    its engine's prefix (``Game``, ``Campaign``), so that no name depends on what was met first."""

    def __init__(self, schemas: dict[str, Any], roots: Iterable[Any]) -> None:
        self.schemas = schemas
        found = list(dict.fromkeys(shape for root in roots for shape in typed_dicts_in(root)))
        names = [shape.__name__ for shape in found]
        self.names = {
            shape: self._qualified(shape) if names.count(shape.__name__) > 1 or shape.__name__ in schemas
            else shape.__name__
            for shape in found
        }  # fmt: skip

    @staticmethod
    def _qualified(shape: Any) -> str:
        prefix = next(prefix for module, prefix in ENGINES.items() if shape.__module__.startswith(module))
        return shape.__name__ if shape.__name__.startswith(prefix) else prefix + shape.__name__

    def ref(self, shape: Any, *, hidden: frozenset[str] = frozenset()) -> dict[str, str]:
        """A reference to ``shape``'s component (``hidden`` keys left out), put in the schema the
        first time."""
        return self.put(self.names[shape], self.object_schema(shape, hidden=hidden))

    def put(self, name: str, schema: dict[str, Any]) -> dict[str, str]:
        """``schema`` as the component ``name``, which no other schema may be."""
        assert self.schemas.setdefault(name, schema) == schema, f"{name} is another component"
        return ref(name)

    def type_schema(self, hint: Any) -> dict[str, Any]:
        """The JSON schema (OpenAPI 3.0) of a type hint of the engine's TypedDicts: a TypedDict
        is a reference to its component."""
        origin = get_origin(hint)
        if hint is Any or hint is object:
            return {}
        if hint is Text:  # a sentence for people, written in the reader's language
            return {"type": "string"}
        if origin in (NotRequired, Required):
            return self.type_schema(get_args(hint)[0])
        if origin is Literal:
            values = list(get_args(hint))
            kind = "string" if all(isinstance(value, str) for value in values) else "integer"
            return {"type": kind, "enum": values}
        if origin is Union or isinstance(hint, types.UnionType):
            members = [member for member in get_args(hint) if member is not type(None)]
            schema = (
                self.type_schema(members[0])
                if len(members) == 1
                else {"oneOf": [self.type_schema(member) for member in members]}
            )
            if len(members) == len(get_args(hint)):
                return schema
            # a reference takes no keyword beside it in OpenAPI 3.0: nullable around it
            return {"allOf": [schema], "nullable": True} if "$ref" in schema else {**schema, "nullable": True}
        if origin is list:
            return {"type": "array", "items": self.type_schema(get_args(hint)[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.type_schema(get_args(hint)[1])}
        if is_typed_dict(hint):
            return self.ref(hint)
        simple = {bool: "boolean", int: "integer", str: "string", float: "number"}
        if hint in simple:
            return {"type": simple[hint]}
        raise TypeError(f"no JSON schema for {hint!r}")

    def object_schema(self, shape: Any, *, hidden: frozenset[str] = frozenset()) -> dict[str, Any]:
        """A closed object with the TypedDict's keys (``hidden`` ones left out), its required
        keys required, and its docstring as description."""
        hints = {key: hint for key, hint in get_type_hints(shape).items() if key not in hidden}
        result: dict[str, Any] = {
            "type": "object",
            "properties": {key: self.type_schema(hint) for key, hint in hints.items()},
            "additionalProperties": False,
        }
        required = [key for key in hints if key in shape.__required_keys__]
        if required:  # OpenAPI 3.0 wants a `required` list to name one key at least
            result["required"] = required
        if shape.__doc__ and not shape.__doc__.startswith(shape.__name__ + "("):
            result["description"] = " ".join(shape.__doc__.split())
        return result


def _discriminated(
    branches: dict[str, list[str]], key: str, description: str
) -> dict[str, Any]:
    """The union of ``branches`` (component name: the values of ``key`` it takes)."""
    return {
        "oneOf": [ref(name) for name in branches],
        "discriminator": {
            "propertyName": key,
            "mapping": {value: ref(name)["$ref"] for name, values in branches.items() for value in values},
        },
        "description": description,
    }


def option_branches(components: Components, union: Any) -> dict[str, list[str]]:
    """One component per option shape of ``union``, named as its TypedDict, with its ``action``
    values; a step's use (``action: str``) takes the actions of the adventures' steps."""
    branches = {}
    for shape in get_args(union):
        schema = components.object_schema(shape)
        action = schema["properties"]["action"]
        values = action.get("enum") or step_actions()
        schema["properties"]["action"] = {"type": "string", "enum": values}
        name = components.names[shape]
        components.put(name, schema)
        branches[name] = values
    return branches


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def event_branches(
    components: Components, kinds: Any, envelope: dict[str, Any], hidden: dict[str, frozenset[str]]
) -> dict[str, list[str]]:
    """One component per event kind: ``envelope`` (the event serializer's schema) with its kind,
    its current version (events are read upcast) and the data its kind declares (the component
    of its TypedDict)."""
    branches = {}
    for kind in kinds.values():
        properties = {
            **envelope["properties"],
            "kind": {"type": "string", "enum": [kind.name]},
            "v": {"type": "integer", "enum": [kind.version]},
            "data": components.ref(kind.schema, hidden=hidden.get(kind.name, frozenset())),
        }
        schema = {**envelope, "properties": properties, "additionalProperties": False}
        schema.pop("description", None)
        name = f"{_camel(kind.name)}Event"
        components.put(name, schema)
        branches[name] = [kind.name]
    return branches


def _shapes() -> dict[str, tuple[list[Any], str]]:
    """The unions of what the adventures' rules give beside the marks, by component name: each
    adventure's score, a sheet's score, what a sheet draws, and ASTRA's score. Their shapes have
    no key in common to tell them apart, and need none: each is closed and has required keys
    the others lack, so exactly one fits (a game's ``adventure`` says which, too)."""
    rules = [PLAYABLE[number] for number in sorted(PLAYABLE)]
    return {
        SCORE_BREAKDOWN: (
            [adventure.score_shape for adventure in rules],
            "A seat's score line by line, with `total`: one shape per adventure.",
        ),
        SHEET_SCORE: (
            [adventure.sheet_score_shape for adventure in rules],
            "A sheet's live score: its seat's score (adventure 8: each side's).",
        ),
        SHEET_DERIVED: (
            [adventure.derived_shape for adventure in rules],
            "What is drawn on a sheet that is not a mark: one shape per adventure.",
        ),
        ASTRA_BREAKDOWN: (
            list(get_args(get_type_hints(AstraResult)["breakdown"])),
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
    """drf-spectacular postprocessing hook: the option and event unions, their branches, the
    unions of the adventures' shapes, and every TypedDict they are made of, each a component."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    shapes = _shapes()
    roots = [
        *get_args(Option), *get_args(campaign_decider.Option),
        *(kind.schema for kind in KINDS.values()), *(kind.schema for kind in CAMPAIGN_KINDS.values()),
        *(shape for members, _ in shapes.values() for shape in members),
    ]  # fmt: skip
    components = Components(schemas, roots)
    unions = {
        OPTION: (option_branches(components, Option), "action", "A legal choice of a game's decision."),
        CAMPAIGN_OPTION: (
            option_branches(components, campaign_decider.Option),
            "action",
            "A legal choice of a campaign's decision.",
        ),
        EVENT: (
            event_branches(components, KINDS, schemas[EVENT], HIDDEN_FIELDS), "kind", "A game's event."
        ),
        CAMPAIGN_EVENT: (
            event_branches(components, CAMPAIGN_KINDS, schemas[CAMPAIGN_EVENT], {}),
            "kind",
            "A campaign's event.",
        ),
    }
    for union, (branches, key, description) in unions.items():
        schemas[union] = _discriminated(branches, key, description)
    for union, (members, description) in shapes.items():
        refs = list(dict.fromkeys(components.ref(shape)["$ref"] for shape in members))
        schemas[union] = {"oneOf": [{"$ref": target} for target in refs], "description": description}
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
