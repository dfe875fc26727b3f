"""The compiler: checked effect text into operations over the runtime's primitives, and
the build of a raw rule definition into the model (semantic checks included)."""
