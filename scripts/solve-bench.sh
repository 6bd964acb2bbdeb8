#!/usr/bin/env bash
# Solver speed: the five Hex positions docs/solutions.md measures every
# solver change on (by colour, swap off, each within SECONDS, a fresh
# process each), with the CPU time each took. The node counts are the
# build's signature (a change there is a change of the search); the times
# depend on the machine and its load.
#   scripts/solve-bench.sh [SECONDS [BINARY]]   (default: 300, the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-300}"
bin="${2:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=./target/release/crosscut
fi
positions=(
  "7|7x7 empty|"
  "7|7x7 after d4|play b d4"
  "6|6x6 after a3|play b a3"
  "8|8x8 g2 d7 c7 f3|play b g2;play w d7;play b c7;play w f3"
  "8|8x8 g2 d7 c7|play b g2;play w d7;play b c7"
)
for p in "${positions[@]}"; do
  IFS='|' read -r n name moves <<<"$p"
  script="game hex
param verbose false
boardsize $n
swap off
param solve_by color
$(tr ';' '\n' <<<"$moves")
solve $secs
quit"
  answer=$( { TIMEFORMAT='%U'; time "$bin" <<<"$script" 2>/dev/null | grep -E '^= (win|loss|draw|unknown)'; } 2>&1 )
  cpu=$(tail -n1 <<<"$answer")
  result=$(head -n1 <<<"$answer" | sed 's/^= //')
  printf '%-18s %s (cpu %s s)\n' "$name" "$result" "$cpu"
done
