"""Touches to the generated OpenAPI schema that the views cannot express themselves."""

from typing import Any

from api.ids import MAX_ID

# Path ids are routed as strings so that any other spelling is a 404 (see api/ids.py); what the
# API takes is a plain whole number.
ID_PARAMETERS = {"game_id", "sheet", "campaign_id", "seat"}


def integer_path_ids(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: declare id path parameters as integers."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") in ID_PARAMETERS:
                    parameter["schema"] = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
    return result
