"""The rules tests: plain assertions in the helper modules get pytest's detailed failures too."""

import pytest

pytest.register_assert_rewrite(
    "tests.rules.playing",
    "tests.rules.launch_helpers",
    "tests.rules.journey_helpers",
    "tests.rules.colony_helpers",
    "tests.rules.mine_helpers",
)
