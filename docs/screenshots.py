"""Make the screenshots of the browser table in docs/ (`docs/table-GAME.png`).

Each game is served as `orrery serve` serves it, a few moves are played (the human seat
takes its first legal action, the other seats are the game's agents or bots), and the
human seat's page is captured by headless Chromium, as tests/test_web_browser.py drives
it. Run from the repository's root, with the web and webtest extras and a system
Chromium and chromedriver:

    python docs/screenshots.py                     # every game below
    python docs/screenshots.py kuhn-poker          # one of them
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from interpreter import load_game
from interpreter.play.seating import choose_seats
from interpreter.web.app import Server, base_url, bind, seat_urls
from interpreter.web.launch import new_session
from interpreter.web.session import start_bots

DOCS = Path(__file__).resolve().parent
# game id -> (seats, seed, moves of the human seat before the picture)
GAMES: dict[str, tuple[str, int, int]] = {
    "race-to-mars": ("human,pilot,pilot", 3, 8),
    "for-all-mankind": ("human,bot,bot,bot", 3, 4),
    "rocketmen": ("human,random", 3, 6),
    "kuhn-poker": ("human,random", 1, 2),  # pass, pass: a showdown
}
WIDTH, MOST_HEIGHT = 1280, 1500


def capture(game_id: str, driver: webdriver.Chrome) -> Path:
    seats_text, seed, moves = GAMES[game_id]
    game = load_game(game_id)
    n, seats = choose_seats(game.definition, None, seats_text, "human", "random")
    session = new_session(game, game_id, [], n, seats, seed, None, None)
    sock = bind("127.0.0.1", 0)
    server = Server(session, sock)
    server.start()
    bots = start_bots(session)
    try:
        for _ in range(moves):
            deadline = time.monotonic() + 60
            while 0 not in session.state.players_to_act() and not session.state.is_terminal():
                if time.monotonic() > deadline:
                    raise SystemExit(f"{game_id}: the other seats did not finish their turns")
                time.sleep(0.05)
            if session.state.is_terminal():
                break
            with session.lock:
                session.act(0, session.state.legal_actions(0)[0].text)
        url = dict(seat_urls(session, base_url(sock, "127.0.0.1")))
        driver.set_window_size(WIDTH, 1000)
        driver.get(next(iter(url.values())))
        time.sleep(2)  # the page's first fetch and drawing
        height = min(int(driver.execute_script("return document.documentElement.scrollHeight")), MOST_HEIGHT)
        driver.set_window_size(WIDTH, height)
        time.sleep(1)
        path = DOCS / f"table-{game_id}.png"
        driver.save_screenshot(str(path))
        driver.get("about:blank")
        return path
    finally:
        server.stop()
        session.stop()
        bots.join()


def main(names: list[str]) -> None:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    profile = tempfile.mkdtemp(prefix="orrery-shots-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
    try:
        for name in names or list(GAMES):
            print(capture(name, driver))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
