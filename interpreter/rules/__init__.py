"""Rule files: safe bounded YAML with positions, JSON Schema checks, finding a game's files
and merging overlays into one raw definition. Nothing here runs a game."""
