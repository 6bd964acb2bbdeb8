#!/bin/bash
# split-line.sh [options] OPENING ["LINE"]
#
# Splits a hard line of an opening map (no swap, by colour; Hex unless
# --game says otherwise) into its moves and proves them, keeping every
# result as a crosscut-map job file (docs/solutions.md, "Hex 8x8 map, tenth
# pass"). After OPENING and an even LINE (none, or two moves, ...) the
# defender (the side that did not open) is to move, and the opener has to
# beat each of its answers; after an odd LINE the opener is to move, and
# the defender has to beat each of its replies. Either way, for every move
# X of the side to move:
#
#   0. with --whole S, the line itself first, as one job of S seconds with
#      the whole table (`crosscut-map solve ... --answer "LINE"`, or the
#      opening's own job for no LINE): when it is decided, nothing is
#      split. One table shares what the moves have in common and lets
#      df-pn move its effort to the hard one, so one long job often
#      decides what many short ones leave open (docs/solutions.md, "D2 is
#      lost for the opener"); with --tables DIR that job saves its table
#      when it stays unknown (`crosscut-map solve --table`), and the next
#      run's step 0 goes on from it;
#   1. every move X: `crosscut-map solve ... --answer "LINE X"`, SHORT
#      seconds each;
#   2. the moves left unknown again, LONG seconds each (--retry-unknown);
#   3. for each move still unknown, a suggested reply Y of the other side
#      (Hex: Benzene's, scripts/benzene-hint.sh; other games: crosscut's
#      own player, its `genmove`; HINT seconds) and the line "LINE X Y"
#      proved by crosscut, LINE_TIME seconds.
#
# A move that wins for the side to move decides the line (an answer that
# beats the opener, or a reply of the opener's that wins) and ends the
# split. A finished job is never solved twice, and a move decided by
# transposition (a decided line reached its position; merge names it) is
# not solved at all, so the script can be stopped and run again. The
# hint only names which reply to prove; a wrong reply leaves the move
# unknown, never decided wrongly. Then
# `crosscut-map merge --out DIR` decides the lines from their moves.
#
# Options (defaults in brackets):
#   --game NAME [hex]  --size N [8]  --option NAME=VALUE (a game option,
#   repeatable; swap=off always)  --out DIR [docs/maps/GAMESIZE, e.g.
#   docs/maps/hex8]  --short S [15]  --long S [120]  --hint S [120]
#   --line-time S [300]  --whole S [0: no step 0]  --tables DIR [none]
#   --hash MB [2048]  --param NAME=VALUE (an engine
#   parameter for every solve, repeatable; Hex: solve_play_knowledge=true
#   when none is given)  --bin DIR [target/release]  --no-hint (no step 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
game_name=hex
size=8
out=
options=()
params=()
short=15
long=120
hint=120
line_time=300
whole=0
tables=
hash=2048
bin=$here/../target/release
use_hint=1
while [ $# -gt 0 ]; do
    case $1 in
    --game) game_name=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --option) options+=(--option "$2"); shift 2 ;;
    --param) params+=(--param "$2"); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --short) short=$2; shift 2 ;;
    --long) long=$2; shift 2 ;;
    --hint) hint=$2; shift 2 ;;
    --line-time) line_time=$2; shift 2 ;;
    --whole) whole=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
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
out=${out:-$here/../docs/maps/$game_name$size}
if [ ${#params[@]} -eq 0 ] && [ "$game_name" = hex ]; then
    params=(--param solve_play_knowledge=true)
fi
game=(--game "$game_name" --size "$size" ${options[@]+"${options[@]}"} --option swap=off --by color)
solve=("$map" solve "${game[@]}" --out "$out" --opening "$opening" ${params[@]+"${params[@]}"})
# Job values are the opener's. With the defender to move (an even LINE)
# an answer that is a loss decides the line, and an answer is beaten by
# a reply below it that wins; with the opener to move, the other way round.
if [ $(( $(wc -w <<<"$line") % 2 )) -eq 0 ]; then
    decides=loss
    beaten_by=win
    decided="refutes the line; the other answers are not needed"
else
    decides=win
    beaten_by=loss
    decided="wins the line for the opener; the other replies are not needed"
fi

answers=$("$map" list "${game[@]}" --opening "$opening" ${line:+--answer "$line"})
# The value of a job ("win" for the opener, "loss", "unknown", or nothing).
value() {
    local name
    name=$(tr -s ' ' '-' <<<"$opening $line $1")
    sed -n 's/^value=//p' "$out/job-$name.txt" 2>/dev/null || true
}
# Answers decided by transposition: merge names each line whose position
# a decided line reached, and such an answer needs no job of its own.
transposed=
read_transposed() {
    local merged
    # (merge fails while openings are missing; what it printed still holds)
    merged=$("$map" merge --out "$out" 2>/dev/null) || true
    transposed=" $(sed -n "s/^# $opening ${line:+$line }\([^ :]*\): by transposition.*/\1/p" <<<"$merged" | tr '\n' ' ')"
}
is_transposed() {
    case $transposed in *" $1 "*) return 0 ;; esac
    return 1
}
# Moves still open: their own job unknown, no reply just below them
# beating them, and not decided by transposition.
unknown() {
    local x f prefix rest
    read_transposed
    for x in $answers; do
        [ "$(value "$x")" = unknown ] || continue
        is_transposed "$x" && continue
        prefix=$out/job-$(tr -s ' ' '-' <<<"$opening $line $x")
        for f in "$prefix"-*.txt; do
            rest=${f#"$prefix"-}
            case $rest in *-*) continue ;; esac
            grep -qx "value=$beaten_by" "$f" 2>/dev/null && continue 2
        done
        echo "$x"
    done
    return 0
}

# A move that wins for the side to move decides the line: the rest is not
# needed. Each move's own job is read once, after its solve (or its skip).
decided_by=
note_decided() {
    if [ "$(value "$1")" = "$decides" ]; then
        decided_by=$1
        echo "split-line.sh: $opening ${line:+$line }$1 $decided" >&2
    fi
}
# Step 0: the line as one job. Its value (the opener's) decides it either
# way; the split is then not needed.
if [ "$whole" != 0 ]; then
    name=$(tr -s ' ' '-' <<<"$opening${line:+ $line}")
    keep=()
    [ -z "$tables" ] || keep=(--table "$tables/job-$name.table")
    "${solve[@]}" --time "$whole" --hash "$hash" ${line:+--answer "$line"} --retry-unknown ${keep[@]+"${keep[@]}"}
    v=$(sed -n 's/^value=//p' "$out/job-$name.txt" 2>/dev/null || true)
    case $v in
    win | loss | draw)
        echo "split-line.sh: $opening ${line:+$line }decided as one job ($v for the opener); nothing to split" >&2
        "$map" merge --out "$out" | grep -E "^$opening " || true
        exit 0
        ;;
    esac
