#!/usr/bin/env bash
# Stream fuzzer for a measured time: runs tests/it/fuzz_streams.rs's generator
# (every game; legal and broken commands; see the file's header for the
# oracles) for SECONDS, then prints the executions (commands run), what the
# streams exercised and the findings. Each finding is saved as a stream
# file in OUT (default target/fuzz-findings): move it to tests/fuzz/ to keep
# replaying it.
#   scripts/fuzz.sh [SECONDS [SEED]]     (default: 60 s from seed 1000000)
#   OUT=dir scripts/fuzz.sh 600
# Exit status: 0 without findings, 1 with.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
seed="${2:-1000000}"
out="${OUT:-target/fuzz-findings}"
nice -n 10 cargo test --release --quiet --test it --no-run
rm -f "$out"/seed-*.gtp # The findings of an earlier run (keep them in tests/fuzz/).
CROSSCUT_FUZZ_SECONDS="$seconds" CROSSCUT_FUZZ_SEED="$seed" CROSSCUT_FUZZ_OUT="$out" \
  nice -n 10 cargo test --release --quiet --test it fuzz_streams::generated_streams \
  -- --nocapture --test-threads 1 2>&1 |
  grep -E '^(fuzz|finding|answers by|test result)' || true
if ls "$out"/seed-*.gtp >/dev/null 2>&1; then
  echo "findings saved in $out:"
  ls -1 "$out"/seed-*.gtp
  exit 1
fi
