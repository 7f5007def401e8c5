"""A tiny headless-chromium driver over the Chrome DevTools Protocol, for the HTML
report tests. It needs only the `chromium` binary and `websocket-client`: no browser
download, no network. Tests skip (saying why) when no browser can be found."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
LAUNCH_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-port=0",
)
START_TIMEOUT = 60.0  # a waiting bound, not a timing: chromium starts slowly on a loaded machine


def find_browser() -> str | None:
    configured = os.environ.get("RUBRIC_BROWSER")
    if configured:
        return configured if Path(configured).is_file() else None
    return next((found for name in BROWSER_NAMES if (found := shutil.which(name))), None)


class Browser:
    """One headless chromium process with one page, driven over CDP."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="rubric-chromium-")
        self.process = subprocess.Popen(
            [executable, *LAUNCH_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._ids = itertools.count(1)
        self.console_errors: list[str] = []
        port = self._port()
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5).read())
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=10)
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(domain)

    def _port(self) -> int:
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with status {self.process.returncode}")
            if port_file.is_file() and port_file.read_text().strip():
                return int(port_file.read_text().split()[0])
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port")

    def _note(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.console_errors.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            self.console_errors.append(params["exceptionDetails"].get("text", "exception"))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.console_errors.append(params["entry"].get("text", "error"))

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._note(message)

    def open(self, path: Path) -> None:
        """Navigate to a local file and wait for its load event."""
        self.call("Page.navigate", url=path.resolve().as_uri())
        while True:
            message = json.loads(self.socket.recv())
            self._note(message)
            if message.get("method") == "Page.loadEventFired":
                return

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def close(self) -> None:
        try:
            self.socket.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            shutil.rmtree(self.profile, ignore_errors=True)
