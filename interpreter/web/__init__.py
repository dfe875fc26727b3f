"""A browser table for playtesting: `orrery serve` (see docs/table.md).

`session` holds the served game (state, seats' tokens, bots, the log file), `view`
turns one seat's observation into the JSON its page renders, `app` is the web app on
Starlette and uvicorn (the optional extra `web`), and `static/` the page itself. This
package sits above `play/` (it reuses its runner limits, redaction and log writing)
and below the command line.
"""

from __future__ import annotations

from interpreter.web.session import SPECTATOR, Session, start_bots

__all__ = ["SPECTATOR", "Session", "start_bots"]
