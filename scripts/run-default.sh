#!/usr/bin/env bash
# Quick start, command 1: set up (packages, build) and run the default simulation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh
exec build/platforms/ssdvp "$@"
