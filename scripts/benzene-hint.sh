#!/bin/bash
# benzene-hint.sh SIZE "MOVES" [SECONDS]
#
# Asks Benzene's DFPN (MoHex's `dfpn-solve-state`, from
# ../shared/tools/benzene, or $BENZENE/bin) which move to try after a line
# of Hex moves (no swap, Black first, Benzene's cell names), for splitting a
# hard opening of a map into lines (docs/solutions.md, "One line an
# answer"). Prints one line:
#
#   MOVES : WINNER REPLY [PV...] mids=N time=S
#
# WINNER is the side Benzene proved wins (`black`, `white`) or `empty` when
# it did not decide within SECONDS (default 120); REPLY is its best move for
# the side to move (proven when WINNER is that side, else a guess). The
# proof is always crosscut's own: solve the line with
#   crosscut-map solve --game hex --size SIZE --option swap=off --by color \
#     --opening FIRST --answer "REST REPLY" ...
# so a wrong hint can only leave a line unknown, never decide it wrongly.
set -euo pipefail
if [ $# -lt 2 ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
fi
size=$1
moves=$2
seconds=${3:-120}
here=$(cd "$(dirname "$0")" && pwd)
bz=${BENZENE:-$here/../../shared/tools/benzene}
mohex=$bz/bin/mohex
[ -x "$mohex" ] || { echo "benzene-hint.sh: no MoHex at $mohex (set BENZENE)" >&2; exit 1; }
if ! "$mohex" --help >/dev/null 2>&1; then
    [ -f "$bz/setup.sh" ] && bash "$bz/setup.sh" >/dev/null 2>&1 || true
fi

# The side to move after the line: Black on an even count of moves.
cmds="boardsize $size"$'\n'
colour=b
for m in $moves; do
    cmds+="play $colour $m"$'\n'
    colour=$([ $colour = b ] && echo w || echo b)
done
cmds+="param_dfpn timelimit $seconds"$'\n'"dfpn-solve-state $colour"$'\n'"dfpn-get-pv $colour"$'\n'

err=$(mktemp)
trap 'rm -f "$err"' EXIT
raw=$(printf '%s' "$cmds" | "$mohex" --use-logfile=0 2>"$err")
if grep -q '^?' <<<"$raw"; then
    echo "benzene-hint.sh: MoHex refused the line: $(grep '^?' <<<"$raw" | head -1)" >&2
    exit 1
fi
out=$(grep '^= [a-z]' <<<"$raw" | sed 's/^= //' | tr '\n' ' ')
mids=$(awk '/MID calls/ {print $3}' "$err" | tail -1)
elapsed=$(awk '/Elapsed Time/ {print $3}' "$err" | tail -1)
echo "$moves : ${out% } mids=${mids:-?} time=${elapsed:-?}"
