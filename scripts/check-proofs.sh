#!/bin/bash
# Replays the solver's proofs of every win in docs/solutions.md with the
# independent checker of tests/it/proofs.rs, the long ones included (about
# half an hour on one core). Prints each proof's strategy and replay sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test it proofs:: -- --include-ignored --nocapture --test-threads 1
