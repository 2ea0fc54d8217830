# Entry points of mg-web. `make run` serves the product at http://localhost:3000;
# `make test` runs every suite. Both install what is missing first and skip what is done.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

WASM_SOURCES := $(shell find core-wasm/src domain/src -name '*.rs') core-wasm/Cargo.toml domain/Cargo.toml Cargo.lock
APP_SOURCES := $(shell find app/src app/public app/vite app/shared -type f 2>/dev/null) app/scripts/prerender.mjs app/index.html app/vite.config.ts app/tsconfig.json

.PHONY: help run dev test lint bench bench-load tools tools-browser app server server-production server-debug clean

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

# The production build: no local identity emulator (the `emulator` cargo feature left out), so it
# refuses to start without IDENTITY_BASE_URL. Kept as target/release/mg-server-production, since
# `make server` writes target/release/mg-server; deploy/mg-web@.service installs this one.
server-production: tools ## Build the release server without the identity emulator (what deploy/ runs)
	cargo build --release -p mg-server --no-default-features
	cp target/release/mg-server target/release/mg-server-production

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

clean: ## Remove build output (not installed tools)
	rm -rf target pkg app/dist app/dist-harness app/node_modules
