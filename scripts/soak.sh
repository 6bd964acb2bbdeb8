#!/usr/bin/env bash
# Soak test: one crosscut process plays many short games of every game
# against itself (genmove for both sides, param move_time 0.01 or
# max_depth 2), with random undo, clear_board, game and size switches and
# a few queries, for SECONDS. Every EVERY games it prints the engine's
# resident memory (VmRSS from /proc/PID/status); at the end one line with
# the games played and the memory first (at the first report)/last/max. Fails (exit 1) if the
# engine dies, stops answering (30 s), answers 'internal error', or a
# command of the driver that must succeed fails.
#   scripts/soak.sh [SECONDS [EVERY [SEED]]]     (default 300 50 1)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
every="${2:-50}"
RANDOM="${3:-1}"
nice -n 10 cargo build --release --quiet --bin crosscut || exit 1
engine=target/release/crosscut

coproc ENGINE { exec nice -n 10 "$engine" 2>/dev/null; }
pid=$ENGINE_PID
in=${ENGINE[1]}
out=${ENGINE[0]}

fail() {
  echo "soak: FAIL: $*"
  kill "$pid" 2>/dev/null
  exit 1
}

# send COMMAND: sets $answer (first line) and $status (= or ?).
commands=0
send() {
  printf '%s\n' "$1" >&"$in" || fail "cannot write '$1' (engine gone?)"
  commands=$((commands + 1))
  answer=""
  local line first=1
  while :; do
    IFS= read -r -t 30 line <&"$out" || fail "no answer to '$1' within 30 s (or EOF)"
    if [ -z "$line" ]; then break; fi
    if [ $first = 1 ]; then answer="$line"; first=0; fi
    case "$line" in *"internal error"*) fail "'$1' answered '$line'" ;; esac
  done
  status="${answer:0:1}"
}

must() {
  send "$1"
  [ "$status" = "=" ] || fail "'$1' answered '$answer'"
}

rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }

games=(onyx orcoon akron hex)
sizes_onyx=(4 6 8 8 10 12)
sizes_orcoon=(3 4 5 6 7 9 11)
sizes_akron=(3 4 5 6 8)
sizes_hex=(3 4 5 6 7 9 11)

pick() { local -n arr=$1; echo "${arr[RANDOM % ${#arr[@]}]}"; }

must "param verbose false"
must "param move_time 0.01"
must "param max_depth 2"

start=$(date +%s)
played=0 moves=0 undos=0 clears=0 switches=0
start_rss=$(rss) first_rss="" last_rss=$start_rss max_rss=$start_rss
echo "soak: pid $pid, rss at start ${start_rss} kB; $seconds s, report every $every games"
game=""
while [ $(($(date +%s) - start)) -lt "$seconds" ]; do
  if [ -z "$game" ] || [ $((RANDOM % 4)) = 0 ]; then
    game=$(pick games)
    must "game $game"
    switches=$((switches + 1))
  fi
  size=$(pick "sizes_$game")
  must "boardsize $size"
  # The search limit: a tiny time, or a small depth without a time limit.
  if [ $((RANDOM % 2)) = 0 ]; then
    must "param move_time 0.01"; must "param max_depth 64"
  else
    must "param move_time 0"; must "param max_depth 2"
  fi
  [ "$game" = onyx ] && [ $((RANDOM % 3)) = 0 ] && must "start blank"
  [ "$game" = onyx ] && [ $((RANDOM % 3)) = 0 ] && [ $((size % 4)) = 0 ] && must "start standard"
  color=b n=0
  while [ $n -lt 300 ]; do
    send "genmove $color"
    [ "$status" = "=" ] || fail "'genmove $color' answered '$answer'"
    moves=$((moves + 1)) n=$((n + 1))
    [ "${answer:2}" = resign ] && break
    case "${answer:2}" in swap | swap-pieces) ;; *) [ $color = b ] && color=w || color=b ;; esac
    r=$((RANDOM % 100))
    if [ $r -lt 6 ]; then
      for _ in $(seq $((1 + RANDOM % 3))); do
        send undo
        [ "$status" = "=" ] && undos=$((undos + 1))
      done
      send "gogui-rules_side_to_move"; color=${answer:2:1}
    elif [ $r = 6 ]; then
      must clear_board; clears=$((clears + 1)); color=b; n=0
    elif [ $r = 7 ]; then
      must showboard; must legal_moves
    fi
    send final_score
    [ "$status" = "=" ] && break
  done
  played=$((played + 1))
  if [ $((played % every)) = 0 ]; then
    last_rss=$(rss)
    [ "$last_rss" -gt "$max_rss" ] && max_rss=$last_rss
    [ -z "$first_rss" ] && first_rss=$last_rss
    echo "soak: games $played moves $moves commands $commands time $(($(date +%s) - start))s rss ${last_rss} kB"
  fi
done
last_rss=$(rss)
[ "$last_rss" -gt "$max_rss" ] && max_rss=$last_rss
send quit
wait "$pid" 2>/dev/null
code=$?
[ $code = 0 ] || fail "exit status $code after quit"
echo "soak: PASS games $played moves $moves undos $undos clear_boards $clears game_switches $switches commands $commands time $(($(date +%s) - start))s rss start ${start_rss} kB first ${first_rss:-$last_rss} kB (after $every games) last ${last_rss} kB max ${max_rss} kB"
