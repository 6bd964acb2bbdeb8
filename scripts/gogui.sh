#!/usr/bin/env bash
# The real GoGui tools (../shared/tools/gogui: the rules-extension fork)
# against crosscut's GoGui mode:
# - gogui-regress runs tests/gogui/*.tst (each names the engine's options on
#   its first line, `# engine: ARGS`); no unexpected failure or error;
# - gogui-twogtp plays two games of every game GoGui can show (Onyx 4x4,
#   Orcoon 4x4, Hex 4x4) to their end: every game has a result and no error
#   is counted (after the end genmove passes, and two passes end a game for
#   twogtp);
# - Akron, whose ball moves GoGui can neither show nor enter, is refused at
#   start with a pointer to `crosscut web`.
# Prints SKIPPED and succeeds when the jars or Java are missing, so that a
# fresh clone without ../shared passes. Output in target/tmp/gogui/.
# Usage: scripts/gogui.sh   (after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
G="${GOGUI_DIR:-../shared/tools/gogui}"
if [ ! -f "$G/gogui-regress.jar" ] || [ ! -f "$G/gogui-twogtp.jar" ]; then
  echo "SKIPPED: GoGui's jars are not in $G"
  exit 0
fi
if ! command -v java >/dev/null 2>&1; then
  echo "SKIPPED: no java"
  exit 0
fi
bin="$PWD/target/release/crosscut"
[ -x "$bin" ] || cargo build --release --quiet
out="$PWD/target/tmp/gogui"
rm -rf "$out"
mkdir -p "$out"
fail=0

for tst in tests/gogui/*.tst; do
  name=$(basename "$tst" .tst)
  args=$(head -1 "$tst" | sed -n 's/^# engine: //p')
  java -jar "$G/gogui-regress.jar" -output "$out/regress-$name" "$bin $args" "$tst" >/dev/null 2>&1 || true
  # summary.dat: #Tests FAIL fail PASS pass Error ...
  read -r tests unexpected _ _ passed errors _ < <(tail -1 "$out/regress-$name/summary.dat")
  if [ "$unexpected" = 0 ] && [ "$errors" = 0 ] && [ "$passed" = "$tests" ]; then
    echo "regress $name: $tests tests passed"
  else
    echo "regress $name: FAILED ($tests tests, $unexpected failed, $errors errors): see $out/regress-$name"
    fail=1
  fi
done

for spec in "onyx 4 --option start=blank" "orcoon 4" "hex 4"; do
  set -- $spec
  game=$1 size=$2
  shift 2
  engine="$bin --gogui --game $game --size $size $*"
  # GoGui's board size (Onyx N is 2N-1 cells).
  cells=$(printf 'gogui-rules_board_size\nquit\n' | $engine 2>/dev/null | awk 'NR==1 {print $2}')
  java -jar "$G/gogui-twogtp.jar" -auto -black "$engine" -white "$engine" \
    -games 2 -alternate -size "$cells" -sgffile "$out/twogtp-$game" >/dev/null 2>&1 || true
  dat="$out/twogtp-$game.dat"
  # Game lines: GAME RES_B RES_W RES_R ALT DUP LEN TIME_B TIME_W CPU_B CPU_W ERR ERR_MSG
  games=$(grep -cv '^#' "$dat" || true)
  bad=$(awk -F'\t' '!/^#/ && ($12 != 0 || $2 == "?" || $2 == "")' "$dat" | wc -l)
  if [ "$games" = 2 ] && [ "$bad" = 0 ]; then
    echo "twogtp $game: 2 games to their end, no error ($(awk -F'\t' '!/^#/ {printf "%s ", $2}' "$dat"))"
  else
    echo "twogtp $game: FAILED ($games games, $bad with an error or no result): see $dat"
    fail=1
  fi
done

if "$bin" --gogui --game akron </dev/null 2>"$out/akron.err"; then
  echo "akron: FAILED: GoGui mode accepted Akron"
  fail=1
elif grep -q "crosscut web" "$out/akron.err"; then
  echo "akron: refused at start, pointing to crosscut web"
else
  echo "akron: FAILED: no pointer to crosscut web: $(cat "$out/akron.err")"
  fail=1
fi
exit $fail
