#!/usr/bin/env bash
# The fuzz tests at full count: 100,000 mutated inputs per parser (scenario files, Xcode model XML, NSPredicate
# format strings, CSV files read back); swift test runs 2,000 each. Usage: scripts/fuzz.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
RELBENCH_FUZZ_COUNT="${1:-100000}" swift test --filter FuzzTests
