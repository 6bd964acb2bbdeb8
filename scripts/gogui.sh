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
#   start with a pointer to `crosscut web`;
# - the real window, under Xvfb (when Xvfb, xdotool and ImageMagick's import
#   are there; else that part says SKIPPED): GoGui attached to the engine
#   on Orcoon 5x5, a click on C3, the engine receiving `play B C3` and
#   answering it, and a screenshot (target/tmp/gogui/window-*.png). The
#   click is a pixel position measured on GoGui's default window in a
#   1280x1000 screen.
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
if command -v Xvfb >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1 \
  && command -v import >/dev/null 2>&1; then
  w="$out/window"
  mkdir -p "$w"
  cat >"$w/engine.sh" <<ENGINE
#!/usr/bin/env bash
tee -a "$w/sent-\$\$.log" | "$bin" --gogui --game orcoon --size 5 2>>"$w/stderr.log" | tee -a "$w/answers-\$\$.log"
ENGINE
  chmod +x "$w/engine.sh"
  display=:$((160 + RANDOM % 100))
  Xvfb "$display" -screen 0 1280x1000x24 -nolisten tcp >"$w/xvfb.log" 2>&1 &
  xvfb=$!
  sleep 1
  DISPLAY=$display java -jar "$G/gogui.jar" -program "$w/engine.sh" -computer-none >"$w/gogui.log" 2>&1 &
  gui=$!
  # Waits up to $2 seconds for the engines to be sent a line matching $1.
  sent() {
    for _ in $(seq $(($2 * 2))); do
      cat "$w"/sent-*.log 2>/dev/null | grep -q "$1" && return
      sleep 0.5
    done
  }
  # GoGui starting the engine and drawing the board.
  sent '^gogui-rules_board$' 30
  sleep 2
  DISPLAY=$display import -window root "$out/window-start.png"
  # C3, the centre of Orcoon's 5x5 grid in GoGui's default window.
  DISPLAY=$display xdotool mousemove 205 166 click 1
  sent '^play B C3$' 10
  sleep 1
  DISPLAY=$display import -window root "$out/window-C3.png"
  kill "$gui" "$xvfb" 2>/dev/null
  wait "$gui" "$xvfb" 2>/dev/null
  # GoGui starts the engine several times (the player and its rulers); the
  # one that got the click shows Black on C3 in the board it answers to
  # GoGui (row 3 of 5: ". . X . .").
  received=0
  for log in "$w"/sent-*.log; do
    answers=${log/sent-/answers-}
    if grep -q '^play B C3$' "$log" && grep -q '^\. \. X \. \.$' "$answers"; then
      received=1
    fi
  done
  if grep -q "HeadlessException" "$w/gogui.log"; then
    echo "window: SKIPPED (this Java has no graphics: install a full JRE, e.g. Debian's default-jre)"
  elif [ "$received" = 1 ]; then
    echo "window: a click on C3 reached the engine as 'play B C3' and its board shows it (screenshots $out/window-*.png)"
  else
    echo "window: FAILED: the click did not reach the engine's board: see $w"
    fail=1
  fi
else
  echo "window: SKIPPED (Xvfb, xdotool or ImageMagick's import is missing)"
fi
exit $fail
