# Shared parts of the bench scripts (bench/run, bench/run-leverage): flags, JDK, run folder and cleanup, builds,
# starting the server, a throw-away PostgreSQL database, waiting for a quiet machine, noise retries, the summary.
# Sourced, not run. The sourcing script sets PROG (its name for messages) and BENCH_DIR first, and may change the
# defaults below after sourcing.
# shellcheck shell=bash

ROOT="$(cd "$BENCH_DIR/.." && pwd)"

# ---------------------------------------------------------------- shared flags and their defaults
CONNECTIONS="64"
WARMUP="30"
SECONDS_MEASURE="10"
MAX_REQUESTS="10000000"
CLIENT_THREADS="$(nproc)"
TRANSPORT="auto"
SERVER_JVM_OPTS="-Xms1g -Xmx1g"
# Flags only TAS starts with, before SERVER_JVM_OPTS: bench/run sets them to the service's own defaults (D107).
TAS_JVM_OPTS=""
LOADGEN_JVM_OPTS="-Xms512m -Xmx512m"
SKIP_BUILD=0
STARTUP_TIMEOUT=180
PG_HOST=127.0.0.1
PG_PORT=5432
PG_USER=postgres
PROGRESS=0
TAS_JAR_FLAG=""
QUIET_WAIT=60
SERVE_EXTRA=""
NOISE_RETRIES=2
NOISE_LIMIT=0.15

common_usage() {
  cat <<'EOF_USAGE'
  --connections N         keep-alive connections of the load generator (default 64)
  --warmup-seconds S      un-measured warm-up per target (the JITs on a 2-core box need it)
  --seconds S             measured window per target (default 10)
  --max-requests N        hard cap on requests per target, warm-up included (default 10000000)
  --client-threads N      load-generator event-loop threads (default: nproc)
  --transport T           Netty transport for baseline and load generator: auto|epoll|nio (default auto)
  --server-jvm-opts STR   JVM flags for the servers (default "-Xms1g -Xmx1g")
  --loadgen-jvm-opts STR  JVM flags for the load generator (default "-Xms512m -Xmx512m")
  --skip-build            do not run the Maven builds (jars must exist)
  --serve-args STR        extra flags appended to every `tas.jar serve` (e.g. "--cache off")
  --tas-jar F             benchmark this server jar instead of target/tas.jar (the server is then not built)
  --startup-timeout S     seconds to wait for a server to answer (default 180)
  --pg-host H / --pg-port P / --pg-user U   PostgreSQL (default 127.0.0.1 / 5432 / postgres; trust auth)
  --noise-retries N       re-measure a target up to N more times when other processes took > 0.15 cores
                          during its window; the least disturbed attempt is kept (default 2)
  --quiet-wait S          before each target, wait up to S seconds for other processes to go idle (default 60; 0 = off)
  --progress              print requests/s every second while loading (default: every 5 s)
  -h, --help
EOF_USAGE
}

need() { [[ $# -ge 2 && -n "$2" ]] || { echo "$PROG: $1 needs a value" >&2; exit 2; }; }

# common_flag "$@": takes one shared flag off the front; sets NSHIFT to the words it used; 1 when $1 is not one.
common_flag() {
  NSHIFT=2
  case "$1" in
    --connections) need "$@"; CONNECTIONS="$2" ;;
    --warmup-seconds) need "$@"; WARMUP="$2" ;;
    --seconds) need "$@"; SECONDS_MEASURE="$2" ;;
    --max-requests) need "$@"; MAX_REQUESTS="$2" ;;
    --client-threads) need "$@"; CLIENT_THREADS="$2" ;;
    --transport) need "$@"; TRANSPORT="$2" ;;
    --server-jvm-opts) need "$@"; SERVER_JVM_OPTS="$2" ;;
    --loadgen-jvm-opts) need "$@"; LOADGEN_JVM_OPTS="$2" ;;
    --skip-build) SKIP_BUILD=1; NSHIFT=1 ;;
    --startup-timeout) need "$@"; STARTUP_TIMEOUT="$2" ;;
    --pg-host) need "$@"; PG_HOST="$2" ;;
    --pg-port) need "$@"; PG_PORT="$2" ;;
    --pg-user) need "$@"; PG_USER="$2" ;;
    --progress) PROGRESS=1; NSHIFT=1 ;;
    --quiet-wait) need "$@"; QUIET_WAIT="$2" ;;
    --serve-args) need "$@"; SERVE_EXTRA="$2" ;;
    --noise-retries) need "$@"; NOISE_RETRIES="$2" ;;
    --tas-jar) need "$@"; TAS_JAR_FLAG="$(realpath "$2")" ;;
    *) return 1 ;;
  esac
}

