"""The native backend: a game's rules lowered to typed C (through Cython) over a flat
integer state, compiled on first use and cached, for whole playouts without Python in
the loop. Games outside the native subset, and machines without Cython or a C
compiler, run on the Python path (docs/native.md)."""
