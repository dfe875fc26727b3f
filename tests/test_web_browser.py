"""`orrery serve` in a real browser: headless Chromium from the system, driven by Selenium.

A whole tic-tac-toe game is played by clicking, hot-seat in two windows that follow each
other by long poll; a few turns of each seed game and the first decision of every
bundled game and example are played on the generic table, and each seed game's table is
checked for what people read (the hand as clickable cards, no internal names, at most two
screens tall at the start, undo). No page logs a console error,
and no page's HTML holds a card of another seat's hidden zones. Skipped, with the
reason, where Selenium or Chromium and its driver are not installed (Debian: apt-get
install chromium chromium-driver; pip install '.[webtest]'). No browser is downloaded.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import choose_seats
from interpreter.rules.loader import bundled_entries
from interpreter.runtime.state import State
from interpreter.web.launch import new_session
from interpreter.web.session import Session, start_bots

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[webtest]')")

from interpreter.web.app import Server, base_url, bind, seat_urls  # noqa: E402

WAIT = 60  # seconds a page may take to show a change before the test fails (never a measure)
SEED_GAMES = ["for-all-mankind", "race-to-mars", "rocketmen"]
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DRIVERS = ("chromedriver", "chromium-driver")


def _found(names: tuple[str, ...]) -> str | None:
    return next((path for path in map(shutil.which, names) if path), None)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = _found(CHROMIUM), _found(DRIVERS)
    if binary is None or driver_path is None:
        pytest.skip("no Chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    profile = tempfile.mkdtemp(prefix="orrery-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1000",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextlib.contextmanager
def served(session: Session, browser: Any) -> Iterator[dict[str, str]]:
    """The session served on a free port with its bots playing; yields each page's URL.
    The browser leaves the pages before the server stops (a page whose server is gone
    rightly logs failed requests), and starts with an empty console log."""
    browser.get("about:blank")
    browser.get_log("browser")
    sock = bind("127.0.0.1", 0)
    server = Server(session, sock)
    server.start()
    bots = start_bots(session)
    try:
        yield dict(seat_urls(session, base_url(sock, "127.0.0.1")))
    finally:
        browser.get("about:blank")
        server.stop()
        bots.join()


def make_session(game_id: str, seats: list[str] | None = None, seed: int = 5,
                 overlays: tuple[str, ...] = ()) -> Session:
    game = load_game(game_id, overlays=list(overlays))
    n, chosen = choose_seats(game.definition, None, ",".join(seats) if seats else None, "human", "random")
    return new_session(game, game_id, list(overlays), n, chosen, seed, None, None)


def console_errors(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def wait_for(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: condition(d))


def body(driver: Any, key: str) -> str:
    return str(driver.execute_script(f"return document.body.dataset.{key} || ''"))


def others_hidden_cards(state: State, seat: int) -> set[str]:
    """Cards in other seats' zones that `seat` may not see (their hands, their secrets)."""
    gd, layout = state.gd, state.layout
    found: set[str] = set()
    obs = state.observation(seat)
    for zdef in gd.zones:
        if zdef.scope != "player":
            continue
        for owner in range(state.n):
            if owner != seat and "cards" not in obs["zones"][zdef.name][owner]:
                found.update(state.card_text(c) for c in state.zones[layout.zbase[zdef.index] + owner])
    return found


def leaked(text: str, hidden: set[str]) -> list[str]:
    return [card for card in hidden if re.search(rf"(?<![\w-]){re.escape(card)}(?!\d)", text)]


def click_first_action(driver: Any) -> None:
    from selenium.webdriver.common.by import By

    before = body(driver, "version")
    driver.find_elements(By.CSS_SELECTOR, "#decision button")[0].click()
    wait_for(driver, lambda d: body(d, "version") != before)


# ---- tests ---------------------------------------------------------------------------------


