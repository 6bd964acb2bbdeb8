#!/usr/bin/env bash
# Drives the real HexGui (Benzene's GUI) against crosscut in a virtual X
# display and checks what it sent and what it got: connect, a 9x9 game to
# its end (one click for Black, then the engine plays both colours from
# HexGui's Play button), clicks after the end, Back x2, Hint, Solve and
# Stop. Screenshots and the protocol log go to target/tmp/hexgui/JARNAME.
#
#   scripts/hexgui.sh [JAR]     (default ../shared/tools/hexgui/hexgui-benzene.jar;
#                                also ../shared/tools/hexgui/hexgui-selinger.jar)
#
# Needs java (Debian: default-jre-headless), Xvfb, xdotool and ImageMagick's
# import (Debian: xvfb xdotool imagemagick), and a release build. Without
# them, or without the jar, it says SKIPPED and exits 0. The clicks are
# pixel positions measured on both builds' default windows in a 1280x1000
# screen (a jar whose name holds "selinger" is taken as Selinger's build):
# another window size or build needs them measured again.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jar=${1:-$root/../shared/tools/hexgui/hexgui-benzene.jar}
out=$root/target/tmp/hexgui/$(basename "$jar" .jar)
engine=$root/target/release/crosscut
for tool in java Xvfb xdotool import; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIPPED: $tool is missing"; exit 0; }
done
[ -f "$jar" ] || { echo "SKIPPED: no HexGui jar at $jar"; exit 0; }
[ -x "$engine" ] || { echo "build first: cargo build --release" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out"

# The engine behind a logging wrapper, with 0.2 s a move (the answer to the
# wrapper's own `param` is dropped before HexGui reads anything).
cat >"$out/engine.sh" <<EOF
#!/usr/bin/env bash
{ printf 'param move_time 0.2\n'; tee -a "$out/sent.log"; } \\
  | "$engine" --game hex 2>>"$out/stderr.log" | sed -u 1,2d | tee -a "$out/answers.log"
EOF
chmod +x "$out/engine.sh"
printf '(;FF[4]GM[11]SZ[9])' >"$out/empty9.sgf"

display=:$((57 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x1000x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=$display
sleep 1
java -jar "$jar" -program "$out/engine.sh" "$out/empty9.sgf" >"$out/hexgui.log" 2>&1 &
gui=$!
cleanup() { kill "$gui" "$xvfb" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

failures=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
shot() { import -window root "$out/$1.png"; }
# The 9x9 board's geometry, in thousandths of a pixel of a screenshot
# scaled by 0.962: the centre of a1, a column's step, a row's shift and
# step. Selinger's build draws a larger board.
case $jar in
  *selinger*) a1x=79000 a1y=160000 col_step=47500 row_shift=23750 row_step=41200 ;;
  *) a1x=128000 a1y=193000 col_step=36500 row_shift=18250 row_step=32000 ;;
esac
# Pixel centre of a cell on HexGui's 9x9 board (column letter, row number).
click_cell() {
  local col=$(($(printf '%d' "'${1:0:1}") - 97)) row=$((${1:1} - 1))
  local x=$(((a1x + col_step * col + row_shift * row) / 962))
  local y=$(((a1y + row_step * row) / 962))
  xdotool mousemove "$x" "$y" click 1
}
click_button() { # toolbar buttons, by name
  case $1 in
    back) xdotool mousemove 295 65 click 1 ;;
    play) xdotool mousemove 562 65 click 1 ;;
    stop) xdotool mousemove 597 65 click 1 ;;
    hint) xdotool mousemove 689 65 click 1 ;;
    solve) xdotool mousemove 723 65 click 1 ;;
  esac
}
answers_to() { grep -c "^$1" "$out/sent.log"; }
# Waits (up to 10 s) until every genmove sent has its answer: a click on
# Play while the engine thinks would queue a second genmove for the same
# colour, which HexGui then plays as the other colour's move.
# First waits (up to 3 s) for the genmove number $1 to be sent: fails if
# it is not (a click on a toolbar not yet unlocked is lost).
moves_answered() {
  local i
  for i in $(seq 1 30); do
    [ "$(grep -c '^genmove ' "$out/sent.log")" -ge "$1" ] && break
    sleep 0.1
  done
  [ "$(grep -c '^genmove ' "$out/sent.log")" -ge "$1" ] || return 1
  for i in $(seq 1 100); do
    [ "$(grep -cE '^= ([a-z][0-9]+|swap|resign)$|^\? ' "$out/answers.log")" -ge \
      "$(grep -c '^genmove ' "$out/sent.log")" ] && return 0
    sleep 0.1
  done
  return 1
}

