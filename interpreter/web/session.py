"""One game served to browsers: the state, its seats' secret tokens, bots, the log file.

The state lives on the server and is changed only here, under one lock: a human seat's
action arrives from its page, the seats of agents (random, first, a registered agent)
are stepped by a worker thread, and game bots decide inside the state. An agent thinks
on a copy of the state with the lock released (a search may take seconds, and every
page's view needs the lock); its choice is applied only if the table has not changed
meanwhile in a way that matters to it, else it is asked again. Every applied
action is narrated in people's words (the terminal's narration, play/narrate.py: the
action's label, cards by name, redacted per human seat at the moment it is played),
the log file is rewritten after it through `play.logs.write_log` (the same atomic
write and target checks as `orrery play --log`), and a version number goes up so that
waiting pages fetch the new view. A page is identified by a secret token per seat
(`secrets.token_urlsafe`); what it is sent is computed from that seat's observation.
"""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any

import attrs

from interpreter.agents import Agent
from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.game import Game
from interpreter.play.logs import GameLog, write_log
from interpreter.play.narrate import (
    LogSeen,
    hide_unseen,
    move_words,
    name_cards,
    new_log_lines,
    pick_words,
    redact,
    told,
    visible_cards,
)
from interpreter.play.runner import MAX_ACTIONS, Teller
from interpreter.play.undo import before_move, may_take_back, rebuild, undo_count
from interpreter.runtime.simultaneous import picks_so_far, split_pick
from interpreter.runtime.state import State
from interpreter.web.view import decision_view, observation_view, result_view

SPECTATOR = -1
UNDO = ":undo"  # what a page sends to take back its seat's last decision (never an action's text)
MAX_NARRATION_LINES = 5000  # moves and log lines a page is sent, the latest kept


@attrs.define
class Move:
    """One applied action as each human seat reads it (cards it could not see then are
    'a hidden card'), with the game's log lines it wrote."""

    number: int
    player: int
    shown: dict[int, str]
    lines: list[str]
    sealed: bool = False  # a pick of a simultaneous step under way: "has chosen" to the others
    words: str = ""  # the move in words (a pick's: cards as `id#copy`, told once the step is over)


@attrs.define
class Outcome:
    """The answer to a page's action: applied, or why not (errors as data)."""

    ok: bool
    message: str = ""


