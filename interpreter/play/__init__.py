"""Playing games: running seats to the end, simulating many games, logs, describing a
game, and the terminal front-end. Above the engine; the CLI sits on top of it."""
