#!/usr/bin/env bash
# Fault injection: how crosscut and crosscut-match behave when the world
# around them fails. Each case prints PASS or FAIL with what it measured:
#   - end of input in the middle of a long search (each game, and with two
#     threads): seconds until the engine exits (must be under EOF_LIMIT);
#   - end of input while idle (the baseline);
#   - stdout closed, stdout a pipe whose reader has gone, stdout /dev/full;
#   - stderr closed or /dev/full while logging and writing info lines;
#   - SIGTERM and SIGINT during a search;
#   - end of input and `stop` during the solver (solve 0, solve_all 0,
#     genmove with genmove_solve) on the largest board of each game;
#   - crosscut-match against crosscut-fake-engine's flood, drip, hang,
#     crash, slow and close (stdout closed, process alive) modes: the
#     game's end reason, how long it took, the runner's peak memory, and
#     engine processes left behind; a second runner on the same --out;
#     the runner interrupted by SIGINT (no engine may outlive it);
#   - crosscut web with stalled request bodies: the time other requests
#     take, and the stalled ones answered 408.
#   scripts/faults.sh            (EOF_LIMIT=1 CAP=10 seconds by default)
# Exit status: the number of failed cases (0: all passed).
set -uo pipefail
cd "$(dirname "$0")/.."
nice -n 10 cargo build --release --quiet --bins || exit 100
engine=target/release/crosscut
fake=target/release/crosscut-fake-engine
runner=target/release/crosscut-match
EOF_LIMIT="${EOF_LIMIT:-1}"
CAP="${CAP:-10}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
stalled=()

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc -l | xargs printf '%.3f'; }
lt() { [ "$(echo "$1 < $2" | bc -l)" = 1 ]; }
result() { # result PASS|FAIL NAME TEXT
  echo "$1 $2: $3"
  [ "$1" = PASS ] || failures=$((failures + 1))
}
panicked() { grep -q "panicked" "$1" 2>/dev/null; }

search_cmds() { # search_cmds GAME [THREADS]
  printf 'game %s\nparam verbose false\nparam threads %s\nparam move_time 0\nparam max_depth 64\ngenmove b\n' "$1" "${2:-1}"
}

# --- End of input.
t0=$(now)
printf 'name\n' | timeout "$CAP" nice -n 10 "$engine" >/dev/null 2>&1
code=$? t=$(since "$t0")
if [ $code = 0 ] && lt "$t" "$EOF_LIMIT"; then r=PASS; else r=FAIL; fi
result $r eof-idle "exited in ${t}s, status $code"

for g in onyx orcoon akron hex "onyx 2"; do
  set -- $g
  name="eof-mid-search-$1${2:+-threads-$2}"
  t0=$(now)
  search_cmds "$1" "${2:-1}" | timeout "$CAP" nice -n 10 "$engine" >"$tmp/out" 2>"$tmp/err"
  code=$? t=$(since "$t0")
  if [ $code = 124 ]; then
    result FAIL "$name" "still searching after ${CAP}s (killed): end of input does not stop a search"
  elif panicked "$tmp/err"; then
    result FAIL "$name" "panicked: $(grep -m1 panicked "$tmp/err")"
  elif lt "$t" "$EOF_LIMIT"; then
    result PASS "$name" "exited ${t}s after end of input, status $code"
  else
    result FAIL "$name" "exited after ${t}s (limit ${EOF_LIMIT}s), status $code"
  fi
done

