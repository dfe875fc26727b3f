"""`orrery serve` under abuse: what the server refuses, and that no client holds up another.

Each fault found in the browser table's server has its test here: bodies capped while
they are read (a huge POST is never held in memory), deeply nested or malformed JSON
answered 400 (never a 500), requests naming another host (DNS rebinding) or posted by
another origin or as a plain form refused, actions without the version they were chosen
at refused, and one seat's slow request (a trickling body, a long poll) or a thinking
bot never stalling the others. Only 127.0.0.1 is ever contacted. No test measures wall
time: every wait is bounded by a generous guard (WAIT) that only fails a hung test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any, cast

import pytest

from interpreter import load_game
from interpreter.agents import BaseAgent
from interpreter.runtime.actions import Action
from interpreter.runtime.state import State
from interpreter.web.launch import new_session
from interpreter.web.session import Session, start_bots

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

from interpreter.web import app as web_app
from interpreter.web.app import MAX_BODY, MAX_DEPTH, Hosts, Server, bind, make_app, served_hosts

WAIT = 30.0  # seconds before a hung request fails the test (a guard, never a measure)


def make_session(game_id: str, seats: list[str], seed: int = 3) -> Session:
    game = load_game(game_id)
    return new_session(game, game_id, [], len(seats), seats, seed, None, None)


@contextlib.contextmanager
def served(session: Session) -> Iterator[int]:
    """The session served on a free port of 127.0.0.1, its bots playing; yields the port."""
    sock = bind("127.0.0.1", 0)
    server = Server(session, sock, "127.0.0.1")
    server.start()
    bots = start_bots(session)
    try:
        yield sock.getsockname()[1]
    finally:
        server.stop()
        bots.join(WAIT)


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT)


def request_bytes(method: str, path: str, port: int, body: bytes = b"", **headers: str) -> bytes:
    """An HTTP/1.1 request as sent on the wire; `headers` (underscores for dashes) are
    added to Host (127.0.0.1:port unless given), Content-Length and Connection: close."""
    fields = {"Host": f"127.0.0.1:{port}", "Content-Length": str(len(body)), "Connection": "close"}
    fields.update({name.replace("_", "-"): value for name, value in headers.items()})
    head = "".join(f"{name}: {value}\r\n" for name, value in fields.items() if value)
    return f"{method} {path} HTTP/1.1\r\n{head}\r\n".encode() + body


def read_answer(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one response (the server closes after it)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        assert chunk, f"the connection closed before a whole response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = conn.recv(65536)
        assert chunk, "the connection closed inside a response body"
        body += chunk
    return int(lines[0].split()[1]), headers, body[:length]


def exchange(port: int, method: str, path: str, body: bytes = b"", **headers: str) -> tuple[int, dict[str, str], Any]:
    """Send one request on a fresh connection; the answer, its body parsed as JSON when it is."""
    with connect(port) as conn:
        conn.sendall(request_bytes(method, path, port, body, **headers))
        status, answer_headers, raw = read_answer(conn)
    parsed: Any = json.loads(raw) if answer_headers.get("content-type", "").startswith("application/json") else raw
    return status, answer_headers, parsed


def act(port: int, token: str, body: bytes, **headers: str) -> tuple[int, Any]:
    headers.setdefault("Content_Type", "application/json")
    status, _, answer = exchange(port, "POST", f"/seat/{token}/act", body, **headers)
    return status, answer


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def post(url: str, data: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        return response.status, json.loads(response.read())


def tic_tac_toe() -> tuple[Session, str, str]:
    """A hot-seat tic-tac-toe: the session, the token of the seat to move, the other's."""
    session = make_session("tic-tac-toe", ["human", "human"])
    mover = session.state.current_player()
    return session, session.token_of(mover), session.token_of(1 - mover)


def action(text: str, version: int = 0) -> bytes:
    return json.dumps({"action": text, "version": version}).encode()


# ---- 1. bodies are capped while they are read ------------------------------------------------


def test_a_body_declared_over_the_cap_is_refused_before_it_is_sent() -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port, connect(port) as conn:
        # The headers of a 1 GB POST and no byte of its body: the answer comes anyway.
        conn.sendall(request_bytes("POST", f"/seat/{mine}/act", port, Content_Type="application/json",
                                   Content_Length=str(2**30)))
        status, headers, body = read_answer(conn)
        assert status == 413 and headers.get("connection") == "close"
        assert json.loads(body) == {"ok": False, "message": f"a request body is at most {MAX_BODY} bytes"}
        assert conn.recv(1) == b""  # and the connection is closed: no body is taken in
    assert session.version == 0 and session.state.history == []


