"""The console page in the suite's Chromium: opening it on a project, waiting for what a person would
see, the emulator's REST surface beside it (to set up accounts and to check what the page changed),
the clipboard and downloads, and screenshots for docs/emulator-ui.md."""

import json
import os
import shutil
import time
import uuid
from pathlib import Path

import requests
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
IDENTITY = "/identitytoolkit.googleapis.com/v1"
API_KEY = "fake-api-key"
DEFAULT_PROJECT = os.environ.get("HEARTH_PROJECT", "demo-hearth")
WAIT = 15
# Every screenshot lands here; `make console-screenshots` also copies them into docs/emulator-ui/.
SCREENSHOTS = ROOT / "out" / "browser" / "console"
SCREENSHOT_WIDTH = 1200
SCREENSHOT_MAX_HEIGHT = 800

# Collects the page's uncaught errors from before its first script runs (the CSP does not apply to
# what DevTools evaluates), so every test can insist the page ran without one.
ERROR_COLLECTOR = """
window.__pageErrors = [];
window.__xss = [];
window.__cspViolations = [];
addEventListener('error', (event) => window.__pageErrors.push(String(event.message || event.type)));
addEventListener('unhandledrejection', (event) => window.__pageErrors.push(String(event.reason && event.reason.message || event.reason)));
document.addEventListener('securitypolicyviolation', (event) => window.__cspViolations.push(event.violatedDirective));
"""


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def unique_phone() -> str:
    return f"+1650555{uuid.uuid4().int % 10_000:04}"


