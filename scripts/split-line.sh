#!/bin/bash
# split-line.sh [options] OPENING ["LINE"]
#
# Splits a hard line of a Hex opening map (no swap, by colour) into its
# answers and proves them, keeping every result as a crosscut-map job file
# (docs/solutions.md, "Hex 8x8 map, tenth pass"). After OPENING and LINE
# the defender (the side that did not open) is to move, and the opener has
# to beat each of its answers:
#
#   1. every answer X: `crosscut-map solve ... --answer "LINE X"`, SHORT
#      seconds each;
#   2. the answers left unknown again, LONG seconds each (--retry-unknown);
#   3. for each answer still unknown, Benzene's reply Y (scripts/
#      benzene-hint.sh, HINT seconds) and the line "LINE X Y" proved by
#      crosscut, LINE_TIME seconds.
#
# A finished job is never solved twice, so the script can be stopped and
# run again. Benzene only names which reply to prove; a wrong reply leaves
# the answer unknown, never decided wrongly. Then
# `crosscut-map merge --out DIR` decides the lines from their answers.
#
# Options (defaults in brackets):
#   --size N [8]  --out DIR [docs/maps/hex8]  --short S [15]  --long S [120]
#   --hint S [120]  --line-time S [300]  --hash MB [2048]
#   --bin DIR [target/release]  --no-hint (no step 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=8
out=$here/../docs/maps/hex8
short=15
long=120
hint=120
line_time=300
hash=2048
bin=$here/../target/release
use_hint=1
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --short) short=$2; shift 2 ;;
    --long) long=$2; shift 2 ;;
    --hint) hint=$2; shift 2 ;;
    --line-time) line_time=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --no-hint) use_hint=0; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "split-line.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
fi
opening=$1
line=${2:-}
map=$bin/crosscut-map
[ -x "$map" ] || { echo "split-line.sh: no $map (cargo build --release)" >&2; exit 1; }
game=(--game hex --size "$size" --option swap=off --by color)
solve=("$map" solve "${game[@]}" --out "$out" --opening "$opening" --param solve_play_knowledge=true)
if [ $(( $(wc -w <<<"$line") % 2 )) -ne 0 ]; then
    echo "split-line.sh: after OPENING and an odd LINE the opener is to move; split the line before it" >&2
    exit 2
fi

answers=$("$map" list "${game[@]}" --opening "$opening" ${line:+--answer "$line"})
# The value of a job ("win" for the opener, "loss", "unknown", or nothing).
value() {
    local name
    name=$(tr -s ' ' '-' <<<"$opening $line $1")
    sed -n 's/^value=//p' "$out/job-$name.txt" 2>/dev/null || true
}
# Answers still open: their own job unknown, and no line below them won.
unknown() {
    local x f prefix
    for x in $answers; do
        [ "$(value "$x")" = unknown ] || continue
        prefix=$out/job-$(tr -s ' ' '-' <<<"$opening $line $x")
        for f in "$prefix"-*.txt; do
            grep -qx 'value=win' "$f" 2>/dev/null && continue 2
        done
        echo "$x"
    done
    return 0
}

for x in $answers; do
    "${solve[@]}" --time "$short" --hash $((hash / 4)) --answer "${line:+$line }$x"
done
for x in $(unknown); do
    "${solve[@]}" --time "$long" --hash $((hash / 2)) --answer "${line:+$line }$x" --retry-unknown
done
if [ $use_hint = 1 ]; then
    for x in $(unknown); do
        h=$("$here/benzene-hint.sh" "$size" "$opening ${line:+$line }$x" "$hint") || {
            echo "split-line.sh: no reply from Benzene for $opening ${line:+$line }$x; stopping before step 3" >&2
            break
        }
        echo "$h"
        y=$(sed 's/.* : //' <<<"$h" | awk '{print $2}')
        [ -n "$y" ] || continue
        "${solve[@]}" --time "$line_time" --hash "$hash" --answer "${line:+$line }$x $y" --retry-unknown
    done
fi
"$map" merge --out "$out" | grep -E "^$opening " || true
