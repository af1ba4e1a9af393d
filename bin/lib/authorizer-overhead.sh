#!/usr/bin/env bash
# mq-bench authorizer-overhead [--rounds N] [--count C]: what the ACL authorizer costs a create of
# one topic, measured on one fresh `mq-quickstart --secure` cluster with authorizer.enabled set
# true and false in turn (docs/benchmarks.md, "create-one with the authorizer on and off").
#
# Run by bin/mq-bench (not sourced). The procedure, as an operator would do it by hand:
#   1. a fresh mq-quickstart --secure in $AUTHZ_OVERHEAD_DIR/cluster (metrics off);
#   2. a client certificate for User:CN=bench (bin/mq-certs), bench.properties for --command-config;
#   3. 1,003 ACLs (bin/mq-acls, as the admin): User:CN=bench may CREATE and DESCRIBE_CONFIGS on
#      TOPIC PREFIXED b (the bench's topic names) and DESCRIBE the cluster; 40 other principals
#      have 5 operations each on five prefixes, b among them;
#   4. per round, both settings in ABBA order (on off, off on, on off, ...): every node stopped
#      (SIGTERM by pid, brokers first), authorizer.enabled written into each server.properties,
#      the nodes started on the same data, creates through the broker until one succeeds, a
#      probe that the setting is in force, one unmeasured create-one --count 50, one measured
#      create-one --count C;
#   5. one line per run, then the medians over rounds, their ratio and the spread per setting.
# Every node it started is stopped on exit (trap, by pid).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

NAME="mq-bench authorizer-overhead"
MQ_BASE_PORT="${MQ_BASE_PORT:-19090}"
MQ_KAFKA_BASE_PORT="${MQ_KAFKA_BASE_PORT:-$((${MQ_BASE_PORT//[^0-9]/0} + 100))}"
CONTROLLERS=(1 2 3)
BROKERS=(4 5 6)
NODES=("${CONTROLLERS[@]}" "${BROKERS[@]}")
BENCH_NODE=4
STOP_WAIT_S=30
READY_TRIES=30
READY_WAIT_S=240
WARMUP_COUNT=50
OTHER_PRINCIPALS=40
OTHER_OPERATIONS=(Read Write Create Describe DescribeConfigs)
OTHER_PREFIXES=(b orders payments logs metrics)
MARKER=".authz-overhead"

usage() {
  cat <<USAGE
Usage: mq-bench authorizer-overhead [--rounds N] [--count C]
  What the ACL authorizer costs a create of one topic: a fresh mq-quickstart --secure cluster
  (3 controllers, 3 brokers, TLS everywhere, metrics off), a client certificate for
  User:CN=bench granted CREATE and DESCRIBE_CONFIGS on TOPIC PREFIXED b and DESCRIBE on the
  cluster among 1,003 ACLs (40 other principals x 5 operations x 5 prefixes); then N rounds,
  each with authorizer.enabled=true and =false in every node's server.properties, in ABBA
  order (on off, off on, ...): the nodes stopped and started on the same data, creates until
  one succeeds, a check that the setting is in force, an unmeasured create-one --count
  $WARMUP_COUNT and a measured create-one --count C, both through broker $BENCH_NODE as User:CN=bench.
  --rounds N  rounds (default 4; each runs both settings)
  --count C   measured creates per run (default 200)
  Prints one '#' line per run and, in 'name value unit' lines, the median p50 and p99 over the
  rounds per setting (authorizer_on_create_one_p50_ms, authorizer_off_create_one_p50_ms, ...),
  authorizer_on_over_off_p50 and _p99 (ratios of the medians) and each setting's min and max.
  Environment: AUTHZ_OVERHEAD_DIR (default ./authz-overhead-data): the cluster, certificates,
  bench.properties and each run's whole output (runs/); emptied first if an earlier run of this
  command made it, refused if it holds anything else or a node of it is running. MQ_BASE_PORT,
  MQ_KAFKA_BASE_PORT: the quickstart's ports (refused if any is in use). Only 127.0.0.1.
USAGE
}

