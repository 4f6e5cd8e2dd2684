# Two entry points (see README): `make run` and `make test`. Everything else is set up by them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The engine modules setup.py compiles with mypyc (when a C compiler works and TIENLEN_PURE is
# not set); a compiled module is rebuilt whenever a source changes, so it is never stale.
COMPILED := $(VENV)/.compiled
ENGINE_SOURCES := $(wildcard src/tienlen/engine/*.py) setup.py

.PHONY: run test lint typecheck bench clean

# Dependencies first (the engine left pure), then the engine compiled in place by the venv's own
# mypy and setuptools: one compile, redone alone when an engine source changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	TIENLEN_PURE=1 $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(COMPILED): $(STAMP) $(ENGINE_SOURCES)
	find src \( -name '*.so' -o -name '*.pyd' \) -delete
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	@$(BIN)/python -c "import tienlen.engine.game as g; \
	print('tienlen engine:', 'pure Python' if g.__file__.endswith('.py') else 'compiled by mypyc')"
	touch $(COMPILED)

## run: a game against three bots in the terminal, under the thapthanh preset (embedded defaults).
run: $(COMPILED)
	$(BIN)/tienlen play

## test: lint, format check, type check, then the whole test suite twice: on the pure Python
## engine with coverage, and on the engine as installed (compiled by mypyc where it could be).
test: $(COMPILED) lint typecheck
	TIENLEN_PURE=1 $(BIN)/pytest --cov --cov-report=term
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src tests benchmarks setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(COMPILED)
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build
	find src \( -name '*.so' -o -name '*.pyd' \) -delete