def test_a_body_of_no_declared_length_is_refused_as_soon_as_it_passes_the_cap() -> None:
    session, mine, _ = tic_tac_toe()
    piece = b" " * 4096
    with served(session) as port, connect(port) as conn:
        conn.sendall(request_bytes("POST", f"/seat/{mine}/act", port, Content_Type="application/json",
                                   Content_Length="", Transfer_Encoding="chunked"))
        for _ in range(MAX_BODY // len(piece) + 1):  # one chunk past the cap, then nothing more
            conn.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        status, _, body = read_answer(conn)
        assert status == 413 and json.loads(body)["ok"] is False
    assert session.version == 0


def test_a_huge_body_is_read_no_further_than_the_cap() -> None:
    """Against the app itself: a client that would send without end is read one chunk
    past MAX_BODY, then answered 413; nothing more of it is ever asked for."""
    session, mine, _ = tic_tac_toe()
    chunk = b"x" * 1024
    taken = 0

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        assert taken < 10_000, "the app kept reading a body past its cap"
        return {"type": "http.request", "body": chunk, "more_body": True}

    status, answer = call_app(make_app(session), f"/seat/{mine}/act", receive)
    assert status == 413 and answer["ok"] is False
    assert taken == MAX_BODY // len(chunk) + 1


def call_app(app: Any, path: str, receive: Any) -> tuple[int, Any]:
    """One POST through the ASGI app with `receive` as its client; status and JSON answer."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8765)}
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return int(sent[0]["status"]), json.loads(body)


def test_a_body_just_under_the_cap_is_still_read() -> None:
    session, mine, _ = tic_tac_toe()
    padded = action("place 0")[:-1] + b', "padding": "' + b"p" * (MAX_BODY - 100) + b'"}'
    assert len(padded) <= MAX_BODY
    with served(session) as port:
        assert act(port, mine, padded) == (200, {"ok": True, "message": ""})


# ---- 2. malformed, non-object or deeply nested JSON is a 400 ---------------------------------


@pytest.mark.parametrize("body", [
    b"[" * 30_000,
    b'{"a":' * 10_000,  # 60 KB: under the body cap
    b'{"action": "place 0", "version": 0, "more": ' + b"[" * 40 + b"]" * 40 + b"}",
    b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
])
def test_deeply_nested_json_is_refused_without_parsing_it(body: bytes) -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, body)
    assert status == 400 and answer["ok"] is False and f"nested more than {MAX_DEPTH} deep" in answer["message"]
    assert session.version == 0


@pytest.mark.parametrize("body", [b"", b"not json", b"\xff\xfe", b"[]", b'"place 0"', b"4", b"null",
                                  b'{"action": 4, "version": 0}', b'{"action": "place 0", "version": 0'])
def test_malformed_or_non_object_json_is_a_400_saying_what_to_send(body: bytes) -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, body)
    assert status == 400 and answer["ok"] is False and '{"action": TEXT, "version": N}' in answer["message"]


def test_brackets_inside_strings_are_not_nesting() -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, action('[{"' * 200))
    assert status == 200 and "is not a legal action now" in answer["message"]


def test_a_parser_recursion_error_is_a_400_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last guard: were the nesting count ever to let deep JSON through, the
    parser's RecursionError is still answered 400."""
    monkeypatch.setattr(web_app, "MAX_DEPTH", 10**9)
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, b"[" * MAX_BODY)
    assert status == 400 and answer["message"].startswith("the body is not JSON")


# ---- 3. only the server's own names and origin; actions only as JSON --------------------------


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1.evil.example:{port}",
                                  "127.0.0.1:{port}/x", "[::1", "127.0.0.1@evil.example"])
def test_a_request_naming_another_host_is_refused(host: str) -> None:
    """A page of another site whose name was rebound to 127.0.0.1 sends its own Host."""
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        named = host.format(port=port)
        status, headers, answer = exchange(port, "GET", f"/seat/{mine}/state", Host=named)
        assert status == 421 and answer["ok"] is False and headers.get("connection") == "close"
        assert act(port, mine, action("place 0"), Host=named)[0] == 421
        # No Host at all is no HTTP/1.1 request: the server's own parser refuses it.
        assert exchange(port, "GET", f"/seat/{mine}/state", Host="")[0] in (400, 421)
    assert session.version == 0


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "localhost",
                                  "[::1]:{port}"])