# --- The solver on the largest boards: end of input and `stop`.
solver_cmds() { # solver_cmds GAME SIZE WHAT
  printf 'game %s\nboardsize %s\nparam verbose false\n' "$1" "$2"
  case $3 in
    solve) printf 'solve 0\n' ;;
    solve_all) printf 'solve_all 0\n' ;;
    genmove) printf 'param genmove_solve 1000\nparam move_time 0\ngenmove b\n' ;;
  esac
}
for g in "onyx 26" "orcoon 26" "akron 26" "hex 19"; do
  set -- $g
  for what in solve solve_all genmove; do
    name="eof-mid-$what-$1-$2"
    t0=$(now)
    solver_cmds "$1" "$2" "$what" | timeout "$CAP" nice -n 10 "$engine" >"$tmp/out" 2>"$tmp/err"
    code=$? t=$(since "$t0")
    if [ $code = 0 ] && lt "$t" "$EOF_LIMIT" && ! panicked "$tmp/err"; then r=PASS; else r=FAIL; fi
    result $r "$name" "exited ${t}s after end of input, status $code"
    # `stop` 0.3 s into the command: the time to its answer.
    mkfifo "$tmp/in"
    nice -n 10 "$engine" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    exec 3>"$tmp/in"
    solver_cmds "$1" "$2" "$what" >&3
    want=$(solver_cmds "$1" "$2" "$what" | wc -l)
    sleep 0.3
    t0=$(now)
    printf 'stop\n' >&3
    for _ in $(seq 1 $((CAP * 100))); do
      [ "$(grep -c '^[=?]' "$tmp/out")" -ge "$want" ] && break
      sleep 0.01
    done
    t=$(since "$t0")
    exec 3>&-
    timeout "$CAP" tail -s 0.01 --pid="$pid" -f /dev/null
    wait "$pid" 2>/dev/null
    if [ "$(grep -c '^[=?]' "$tmp/out")" -ge "$want" ] && lt "$t" 1; then r=PASS; else r=FAIL; fi
    rm -f "$tmp/in"
    result $r "stop-mid-$what-$1-$2" "answered ${t}s after stop"
  done
done

# --- stdout.
t0=$(now)
printf 'name\ngame onyx\ngenmove b\nshowboard\nquit\n' | timeout "$CAP" nice -n 10 "$engine" >&- 2>"$tmp/err"
code=$? t=$(since "$t0")
if [ $code != 124 ] && [ $code != 101 ] && ! panicked "$tmp/err"; then r=PASS; else r=FAIL; fi
result $r stdout-closed "status $code in ${t}s, $(wc -c <"$tmp/err") bytes on stderr"

# A pipe whose reader has gone, and /dev/full: the engine must exit when
# its first answer cannot be written (timed from that command, not from
# the end of input, which never comes here).
exit_after_name() { # exit_after_name NAME STDOUT: starts the engine with
  # stdin a fifo kept open and stdout STDOUT, sends 'name', times the exit.
  local name=$1 target=$2
  mkfifo "$tmp/in"
  nice -n 10 "$engine" <"$tmp/in" >"$target" 2>"$tmp/err" &
  local pid=$!
  exec 3>"$tmp/in"
  sleep 0.3
  t0=$(now)
  printf 'name\n' >&3
  timeout 3 tail -s 0.01 --pid="$pid" -f /dev/null
  local gone=$?
  t=$(since "$t0")
  exec 3>&-
  wait "$pid"
  code=$?
  rm -f "$tmp/in"
  if [ $gone = 0 ] && [ $code = 1 ] && ! panicked "$tmp/err"; then r=PASS; else r=FAIL; fi
  [ $gone = 0 ] || t=">3 (still running with stdin open)"
  result $r "$name" "exited ${t}s after the command, status $code, stderr: $(head -c 90 "$tmp/err" | tr '\n' ' ')"
}
mkfifo "$tmp/outpipe"
(exec head -c 0 <"$tmp/outpipe") &
exit_after_name stdout-reader-gone "$tmp/outpipe"
rm -f "$tmp/outpipe"
exit_after_name stdout-dev-full /dev/full