# check_numbers INT_VAR... -- NUMBER_VAR...: exits 2 on a malformed value.
check_numbers() {
  local v ints=1
  for v in "$@"; do
    if [[ "$v" == "--" ]]; then ints=0; continue; fi
    if (( ints )); then
      [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "$PROG: ${v,,} must be a positive integer" >&2; exit 2; }
    else
      [[ "${!v}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "$PROG: ${v,,} must be a number" >&2; exit 2; }
    fi
  done
}

# ---------------------------------------------------------------- java 25
pick_java_home() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64; do
    [[ -n "$c" && -x "$c/bin/java" ]] || continue
    local major
    major="$("$c/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2}')"
    if [[ "${major%%.*}" =~ ^[0-9]+$ && "${major%%.*}" -ge 25 ]]; then echo "$c"; return 0; fi
  done
  return 1
}

# setup_run: the JDK, the run folder $OUT (bench/target/results/<run-id>/) and the cleanup on exit.
setup_run() {
  JAVA_HOME="$(pick_java_home)" || { echo "$PROG: need a JDK >= 25 (set JAVA_HOME)" >&2; exit 2; }
  export JAVA_HOME
  JAVA="$JAVA_HOME/bin/java"
  RUN_ID="$(date -u +%Y%m%dT%H%M%SZ)"
  OUT="$BENCH_DIR/target/results/$RUN_ID"
  mkdir -p "$OUT"
  SERVER_PID=""
  PG_DB=""
  trap cleanup EXIT
  trap 'exit 130' INT TERM
}

