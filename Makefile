# The two commands of the README. Both create the virtual environment in .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# constraints.txt pins every transitive dependency to the versions the test suite ran with.
PIP_INSTALL := $(BIN)/pip install --disable-pip-version-check -q -c constraints.txt

.PHONY: run test install lint bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml constraints.txt
	$(PIP_INSTALL) -e '.[test,verl]'
	touch $@

install: $(VENV)/.installed

## run: install, initialise the database, add the demo model/data/job, serve on http://127.0.0.1:8000
run: install
	$(BIN)/tplat demo
	$(BIN)/tplat serve

## test: install with test extras and run the whole suite (SQLite and the PostgreSQL at 127.0.0.1:5432)
test: lint
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check training_platform tests benchmarks
	$(BIN)/ruff format --check training_platform tests benchmarks

## bench: the benchmarks, each printing a table with ratios against its baseline
bench: install
	$(BIN)/python -m benchmarks.metrics.run
	$(BIN)/python -m benchmarks.datasets.run
	$(BIN)/python -m benchmarks.compute.run
