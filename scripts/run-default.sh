#!/usr/bin/env bash
# Quick start, command 1: set up what a simulation needs (packages, ssdvp and the firmware
# image; not the test suite) and run the default simulation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh run
exec build/platforms/ssdvp "$@"
