# Entry points of mg-web. `make run` serves the product at http://localhost:3000;
# `make test` runs every suite. Both install what is missing first and skip what is done.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

WASM_SOURCES := $(shell find core-wasm/src domain/src -name '*.rs') core-wasm/Cargo.toml domain/Cargo.toml Cargo.lock
APP_SOURCES := $(shell find app/src app/public app/vite app/common -type f 2>/dev/null) app/scripts/prerender.mjs app/index.html app/vite.config.ts app/tsconfig.json

.PHONY: help run dev test lint workspace-hack bench bench-load bench-scale bench-graphics tools tools-target tools-browser app server server-production server-debug clean package package-fixtures bench-browser bench-compare bench-wasm http-types

help: ## List the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-15s %s\n", $$1, $$2 }'

# What the wasm builds need (the wasm32 target), then the package build's wasm-bindgen-cli, then
# the browsers and nginx of the tests: in this order, so that a parallel make never runs two
# installs at once, and the wasm crates compile while wasm-bindgen-cli does.
tools-target:
	@scripts/ensure-tools.sh target

tools: tools-target
	@scripts/ensure-tools.sh build

tools-browser: tools
	@scripts/ensure-tools.sh browser

# The npm package of core-wasm, `mg-core` (core-wasm/npm/README.md): the state machines at its root and
# the decorative graphics' geometry under `mg-core/graphics` (its SIMD build under
# `mg-core/graphics/simd`), each its own .wasm (cargo features,
# src/bindings.rs), so the graphics never weigh on a page's first load. One cargo build per .wasm,
# copied out of cargo's folder (every feature set writes the same release/mg_core.wasm, so the builds
# run one after the other); then core-wasm/npm/build.sh runs wasm-bindgen for each way of loading it,
# adds the entries from core-wasm/npm/templates/ into pkg/ (the package, unpacked; git-ignored) and packs
# it into the tarball beside it, mg-core-<version>.tgz at the repository's root (git-ignored too).
# The app depends on pkg/ itself; users and the packaging fixtures install the tarball.
# The status page's machine is its own .wasm too, `mg-core/status`, loaded only by /apotheosis.
# Another .wasm is one more raw rule below plus one `part` line in build.sh.
NPM_VERSION := $(shell awk -F'"' '/^\[workspace.package\]/ { w = 1 } w && /^version = / { print $$2; exit }' Cargo.toml)
NPM_TARBALL := mg-core-$(NPM_VERSION).tgz
NPM_SOURCES := $(shell find core-wasm/npm -type f)
WASM_RAW := target/npm/raw/mg_core.wasm target/npm/raw/mg_core_graphics.wasm \
	target/npm/raw/mg_core_graphics_simd.wasm target/npm/raw/mg_core_status.wasm
CARGO_WASM := cargo build -p mg-core --lib --release --target wasm32-unknown-unknown
CARGO_WASM_OUT := target/wasm32-unknown-unknown/release/mg_core.wasm

target/npm/raw/mg_core.wasm: $(WASM_SOURCES) | tools-target
	$(CARGO_WASM)
	mkdir -p $(@D) && cp $(CARGO_WASM_OUT) $@

target/npm/raw/mg_core_graphics.wasm: $(WASM_SOURCES) target/npm/raw/mg_core.wasm | tools-target
	$(CARGO_WASM) --no-default-features --features graphics
	mkdir -p $(@D) && cp $(CARGO_WASM_OUT) $@

# The status page's machine (`mg-core/status`), after the scalar graphics: same cargo output file.
target/npm/raw/mg_core_status.wasm: $(WASM_SOURCES) target/npm/raw/mg_core_graphics.wasm | tools-target
	$(CARGO_WASM) --no-default-features --features status
	mkdir -p $(@D) && cp $(CARGO_WASM_OUT) $@

# The graphics again, built with wasm SIMD (`simd128`, glam's SIMD path): `mg-core/graphics/simd`,
# which app/src/graphics/wasm.ts loads where WebAssembly.validate accepts a SIMD module, else the
# scalar `mg-core/graphics`. Its own cargo target directory (the one the simd128 browser tests and
# `make bench-wasm` use too), so the two RUSTFLAGS never invalidate each other's build cache and this
# build never overwrites the scalar ones' release/mg_core.wasm.
SIMD_TARGET := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)/simd128
SIMD_FLAGS := CARGO_TARGET_DIR=$(SIMD_TARGET) RUSTFLAGS="-C target-feature=+simd128"