def test_the_loopback_names_are_answered(host: str) -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, _, view = exchange(port, "GET", f"/seat/{mine}/state", Host=host.format(port=port))
    assert status == 200 and view["version"] == 0


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:1", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:{port}.evil.example"])
def test_a_post_from_another_origin_is_refused(origin: str) -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, action("place 0"), Origin=origin.format(port=port))
    assert status == 403 and answer == {"ok": False, "message": "only the table's own pages may send actions"}
    assert session.version == 0


def test_a_post_from_the_servers_own_origin_is_taken() -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        assert act(port, mine, action("place 0"), Origin=f"http://127.0.0.1:{port}") == (200, {"ok": True,
                                                                                               "message": ""})
        assert act(port, session.token_of(session.state.current_player()), action("place 1", 1),
                   Origin=f"http://localhost:{port}", Host=f"localhost:{port}")[1]["ok"] is True


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          "", "application/jsonp", "text/json"])
def test_an_action_not_sent_as_json_is_refused(content_type: str) -> None:
    """A cross-site form (or a `text/plain` fetch, which needs no CORS preflight) cannot
    send application/json; the server takes nothing else."""
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, action("place 0"), Content_Type=content_type)
    assert status == 415 and answer["ok"] is False and "application/json" in answer["message"]
    assert session.version == 0


def test_json_with_a_charset_is_json() -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        assert act(port, mine, action("place 0"), Content_Type="application/json; charset=utf-8")[1]["ok"] is True


class Bound:
    """Stands for a listening socket: only its address is read."""

    def __init__(self, address: str):
        self.address = address

    def getsockname(self) -> tuple[str, int]:
        return self.address, 8765


def hosts_of(address: str, host: str | None = None) -> Hosts:
    return served_hosts(cast(socket.socket, Bound(address)), host)


def test_the_names_a_server_answers_are_those_it_was_started_for() -> None:
    loopback = hosts_of("127.0.0.1", "127.0.0.1")
    assert all(loopback.allow(name) for name in ("127.0.0.1", "localhost", "::1"))
    assert not loopback.allow("evil.example") and not loopback.allow("192.168.1.5")
    lan = hosts_of("192.168.1.5", "table.lan")
    assert lan.allow("192.168.1.5") and lan.allow("table.lan")
    assert not lan.allow("localhost") and not lan.allow("10.0.0.1") and not lan.allow("evil.example")
    # Every interface: any address of the machine (rebinding needs a name), never another name.
    everywhere = hosts_of("0.0.0.0", "0.0.0.0")
    assert everywhere.allow("10.0.0.7") and everywhere.allow("localhost")
    assert everywhere.allow(socket.gethostname().lower())
    assert not everywhere.allow("evil.example")
    assert hosts_of("::", "::").allow("fe80::1") and hosts_of("::1").allow("localhost")
    assert hosts_of("127.0.0.1", "localhost").allow("127.0.0.1")


# ---- 4. every action carries the version it was chosen at --------------------------------------


@pytest.mark.parametrize("body", [b'{"action": "place 0"}', b'{"action": "place 0", "version": null}',
                                  b'{"action": "place 0", "version": "0"}', b'{"action": "place 0", "version": 0.0}',
                                  b'{"action": "place 0", "version": true}', b'{"action": "place 0", "version": [0]}'])
def test_an_action_without_an_integer_version_is_a_400(body: bytes) -> None:
    session, mine, _ = tic_tac_toe()
    with served(session) as port:
        status, answer = act(port, mine, body)
    assert status == 400 and answer["ok"] is False and "'version'" in answer["message"]
    assert session.version == 0 and session.state.history == []


def test_an_action_chosen_on_an_older_table_is_refused_as_data() -> None:
    session, mine, theirs = tic_tac_toe()
    with served(session) as port:
        assert act(port, mine, action("place 0", 0))[1]["ok"] is True
        assert act(port, theirs, action("place 1", 0)) == (200, {"ok": False,
                                                                 "message": "the table changed; look again"})
        assert act(port, theirs, action("place 1", 1)) == (200, {"ok": True, "message": ""})


# ---- 5. one seat's slow request never stalls another ----------------------------------------------


