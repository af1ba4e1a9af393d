#!/usr/bin/env bash
# Shared by the bin/ scripts (sourced, not run): locates the repository from the script's own
# path, builds the jars once if they are missing, and runs a main class with the shared JVM
# settings. Environment:
#   JAVA_HOME      which java to use (else java on PATH)
#   MQ_HEAP_OPTS   heap for mq-server (default -Xms128m -Xmx512m)
#   MQ_JAVA_OPTS   extra JVM options for every command
#   MQ_REBUILD=1   rebuild even though the jars exist (after changing the sources)
#   MQ_SERVER_CDS=0 no class data sharing archive for mq-server (see mq_server_cds_opts)
#   MQ_CDS_DIR     where mq-server keeps its archives (default target/cds of this checkout)
#   MQ_CLASSPATH   run with exactly this classpath and build nothing (the multi-process tests pass
#                  their own test classpath, so bin/mq-server runs on a clean clone without jars)
#   MQ_SIM_CLASSPATH the same for mq-simulate and mq-bench (the simulation module's tests pass theirs)

MQ_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MQ_BIN="$MQ_HOME/bin"
MQ_CLASSPATH_FILE="$MQ_HOME/broker/target/runtime-classpath.txt"
MQ_BROKER_JAR="$MQ_HOME/broker/target/broker-0.1.0-SNAPSHOT.jar"
MQ_SERVER_HEAP_DEFAULT="-Xms128m -Xmx512m"

mq_die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

mq_java() {
  if [[ -n "${JAVA_HOME:-}" ]]; then
    echo "$JAVA_HOME/bin/java"
  else
    command -v java || mq_die "no java on PATH; install a JDK 17+ or set JAVA_HOME"
  fi
}

