#!/usr/bin/env bash
# The solver's gap to Benzene's: Hex 8x8 positions (by colour, swap off)
# that both solve in seconds to minutes, each solved by crosscut (with
# play's connections, `param solve_play_knowledge true`, within SECONDS)
# and by Benzene's DFPN (scripts/benzene-hint.sh, when
# ../shared/tools/benzene is there). They come from the split of the 8x8
# opening h4 (docs/solutions.md, "Hex 8x8 map, tenth pass"): Black to move
# after White's answer, Black wins each.
#   scripts/solver-gap.sh [SECONDS [BINARY]]   (default: 300, the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-300}"
bin="${2:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=./target/release/crosscut
fi
positions=(
  "h4 d7 g6 g1"
  "h4 d7 g6 e6"
  "h4 d7 g6 f7"
  "h4 d7 g6 e5"
  "h4 d7 g6 g3"
  "h4 d7 g6 g2"
  "h4 d7 g6 d3"
)
printf '%-14s | %-52s | %s\n' position crosscut Benzene
for moves in "${positions[@]}"; do
  script="game hex
param verbose false
boardsize 8
swap off
param solve_by color
param solve_play_knowledge true
param solve_hash 1024
$(c=b; for m in $moves; do echo "play $c $m"; c=$([ $c = b ] && echo w || echo b); done)
solve $secs
quit"
  answer=$( { TIMEFORMAT='%U'; time "$bin" <<<"$script" 2>/dev/null | grep -E '^= (win|loss|draw|unknown)'; } 2>&1 )
  cpu=$(tail -n1 <<<"$answer")
  result=$(head -n1 <<<"$answer" | sed 's/^= //')
  bz=$(scripts/benzene-hint.sh 8 "$moves" "$secs" 2>/dev/null | sed 's/.* : \([a-z]*\) \([a-h][1-8]\).* mids/\1 \2 mids/' || echo "(no Benzene)")
  printf '%-14s | %-52s | %s\n' "$moves" "$result (cpu $cpu s)" "$bz"
done
