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


# The name of each operation, as a person would call it (generated clients name their methods so).
OPERATION_IDS = {
    ("/api/v1/", "get"): "getIndex",
    ("/api/v1/health", "get"): "getHealth",
    ("/api/v1/history-key", "get"): "getHistoryKey",
    ("/api/v1/lobby", "get"): "listLobby",
    ("/api/v1/auth/register", "post"): "register",
    ("/api/v1/auth/token", "post"): "signIn",
    ("/api/v1/auth/logout", "post"): "signOut",
    ("/api/v1/auth/logout-all", "post"): "signOutEverywhere",
    ("/api/v1/games", "get"): "listGames",
    ("/api/v1/games", "post"): "createGame",
    ("/api/v1/games/{game_id}", "get"): "getGame",
    ("/api/v1/games/{game_id}/join", "post"): "joinGame",
    ("/api/v1/games/{game_id}/leave", "post"): "leaveGame",
    ("/api/v1/games/{game_id}/seats/{seat}/remove", "post"): "removeSeat",
    ("/api/v1/games/{game_id}/bots", "post"): "addBot",
    ("/api/v1/games/{game_id}/start", "post"): "startGame",
    ("/api/v1/games/{game_id}/decision", "get"): "getDecision",
    ("/api/v1/games/{game_id}/moves", "post"): "postMove",
    ("/api/v1/games/{game_id}/undo", "post"): "undoTurn",
    ("/api/v1/games/{game_id}/confirm", "post"): "confirmTurn",
    ("/api/v1/games/{game_id}/resign", "post"): "resignSeat",
    ("/api/v1/games/{game_id}/sheets/{sheet}", "get"): "getSheet",
    ("/api/v1/games/{game_id}/sheets/{sheet}.svg", "get"): "getSheetSvg",
    ("/api/v1/games/{game_id}/events", "get"): "listEvents",
    ("/api/v1/games/{game_id}/stream", "get"): "streamGame",
    ("/api/v1/games/{game_id}/stream-ticket", "post"): "getStreamTicket",
    ("/api/v1/games/{game_id}/replay", "get"): "getReplay",
    ("/api/v1/games/{game_id}/export", "get"): "exportGame",
    ("/api/v1/campaigns", "get"): "listCampaigns",
    ("/api/v1/campaigns", "post"): "createCampaign",
    ("/api/v1/campaigns/{campaign_id}", "get"): "getCampaign",
    ("/api/v1/campaigns/{campaign_id}/join", "post"): "joinCampaign",
    ("/api/v1/campaigns/{campaign_id}/leave", "post"): "leaveCampaign",
    ("/api/v1/campaigns/{campaign_id}/seats/{seat}/remove", "post"): "removeCampaignSeat",
    ("/api/v1/campaigns/{campaign_id}/bots", "post"): "addCampaignBot",
    ("/api/v1/campaigns/{campaign_id}/start", "post"): "startCampaign",
    ("/api/v1/campaigns/{campaign_id}/decision", "get"): "getCampaignDecision",
    ("/api/v1/campaigns/{campaign_id}/moves", "post"): "postCampaignMove",
    ("/api/v1/campaigns/{campaign_id}/events", "get"): "listCampaignEvents",
    ("/api/v1/campaigns/{campaign_id}/stream", "get"): "streamCampaign",
    ("/api/v1/campaigns/{campaign_id}/stream-ticket", "post"): "getCampaignStreamTicket",
    ("/api/v1/campaigns/{campaign_id}/export", "get"): "exportCampaign",
}


def operation_ids(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: each operation's id from ``OPERATION_IDS`` (a new
    endpoint without one fails the schema's generation, so that none gets a generated name)."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            operation["operationId"] = OPERATION_IDS[path, method]
    return result

