#!/usr/bin/env bash
# Quick start, command 2: set up (packages, build) and run the whole test suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh all
exec ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 1200