target/npm/raw/mg_core_graphics_simd.wasm: $(WASM_SOURCES) | tools-target
	$(SIMD_FLAGS) $(CARGO_WASM) --no-default-features --features graphics
	mkdir -p $(@D) && cp $(SIMD_TARGET)/wasm32-unknown-unknown/release/mg_core.wasm $@

$(NPM_TARBALL): $(WASM_RAW) $(NPM_SOURCES) | tools
	core-wasm/npm/build.sh target/npm/raw

package: $(NPM_TARBALL) ## Build the npm package of core-wasm (pkg/ and the .tgz beside it)

# The packaging fixtures (examples/): their tools from examples/package-lock.json (scripts/npm-ci.sh:
# `npm ci`, or the copy of its folder kept on this machine for the same lockfile), then the tarball
# itself, installed again whenever it is rebuilt.
examples/node_modules/.installed: examples/package-lock.json examples/package.json
	scripts/npm-ci.sh examples --no-audit --no-fund --loglevel=error
	touch $@

examples/node_modules/mg-core/package.json: $(NPM_TARBALL) examples/node_modules/.installed
	cd examples && npm install --no-save --no-audit --no-fund --loglevel=error ../$(NPM_TARBALL)
	touch $@

package-fixtures: examples/node_modules/mg-core/package.json

# npm ci only when the lockfile changed since the last install.
# The package is linked (a symlink to pkg/), so a rebuilt package needs no reinstall.
app/node_modules/.installed: app/package-lock.json app/package.json | $(NPM_TARBALL)
	scripts/npm-ci.sh app --no-audit --no-fund
	touch $@

app/dist/index.html: $(APP_SOURCES) app/node_modules/.installed $(NPM_TARBALL)
	cd app && npm run --silent build

app: app/dist/index.html ## Build the wasm package and the app

# The graphics harness page (app/graphics.html) for the e2e graphics tests: its own build, never in app/dist.
app/dist-harness/graphics.html: $(APP_SOURCES) app/graphics.html app/node_modules/.installed $(NPM_TARBALL)
	cd app && npx vite build --mode harness --logLevel warn

server: ## Build the release server
	cargo build --release -p mg-server

# The production build: the server linked without the identity emulator's crate (`mg-emulator`, the
# `emulator` cargo feature left out), so it refuses to start without IDENTITY_BASE_URL. It shares
# target/release with `make server`: cargo keeps both builds of the shell crate side by side, so
# switching compiles only the shell (`mg-server`), never the crates under it. The binary is copied
# to $(PRODUCTION_BIN), then the development binary is put back in target/release (a copy, no
# compile); deploy/mg-web@.service installs $(PRODUCTION_BIN).
PRODUCTION_BIN := target/production/mg-server
server-production: ## Build the release server without the identity emulator (what deploy/ runs)
	cargo build --release -p mg-server --no-default-features
	mkdir -p $(dir $(PRODUCTION_BIN)) && cp target/release/mg-server $(PRODUCTION_BIN)
	cargo build --release -p mg-server
	@echo "production binary: $(PRODUCTION_BIN)"

server-debug:
	cargo build -p mg-server

# `run` and `test` build what they need with two jobs: the server compiles while the wasm package,
# the npm installs and the app build do (cargo's lock keeps two builds of one target directory in turn).
run: ## Build everything and serve it at http://localhost:3000 (SQLite, identity emulator)
	@$(MAKE) --no-print-directory -j2 app server
	./target/release/mg-server

dev: app/node_modules/.installed server-debug ## Vite with hot reload on :3000, API server on :3002
	@trap 'kill 0' EXIT; \
	PORT=3002 ./target/debug/mg-server & \
	cd app && npm run --silent dev

test: ## Install what is missing and run every suite
	@$(MAKE) --no-print-directory tools-browser
	@scripts/test-all.sh

# The app's types of the server's HTTP bodies and runtime configuration, app/common/http-types.ts, are
# rendered from the Rust types (server/src/http_contract.rs); `cargo test` fails while the committed
# file differs from what they give.
http-types: ## Regenerate app/common/http-types.ts from the server's Rust types
	MG_WRITE_HTTP_TYPES=1 cargo test -p mg-server --lib --quiet http_contract