def test_a_seat_sending_its_body_slowly_holds_up_no_other_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat A sends the headers and half the body of an action, then stalls, and also
    waits on a long poll; seat B's view and action are answered all the same (a server
    that waited for A would leave B's requests unanswered until the guard fails them)."""
    monkeypatch.setattr(web_app, "BODY_SECONDS", 600.0)  # A's stall outlasts any guard of B's
    session, b_token, a_token = tic_tac_toe()
    late = action("place 0", 0)
    with served(session) as port, connect(port) as slow, connect(port) as poll:
        whole = request_bytes("POST", f"/seat/{a_token}/act", port, late, Content_Type="application/json")
        rest = len(late) // 2  # the last half of the body is held back
        slow.sendall(whole[:-rest])
        poll.sendall(request_bytes("GET", f"/seat/{a_token}/state?since=1000", port))
        base = f"http://127.0.0.1:{port}/seat/{b_token}"
        status, view = get(f"{base}/state")
        assert status == 200 and view["decision"] is not None
        assert post(f"{base}/act", {"action": "place 4", "version": view["version"]}) == (200, {"ok": True,
                                                                                                "message": ""})
        status, view = get(f"{base}/state?since=0")
        assert status == 200 and view["version"] == 1
        slow.sendall(whole[-rest:])  # A's action arrives at last, chosen on the older table
        status, _, answer = read_answer(slow)
        assert (status, json.loads(answer)) == (200, {"ok": False, "message": "the table changed; look again"})


def test_a_body_that_never_ends_is_dropped_after_body_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.2)
    session, mine, _ = tic_tac_toe()
    body = action("place 0")
    with served(session) as port, connect(port) as conn:
        conn.sendall(request_bytes("POST", f"/seat/{mine}/act", port, body, Content_Type="application/json",
                                   Content_Length=str(len(body) + 10)))
        status, headers, answer = read_answer(conn)
    assert status == 408 and headers.get("connection") == "close" and json.loads(answer)["ok"] is False
    assert session.version == 0


class Pondering(BaseAgent):
    """An agent that thinks until it is told to stop: `thinking` is set while it does."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()

    def step(self, state: State) -> Action:
        self.thinking.set()
        assert self.go.wait(WAIT), "the test never let the agent move"
        return state.legal_actions()[0]


def pondering_session(game_id: str, bot_seat: int) -> tuple[Session, Pondering]:
    seats = ["human", "human"]
    seats[bot_seat] = "first"
    made = make_session(game_id, seats)
    bot = Pondering()
    return Session(made.game, made.state, {bot_seat: bot}, made.log, made.log_path), bot


def test_pages_are_answered_while_an_agent_thinks() -> None:
    """The agent thinks on a copy of the state, without the session's lock: every page's
    view (and a human's refused action) is answered meanwhile, and its move lands after."""
    session, bot = pondering_session("tic-tac-toe", 0)
    with served(session) as port:
        try:
            assert bot.thinking.wait(WAIT), "the agent was never asked"
            base = f"http://127.0.0.1:{port}/seat/{session.token_of(1)}"
            status, view = get(f"{base}/state")
            assert status == 200 and view["version"] == 0 and view["waiting_for"] == [0]
            assert post(f"{base}/act", {"action": "place 4", "version": 0}) == \
                (200, {"ok": False, "message": "it is not P2's turn"})
        finally:
            bot.go.set()  # (a failing test must not leave the agent thinking)
        status, view = get(f"{base}/state?since=0")
        assert view["version"] == 1 and [m["player"] for m in view["narration"]] == [0]
        assert view["decision"] is not None


def test_a_pick_made_while_an_agent_thinks_keeps_the_agents_pick() -> None:
    """In a simultaneous step the human may pick while the agent thinks: another seat's
    sealed pick changes nothing the agent sees, so its pick still counts."""
    session, bot = pondering_session("rock-paper-scissors", 0)
    worker = threading.Thread(target=session.advance, daemon=True)
    worker.start()
    assert bot.thinking.wait(WAIT)
    assert session.act(1, "rock", version=0).ok
    bot.go.set()
    worker.join(WAIT)
    assert not worker.is_alive() and not session.error
    assert [m.player for m in session.moves] == [1, 0] and session.state.is_terminal()


def test_a_stopped_table_takes_no_move_from_an_agent_still_thinking() -> None:
    """The log is kept when the server stops: a bot's move decided after that is dropped."""
    session, bot = pondering_session("tic-tac-toe", 0)
    worker = threading.Thread(target=session.advance, daemon=True)
    worker.start()
    assert bot.thinking.wait(WAIT)
    session.stop()
    bot.go.set()
    worker.join(WAIT)
    assert not worker.is_alive() and session.state.history == [] and session.version == 0