# --- stderr: the answers must be the same as with a working stderr.
cmds='name\ngame hex\nboardsize 7\nparam verbose true\nparam move_time 0.2\ngenmove b\nbogus\nshowboard\nquit\n'
printf "$cmds" | RUST_LOG=debug timeout "$CAP" nice -n 10 "$engine" >"$tmp/ref" 2>/dev/null
ref_marks=$(grep -o '^[=?]' "$tmp/ref" | tr -d '\n')
for how in closed full; do
  t0=$(now)
  if [ $how = closed ]; then
    printf "$cmds" | RUST_LOG=debug timeout "$CAP" nice -n 10 "$engine" >"$tmp/out" 2>&-
  else
    printf "$cmds" | RUST_LOG=debug timeout "$CAP" nice -n 10 "$engine" >"$tmp/out" 2>/dev/full
  fi
  code=${PIPESTATUS[1]} t=$(since "$t0")
  marks=$(grep -o '^[=?]' "$tmp/out" | tr -d '\n')
  if [ "$code" = 0 ] && [ "$marks" = "$ref_marks" ]; then r=PASS; else r=FAIL; fi
  result $r "stderr-$how" "status $code in ${t}s, answers $marks (with a working stderr: $ref_marks)"
done

# --- Signals during a search (a background job of a script starts with
# SIGINT ignored: env --default-signal gives the engine the default).
for sig in TERM INT; do
  mkfifo "$tmp/in"
  env --default-signal=INT nice -n 10 "$engine" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  exec 3>"$tmp/in"
  search_cmds onyx >&3
  sleep 0.5
  t0=$(now)
  kill -"$sig" "$pid"
  timeout "$CAP" tail -s 0.01 --pid="$pid" -f /dev/null
  t=$(since "$t0")
  wait "$pid" 2>/dev/null
  code=$?
  exec 3>&-
  rm -f "$tmp/in"
  if lt "$t" 1 && ! panicked "$tmp/err"; then r=PASS; else r=FAIL; fi
  result $r "sig$sig-mid-search" "exited ${t}s after SIG$sig, status $code"
done

# --- The runner against misbehaving engines.
mark="crosscut-faults-$$"
leftovers() { # engine processes still running with this script's mark
  local n=0 p
  for p in /proc/[0-9]*; do
    grep -qa "CROSSCUT_FAULTS=$mark" "$p/environ" 2>/dev/null && n=$((n + 1))
  done
  echo $n
}
runner_case() { # runner_case NAME EXPECTED_REASONS MAX_SECONDS MODE_ARGS RUNNER_ARGS...
  local name=$1 want=$2 max=$3 mode=$4
  shift 4
  rm -rf "$tmp/m"
  t0=$(now)
  CROSSCUT_FAULTS=$mark /usr/bin/time -o "$tmp/time" -f "%M" timeout 120 nice -n 10 "$runner" \
    --engine "name=bad cmd='$fake $mode'" --engine "name=good cmd=$fake" \
    --game hex --size 5 --games 2 --out "$tmp/m" --quiet "$@" >"$tmp/mout" 2>&1
  code=$? t=$(since "$t0")
  local rss reasons ok=1
  rss=$(tail -1 "$tmp/time")
  sleep 0.2
  local left
  left=$(leftovers)
  reasons=$(awk -F'\t' '!/^#/ {printf "%s%s(%ss)", sep, $7, $9; sep=" "}' "$tmp/m/results.tsv" 2>/dev/null)
  [ $code = 0 ] || ok=0
  [ "$(grep -vc '^#' "$tmp/m/results.tsv" 2>/dev/null)" = 2 ] || ok=0
  awk -F'\t' -v want="$want" '!/^#/ && $7 !~ "^(" want ")$" {bad=1} END {exit bad}' "$tmp/m/results.tsv" 2>/dev/null || ok=0
  # The misbehaving engine must lose both games.
  awk -F'\t' '!/^#/ {w = ($6 ~ /^B/) ? $4 : $5; if (w != "good") bad=1} END {exit bad}' "$tmp/m/results.tsv" 2>/dev/null || ok=0
  lt "$t" "$max" || ok=0
  [ "$left" = 0 ] || ok=0
  [ "${rss:-999999}" -lt 200000 ] || ok=0
  [ $ok = 1 ] && r=PASS || r=FAIL
  result $r "match-$name" "status $code, ${t}s for 2 games, end reasons: ${reasons:-none}, runner peak rss ${rss} kB, engines left running: $left"
}
runner_case flood "protocol|hang" 20 "--mode flood" --st 0.1
runner_case drip "protocol|hang|time" 20 "--mode drip --delay 0.05" --st 0.1
runner_case hang-st "hang" 10 "--mode hang" --st 0.1
runner_case hang-timeout "hang" 15 "--mode hang" --timeout 2
runner_case crash "crash" 10 "--mode crash" --st 0.1
runner_case slow "time|hang" 10 "--mode slow --delay 0.5" --st 0.1
runner_case flood-late "protocol|hang" 20 "--mode flood --after 3" --tc 5+0.1
runner_case closed-stdout "crash" 5 "--mode close --delay 30" --st 0.1

