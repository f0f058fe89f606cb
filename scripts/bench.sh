#!/usr/bin/env bash
# Runs the benchmarks: every backend against its floor, in one run, with the servers started by
# lock-testing. Writes lock-bench/target/bench/benchmarks.md and benchmarks.json.
#
#   scripts/bench.sh                          # every backend, 5 s per scenario after 5 s of warm-up (the JIT has compiled the client paths by then)
#   scripts/bench.sh --backends redis --seconds 10
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-servers.sh >/dev/null
./mvnw -B -ntp -q -pl lock-bench -am package -DskipTests
exec java -Xms512m -Xmx2g -cp "lock-bench/target/classes:$(cat lock-bench/target/classpath.txt)" \
  io.locksmith.bench.Bench --out lock-bench/target/bench "$@"