log() { printf '[bench %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

cleanup() {
  local rc=$?
  stop_server || true
  drop_pg_db || true
  exit $rc
}

stop_server() {
  [[ -n "$SERVER_PID" ]] || return 0
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 150); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      log "server $SERVER_PID did not stop in 15s; killing"
      kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
  fi
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# ---------------------------------------------------------------- throw-away PostgreSQL database
psql_admin() { psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -v ON_ERROR_STOP=1 -q "$@"; }
pg_reachable() { psql_admin -t -c 'select 1' >/dev/null 2>&1; }

# create_pg_db PREFIX: creates PREFIX_<epoch>_<random>, sets PG_DB and PG_URL; dropped by drop_pg_db or on exit.
create_pg_db() {
  PG_DB="$1_$(date +%s)_${RANDOM}"
  psql_admin -c "create database $PG_DB" >/dev/null
  PG_URL="jdbc:postgresql://$PG_HOST:$PG_PORT/$PG_DB"
  log "created database $PG_DB"
}

drop_pg_db() {
  [[ -n "$PG_DB" ]] || return 0
  psql_admin -c "drop database if exists $PG_DB with (force)" >/dev/null 2>&1 \
    && log "dropped database $PG_DB" || log "WARNING: could not drop database $PG_DB"
  PG_DB=""
}

# ---------------------------------------------------------------- builds and jars
# build_jars WANT_SERVER: the server (unless --tas-jar or WANT_SERVER=0) and the bench tool, logs in $OUT.
build_jars() {
  if [[ "$SKIP_BUILD" == 0 ]]; then
    if [[ "$1" == 1 && -z "$TAS_JAR_FLAG" ]]; then
      log "building server: mvn -B -q -DskipTests package (in $ROOT)"
      (cd "$ROOT" && mvn -B -q -DskipTests package) > "$OUT/build-server.log" 2>&1 \
        || { tail -40 "$OUT/build-server.log" >&2; echo "$PROG: server build failed (log: $OUT/build-server.log)" >&2; exit 1; }
    fi
    log "building bench tool: mvn -B -q -DskipTests -f bench/pom.xml package"
    (cd "$BENCH_DIR" && mvn -B -q -DskipTests package) > "$OUT/build-bench.log" 2>&1 \
      || { tail -40 "$OUT/build-bench.log" >&2; echo "$PROG: bench build failed (log: $OUT/build-bench.log)" >&2; exit 1; }
  fi
  BENCH_JAR="$BENCH_DIR/target/bench.jar"
  TAS_JAR="${TAS_JAR_FLAG:-$ROOT/target/tas.jar}"
  [[ -f "$BENCH_JAR" ]] || { echo "$PROG: $BENCH_JAR missing (build it or drop --skip-build)" >&2; exit 1; }
  BENCH_JAVA=("$JAVA" --enable-native-access=ALL-UNNAMED)
}

bench() { "${BENCH_JAVA[@]}" -jar "$BENCH_JAR" "$@"; }

# tas_default_jvm_opts: the JVM flags ./tas starts the service with (D107), as a user gets them; the AOT cache only
# when the benchmarked jar is the one it was trained on (another jar would make the JVM refuse it noisily).
tas_default_jvm_opts() {
  local o opts out=()
  # The bench's own server flags stand where ./tas reads TAS_JAVA_OPTS (the caller's is not passed to the server here):
  # a collector named in BENCH_EXTRA_TAS_JVM replaces the serial one, as for ./tas.
  opts="$(TAS_JAVA_OPTS="${BENCH_EXTRA_TAS_JVM:-}" "$ROOT/tas" jvm-options)" || { echo "$PROG: ./tas jvm-options failed" >&2; exit 1; }
  for o in $opts; do
    if [[ "$o" == -XX:AOTCache=* && "$TAS_JAR" != "$ROOT/target/tas.jar" ]]; then continue; fi
    out+=("$o")
  done
  echo "${out[*]}"
}

# ---------------------------------------------------------------- the server
# read_serve_help: the flags `tas.jar serve` has (saved in $OUT/serve-help.txt); start_tas adapts to them.
read_serve_help() {
  [[ -f "$TAS_JAR" ]] || { echo "$PROG: $TAS_JAR missing" >&2; exit 1; }
  SERVE_HELP="$(cd "$ROOT" && timeout 60 "$JAVA" -jar "$TAS_JAR" serve --help 2>&1)" || true
  echo "$SERVE_HELP" > "$OUT/serve-help.txt"
  if ! grep -q -- '--port' <<< "$SERVE_HELP"; then
    log "WARNING: 'tas.jar serve --help' does not describe --port; the server may not be ready (see $OUT/serve-help.txt)"
  fi
}
# When the help text is unusable, assume the documented flags (--port --admin-port --db-url --db-user --seed --rate-limits).
serve_has() { grep -q -- '--port' <<< "$SERVE_HELP" || return 0; grep -q -- "$1\\b" <<< "$SERVE_HELP"; }

# start_tas LABEL DB_URL [DB_USER]  -> sets SERVER_PID, TAS_PORT, TAS_ADMIN_PORT
start_tas() {
  local label="$1" url="$2" user="${3:-}"
  read -r TAS_PORT TAS_ADMIN_PORT <<< "$(bench free-ports --count 2)"
  local args=(serve --port "$TAS_PORT")
  serve_has --admin-port && args+=(--admin-port "$TAS_ADMIN_PORT")
  args+=(--db-url "$url")
  if [[ -n "$user" ]]; then
    if serve_has --db-user; then args+=(--db-user "$user"); else log "WARNING: serve has no --db-user; not passing it"; fi
  fi
  if serve_has --seed; then args+=(--seed demo); else log "WARNING: serve has no --seed flag"; fi
  if serve_has --rate-limits; then args+=(--rate-limits off); else log "WARNING: serve has no --rate-limits flag"; fi
  # The demo seed's admin token and master key are refused outside a sandbox.
  if serve_has --sandbox; then args+=(--sandbox); fi
  # shellcheck disable=SC2206
  [[ -n "$SERVE_EXTRA" ]] && args+=($SERVE_EXTRA)
  # shellcheck disable=SC2086
  local cmd=("$JAVA" $TAS_JVM_OPTS $SERVER_JVM_OPTS -jar "$TAS_JAR" "${args[@]}")
  echo "${cmd[*]}" > "$OUT/$label.cmd"
  log "starting $label: ${cmd[*]}"
  (cd "$ROOT" && exec "${cmd[@]}") > "$OUT/$label.server.log" 2>&1 &
  SERVER_PID=$!
  wait_ready "$label" "http://127.0.0.1:$TAS_PORT/api/v2/public/time"
}

wait_ready() {
  local label="$1" url="$2" start=$SECONDS
  while (( SECONDS - start < STARTUP_TIMEOUT )); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      log "$label exited during startup; last log lines:"; tail -30 "$OUT/$label.server.log" >&2
      SERVER_PID=""; return 1
    fi
    if curl -s -f -o /dev/null --max-time 2 "$url"; then
      log "$label ready after $((SECONDS - start))s ($url)"; return 0
    fi
    sleep 0.5
  done
  log "$label did not answer $url within ${STARTUP_TIMEOUT}s; last log lines:"; tail -30 "$OUT/$label.server.log" >&2
  stop_server; return 1
}

# ---------------------------------------------------------------- quiet machine, noise retries
# Machine-wide busy fraction (percent) over ~1 s, from /proc/stat.
busy_pct() {
  local a b
  read -r -a a < /proc/stat; sleep 1; read -r -a b < /proc/stat
  local ta=0 tb=0 i
  for i in 1 2 3 4 5 6 7 8; do ta=$((ta + a[i])); tb=$((tb + b[i])); done
  local idle=$(( (b[4] + b[5]) - (a[4] + a[5]) )) total=$((tb - ta))
  (( total > 0 )) || { echo 0; return; }
  echo $(( 100 - 100 * idle / total ))
}

# Before loading, wait (bounded) until the machine is quiet apart from the idle server under test.
wait_quiet() {
  (( QUIET_WAIT > 0 )) || return 0
  local start=$SECONDS b
  while :; do
    b="$(busy_pct)"
    (( b <= 15 )) && return 0
    if (( SECONDS - start >= QUIET_WAIT )); then
      log "WARNING: machine still ${b}% busy after ${QUIET_WAIT}s of waiting; measuring anyway (see 'oth cpu')"
      return 0
    fi
    (( SECONDS - start < 2 )) && log "machine ${b}% busy (other processes); waiting up to ${QUIET_WAIT}s for it to go quiet"
  done
}

# measure FN LABEL [ARGS...]: FN LABEL ARGS writes $OUT/LABEL.result (after wait_quiet). While another process stole
# CPU during the window (oth cpu > NOISE_LIMIT), or the attempt had errors, it is run again, at most NOISE_RETRIES more
# times (against the same, already warm server); kept as $OUT/LABEL.result is an attempt without errors if there is
# one, and among those the one with the least foreign CPU.
measure() {
  local fn="$1" label="$2" attempt=1 best="" best_key="" oth errors key
  shift
  while :; do
    wait_quiet
    "$fn" "$@" || [[ -f "$OUT/$label.result" ]] || return 1
    [[ -f "$OUT/$label.result" ]] || return 1
    mv "$OUT/$label.result" "$OUT/$label.attempt$attempt.result"
    oth="$(awk -F= '$1=="other_cpu_cores"{print $2}' "$OUT/$label.attempt$attempt.result")"
    errors="$(awk -F= '$1=="errors"{print $2}' "$OUT/$label.attempt$attempt.result")"
    [[ "$oth" =~ ^[0-9.]+$ ]] || oth=0
    [[ "$errors" =~ ^[0-9]+$ ]] || errors=1
    key="$(( errors > 0 ))$oth" # sorts error-free attempts first, then by foreign CPU
    if [[ -z "$best" ]] || awk -v a="$key" -v b="$best_key" 'BEGIN{exit !(substr(a,1,1) < substr(b,1,1) || (substr(a,1,1) == substr(b,1,1) && substr(a,2) + 0 < substr(b,2) + 0))}'; then
      best="$OUT/$label.attempt$attempt.result"; best_key="$key"
    fi
    if { (( errors == 0 )) && awk -v a="$oth" -v l="$NOISE_LIMIT" 'BEGIN{exit !(a <= l)}'; } || (( attempt > NOISE_RETRIES )); then
      break
    fi
    if (( errors > 0 )); then
      log "$label: $errors error(s) in the window; measuring again (attempt $((attempt + 1)))"
    else
      log "$label: other processes used $oth cores during the window (> $NOISE_LIMIT); measuring again (attempt $((attempt + 1)))"
    fi
    attempt=$((attempt + 1))
  done
  cp "$best" "$OUT/$label.result"
  echo "attempts=$attempt" >> "$OUT/$label.result"
  (( attempt > 1 )) && log "$label: kept $(basename "$best") (errors $(( ${best_key:0:1} )), other cpu ${best_key:1}) of $attempt attempts"
  return 0
}

progress_flag() { if [[ "$PROGRESS" == 1 ]]; then echo 1; else echo 5; fi; }

# run_load LABEL PORT [AUX_PROCESS_NAME [LOAD_FLAGS...]] -> writes $OUT/LABEL.result (the bench tool's `load`)
run_load() {
  local label="$1" port="$2" aux="${3:-}"
  shift 2
  if (( $# )); then shift; fi
  local extra=(--progress-seconds "$(progress_flag)")
  [[ -n "$aux" ]] && extra+=(--aux-cpu-process "$aux")
  # shellcheck disable=SC2086
  "$JAVA" --enable-native-access=ALL-UNNAMED $LOADGEN_JVM_OPTS -jar "$BENCH_JAR" load \
    --port "$port" --label "$label" --connections "$CONNECTIONS" --warmup-seconds "$WARMUP" \
    --seconds "$SECONDS_MEASURE" --max-requests "$MAX_REQUESTS" --threads "$CLIENT_THREADS" \
    --transport "$TRANSPORT" --server-pid "$SERVER_PID" --result-file "$OUT/$label.result" "${extra[@]}" "$@" \
    2>&1 | tee "$OUT/$label.load.log"
  return "${PIPESTATUS[0]}"
}

# run_wrk LABEL PORT AUX [load flags...]: as run_load, with Debian's wrk as the load (bench.jar wrk pre-signs each
# phase). Only GET/POST with a fixed key; the phases must fit the ±30 s signature window.
run_wrk() {
  local label="$1" port="$2" aux="${3:-}"
  shift 2
  if (( $# )); then shift; fi
  local extra=()
  [[ -n "$aux" ]] && extra+=(--aux-cpu-process "$aux")
  # shellcheck disable=SC2086
  "$JAVA" $LOADGEN_JVM_OPTS -jar "$BENCH_JAR" wrk --port "$port" --label "$label" --connections "$CONNECTIONS" \
    --warmup-seconds "$WARMUP" --seconds "$SECONDS_MEASURE" --server-pid "$SERVER_PID" --work-dir "$OUT" \
    --result-file "$OUT/$label.result" "${extra[@]}" "$@" 2>&1 | tee "$OUT/$label.load.log"
  return "${PIPESTATUS[0]}"
}

# syscall_probe LABEL: the server's system calls (perf trace -s) and context switches (perf stat) for 3 s ending 2 s
# before the warm-up does, so the measured window is untouched; $OUT/LABEL.syscalls says how many of each per answer
# written (an answer is one write, writev, sendto or sendmsg: one per response for every server here, plus any log
# line written meanwhile; D111). Every step tolerates a failed perf: the line then says why.
syscall_probe() {
  local label="$1" pid="$SERVER_PID" raw="$OUT/$1.syscalls.raw" cs="$OUT/$1.cswitch.raw" out="$OUT/$1.syscalls" answers cswitch
  if awk -v w="$WARMUP" 'BEGIN{exit !(w < 5)}'; then
    echo "$label: not traced (a warm-up under 5 s leaves no room before the measured window)" > "$out"
    return 0
  fi
  sleep "$(awk -v w="$WARMUP" 'BEGIN{print w - 5}')"
  perf stat -e context-switches -x, -o "$cs" -p "$pid" -- sleep 3 > /dev/null 2> "$cs.err" &
  perf trace -s -p "$pid" -o "$raw" -- sleep 3 > /dev/null 2> "$raw.err" || true
  wait || true
  if [[ ! -s "$raw" ]]; then
    echo "$label: perf trace failed: $(head -c 200 "$raw.err" | tr '\n' ' ')" > "$out"
    return 0
  fi
  awk '/^ *[a-z_0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+/ {c[$1] += $2; e[$1] += $3} END {for (k in c) print c[k], k, e[k]}' \
    "$raw" | sort -nr > "$raw.sum" || true
  answers="$(awk '$2 == "write" || $2 == "writev" || $2 == "sendto" || $2 == "sendmsg" {a += $1} END {print a + 0}' "$raw.sum")"
  cswitch="$( { awk -F, '$3 == "context-switches" {print $1}' "$cs" 2> /dev/null; } || true)"
  if (( answers == 0 )); then
    echo "$label: no answer written while traced (or perf's summary has another layout: $raw)" > "$out"
    return 0
  fi
  awk -v label="$label" -v a="$answers" -v cs="$cswitch" '
    { all += $1; if (NR <= 6) { s = s sprintf("%s%s %.2f", (NR > 1 ? ", " : ""), $2, $1 / a); if ($3 > 0) s = s sprintf(" (%.2f failed)", $3 / a) } }
    END { printf "%-17s per answer: %s; all syscalls %.2f; context switches %s (%d answers traced)\n", label, s, all / a,
          (cs ~ /^[0-9]+$/ ? sprintf("%.2f", cs / a) : "n/a"), a }' "$raw.sum" > "$out"
}

# ensure_wrk: wrk on the PATH, installed from Debian's packages when running as root; 1 when it is not available.
ensure_wrk() {
  command -v wrk > /dev/null && return 0
  if [[ "$(id -u)" == 0 ]] && command -v apt-get > /dev/null; then
    log "installing wrk from Debian's packages"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk > "$OUT/apt-wrk.log" 2>&1 || true
  fi
  command -v wrk > /dev/null
}

# ---------------------------------------------------------------- summary
# machine_header TITLE [NOTE]: the lines every summary starts with (run id, machine, JDK, JVM flags + NOTE).
machine_header() {
  echo "$1  run=$RUN_ID  ($(date -u '+%Y-%m-%d %H:%M:%S UTC'))"
  echo "machine: nproc=$(nproc)  cpu=\"$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)\"  mem=$(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "java: $("$JAVA" -version 2>&1 | head -1)  ($JAVA_HOME)"
  echo "server JVM flags: $SERVER_JVM_OPTS${2:+   ($2)}"
  [[ -z "$TAS_JVM_OPTS" ]] || echo "TAS JVM flags (the service's own defaults, ./tas jvm-options): $TAS_JVM_OPTS"
  echo "load-gen JVM flags: --enable-native-access=ALL-UNNAMED $LOADGEN_JVM_OPTS"
}
