# Set up once with `make setup`; every other target sets up first if needed.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.setup-stamp
JOBS   ?= auto

.PHONY: setup test lint demo bench clean

# Bytecode of the package and the bundled bots, written here because bots run with
# PYTHONDONTWRITEBYTECODE (they must not write into the package): without it every
# bot would compile the engine it imports at each start (Manila bot: 68 -> 55 ms CPU).
# Up-to-date files are skipped, so this costs ~40 ms when nothing changed.
# Then the engines' hot modules and the match loop are compiled with mypyc where a C
# compiler is found (docs/native.md; about 20 s per package, and only when a
# compiled source changed).
setup: $(STAMP)
	@$(BIN)/python -m compileall -q referee bots >/dev/null
	@$(BIN)/python scripts/build_native.py

# Editable, in setuptools' "compat" mode: a plain path entry instead of an import
# hook, so every Python process (each bot too) starts about 12 ms faster.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' --config-settings editable_mode=compat
	touch $(STAMP)

## Run the whole test suite (what CI runs).
test: setup
	$(BIN)/python -m pytest -n $(JOBS) tests

## ruff + mypy.
lint: setup
	$(BIN)/ruff check referee bots tests benchmarks scripts/build_native.py
	$(BIN)/ruff format --check referee bots tests benchmarks scripts/build_native.py
	$(BIN)/mypy

## A real round-robin tournament of the bundled bots at Manila, in a fresh
## run directory every time (runs/manila-demo-<date>-<time>-<pid>).
DEMO_CONFIG ?= tournaments/manila.toml
RUNS        ?= runs
demo: setup
	@out="$(RUNS)/manila-demo-$$(date +%Y%m%d-%H%M%S)-$$$$"; \
	echo "demo run directory: $$out"; \
	$(BIN)/referee tournament $(DEMO_CONFIG) --out "$$out" --concurrency 2 && \
	echo "tables again: $(BIN)/referee results $$out"

## Engine and referee benchmarks (not tests): the baseline BASE as shipped (built
## once in its own venv under .bench/) beside this checkout, alternating, with medians.
BASE ?= 5031fe4
bench: setup
	$(BIN)/python -m benchmarks --base $(BASE)

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache referee/games/*/_native referee/match/_native
