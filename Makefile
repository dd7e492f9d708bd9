# Warroom — every target bootstraps what it needs (a .venv with the project installed).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test bench typecheck clean

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

run: $(VENV)/.installed
	$(BIN)/warroom run

test: $(VENV)/.installed-dev
	$(BIN)/python -m ruff check --quiet .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-dev
	$(BIN)/python -m bench

typecheck: $(VENV)/.installed-dev
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
