"""Exports imported again: `manage.py import_game FILE` checks the hash chain, plays every event
again through the rules engine and stores a new finished game; anything else is refused with
the number of the line at fault, and nothing is stored."""

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventstore import chain, store
from games import history
from games.models import Event, Game, Seat
from games.rules.adventures import PLAYABLE
from tests.games.histories import finished_game, player

pytestmark = pytest.mark.django_db


def export_of(game: Game) -> list[str]:
    return list(history.history_lines(game=game))


def unsigned(lines: list[str]) -> list[str]:
    """The lines without the header's seal, as an export made before histories were signed."""
    header = json.loads(lines[0])
    header.pop("seal", None)
    return [json.dumps(header, ensure_ascii=False) + "\n", *lines[1:]]


def rechained(lines: list[str], *, keep_seal: bool = False) -> list[str]:
    """The lines with every hash recomputed: what a forger who knows the rule would send, with
    no seal (which they cannot make) unless ``keep_seal``."""
    out, prev = [lines[0] if keep_seal else unsigned(lines)[0]], chain.GENESIS
    for line in lines[1:]:
        event = json.loads(line)
        fields = {name: event[name] for name in ("seq", "turn", "seat", "kind", "data")}
        event["prev_hash"], event["hash"] = prev, chain.link(prev, fields)
        prev = event["hash"]
        out.append(json.dumps(event, ensure_ascii=False) + "\n")
    return out


def refused(lines: list[str]) -> history.ImportRefused:
    games, events = Game.objects.count(), Event.objects.count()
    with pytest.raises(history.ImportRefused) as caught:
        history.import_game(lines=lines)
    assert (Game.objects.count(), Event.objects.count()) == (games, events)  # nothing stored
    return caught.value


def line_of(lines: list[str], kind: str, nth: int = 0) -> int:
    """The index in ``lines`` of the nth event line of ``kind``."""
    found = [i for i, line in enumerate(lines) if i and json.loads(line)["kind"] == kind]
    return found[nth]


def edited(lines: list[str], index: int, change: Any) -> list[str]:
    event = json.loads(lines[index])
    change(event)
    return [*lines[:index], json.dumps(event, ensure_ascii=False) + "\n", *lines[index + 1 :]]


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_an_export_imports_as_the_same_finished_game(
    adventure: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = finished_game(adventure, players=3, seed=adventure)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(export_of(original)), encoding="utf-8")

    call_command("import_game", str(path), "--copy")

    copy = Game.objects.exclude(pk=original.pk).get()
    assert f"as game {copy.pk}: adventure {adventure}, 3 player(s)" in capsys.readouterr().out
    assert copy.status == Game.Status.FINISHED and copy.seed == original.seed
    assert list(Seat.objects.filter(game=copy).values_list("index", "user__username")) == [
        (0, "ann"), (1, "ben"), (2, "cy")
    ]
    fields = ("seq", "turn", "seat", "kind", "version", "data", "hash")
    assert [[getattr(e, name) for name in fields] for e in Event.objects.filter(game=copy)] == [
        [getattr(e, name) for name in fields] for e in Event.objects.filter(game=original)
    ]
    assert copy.snapshot.state["result"] == original.snapshot.state["result"]
    assert [report.broken for report in store.verify(Event, stream_id=copy.pk)] == [None]
    # its own export is the same history, but for the game's id, the times of storing, and its
    # seal: this server signed the copy under its own id, over the same last hash
    def history_of(lines: list[str]) -> list[Any]:
        return [{k: v for k, v in json.loads(line).items() if k not in ("game", "created_at", "seal")}
                for line in lines]

    assert history_of(export_of(copy)) == history_of(export_of(original))
    seal, copied_seal = (json.loads(export_of(game)[0])["seal"] for game in (original, copy))
    assert copied_seal["id"] == copy.pk
    assert (copied_seal["seq"], copied_seal["hash"]) == (seal["seq"], seal["hash"])


def test_a_solo_game_and_a_bot_seat_import_as_they_were_played() -> None:
    solo = finished_game(6, players=1, seed=8, astra_level=5)
    imported = history.import_game(lines=export_of(solo), copy=True).game
    assert (imported.max_players, imported.astra_level) == (1, 5)
    assert imported.snapshot.state["result"] == solo.snapshot.state["result"]
    battle = finished_game(8, players=1, seed=8, astra_level=3)  # with the player's choices for ASTRA
    assert history.import_game(lines=export_of(battle), copy=True).game.snapshot.state["result"] == (
        battle.snapshot.state["result"]
    )
    with_bot = finished_game(3, players=3, seed=9, bot_seats=(1,))
    lines = export_of(with_bot)
    assert json.loads(lines[0])["seats"][1] == {"seat": 1, "bot": "greedy"}
    copy = history.import_game(lines=lines, copy=True).game
    assert list(Seat.objects.filter(game=copy).values_list("index", "user__username", "bot")) == [
        (0, "ann", ""), (1, None, "greedy"), (2, "cy", "")
    ]