# Two runners on one --out: the second is refused at once, the first
# plays every game once.
rm -rf "$tmp/m"
CROSSCUT_FAULTS=$mark nice -n 10 "$runner" --engine "name=a cmd='$fake --mode slow --delay 0.1'" \
  --engine "name=b cmd=$fake" --game hex --size 5 --games 4 --out "$tmp/m" --quiet >/dev/null 2>&1 &
first=$!
for _ in $(seq 1 500); do [ -e "$tmp/m/results.tsv" ] && break; sleep 0.01; done
t0=$(now)
timeout "$CAP" "$runner" --engine "name=a cmd='$fake'" --engine "name=b cmd=$fake" \
  --game hex --size 5 --games 4 --out "$tmp/m" --resume --quiet >/dev/null 2>"$tmp/second"
code=$? t=$(since "$t0")
wait "$first"
games=$(grep -vc '^#' "$tmp/m/results.tsv")
if [ $code != 0 ] && grep -q "in use by another crosscut-match" "$tmp/second" && [ "$games" = 4 ]; then r=PASS; else r=FAIL; fi
result $r match-two-runners-one-out "second runner: status $code in ${t}s ($(head -c 100 "$tmp/second")); games written: $games"

# The runner stopped by Ctrl-C (SIGINT) while an engine hangs: engines run
# in process groups of their own, and must still not outlive it.
rm -rf "$tmp/m"
CROSSCUT_FAULTS=$mark env --default-signal=INT "$runner" --engine "name=a cmd='$fake --mode hang --after 2'" \
  --engine "name=b cmd=$fake" --game hex --size 5 --games 2 --timeout 100 --out "$tmp/m" --quiet >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid" 2>/dev/null
sleep 0.3
left=$(leftovers)
[ "$left" = 0 ] && r=PASS || r=FAIL
result $r match-sigint "runner interrupted while an engine hangs: engines left running: $left"

# --- crosscut web with stalled bodies.
"$engine" web --port 0 >"$tmp/web" 2>/dev/null &
web=$!
for _ in $(seq 1 300); do grep -qs 'http://' "$tmp/web" && break; sleep 0.01; done
port=$(sed -n 's|.*127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/web")
for i in $(seq 1 32); do
  exec {fd}<>/dev/tcp/127.0.0.1/"$port"
  printf 'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Length: 100000\r\n\r\n{' "$port" >&$fd
  stalled+=("$fd")
done
sleep 0.2
worst=0
for i in $(seq 1 10); do
  t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -m "$CAP" "http://127.0.0.1:$port/")
  code=${t% *} t=${t#* }
  [ "$code" = 200 ] || worst=$CAP
  lt "$worst" "$t" && worst=$t
done
if lt "$worst" 1; then r=PASS; else r=FAIL; fi
result $r web-stalled-bodies "GET / with 32 stalled bodies open: slowest of 10 ${worst}s"
timeouts=0
for fd in "${stalled[@]}"; do
  head=$(timeout 10 head -c 12 <&$fd)
  [ "$head" = "HTTP/1.1 408" ] && timeouts=$((timeouts + 1))
  exec {fd}>&-
done
[ $timeouts = 32 ] && r=PASS || r=FAIL
result $r web-stalled-bodies-408 "$timeouts of 32 stalled requests answered 408 at their deadline"
kill "$web"

echo "faults: $failures failed"
exit $failures
