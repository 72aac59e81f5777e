# playtest: `make run` runs the default study, `make test` runs the suite.
# Both install what they need into .venv first (once; later calls are instant).
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTHON ?= python3

.PHONY: install run test docs bench notebooks clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: install
	$(VENV)/bin/playtest simulate forks --players 4 --games 1000000 --seed 1 --out runs/default --force
	$(VENV)/bin/playtest report runs/default --out runs/default/report.html

test: install
	$(PY) -m ruff check simulator strategies analyses reports studies playtest tests
	$(VENV)/bin/lint-imports
	$(MAKE) --no-print-directory docs SPHINXOPTS="-W --keep-going -E"
	$(PY) -m pytest -q -n auto --dist loadgroup

# The documentation site, from docs/ (docs/conf.py), into runs/docs/html/index.html. `make test` builds it
# strictly, every page read again: any warning (a broken reference, a page missing from the contents) fails.
SPHINXOPTS ?=
docs: install
	$(VENV)/bin/sphinx-build -q $(SPHINXOPTS) -b html docs runs/docs/html

# `make bench` measures every game into bench/results.md; `make bench GAME="forks fool"` only those, printed
# (cold, warm and play-alone times of issue 42's commands included: a few minutes per game on two cores)
bench: install
	$(VENV)/bin/playtest bench $(GAME)

# Execute every notebook in analyses/notebooks and write it, with its outputs, as HTML to runs/notebooks/.
NB_OUT := runs/notebooks
notebooks: install $(VENV)/.notebooks
	mkdir -p $(NB_OUT)
	PLAYTEST_NOTEBOOK_OUT=$(CURDIR)/$(NB_OUT)/runs $(VENV)/bin/jupyter nbconvert --to html --execute \
		--ExecutePreprocessor.timeout=1800 --output-dir $(NB_OUT) analyses/notebooks/*.ipynb

$(VENV)/.notebooks: pyproject.toml
	$(PY) -m pip install --quiet -e '.[notebooks]'
	touch $@

clean:
	rm -rf runs .pytest_cache
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
