"""The web app of `orrery serve`: a few routes over a Session, on Starlette and uvicorn.

Routes (TOKEN is a seat's secret; any other gives 404, with nothing said about seats):
  GET  /seat/TOKEN                the page (the same static HTML for every seat)
  GET  /seat/TOKEN/state?since=V  the seat's view as JSON; waits (long poll, up to
                                  POLL_SECONDS) until the table's version passes V
  POST /seat/TOKEN/act            {"action": TEXT, "version": V}: a human seat's action
  GET  /static/NAME               the page's script and style sheet
The page is plain HTML, CSS and JavaScript shipped in `static/` (no build step, nothing
fetched from elsewhere: the Content-Security-Policy allows this origin only). Refused
actions are answered 200 with `ok: false` and the reason (errors as data), so a page
never logs a failed request for a move that was merely too late.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from interpreter.web.session import Session

STATIC = Path(__file__).resolve().parent / "static"
STATIC_TYPES = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
POLL_SECONDS = 20.0
POLL_STEP = 0.05
MAX_BODY = 64 * 1024  # an action's text is short; anything bigger is not ours
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the token is in the URL: never pass it on
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


def _not_found() -> Response:
    return Response("Not found\n", status_code=404, media_type="text/plain", headers=HEADERS)


def _json(data: Any, status: int = 200) -> Response:
    return JSONResponse(data, status_code=status, headers=HEADERS)


def make_app(session: Session) -> Starlette:
    """The ASGI app serving `session`."""

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
            return _not_found()
        body = await request.body()
        try:
            data = json.loads(body) if len(body) <= MAX_BODY else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("action"), str) or \
                not isinstance(data.get("version", 0), int):
            return _json({"ok": False, "message": "send {\"action\": TEXT, \"version\": N}"}, 400)
        outcome = await asyncio.to_thread(session.act, who, data["action"], data.get("version"))
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
    ])


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
    `start`/`stop` run it in a thread (tests)."""

    def __init__(self, session: Session, sock: socket.socket):
        import uvicorn

        self.session = session
        self.sock = sock
        config = uvicorn.Config(make_app(session), log_level="warning", access_log=False,
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
