#!/usr/bin/env python3
"""Opens a local HTML page in headless Chromium and reports what a reader would see go
wrong: console errors and uncaught exceptions, elements wider than the window, boxes
that must scroll sideways; and takes a screenshot of the whole page. It speaks the
DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages ended by a NUL
byte, on the browser's file descriptors 3 and 4), with the Python standard library
alone, so that no message is lost to log parsing and no port is opened.

    python3 tests/tools/headless_page.py PAGE.html [--width 1280] [--screenshot OUT.png]

Prints the findings, one a line; exit 0 when there are none, 1 when there are, 77 when
no chromium is installed.
"""
import argparse
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
SKIPPED = 77
TIMEOUT = 60            # seconds for the browser to start, and for each answer
QUIET = 0.5             # seconds without an event after the load before judging
MAX_HEIGHT = 16000      # pixels of the full-page screenshot
FIRST_FREE_FD = 10      # our ends of the pipes, above the child's 3 and 4

# Every element of the page that reaches past the window's edges, unless a box with
# its own overflow (a table's scrolling box) holds it; and every box that scrolls.
LAYOUT = r"""
(() => {
  const width = document.documentElement.clientWidth;
  const held = element => {
    for (let up = element.parentElement; up && up !== document.documentElement; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  const describe = element => {
    const id = element.id ? '#' + element.id : '';
    const cls = typeof element.className === 'string' && element.className ? '.' + element.className.split(/\s+/).join('.') : '';
    return element.tagName.toLowerCase() + id + cls;
  };
  const wide = [], scrolling = [];
  for (const element of document.body.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if ((box.right > width + 1 || box.left < -1) && !held(element)) {
      wide.push({element: describe(element), left: Math.round(box.left), right: Math.round(box.right),
                 text: (element.textContent || '').trim().slice(0, 60)});
    }
    const style = getComputedStyle(element);
    if (['auto', 'scroll'].includes(style.overflowX) && element.scrollWidth > element.clientWidth + 1) {
      scrolling.push({element: describe(element), width: element.clientWidth, content: element.scrollWidth});
    }
  }
  // The sections a reader sees: each h2 with an id, laid out (not hidden).
  const sections = Array.from(document.querySelectorAll('h2[id]'))
    .filter(h => h.getBoundingClientRect().height > 0).map(h => h.id);
  return {width, window: window.innerWidth, pageWidth: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight, wide, scrolling, sections};
})()
"""


class BrowserError(Exception):
    pass


def find_chromium():
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium, driven over its DevTools pipe."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="headless-page-")
        to_browser, self.write_fd = self._pipe_above()
        self.read_fd, from_browser = self._pipe_above()

        def descriptors():  # in the child: its ends as 3 (it reads) and 4 (it writes)
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, close_fds=False,
            preexec_fn=descriptors)
        os.close(to_browser)
        os.close(from_browser)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def _pipe_above():
        """A pipe whose two ends lie above the descriptors the child's 3 and 4 take,
        closed on exec (the child gets its copies through dup2)."""
        low_read, low_write = os.pipe()
        ends = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, FIRST_FREE_FD) for fd in (low_read, low_write))
        os.close(low_read)
        os.close(low_write)
        return ends

    def _message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.read_fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                self.log.seek(0)
                raise BrowserError("chromium closed its DevTools pipe: "
                                   + self.log.read().decode("utf-8", "replace")[-2000:])
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        os.write(self.write_fd, json.dumps(command).encode("utf-8") + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._message(deadline)
            if message is None:
                raise BrowserError(f"no answer to {method} in {TIMEOUT} s")
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method, seconds=TIMEOUT):
        deadline = time.monotonic() + seconds
        for position, event in enumerate(self.events):
            if event["method"] == method:
                del self.events[position]
                return event
        while True:
            message = self._message(deadline)
            if message is None:
                raise BrowserError(f"no {method} in {seconds} s")
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)

    def drain(self, quiet=QUIET):
        """Collects the events that still come, until none has come for `quiet` seconds."""
        while True:
            message = self._message(time.monotonic() + quiet)
            if message is None:
                return
            if "method" in message:
                self.events.append(message)

    def close(self):
        try:
            if self.process.poll() is None:
                try:
                    self.call("Browser.close")
                except (BrowserError, OSError):
                    pass
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            for fd in (self.read_fd, self.write_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.log.close()
            shutil.rmtree(self.profile, ignore_errors=True)


def console_problems(events):
    """The console errors, uncaught exceptions and failed loads among the events."""
    found = []
    for event in events:
        params = event.get("params", {})
        if event["method"] == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            words = [str(argument.get("value", argument.get("description", ""))) for argument in params.get("args", [])]
            found.append(f"console.{params['type']}: {' '.join(words)}")
        elif event["method"] == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            found.append("uncaught exception: " + (details.get("exception", {}).get("description")
                                                   or details.get("text", "")))
        elif event["method"] == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            found.append(f"console error ({entry.get('source', '')}): {entry.get('text', '')} {entry.get('url', '')}".strip())
    return found


def inspect(page, width=1280, height=900, screenshot=None, chromium=None):
    """{'console': [...], 'wide': [...], 'scrolling': [...], 'sections': [h2 ids shown], 'window',
    'width', 'pageWidth', 'height'} of the page in a window `width` CSS pixels wide ('width': the page's, the
    window's less a scroll bar); writes the whole page as a PNG to `screenshot`."""
    chromium = chromium or find_chromium()
    if not chromium:
        raise BrowserError("chromium is not installed")
    browser = Browser(chromium)
    try:
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            browser.call(f"{domain}.enable", session)
        browser.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                     deviceScaleFactor=1, mobile=False)
        browser.call("Page.navigate", session, url="file://" + os.path.abspath(page))
        browser.wait_for("Page.loadEventFired")
        browser.drain()
        layout = browser.call("Runtime.evaluate", session, expression=LAYOUT, returnByValue=True)
        if "exceptionDetails" in layout:
            raise BrowserError(f"the layout check failed: {layout['exceptionDetails']}")
        found = dict(layout["result"]["value"])
        if screenshot:
            full = min(max(found["height"], height), MAX_HEIGHT)
            browser.call("Emulation.setDeviceMetricsOverride", session, width=width, height=full,
                         deviceScaleFactor=1, mobile=False)
            browser.drain(0.3)
            shot = browser.call("Page.captureScreenshot", session, format="png")
            with open(screenshot, "wb") as handle:
                handle.write(base64.b64decode(shot["data"]))
        found["console"] = console_problems(browser.events)
        return found
    finally:
        browser.close()


def findings(found):
    """One line per problem a reader would see."""
    lines = list(found["console"])
    if found["pageWidth"] > found["width"]:
        lines.append(f"the page is {found['pageWidth']} px wide in a {found['width']} px window")
    lines += [f"wider than the page: {entry['element']} from {entry['left']} to {entry['right']} px "
              f"({entry['text']!r})" for entry in found["wide"]]
    return lines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--screenshot")
    arguments = parser.parse_args(argv)
    if not find_chromium():
        print("SKIPPED: chromium is not installed (Debian: apt-get install chromium)")
        return SKIPPED
    found = inspect(arguments.page, arguments.width, screenshot=arguments.screenshot)
    problems = findings(found)
    for line in problems:
        print(line)
    for entry in found["scrolling"]:
        print(f"note: {entry['element']} scrolls sideways ({entry['content']} px in {entry['width']} px)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
