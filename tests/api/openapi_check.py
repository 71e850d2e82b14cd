"""Check answers against the API's own OpenAPI schema (`/api/v1/schema`).

The schema is OpenAPI 3.0: `nullable` is turned into JSON Schema's null type, and every object
that lists its properties is closed (`additionalProperties: false`), so an answer carrying a key
the schema does not declare fails as surely as one missing a required key.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jsonschema
from rest_framework.test import APIClient


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    elif "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    return node


@dataclass
class SchemaCheck:
    """Validates each (method, path, status, body) against the operation the schema declares."""

    schema: dict[str, Any]
    checked: list[tuple[str, str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.components = _strict(self.schema["components"])
        self._validators: dict[tuple[str, str, int], jsonschema.Draft7Validator] = {}
        self.routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"), operations)
            for template, operations in self.schema["paths"].items()
        ]

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        for (pattern, operations), template in zip(self.routes, self.schema["paths"], strict=True):
            if pattern.match(path) and method.lower() in operations:
                return template, dict(operations[method.lower()])
        raise AssertionError(f"{method} {path} is not in the schema")

    def validate(self, method: str, path: str, status: int, body: Any) -> None:
        """Fail unless the schema declares this status for the operation and the body fits it."""
        template, operation = self.operation(method, path)
        responses = operation["responses"]
        assert str(status) in responses, f"{method} {path}: {status} is not declared"
        content = responses[str(status)].get("content")
        if content is None:
            assert body is None, f"{method} {path}: {status} declares no body"
        else:
            key = (method, template, status)
            if key not in self._validators:
                declared = _strict(content["application/json"]["schema"])
                root = {**declared, "components": self.components}
                self._validators[key] = jsonschema.Draft7Validator(root)
            error = jsonschema.exceptions.best_match(self._validators[key].iter_errors(body))
            assert error is None, f"{method} {path} {status}: {error.message} at {list(error.path)}"
        self.checked.append((method, template, status))


class CheckedClient:
    """An APIClient whose every answer is validated against the schema; ``send`` posts (the
    suite's ``post`` fixture, which runs the on-commit tasks)."""

    def __init__(self, client: APIClient, check: SchemaCheck, send: Callable[..., Any]) -> None:
        self.client = client
        self.check = check
        self.send = send

    def get(self, path: str, query: dict[str, Any] | None = None) -> Any:
        response = self.client.get(path, query or {})
        self.check.validate("GET", path, response.status_code, _body(response))
        return response

    def post(self, path: str, body: Any = None) -> Any:
        response = self.send(self.client, path, body)
        self.check.validate("POST", path, response.status_code, _body(response))
        return response


def _body(response: Any) -> Any:
    if not response.content:
        return None
    return response.json()


def load(client: APIClient) -> SchemaCheck:
    """The schema as the server serves it."""
    response = client.get("/api/v1/schema", {"format": "json"})
    assert response.status_code == 200
    return SchemaCheck(response.json())
