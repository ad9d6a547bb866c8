"""Fixtures for the browser suite: the C apps (provider_client, email_link_client), headless Chromium
driven through Debian's chromedriver, and the emulator started by scripts/with-emulator.

Nothing here skips: a machine without Chromium, its driver or selenium fails the suite (make deps
installs them)."""

import os
import queue
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options as ChromeOptions
    from selenium.webdriver.chrome.service import Service as ChromeService
except ImportError as error:  # collection must fail loudly, not skip
    raise ImportError(f"selenium is missing ({error}); run `make deps`") from error

ROOT = Path(__file__).resolve().parents[2]
# Lines from the C app arrive within this time (the flow itself may take longer: a person is typing).
LINE_TIMEOUT = 30


@pytest.fixture(scope="session")
def emulator_url():
    url = os.environ.get("HEARTH_EMULATOR_URL")
    if not url or not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        pytest.fail("run the browser suite under scripts/with-emulator (HEARTH_EMULATOR_URL is not set)")
    return url.rstrip("/")


@pytest.fixture(scope="session")
def provider_client_binary():
    """The C app, from `make test-browser` (HEARTH_PROVIDER_CLIENT) or built here through make."""
    given = os.environ.get("HEARTH_PROVIDER_CLIENT")
    if given:
        if not os.access(given, os.X_OK):
            pytest.fail(f"HEARTH_PROVIDER_CLIENT={given} is not an executable")
        return given
    build = subprocess.run(["make", "-s", "out/provider_client"], cwd=ROOT, capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"building out/provider_client failed:\n{build.stdout}{build.stderr}")
    return str(ROOT / "out" / "provider_client")


@pytest.fixture(scope="session")
def email_link_client_binary():
    """The C app that mails itself a sign-in link, from `make test-browser` (HEARTH_EMAIL_LINK_CLIENT) or
    built here through make."""
    given = os.environ.get("HEARTH_EMAIL_LINK_CLIENT")
    if given:
        if not os.access(given, os.X_OK):
            pytest.fail(f"HEARTH_EMAIL_LINK_CLIENT={given} is not an executable")
        return given
    build = subprocess.run(["make", "-s", "out/email_link_client"], cwd=ROOT, capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"building out/email_link_client failed:\n{build.stdout}{build.stderr}")
    return str(ROOT / "out" / "email_link_client")


def _required_program(*names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    pytest.fail(f"{' or '.join(names)} is not installed; run `make deps` (apt: chromium chromium-driver)")


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """One headless Chromium for the suite, with a throwaway profile."""
    chromium = _required_program("chromium", "chromium-browser")
    chromedriver = _required_program("chromedriver")
    options = ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-dev-shm-usage", "--window-size=1024,900",
                     f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=ChromeService(executable_path=chromedriver), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture
def start_client(provider_client_binary, emulator_url):
    """Starts provider_client with the given arguments; every client is stopped after the test."""
    clients = []

    def start(*arguments):
        client = ProviderClient(provider_client_binary, arguments)
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.stop()


@dataclass
class FlowResult:
    code: int
    uid: str
    provider_id: str
    user_name: str
    message: str


class ProviderClient:
    """The running C app: reads its stdout lines on a thread so the test can wait with a timeout."""

    def __init__(self, binary, arguments):
        self.arguments = arguments
        self.process = subprocess.Popen([binary, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, keyword, timeout=LINE_TIMEOUT):
        """The rest of the next line that starts with `keyword`."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"provider_client {self.arguments}: no {keyword} line within {timeout} s; "
                                     f"lines so far: {self.seen}") from None
            if line is None:
                self.process.wait(timeout=5)
                raise AssertionError(f"provider_client {self.arguments} ended (status {self.process.returncode}) "
                                     f"without a {keyword} line; lines: {self.seen}; "
                                     f"stderr: {self.process.stderr.read()}")
            self.seen.append(line)
            name, _, rest = line.partition(" ")
            if name == keyword:
                return rest

    def open_url(self):
        return self.expect("OPEN")

    def result(self):
        code, uid, provider_id, user_name = self.expect("RESULT").split(" ", 3)
        message = self.expect("MESSAGE") if code != "0" else ""
        return FlowResult(int(code), uid, provider_id, user_name, message)

    def credential(self):
        """The CREDENTIAL line (--credential): (code, provider id, message)."""
        code, provider_id = self.expect("CREDENTIAL").split(" ", 1)
        message = self.expect("MESSAGE") if code != "0" else ""
        return int(code), provider_id, message

    def user(self):
        """The USER line as a dict: anonymous (bool), providers (list); None when signed out."""
        line = self.expect("USER")
        if line == "none":
            return None
        fields = dict(part.split("=", 1) for part in line.split(" "))
        providers = [] if fields["providers"] == "-" else fields["providers"].split(",")
        return {"anonymous": fields["anonymous"] == "1", "providers": providers}

    def finish(self):
        status = self.process.wait(timeout=LINE_TIMEOUT)
        assert status == 0, f"provider_client exited with {status}: {self.process.stderr.read()}"

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def console(browser, emulator_url):
    """The web console in the suite's browser, on a project of its own; uncaught script errors fail the test."""
    from console_support import ERROR_COLLECTOR, ConsolePage, unique

    collector = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_COLLECTOR})
    page = ConsolePage(browser, emulator_url, unique("console-"))
    try:
        yield page
        if browser.current_url.startswith(f"{emulator_url}/emulator/ui/"):
            assert page.page_errors() == [], f"the console page raised: {page.page_errors()}"
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": collector["identifier"]})
        page.admin.close()
