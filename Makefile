# Parley: the commands a newcomer needs. Every target installs what it needs first.
SHELL := /bin/bash
BUILD_DIR := build
LISTEN ?= 127.0.0.1:8080
FUZZ_SECONDS ?= 600
# ccache keys on paths relative to the checkout, so a second clone (CI's, a worktree) reuses the
# objects another one compiled.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all deps deps-sanitize configure build run test test-sanitize fuzz bench eval format lint clean

all: build

deps:
	@bash scripts/install-deps.sh

# Also clang and its sanitizer runtime, for the sanitizer build and the fuzzers.
deps-sanitize:
	@bash scripts/install-deps.sh --sanitize

configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then cmake --preset release; fi

build: configure
	@cmake --build $(BUILD_DIR) -j $$(nproc)

run: build
	@bash scripts/run.sh $(LISTEN)

# The release suite: unit, integration and end-to-end tests on SQLite, the end-to-end tests again on
# PostgreSQL, the OpenAPI checks and the browser tests. CI (.ci/run) also runs test-sanitize.
test: build
	@bash scripts/test.sh

# The same suite under ASan+UBSan in a clang build, each fuzz corpus replayed and each fuzz target
# run briefly.
test-sanitize: deps-sanitize
	@bash scripts/test-sanitize.sh

# Each fuzz target for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=3600).
fuzz: deps-sanitize
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

bench: build
	@bash bench/run.sh

# Answer quality of an agent on the evaluation corpus (tests/data/eval); writes bench/results/eval.md.
# Options through EVAL_ARGS, e.g. make eval EVAL_ARGS="--split dev --sweep 0.3,0.4,0.5".
eval: build
	@python3 bench/eval.py $(EVAL_ARGS)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

# clang-tidy reads the compile commands of a configuration without precompiled headers (the
# release build's are GCC's, which clang cannot load); nothing is built there.
lint: deps
	@cmake -S . -B build-lint -G Ninja -DCMAKE_BUILD_TYPE=Release -DPARLEY_PCH=OFF >/dev/null
	@git ls-files 'src/*.cpp' | xargs clang-tidy -p build-lint --quiet

clean:
	rm -rf $(BUILD_DIR) build-asan build-lint
