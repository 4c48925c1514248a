#!/usr/bin/env bash
# Runs the whole test suite from a checkout: test extras, Debian's chromium for the browser test, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
python -m pip install -q -e '.[test]'
# the training tests (run where the train extra is installed) draw tile faces with all five of Debian's CJK font
# packages, the brush sets' and the second held-out style's fonts; with some missing they skip (training.faces:
# FONT_FILES, BRUSH_FONT_FILES, UNSEEN_FONT_FILES)
if python -c "import torch" 2>/dev/null && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] \
    && ! python -c "from training.faces import _fonts, brush_fonts, _unseen_fonts; _fonts(); brush_fonts(); _unseen_fonts()" \
        2>/dev/null; then
    packages=$(python -c "from training import faces
print(' '.join(faces.FONT_PACKAGES + faces.BRUSH_FONT_PACKAGES + faces.UNSEEN_FONT_PACKAGES))")
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null; } \
        || echo "scripts/test.sh: the CJK fonts could not be installed; the training tests that draw faces skip" >&2
fi
# test-only Node oracle (hk-mahjong) for the Hong Kong differential test; skipped there without it
if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --silent; fi
exec python -m pytest "$@"
