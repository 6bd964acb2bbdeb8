#!/usr/bin/env bash
# Searcher speed: runs `bench` (fixed 12x12 Onyx positions, fixed depth, one
# thread) on a release build. The node count is the build's signature; the
# time and nodes/s depend on the machine and its load.
#   scripts/bench.sh [DEPTH]      (default 6)
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-6}"
cargo build --release --quiet
printf 'bench %s\nquit\n' "$depth" | ./target/release/crosscut