def recorded_export(path: Path) -> list[str]:
    """An export of a game recorded under earlier rules (tests/fixtures/logs_v1), chained as the
    server chains stored events."""
    recorded = json.loads(path.read_text())
    events = recorded["events"]
    names = ("ann", "ben", "cy", "dee", "eve", "fay")[: recorded["players"]]
    seats = [{"seat": index, "username": name} for index, name in enumerate(names)]
    header = {"format": history.FORMAT, "game": 1, "adventure": recorded["adventure"],
              "players": recorded["players"], "seats": seats}  # fmt: skip
    lines, prev = [json.dumps(header) + "\n"], chain.GENESIS
    for seq, event in enumerate(events, start=1):
        fields = {"seq": seq, "turn": event["turn"], "seat": event["seat"], "kind": event["kind"],
                  "data": event["data"]}  # fmt: skip
        digest = chain.link(prev, fields)
        line = {**fields, "v": event.get("v", 1), "created_at": "2026-11-01T10:00:00+00:00",
                "prev_hash": prev, "hash": digest}  # fmt: skip
        lines.append(json.dumps(line) + "\n")
        prev = digest
    return lines


LOGS_V1 = sorted((Path(__file__).parents[1] / "fixtures" / "logs_v1").glob("*.json"))


@pytest.mark.parametrize("path", LOGS_V1, ids=lambda path: path.stem)
def test_a_game_recorded_under_earlier_rules_imports_with_replay_only(path: Path) -> None:
    """Today's engine deals and ends some of these games differently, so the strict import may
    refuse them; replay-only checks each event against its kind's schema and the result."""
    lines = recorded_export(path)
    imported = history.import_game(lines=lines, strict=False)
    assert imported.game.snapshot.state["result"] == json.loads(path.read_text())["expected"]["result"]
    assert imported.events == len(lines) - 1
    tampered = edited(lines, len(lines) - 1, lambda event: event["data"]["scores"][0].update(total=-1))
    with pytest.raises(history.ImportRefused, match="the result differs from the replay"):
        history.import_game(lines=rechained(tampered), strict=False)


def test_players_unknown_here_get_inactive_accounts(capsys: pytest.CaptureFixture[str]) -> None:
    lines = export_of(finished_game(1, names=("ann", "ben")))
    header = json.loads(lines[0])
    header["seats"][1]["username"] = "zoé"
    imported = history.import_game(lines=[json.dumps(header) + "\n", *lines[1:]], copy=True)
    assert imported.new_accounts == ["zoé"]
    zoe = User.objects.get(username="zoé")
    assert not zoe.is_active and not zoe.has_usable_password()
    assert Seat.objects.get(game=imported.game, index=1).user == zoe
    assert Seat.objects.get(game=imported.game, index=0).user == player("ann")


@pytest.fixture
def exported() -> list[str]:
    """A finished two-player Launch game's export, for the refusals below."""
    return export_of(finished_game(1, seed=4))


def test_a_changed_byte_in_a_line_is_refused_naming_that_line(exported: list[str]) -> None:
    index = line_of(exported, "number_written", 3)
    event = json.loads(exported[index])
    number = event["data"]["number"]
    text = exported[index].replace(f'"number":{number}', f'"number":{(number + 1) % 10}')
    assert text != exported[index]
    caught = refused([*exported[:index], text, *exported[index + 1 :]])
    assert caught.line == index + 1
    assert f"event {event['seq']} (number_written) does not hash to its stored hash" in caught.detail


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_byte_changed_in_what_the_chain_covers_is_refused_at_its_line(
    exported: list[str], data: st.DataObject
) -> None:
    index = data.draw(st.integers(1, len(exported) - 1), label="line")
    raw = exported[index].encode()
    # created_at is outside the chain (as specified), and so is v: leave both alone
    outside = [raw.index(b'"created_at":'), raw.index(b'"prev_hash":')]
    v_at = raw.index(b'"v":')
    covered = [
        i for i in range(len(raw) - 1) if not outside[0] <= i < outside[1] and not v_at <= i < v_at + 6
    ]
    position = data.draw(st.sampled_from(covered), label="byte")
    byte = data.draw(st.integers(32, 126).filter(lambda b: b != raw[position]), label="new byte")
    changed = (raw[:position] + bytes([byte]) + raw[position + 1 :]).decode()
    assert refused([*exported[:index], changed, *exported[index + 1 :]]).line == index + 1


@pytest.mark.parametrize(("field", "value"), [("turn", 40_000), ("seat", 2**15), ("seq", 2**31), ("v", -1)])
def test_a_number_no_column_can_hold_is_refused_on_its_line(
    exported: list[str], field: str, value: int
) -> None:
    index = line_of(exported, "confirmed")
    caught = refused(edited(exported, index, lambda event: event.update({field: value})))
    assert caught.line == index + 1
    assert f"{field} is a whole number from 0 to" in caught.detail


