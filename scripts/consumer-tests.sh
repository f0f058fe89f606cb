#!/usr/bin/env bash
# Consumer tests: builds the small projects under consumers/ against the artifacts the reactor has
# just built, outside the reactor and without locksmith-parent, the way a user's project uses them
# (each backend alone, every pair, the BOM, a named module on the module path).
#
#   scripts/consumer-tests.sh                    # after the reactor's build (scripts/test.sh runs it)
#   scripts/consumer-tests.sh -pl redis-etcd -am # extra arguments go to the consumers' Maven build
#
# 1. Lays out the reactor's POMs and jars in a private local repository,
#    target/consumer-m2/repository, as `mvn install` would. Maven reads everything else from
#    ~/.m2/repository as a read-only "tail" (maven.repo.local.tail), so ~/.m2 is never written and
#    nothing is downloaded that the reactor's build already has. The tail leaves out io/locksmith,
#    so an artifact this build did not produce cannot be picked up from an older install.
# 2. Starts one Redis, etcd, ZooKeeper, Azurite and PostgreSQL with lock-testing, in a child JVM
#    that lives as long as this script, and exports their LOCKSMITH_TEST_*_URI variables.
# 3. Runs one Maven build over consumers/pom.xml with that repository.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."

m2=$PWD/target/consumer-m2
repo=$m2/repository
tail_repo=$m2/tail
user_repo=$HOME/.m2/repository

version=$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
group=$(sed -n 's:^  <groupId>\(.*\)</groupId>.*:\1:p' pom.xml | head -1)

# Copies a module's POM and jar (and those of its modules) into $repo, where `mvn install` puts them.
install_module() {
  local dir=$1 artifact packaging target module
  artifact=$(sed -n 's:^  <artifactId>\(.*\)</artifactId>.*:\1:p' "$dir/pom.xml" | head -1)
  packaging=$(sed -n 's:^  <packaging>\(.*\)</packaging>.*:\1:p' "$dir/pom.xml" | head -1)
  if [ -z "$artifact" ]; then
    echo "consumer-tests: cannot read the artifactId of $dir/pom.xml" >&2
    exit 1
  fi
  target=$repo/${group//.//}/$artifact/$version
  mkdir -p "$target"
  cp "$dir/pom.xml" "$target/$artifact-$version.pom"
  if [ "${packaging:-jar}" != pom ]; then
    if [ ! -f "$dir/target/$artifact-$version.jar" ]; then
      echo "consumer-tests: $dir/target/$artifact-$version.jar is missing: build the reactor first (./mvnw verify)" >&2
      exit 1
    fi
    cp "$dir/target/$artifact-$version.jar" "$target/"
  fi
  for module in $(sed -n 's:^    <module>\(.*\)</module>.*:\1:p' "$dir/pom.xml"); do
    install_module "$dir/$module"
  done
}

rm -rf "$m2"
mkdir -p "$repo" "$tail_repo"
install_module .

# the tail: links to ~/.m2/repository's entries, without this project's own group
for entry in "$user_repo"/*; do
  case $entry in
    "$user_repo/${group%%.*}") ;;
    *) ln -s "$entry" "$tail_repo/" ;;
  esac
done
if [ -d "$user_repo/${group%%.*}" ]; then
  mkdir -p "$tail_repo/${group%%.*}"
  for entry in "$user_repo/${group%%.*}"/*; do
    [ "$entry" = "$user_repo/${group//.//}" ] || ln -s "$entry" "$tail_repo/${group%%.*}/"
  done
fi

maven_repos=(-Dmaven.repo.local="$repo" -Dmaven.repo.local.tail="$tail_repo")
# short-lived Maven JVMs start in less CPU time with the C1 compiler alone
export MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

# the servers: lock-testing's jar and its run-time class path, as the reactor resolved them
./mvnw -B -ntp -q -pl lock-testing "${maven_repos[@]}" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
  -DincludeScope=runtime -Dmdep.outputFile="$m2/servers-classpath.txt"
servers_cp=lock-testing/target/lock-testing-$version.jar:$(cat "$m2/servers-classpath.txt")
coproc SERVERS { exec java -XX:TieredStopAtLevel=1 -cp "$servers_cp" consumers/servers/StartServers.java REDIS ETCD ZOOKEEPER AZURITE POSTGRES 2>"$m2/servers.log"; }
exec {servers_out}<&"${SERVERS[0]}"   # a copy: bash drops the coproc's descriptors when it exits
ready=false
while IFS= read -r line <&"$servers_out"; do
  if [ "$line" = ready ]; then
    ready=true
    break
  fi
  export "${line?}"
done
if [ "$ready" != true ]; then
  echo "consumer-tests: the test servers did not start; $m2/servers.log says:" >&2
  tail -n 30 "$m2/servers.log" >&2
  exit 1
fi
echo "consumer-tests: artifacts laid out and servers ready after ${SECONDS}s"

./mvnw -B -ntp -T 2 -f consumers/pom.xml --fail-at-end verify "${maven_repos[@]}" -Dlocksmith.version="$version" "$@"