fi
read_transposed
for x in $answers; do
    if is_transposed "$x"; then
        echo "$opening ${line:+$line }$x: decided by transposition"
        continue
    fi
    "${solve[@]}" --time "$short" --hash $((hash / 4)) --answer "${line:+$line }$x"
    note_decided "$x"
    [ -z "$decided_by" ] || break
done
for x in $(unknown); do
    [ -z "$decided_by" ] || break
    "${solve[@]}" --time "$long" --hash $((hash / 2)) --answer "${line:+$line }$x" --retry-unknown
    note_decided "$x"
done
# crosscut's own player's move after MOVES (Black first), HINT seconds:
# prints "MOVES : crosscut REPLY".
crosscut_hint() {
    local c=black m o
    {
        echo "game $game_name"
        echo "boardsize $size"
        for o in ${options[@]+"${options[@]}"}; do
            [ "$o" = --option ] || echo "${o%%=*} ${o#*=}"
        done
        echo "swap off"
        for m in $1; do
            echo "play $c $m"
            if [ $c = black ]; then c=white; else c=black; fi
        done
        echo "time_settings 0 $hint 1"
        echo "genmove $c"
    } | "$bin/crosscut" 2>/dev/null | grep '^[=?]' | tail -1 | {
        read -r status reply
        [ "$status" = "=" ] && [ -n "$reply" ] || return 1
        echo "$1 : crosscut $reply"
    }
}
if [ $use_hint = 1 ]; then
    for x in $(unknown); do
        [ -z "$decided_by" ] || break
        if [ "$game_name" = hex ]; then
            h=$("$here/benzene-hint.sh" "$size" "$opening ${line:+$line }$x" "$hint") || h=
        else
            h=$(crosscut_hint "$opening ${line:+$line }$x") || h=
        fi
        if [ -z "$h" ]; then
            echo "split-line.sh: no reply suggested for $opening ${line:+$line }$x; stopping before step 3" >&2
            break
        fi
        echo "$h"
        y=$(sed 's/.* : //' <<<"$h" | awk '{print $2}')
        [ -n "$y" ] || continue
        "${solve[@]}" --time "$line_time" --hash "$hash" --answer "${line:+$line }$x $y" --retry-unknown
    done
fi
"$map" merge --out "$out" | grep -E "^$opening " || true
