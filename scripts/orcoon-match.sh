#!/usr/bin/env bash
# An Orcoon match between two players of crosscut at equal time a move: the
# alphabeta player against another `param player` (mcts by default), with
# crosscut-match refereeing (it replaces tests/orcoon_match.rs, an ignored
# test that played the same match in process and only printed the score).
# Colours alternate; a game reaching 400 moves is drawn (move-limit).
#
# Settings come from the environment (defaults those of the old test):
#   GAMES=10 SIZE=11 ST=0.5 B=mcts OPENING=0 scripts/orcoon-match.sh
# OPENING=k starts every pair of games with the same k random placements
# (no pass, no swap; seeded, so the same on every run), once from each side.
# OUT (default match-out/orcoon-alphabeta-B) gets results.tsv, the SGF
# records and the openings. Extra arguments go to crosscut-match (e.g.
# --concurrency 2, --resume).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-10}
SIZE=${SIZE:-11}
ST=${ST:-0.5}
B=${B:-mcts}
OPENING=${OPENING:-0}
OUT=${OUT:-match-out/orcoon-alphabeta-$B}
cargo build --release --quiet

# Prints COUNT lines of PLIES random placements each, chosen from the
# engine's legal_moves.
random_openings() {
  local plies=$1 count=$2 i k m answer line
  local -a legal places moves
  coproc ENGINE { target/release/crosscut --game orcoon; }
  ask() {
    echo "$1" >&"${ENGINE[1]}"
    answer=
    while IFS= read -r line <&"${ENGINE[0]}" && [ -n "$line" ]; do
      answer+="$line "
    done
    [[ $answer == "= "* || $answer == "= " ]] || { echo "orcoon-match: '$1': $answer" >&2; exit 1; }
  }
  ask "boardsize $SIZE"
  RANDOM=1000
  for ((i = 0; i < count; i++)); do
    ask clear_board
    moves=()
    for ((k = 0; k < plies; k++)); do
      ask legal_moves
      read -ra legal <<<"${answer#=}"
      places=()
      for m in "${legal[@]}"; do
        [[ $m == pass || $m == swap ]] || places+=("$m")
      done
      [ ${#places[@]} -gt 0 ] || break
      m=${places[RANDOM % ${#places[@]}]}
      if ((k % 2 == 0)); then ask "play b $m"; else ask "play w $m"; fi
      moves+=("$m")
    done
    echo "${moves[*]}"
  done
  echo quit >&"${ENGINE[1]}"
  wait "$ENGINE_PID" || true
}

openings=()
if [ "$OPENING" -gt 0 ]; then
  mkdir -p "$OUT"
  random_openings "$OPENING" $(((GAMES + 1) / 2)) >"$OUT/openings.txt"
  openings=(--openings "$OUT/openings.txt")
fi

exec target/release/crosscut-match \
  --engine "name=alphabeta cmd=target/release/crosscut param.player=alphabeta" \
  --engine "name=$B cmd=target/release/crosscut param.player=$B" \
  --each "param.verbose=false" \
  --game orcoon --size "$SIZE" \
  --games "$GAMES" --st "$ST" --maxmoves 400 \
  "${openings[@]}" \
  --out "$OUT" \
  "$@"
