#!/usr/bin/env bash
# The one test command: installs what the tests need when it is missing, runs the whole Maven
# build with every test, then the consumer tests (scripts/consumer-tests.sh: projects outside the
# reactor that use the jars just built). Safe to run again; a second run installs nothing.
#
#   scripts/test.sh                 # everything
#   scripts/test.sh -pl lock-memory # extra arguments go to Maven
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null 2>&1; then
  echo "scripts/test.sh: a JDK 17 or newer is needed (Debian: apt-get install openjdk-17-jdk-headless)" >&2
  exit 1
fi

bash scripts/install-test-servers.sh
# Two modules at a time, each running its test classes in two JVMs (see "How the suite runs" in
# docs/testing.md): the tests mostly wait for leases and servers rather than for the CPU, and no
# test JVM disturbs another. Maven prints the modules' lines interleaved; the reactor summary at
# the end names the module that failed.
./mvnw -B -ntp -T 2 verify "$@"
[ $# -gt 0 ] || bash scripts/consumer-tests.sh   # needs every module built, so not after a partial build (scripts/test.sh -pl …)
