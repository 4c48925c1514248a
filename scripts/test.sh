#!/usr/bin/env bash
# Runs the whole test suite from a checkout: test extras, Debian's chromium for the browser test, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
python -m pip install -q -e '.[test]'
# test-only Node oracle (hk-mahjong) for the Hong Kong differential test; skipped there without it
if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --silent; fi
exec python -m pytest "$@"
