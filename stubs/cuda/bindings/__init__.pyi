"""numbaxfer stubs for cuda.bindings (cuda-python 12.x/13.x)."""