def test_a_whole_tic_tac_toe_game_by_clicking_in_two_windows(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    session = make_session("tic-tac-toe", ["human", "human"], seed=9)
    with served(session, browser) as urls:
        browser.get(urls["P1"])
        windows = {0: browser.current_window_handle}
        browser.switch_to.new_window("window")
        browser.get(urls["P2"])
        windows[1] = browser.current_window_handle
        clicked = 0
        while not session.state.is_terminal():
            mover = session.state.current_player()
            browser.switch_to.window(windows[mover])
            # The page learns it is its turn by itself (long poll), without a reload.
            wait_for(browser, lambda d, n=clicked: body(d, "state") == "deciding" and body(d, "version") == str(n))
            buttons = browser.find_elements(By.CSS_SELECTOR, "#decision button[data-action]")
            assert [b.get_attribute("data-action") for b in buttons] == [a.text for a in session.state.legal_actions()]
            buttons[0].click()
            clicked += 1
            wait_for(browser, lambda d, n=clicked: body(d, "version") == str(n))
        for seat in (0, 1):
            browser.switch_to.window(windows[seat])
            wait_for(browser, lambda d: body(d, "state") == "over")
            result = browser.find_element(By.ID, "result").text
            assert "Game over" in result and "Returns:" in result
            narration = browser.find_elements(By.CSS_SELECTOR, "#narration li:not(.line)")
            assert len(narration) == clicked == len(session.state.history)
            board = browser.find_element(By.CSS_SELECTOR, "pre.view[data-view='board']").text
            assert board.count("X") + board.count("O") == clicked
        assert console_errors(browser) == []
        browser.close()
        browser.switch_to.window(windows[0])


@pytest.mark.parametrize("game_id", SEED_GAMES)
def test_a_few_turns_of_each_seed_game(browser: Any, game_id: str) -> None:
    from selenium.webdriver.common.by import By

    session = make_session(game_id, seed=7)
    gd = session.state.gd
    with served(session, browser) as urls:
        browser.get(urls["P1"])
        for _ in range(4):  # four decisions of the human seat (the bots move in between)
            wait_for(browser, lambda d: body(d, "state") in ("deciding", "over"))
            with session.lock:
                hidden = others_hidden_cards(session.state, 0)
            page = browser.page_source
            assert leaked(page, hidden) == [], "P1's page shows another seat's hidden card"
            assert len(browser.find_elements(By.CSS_SELECTOR, "#views pre.view")) == len(gd.views)
            shown = {z.get_attribute("data-zone") for z in browser.find_elements(By.CSS_SELECTOR, ".zone[data-zone]")}
            assert shown <= {z.name for z in gd.zones} - gd.table.hide  # bookkeeping is not drawn
            if body(browser, "state") == "over":
                break
            click_first_action(browser)
        assert len(session.moves) >= 4 and not session.error
        assert console_errors(browser) == []


@pytest.mark.parametrize("game_id", SEED_GAMES)
def test_each_seed_game_is_drawn_as_a_table_people_can_follow(browser: Any, game_id: str) -> None:
    """The hand of the seat to act is a row of separate cards, each clickable and offering
    the actions that use it; no visible text holds an internal id, a card's `id#copy` or
    a snake_case name; the page at the start is at most two screens tall; a slip can be
    taken back (Rocketmen: buying is a decision of one's own that reveals nothing)."""
    from selenium.webdriver.common.by import By

    seats = {"race-to-mars": ["human", "pilot"], "rocketmen": ["human", "random"]}.get(game_id)
    session = make_session(game_id, seats, seed=3)
    with served(session, browser) as urls:
        browser.get(urls["P1"])
        for _ in range(3):  # Race to Mars deals the Headquarters to choose from after the lane
            wait_for(browser, lambda d: body(d, "state") == "deciding")
            if browser.find_elements(By.CSS_SELECTOR, "#hand button.card"):
                break
            click_first_action(browser)
        text = browser.execute_script("return document.body.innerText")
        assert not re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", text) and not re.search(r"[a-z0-9-]#\d", text)
        height, screen = browser.execute_script("return [document.documentElement.scrollHeight, window.innerHeight]")
        assert height <= 2 * screen
        cards = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
        assert len(cards) >= 1 and all(c.find_element(By.CSS_SELECTOR, ".name").text for c in cards)
        with session.lock:
            hand = [z for z in session.state.gd.zones if z.scope == "player" and z.visible == "owner"]
            held = sum(len(session.state.zones[session.state.layout.zbase[z.index]]) for z in hand)
        copies = sum(len(c.get_attribute("data-copies").split()) for c in cards)
        assert copies == held  # every card of the hand, each (or each run of copies) its own
        usable = [c for c in cards if c.get_attribute("data-copies").split()[0] in browser.execute_script(
            "return [...document.querySelectorAll('#decision [data-action]')].map((b) => b.dataset.action).join(' ')")]
        target = (usable or cards)[0]
        target.click()
        menu = browser.find_element(By.ID, "card-menu")
        wait_for(browser, lambda d: menu.text)
        if usable:
            assert menu.find_elements(By.CSS_SELECTOR, "button[data-action]")
        if game_id == "rocketmen":
            click_first_action(browser)  # a purchase: the seat may take it back
            undo = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-action=':undo']"))
            before = body(browser, "version")
            undo[0].click()
            wait_for(browser, lambda d: body(d, "version") != before)
            assert list(session.state.history) == []
        assert console_errors(browser) == []


