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

from interpreter.agents import Agent, create_agent, is_bot, parse_seat
from interpreter.diagnostics import GameError, IllegalActionError
from interpreter.game import Game
from interpreter.runtime.actions import Action
from interpreter.runtime.simultaneous import picks_so_far, split_pick
from interpreter.runtime.state import State

MAX_ACTIONS = 100_000

# Called after every applied action: (state after it, player who acted, the text the
# history records: the canonical text, or `P2: text` for a pick of a simultaneous step).
OnAction = Callable[[State, int, str], None]


def seat_agents(game: Game, seats: Sequence[str], seed: int,
                humans: Mapping[int, Agent] | Agent | None = None) -> dict[int, Agent]:
    """An agent per seat that has one: humans from `humans` (one agent for every human
    seat, or a seat -> agent map), every other kind made by the seat registry, seeded
    from (seed, seat). Game bots have none: they decide inside the state."""
    gd = game.definition
    agents: dict[int, Agent] = {}
    for i, seat in enumerate(seats):
        if parse_seat(seat).name == "human":
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


def _inform(agents: Mapping[int, Agent], state: State, player: int, action: Action | str,
            asked: Agent | None) -> None:
    """Tell every agent but the one that chose it what `player` played in `state`."""
    for agent in agents.values():
        if agent is not asked:
            agent.inform_action(state, player, action)


def run(state: State, agents: Mapping[int, Agent], on_action: OnAction | None = None,
        max_actions: int = MAX_ACTIONS) -> State:
    """Let the agents play `state` to its end; returns the same (terminal) state.

    A simultaneous step is played one seat at a time, in the step's order: each agent
    is asked (`step`) when its seat is the first still to pick, sees a state where the
    picks made so far are secret, and the other agents are told the picks only once
    the step is over (each with the state before that pick)."""
    informed = len({id(a) for a in agents.values()}) > 1
    sealed: list[tuple[State, int, Action | str, Agent]] = []  # picks of a step under way, not told yet
    while not state.is_terminal():
        if len(state.history) >= max_actions:
            raise GameError(f"the game did not end within {max_actions} actions (an endless game?)")
        waiting = state.players_to_act()
        if not waiting:
            raise GameError("the game waits for no one but is not over (a rule error in the flow?)")
        player = waiting[0]
        agent = _agent_for(agents, state, player)
        action = agent.step(state)
        if state.is_simultaneous_node():
            if informed:
                sealed.append((state.clone(), player, action, agent))
            state.apply_action(action, player)
            if not state.is_simultaneous_node() or player not in picks_so_far(state):  # the step is over
                for before, who, pick, asked in sealed:
                    _inform(agents, before, who, pick, asked)
                sealed.clear()
        else:
            if informed:
                _inform(agents, state, player, action, agent)
            state.apply_action(action)
        if on_action is not None:
            on_action(state, player, state.history[-1])
    return state


def play_game(game: Game, num_players: int | None, seats: Sequence[str], seed: int,
              agents_for_humans: Mapping[int, Agent] | Agent | None = None,
              on_action: OnAction | None = None, max_actions: int = MAX_ACTIONS) -> State:
    """Play one game from its start to its end with agents in every seat."""
    state = game.new_initial_state(num_players, seed, list(seats))
    agents = seat_agents(game, seats, seed, agents_for_humans)
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
                   on_action: OnAction | None = None) -> State:
    """Apply recorded actions in order, checking each is legal where it is played.

    Every agent is informed of every recorded action (its own included: it was not
    asked), so after the replay each agent is where it would be had the game never
    stopped, without searching again for moves already made."""
    total = len(actions)
    for i, text in enumerate(actions):
        where = f"action {i + 1} of {total} ('{text}')"
        if state.is_terminal():
            raise GameError(f"{where}: the game was already over after {i} actions")
        player = player_of(state, text)
        if agents:
            _inform(agents, state, player, text, None)
        try:
            state.apply_action(text)
        except IllegalActionError as err:
            raise GameError(f"{where} by P{player + 1} is not legal there: {err}") from None
        except GameError as err:
            raise GameError(f"{where} by P{player + 1} failed: {err}") from None
        if on_action is not None:
            on_action(state, player, text)
    return state
