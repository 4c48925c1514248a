#!/usr/bin/env bash
# Runs the whole test suite from a checkout: test extras, Debian's chromium for the browser test, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
python -m pip install -q -e '.[test]'
exec python -m pytest "$@"