class Session:
    """A served game. `tokens` maps each secret to its seat (or SPECTATOR)."""

    def __init__(self, game: Game, state: State, agents: dict[int, Agent], log: GameLog | None = None,
                 log_path: Path | None = None, moves: list[tuple[int, str]] | None = None):
        self.game = game
        self.state = state
        self.agents = agents
        self.log = log
        self.log_path = log_path
        self.humans = [i for i, seat in enumerate(state.seat_specs) if seat.kind == "human"]
        self.tokens: dict[str, int] = {secrets.token_urlsafe(24): seat for seat in self._viewers()}
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.error = ""
        self.stopped = False
        self.moves: list[Move] = []
        self._teller = Teller(agents)  # tells the agents the moves (a step's picks once it is over)
        # The end of the game as pages show it, worked out once: its showdown replays the game.
        self._result: dict[str, Any] | None = None
        self.takeable: list[bool] = [False] * len(moves or [])  # per move: may its seat take it back?
        # Actions replayed from a resumed log are narrated as they are now seen; the
        # picks of a step still under way stay secret.
        secret = len(picks_so_far(state))
        for i, (player, text) in enumerate(moves or []):
            sealed, plain = i >= len(moves or []) - secret, split_pick(text)[1]
            shown = ({seat: plain if seat == player else "has chosen" for seat in self._viewers()} if sealed
                     else self._shown(plain, player))
            self.moves.append(Move(len(self.moves) + 1, player, shown, [], sealed=sealed))
        # What setup told (game bots' picks in it among them): a new game's narration opens with it.
        self._log_seen = LogSeen.all_of(state) if moves else LogSeen()
        self.setup_lines = new_log_lines(state, self._log_seen)

    # -- who is asking

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None; compared in constant time."""
        found = None
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def token_of(self, seat: int) -> str:
        return next(token for token, s in self.tokens.items() if s == seat)

    # -- what a page is sent

    def view(self, seat: int) -> dict[str, Any]:
        """Everything the page of `seat` shows, from its observation only."""
        with self.lock:
            state = self.state
            obs = state.observation(seat)
            gd = state.gd
            seen = visible_cards(obs)

            def read(lines: list[str]) -> list[str]:  # log lines name cards this page may see only
                return [name_cards(hide_unseen(line, seen), gd) if "#" in line else line for line in lines]

            narration = [{"number": m.number, "player": m.player, "text": m.shown.get(seat, ""),
                          "lines": read(m.lines)} for m in self.moves[-MAX_NARRATION_LINES:]]
            if self.setup_lines and len(self.moves) < MAX_NARRATION_LINES:
                narration.insert(0, {"number": 0, "player": -1, "text": "", "lines": read(self.setup_lines)})
            return {
                "version": self.version,
                "game": {"id": gd.id, "name": gd.name},
                "seat": seat,
                "seats": list(state.seats),
                "humans": list(self.humans),
                "table": observation_view(obs, gd),
                "decision": decision_view(state, seat) if not self.error else None,
                "waiting_for": state.players_to_act(),
                "narration": narration,
                "undo": self.moves[-1].shown.get(seat, "") if seat >= 0 and self._undo_count(seat) else "",
                "result": self._ended(),
                "error": self.error,
            }

    def _ended(self) -> dict[str, Any] | None:
        if self._result is None and self.state.is_terminal():
            self._result = result_view(self.state)
        return self._result

    # -- playing

    def act(self, seat: int, text: str, version: int | None = None) -> Outcome:
        """A human seat's action from its page, checked against the legal actions now."""
        with self.lock:
            state = self.state
            if self.error:
                return Outcome(False, f"the game stopped on an error: {self.error}")
            if state.is_terminal():
                return Outcome(False, "the game is over")
            if seat == SPECTATOR:
                return Outcome(False, "a spectator's page only watches")
            if seat not in self.humans or seat not in state.players_to_act():
                return Outcome(False, f"it is not P{seat + 1}'s turn")
            if text == UNDO:
                return self._undo(seat, version)
            # Another seat's pick in a simultaneous step changes nothing this seat sees.
            if version is not None and version != self.version and not state.is_simultaneous_node():
                return Outcome(False, "the table changed; look again")
            legal = {a.text for a in state.legal_actions(seat)}
            if text not in legal:
                return Outcome(False, f"'{text}' is not a legal action now")
            self._apply(seat, text)
            return Outcome(True)

    def _undo_count(self, seat: int) -> int:
        """How many of `seat`'s last decisions it may take back now (play/undo.py)."""
        if self.error or self.state.is_terminal() or seat not in self.state.players_to_act():
            return 0
        return undo_count([m.player for m in self.moves], self.takeable, seat)

    def _undo(self, seat: int, version: int | None) -> Outcome:
        """Take back `seat`'s last decision: the game rebuilt without it (nothing is
        revealed), the log keeping a record of it (called under the lock)."""
        if version is not None and version != self.version:
            return Outcome(False, "the table changed; look again")
        if not self._undo_count(seat):
            return Outcome(False, "nothing to take back now: only your own decisions since something was "
                                  "revealed to you or another player played")
        text = self.state.history[-1]
        try:
            self.state = rebuild(self.state, list(self.state.history[:-1]))
        except GameError as err:
            return Outcome(False, f"could not take it back: {err}")
        self.moves.pop()
        self.takeable.pop()
        self._log_seen = LogSeen.all_of(self.state)
        if self.log is not None:
            self.log.undone.append({"by": seat, "after": len(self.moves), "action": text})
        self.save()
        self._bump()
        return Outcome(True)

    def run_bots(self) -> None:
        """Step the agents' seats whenever it is their turn, until the session stops
        (the worker thread's body); between turns it sleeps until the table changes."""
        while True:
            with self.lock:
                if self.stopped:
                    return
                seen = self.version
            if self.advance():
                continue
            with self.lock:  # a change after `seen` was read is not missed: the version moved
                while self.version == seen and not self.stopped:
                    self.changed.wait()

    def advance(self) -> bool:
        """Play one action of an agent's seat if it is one's turn; False when it is not
        (a human's turn, the game over or stopped on an error). The agent thinks without
        the lock, on a copy of the state; True also when its choice came too late to
        apply (it will be asked again)."""
        with self.lock:
            turn = self._agent_turn()
            if turn is None:
                return False
            player, agent = turn
            version, copy = self.version, self.state.clone()
        try:
            action = agent.step(copy)
        except GameError as err:
            with self.lock:
                if not self.stopped:
                    self._fail(str(err))
            return False
        with self.lock:
            if not self._still_wanted(player, str(action), version):
                return not self.stopped
            self._apply(player, str(action), asked=agent)
            return True

    def _agent_turn(self) -> tuple[int, Agent] | None:
        """The agent's seat to act now and its agent, or None (called under the lock)."""
        state = self.state
        if state.is_terminal() or self.error or self.stopped:
            return None
        waiting = state.players_to_act()
        if not waiting:
            self._fail("the game waits for no one but is not over (a rule error in the flow?)")
            return None
        player = waiting[0]  # a simultaneous step is asked in its order, as the runner does
        if player in self.humans:
            return None
        agent = self.agents.get(player)
        if agent is None:
            self._fail(f"P{player + 1} is seated as '{state.seats[player]}' and nobody is there to play it")
            return None
        return player, agent

    def _still_wanted(self, player: int, text: str, version: int) -> bool:
        """Whether an agent's choice, made at `version` without the lock, may still be
        applied (under the lock): nothing changed, or only another seat's pick in the same
        simultaneous step (which changes nothing this seat sees) and the pick is still legal.
        A stopped session takes no more moves: its log has been kept as it is."""
        state = self.state
        if self.stopped or self.error:
            return False
        if version == self.version:
            return True
        return (state.is_simultaneous_node() and player in state.players_to_act()
                and text in {a.text for a in state.legal_actions(player)})

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            self.changed.notify_all()

    def _apply(self, player: int, text: str, asked: Agent | None = None) -> None:
        state = self.state
        if len(state.history) >= MAX_ACTIONS:
            self._fail(f"the game did not end within {MAX_ACTIONS} actions (an endless game?)")
            return
        pick = state.is_simultaneous_node()
        before = before_move(state, player) if player in self.humans and not pick else None
        # read before the move changes the state (a pick's words are told once the step is over)
        words = pick_words(state, player, text) if pick else move_words(state, text)
        self._teller.before(state, player, text, asked)
        try:
            state.apply_action(text, player)
        except (GameError, IllegalActionError) as err:
            self._fail(f"P{player + 1}'s '{text}' failed: {err}")
            return
        lines = new_log_lines(state, self._log_seen)
        recorded = state.history[-1]
        still_secret = pick and state.is_simultaneous_node() and player in picks_so_far(state)
        if still_secret:
            mine = redact(words or text, state, set())
            shown = {seat: mine if seat == player else "has chosen" for seat in self._viewers()}
        else:
            shown = self._shown(split_pick(recorded)[1], player, words)
        self.moves.append(Move(len(self.moves) + 1, player, shown, lines, sealed=still_secret, words=words))
        self.takeable.append(before is not None and may_take_back(before, state))
        if self._teller.after(state, player) or (pick and not still_secret):
            self._reveal()
        self.save()
        self._bump()

    def _reveal(self) -> None:
        """A simultaneous step is over: every pick of it is narrated (the agents were
        told them by the teller)."""
        for move in self.moves:
            if move.sealed:
                move.sealed = False
                move.shown = self._shown(split_pick(self.state.history[move.number - 1])[1], move.player, move.words)

    def _viewers(self) -> list[int]:
        """The pages: one per human seat, and one for onlookers (what every player may see)."""
        return [*self.humans, SPECTATOR]

    def _shown(self, text: str, player: int, words: str = "") -> dict[int, str]:
        """The move as each page reads it: in words, cards it may not see hidden (its
        own move in full)."""
        return {seat: redact(words or text, self.state, set()) if seat == player
                else told(self.state, text, words, {seat}) for seat in self._viewers()}

    def _fail(self, message: str) -> None:
        self.error = message
        self.save(failed=True)
        self._bump()

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    # -- the log file

    def save(self, failed: bool = False) -> None:
        """Rewrite the log file (if any); after a failure it keeps the actions that worked."""
        if self.log is None or self.log_path is None:
            return
        if failed:
            # The failed action may be in the state's history: keep only what was narrated.
            self.log.actions = list(self.state.history[:len(self.moves)])
            self.log.result = None
        else:
            self.log.record(self.state)
        write_log(self.log_path, self.log)


def start_bots(session: Session) -> threading.Thread:
    """The worker thread that plays the agents' seats (a daemon: it never keeps the
    process alive)."""
    thread = threading.Thread(target=session.run_bots, name="orrery-bots", daemon=True)
    thread.start()
    return thread