die() {
  echo "$NAME: $*" >&2
  exit 1
}

ROUNDS=4
COUNT=200
while (($#)); do
  case "$1" in
    --rounds | --count)
      (($# >= 2)) || die "$1 needs a value"
      if [[ "$1" == --rounds ]]; then ROUNDS="$2"; else COUNT="$2"; fi
      shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive number, got '$ROUNDS'"
[[ "$COUNT" =~ ^[1-9][0-9]*$ ]] || die "--count must be a positive number, got '$COUNT'"
[[ "$MQ_BASE_PORT" =~ ^[0-9]+$ ]] || die "MQ_BASE_PORT must be a number, got '$MQ_BASE_PORT'"
[[ "$MQ_KAFKA_BASE_PORT" =~ ^[0-9]+$ ]] || die "MQ_KAFKA_BASE_PORT must be a number, got '$MQ_KAFKA_BASE_PORT'"

node_port() { echo $((MQ_BASE_PORT + $1)); }
kafka_port() { echo $((MQ_KAFKA_BASE_PORT + $1)); }
is_broker() { [[ "$1" -ge "${BROKERS[0]}" ]]; }
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# --- the data dir: ours alone, for the whole run ---------------------------------------------
ROOT_ASKED="${AUTHZ_OVERHEAD_DIR:-./authz-overhead-data}"
mkdir -p "$ROOT_ASKED" || die "cannot create $ROOT_ASKED"
ROOT="$(cd "$ROOT_ASKED" && pwd)" || die "cannot enter $ROOT_ASKED"
DATA="$ROOT/cluster"
RUNS="$ROOT/runs"
BENCH_CONFIG="$ROOT/bench.properties"
ADMIN_CONFIG="$DATA/client.properties"
BOOTSTRAP="127.0.0.1:$(node_port "$BENCH_NODE")"
node_dir() { echo "$DATA/node-$1"; }
node_config() { echo "$(node_dir "$1")/server.properties"; }

# The pids of the processes running node N of this data dir: every mq-server (the script, then
# the JVM it execs into) whose arguments name this node's server.properties, which covers a node
# started but not yet written its server.pid. The dir was refused if a node of it ran before,
# so each of these is one this command started (itself or through mq-quickstart).
node_pids() {
  local config proc arg args named server
  config="$(node_config "$1")"
  for proc in /proc/[0-9]*; do
    args=()
    { mapfile -d '' -t args < "$proc/cmdline"; } 2>/dev/null || continue
    named=0
    server=0
    for arg in "${args[@]}"; do
      [[ "$arg" == "$config" ]] && named=1
      [[ "$arg" == io.metaquorum.cli.ServerMain || "$arg" == */mq-server ]] && server=1
    done
    ((named && server)) && echo "${proc#/proc/}"
  done
}

if [[ -n "$(find "$ROOT" -mindepth 1 -maxdepth 1 ! -name "$MARKER" ! -name "$MARKER.lock" -print -quit)" ]]; then
  [[ -f "$ROOT/$MARKER" ]] || die "$ROOT holds files this command did not make; set AUTHZ_OVERHEAD_DIR to a new or empty directory"
fi
exec 8>>"$ROOT/$MARKER.lock" || die "cannot open $ROOT/$MARKER.lock"
if command -v flock >/dev/null; then
  flock -n 8 || die "$ROOT is in use by another run of this command"
fi
for n in "${NODES[@]}"; do
  pids="$(node_pids "$n")"
  [[ -z "$pids" ]] || die "node $n of $DATA is running (pid ${pids//$'\n'/ }); stop it" \
      "(MQ_DATA_DIR=$DATA bin/mq-quickstart stop) or set AUTHZ_OVERHEAD_DIR"
done
for n in "${NODES[@]}"; do
  port_in_use "$(node_port "$n")" \
    && die "port $(node_port "$n") (node $n) is in use: a quickstart already running? stop it or set MQ_BASE_PORT"
  port_in_use "$(kafka_port "$n")" \
    && die "port $(kafka_port "$n") (node $n, Kafka listener) is in use: stop what holds it or set MQ_KAFKA_BASE_PORT"
done
# An earlier run's data: emptied (the marker says this command made it).
find "$ROOT" -mindepth 1 -maxdepth 1 ! -name "$MARKER" ! -name "$MARKER.lock" -exec rm -rf {} +
echo "made by $NAME; emptied by its next run" > "$ROOT/$MARKER"
mkdir -p "$RUNS" || die "cannot create $RUNS"

# --- stopping, always ------------------------------------------------------------------------
# stop_nodes IDS...: SIGTERM to each process of those nodes, then waits; SIGKILL after STOP_WAIT_S.
stop_nodes() {
  local n pid entry pids=()
  for n in "$@"; do
    for pid in $(node_pids "$n"); do
      kill -TERM "$pid" 2>/dev/null && pids+=("$n:$pid")
    done
  done
  ((${#pids[@]} == 0)) && return 0
  local deadline=$((SECONDS + STOP_WAIT_S)) alive
  while ((SECONDS < deadline)); do
    alive=0
    for entry in "${pids[@]}"; do
      kill -0 "${entry#*:}" 2>/dev/null && alive=1
    done
    ((alive == 0)) && break
    sleep 0.2
  done
  for entry in "${pids[@]}"; do
    n="${entry%%:*}"
    pid="${entry#*:}"
    if kill -0 "$pid" 2>/dev/null; then
      echo "$NAME: node $n (pid $pid) did not stop within ${STOP_WAIT_S} s: killing it" >&2
      kill -KILL "$pid" 2>/dev/null
    fi
  done
}

# Brokers first, while the controllers can still move their leaderships (as mq-quickstart stop).
stop_cluster() {
  stop_nodes "${BROKERS[@]}"
  stop_nodes "${CONTROLLERS[@]}"
}

# CHILD: the pid of the tool run_child waits for now; it leads its own process group.
CHILD=""

# run_child COMMAND...: in the background, in a process group of its own (setsid), waited for:
# bash runs a trap only once the foreground command has returned, but interrupts a wait.
run_child() {
  local status
  if command -v setsid >/dev/null; then
    setsid "$@" 6>&- 7>&- 8>&- &
  else
    "$@" 6>&- 7>&- 8>&- &
  fi
  CHILD=$!
  wait "$CHILD"
  status=$?
  CHILD=""
  return "$status"
}

# The tool run_child waits for, and what it started in its group (mq-quickstart's own tools;
# the nodes it starts run in sessions of their own, stopped by stop_cluster): SIGTERM, then
# SIGKILL after 10 s.
stop_child() {
  [[ -n "$CHILD" ]] || return 0
  kill -TERM -- "-$CHILD" 2>/dev/null || kill -TERM "$CHILD" 2>/dev/null
  local deadline=$((SECONDS + 10))
  while kill -0 "$CHILD" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
  done
  kill -KILL -- "-$CHILD" 2>/dev/null || kill -KILL "$CHILD" 2>/dev/null
  wait "$CHILD" 2>/dev/null
  CHILD=""
}

on_exit() {
  local status=$?
  trap - EXIT INT TERM
  # A trap runs inside whatever function it interrupted, with that call's redirections (a
  # tool's log): back to the command's own output first.
  exec 1>&6 2>&7
  stop_child
  stop_cluster
  echo "# data dir: $ROOT (cluster in cluster/, each run's output in runs/)"
  exit "$status"
}
exec 6>&1 7>&2
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the cluster, the bench's certificate and its ACLs ---------------------------------------
echo "# $NAME: $ROUNDS rounds x (on, off) in ABBA order, create-one --count $COUNT after --count $WARMUP_COUNT unmeasured, through $BOOTSTRAP as User:CN=bench"
echo "# starting a fresh mq-quickstart --secure in $DATA (log $ROOT/quickstart.log)..."
MQ_DATA_DIR="$DATA" MQ_BASE_PORT="$MQ_BASE_PORT" MQ_KAFKA_BASE_PORT="$MQ_KAFKA_BASE_PORT" MQ_METRICS_BASE_PORT=off \
  run_child "$MQ_BIN/mq-quickstart" start --secure >"$ROOT/quickstart.log" 2>&1 \
  || { tail -n 20 "$ROOT/quickstart.log" >&2; die "the quickstart did not start; see $ROOT/quickstart.log"; }
[[ -f "$ADMIN_CONFIG" && -s "$DATA/certs/store.password" ]] || die "the quickstart wrote no $ADMIN_CONFIG"

password="$(cat "$DATA/certs/store.password")"
run_child "$MQ_BIN/mq-certs" client --ca-dir "$DATA/certs" --name bench --out-dir "$DATA/certs/bench" \
    --store-password "$password" --force >"$ROOT/certs.log" 2>&1 \
  || die "making the bench's certificate failed; see $ROOT/certs.log"
[[ -f "$DATA/certs/bench/bench.p12" && -f "$DATA/certs/bench/truststore.p12" ]] \
  || die "mq-certs client made no $DATA/certs/bench/bench.p12 and truststore.p12; see $ROOT/certs.log"
(umask 077; {
  echo "# Written by $NAME: User:CN=bench's certificate, for --command-config."
  echo "security.protocol=SSL"
  echo "ssl.keystore.location=$DATA/certs/bench/bench.p12"
  echo "ssl.keystore.type=PKCS12"
  echo "ssl.keystore.password=$password"
  echo "ssl.truststore.location=$DATA/certs/bench/truststore.p12"
  echo "ssl.truststore.type=PKCS12"
  echo "ssl.truststore.password=$password"
} > "$BENCH_CONFIG")

acls() { run_child "$MQ_BIN/mq-acls" --bootstrap-server "$BOOTSTRAP" --command-config "$ADMIN_CONFIG" "$@"; }
others=()
for ((i = 1; i <= OTHER_PRINCIPALS; i++)); do
  others+=(--allow-principal "User:CN=$(printf 'app-%02d' "$i")")
done
operations=()
for op in "${OTHER_OPERATIONS[@]}"; do operations+=(--operation "$op"); done
prefixes=()
for prefix in "${OTHER_PREFIXES[@]}"; do prefixes+=(--topic "$prefix"); done
echo "# granting User:CN=bench and $OTHER_PRINCIPALS other principals (bin/mq-acls, log $ROOT/acls.log)..."
{
  acls --add --allow-principal User:CN=bench --operation Create --operation DescribeConfigs \
      --topic b --resource-pattern-type prefixed \
    && acls --add --allow-principal User:CN=bench --operation Describe --cluster \
    && acls --add "${others[@]}" "${operations[@]}" "${prefixes[@]}" --resource-pattern-type prefixed
} >"$ROOT/acls.log" 2>&1 || die "adding the ACLs failed; see $ROOT/acls.log"
acls --list --json >"$ROOT/acls.json" 2>>"$ROOT/acls.log" || die "listing the ACLs failed; see $ROOT/acls.log"
acl_count="$(grep -o '"principal"' "$ROOT/acls.json" | wc -l)"
expected=$((3 + OTHER_PRINCIPALS * ${#OTHER_OPERATIONS[@]} * ${#OTHER_PREFIXES[@]}))
((acl_count == expected)) || die "the cluster lists $acl_count ACLs, not $expected; see $ROOT/acls.log"
echo "# $acl_count ACLs"

# --- one run ---------------------------------------------------------------------------------
# set_authorizer true|false: into every node's server.properties, replacing the line the
# quickstart wrote.
set_authorizer() {
  local n config
  for n in "${NODES[@]}"; do
    config="$(node_config "$n")"
    if grep -q '^authorizer\.enabled=' "$config"; then
      sed -i "s/^authorizer\.enabled=.*/authorizer.enabled=$1/" "$config" || return 1
    else
      echo "authorizer.enabled=$1" >> "$config" || return 1
    fi
    grep -qx "authorizer.enabled=$1" "$config" || return 1
  done
}

# STARTED holds "N:PID" of the nodes the last start_cluster started.
STARTED=()

# Every node on its server.properties, as mq-quickstart starts them (setsid, nohup, the log
# appended); the exec chain keeps the pid.
start_cluster() {
  local n dir
  STARTED=()
  for n in "${NODES[@]}"; do
    dir="$(node_dir "$n")"
    if command -v setsid >/dev/null; then
      nohup setsid "$MQ_BIN/mq-server" "$dir/server.properties" >>"$dir/server.log" 2>&1 </dev/null 6>&- 7>&- 8>&- &
    else
      nohup "$MQ_BIN/mq-server" "$dir/server.properties" >>"$dir/server.log" 2>&1 </dev/null 6>&- 7>&- 8>&- &
    fi
    STARTED+=("$n:$!")
  done
}

started_nodes_alive() {
  local entry n
  for entry in "${STARTED[@]}"; do
    n="${entry%%:*}"
    if ! kill -0 "${entry#*:}" 2>/dev/null; then
      echo "$NAME: node $n exited; the end of $(node_dir "$n")/server.log:" >&2
      tail -n 20 "$(node_dir "$n")/server.log" >&2
      return 1
    fi
  done
}

# create_as_bench TOPIC: one create (1 partition, RF 3) through the broker as User:CN=bench.
create_as_bench() {
  run_child "$MQ_BIN/mq-topics" --bootstrap-server "$BOOTSTRAP" --command-config "$BENCH_CONFIG" \
      --create --topic "$1" --partitions 1 --replication-factor 3
}

# wait_ready RUN: creates through the broker until one succeeds (brokers register with the
# new controller after a start), at most READY_TRIES tries within READY_WAIT_S; every answer
# goes to runs/TAG-ready.txt, the tries taken to READY_TRIES_TAKEN. (Files, not $(...): a
# command substitution runs in a subshell, whose wait a signal does not interrupt.)
READY_TRIES_TAKEN=0
wait_ready() {
  local run="$1" try deadline=$((SECONDS + READY_WAIT_S)) answers="$RUNS/$tag-ready.txt"
  : > "$answers"
  for ((try = 1; try <= READY_TRIES; try++)); do
    started_nodes_alive || return 1
    echo "# try $try" >> "$answers"
    if create_as_bench "b-authz-ready-$run-$try" >>"$answers" 2>&1; then
      READY_TRIES_TAKEN=$try
      return 0
    fi
    ((SECONDS >= deadline)) && break
    sleep 1
  done
  echo "$NAME: no create through $BOOTSTRAP succeeded in $((try > READY_TRIES ? READY_TRIES : try)) tries" \
      "(within $READY_WAIT_S s) in run $run; the last answer: $(sed '/^# try/d' "$answers" | tail -n 3)" >&2
  echo "$NAME: every answer: $answers; the nodes' logs: $DATA/node-*/server.log" >&2
  return 1
}

# check_setting RUN true|false: a create outside the bench's grant (a name not starting with b)
# is refused with the authorizer on and done with it off, so the figures are of that setting;
# the answer goes to runs/TAG-probe.txt.
check_setting() {
  local answer="$RUNS/$tag-probe.txt"
  if create_as_bench "authz-probe-$1" >"$answer" 2>&1; then
    [[ "$2" == false ]] && return 0
    echo "$NAME: run $1: authorizer.enabled=true, yet User:CN=bench created authz-probe-$1 (not granted)" >&2
    return 1
  fi
  if [[ "$2" == true ]] && grep -qi 'authoriz' "$answer"; then
    return 0
  fi
  echo "$NAME: run $1: authorizer.enabled=$2, and the create of authz-probe-$1 answered: $(cat "$answer")" >&2
  return 1
}

# figure NAME FILE: the value of a 'name value unit' line.
figure() { awk -v name="$1" '$1 == name { print $2; exit }' "$2"; }

RESULTS="$RUNS/results.txt"
: > "$RESULTS"
run=0
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2 == 1)); then order=(true false); else order=(false true); fi
  for enabled in "${order[@]}"; do
    run=$((run + 1))
    setting="$([[ "$enabled" == true ]] && echo on || echo off)"
    tag="$(printf '%02d-round%d-%s' "$run" "$round" "$setting")"
    stop_cluster
    set_authorizer "$enabled" || die "cannot write authorizer.enabled=$enabled into $DATA/node-*/server.properties"
    start_cluster
    wait_ready "$run" || die "run $run (round $round, authorizer $setting): the cluster did not take creates"
    check_setting "$run" "$enabled" || die "run $run: the nodes do not run with authorizer.enabled=$enabled"
    load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
    run_child "$MQ_BIN/mq-bench" create-one --bootstrap-server "$BOOTSTRAP" --count "$WARMUP_COUNT" \
        --command-config "$BENCH_CONFIG" >"$RUNS/$tag-warmup.txt" 2>&1 \
      || die "run $run: the warm-up create-one failed; see $RUNS/$tag-warmup.txt"
    run_child "$MQ_BIN/mq-bench" create-one --bootstrap-server "$BOOTSTRAP" --count "$COUNT" \
        --command-config "$BENCH_CONFIG" >"$RUNS/$tag.txt" 2>&1 \
      || die "run $run: create-one failed; see $RUNS/$tag.txt"
    p50="$(figure create_one_p50_ms "$RUNS/$tag.txt")"
    p99="$(figure create_one_p99_ms "$RUNS/$tag.txt")"
    max="$(figure create_one_max_ms "$RUNS/$tag.txt")"
    [[ -n "$p50" && -n "$p99" ]] || die "run $run: no create_one_p50_ms and create_one_p99_ms in $RUNS/$tag.txt"
    echo "$setting $p50 $p99" >> "$RESULTS"
    echo "# run $run: round $round, authorizer $setting: create_one_p50_ms $p50, create_one_p99_ms $p99," \
        "create_one_max_ms ${max:-?} (load $load before the warm-up; ready after $READY_TRIES_TAKEN create(s))"
  done
done

# --- the figures -----------------------------------------------------------------------------
awk '
  function median(list, n,    sorted, i, j, t) {
    for (i = 1; i <= n; i++) sorted[i] = list[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
      t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
    }
    low = sorted[1]; high = sorted[n]
    return (n % 2) ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
  }
  { n[$1]++; p50[$1, n[$1]] = $2 + 0; p99[$1, n[$1]] = $3 + 0 }
  END {
    split("p50 p99", kinds, " ")
    for (k = 1; k <= 2; k++) {
      kind = kinds[k]
      for (s = 1; s <= 2; s++) {
        setting = s == 1 ? "on" : "off"
        delete list
        for (i = 1; i <= n[setting]; i++) list[i] = kind == "p50" ? p50[setting, i] : p99[setting, i]
        m[setting] = median(list, n[setting])
        printf "authorizer_%s_create_one_%s_ms %.2f ms\n", setting, kind, m[setting]
        lo[setting] = low; hi[setting] = high
      }
      printf "authorizer_on_over_off_%s %.3f x\n", kind, (m["off"] > 0 ? m["on"] / m["off"] : 0)
      for (s = 1; s <= 2; s++) {
        setting = s == 1 ? "on" : "off"
        printf "authorizer_%s_create_one_%s_min_ms %.2f ms\n", setting, kind, lo[setting]
        printf "authorizer_%s_create_one_%s_max_ms %.2f ms\n", setting, kind, hi[setting]
      }
    }
  }' "$RESULTS"
