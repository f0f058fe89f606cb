#!/usr/bin/env bash
# Runs the fault suite: every backend × every nemesis that applies to it, with the servers started
# by lock-testing and the workers as separate JVMs (threads for memory); prints a table backend ×
# nemesis and exits non-zero if any run broke a promise. Histories stay under lock-faults/target/faults.
# docs/reliability.md says what each nemesis does.
#
#   scripts/faults.sh                                   # the full matrix: 56 runs of 20 s, about 23 minutes on 2 cores
#   scripts/faults.sh --backends redis,etcd --nemeses kill,server-restart --seconds 30
#   scripts/faults.sh --primitive semaphore:2     # workers take one of 2 permits (or: leader, a leader election)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-servers.sh >/dev/null
./mvnw -B -ntp -q -pl lock-faults -am package -DskipTests
mkdir -p lock-faults/target/faults
# the controller's own log (and the memory workers', which are its threads) goes to a file, so that
# the table stays readable; the worker processes' output is in each run's wN.out
exec java -Xmx256m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.logFile=lock-faults/target/faults/suite.log -cp "lock-faults/target/classes:$(cat lock-faults/target/classpath.txt)" \
  io.locksmith.faults.FaultSuite --dir lock-faults/target/faults "$@"