# True when every jar the classpath file names exists and the file is newer than every pom
# (a dependency added since the build would otherwise be missing from it at run time).
mq_is_built() {
  [[ -f "$MQ_CLASSPATH_FILE" && -f "$MQ_BROKER_JAR" ]] || return 1
  local entry pom
  for pom in "$MQ_HOME"/pom.xml "$MQ_HOME"/*/pom.xml; do
    [[ "$MQ_CLASSPATH_FILE" -nt "$pom" ]] || return 1
  done
  IFS=':' read -r -a entries < "$MQ_CLASSPATH_FILE"
  for entry in "${entries[@]}"; do
    [[ -e "$entry" ]] || return 1
  done
  return 0
}

# Builds the reactor up to the broker module (tests skipped) and writes the runtime classpath.
# Serialized with a lock so that scripts started together build once.
mq_build_if_missing() {
  if [[ -n "${MQ_CLASSPATH:-}" ]]; then
    return 0
  fi
  if [[ "${MQ_REBUILD:-0}" != "1" ]] && mq_is_built; then
    return 0
  fi
  command -v mvn >/dev/null || mq_die "Maven (mvn) is needed to build metaquorum; install it, then run this again"
  mkdir -p "$MQ_HOME/target"
  (
    if command -v flock >/dev/null; then
      flock 9
    fi
    if [[ "${MQ_REBUILD:-0}" != "1" ]] && mq_is_built; then
      exit 0
    fi
    echo "$(basename "$0"): building metaquorum (mvn package, tests skipped); this happens once" >&2
    cd "$MQ_HOME" && mvn -B -q -Dstyle.color=never -DskipTests -pl broker -am package dependency:build-classpath \
        -Dmdep.outputFile=target/runtime-classpath.txt -Dmdep.includeScope=runtime >target/mq-build.log 2>&1 \
      || { grep -E 'ERROR|BUILD' target/mq-build.log | head -40 >&2
           echo "$(basename "$0"): the build failed; the whole output is in $MQ_HOME/target/mq-build.log" >&2
           exit 1; }
    # Maven leaves an unchanged classpath file as it was, older than the pom that asked for
    # the build; mq_is_built would then ask for the build forever.
    touch "$MQ_CLASSPATH_FILE"
  ) 9>"$MQ_HOME/target/.mq-build.lock" || exit 1
  mq_is_built || mq_die "the build did not produce $MQ_BROKER_JAR and $MQ_CLASSPATH_FILE"
  # Built now: the commands this script runs next must not rebuild again.
  export MQ_REBUILD=0
}

mq_classpath() {
  if [[ -n "${MQ_CLASSPATH:-}" ]]; then
    echo "$MQ_CLASSPATH"
  else
    echo "$MQ_BROKER_JAR:$(cat "$MQ_CLASSPATH_FILE")"
  fi
}

# The JDK's jar tool, or unzip, to take one file out of a jar; empty if neither exists.
mq_unjar_command() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/jar" ]]; then
    echo "$JAVA_HOME/bin/jar xf"
  elif command -v jar >/dev/null; then
    echo "jar xf"
  elif command -v unzip >/dev/null; then
    echo "unzip -q -o"
  fi
}

# Prints -Djava.library.path=DIR once RocksDB's JNI library for this machine is extracted
# into DIR (under target/native, once per rocksdbjni version). RocksDB then loads it from
# there; otherwise it copies its 15 MB library into java.io.tmpdir for every JVM, and a
# node stopped by kill -9 leaves that copy behind. Prints nothing (and RocksDB falls back
# to its own copy) on a platform without a glibc build in the jar or without jar/unzip.
mq_native_library_opts() {
  local lib jar dir tmp unjar
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) lib=librocksdbjni-linux64.so ;;
    Linux-aarch64) lib=librocksdbjni-linux-aarch64.so ;;
    *) return 0 ;;
  esac
  compgen -G "/lib/ld-musl-*" >/dev/null && return 0
  jar="$(mq_classpath | tr ':' '\n' | grep -m1 '/rocksdbjni-[^/]*\.jar$')" || return 0
  dir="$MQ_HOME/target/native/$(basename "$jar" .jar)"
  if [[ ! -f "$dir/$lib" ]]; then
    unjar="$(mq_unjar_command)"
    [[ -n "$unjar" ]] || return 0
    mkdir -p "$dir" && tmp="$(mktemp -d "$dir/.extract.XXXXXX")" || return 0
    # Extracted aside, then renamed: nodes started together never load a half-written file.
    # shellcheck disable=SC2086
    if (cd "$tmp" && $unjar "$jar" "$lib") >/dev/null 2>&1 && [[ -s "$tmp/$lib" ]]; then
      mv -f "$tmp/$lib" "$dir/$lib"
    fi
    rm -rf "$tmp"
  fi
  [[ -f "$dir/$lib" ]] && echo "-Djava.library.path=$dir"
  return 0
}

# mq_exec_tool MAIN ARGS...: a short-lived command-line tool (small heap, fast start).
mq_exec_tool() {
  local main="$1"
  shift
  mq_build_if_missing
  local native
  native="$(mq_native_library_opts)"
  # shellcheck disable=SC2086
  exec "$(mq_java)" -Xss1m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    ${native:+"$native"} ${MQ_JAVA_OPTS:-} -cp "$(mq_classpath)" "$main" "$@"
}

# True when FILE is newer than the java binary and every entry of the classpath: a class data
# sharing archive older than any of them may describe classes that changed.
mq_newer_than_build() {
  local entry entries
  IFS=':' read -r -a entries <<< "$(mq_classpath):$(mq_java)"
  for entry in "${entries[@]}"; do
    [[ "$1" -nt "$entry" ]] || return 1
  done
  return 0
}

# True when every entry of the classpath is a file (a jar), none a directory.
mq_classpath_is_jars_only() {
  local entry entries
  IFS=':' read -r -a entries <<< "$(mq_classpath)"
  for entry in "${entries[@]}"; do
    [[ -f "$entry" ]] || return 1
  done
  return 0
}

# The running JDK's version (JAVA_VERSION of its release file, e.g. 17.0.15), "unknown" if it has none.
mq_java_version() {
  local home version
  home="$(dirname "$(dirname "$(readlink -f "$(mq_java)")")")"
  version="$(sed -n 's/^JAVA_VERSION="\([0-9][0-9._+-]*\)"$/\1/p' "$home/release" 2>/dev/null | head -1)"
  echo "${version:-unknown}"
}

# The node's JVM options that decide whether a class-data archive fits it: its heap (which
# picks the pointer encoding) and, of MQ_JAVA_OPTS, the pointer and verification settings (an
# archive written without bytecode verification is refused by a JVM that verifies). Nothing
# else of MQ_JAVA_OPTS: an agent or a flight recording has no business in the check's JVM.
mq_archive_fit_opts() {
  local option options=()
  # shellcheck disable=SC2086
  set -f
  for option in ${MQ_HEAP_OPTS:-$MQ_SERVER_HEAP_DEFAULT} ${MQ_JAVA_OPTS:-}; do
    case "$option" in
      -Xm[sx]* | -XX:[+-]UnlockDiagnosticVMOptions | -XX:[+-]BytecodeVerification* | -XX:[+-]UseCompressed* \
        | -XX:ObjectAlignmentInBytes=*) options+=("$option") ;;
    esac
  done
  set +f
  echo "${options[*]}"
}

# mq_server_cds_opts CONFIG: the JVM options for the node's class data sharing archive, one per
# role (process.roles in CONFIG) and JDK under MQ_CDS_DIR (default target/cds). With an archive newer than the build,
# the node maps its classes in at start instead of loading and verifying them from the jars (a
# fresh quickstart: ready 7 s sooner on 43% less CPU, docs/benchmarks.md). On JDK 25 and later
# the archive is the JDK's AOT cache (-XX:AOTCache), which also holds the method profiles of
# the run that wrote it. Without one, the node writes a candidate at its exit (SIGTERM; about a
# second more, once; on JDK 25 several, for the cache's assembly), named by its pid, which is
# the script's since mq_exec_server execs. The next start takes the newest candidate of a node
# no longer running, checks that the JVM maps it and that its checksums hold (a node killed
# while writing leaves a partial file, and a JVM that maps one crashes), and moves it in place;
# the others are deleted. Prints nothing for MQ_SERVER_CDS=0, for a classpath with a directory
# on it (the JVM archives classes from jars only, and refuses to write an archive at all then:
# the tests' own classpath has target/classes), or without CONFIG.
mq_server_cds_opts() {
  local config="$1" role version archive dir candidate newest="" pid flag write check logs
  [[ "${MQ_SERVER_CDS:-1}" == "1" && -f "$config" ]] && mq_classpath_is_jars_only || return 0
  role="$(sed -n 's/^[[:space:]]*process\.roles[[:space:]]*=//p' "$config" | tail -1 | tr -d ' \r' | tr ',' '-')"
  [[ "$role" =~ ^[a-z-]+$ ]] || role=node
  version="$(mq_java_version)"
  dir="${MQ_CDS_DIR:-$MQ_HOME/target/cds}"
  if [[ "${version%%[._+-]*}" =~ ^[0-9]+$ ]] && ((${version%%[._+-]*} >= 25)); then
    archive="$dir/mq-server-$role-$version.aot"
    flag="-XX:AOTCache"
    write="-XX:AOTCacheOutput=$archive.$$.new"
    check="-XX:AOTMode=on"
    logs="-Xlog:cds*=error -Xlog:aot*=error"
  else
    archive="$dir/mq-server-$role-$version.jsa"
    flag="-XX:SharedArchiveFile"
    write="-XX:ArchiveClassesAtExit=$archive.$$.new"
    check="-Xshare:on"
    logs="-Xlog:cds*=error"
  fi
  mkdir -p "$dir" || return 0
  (
    if command -v flock >/dev/null; then
      flock 9
    fi
    for candidate in "$archive".*.new "$archive".*.new.config; do
      [[ -f "$candidate" ]] || continue
      pid="${candidate#"$archive".}"
      pid="${pid%%.*}"
      if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        continue
      fi
      # What a JDK 25 JVM stopped while assembling its cache leaves besides the cache.
      if [[ "$candidate" == *.config ]]; then
        rm -f "$candidate"
        continue
      fi
      if [[ -z "$newest" || "$candidate" -nt "$newest" ]]; then
        [[ -n "$newest" ]] && rm -f "$newest"
        newest="$candidate"
      else
        rm -f "$candidate"
      fi
    done
    if [[ -n "$newest" ]]; then
      # A partial archive crashes the JVM that maps it (SIGBUS): checked in a JVM of its own,
      # its regions' checksums too, with no error file or shell message left behind, and with
      # the node's options that decide whether an archive fits (mq_archive_fit_opts).
      # shellcheck disable=SC2086,SC2046
      if ! mq_newer_than_build "$archive" && mq_newer_than_build "$newest" \
          && { ("$(mq_java)" $(mq_archive_fit_opts) "$flag=$newest" $check -XX:+VerifySharedSpaces \
                -XX:ErrorFile=/dev/null -cp "$(mq_classpath)" -version) >/dev/null 2>&1; } 2>/dev/null; then
        mv -f "$newest" "$archive"
      else
        rm -f "$newest"
      fi
    fi
  ) 9>"$dir/.mq-server-cds.lock"
  if mq_newer_than_build "$archive"; then
    echo "$flag=$archive $logs"
  else
    echo "$write $logs"
  fi
}

# mq_exec_server MAIN ARGS...: a long-running node (ARGS: its config file, see mq_server_cds_opts).
mq_exec_server() {
  local main="$1"
  shift
  mq_build_if_missing
  local native cds
  native="$(mq_native_library_opts)"
  cds="$(mq_server_cds_opts "${1:-}")"
  # A 5 ms G1 pause goal: GC pauses were the largest part of the commit latency tail. The
  # heap is touched at start, so no GC or allocation later waits for the kernel to fault a
  # page in.
  # shellcheck disable=SC2086
  exec "$(mq_java)" ${MQ_HEAP_OPTS:-$MQ_SERVER_HEAP_DEFAULT} -XX:+UseG1GC -XX:MaxGCPauseMillis=5 -XX:+AlwaysPreTouch -XX:+ExitOnOutOfMemoryError \
    ${native:+"$native"} $cds ${MQ_JAVA_OPTS:-} -cp "$(mq_classpath)" "$main" "$@"
}

# The simulation module, where mq-simulate and mq-bench run from (docs/architecture.md §2 puts the
# simulator and the benchmarks there): its classpath is cached in
# simulation-tests/target/sim-classpath.txt on first use; MQ_REBUILD=1, or a main source or a
# mutation (src/mutations) newer than that cache, builds it again.
MQ_SIM_MODULE="$MQ_HOME/simulation-tests"
MQ_SIM_CLASSPATH_FILE="$MQ_SIM_MODULE/target/sim-classpath.txt"
MQ_SIM_CLASSES="$MQ_SIM_MODULE/target/classes"

mq_sim_is_built() {
  [[ -f "$MQ_SIM_CLASSPATH_FILE" && -f "$MQ_SIM_CLASSES/io/metaquorum/sim/cli/SimulateCommand.class" \
      && -f "$MQ_SIM_CLASSES/io/metaquorum/bench/BenchTool.class" ]] || return 1
  [[ -z "$(find "$MQ_HOME/protocol/src/main" "$MQ_HOME/raft/src/main" "$MQ_HOME/metadata-log/src/main" \
      "$MQ_HOME/broker/src/main" "$MQ_SIM_MODULE/src/main" "$MQ_SIM_MODULE/src/mutations" "$MQ_HOME"/pom.xml "$MQ_HOME"/*/pom.xml \
      -newer "$MQ_SIM_CLASSPATH_FILE" -print -quit 2>/dev/null)" ]]
}

mq_sim_build_if_missing() {
  if [[ -n "${MQ_SIM_CLASSPATH:-}" ]]; then
    return 0
  fi
  if [[ "${MQ_REBUILD:-0}" != "1" ]] && mq_sim_is_built; then
    return 0
  fi
  command -v mvn >/dev/null || mq_die "Maven (mvn) is needed to build the simulation module; install it, then run this again"
  echo "$(basename "$0"): building the simulation module (mvn package -DskipTests -pl simulation-tests -am)" >&2
  (cd "$MQ_HOME" && mvn -B -q -Dstyle.color=never ${MQ_MAVEN_FLAGS:-} -DskipTests -pl simulation-tests -am package \
      dependency:build-classpath -Dmdep.outputFile=target/sim-classpath.txt -Dmdep.includeScope=runtime >&2) \
    || mq_die "the build failed (see the Maven output above)"
  touch "$MQ_SIM_CLASSPATH_FILE"
}

mq_sim_classpath() {
  if [[ -n "${MQ_SIM_CLASSPATH:-}" ]]; then
    echo "$MQ_SIM_CLASSPATH"
  else
    echo "$MQ_SIM_CLASSES:$(cat "$MQ_SIM_CLASSPATH_FILE")"
  fi
}
