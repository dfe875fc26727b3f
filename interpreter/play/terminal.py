"""Playing in the terminal: what a human sees, how they answer, and the game's course.

A human seat is an agent that asks the terminal. It is shown only its own observation
(`State.observation(player)`, derived from declared visibility), so nothing hidden
leaks. Every seat's moves are told in people's words (play/narrate.py): an agent's by
its action's label, a game bot's by what changed on the table; before each decision a
human reads "Since your last turn:". Cards are named, never `id#copy`; any card the
humans may not see is "a hidden card". A human answers with the number of a legal
action or its text, several answers at once (`1,1,2`), or `auto` to let the first
option answer the choices inside the action under way (paying card by card). `help`,
`log`, `view`, `all`, `show CARD`, `undo` (take back one's own slip: play/undo.py) and
`quit` are commands. Bad input asks again, never
crashes; the end of input is a clean stop. Lines wrap to the terminal's width.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path
from typing import Any

from interpreter.agents import Agent, BaseAgent
from interpreter.play.blocked import blocked_actions, blocked_summary
from interpreter.play.logs import GameLog, write_log
from interpreter.play.narrate import (
    CARD,
    LogSeen,
    Move,
    Snapshot,
    card_of,
    move_words,
    name_cards,
    new_log_lines,
    pick_words,
    redact,
    since_last_turn,
    told,
)
from interpreter.play.runner import run
from interpreter.play.terminal_text import (
    card_lines,
    distinct,
    fit,
    result_lines,
    showdown_lines,
    terminal_width,
    wrap,
)
from interpreter.play.undo import Before, before_move, may_take_back, rebuild, undo_count
from interpreter.runtime.actions import Action
from interpreter.runtime.present import option_text, render_observation, seat_name
from interpreter.runtime.records import PendingActions, PendingChoice
from interpreter.runtime.simultaneous import picks_so_far, split_pick
from interpreter.runtime.state import State

RECENT = 15  # actions shown by the `log` command
AUTO_MOST = 200  # choices `auto` answers in a row at most


class QuitRequested(Exception):
    """The human typed `quit`."""


class EndOfInput(Exception):
    """Standard input ran out while a human had to act."""


class Console:
    """Where the terminal UI reads and writes (stdin/stdout, looked up at each call so
    tests can swap them). Lines wrap to `width` (default: the terminal's, 80 in a pipe)."""

    def __init__(self, width: int | None = None):
        self.fixed_width = width

    @property
    def width(self) -> int:
        return self.fixed_width or terminal_width()

    def read(self, prompt: str) -> str:
        try:
            answer = input(prompt)
        except EOFError:
            raise EndOfInput() from None
        if not _is_tty(sys.stdin):  # piped answers: echo them so the transcript reads well
            print(answer, file=sys.stdout, flush=True)
        return answer

    def write(self, text: str = "") -> None:
        for line in wrap(text, self.width):
            print(line, file=sys.stdout, flush=True)

    def write_lines(self, lines: list[str]) -> None:
        """Lines of a view: tables in them are fitted to the width, not just wrapped."""
        for line in fit(lines, self.width):
            print(line, file=sys.stdout, flush=True)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# ---- the human seat ------------------------------------------------------------------------


class HumanTerminal(BaseAgent):
    """The agent of the human seats: shows the acting human their view, reads a choice.
    Answers typed ahead (`1,2,1`) and `auto` answer the next choices without asking."""

    def __init__(self, table: Table):
        self.table = table
        self.queued: list[str] = []
        self.queued_for = -1  # the seat whose answers are typed ahead
        self.auto_player: int | None = None  # answering choices by their first option
        self.auto_count = 0

    def step(self, state: State) -> Action:
        table = self.table
        player = state.players_to_act()[0]  # in a simultaneous step, the first still to pick
        legal = state.legal_actions(player)
        shown = table.option_texts(state, legal)
        chosen = self._ahead(state, player, legal, shown)
        if chosen is None:
            table.show_decision(state, player, legal, shown=shown)
        while chosen is None:
            answer = table.console.read(f"P{player + 1}> ").strip()
            chosen = self._interpret(state, answer, legal, shown)
            if chosen is None and self.queued:  # more answers typed ahead: the first is used now
                chosen = self._ahead(state, player, legal, shown)
        table.chosen(state, player, chosen)
        return chosen

    def _ahead(self, state: State, player: int, legal: list[Action], shown: list[str]) -> Action | None:
        """An answer given in advance (typed ahead, or `auto`), shown as it is used."""
        console = self.table.console
        if self.queued and self.queued_for != player:
            self.queued.clear()
        if self.queued:
            answer = self.queued.pop(0)
            chosen = self._interpret(state, answer, legal, shown, ahead=True)
            if chosen is None:
                self.queued.clear()
                console.write(f"('{answer}' does not answer this; the answers typed ahead are dropped.)")
                return None
            console.write(f"P{player + 1} (typed ahead): {shown[legal.index(chosen)]}")
            return chosen
        if self.auto_player is not None:
            if (self.auto_player == player and isinstance(state.pending, PendingChoice)
                    and self.auto_count < AUTO_MOST and legal):
                self.auto_count += 1
                console.write(f"P{player + 1} (auto): {shown[0]}")
                return legal[0]
            self.auto_player = None
        return None

    def _interpret(self, state: State, answer: str, legal: list[Action], shown: list[str],
                   ahead: bool = False) -> Action | None:
        table = self.table
        if not answer:
            table.console.write(f"Type a number 1-{len(legal)}, an action, or 'help'.")
            return None
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            table.console.write(f"There is no action {number}; choose 1-{len(legal)}.")
            return None
        exact = [a for a in legal if a.text == answer]
        if exact:
            return exact[0]
        if ahead:
            return self._match_text(state, answer, legal, shown)
        command = answer.lower().lstrip(":")
        word, _, rest = command.partition(" ")
        if "," in answer and all(part.strip() for part in answer.split(",")):
            self.queued = [part.strip() for part in answer.split(",")]
            self.queued_for = state.players_to_act()[0]
            return None
        if command in ("help", "?", "h"):
            table.show_help(len(legal))
        elif command in ("log", "history"):
            table.show_recent(state)
        elif command in ("view", "show", "look"):
            table.show_decision(state, state.players_to_act()[0], legal, shown=shown)
        elif command in ("all", "view all", "show all"):
            table.show_decision(state, state.players_to_act()[0], legal, full=True, shown=shown)
        elif word in ("show", "card", "info") and rest.strip():
            for line in card_lines(state.gd, answer.split(" ", 1)[1]):
                table.console.write(line)
        elif command in ("auto", "pay all", "auto pay"):
            if not isinstance(state.pending, PendingChoice):
                table.console.write("'auto' answers the choices inside an action (e.g. paying card by card); "
                                    "choose the action first.")
                return None
            self.auto_player, self.auto_count = state.players_to_act()[0], 1
            table.console.write(f"P{self.auto_player + 1} (auto): {shown[0]}")
            return legal[0]
        elif command in ("undo", "take back", "back"):
            player = state.players_to_act()[0]
            if not table.undo_count(player):
                table.console.write("Nothing to take back now: only your own decisions since something was "
                                    "revealed or another player played.")
                return None
            self.queued.clear()
            self.auto_player = None
            raise UndoRequested(player)
        elif command in ("quit", "exit", "q"):
            raise QuitRequested()
        else:
            return self._match_text(state, answer, legal, shown)
        return None

    def _match_text(self, state: State, answer: str, legal: list[Action], shown: list[str]) -> Action | None:
        wanted = answer.lower()
        folded = [a for a in legal if a.text.lower() == wanted]
        if not folded:  # what the person was shown: a card's name, an action's label
            texts = [t.lower() for t in shown]
            exact = [a for a, t in zip(legal, texts, strict=True) if t == wanted]
            begun = [a for a, t in zip(legal, texts, strict=True) if t.startswith(wanted)]
            folded = exact or begun
        if len(folded) == 1:
            return folded[0]
        prefixed = [a for a in legal if a.text.lower().startswith(wanted) and not CARD.search(a.text)]
        if len(prefixed) == 1 and not folded:
            return prefixed[0]
        console = self.table.console
        many = folded or prefixed
        if len(many) > 1:
            names = [shown[legal.index(a)] for a in many]
            console.write(f"'{answer}' could be: {'; '.join(names[:8])}{' ...' if len(names) > 8 else ''}. "
                          "Type more, or a number.")
            return None
        close = difflib.get_close_matches(wanted, [t.lower() for t in shown], n=1, cutoff=0.6)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        console.write(f"'{answer}' is not a legal action now.{hint} Type a number 1-{len(legal)} or 'help'.")
        return None


class UndoRequested(Exception):
    """A human asked to take back their last decision: the table rebuilds the game."""

    def __init__(self, player: int):
        super().__init__(player)
        self.player = player


class _Told(BaseAgent):
    """An agent whose moves the table tells in words, read before each move is made."""

    def __init__(self, inner: Agent, table: Table):
        self.inner = inner
        self.table = table

    def step(self, state: State) -> Action:
        action = self.inner.step(state)
        self.table.chosen(state, state.players_to_act()[0], action)
        return action

    def inform_action(self, state: State, player: int, action: Action | str) -> None:
        self.inner.inform_action(state, player, action)

    def restart(self) -> None:
        self.inner.restart()


# ---- the table: one game in the terminal ---------------------------------------------------


class Table:
    """One game played in the terminal: prints the course, keeps the log file current."""

    def __init__(self, state: State, console: Console, log: GameLog | None = None,
                 log_path: Path | None = None, moves: list[tuple[int, str]] | None = None):
        self.state = state
        self.console = console
        self.log = log
        self.log_path = log_path
        self.moves: list[tuple[int, str]] = list(moves or [])
        self.humans = {i for i, seat in enumerate(state.seats) if seat == "human"}
        # The moves of a resumed game, as the humans may read them now.
        self.told: list[Move] = [Move(p, redact(split_pick(t)[1], state, self.humans)) for p, t in self.moves]
        self.words: dict[int, tuple[str, str]] = {}  # seat -> (canonical text, words) of its move under way
        self.takeable: list[bool] = [False] * len(self.moves)  # per move: may its player take it back?
        self.before: Before | None = None  # a human's decision under way, as the table was before it
        self.pick_words: dict[tuple[int, str], str] = {}  # (seat, pick) -> its words, cards as `id#copy`
        # The game log is told from its start: setup, and game bots' picks in it, are moves
        # too (a resumed game sets this past what was already told).
        self.log_seen = LogSeen()
        self.snapshots: dict[int, Snapshot] = {}  # human seat -> what it saw at its last decision
        # Where the picks of the simultaneous step under way start in `moves`: they are
        # secret until the step is over (None: no step under way).
        self.sealed_from: int | None = None
        if picks_so_far(state):
            picks = len(picks_so_far(state))
            self.sealed_from = max(len(self.moves) - picks, 0)

    # -- the log file

    def save(self, failed: bool = False) -> None:
        """Write the log file now (atomically), if there is one. After a failed action
        the log keeps the actions that succeeded (the state's history has the failed one)."""
        if self.log is None or self.log_path is None:
            return
        if failed:
            self.log.actions = [text for _, text in self.moves]
            self.log.result = None
        else:
            self.log.record(self.state)
        write_log(self.log_path, self.log)

    # -- the course of the game

    def chosen(self, state: State, player: int, action: Action | str) -> None:
        """A seat has chosen `action` in `state` (not applied yet): its words, read now."""
        if player in self.humans:
            self.snapshots[player] = self._snapshot(state, player)
            self.before = before_move(state, player)
        text = action.text if isinstance(action, Action) else str(action)
        if state.is_simultaneous_node():  # a sealed pick: its words are told once the step is over
            self.pick_words[(player, text)] = pick_words(state, player, action)
            return
        self.words[player] = (text, move_words(state, action))

    def _snapshot(self, state: State, player: int) -> Snapshot:
        return Snapshot(state.observation(player), len(self.told), LogSeen.all_of(state), state.turn_no)

    def _told_text(self, state: State, player: int, text: str) -> str:
        canonical, words = self.words.pop(player, ("", ""))
        return told(state, text, words if canonical == text else "", self.humans)

    def on_action(self, state: State, player: int, text: str) -> None:
        self.state = state
        self.moves.append((player, text))
        before, self.before = self.before, None
        self.takeable.append(before is not None and before.player == player and may_take_back(before, state))
        named, plain = split_pick(text)
        if named is not None:  # a pick of a simultaneous step: secret until all have picked
            self.told.append(Move(player, redact(plain, state, self.humans)))
            if self.sealed_from is None:
                self.sealed_from = len(self.moves) - 1
            if state.is_simultaneous_node() and player in picks_so_far(state):
                self.console.write(f"{seat_name(player, self.humans)} has chosen.")
            else:
                self.reveal(state)
        else:
            words = self._told_text(state, player, text)
            self.told.append(Move(player, words))
            if player not in self.humans:
                self.console.write(f"{seat_name(player, self.humans)}: {words}")
        self.show_new_log_lines(state)
        self.save()

    # -- taking back a slip

    def undo_count(self, player: int) -> int:
        """How many of `player`'s last decisions may be taken back now (play/undo.py)."""
        return undo_count([p for p, _ in self.moves], self.takeable, player)

    def take_back(self, player: int) -> None:
        """Take back `player`'s last decision: the game rebuilt without it, the log
        keeping a record of it."""
        _, text = self.moves[-1]
        words = self.told[-1].words
        self.state = rebuild(self.state, [t for _, t in self.moves[:-1]])
        del self.moves[-1], self.told[-1], self.takeable[-1]
        self.log_seen = LogSeen.all_of(self.state)
        self.snapshots[player] = self._snapshot(self.state, player)
        if self.log is not None:
            self.log.undone.append({"by": player, "after": len(self.moves), "action": text})
        self.console.write(f"{seat_name(player, self.humans)} takes back: {words}")
        self.save()

    def reveal(self, state: State) -> None:
        """The simultaneous step is over: show every pick of it."""
        start = len(self.moves) if self.sealed_from is None else self.sealed_from
        shown = []
        for i, (player, text) in enumerate(self.moves[start:], start):
            _, plain = split_pick(text)
            words = told(state, plain, self.pick_words.pop((player, plain), ""), self.humans)
            shown.append(f"{seat_name(player, self.humans)}: {words}")
            if i < len(self.told):  # the summaries and `log` tell the pick as it is now known
                self.told[i] = Move(player, words)
        self.pick_words.clear()
        self.sealed_from = None
        if shown:
            self.console.write("All have chosen. " + "; ".join(shown))

    def show_new_log_lines(self, state: State) -> None:
        for line in new_log_lines(state, self.log_seen):
            self.console.write(f"  | {redact(line, state, self.humans)}")

    def option_texts(self, state: State, legal: list[Action]) -> list[str]:
        """The legal actions as people read them, copies of one card told apart."""
        return distinct([name_cards(option_text(state, action), state.gd) for action in legal],
                        [card_of(state, action) for action in legal])

    def show_decision(self, state: State, player: int, legal: list[Action], full: bool = False,
                      shown: list[str] | None = None) -> None:
        write = self.console.write
        write()
        snap = self.snapshots.get(player)
        if snap is not None and not full:
            sealed = len(self.told) if self.sealed_from is None else self.sealed_from
            summary = since_last_turn(state, player, snap, self.told[:sealed])
            for line in summary:
                write(line)
            if summary:
                write()
            self.snapshots[player] = self._snapshot(state, player)
        if len(self.humans) > 1:
            write(f"=== P{player + 1}'s decision (others look away) ===")
        else:
            write(f"=== Your decision, {seat_name(player, self.humans)} ===")
        self.console.write_lines(render_observation(state.observation(player), state.gd, {player}, full))
        prompt = state.prompt()
        if isinstance(state.pending, PendingActions):  # an action group's name, in words
            prompt = prompt.replace("_", " ").replace("-", " ")
        write(f"Choose ({prompt or 'action'}):")
        shown = shown if shown is not None else self.option_texts(state, legal)
        for i, (action, text) in enumerate(zip(legal, shown, strict=True), 1):
            # People read names, not `id#copy`; the canonical text is shown only where
            # it is a different, typeable word (`place 4`), never a card's copy number.
            # (nor a rule's internal name: `end turn` is typed as it reads)
            typeable = text != action.text and not CARD.search(action.text) and action.text.strip('"') != text \
                and not re.search(r"[a-z0-9]_[a-z0-9]", action.text)
            write(f"  {i:>2}. {text}{f'  [{action.text}]' if typeable else ''}")
        self.show_blocked(state, legal)
        if self.undo_count(player):
            write(f"  (undo: take back '{self.told[-1].words}')")

    def show_blocked(self, state: State, legal: list[Action]) -> None:
        """The actions out of reach now, compactly, with their reasons."""
        blocked = blocked_actions(state, {a.text for a in legal})
        if not blocked:
            return
        self.console.write("  Not yet: " + blocked_summary(blocked))

    def show_recent(self, state: State) -> None:
        write = self.console.write
        if not self.moves:
            write("No actions yet.")
        else:
            first = max(len(self.moves) - RECENT, 0)
            write(f"Last {len(self.moves) - first} of {len(self.moves)} actions:")
            sealed = len(self.moves) if self.sealed_from is None else self.sealed_from
            for i, move in enumerate(self.told[first:], first + 1):
                if i > sealed:  # a pick of the step under way: nobody at this terminal sees it yet
                    write(f"  {i:>3}. P{move.player + 1}: (secret until everyone has chosen)")
                    continue
                write(f"  {i:>3}. P{move.player + 1}: {move.words}")
        if state.log:
            write("Recent log lines:")
            for line in state.log[-RECENT:]:
                write(f"  | {redact(line, state, self.humans)}")

    def show_help(self, count: int) -> None:
        for line in (
            f"Type the number of an action (1-{count}) or its text (e.g. the first word, if unique).",
            "Several answers at once, for the decisions that follow: 1,1,2 (e.g. paying card by card).",
            "Commands: help - this text; log - recent actions; view - show the table again;",
            "          all - every counter and zone (besides the game's own views);",
            "          show CARD - a card's text and properties (by name or its start);",
            "          auto (or: pay all) - answer this choice and the next ones of the same",
            "          action with their first option;",
            "          undo - take back your last decision (your own, since nothing new was",
            "          revealed and nobody else played);",
            "          quit - stop (the game is saved; resume with orrery play --resume LOG).",
            "If an action's text is a command word, prefix the command with ':' (':help').",
        ):
            self.console.write(line)

    # -- playing

    def play(self, agents: dict[int, Agent]) -> State:
        """Play to the end with the human seats asking this terminal."""
        human = HumanTerminal(self)
        for seat in self.humans:
            agents[seat] = human
            self.snapshots.setdefault(seat, self._snapshot(self.state, seat))
        told: dict[int, _Told] = {}
        for seat, agent in list(agents.items()):
            if seat not in self.humans:
                told.setdefault(id(agent), _Told(agent, self))  # one wrapper per agent: who was asked stays clear
                agents[seat] = told[id(agent)]
        self.show_new_log_lines(self.state)
        while True:
            try:
                return run(self.state, agents, self.on_action)
            except UndoRequested as undo:
                self.take_back(undo.player)

    def show_result(self) -> None:
        state = self.state
        write = self.console.write
        write()
        for line in result_lines(state):
            write(line)
        for line in showdown_lines(state):
            write(line)
        for seat in sorted(self.humans) or [-1]:
            write(f"What P{seat + 1} sees at the end:" if seat >= 0 else "The table at the end:")
            self.console.write_lines(render_observation(state.observation(seat), state.gd, {seat})[1:])
