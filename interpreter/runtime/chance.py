"""Explicit chance: every random event of a game as a node where the chance player
(CHANCE, -1) moves, as OpenSpiel's explicit chance nodes do (docs/chance.md).

By default (`chance="seeded"`) a state draws its random numbers itself, from the
generator in rng.py. A state made with `chance="explicit"` stops at each random event
instead: `current_player()` is CHANCE, the legal actions are the outcomes (`chance 4`,
`deal king`), each with its probability, and applying one goes on with the effect.
Outcomes drawn at their probabilities give the games the seeded mode gives, in
distribution.

How an effect stops in its middle: a primitive that needs an outcome not given yet
sets `state.pending` to a PendingChance and raises NeedChance; the run loop stops, and
the operation that asked runs again from its start once the outcome is applied
(`decisions.apply`). Operations that use randomness stay single operations that
evaluate before they act (`draw` keeps its progress in its locals), so running one
again is safe:

* a value (`random`, `pick_random`, `shuffled`) is kept in `state.chance_answers` and
  given back, in order, to the calls of the operation's next run; the answers are
  dropped once the operation has run to its end;
* a deal changes the state itself: the card chosen takes the next place of its zone.

Shuffled zones are dealt lazily. `shuffle ZONE` (and a refill that shuffles) fixes no
order: the zone's cards become an unordered run, `state.unordered[slot]` (a set of
copies, contiguous in the zone's list, in a fixed order that means nothing). Taking
the top card (`draw`, `top()`) or the bottom one (`bottom()`) first asks which card of
the run is there. A zone whose order the rules may read otherwise (as a list, in a
condition or a view), whose order someone may see, or where cards' own triggers and
modifiers apply, is *eager*: the operation that shuffles it deals it whole
(chance_zones.py finds these zones when the game is loaded).

Identical copies - the same card, in the same place, with the same attributes and
revealed flag - are one outcome, weighted by how many there are (`deal widget`, not
one outcome per copy). Which of them is taken is drawn from the state's own generator,
as game bots' picks are: no observation tells copies apart, but rules can (`sorted` of
cards orders them by copy number), and this keeps those games' odds too.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NoReturn

from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime.actions import Action, render
from interpreter.runtime.records import PendingChance
from interpreter.runtime.rng import randbelow, shuffle_in_place

if TYPE_CHECKING:
    from interpreter.runtime.state import State

MODES = ("seeded", "explicit")
MAX_OUTCOMES = 100_000  # outcomes of one random event: listing more is a rule error, not a hang
_NOTHING = object()  # no answer given yet


class NeedChance(Exception):
    """The running operation needs a chance outcome: `state.pending` says which. The
    run loop stops; the operation runs again once the outcome is applied."""


def _ask(st: State, pending: PendingChance) -> NoReturn:
    st.pending = pending
    st.legal_cache = None
    raise NeedChance


def _answered(st: State) -> Any:
    """The next answer given to the operation running again, or _NOTHING."""
    pos = st.chance_pos
    if pos < len(st.chance_answers):
        st.chance_pos = pos + 1
        return st.chance_answers[pos]
    return _NOTHING


# ---- values: random(), pick_random(), shuffled() ------------------------------------------


def roll(st: State, lo: int, hi: int) -> int:
    """`random(lo, hi)`: each number of lo..hi equally likely."""
    got = _answered(st)
    if got is not _NOTHING:
        return int(got)
    count = hi - lo + 1
    if count < 1:
        raise RuleRuntimeError(f"random({lo}, {hi}): there is no number from {lo} to {hi}")
    if count > MAX_OUTCOMES:
        raise RuleRuntimeError(f"random({lo}, {hi}) has {count} outcomes; explicit chance lists at most "
                               f"{MAX_OUTCOMES}")
    if count == 1:
        return lo
    _ask(st, PendingChance("value", f"random({lo}, {hi})", "int", list(range(lo, hi + 1)), [1] * count))


def pick(st: State, items: Any, type_: str) -> Any:
    """`pick_random(items)`: each item equally likely (equal items are one outcome)."""
    if not items:
        return None
    got = _answered(st)
    if got is not _NOTHING:
        return got
    options, weights, copies = groups(st, _as_list(items, "pick_random"), type_)
    if len(options) == 1:
        return _one_of(st, options[0], copies[0] if copies else [])
    _ask(st, PendingChance("value", "pick_random", type_, options, weights, copies=copies))


def shuffled(st: State, items: Any, elem: str) -> list[Any]:
    """`shuffled(items)`: a random order, asked for item by item from the first."""
    rest = list(_as_list(items, "shuffled"))
    out: list[Any] = []
    while rest:
        options, weights, copies = groups(st, rest, elem)
        if len(options) == 1:  # all left are alike: only copies of one card need an order
            if copies:
                shuffle_in_place(st, rest)
            out += rest
            break
        got = _answered(st)
        if got is _NOTHING:
            _ask(st, PendingChance("value", f"shuffled: item {len(out) + 1} of {len(out) + len(rest)}", elem,
                                   options, weights, copies=copies))
        out.append(got)
        rest.remove(got)
    return out


def _as_list(items: Any, what: str) -> list[Any]:
    if isinstance(items, dict):
        raise RuleRuntimeError(f"{what}() needs a list, not a map")
    return list(items)


def _one_of(st: State, option: Any, copies: list[int]) -> Any:
    """The copy an outcome takes: one of its identical copies, drawn from the state's
    generator (so rules that tell copies apart by number see each equally often)."""
    return copies[randbelow(st, len(copies))] if len(copies) > 1 else option


def groups(st: State, values: list[Any], type_: str) -> tuple[list[Any], list[int], list[list[int]]]:
    """The distinct outcomes among `values` (the first of each kind stands for it), how
    many of `values` each stands for, and for cards the identical copies of each.
    Cards come in card-definition order, other values in the order given."""
    if type_ == "card" and all(type(v) is int for v in values):
        return _card_groups(st, values)
    index: dict[str, int] = {}
    options: list[Any] = []
    weights: list[int] = []
    for value in values:
        key = render(st, value, type_)
        at = index.get(key)
        if at is None:
            index[key] = len(options)
            options.append(value)
            weights.append(1)
        else:
            weights[at] += 1
    return options, weights, []


def _card_groups(st: State, cards: list[int]) -> tuple[list[Any], list[int], list[list[int]]]:
    """Identical copies - the same card, place, attributes and revealed flag - as one
    outcome (the set of a card's attributes is read once for all)."""
    wanted = set(cards)
    own: dict[int, list[tuple[str, str]]] = {}
    if st.attrs:
        for (iid, name), value in st.attrs.items():
            if iid in wanted:
                own.setdefault(iid, []).append((name, repr(value)))
    index: dict[tuple[Any, ...], int] = {}
    members: list[list[int]] = []
    for iid in cards:
        key = (st.card_def[iid], st.loc[iid], tuple(sorted(own.get(iid, ()))), iid in st.revealed)
        at = index.get(key)
        if at is None:
            index[key] = len(members)
            members.append([iid])
        else:
            members[at].append(iid)
    members.sort(key=lambda group: (st.card_def[group[0]], group[0]))
    return [g[0] for g in members], [len(g) for g in members], members


# ---- zones: shuffles dealt lazily ---------------------------------------------------------


def mark(st: State, slot: int) -> None:
    """Shuffle zone `slot`: its cards become one unordered run (in a fixed order)."""
    zone = st.zones[slot]
    zone.sort()
    if len(zone) < 2:
        st.unordered.pop(slot, None)
    else:
        st.unordered[slot] = set(zone)


def eager(st: State, slot: int) -> bool:
    """Whether a shuffle of zone `slot` must be dealt whole at once (see above)."""
    return st.layout.zdef[slot] in st.game.eager_zones()


def shuffle_zone(st: State, env: dict[str, Any], slot: int, key: str) -> None:
    """The `shuffle` statement: mark the zone unordered; an eager zone is then dealt
    whole, top first (`env[key]` says the shuffle is done while that goes on)."""
    if key not in env:
        mark(st, slot)
        if not eager(st, slot):
            return
        env[key] = True
    settle(st, slot)
    del env[key]


def settle(st: State, slot: int) -> None:
    """Deal the whole unordered run of zone `slot`."""
    make_known(st, slot, len(st.zones[slot]), True)


def before_deal(st: State, slot: int, env: dict[str, Any], key: str, remaining: int) -> None:
    """`draw` is about to take the top card of zone `slot`: ask for it first (keeping
    the cards still to draw in `env[key]`, for the draw's next run)."""
    if slot not in st.unordered:
        return
    env[key] = remaining
    if eager(st, slot):
        settle(st, slot)
    else:
        make_known(st, slot, 1, True)
    del env[key]


def make_known(st: State, slot: int, count: int, top: bool) -> None:
    """Make the `count` cards at the top (or bottom) of zone `slot` known, asking which
    card of the unordered run comes next while the run reaches them. At a chance node
    (a view looked at from outside the run loop) the fixed order stands in."""
    while count > 0 and slot in st.unordered:
        if isinstance(st.pending, PendingChance):
            return
        run = st.unordered[slot]
        zone = st.zones[slot]
        lo, hi = _bounds(zone, run)
        if (hi <= len(zone) - count) if top else (lo >= count):
            return
        options, weights, copies = _card_groups(st, zone[lo:hi])
        if len(options) == 1:  # the run is copies of one card: only their numbers need an order
            del st.unordered[slot]
            segment = zone[lo:hi]
            shuffle_in_place(st, segment)
            zone[lo:hi] = segment
            return
        where = _zone_name(st, slot)
        prompt = f"the next card of {where}" if top else f"the bottom card of {where}"
        _ask(st, PendingChance("deal", prompt, "card", options, weights, slot, "top" if top else "bottom", copies))


def leave_run(st: State, slot: int, iid: int) -> None:
    """Card `iid` left zone `slot` (cards.py): it is no longer part of the zone's run.
    A card taken out of a shuffled pile by name leaves the rest as shuffled as before."""
    run = st.unordered[slot]
    run.discard(iid)
    if len(run) < 2:
        del st.unordered[slot]


def _bounds(zone: list[int], run: set[int]) -> tuple[int, int]:
    """Where the run sits in the zone's list: [lo, hi)."""
    lo = next(i for i, iid in enumerate(zone) if iid in run)
    return lo, lo + len(run)


def _place(st: State, slot: int, end: str, iid: int) -> None:
    """The outcome of a deal: card `iid` of the run takes the run's top (bottom) place."""
    run = st.unordered[slot]
    zone = st.zones[slot]
    lo, hi = _bounds(zone, run)
    zone.remove(iid)
    zone.insert(hi - 1 if end == "top" else lo, iid)
    run.discard(iid)
    if len(run) < 2:
        del st.unordered[slot]


def _zone_name(st: State, slot: int) -> str:
    zdef = st.gd.zones[st.layout.zdef[slot]]
    owner = st.layout.zowner[slot]
    return f"{zdef.name}(P{owner + 1})" if owner >= 0 else zdef.name


# ---- the chance node: its outcomes, applying one --------------------------------------


def outcome_actions(st: State, pending: PendingChance) -> list[Action]:
    """The outcomes as actions: `deal CARD` or `chance VALUE` (a card as its id, with
    its copy number only when two outcomes are copies of one card that differ)."""
    word = "deal" if pending.event == "deal" else "chance"
    options = pending.options
    if pending.type == "card" and all(type(v) is int for v in options):
        defs = [st.card_def[v] for v in options]
        shared = {d for d in defs if defs.count(d) > 1}
        cards = st.gd.cards
        return [Action(f"{word} {cards[d].id}" + (f"#{v}" if d in shared else ""), v)
                for v, d in zip(options, defs, strict=True)]
    return [Action(f"{word} {render(st, v, pending.type)}", v) for v in options]


def probabilities(pending: PendingChance) -> list[Fraction]:
    """The exact probability of each outcome of a chance node, in order."""
    total = sum(pending.weights)
    return [Fraction(w, total) for w in pending.weights]


def apply_outcome(st: State, chosen: Action) -> None:
    """Take `chosen` (one of the outcomes) as what happened; the caller runs the
    operation that asked again."""
    pending = st.pending
    assert isinstance(pending, PendingChance)
    st.pending = None
    st.legal_cache = None
    value = chosen.payload
    if pending.copies:
        value = _one_of(st, value, pending.copies[pending.options.index(value)])
    if pending.event == "deal":
        _place(st, pending.slot, pending.end, value)
    else:
        st.chance_answers.append(value)


def sample(st: State, rng: random.Random) -> Action:
    """An outcome of the chance node drawn at its probability with `rng`."""
    pending = st.pending
    assert isinstance(pending, PendingChance)
    pick_at = rng.randrange(sum(pending.weights))
    for action, weight in zip(outcome_actions(st, pending), pending.weights, strict=True):
        if pick_at < weight:
            return action
        pick_at -= weight
    raise AssertionError("unreachable: the weights add up")