class ConsolePage:
    def __init__(self, browser, emulator_url: str, project: str):
        self.browser = browser
        self.url = emulator_url
        self.project = project
        self.admin = requests.Session()
        self.admin.headers["Authorization"] = "Bearer owner"

    # --- the page ------------------------------------------------------------------------------
    def open(self, fragment: str = "accounts", project: str | None = None, tenant: str | None = None) -> None:
        project = project or self.project
        query = [] if project == DEFAULT_PROJECT else [f"project={project}"]
        if tenant:
            query.append(f"tenant={tenant}")
        target = f"{self.url}/emulator/ui/{'?' + '&'.join(query) if query else ''}#/{fragment}"
        # An address that differs from the current one only in its fragment stays on the same
        # document: a fresh page needs a reload.
        same_document = self.browser.current_url.split("#")[0] == target.split("#")[0]
        self.browser.get(target)
        if same_document:
            self.browser.refresh()

    def wait(self, condition, message: str, timeout: float = WAIT):
        try:
            # The page replaces what it re-renders: an element found a moment ago may be gone.
            return WebDriverWait(self.browser, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                                 ).until(lambda driver: condition())
        except TimeoutException:
            raise AssertionError(f"{message}; the page shows: {self.text()[:1500]!r}") from None

    def text(self, selector: str = "body") -> str:
        elements = self.browser.find_elements(By.CSS_SELECTOR, selector)
        return elements[0].text if elements else ""

    def find(self, selector: str):
        return self.browser.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector: str):
        return self.browser.find_elements(By.CSS_SELECTOR, selector)

    def wait_for(self, selector: str, message: str | None = None):
        return self.wait(lambda: (self.find_all(selector) or [None])[0], message or f"no {selector} on the page")

    def wait_for_text(self, selector: str, expected: str, timeout: float = WAIT) -> str:
        self.wait(lambda: expected in self.text(selector), f"{selector} never showed {expected!r}", timeout)
        return self.text(selector)

    def type_into(self, selector: str, text: str) -> None:
        field = self.find(selector)
        field.clear()
        field.send_keys(text)

    def click(self, selector: str) -> None:
        self.wait_for(selector).click()

    def confirm(self, selector: str) -> None:
        """The console's two-step buttons: the button, then its confirmation."""
        self.click(selector)
        self.click(f"{selector}-confirm")

    def toast(self, expected: str) -> None:
        self.wait_for_text("#toast", expected)

    def rows(self, selector: str = "#accounts-rows tr[data-uid]") -> list:
        return self.find_all(selector)

    def row_uids(self) -> list[str]:
        return [row.get_attribute("data-uid") for row in self.rows()]

    def wait_for_accounts(self, summary: str) -> None:
        self.wait_for_text("#accounts-summary", summary)

    def page_errors(self) -> list[str]:
        return self.browser.execute_script("return window.__pageErrors || []")

    def screenshot(self, name: str) -> Path:
        """The page at a desktop width, as tall as its content (up to SCREENSHOT_MAX_HEIGHT), for
        docs/emulator-ui.md."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        metrics = {"width": SCREENSHOT_WIDTH, "height": 800, "deviceScaleFactor": 1, "mobile": False}
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        try:
            height = self.browser.execute_script("return document.documentElement.scrollHeight")
            metrics["height"] = min(SCREENSHOT_MAX_HEIGHT, max(600, height))
            self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            time.sleep(0.2)  # the relayout
            path = SCREENSHOTS / f"{name}.png"
            assert self.browser.save_screenshot(str(path)), f"could not save {path}"
        finally:
            self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        target = os.environ.get("HEARTH_CONSOLE_SCREENSHOTS")
        if target:
            Path(target).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(target) / path.name)
        return path

    # --- the REST surface beside it ------------------------------------------------------------
    def admin_path(self, suffix: str, project: str | None = None) -> str:
        return f"{self.url}{IDENTITY}/projects/{project or self.project}{suffix}"

    def create_accounts(self, users: list[dict], project: str | None = None) -> None:
        for start in range(0, len(users), 1000):
            response = self.admin.post(self.admin_path("/accounts:batchCreate", project),
                                       json={"users": users[start:start + 1000]}, timeout=60)
            assert response.status_code == 200 and not response.json().get("error"), response.text[:2000]

    def lookup(self, uid: str, project: str | None = None) -> dict | None:
        response = self.admin.post(self.admin_path("/accounts:lookup", project), json={"localId": [uid]}, timeout=10)
        assert response.status_code == 200, response.text
        return (response.json().get("users") or [None])[0]

    def all_accounts(self, project: str | None = None) -> list[dict]:
        response = self.admin.get(self.admin_path("/accounts:batchGet", project), params={"maxResults": 1000}, timeout=10)
        assert response.status_code == 200, response.text
        return response.json().get("users", [])

    def config(self, project: str | None = None) -> dict:
        response = requests.get(f"{self.url}/emulator/v1/projects/{project or self.project}/config", timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def set_config(self, project: str | None = None, **settings) -> dict:
        response = requests.patch(f"{self.url}/emulator/v1/projects/{project or self.project}/config", json=settings, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def identity(self, method: str, body: dict) -> requests.Response:
        """An app's call with an API key: it acts on the default project."""
        return requests.post(f"{self.url}{IDENTITY}/accounts:{method}?key={API_KEY}", json=body, timeout=10)

    def sign_in(self, email: str, password: str) -> requests.Response:
        return self.identity("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})

    def verification_codes(self) -> list[dict]:
        response = requests.get(f"{self.url}/emulator/v1/projects/{DEFAULT_PROJECT}/verificationCodes", timeout=10)
        return response.json()["verificationCodes"]

    def oob_codes(self) -> list[dict]:
        response = requests.get(f"{self.url}/emulator/v1/projects/{DEFAULT_PROJECT}/oobCodes", timeout=10)
        return response.json()["oobCodes"]

    # --- browser facilities --------------------------------------------------------------------
    def clipboard(self) -> str:
        return self.browser.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], (error) => arguments[0]('clipboard error: ' + error))")

    def allow_clipboard(self) -> None:
        self.browser.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    def download_to(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(directory)})

    def wait_for_download(self, directory: Path, name: str) -> Path:
        path = directory / name
        self.wait(lambda: path.exists() and not any(p.suffix == ".crdownload" for p in directory.iterdir()),
                  f"{name} was not downloaded into {directory}")
        return path


def hostile_json(value) -> str:
    return json.dumps(value, ensure_ascii=False)
