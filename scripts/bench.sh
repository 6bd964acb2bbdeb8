#!/usr/bin/env bash
# Searcher speed: runs `bench` (fixed positions of one game, fixed depth, one
# thread) on a release build. The node count is the build's signature; the
# time and nodes/s depend on the machine and its load.
#   scripts/bench.sh [DEPTH [GAME]]   (default: 6 onyx)
set -euo pipefail
cd "$(dirname "$0")/.."
depth="${1:-6}"
cargo build --release --quiet
printf "bench %s %s\nquit\n" "$depth" "${2:-onyx}" | ./target/release/crosscut