def test_a_missing_event_is_refused_where_the_gap_is(exported: list[str]) -> None:
    caught = refused([*exported[:30], *exported[31:]])
    assert (caught.line, caught.detail) == (31, "event 31 comes where event 30 should: event 30 is missing.")


def test_a_move_the_rules_do_not_allow_is_refused_even_with_a_good_chain(exported: list[str]) -> None:
    index = line_of(exported, "number_written", 5)

    def impossible(event: dict[str, Any]) -> None:
        event["data"]["number"] = 99

    caught = refused(rechained(edited(exported, index, impossible)))
    assert caught.line == index + 1
    assert "is not what any move, undo or confirm of seat" in caught.detail


def test_a_result_that_differs_from_the_replay_is_refused(exported: list[str]) -> None:
    last = len(exported) - 1

    def richer(event: dict[str, Any]) -> None:
        event["data"]["scores"][0]["total"] += 10

    caught = refused(rechained(edited(exported, last, richer)))
    assert caught.line == last + 1
    assert caught.detail.startswith("the result differs from the replay")


def test_a_game_cut_before_its_result_is_refused(exported: list[str]) -> None:
    caught = refused(unsigned(exported)[:-1])
    assert (caught.line, caught.detail) == (len(exported) - 1, "the log ends before the game's result.")
    caught = refused(exported[:-1])  # signed: the history is not the one signed
    assert caught.line == 1 and "signature is refused" in caught.detail


@pytest.mark.parametrize(
    ("index", "text", "line", "detail"),
    [
        (0, '{"format": "other/9"}\n', 1, "the header is an object with exactly"),
        (5, "{not json\n", 6, "not a JSON object"),
        (5, "\n", 6, "an empty line inside the export."),
        (7, '{"seq": 7}\n', 8, "an event line is an object with exactly"),
    ],
)
def test_lines_that_are_not_an_export_are_refused(
    exported: list[str], index: int, text: str, line: int, detail: str
) -> None:
    caught = refused([*exported[:index], text, *exported[index + 1 :]])
    assert caught.line == line and caught.detail.startswith(detail)


def test_a_header_that_misnames_the_game_is_refused(exported: list[str]) -> None:
    def three_players(header: dict[str, Any]) -> None:
        header["players"] = 3

    caught = refused(edited(exported, 0, three_players))
    assert caught.line == 1 and "the game has 2" in caught.detail


def test_a_game_already_stored_is_refused_with_its_id_unless_imported_as_a_copy(
    exported: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = Game.objects.get()
    path = tmp_path / "again.jsonl"
    path.write_text("".join(exported), encoding="utf-8")
    already = rf"line {len(exported)}: this game is already stored here as game {original.pk} "
    with pytest.raises(CommandError, match=already):
        call_command("import_game", str(path))
    assert Game.objects.count() == 1
    capsys.readouterr()
    call_command("import_game", str(path), "--copy")
    copy = Game.objects.exclude(pk=original.pk).get()
    captured = capsys.readouterr()
    events = len(exported) - 1
    assert f"as game {copy.pk}: adventure 1, 2 player(s), {events} events, finished" in captured.out
    # without a terminal, the progress is a plain line on stderr
    assert f"checking again.jsonl: {len(exported) - 1}/{len(exported) - 1} (100%) events" in captured.err


def test_the_command_says_why_and_stores_nothing(exported: list[str], tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(exported[:-1]), encoding="utf-8")
    games = Game.objects.count()
    refusal = "refused, nothing stored: line 1: its signature is refused: the history is not the one signed"
    with pytest.raises(CommandError, match=refusal):
        call_command("import_game", str(path))
    assert Game.objects.count() == games
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_game", str(tmp_path / "absent.jsonl"))


@pytest.mark.parametrize(
    "username",
    ["<b>ann</b>", "a" * 400, "ann\x00", "\ufdfa" * 9, "two words"],
)
def test_a_header_username_no_account_may_have_is_refused_on_its_line(
    exported: list[str], username: str
) -> None:
    def renamed(header: dict[str, Any]) -> None:
        header["seats"][1]["username"] = username

    accounts = User.objects.count()
    caught = refused(edited(exported, 0, renamed))
    assert caught.line == 1 and caught.detail.startswith("seat 1: the username")
    assert User.objects.count() == accounts


def test_a_line_nested_too_deep_is_refused_with_its_number(exported: list[str], tmp_path: Path) -> None:
    deep = '{"seq": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    caught = refused([*exported[:3], deep, *exported[4:]])
    assert (caught.line, caught.detail) == (4, "nested deeper than 32 levels.")
    path = tmp_path / "deep.jsonl"
    path.write_text("".join([*exported[:3], deep, *exported[4:]]), encoding="utf-8")
    with pytest.raises(CommandError, match="line 4: nested deeper than 32 levels"):
        call_command("import_game", str(path))
    somewhat = '{"seq": ' + "[" * 40 + "]" * 40 + "}\n"  # within Python's own limits, still refused
    assert refused([*exported[:3], somewhat, *exported[4:]]).line == 4
