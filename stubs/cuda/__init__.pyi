"""numbaxfer stubs: the part of cuda-python numbaxfer uses."""
