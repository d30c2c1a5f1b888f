"""Debian's chromium, headless, through its own ``/usr/bin/chromedriver`` (selenium never downloads a driver: the path
is given and ``SE_OFFLINE`` is set), with every host name but the loopback interface unresolvable."""
import contextlib
import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WINDOW = (1400, 1000)


def require_chromium():
    """Fail (never skip) with the cure when the browser or selenium is missing."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: apt-get install -y chromium chromium-driver (.ci/run does it)")
    try:
        import selenium  # noqa: F401
    except ImportError as error:
        pytest.fail(f"{error}: pip install -r requirements-site.txt (.ci/run does it)")


@contextlib.contextmanager
def chromium(window=WINDOW):
    """A selenium driver of headless chromium, quit on leaving the block."""
    require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    previous = os.environ.get("SE_OFFLINE")
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={window[0]},{window[1]}", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--hide-scrollbars",
                     "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        if previous is None:
            os.environ.pop("SE_OFFLINE", None)
        else:
            os.environ["SE_OFFLINE"] = previous
