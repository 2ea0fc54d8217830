# Entry points of mg-web. `make run` serves the product at http://localhost:3000;
# `make test` runs every suite. Both install what is missing first and skip what is done.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

WASM_SOURCES := $(shell find core-wasm/src domain/src -name '*.rs') core-wasm/Cargo.toml domain/Cargo.toml Cargo.lock
APP_SOURCES := $(shell find app/src app/public app/vite app/shared -type f 2>/dev/null) app/scripts/prerender.mjs app/index.html app/vite.config.ts app/tsconfig.json

.PHONY: help run dev test lint bench bench-load tools tools-browser app server server-debug clean bench-browser bench-wasm

help: ## List the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-12s %s\n", $$1, $$2 }'

tools:
	@scripts/ensure-tools.sh build

tools-browser:
	@scripts/ensure-tools.sh browser

# The two wasm packages of core-wasm (cargo features, src/bindings.rs): the state machines in pkg/,
# which the app imports as `mg-core`, and the decorative graphics' geometry in pkg/graphics/, imported
# as `mg-core-graphics` and loaded only after first paint. The second is built after the first, so the
# two wasm-pack runs never write under pkg/ at once.
WASM_PKGS := pkg/mg_core_bg.wasm pkg/graphics/mg_core_graphics_bg.wasm

pkg/mg_core_bg.wasm: $(WASM_SOURCES) | tools
	wasm-pack build core-wasm --release --target bundler --out-dir ../pkg --out-name mg_core

pkg/graphics/mg_core_graphics_bg.wasm: $(WASM_SOURCES) pkg/mg_core_bg.wasm | tools
	wasm-pack build core-wasm --release --target bundler --out-dir ../pkg/graphics \
		--out-name mg_core_graphics --no-default-features --features graphics

# The same graphics package built with wasm SIMD (`simd128`, glam's SIMD path), imported as
# `mg-core-graphics-simd`: app/src/graphics/wasm.ts loads it where WebAssembly.validate accepts a SIMD
# module, else the scalar one above. Built after it (one wasm-pack run under pkg/ at a time), in its own
# cargo target directory so that the two RUSTFLAGS never invalidate each other's build cache.
WASM_PKGS += pkg/graphics-simd/mg_core_graphics_bg.wasm

pkg/graphics-simd/mg_core_graphics_bg.wasm: $(WASM_SOURCES) pkg/graphics/mg_core_graphics_bg.wasm | tools
	CARGO_TARGET_DIR=$(CURDIR)/target/simd128 RUSTFLAGS="-C target-feature=+simd128" wasm-pack build core-wasm --release --target bundler \
		--out-dir ../pkg/graphics-simd --out-name mg_core_graphics --no-default-features --features graphics

# npm ci only when the lockfile changed since the last install.
app/node_modules/.installed: app/package-lock.json app/package.json $(WASM_PKGS)
	cd app && npm ci --no-audit --no-fund
	touch $@

app/dist/index.html: $(APP_SOURCES) app/node_modules/.installed $(WASM_PKGS)
	cd app && npm run --silent build

app: app/dist/index.html ## Build the two wasm packages and the app

# The graphics harness page (app/graphics.html) for the e2e graphics tests: its own build, never in app/dist.
app/dist-harness/graphics.html: $(APP_SOURCES) app/graphics.html app/node_modules/.installed $(WASM_PKGS)
	cd app && npx vite build --mode harness --logLevel warn

server: tools ## Build the release server
	cargo build --release -p mg-server

server-debug: tools
	cargo build -p mg-server

run: app server ## Build everything and serve it at http://localhost:3000 (SQLite, identity emulator)
	./target/release/mg-server

dev: app/node_modules/.installed server-debug ## Vite with hot reload on :3000, API server on :3002
	@trap 'kill 0' EXIT; \
	PORT=3002 ./target/debug/mg-server & \
	cd app && npm run --silent dev

test: tools-browser app app/dist-harness/graphics.html server-debug ## Install what is missing and run every suite
	@scripts/test-all.sh

lint: tools app/node_modules/.installed ## Formatters and linters only
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p mg-core --target wasm32-unknown-unknown --all-targets --all-features -- -D warnings
	npm --prefix app run --silent lint

bench: tools ## Criterion benches of the core (native)
	cargo bench -p mg-benches

# The /bench page (wasm SIMD, wasm scalar, gl-matrix, plain JS) run by headless Chromium against the
# server on the built app; writes target/bench-browser/bench.json and bench.md (the table).
bench-browser: tools-browser app server-debug ## The /bench page in headless Chromium: target/bench-browser/
	node app/scripts/bench-browser.mjs

# The same kernels under criterion inside headless Chromium (core-wasm/benches/web_kernels.rs,
# #[wasm_bindgen_bench]), on the scalar build and on the simd128 one; each keeps its last run as the
# baseline the next is compared with (wbg_benchmark.json in its target directory; the runner would
# otherwise write it under core-wasm/, where cargo bench runs so that it finds webdriver.json).
WASM_BENCH := CHROMEDRIVER=$${CHROMEDRIVER:-/usr/bin/chromedriver} \
	CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	cargo bench -p mg-core --target wasm32-unknown-unknown --features graphics --bench web_kernels

bench-wasm: tools-browser ## The graphics kernels under criterion in headless Chromium (scalar, simd128)
	cd core-wasm && WASM_BINDGEN_BENCH_RESULT=$(CURDIR)/target/wbg_benchmark.json $(WASM_BENCH)
	cd core-wasm && CARGO_TARGET_DIR=$(CURDIR)/target/simd128 RUSTFLAGS="-C target-feature=+simd128" \
		WASM_BINDGEN_BENCH_RESULT=$(CURDIR)/target/simd128/wbg_benchmark.json $(WASM_BENCH)

clean: ## Remove build output (not installed tools)
	rm -rf target pkg app/dist app/dist-harness app/node_modules
