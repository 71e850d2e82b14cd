"""Browser mode: Debian's headless Chromium, driven through Selenium and Debian's chromedriver
(Selenium's own driver download is never used: both paths are given). `make test-browser` runs
these tests with MOON_BROWSER=1; elsewhere they are skipped (tests/conftest.py).

The launch flags are those that work on a sandboxless build machine; every session gets a fresh
profile, and logs the DevTools Network events (read by tests/browser/traffic.py). Screenshots go
to var/browser/.
"""

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "var" / "browser"
CHROMIUM = os.environ.get("MOON_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MOON_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1500,1200",
)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium with a fresh profile of its own, closed when the block ends."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed: `make test-browser` installs the `browser` extra")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.skip(f"{path} is missing: apt-get install chromium chromium-driver")
    profile = tempfile.mkdtemp(prefix="moon-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    # the DevTools Network events, for what the page received (tests/browser/traffic.py)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (each test signs in again)."""
    with chromium() as driver:
        yield driver
