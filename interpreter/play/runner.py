"""Running games: seats -> agents, the action loop, and replaying recorded actions.

One loop serves `orrery play` (humans are agents that ask the terminal), `simulate`
(all agents) and `replay` (recorded actions). Every action goes through
`State.apply_action`, so what is legal is decided by the rules only. The agent of the
seat to move is asked (`step`); every other agent is told what was played
(`inform_action`); a callback sees each action right after it is applied (to print it
or to save the log). A cap on the number of actions turns a game that never ends into
a GameError instead of a hang.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from interpreter.agents import Agent, SeatSpec, create_agent, is_bot, parse_seat
from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.game import Game
from interpreter.runtime.actions import Action
from interpreter.runtime.simultaneous import picks_so_far, split_pick
from interpreter.runtime.state import State

MAX_ACTIONS = 100_000

# Called after every applied action: (state after it, player who acted, the text the
# history records: the canonical text, or `P2: text` for a pick of a simultaneous step).
OnAction = Callable[[State, int, str], None]


def seat_agents(game: Game, seats: Sequence[str | SeatSpec], seed: int,
                humans: Mapping[int, Agent] | Agent | None = None) -> dict[int, Agent]:
    """An agent per seat that has one: humans from `humans` (one agent for every human
    seat, or a seat -> agent map), every other kind made by the seat registry, seeded
    from (seed, seat). Game bots have none: they decide inside the state."""
    gd = game.definition
    agents: dict[int, Agent] = {}
    for i, seat in enumerate(map(parse_seat, seats)):  # (state.seat_specs: parsed already)
        if seat.kind == "human":
            human = humans.get(i) if isinstance(humans, Mapping) else humans
            if human is not None:
                agents[i] = human
        elif not is_bot(seat, gd):
            agents[i] = create_agent(seat, gd, seed, i)
    return agents


def _agent_for(agents: Mapping[int, Agent], state: State, player: int) -> Agent:
    agent = agents.get(player)
    if agent is None:
        raise GameError(f"P{player + 1} is seated as '{state.seats[player]}' and nobody is there to play it")
    return agent


class Teller:
    """Tells the agents what each seat played: every agent but the one that chose it,
    each once (an agent may play several seats), with the state before the move. A pick
    of a simultaneous step is told only once the step is over, so no agent learns a
    sealed pick. Used by the runner and by the web table's session, one per game."""

    def __init__(self, agents: Mapping[int, Agent]):
        self.agents = list({id(a): a for a in agents.values()}.values())
        self.sealed: list[tuple[State, int, Action | str, Agent | None]] = []  # picks not yet told

    def before(self, state: State, player: int, action: Action | str, asked: Agent | None) -> None:
        """Called just before `action` is applied to `state`."""
        if len(self.agents) < 2 and asked is not None:
            return  # the only agent chose it: nobody to tell
        if state.is_simultaneous_node():
            self.sealed.append((state.clone(), player, action, asked))
        else:
            self._tell(state, player, action, asked)

    def after(self, state: State, player: int) -> bool:
        """Called just after `player`'s move was applied: True when it ended a
        simultaneous step (its picks are told now)."""
        if not self.sealed or (state.is_simultaneous_node() and player in picks_so_far(state)):
            return False
        for before, who, pick, asked in self.sealed:
            self._tell(before, who, pick, asked)
        self.sealed.clear()
        return True

    def _tell(self, state: State, player: int, action: Action | str, asked: Agent | None) -> None:
        for agent in self.agents:
            if agent is not asked:
                agent.inform_action(state, player, action)


def run(state: State, agents: Mapping[int, Agent], on_action: OnAction | None = None,
        max_actions: int = MAX_ACTIONS) -> State:
    """Let the agents play `state` to its end; returns the same (terminal) state.

    A simultaneous step is played one seat at a time, in the step's order: each agent
    is asked (`step`) when its seat is the first still to pick, sees a state where the
    picks made so far are secret, and the other agents are told the picks only once
    the step is over (each with the state before that pick)."""
    teller = Teller(agents)
    while not state.is_terminal():
        if len(state.history) >= max_actions:
            raise GameError(f"the game did not end within {max_actions} actions (an endless game?)")
        waiting = state.players_to_act()
        if not waiting:
            raise GameError("the game waits for no one but is not over (a rule error in the flow?)")
        player = waiting[0]
        agent = _agent_for(agents, state, player)
        action = agent.step(state)
        teller.before(state, player, action, agent)
        if state.is_simultaneous_node():
            state.apply_action(action, player)
        else:
            state.apply_action(action)  # (no player: the one to act; the quick path)
        teller.after(state, player)
        if on_action is not None:
            on_action(state, player, state.history[-1])
    return state


def play_game(game: Game, num_players: int | None, seats: Sequence[str], seed: int,
              agents_for_humans: Mapping[int, Agent] | Agent | None = None,
              on_action: OnAction | None = None, max_actions: int = MAX_ACTIONS) -> State:
    """Play one game from its start to its end with agents in every seat."""
    state = game.new_initial_state(num_players, seed, list(seats))
    agents = seat_agents(game, state.seat_specs, seed, agents_for_humans)
    return run(state, agents, on_action, max_actions)


def player_of(state: State, text: str) -> int:
    """The seat that makes the recorded action `text` in `state` (in a simultaneous
    step, the seat its `P2: ...` names, else the first still to pick)."""
    if state.is_simultaneous_node():
        named, _ = split_pick(text)
        if named is not None:
            return named
    waiting = state.players_to_act()
    return waiting[0] if waiting else state.current_player()


def replay_actions(state: State, actions: Sequence[str], agents: Mapping[int, Agent] | None = None,
                   on_action: OnAction | None = None, on_before: OnAction | None = None) -> State:
    """Apply recorded actions in order, checking each is legal where it is played.

    Every agent is informed of every recorded action (its own included: it was not
    asked; a simultaneous step's picks once the step is over, as in `run`), so after the
    replay each agent is where it would be had the game never stopped, without
    searching again for moves already made."""
    teller = Teller(agents or {})
    total = len(actions)
    for i, text in enumerate(actions):
        where = f"action {i + 1} of {total} ('{text}')"
        if state.is_terminal():
            raise GameError(f"{where}: the game was already over after {i} actions")
        player = player_of(state, text)
        teller.before(state, player, text, None)
        if on_before is not None:  # (e.g. to read the move in words before it changes the state)
            on_before(state, player, text)
        try:
            state.apply_action(text)
        except IllegalActionError as err:
            raise GameError(f"{where} by P{player + 1} is not legal there: {err}") from None
        except GameError as err:
            raise GameError(f"{where} by P{player + 1} failed: {err}") from None
        teller.after(state, player)
        if on_action is not None:
            on_action(state, player, text)
    return state
