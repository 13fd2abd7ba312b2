#!/usr/bin/env python3
"""`engine serve` in a real browser: headless Chromium, driven by Selenium, plays the page.

    python3 tests/python/test_serve_browser.py [--engine PATH] [--screenshot FILE]
        [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver] [--max-moves 30]

Needs `pip install selenium chess` and Chromium with its driver (Debian: `apt-get install
chromium chromium-driver`). The engine defaults to $OX88_ENGINE, else target/release/engine;
one `engine serve` on a free port serves every test and is killed at the end, also on failure.

- a won position (KQ v K) against Ox88 at level easy, set up through the FEN box: every move
  is the page's own hint, played by dragging the piece (pointer events, ActionChains), until
  the status says "Checkmate"; the final board is saved as a screenshot, and the PGN that the
  download link saves reads back with python-chess as a checkmate, 1-0, from that FEN;
- click-to-move (e2, then e4) in a new game shows "e4" in the move list, Ox88 answers, and a
  reload of the page's URL (?game=..&seat=..) resumes the same game;
- a pawn dragged to the last rank in a two-player game asks for the piece and promotes to it;
- analysis mode streams lines for the shown position, and the control map shows attacker
  counts (the start position: f3 is attacked by three white pieces, e6 by two black ones).

The last line is `N passed, M failed`; the exit status is 0 only when nothing failed.
"""

import argparse
import glob
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

try:
    import chess
    import chess.pgn
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as missing:
    print(f"{missing}: this test needs `pip install selenium chess`")
    print("0 passed, 1 failed")
    sys.exit(1)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENGINE = os.environ.get("OX88_ENGINE", os.path.join(ROOT, "target", "release", "engine"))
