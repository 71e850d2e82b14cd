"""GET /games/{id}/sheets/{n}.svg: a sheet drawn as SVG, showing a seat what /sheets/{n} shows it."""

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

MARKED = re.compile(r'data-element="([^"]+)" data-mark="([^"]*)"')


def marks_drawn(client: APIClient, game_id: int, sheet: int) -> dict[str, str]:
    response = client.get(f"/api/v1/games/{game_id}/sheets/{sheet}.svg")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    return dict(MARKED.findall(svg))


def marks_listed(client: APIClient, game_id: int, sheet: int) -> dict[str, str]:
    marks = client.get(f"/api/v1/games/{game_id}/sheets/{sheet}").json()["marks"]
    return {element: str(mark) for element, mark in marks.items()}


def test_a_seat_sees_drawn_what_the_sheet_shows_it(
    playing_game: int, alice: APIClient, bob: APIClient, post: Any
) -> None:
    option = bob.get(f"/api/v1/games/{playing_game}/decision").json()["options"][0]
    assert post(bob, f"/api/v1/games/{playing_game}/moves", {"choice": option}).status_code == 200
    while options := bob.get(f"/api/v1/games/{playing_game}/decision").json()["options"]:
        post(bob, f"/api/v1/games/{playing_game}/moves", {"choice": options[0]})

    bob_sees = marks_drawn(bob, playing_game, 1)
    assert bob_sees and bob_sees == marks_listed(bob, playing_game, 1)
    # Bob's unconfirmed marks are not drawn for Alice, as they are not listed for her.
    assert marks_drawn(alice, playing_game, 1) == marks_listed(alice, playing_game, 1) == {}
    # Every element of the sheet is drawn with its id, marked or not: a front end clicks on them.
    svg = alice.get(f"/api/v1/games/{playing_game}/sheets/1.svg").content.decode()
    assert f'data-element="{option["space"]}"' in svg


def test_an_outsider_gets_a_404(playing_game: int, dave: APIClient) -> None:
    response = dave.get(f"/api/v1/games/{playing_game}/sheets/0.svg")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("sheet", ["3", "x", "-1"])
def test_a_sheet_out_of_range_is_a_json_404(playing_game: int, alice: APIClient, sheet: str) -> None:
    response = alice.get(f"/api/v1/games/{playing_game}/sheets/{sheet}.svg")
    assert response.status_code == 404
    assert response.json()["code"] == "sheet_not_found"


def test_signed_out_is_a_401(playing_game: int, anon: APIClient) -> None:
    assert anon.get(f"/api/v1/games/{playing_game}/sheets/0.svg").status_code == 401


@pytest.mark.parametrize(
    ("seq", "status", "code"), [("1", 409, "game_not_finished"), ("0", 400, "invalid_request")]
)
def test_a_step_of_a_game_not_finished_is_refused(
    playing_game: int, alice: APIClient, seq: str, status: int, code: str
) -> None:
    response = alice.get(f"/api/v1/games/{playing_game}/sheets/0.svg", {"seq": seq})
    assert response.status_code == status
    assert response.json()["code"] == code
