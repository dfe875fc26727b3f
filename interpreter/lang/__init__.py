"""The effect language: its grammar, the parser into a typed AST, and the names an
effect text may use. The bottom of the pipeline: it knows no game, state or runtime."""