# The feature pins that let every build of the server share its dependencies' compiles
# (workspace-hack/README.md); `make test` fails while they differ from what Cargo.lock gives.
workspace-hack: ## Rewrite workspace-hack/Cargo.toml after adding or updating a dependency
	node scripts/workspace-hack.mjs

lint: tools app/node_modules/.installed ## Formatters and linters only
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p mg-core --target wasm32-unknown-unknown --all-targets --all-features -- -D warnings
	npm --prefix app run --silent lint

# Every bench, what it answers and where its results go: benches/README.md.
# The /bench cases' criterion results (benches/benches/kernels.rs, graphics.rs) also go to
# target/bench-browser/native.json in the page's schema, which `make bench-browser` and the compare
# view set beside the wasm rows (benches/browser/native-report.mjs).
bench: tools app/node_modules/.installed ## Criterion benches of the core and the server stack (native); writes target/bench-browser/native.json
	cargo bench -p mg-benches
	node benches/browser/native-report.mjs

# wrk against the release server and a bare axum handler (nginx beside it for the pages); needs wrk
# and nginx-light from Debian. Prints its table; benches/load.sh's header lists its settings.
bench-load: tools ## Load bench of the release server on 127.0.0.1 (wrk)
	benches/load.sh

# The account paths' database costs at 10,000, 100,000 and a million users, on SQLite and (with
# MG_TEST_POSTGRES_URL set) PostgreSQL; writes its table into docs/performance.md ("Costs at
# scale"). The 10,000 and 100,000 comparison also runs in `make test` (platform/tests/scale_smoke.rs).
bench-scale: ## Account paths' database costs at 10k, 100k and 1M users: docs/performance.md
	cargo test -p mg-platform --test scale_smoke
	cargo run --release -p mg-benches --bin scale -- --write docs/performance.md

# The /bench page (wasm SIMD, wasm scalar, gl-matrix, plain JS) run by headless Chromium and then
# Firefox ESR against the server on the built app; writes target/bench-browser/bench.{json,md}
# (Chromium) and bench-firefox.{json,md}.
bench-browser: tools-browser app server-debug ## The /bench page in headless Chromium and Firefox ESR: target/bench-browser/
	node benches/browser/bench-browser.mjs

# Two /bench result files as a table of changes with 95 % intervals and verdicts, and both runs'
# environments: `make bench-compare A=old.json B=new.json` (IMPL_A/IMPL_B pair one implementation of
# A with another of B, e.g. IMPL_A="wasm scalar" IMPL_B="wasm SIMD").
bench-compare: app/node_modules/.installed ## Two /bench result files compared: make bench-compare A=… B=…
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make bench-compare A=old.json B=new.json" >&2; exit 2; }
	node benches/browser/bench-compare.mjs "$(A)" "$(B)" $(if $(IMPL_A),--impl-a "$(IMPL_A)" --impl-b "$(IMPL_B)") $(if $(RAW),--raw)

# Each widget's math per frame, wasm against plain JS, in headless Chromium (app/bench/graphics-bench.html
# served by the app's Vite); fails when wasm loses for any widget.
bench-graphics: tools-browser app/node_modules/.installed $(NPM_TARBALL) ## Widget math, wasm vs plain JS, in headless Chromium
	node benches/browser/run-graphics-bench.mjs

# The same kernels under criterion inside headless Chromium (core-wasm/benches/web_kernels.rs,
# #[wasm_bindgen_bench]), on the scalar build and on the simd128 one; each keeps its last run as the
# baseline the next is compared with (wbg_benchmark.json in its target directory; the runner would
# otherwise write it under core-wasm/, where cargo bench runs so that it finds webdriver.json).
WASM_BENCH := CHROMEDRIVER=$${CHROMEDRIVER:-/usr/bin/chromedriver} \
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	cargo bench -p mg-core --target wasm32-unknown-unknown --features graphics --bench web_kernels

bench-wasm: tools-browser ## The graphics kernels under criterion in headless Chromium (scalar, simd128)
	cd core-wasm && WASM_BINDGEN_BENCH_RESULT=$(CURDIR)/target/wbg_benchmark.json $(WASM_BENCH)
	cd core-wasm && $(SIMD_FLAGS) WASM_BINDGEN_BENCH_RESULT=$(SIMD_TARGET)/wbg_benchmark.json $(WASM_BENCH)

clean: ## Remove build output (not installed tools)
	rm -rf target app/dist app/dist-harness app/node_modules examples/node_modules examples/*/dist
