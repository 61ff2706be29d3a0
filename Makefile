# Citable: every target creates .venv and installs requirements.txt on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export RA_LIBRARY_DIR ?= $(CURDIR)/library

.PHONY: run test lint format bench demo browser-deps clean unicode-tables

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m research_assistant demo --if-empty

# STREAMLIT_SERVER_PORT (default 8501) is read by streamlit itself.
run: demo
	$(PY) -m streamlit run app.py --server.headless true --browser.gatherUsageStats false

test: $(STAMP)
	$(PY) -m pytest -q

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy research_assistant pages app.py

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

# fold's Unicode patterns, saved for this Python's Unicode version (tests/test_text.py checks them)
unicode-tables: $(STAMP)
	$(PY) -c "from pathlib import Path; from research_assistant.text import write_tables; write_tables(Path('research_assistant/unicode_tables.py'))"

bench: $(STAMP)
	$(PY) bench/ingest.py
	$(PY) bench/verify.py
	$(PY) bench/ask.py
	$(PY) bench/load.py
	$(PY) bench/manuscript.py

# Debian's chromium for the browser test (never a playwright browser download).
browser-deps:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium fonts-noto-color-emoji)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
