# Two commands: `make run` (the app on its embedded default) and `make test` (the whole suite).
PYTHON ?= python3
# make run serves the local network (students' phones join at this machine's LAN address);
# `make run SERVE_ARGS=` keeps it on this computer only.
SERVE_ARGS ?= --lan
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install bench lint chromium catalogs messages gettext-tools

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed catalogs

# the translation catalogs (locale/es, locale/pl) compiled to .mo in pure Python (polib)
catalogs: $(VENV)/.installed
	$(BIN)/python manage.py compile_catalogs

# extraction (needs GNU gettext's xgettext): every msgid of the Python code, templates and JS
# into locale/*/LC_MESSAGES/django.po and djangojs.po; translate the new entries, then `make catalogs`
MESSAGE_IGNORES := --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=tmp
gettext-tools:
	@command -v xgettext >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q gettext >/dev/null)

messages: install gettext-tools
	$(BIN)/python manage.py makemessages -l es -l pl --no-obsolete $(MESSAGE_IGNORES)
	$(BIN)/python manage.py makemessages -d djangojs -l es -l pl --no-obsolete $(MESSAGE_IGNORES)
	$(BIN)/python manage.py compile_catalogs

run: install
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py serve $(SERVE_ARGS)  # development values unless told otherwise

chromium:
	@[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ] || \
	  (echo "Installing Chromium and its headless shell for the browser tests (Debian packages)…" && \
	   apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-headless-shell >/dev/null)

# the suite in parallel: pytest-xdist workers, each given the next test when it is down to two
# (the longest first, tests/conftest.py; the scripted lessons one after the other on one worker,
# tests/test_lesson_script_browser.py; servers and browser started once per worker). Each worker
# has a Redis database of its own (REDIS_URL's number plus the worker's, config/settings_test.py).
# `make test TEST_WORKERS=0`: one process.
TEST_WORKERS ?= 3
test: install chromium gettext-tools
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

# the benches' own requirement (not the app's, not the tests'): py-spy for live_latency --profile
bench: install
	@[ -x $(BIN)/py-spy ] || $(BIN)/pip install --quiet py-spy
	$(BIN)/python bench/live_latency.py $(BENCH_ARGS)
