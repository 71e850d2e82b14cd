"""The shared tail of a campaign's log (what every open stream of a campaign in a process reads
from): after each event appended, each seat's follower gets exactly what `/events` adds to its
feed and, when it grew, its decision as `/decision` answers it, in one query a look (none when
it is handed the rows a commit of its process appended)."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import library, selectors
from campaigns.models import Campaign, CampaignEvent, CampaignSeat
from campaigns.rules import events
from campaigns.rules.events import Event
from eventstore import notify, store
from tests.campaigns import flow
from tests.games.histories import player

SEATS = 2


def campaign_log(monkeypatch: pytest.MonkeyPatch) -> list[Event]:
    """The events of a 2-seat campaign of the open pack through its first chapter, the choices
    after it and into the second, as the rules make them."""
    made: list[Event] = []
    applying = flow.apply

    def recording(state: Any, new: Any) -> list[Event]:
        applied = applying(state, new)
        made.extend(applied)
        return applied

    monkeypatch.setattr(flow, "apply", recording)
    state = flow.started(SEATS, flow.OPEN_V2, rules_version=2)
    flow.end_chapter(state, flow.by_ranks(1, 2), flow.OPEN_V2)
    flow.settle(state, pack=flow.OPEN_V2)
    return made


def append(campaign: Campaign, event: Event, *, version: int) -> list[CampaignEvent]:
    """Append ``event`` after event ``version``, as a command does."""
    return store.append(
        CampaignEvent, campaign, [event], version=version, actor_id=None, schema_problem=events.schema_problem
    )


@pytest.mark.django_db
def test_each_follower_gets_what_its_feed_gains_after_every_event(monkeypatch: pytest.MonkeyPatch) -> None:
    log = campaign_log(monkeypatch)
    assert len(log) > 8
    users = [player(name) for name in ("ann", "ben")]
    campaign = Campaign.objects.create(
        pack=library.record(flow.OPEN_V2), max_players=SEATS, creator=users[0], seed=7,
        status=Campaign.Status.PLAYING,
    )  # fmt: skip
    CampaignSeat.objects.bulk_create(
        CampaignSeat(campaign=campaign, user=user, index=i) for i, user in enumerate(users)
    )
    append(campaign, log[0], version=0)
    tail = selectors.CampaignTail(campaign.pk)
    after = dict.fromkeys(range(SEATS), 1)
    tail.catch_up({(seat, 1) for seat in range(SEATS)})
    late: selectors.CampaignTail | None = None
    # a tail handed each commit's rows after its first look
    handed = selectors.CampaignTail(campaign.pk)
    handed.catch_up({(seat, 1) for seat in range(SEATS)})
    for index, event in enumerate(log[1:], start=1):
        rows = append(campaign, event, version=index)
        commit = notify.following([notify.Commit(rows, campaign)], after=handed.position, latest=index + 1)
        with CaptureQueriesContext(connection) as queries:
            handed_answers = handed.catch_up({(seat, after[seat]) for seat in range(SEATS)}, commit)
        assert not queries.captured_queries
        if index == 5:  # a stream opened mid-campaign: its first look reads the log from the start
            late = selectors.CampaignTail(campaign.pk)
            assert late.catch_up({(0, index - 1)})[(0, index - 1)] is None  # behind: read in full
        with CaptureQueriesContext(connection) as queries:
            answers = tail.catch_up({(seat, after[seat]) for seat in range(SEATS)})
        assert len(queries) == 1
        assert handed_answers == answers, f"handed after event {index + 1}"
        if late is not None and index > 5:
            late_answers = late.catch_up({(seat, index) for seat in range(SEATS)})
        for seat, user in enumerate(users):
            answer = answers[(seat, after[seat])]
            assert answer is not None
            page = selectors.events_page(campaign=campaign, viewer=user, after=after[seat], limit=500)
            assert answer.events == page["events"] and answer.after == page["version"] == index + 1
            assert answer.decision == selectors.decision_view(campaign=campaign, viewer=user)
            if late is not None and index > 5:
                late_answer = late_answers[(seat, index)]
                assert late_answer is not None and late_answer.events == page["events"]
                assert late_answer.decision == answer.decision
            after[seat] = answer.after
    # a follower already at the end gets nothing, and no decision
    answers = tail.catch_up({(0, after[0])})
    assert answers[(0, after[0])] == selectors.game_selectors.Catchup([], None, after[0], False)
