"""The web app of `orrery serve`: a few routes over a Session, on Starlette and uvicorn.

Routes (TOKEN is a seat's secret; any other gives 404, with nothing said about seats):
  GET  /seat/TOKEN                the page (the same static HTML for every seat)
  GET  /seat/TOKEN/state?since=V  the seat's view as JSON; waits (long poll, up to
                                  POLL_SECONDS) until the table's version passes V
  POST /seat/TOKEN/act            {"action": TEXT, "version": V}: a human seat's action,
                                  V being the table's version it was chosen at
  GET  /static/NAME               the page's script and style sheet
The page is plain HTML, CSS and JavaScript shipped in `static/` (no build step, nothing
fetched from elsewhere: the Content-Security-Policy allows this origin only). Refused
actions are answered 200 with `ok: false` and the reason (errors as data), so a page
never logs a failed request for a move that was merely too late.

A request that is not a well-formed action from the table's own page is refused with
an HTTP error and `{"ok": false, "message": WHY}`, before the session sees it:
  421  its Host names no address the server was started for (`Hosts`: the bound
       address, the --host name, localhost when on loopback): a page of another site
       whose name was rebound to this address (DNS rebinding) reads nothing
  403  a POST whose Origin is not the server's own: another site's page cannot act
  415  an action not sent as `Content-Type: application/json`, so no plain cross-site
       form (which can only send form or text types) can post one
  413  a body over MAX_BODY: refused from its Content-Length, or as soon as the bytes
       read pass the cap (the body is streamed, never read whole first)
  408  a body still arriving after BODY_SECONDS
  400  a body that is not a JSON object with a text `action` and an integer `version`,
       or JSON nested deeper than MAX_DEPTH (counted on the bytes before parsing, so
       no parser recursion is reached)
A refusal closes the connection (its body may be left unread). Every handler is async
and awaits its I/O; the session's work (views, actions, the game's own bots inside the
state) runs in worker threads, and agents think outside the session's lock
(session.py), so one slow client or a thinking bot never holds up another seat.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from interpreter.web.session import Session

STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
POLL_SECONDS = 20.0
POLL_STEP = 0.05
MAX_BODY = 64 * 1024  # an action's text is short; anything bigger is not ours
MAX_DEPTH = 32  # an action is one flat object: deeper JSON is only there to exhaust the parser
BODY_SECONDS = 30.0  # a body trickling in longer than this only holds a connection open
USAGE = 'send {"action": TEXT, "version": N}'
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
# A Host header: a name or IPv4 address, or an IPv6 address in brackets, then maybe a port.
HOST_HEADER = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9.-]+))(?::\d{1,5})?")
# What nesting depends on in JSON: an escape (its quote does not end a string), a quote, a bracket.
JSON_MARK = re.compile(rb'\\.|["\[\]{}]', re.DOTALL)
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the URL: never pass it on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


def _not_found(close: bool = False) -> Response:
    """404. `close`: for a POST whose body is left unread (no reason to take it in)."""
    headers = {**HEADERS, "Connection": "close"} if close else HEADERS
    return Response("Not found\n", status_code=404, media_type="text/plain", headers=headers)


def _json(data: Any, status: int = 200) -> Response:
    return JSONResponse(data, status_code=status, headers=HEADERS)


def _refuse(status: int, message: str) -> Response:
    """A request refused before the session sees it. The connection is closed: the
    body may be unread, and reading (or skipping) the rest of it is what a flood wants."""
    return JSONResponse({"ok": False, "message": message}, status_code=status,
                        headers={**HEADERS, "Connection": "close"})


# ---- who may ask: the Host and Origin headers ----------------------------------------------


def _bare(host: str) -> str:
    return host.strip().strip("[]").lower()


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


@dataclass(frozen=True)
class Hosts:
    """The names a request's Host header may give: those the server was started for.
    A page of another site whose DNS name was rebound to this address sends its own
    name, and is refused."""

    names: frozenset[str]
    any_address: bool = False  # bound to every interface: any IP address of the machine

    def allow(self, name: str) -> bool:
        # An IP address can be trusted whatever it is: rebinding needs a DNS name.
        return name in self.names or (self.any_address and _ip(name) is not None)


def served_hosts(sock: socket.socket, host: str | None = None) -> Hosts:
    """The Host names of a server on `sock`, started with `--host host`: the bound
    address and that name, and the loopback names when it listens on loopback (or on
    every interface, then with this machine's name and any of its addresses)."""
    names = {_bare(str(sock.getsockname()[0]))} | ({_bare(host)} if host else set())
    addresses = [address for address in map(_ip, names) if address is not None]
    everywhere = any(address.is_unspecified for address in addresses)
    if everywhere or "localhost" in names or any(address.is_loopback for address in addresses):
        names |= LOOPBACK
    if everywhere:
        names.add(socket.gethostname().lower())
    return Hosts(frozenset(names), everywhere)


def _host_name(header: str) -> str | None:
    """The name (or address) a Host header gives, without its port; None if malformed."""
    match = HOST_HEADER.fullmatch(header.strip().lower())
    return None if match is None else match.group("v6") or match.group("name")


def _guard(scope: Scope, hosts: Hosts) -> Response | None:
    """Why a request is refused before any route sees it, if it is."""
    request = Request(scope)
    host = request.headers.get("host", "")
    name = _host_name(host)
    if name is None or not hosts.allow(name):
        return _refuse(421, "this server does not answer for that host name")
    origin = request.headers.get("origin")
    own = f"{scope.get('scheme', 'http')}://{host}".lower()
    if request.method not in ("GET", "HEAD") and origin is not None and origin.strip().lower() != own:
        return _refuse(403, "only the table's own pages may send actions")
    return None


class Guard:
    """ASGI middleware applying `_guard` to every HTTP request."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = _guard(scope, self.hosts) if scope["type"] == "http" else None
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)


# ---- what an action may be: its body -------------------------------------------------------


def _sent_as_json(request: Request) -> bool:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower() == "application/json"


async def _read_capped(request: Request) -> bytes | Response:
    """The body, or the refusal of it. It is streamed and dropped as soon as it passes
    MAX_BODY (refused at once when its Content-Length says it will), so a huge POST
    never sits in memory; a body still coming after BODY_SECONDS is dropped too."""
    declared = request.headers.get("content-length", "")
    if declared and (not declared.isdigit() or len(declared) > 12 or int(declared) > MAX_BODY):
        return _refuse(413, f"a request body is at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    return _refuse(413, f"a request body is at most {MAX_BODY} bytes")
                chunks.append(chunk)
    except TimeoutError:
        return _refuse(408, f"the request body took more than {BODY_SECONDS:g} seconds")
    except ClientDisconnect:
        return _refuse(400, "the request ended before its body did")
    return b"".join(chunks)


def _too_deep(body: bytes) -> bool:
    """Whether JSON brackets in `body` (outside strings) nest deeper than MAX_DEPTH:
    one linear pass, no recursion, so the parser's own recursion is never reached."""
    depth, in_string = 0, False
    for found in JSON_MARK.finditer(body):
        mark = found.group()
        if mark == b'"':
            in_string = not in_string
        elif in_string or len(mark) > 1:
            continue  # a bracket in a string, or an escape
        elif mark in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _parse_action(body: bytes) -> tuple[str, int] | str:
    """The action's text and the version it was chosen at, or what is wrong with the body."""
    if _too_deep(body):
        return f"the JSON is nested more than {MAX_DEPTH} deep; {USAGE}"
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # not JSON, not UTF-8; RecursionError: a last guard
        return f"the body is not JSON; {USAGE}"
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return USAGE
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        # Without it the stale-action check could not tell a late click from a fresh one.
        return f"'version' must be the whole number of the table's version the action was chosen at; {USAGE}"
    return data["action"], version


def make_app(session: Session, hosts: Hosts | None = None) -> Starlette:
    """The ASGI app serving `session` to requests naming one of `hosts` (default:
    the loopback names)."""

    def seat(request: Request) -> int | None:
        return session.seat_of(str(request.path_params.get("token", "")))

    async def page(request: Request) -> Response:
        if seat(request) is None:
            return _not_found()
        html = (STATIC / "table.html").read_text(encoding="utf-8")
        return Response(html, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def state(request: Request) -> Response:
        who = seat(request)
        if who is None:
            return _not_found()
        try:
            since = int(request.query_params.get("since", "-1"))
        except ValueError:
            return _json({"error": "'since' must be a number"}, 400)
        waited = 0.0
        while session.version <= since and waited < POLL_SECONDS and not session.stopped:
            await asyncio.sleep(POLL_STEP)
            waited += POLL_STEP
        return _json(await asyncio.to_thread(session.view, who))

    async def act(request: Request) -> Response:
        who = seat(request)
        if who is None:
            return _not_found(close=True)
        if not _sent_as_json(request):
            return _refuse(415, f"an action is sent as application/json: {USAGE}")
        body = await _read_capped(request)
        if isinstance(body, Response):
            return body
        parsed = await asyncio.to_thread(_parse_action, body)  # up to MAX_BODY of scanning: off the loop
        if isinstance(parsed, str):
            return _json({"ok": False, "message": parsed}, 400)
        outcome = await asyncio.to_thread(session.act, who, *parsed)
        return _json({"ok": outcome.ok, "message": outcome.message})

    async def static(request: Request) -> Response:
        name = str(request.path_params.get("name", ""))
        if name not in STATIC_TYPES:
            return _not_found()
        return Response((STATIC / name).read_text(encoding="utf-8"), media_type=STATIC_TYPES[name], headers=HEADERS)

    async def other(request: Request) -> Response:
        return _not_found()

    return Starlette(routes=[
        Route("/seat/{token}", page),
        Route("/seat/{token}/state", state),
        Route("/seat/{token}/act", act, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/{rest:path}", other),
    ], middleware=[Middleware(Guard, hosts=hosts or Hosts(LOOPBACK))])


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port), bound before the URLs are printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def base_url(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def seat_urls(session: Session, base: str) -> list[tuple[str, str]]:
    """(who, URL) per page: one per human seat (`P1`), or one spectator page."""
    return [(f"P{seat + 1}" if seat >= 0 else "Spectator", f"{base}/seat/{token}")
            for token, seat in sorted(session.tokens.items(), key=lambda item: item[1])]


class Server:
    """uvicorn serving a session on a bound socket; `run` blocks (Ctrl-C stops it),
    `start`/`stop` run it in a thread (tests). `host` is the name it was asked to
    listen on (`--host`), a Host it answers besides the bound address."""

    def __init__(self, session: Session, sock: socket.socket, host: str | None = None):
        import uvicorn

        self.session = session
        self.sock = sock
        config = uvicorn.Config(make_app(session, served_hosts(sock, host)), log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1, lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def run(self, started: Callable[[], None] | None = None) -> None:
        if started is not None:
            started()
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.session.stop()

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="orrery-web", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.session.stop()
        if self.thread is not None:
            self.thread.join()
        self.sock.close()
