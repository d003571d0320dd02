#!/usr/bin/env bash
# Screenshots a run's report.html with headless Chromium (apt-get install chromium), for a person to look at:
#   bash scripts/screenshot.sh RUN_FOLDER [OUT.png] [HEIGHT]
# Writes OUT.png (default RUN_FOLDER/report.png), 1280 px wide and HEIGHT px tall (default 4000). Without
# Chromium it says so in one line and exits 0, so that a machine without it skips the step visibly.
set -euo pipefail
run="${1:?usage: scripts/screenshot.sh RUN_FOLDER [OUT.png] [HEIGHT]}"
out="${2:-$run/report.png}"
height="${3:-4000}"
page="$(cd "$run" && pwd)/report.html"
if [ ! -f "$page" ]; then
  echo "screenshot.sh: $page does not exist; run 'bench report $run' first" >&2
  exit 64
fi
browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser="$candidate"; break; fi
done
if [ -z "$browser" ]; then
  echo "screenshot skipped: Chromium is not installed (apt-get install chromium)"
  exit 0
fi
# A profile of its own in a temporary folder: headless Chromium refuses a shared one, and leaves nothing behind.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
"$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --window-size="1280,$height" --screenshot="$out" "file://$page" >/dev/null 2>&1
echo "screenshot: $out"
