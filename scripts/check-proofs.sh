#!/bin/bash
# Replays the solver's proofs of every win in docs/solutions.md with the
# independent checker of tests/proofs.rs, the long ones included (about
# half an hour on one core). Prints each proof's strategy and replay sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test proofs -- --include-ignored --nocapture --test-threads 1
