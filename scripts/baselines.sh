#!/usr/bin/env bash
# Measures the alphabeta player against a baseline player (mcts, greedy or
# random) at equal time per move on 12x12 Onyx from the standard start, with
# 100 random two-move openings each played from both sides (200 games);
# engines may swap. Issue 3's protocol is 1 s a move:
#   ST=1 scripts/baselines.sh mcts
# Settings from the environment: ST (seconds a move, default 1), GAMES
# (default 200), CONCURRENCY (default 1), OUT (default match-out/baseline-OPP).
set -euo pipefail
cd "$(dirname "$0")/.."
OPP=${1:?usage: scripts/baselines.sh mcts|greedy|random}
ST=${ST:-1}
GAMES=${GAMES:-200}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-match-out/baseline-$OPP}
cargo build --release --quiet
exec target/release/crosscut-match \
  --engine "name=alphabeta cmd=target/release/crosscut" \
  --engine "name=$OPP cmd=target/release/crosscut param.player=$OPP" \
  --each "param.verbose=false" \
  --game onyx --size 12 --option start=standard \
  --openings scripts/openings/onyx-12-random100.txt \
  --games "$GAMES" --st "$ST" --margin 0.2 --maxmoves 250 \
  --concurrency "$CONCURRENCY" --report 50 \
  --out "$OUT" \
  "${@:2}"