def test_the_other_kuhn_hand_never_reaches_the_page(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    for seed in range(6):
        session = make_session("kuhn-poker", ["human", "first"], seed=seed)
        state = session.state
        mine, theirs = (state.zones[state.layout.zbase[1] + p] for p in (0, 1))
        my_name, their_name = (gd_card.name for gd_card in
                               (state.gd.cards[state.card_def[mine[0]]], state.gd.cards[state.card_def[theirs[0]]]))
        with served(session, browser) as urls:
            browser.get(urls["P1"])
            wait_for(browser, lambda d: body(d, "state") == "deciding")
            hand = browser.find_element(By.CSS_SELECTOR, "#hand [data-zone='hand'][data-owner='0']").text
            other = browser.find_element(By.CSS_SELECTOR, "[data-zone='hand'][data-owner='1']").text
            assert my_name in hand and "1 face down" in other
            assert their_name not in browser.page_source
            assert state.card_text(theirs[0]) not in browser.page_source


def _playable() -> list[tuple[str, tuple[str, ...]]]:
    games = [(e["id"], ()) for e in bundled_entries() if e["kind"] in ("game", "example")]
    return games + [(e["base"], (e["id"],)) for e in bundled_entries() if e["kind"] in ("expansion", "mod")]


@pytest.mark.parametrize(("game_id", "overlays"), _playable(), ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_every_bundled_game_renders_on_the_generic_table(browser: Any, game_id: str, overlays: tuple[str, ...]) -> None:
    from selenium.webdriver.common.by import By

    session = make_session(game_id, seed=3, overlays=overlays)
    with served(session, browser) as urls:
        browser.get(urls["P1"])
        wait_for(browser, lambda d: body(d, "state") == "deciding")
        assert browser.find_element(By.ID, "title").text == session.state.gd.name
        assert browser.find_elements(By.CSS_SELECTOR, "#decision button")
        click_first_action(browser)
        assert console_errors(browser) == []


def test_simultaneous_picks_in_two_windows_stay_secret_until_both_are_in(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    session = make_session("rock-paper-scissors", ["human", "human"], seed=1)
    with served(session, browser) as urls:
        browser.get(urls["P1"])
        first = browser.current_window_handle
        browser.switch_to.new_window("window")
        browser.get(urls["P2"])
        wait_for(browser, lambda d: body(d, "state") == "deciding")
        browser.find_element(By.CSS_SELECTOR, "#decision button[data-action='paper']").click()
        wait_for(browser, lambda d: body(d, "version") == "1")
        assert body(browser, "state") == "waiting"
        second = browser.current_window_handle
        browser.switch_to.window(first)
        wait_for(browser, lambda d: body(d, "version") == "1" and body(d, "state") == "deciding")
        narration = browser.find_element(By.ID, "narration").text
        assert narration == "P2: has chosen" and "paper" not in narration
        browser.find_element(By.CSS_SELECTOR, "#decision button[data-action='rock']").click()
        wait_for(browser, lambda d: body(d, "state") == "over")
        assert "P2: paper" in browser.find_element(By.ID, "narration").text
        assert "P1 shows rock, P2 shows paper" in browser.find_element(By.ID, "narration").text
        assert console_errors(browser) == []
        browser.switch_to.window(second)
        browser.close()
        browser.switch_to.window(first)
