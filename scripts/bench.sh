#!/usr/bin/env bash
# Searcher speed: runs `bench` (fixed positions of one game, one thread) on a
# release build, to a fixed depth or for a fixed time a position. To a fixed
# depth the node count is the build's signature; the time and nodes/s depend
# on the machine and its load. For a fixed time, the depth reached counts.
#   scripts/bench.sh [DEPTH [GAME]]            (default: 6 onyx)
#   scripts/bench.sh movetime SECONDS [GAME]   (e.g. movetime 1: depth in 1 s)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
if [ "${1:-}" = movetime ]; then
  limit="movetime ${2:?usage: scripts/bench.sh movetime SECONDS [GAME]}"
  game="${3:-onyx}"
else
  limit="${1:-6}"
  game="${2:-onyx}"
fi
printf "bench %s %s\nquit\n" "$limit" "$game" | ./target/release/crosscut