# KQ v K with the black king in the middle: a mate in about ten moves.
WON_FEN = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
START_FEN = chess.STARTING_FEN
# Ox88 answers within a few seconds at level easy; a loaded machine gets some slack.
REPLY_TIMEOUT = 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`engine serve --port P` as a subprocess; ready once it printed its first line."""

    def __init__(self, engine):
        self.port = free_port()
        self.process = subprocess.Popen(
            [engine, "serve", "--port", str(self.port)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        lines = queue.Queue()
        threading.Thread(target=self._pump, args=(lines,), daemon=True).start()
        try:
            first = lines.get(timeout=30)
        except queue.Empty:
            self.stop()
            raise RuntimeError("engine serve printed nothing in 30 s")
        if first is None or "Ox88 serves http://" not in first:
            self.stop()
            raise RuntimeError(f"engine serve's first line is {first!r}")
        self.url = f"http://127.0.0.1:{self.port}/"
        print(f"server: {first.strip()}")

    def _pump(self, lines):
        # Reads stdout to the end so the server never blocks on a full pipe.
        first = True
        for line in self.process.stdout:
            if first:
                lines.put(line)
                first = False
        if first:
            lines.put(None)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def make_driver(options, download_dir):
    chrome = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,1100"]:
        chrome.add_argument(flag)
    if options.chromium and os.path.exists(options.chromium):
        chrome.binary_location = options.chromium
    chrome.add_experimental_option("prefs", {
        "download.default_directory": download_dir,
        "download.prompt_for_download": False,
        "download.directory_upgrade": True,
        "safebrowsing.enabled": True,
    })
    # Browser console errors come back through the log, to be reported when a test fails.
    chrome.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(options.chromedriver) if options.chromedriver and os.path.exists(
        options.chromedriver) else Service()
    driver = webdriver.Chrome(service=service, options=chrome)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": download_dir})
    driver.set_page_load_timeout(30)
    return driver


class Page:
    """The page's elements and the waits the tests need."""

    def __init__(self, driver, url):
        self.driver = driver
        self.url = url

    def el(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait(self, condition, timeout=20, what="a condition"):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(
                lambda _: condition())
        except TimeoutException:
            raise AssertionError(
                f"timed out after {timeout} s waiting for {what}; status: {self.status()!r}, "
                f"error: {self.error()!r}") from None

    def status(self):
        try:
            return self.el("#status").text
        except Exception:  # noqa: BLE001 - only for messages
            return "?"

    def error(self):
        box = self.driver.find_elements(By.CSS_SELECTOR, "#error")
        return box[0].text if box and box[0].is_displayed() else None

    def board(self, name):
        return self.el("#board").get_attribute(f"data-{name}")

    def open(self, url=None):
        self.driver.get(url or self.url)
        # The levels come from /api/levels: the page is ready when they are in the chooser.
        self.wait(lambda: len(Select(self.el("#level")).options) > 0, what="the level list")

    def choose(self, mode, level="easy", color="white", time_control=""):
        Select(self.el("#mode")).select_by_value(mode)
        if self.el("#level").is_displayed():
            Select(self.el("#level")).select_by_value(level)
        if self.el("#color").is_displayed():
            Select(self.el("#color")).select_by_value(color)
        field = self.el("#time")
        field.clear()
        if time_control:
            field.send_keys(time_control)

    def idle(self):
        return self.board("busy") == "false"

    def wait_for_game(self, fen):
        """A new game from `fen` is on the board and in the URL."""
        placement = fen.split()[0]
        self.wait(lambda: self.idle() and self.board("ply") != ""
                  and (self.board("fen") or "").split()[0] == placement
                  and "game=" in self.driver.current_url, what=f"the game from {fen}")
        assert self.error() is None, self.error()

    def setup(self, mode, fen, **choices):
        self.choose(mode, **choices)
        box = self.el("#fen")
        box.clear()
        box.send_keys(fen)
        self.el("#setup").click()
        self.wait_for_game(fen)

    def square(self, name):
        return self.el(f'#board [data-square="{name}"]')

    def piece(self, name):
        pieces = self.driver.find_elements(By.CSS_SELECTOR, f'#board [data-square="{name}"] .piece')
        return pieces[0] if pieces else None

    def drag(self, uci):
        source = self.piece(uci[:2])
        assert source is not None, f"no piece on {uci[:2]}"
        ActionChains(self.driver).drag_and_drop(source, self.square(uci[2:4])).perform()
        if len(uci) == 5:
            self.wait(lambda: self.el("#promotion").is_displayed(), what="the promotion choice")
            self.el(f'#promotion [data-promotion="{uci[4]}"]').click()

    def texts(self, css):
        """The text of every element matching `css`, read in one script: the move list and
        the analysis lines are redrawn with every state and every streamed line, so element
        references held across calls go stale."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent);", css)

    def sans(self):
        return self.texts("#moves .san")

    def hint(self):
        """Asks for a hint; returns its UCI move once #hint-text shows it for this position."""
        ply = self.board("ply")
        self.el("#hint").click()
        text = self.el("#hint-text")
        self.wait(lambda: text.get_attribute("data-uci") and text.get_attribute("data-ply") == ply,
                  timeout=REPLY_TIMEOUT, what="the hint")
        return text.get_attribute("data-uci")


def test_mate_with_hints_by_drag_and_download_pgn(page, options, download_dir):
    page.open()
    page.setup("engine", WON_FEN, level="easy", color="white")
    assert "seat=" in page.driver.current_url, page.driver.current_url
    assert page.piece("h1").get_attribute("data-piece") == "wQ"
    assert page.piece("e5").get_attribute("data-piece") == "bK"
    played = []
    for _ in range(options.max_moves):
        if "Checkmate" in page.status():
            break
        ply = int(page.board("ply"))
        move = page.hint()
        page.drag(move)
        played.append(move)
        # The answer to the move carries Ox88's reply (engine mode), unless the move ended it.
        page.wait(lambda: page.idle() and int(page.board("ply")) > ply
                  and (page.board("turn") == "white" or "Checkmate" in page.status()),
                  timeout=REPLY_TIMEOUT, what=f"Ox88's reply to {move}")
        assert page.error() is None, f"after {move}: {page.error()}"
    status = page.status()
    assert "Checkmate" in status, f"no mate after {played}: {status!r}"
    print(f"  mate after {len(played)} moves: {' '.join(page.sans())}; status {status!r}")
    assert page.sans()[-1].endswith("#"), page.sans()

    os.makedirs(os.path.dirname(os.path.abspath(options.screenshot)), exist_ok=True)
    assert page.el("#board").screenshot(options.screenshot), "the screenshot failed"
    print(f"  screenshot: {options.screenshot}")

    shown = page.el("#pgn").get_attribute("value")
    assert "1-0" in shown, shown
    link = page.el("#download-pgn")
    href = link.get_attribute("href")
    assert "/api/pgn?" in href and "game=" in href and "seat=" in href, href
    link.click()
    files = page.wait(lambda: [f for f in glob.glob(os.path.join(download_dir, "*.pgn"))
                               if os.path.getsize(f) > 0], timeout=30, what="the PGN download")
    path = files[0]
    print(f"  downloaded: {os.path.basename(path)}")
    with open(path, encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None, "python-chess read no game"
    assert not game.errors, game.errors
    assert game.headers["Result"] == "1-0", game.headers
    assert game.board().fen() == WON_FEN, game.board().fen()
    end = game.end().board()
    assert end.is_checkmate() and end.turn == chess.BLACK, end.fen()
    assert [m.uci() for m in game.mainline_moves()][::2] == played, (played, game)


def test_click_to_move_and_reload(page, options, download_dir):
    page.open()
    page.choose("engine", level="easy", color="white")
    page.el("#fen").clear()
    page.el("#new-game").click()
    page.wait_for_game(START_FEN)
    page.square("e2").click()
    page.wait(lambda: "selected" in page.square("e2").get_attribute("class")
              and "target" in page.square("e4").get_attribute("class"), what="e2 picked")
    page.square("e4").click()
    page.wait(lambda: page.sans()[:1] == ["e4"], what="e4 in the move list")
    page.wait(lambda: page.idle() and page.board("ply") == "2", timeout=REPLY_TIMEOUT,
              what="Ox88's reply to e4")
    moves = page.sans()
    assert len(moves) == 2 and moves[0] == "e4", moves
    assert "e4" in page.el("#moves").text, page.el("#moves").text
    assert page.piece("e4").get_attribute("data-piece") == "wP"
    url = page.driver.current_url
    page.open(url)
    page.wait(lambda: page.sans() == moves, what="the same game after a reload")
    assert page.board("ply") == "2"
    assert Select(page.el("#mode")).first_selected_option.get_attribute("value") == "engine"


def test_promotion_choice(page, options, download_dir):
    page.open()
    page.setup("local", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert not page.el("#promotion").is_displayed()
    page.drag("b7b8n")
    page.wait(lambda: page.idle() and page.board("ply") == "1", what="the promotion")
    assert page.sans() == ["b8=N"], page.sans()
    assert page.piece("b8").get_attribute("data-piece") == "wN"
    assert page.piece("b7") is None
    assert not page.el("#promotion").is_displayed()


def test_analysis_lines_and_control_map(page, options, download_dir):
    page.open()
    page.setup("analysis", START_FEN)
    assert page.el("#analysis").is_displayed()
    lines = page.wait(lambda: page.texts("#lines li"), timeout=30, what="analysis lines")
    first = lines[0]
    print(f"  analysis: {first}")
    page.el("#control-map").click()
    page.wait(lambda: page.square("f3").find_element(By.CSS_SELECTOR, ".ctl-w").text == "3",
              what="the control map")
    assert page.square("e6").find_element(By.CSS_SELECTOR, ".ctl-b").text == "2"
    assert "ctl-white" in page.square("f3").get_attribute("class")
    assert "ctl-black" in page.square("e6").get_attribute("class")
    # A move changes the position: new lines and a new map for it.
    page.drag("e2e4")
    page.wait(lambda: page.idle() and page.board("ply") == "1", what="e4 in analysis")
    page.wait(lambda: page.square("d5").find_element(By.CSS_SELECTOR, ".ctl-w").text == "1",
              what="the control map after e4")
    # Black to move: the lines start "1… e5" (a move number with an ellipsis).
    page.wait(lambda: any(pv.startswith("1…") for pv in page.texts("#lines li .pv")),
              timeout=30, what="lines for black to move")


TESTS = [test_mate_with_hints_by_drag_and_download_pgn, test_click_to_move_and_reload,
         test_promotion_choice, test_analysis_lines_and_control_map]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=ENGINE)
    parser.add_argument("--screenshot", default="/tmp/ox88-serve-final.png",
                        help="where the final board of the mate is saved")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--max-moves", type=int, default=30,
                        help="moves to mate from the KQ v K position before giving up")
    options = parser.parse_args()

    passed = failed = 0
    server = driver = None
    download_dir = tempfile.mkdtemp(prefix="ox88-serve-downloads-")
    try:
        server = Server(options.engine)
        driver = make_driver(options, download_dir)
        page = Page(driver, server.url)
        for test in TESTS:
            try:
                test(page, options, download_dir)
                passed += 1
                print(f"ok      {test.__name__}")
            except Exception:  # noqa: BLE001 - report every failure and go on
                failed += 1
                print(f"FAILED  {test.__name__}")
                traceback.print_exc()
                try:
                    for entry in driver.get_log("browser"):
                        print(f"  browser: {entry['level']} {entry['message']}")
                except Exception:  # noqa: BLE001 - the log is only extra information
                    pass
    except Exception:  # noqa: BLE001 - the server or the browser did not start
        failed += 1
        print("FAILED  setup")
        traceback.print_exc()
    finally:
        if driver is not None:
            driver.quit()
        if server is not None:
            server.stop()
        shutil.rmtree(download_dir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
