# numbaxfer: `make demo` and `make test` are all a newcomer needs.
#
# By default both create .venv and install the project with its dev tools there.
# On a machine without network whose interpreter already has the dependencies
# (a GPU host), use it as is:   make test NUMBAXFER_SYSTEM_PYTHON=1 PYTHON=python3

PYTHON ?= python3
VENV ?= .venv
MYPY_OLDEST ?= 1.16.1

ifeq ($(NUMBAXFER_SYSTEM_PYTHON),1)
PY := $(PYTHON)
DEPS :=
else
PY := $(VENV)/bin/python
DEPS := $(VENV)/.installed
endif

.PHONY: all demo test lint typecheck pytest typesafety-oldest bench clean

all: test

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	touch $@

demo: $(DEPS)
	$(PY) examples/demo.py

test: lint typecheck pytest typesafety-oldest

lint: $(DEPS)
	$(PY) -m ruff check numbaxfer tests examples bench
	$(PY) -m ruff format --check numbaxfer tests examples bench

typecheck: $(DEPS)
	$(PY) -m mypy --config-file mypy.ini

# The CPU suite: numba's simulator, the emulator, the mypy cases. On a GPU host the
# same suite runs on the GPU (fast path) with the gpu tests, again with the fast path
# off, then a simulator pass for the emulator tests (numba picks GPU or simulator once
# per process).
pytest: $(DEPS)
	$(PY) -m pytest
	@if $(PY) -c 'import sys; from numbaxfer._backend import gpu_present; sys.exit(not gpu_present())' \
	    && [ "$$NUMBA_ENABLE_CUDASIM" != 1 ]; then \
	  echo "GPU host: the numba-methods path (fast path off) on the GPU"; \
	  NUMBAXFER_FASTPATH=0 $(PY) -m pytest -q tests/cuda tests/gpu || exit 1; \
	  echo "GPU host: simulator pass for the emulator and property tests"; \
	  NUMBA_ENABLE_CUDASIM=1 $(PY) -m pytest -q tests/emulator tests/property tests/examples tests/unit tests/faults tests/adversarial || exit 1; \
	fi

# The mypy case corpus again on the oldest supported mypy (a second venv; skipped
# where there is no network to install it).
typesafety-oldest: $(DEPS)
	@if [ "$(NUMBAXFER_SYSTEM_PYTHON)" = 1 ]; then \
	  echo "typesafety-oldest: skipped (NUMBAXFER_SYSTEM_PYTHON=1: no venv to install mypy $(MYPY_OLDEST) into)"; \
	else \
	  [ -f .venv-mypy-oldest/.installed ] || ( $(PYTHON) -m venv .venv-mypy-oldest \
	    && .venv-mypy-oldest/bin/python -m pip install -q --upgrade pip \
	    && .venv-mypy-oldest/bin/python -m pip install -q -e '.[dev]' 'mypy==$(MYPY_OLDEST)' \
	    && touch .venv-mypy-oldest/.installed ); \
	  .venv-mypy-oldest/bin/python -m pytest tests/typesafety -q; \
	fi

bench: $(DEPS)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) .venv-mypy-oldest .mypy_cache .pytest_cache .ruff_cache bench/out
