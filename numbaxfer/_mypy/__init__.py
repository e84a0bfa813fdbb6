"""The mypy plugin's internals (``numbaxfer.mypy_plugin`` is its entry point)."""
