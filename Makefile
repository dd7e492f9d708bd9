# Warroom — every target bootstraps what it needs (a .venv with the project installed).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench typecheck clean postgres-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install only when the project definition changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

# The project's own bytecode, written ahead: an editable install has none, and where
# Python may not write it as it imports (PYTHONDONTWRITEBYTECODE, set in many containers
# and CI sandboxes) every process would compile the modules it loads again: ~40 of the
# ~95 ms of a one-shot `warroom odds` there.  Up-to-date files are skipped (~0.1 s).
BYTECODE := $(BIN)/python -m compileall -q -j 0 bot engine render bench
# The compiled pass of sea battles where submarines strike every round (numba), compiled
# into numba's cache ahead (its three loops: ~10-30 s the first time, ~2 s once cached), so the first such
# battle asked does not wait for it.
KERNELS := $(BIN)/python -c 'from bot.commands.odds import warm; warm()'

run: $(VENV)/.installed
	$(BYTECODE)
	$(KERNELS)
	$(BIN)/warroom run

# The tests start their own PostgreSQL server (tests/storage/pg_server.py) from Debian's
# postgresql package: installed here, non-interactively, when its programs are missing.
postgres-server:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "make: installing Debian's postgresql package (the tests start their own server)"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; \
	fi

# Second pass: the local-channel suite (storage, sessions, scheduler, scripts, the example
# battle, the Discord adapter) once more with every repository on PostgreSQL.  The pure
# engine/render/odds tests do not touch storage and run once.
PG_SKIP := tests/minis tests/memoir tests/aa tests/render tests/odds tests/minis_data \
	tests/test_hexgrid.py tests/test_minis_line_of_sight.py tests/test_layers.py tests/test_roll.py

test: $(VENV)/.installed-dev postgres-server
	$(BYTECODE)
	$(BIN)/python -m ruff check --quiet .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest
	WARROOM_TEST_BACKEND=postgresql $(BIN)/python -m pytest $(addprefix --ignore=,$(PG_SKIP))

bench: $(VENV)/.installed-dev
	$(BYTECODE)
	$(KERNELS)
	$(BIN)/python -m bench

typecheck: $(VENV)/.installed-dev
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
