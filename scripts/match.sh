#!/usr/bin/env bash
# Compares two parameter settings of crosscut with crosscut-match: a deeper
# search (max_depth 4) against the default (max_depth 2), on 12x12 Onyx from
# the standard start, with the openings in scripts/openings/onyx-12.txt
# played from both sides, a 2+0.05 s clock, and an SPRT that stops the match
# once it is decided.
#
# Settings come from the environment:
#   GAMES=52 TC=2+0.05 CONCURRENCY=1 OUT=match-out A_DEPTH=4 B_DEPTH=2 scripts/match.sh
# Extra arguments go to crosscut-match (e.g. --resume to continue a run).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-52}
TC=${TC:-2+0.05}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-match-out}
A_DEPTH=${A_DEPTH:-4}
B_DEPTH=${B_DEPTH:-2}
cargo build --release --quiet
exec target/release/crosscut-match \
  --engine "name=depth$A_DEPTH cmd=target/release/crosscut param.max_depth=$A_DEPTH" \
  --engine "name=depth$B_DEPTH cmd=target/release/crosscut param.max_depth=$B_DEPTH" \
  --each "param.hash=16" \
  --game onyx --size 12 --option start=standard \
  --openings scripts/openings/onyx-12.txt \
  --games "$GAMES" --tc "$TC" --margin 0.2 --maxmoves 200 \
  --concurrency "$CONCURRENCY" \
  --sprt 0 50 0.05 0.05 \
  --out "$OUT" --log "$OUT/logs" \
  "$@"
