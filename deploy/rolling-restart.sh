#!/bin/sh
# Restarts Deposito cloud processes one at a time (docs/production.md, "Upgrades"):
#
#   deploy/rolling-restart.sh cloud1.internal:8080 cloud2.internal:8080 …
#
# For each process, in the order given: run RESTART_CMD (SIGTERM drains it: /readyz says 503 so the
# balancer sends it nothing new, requests under way finish, its bridges are closed with "going
# away" and reconnect through the balancer to another process; then the new version starts), wait
# until its /readyz answers 200, give the balancer time to send it requests again, then the next.
# A process that is not ready within READY_TIMEOUT seconds stops the rollout (exit 1): the others
# keep serving on the version they run.
#
#   RESTART_CMD    the command that restarts one process; {host} and {port} are replaced.
#                  Default: ssh {host} sudo systemctl restart deposito-cloud@{port}
#   READY_TIMEOUT  seconds to wait for /readyz (default 120)
#   SETTLE         seconds to wait after ready, for the balancer's next health check (default 5;
#                  deploy/haproxy.cfg checks every 2 s and needs 2 passes)
#   SCHEME         http or https for /readyz (default http: the processes behind the balancer)
set -eu

RESTART_CMD=${RESTART_CMD:-'ssh {host} sudo systemctl restart deposito-cloud@{port}'}
READY_TIMEOUT=${READY_TIMEOUT:-120}
SETTLE=${SETTLE:-5}
SCHEME=${SCHEME:-http}

if [ "$#" -eq 0 ]; then
  echo "usage: $0 host:port [host:port …]  (restarts each Deposito cloud process in turn)" >&2
  exit 2
fi

ready() {
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$SCHEME://$1/readyz" || true)
  [ "$code" = 200 ]
}

for process in "$@"; do
  host=${process%:*}
  port=${process##*:}
  if [ -z "$host" ] || [ -z "$port" ] || [ "$host" = "$process" ]; then
    echo "not host:port: $process" >&2
    exit 2
  fi
  command=$(printf '%s' "$RESTART_CMD" | sed "s/{host}/$host/g; s/{port}/$port/g")
  echo "restarting $process: $command"
  sh -c "$command"
  waited=0
  until ready "$process"; do
    if [ "$waited" -ge "$READY_TIMEOUT" ]; then
      echo "$process is not ready after ${READY_TIMEOUT} s: rollout stopped, the others are untouched" >&2
      exit 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "$process ready after ${waited} s"
  sleep "$SETTLE"
done
echo "every process restarted"
