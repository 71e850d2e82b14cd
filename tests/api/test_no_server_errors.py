"""Whatever JSON a client sends, the answer is never a server error, and a refusal appends
nothing to the game's history."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import Event

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
choice_fields = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["write", "system_error", "activate", "build", "skip"]) | json_values,
        "combination": st.integers(-2, 4) | json_values,
        "space": st.sampled_from(["f1.s1", "f3.s10", "f9.s3", "err.1"]) | json_values,
        "number": st.integers(-1, 18) | json_values,
        "box": st.sampled_from(["err.1", "err.8", "tb.1"]) | json_values,
        "effect": st.sampled_from(["f1.q1.building", "f9.q1.activation"]) | json_values,
        "arrow": st.sampled_from(["f7.q2.arrow", "f4.q1.arrow"]) | json_values,
    },
)
bodies = st.fixed_dictionaries({"choice": choice_fields}) | json_values


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies)
def test_any_move_body_gets_a_json_answer_below_500(playing_game: int, alice: APIClient, body: Any) -> None:
    before = Event.objects.filter(game_id=playing_game).count()
    response = alice.post(f"/api/v1/games/{playing_game}/moves", body, format="json")
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        answer = response.json()
        assert answer["code"] and answer["detail"]
        assert Event.objects.filter(game_id=playing_game).count() == before


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=st.fixed_dictionaries({}, optional={"adventure": json_values, "max_players": json_values}))
def test_any_game_creation_body_gets_a_json_answer_below_500(alice: APIClient, body: Any) -> None:
    response = alice.post("/api/v1/games", body, format="json")
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response.json()["code"]


@pytest.mark.parametrize(
    "raw", ['{"choice": Infinity}', '{"choice": NaN}', "{not json", '"just a string"', "[]", ""]
)
def test_malformed_json_is_a_400(playing_game: int, alice: APIClient, raw: str) -> None:
    before = Event.objects.filter(game_id=playing_game).count()
    response = alice.generic(
        "POST", f"/api/v1/games/{playing_game}/moves", raw, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["code"]
    assert Event.objects.filter(game_id=playing_game).count() == before
