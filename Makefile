# The two commands of the README's quick start, and the longer runs kept out of CI.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test install install-dev bench verify balance slow lint figures notebooks screenshot

# setuptools warns on every editable install because agents/ and train/ are mapped into the package
# (pyproject.toml says why); that one warning is silenced, every other one still shows.
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# pip runs again only when pyproject.toml changes (the install is editable: code changes need no reinstall). The
# extras are what the README's commands after the demo use: pictures and GIFs (render), the arena's ratings and
# plot (arena), TBB threads (fast). The shipped ppo players run on numpy here; training needs the train extra (torch).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[fast,render,arena]'
	touch $@

# The tests train a few thousand MaskablePPO steps, so they need the train extra too (torch==2.13.0, CPU), and a
# few RLlib iterations on a local Ray instance (the rllib extra: ray[rllib]==2.60.0, about 20 s to install).
$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[dev,train,rllib]'
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# warmup compiles every listed game's engine once, saying what and how long; every later command loads the compiled
# code in about a second. numba compiles on one core, so the games compile at the same time, one `industry-env
# warmup --game` process each (two at a time: the 2 cores), each game's report printed when it is done: on the quiet
# 2-core machine the compile takes about 2 minutes (Industry then 20th Century beside Age of Industry), not the sum.
GAMES_CMD := $(BIN)/python -c "from industry_env.registry import available_games as a; print(*a())"
WARMUP := echo "industry-env warmup, one process per game: compiling every game's engine at once"; \
	$(GAMES_CMD) | xargs -n 1 -P 2 sh -c '$(BIN)/industry-env warmup --game "$$0" > "$(VENV)/warmup-$$0.log" 2>&1; \
	rc=$$?; cat "$(VENV)/warmup-$$0.log"; exit $$rc'

demo: install  ## install, compile the engines once, then play random games and show one
	@$(WARMUP)
	$(BIN)/industry-env demo

# The notebooks (the longest items) go first and an idle worker takes waiting tests from the other
# (--dist worksteal), so that neither of the two workers is left alone with a long test at the end. The README's and
# docs' Python blocks run too (pytest-markdown-docs; conftest.py: each alone, in an empty folder; ```python slow
# blocks only in make slow). Bytecode is cached even where the machine sets PYTHONDONTWRITEBYTECODE (an empty value
# unsets it): otherwise every notebook kernel and every process a test starts compiles the package's sources again.
test: install-dev  ## install with the test tools, then run the suite (what CI runs)
	$(BIN)/ruff check .
	@$(WARMUP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m "not slow" -n 2 --dist worksteal --durations=10 --nbmake notebooks tests \
		--markdown-docs README.md docs

bench: install  ## the speed benchmark (prints figures, writes bench-results-industry.json)
	$(BIN)/industry-env bench

verify: install  ## 100,000 games, batched engine against the reference engine
	$(BIN)/industry-env verify --games 100000

balance: install  ## the board's balance over many games
	$(BIN)/industry-env balance --games 2000

slow: install-dev  ## the long property, differential and fuzz runs (make test runs a short version of each), and the docs' long blocks
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m slow -n 2 --dist worksteal tests --markdown-docs README.md docs

figures: install-dev  ## redraw the docs' pictures of the board (docs/industry/board-example.*, docs/figures.json)
	$(BIN)/python -m industry_env.docfigures

notebooks: install-dev  ## run the notebooks and save them with their outputs (make test runs them again with nbmake)
	$(BIN)/python notebooks/execute.py

screenshot: install-dev  ## the README's screenshot of industry-env serve (docs/serve.png), taken by headless Chromium
	$(BIN)/python -m tests.web.browser docs/serve.png
