"""Playing in the terminal: what a human sees, how they answer, and the game's course.

A human seat is an agent that asks the terminal. It is shown only its own observation
(`State.observation(player)`, derived from declared visibility), so nothing hidden
leaks; the actions of the other seats are printed as they happen (`P2: bet`), with any
card the humans may not see replaced by "a hidden card". A human answers with the
number of a legal action or its canonical text; `help`, `log`, `view` and `quit` are
commands. Bad input asks again, never crashes; the end of input is a clean stop.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path
from typing import Any

from interpreter.agents import Agent, BaseAgent
from interpreter.play.logs import GameLog, write_log
from interpreter.play.runner import run
from interpreter.runtime.actions import Action
from interpreter.runtime.present import describe_result, option_text, render_observation, seat_name
from interpreter.runtime.simultaneous import picks_so_far, split_pick
from interpreter.runtime.state import State

RECENT = 15  # actions shown by the `log` command
_CARD = re.compile(r"[A-Za-z0-9_-]+#\d+")


class QuitRequested(Exception):
    """The human typed `quit`."""


class EndOfInput(Exception):
    """Standard input ran out while a human had to act."""


class Console:
    """Where the terminal UI reads and writes (stdin/stdout, looked up at each call so
    tests can swap them)."""

    def read(self, prompt: str) -> str:
        try:
            answer = input(prompt)
        except EOFError:
            raise EndOfInput() from None
        if not _is_tty(sys.stdin):  # piped answers: echo them so the transcript reads well
            print(answer, file=sys.stdout, flush=True)
        return answer

    def write(self, text: str = "") -> None:
        print(text, file=sys.stdout, flush=True)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# ---- showing a state ---------------------------------------------------------------------


def visible_cards(obs: dict[str, Any]) -> set[str]:
    """The card texts an observation shows (in zones it may see, or revealed)."""
    seen: set[str] = set()
    for value in obs["zones"].values():
        for entry in value if isinstance(value, list) else [value]:
            seen.update(entry.get("cards", ()))
            seen.update(entry.get("revealed", ()))
    return seen


def redact(text: str, state: State, viewers: set[int]) -> str:
    """An action's text with the cards no viewer may see now replaced (no viewers: a
    table of agents only, shown in full)."""
    if not viewers or "#" not in text:
        return text
    seen: set[str] = set()
    for viewer in viewers:
        seen |= visible_cards(state.observation(viewer))
    return _CARD.sub(lambda m: m.group(0) if m.group(0) in seen else "a hidden card", text)


# ---- the human seat ------------------------------------------------------------------------


class HumanTerminal(BaseAgent):
    """The agent of the human seats: shows the acting human their view, reads a choice."""

    def __init__(self, table: Table):
        self.table = table

    def step(self, state: State) -> Action:
        table = self.table
        player = state.players_to_act()[0]  # in a simultaneous step, the first still to pick
        legal = state.legal_actions(player)
        table.show_decision(state, player, legal)
        while True:
            answer = table.console.read(f"P{player + 1}> ").strip()
            chosen = self._interpret(state, answer, legal)
            if chosen is not None:
                return chosen

    def _interpret(self, state: State, answer: str, legal: list[Action]) -> Action | None:
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
        command = answer.lower().lstrip(":")
        if command in ("help", "?", "h"):
            table.show_help(len(legal))
        elif command in ("log", "history"):
            table.show_recent(state)
        elif command in ("view", "show", "look"):
            table.show_decision(state, state.players_to_act()[0], legal)
        elif command in ("all", "view all", "show all"):
            table.show_decision(state, state.players_to_act()[0], legal, full=True)
        elif command in ("quit", "exit", "q"):
            raise QuitRequested()
        else:
            return self._match_text(state, answer, legal)
        return None

    def _match_text(self, state: State, answer: str, legal: list[Action]) -> Action | None:
        folded = [a for a in legal if a.text.lower() == answer.lower()]
        if not folded:  # what the person was shown: a card's name, an action's label
            shown = [a for a in legal if option_text(state, a).lower().startswith(answer.lower())]
            folded = shown if len(shown) == 1 else [a for a in shown if option_text(state, a).lower() == answer.lower()]
        if len(folded) == 1:
            return folded[0]
        prefixed = [a for a in legal if a.text.lower().startswith(answer.lower())]
        if len(prefixed) == 1:
            return prefixed[0]
        console = self.table.console
        if len(prefixed) > 1:
            console.write(f"'{answer}' could be: {', '.join(a.text for a in prefixed[:8])}"
                          f"{' ...' if len(prefixed) > 8 else ''}. Type more, or a number.")
            return None
        close = difflib.get_close_matches(answer, [a.text for a in legal], n=1, cutoff=0.6)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        console.write(f"'{answer}' is not a legal action now.{hint} Type a number 1-{len(legal)} or 'help'.")
        return None


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
        self.log_seen = len(state.log)
        self.humans = {i for i, seat in enumerate(state.seats) if seat == "human"}
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

    def on_action(self, state: State, player: int, text: str) -> None:
        self.state = state
        self.moves.append((player, text))
        named, _ = split_pick(text)
        if named is not None:  # a pick of a simultaneous step: secret until all have picked
            if self.sealed_from is None:
                self.sealed_from = len(self.moves) - 1
            if state.is_simultaneous_node() and player in picks_so_far(state):
                self.console.write(f"{seat_name(player, self.humans)} has chosen.")
            else:
                self.reveal(state)
        elif player not in self.humans:
            self.console.write(f"{seat_name(player, self.humans)}: {redact(text, state, self.humans)}")
        self.show_new_log_lines(state)
        self.save()

    def reveal(self, state: State) -> None:
        """The simultaneous step is over: show every pick of it."""
        start = len(self.moves) if self.sealed_from is None else self.sealed_from
        shown = []
        for player, text in self.moves[start:]:
            _, plain = split_pick(text)
            shown.append(f"{seat_name(player, self.humans)}: {redact(plain, state, self.humans)}")
        self.sealed_from = None
        if shown:
            self.console.write("All have chosen. " + "; ".join(shown))

    def show_new_log_lines(self, state: State) -> None:
        for line in state.log[self.log_seen:]:
            self.console.write(f"  | {line}")
        self.log_seen = len(state.log)

    def show_decision(self, state: State, player: int, legal: list[Action], full: bool = False) -> None:
        write = self.console.write
        write()
        if len(self.humans) > 1:
            write(f"=== P{player + 1}'s decision (others look away) ===")
        else:
            write(f"=== Your decision, {seat_name(player, self.humans)} ===")
        for line in render_observation(state.observation(player), state.gd, {player}, full):
            write(line)
        write(f"Choose ({state.prompt() or 'action'}):")
        for i, action in enumerate(legal, 1):
            # People read names, not `id#copy`; the canonical text is shown only where
            # it is a different, typeable word (`place 4`), never a card's copy number.
            shown = option_text(state, action)
            typeable = shown != action.text and not _CARD.search(action.text)
            write(f"  {i:>2}. {shown}{f'  [{action.text}]' if typeable else ''}")

    def show_recent(self, state: State) -> None:
        write = self.console.write
        if not self.moves:
            write("No actions yet.")
        else:
            first = max(len(self.moves) - RECENT, 0)
            write(f"Last {len(self.moves) - first} of {len(self.moves)} actions:")
            sealed = len(self.moves) if self.sealed_from is None else self.sealed_from
            for i, (player, text) in enumerate(self.moves[first:], first + 1):
                if i > sealed:  # a pick of the step under way: nobody at this terminal sees it yet
                    write(f"  {i:>3}. P{player + 1}: (secret until everyone has chosen)")
                    continue
                _, text = split_pick(text)
                shown = text if player in self.humans else redact(text, state, self.humans)
                write(f"  {i:>3}. P{player + 1}: {shown}")
        if state.log:
            write("Recent log lines:")
            for line in state.log[-RECENT:]:
                write(f"  | {line}")

    def show_help(self, count: int) -> None:
        for line in (
            f"Type the number of an action (1-{count}) or its text (e.g. the first word, if unique).",
            "Commands: help - this text; log - recent actions; view - show the table again;",
            "          all - every counter and zone (besides the game's own views);",
            "          quit - stop (the log is saved; resume with orrery play --resume LOG).",
            "If an action's text is a command word, prefix the command with ':' (':help').",
        ):
            self.console.write(line)

    # -- playing

    def play(self, agents: dict[int, Agent]) -> State:
        """Play to the end with the human seats asking this terminal."""
        for seat in self.humans:
            agents[seat] = HumanTerminal(self)
        self.show_new_log_lines(self.state)
        return run(self.state, agents, self.on_action)

    def show_result(self) -> None:
        state = self.state
        self.console.write()
        for line in describe_result(state.result(), state.seats):
            self.console.write(line)
        for seat in sorted(self.humans) or [-1]:
            self.console.write(f"What P{seat + 1} sees at the end:" if seat >= 0 else "The table at the end:")
            for line in render_observation(state.observation(seat), state.gd, {seat})[1:]:
                self.console.write(line)
