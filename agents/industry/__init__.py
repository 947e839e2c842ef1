"""Industry's own agents: the heuristics, their compiled kernel, the modelled search."""
