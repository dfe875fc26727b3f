"""The runtime: a game state as plain data, the run loop, and the primitives compiled
code calls (random numbers, events, cards and zones, counters and values, ending and
scoring), decisions, observation, presentation and saves. It knows the model, never the
compiler."""
