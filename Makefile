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

.PHONY: all demo test lint typecheck pytest typesafety-oldest neutrality compile-check newest bench clean

all: test

# Editable: hatchling writes a .pth path entry naming the checkout (no import hook), so
# mypy run from any directory in this venv finds numbaxfer and its plugin.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	touch $@

demo: $(DEPS)
	$(PY) examples/demo.py

test: lint typecheck pytest typesafety-oldest neutrality compile-check

lint: $(DEPS)
	$(PY) -m ruff check numbaxfer tests examples bench
	$(PY) -m ruff format --check numbaxfer tests examples bench

# NUMBAXFER_MYPY_PLUGIN_DEBUG=1: a plugin bug fails the check here, where a user's run
# would degrade silently (that call unchecked).
typecheck: $(DEPS)
	NUMBAXFER_MYPY_PLUGIN_DEBUG=1 $(PY) -m mypy --config-file mypy.ini

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

# Installing numbaxfer must not change mypy's output on code that does not use it:
# tests/neutrality/run.py checks a corpus of ordinary numba / numba.cuda / cuda.core /
# cuda.bindings code without and with numbaxfer's wheel installed (and with its plugin),
# that the wheel installs no file outside numbaxfer's own names, and that a project
# naming only the plugin gets the seed bug. Own venv (.venv-neutral); about 2 minutes.
neutrality:
	@if [ "$(NUMBAXFER_SYSTEM_PYTHON)" = 1 ]; then \
	  echo "neutrality: skipped (NUMBAXFER_SYSTEM_PYTHON=1: no venv to install into)"; \
	else \
	  $(PYTHON) tests/neutrality/run.py --venv .venv-neutral; \
	fi

# Compile every kernel of tests/, examples/ and bench/ to PTX on a machine with no GPU:
# numba-cuda's cu13 extra brings NVVM/NVRTC as wheels (about 800 MB in .venv-cu13,
# about 45 s to install; the compiling itself takes seconds). A numpy or numba-cuda
# release in the allowed ranges that breaks compilation fails here, not only on a GPU.
compile-check:
	@if [ "$(NUMBAXFER_SYSTEM_PYTHON)" = 1 ]; then \
	  env -u NUMBA_ENABLE_CUDASIM $(PY) -m tests.compile_check; \
	else \
	  [ -f .venv-cu13/.installed ] || ( $(PYTHON) -m venv .venv-cu13 \
	    && .venv-cu13/bin/python -m pip install -q --upgrade pip \
	    && .venv-cu13/bin/python -m pip install -q -e '.[cu13]' \
	    && touch .venv-cu13/.installed ); \
	  env -u NUMBA_ENABLE_CUDASIM .venv-cu13/bin/python -m tests.compile_check; \
	fi

# The newest versions the pins allow, resolved afresh (a new .venv-newest each run):
# mypy --strict over the project, the unit and simulator suites, the mypy cases, and
# the kernel compile check. Not part of `make test` (a second full install with the
# cu13 wheels; 1m40s here with a warm pip cache): run it on a schedule, or before a release.
newest:
	rm -rf .venv-newest
	$(PYTHON) -m venv .venv-newest
	.venv-newest/bin/python -m pip install -q --upgrade pip
	.venv-newest/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e '.[dev,cu13]'
	.venv-newest/bin/python -m pip list 2>/dev/null | grep -iE '^(numba|numba-cuda|numpy|cuda-|mypy|nvidia-)'
	.venv-newest/bin/python -m mypy --config-file mypy.ini
	env -u NUMBA_ENABLE_CUDASIM .venv-newest/bin/python -m tests.compile_check
	NUMBA_ENABLE_CUDASIM=1 .venv-newest/bin/python -m pytest -q -x tests/unit tests/cuda tests/typesafety

bench: $(DEPS)
	$(PY) bench/run.py
	$(PY) bench/small_chunks.py

clean:
	rm -rf $(VENV) .venv-mypy-oldest .venv-neutral .venv-cu13 .venv-newest .mypy_cache .pytest_cache .ruff_cache bench/out
