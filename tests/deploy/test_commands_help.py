"""Every management command of the project explains itself: ``--help`` has a sentence for the
command and one for each of its options and arguments."""

import argparse

import pytest
from django.core.management import get_commands, load_command_class

PROJECT_APPS = ("accounts", "eventstore", "games", "campaigns", "api", "moon")
OURS = sorted((name, app) for name, app in get_commands().items() if app in PROJECT_APPS)


def test_the_project_has_its_commands() -> None:
    assert {"simulate", "import_game", "import_campaign", "verify_events", "validate_pack"} <= {
        name for name, _ in OURS
    }


@pytest.mark.parametrize(("name", "app"), OURS, ids=[name for name, _ in OURS])
def test_every_option_of_every_command_has_help(name: str, app: str) -> None:
    command = load_command_class(app, name)
    assert command.help.strip(), f"{name} has no help"
    parser = command.create_parser("manage.py", name)
    unexplained = [
        action.dest
        for action in parser._actions
        if action.help in (None, "") and action.help is not argparse.SUPPRESS
    ]
    assert unexplained == [], f"{name}: options without help: {unexplained}"