sleep 8
shot 1-connected
check "connect: name, version, hexgui-analyze_commands, boardsize 9 9" \
  grep -qx 'boardsize 9 9' "$out/sent.log"
check "the analyze menu was read (no error answer)" grep -q '^= inferior/' "$out/answers.log"

# A game to its end: Black e5 by a click, then the engine moves.
click_cell e5
moves_answered 1
# (HexGui does not see the end itself: the engine's `genmove` answers
# `? the game is over` once a colour has joined its edges.)
for _ in $(seq 1 200); do
  grep -q '^? the game is over' "$out/answers.log" && break
  click_button play
  moves_answered $(($(grep -c '^genmove ' "$out/sent.log") + 1)) || sleep 0.2
done
shot 2-game-over
check "the game reached its end" grep -q '^? the game is over' "$out/answers.log"
moves=$(grep -c '^play \|^genmove ' "$out/sent.log")
echo "     ($moves play and genmove commands)"

# Clicks after the end are taken, and Back undoes them in order: two empty
# cells, found from the moves played (e5 and the engine's answers).
taken=" e5 $(grep -E '^= [a-i][1-9]$' "$out/answers.log" | cut -c3- | tr '\n' ' ')"
empty=()
for row in 1 2 3 4 5 6 7 8 9; do
  for col in a b c d e f g h i; do
    [[ $taken == *" $col$row "* ]] || empty+=("$col$row")
  done
done
plays_before=$(answers_to 'play ')
for cell in "${empty[@]:0:2}"; do click_cell "$cell"; sleep 1.5; done
shot 3-clicks-after-the-end
check "two clicks after the end sent as play (${empty[*]:0:2})" \
  test "$(answers_to 'play ')" -eq $((plays_before + 2))
check "no play was refused" bash -c "! grep -q '^? illegal move' '$out/answers.log'"
for _ in 1 2; do click_button back; sleep 1.5; done
shot 4-after-back
check "Back sent undo twice" test "$(answers_to undo)" -eq 2
check "no undo was refused" bash -c "! grep -q '^? cannot undo' '$out/answers.log'"

# Hint, then Solve stopped: on the empty board (the Beginning), which no
# solver decides in seconds (after Black e5 and White's answer the solver
# now proves Black's win in about a second, before Stop is clicked).
xdotool mousemove 228 65 click 1   # the Beginning button
sleep 3
click_button hint
sleep 4
shot 5-hint
check "Hint sent vc-build" grep -q '^vc-build ' "$out/sent.log"
click_button solve
sleep 3
shot 6-solving
click_button stop
sleep 3
shot 7-stopped
check "Solve sent dfpn-solve-state" grep -q '^dfpn-solve-state ' "$out/sent.log"
check "Stop sent # interrupt" grep -qx '# interrupt' "$out/sent.log"
check "the stopped solve answered empty" grep -qx '= empty' "$out/answers.log"
check "every empty answer was '= '" bash -c "! grep -qx '=' '$out/answers.log'"
check "nothing refused but genmove after the end" \
  bash -c "! grep '^?' '$out/answers.log' | grep -qv '^? the game is over'"
echo "log: $out/sent.log, $out/answers.log; screenshots: $out/*.png"
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all HexGui checks passed"
