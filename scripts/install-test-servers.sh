#!/usr/bin/env bash
# Installs the servers the tests start as child processes (see docs/testing.md), only those that
# are missing: Debian packages redis-server, etcd-server, zookeeper, postgresql, mariadb-server
# and the npm package azurite. Idempotent: when everything is present it only checks, in seconds.
#
# The tests never use system services: they start their own processes on free loopback ports.
# So that a package install does not leave a service running on a default port (and a process
# behind that looks like a leak), service start-up is denied while apt-get runs, unless this
# machine already has its own /usr/sbin/policy-rc.d.
set -euo pipefail

missing_debs=()

has_command() {
  command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]
}

has_command redis-server || missing_debs+=(redis-server)
has_command etcd || missing_debs+=(etcd-server)
[ -f /usr/share/java/zookeeper.jar ] || missing_debs+=(zookeeper)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing_debs+=(postgresql)
{ has_command mariadbd && has_command mariadb-install-db; } || missing_debs+=(mariadb-server)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo "$@"
  fi
}

if [ "${#missing_debs[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-test-servers: missing ${missing_debs[*]} and no apt-get here;" \
      "install them with your package manager, or point the tests at servers with" \
      "LOCKSMITH_TEST_<BACKEND>_URI (docs/testing.md)" >&2
    exit 1
  fi
  echo "install-test-servers: installing ${missing_debs[*]}"
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    as_root sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 755 $policy"
    trap 'as_root rm -f '"$policy" EXIT
  fi
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing_debs[@]}"
fi

if ! has_command azurite-blob; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-test-servers: azurite-blob is missing and npm is not installed" \
      "(Debian: apt-get install npm), then: npm install -g azurite" >&2
    exit 1
  fi
  echo "install-test-servers: installing azurite (npm install -g azurite)"
  if [ -w "$(npm prefix -g)" ]; then
    npm install -g --no-fund --no-audit azurite
  else
    as_root npm install -g --no-fund --no-audit azurite
  fi
fi

echo "install-test-servers: redis-server, etcd, zookeeper, postgresql, mariadb and azurite are present"
