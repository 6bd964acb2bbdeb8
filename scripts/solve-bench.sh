#!/usr/bin/env bash
# Solver speed: the five Hex positions docs/solutions.md measures every
# solver change on (by colour, swap off, each within SECONDS, a fresh
# process each), with the CPU time each took. The node counts are the
# build's signature (a change there is a change of the search); the times
# depend on the machine and its load.
#
# With --gap: the solver's gap to Benzene's instead, seven Hex 8x8
# positions from the split of the opening h4 (docs/solutions.md, "Hex 8x8
# map, tenth pass"; Black to move after White's answer, Black wins each),
# solved with play's connections (`param solve_play_knowledge true`)
# beside Benzene's DFPN (scripts/benzene-hint.sh, when
# ../shared/tools/benzene is there).
#   scripts/solve-bench.sh [--gap] [SECONDS [BINARY]]   (default: 300, the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
gap=0
if [ "${1:-}" = --gap ]; then
  gap=1
  shift
fi
secs="${1:-300}"
bin="${2:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=./target/release/crosscut
fi
# Each position: the board's side, its name, its moves from the empty
# board (Black first, the colours alternating).
if [ $gap = 0 ]; then
  positions=(
    "7|7x7 empty|"
    "7|7x7 after d4|d4"
    "6|6x6 after a3|a3"
    "8|8x8 g2 d7 c7 f3|g2 d7 c7 f3"
    "8|8x8 g2 d7 c7|g2 d7 c7"
  )
  params=""
else
  positions=()
  for x in g1 e6 f7 e5 g3 g2 d3; do
    positions+=("8|h4 d7 g6 $x|h4 d7 g6 $x")
  done
  params="param solve_play_knowledge true
param solve_hash 1024"
fi
for p in "${positions[@]}"; do
  IFS='|' read -r n name moves <<<"$p"
  script="game hex
param verbose false
boardsize $n
swap off
param solve_by color
$params
$(c=b; for m in $moves; do echo "play $c $m"; c=$([ $c = b ] && echo w || echo b); done)
solve $secs
quit"
  answer=$( { TIMEFORMAT='%U'; time "$bin" <<<"$script" 2>/dev/null | grep -E '^= (win|loss|draw|unknown)'; } 2>&1 )
  cpu=$(tail -n1 <<<"$answer")
  result=$(head -n1 <<<"$answer" | sed 's/^= //')
  if [ $gap = 0 ]; then
    printf '%-18s %s (cpu %s s)\n' "$name" "$result" "$cpu"
  else
    bz=$(scripts/benzene-hint.sh "$n" "$moves" "$secs" 2>/dev/null \
      | sed 's/.* : \([a-z]*\) \([a-h][1-8]\).* mids/\1 \2 mids/' || echo "(no Benzene)")
    printf '%-14s | %-52s | Benzene %s\n' "$name" "$result (cpu $cpu s)" "$bz"
  fi
done
