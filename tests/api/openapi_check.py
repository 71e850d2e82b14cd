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

JSON = "application/json"


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
        self._validators: dict[tuple[str, str, int, str], jsonschema.Draft7Validator] = {}
        self.routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"), operations)
            for template, operations in self.schema["paths"].items()
        ]

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        for (pattern, operations), template in zip(self.routes, self.schema["paths"], strict=True):
            if pattern.match(path) and method.lower() in operations:
                return template, dict(operations[method.lower()])
        raise AssertionError(f"{method} {path} is not in the schema")

    def validate(
        self, method: str, path: str, status: int, body: Any, media_type: str = JSON
    ) -> None:
        """Fail unless the schema declares this status for the operation, with this media type,
        and the body fits it (a body of another media type than JSON is checked as text)."""
        template, operation = self.operation(method, path)
        responses = operation["responses"]
        assert str(status) in responses, f"{method} {path}: {status} is not declared"
        content = responses[str(status)].get("content")
        if content is None:
            assert body is None, f"{method} {path}: {status} declares no body"
        else:
            assert media_type in content, f"{method} {path} {status}: {media_type} is not declared"
            key = (method, template, status, media_type)
            if key not in self._validators:
                declared = _strict(content[media_type]["schema"])
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
        self.check.validate("GET", path, response.status_code, *_body(response))
        return response

    def post(self, path: str, body: Any = None) -> Any:
        response = self.send(self.client, path, body)
        self.check.validate("POST", path, response.status_code, *_body(response))
        return response


def _body(response: Any) -> tuple[Any, str]:
    """The body as the schema describes it (JSON, or text for another media type) and its
    media type. A streamed body is read whole and kept, so that the test can read it again."""
    media_type = response.get("Content-Type", JSON).split(";")[0].strip()
    if response.streaming:
        content = b"".join(response.streaming_content)
        response.streaming_content = [content]
    else:
        content = response.content
    if not content:
        return None, media_type
    return (response.json() if media_type == JSON else content.decode()), media_type


def load(client: APIClient) -> SchemaCheck:
    """The schema as the server serves it."""
    response = client.get("/api/v1/schema", {"format": "json"})
    assert response.status_code == 200
    return SchemaCheck(response.json())
