#!/usr/bin/env bash
# Installs what the build needs and is missing; every step is skipped when already satisfied.
#   scripts/ensure-tools.sh target  -> the wasm32 target: all the wasm crates' builds need
#   scripts/ensure-tools.sh build   -> also wasm-bindgen-cli (Cargo.lock's version): all the package
#                                      build (make package, make run) needs
#   scripts/ensure-tools.sh browser -> also Debian's chromium, chromium-headless-shell (the tests'
#                                      browser, app/common/chromium.mjs) and chromium-driver, nginx-light and
#                                      openssl (for the tests: the browser, and the proxy in front in
#                                      server/tests/api/deploy.rs), and firefox-esr (the second engine
#                                      of the package's browser fixtures, examples/run-matrix.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-build}"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm not found: install Node.js 20+ and npm" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

[ "$what" = target ] && exit 0

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly: the package build runs
# its `wasm-bindgen`, and the browser tests its `wasm-bindgen-test-runner`. Not --locked: that fails
# on this registry mirror (docs/development.md).
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found '${have:-none}')"
  cargo install wasm-bindgen-cli --version "$want" --force
fi

if [ "$what" = browser ]; then
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$(id -u)" = 0 ]; then
      say "installing Debian's chromium, chromium-headless-shell and chromium-driver"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell chromium-driver >/dev/null
    else
      echo "The browser tests need Chromium, its headless shell and ChromeDriver at /usr/bin/chromium," >&2
      echo "/usr/bin/chromium-headless-shell and /usr/bin/chromedriver." >&2
      echo "Install them with: sudo apt-get install -y chromium chromium-headless-shell chromium-driver" >&2
      exit 1
    fi
  fi
  # The deployment test runs Debian's nginx (unprivileged, its own prefix) with a throwaway
  # certificate made by openssl; installing nginx-light does not start a service here.
  if [ ! -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
      say "installing Debian's nginx-light and openssl"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light openssl >/dev/null
    else
      echo "The deployment test needs nginx and openssl: sudo apt-get install -y nginx-light openssl" >&2
      exit 1
    fi
  fi
  # Driven by puppeteer-core over WebDriver BiDi (geckodriver is not packaged in Debian).
  if [ ! -x /usr/bin/firefox-esr ]; then
    if [ "$(id -u)" = 0 ]; then
      say "installing Debian's firefox-esr"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null
    else
      echo "The package's browser fixtures need Firefox: sudo apt-get install -y firefox-esr" >&2
      exit 1
    fi
  fi
fi
