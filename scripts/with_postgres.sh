#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server: `scripts/with_postgres.sh python -m pytest`.
#
# Installs the Debian `postgresql` package when no PostgreSQL binaries are found (as root, with apt-get),
# creates a cluster in a temporary folder, starts it on 127.0.0.1 on a free port (its socket in that folder),
# exports TEST_DATABASE_URL (the tests create their databases on it), runs the command, then stops the server
# and removes the folder whatever the command did. Exits with the command's exit code.
set -euo pipefail

find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; fi
}

bin=$(find_bin)
if [ -z "$bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "with_postgres: installing the postgresql package" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q postgresql >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null; }
        bin=$(find_bin)
    fi
    if [ -z "$bin" ]; then
        echo "with_postgres: no PostgreSQL binaries and cannot install them" >&2
        exit 1
    fi
fi

folder=$(mktemp -d "${TMPDIR:-/tmp}/cardtable-pg-XXXXXX")
as_user=()
if [ "$(id -u)" = 0 ]; then
    # initdb refuses to run as root: the server runs as an unprivileged user.
    for user in postgres pgtest nobody; do
        if id "$user" >/dev/null 2>&1; then as_user=(runuser -u "$user" --); break; fi
    done
    chown "${as_user[2]}" "$folder"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as_user[@]}" "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

"${as_user[@]}" "$bin/initdb" -D "$folder/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
# Durability off: the data dies with the folder.
"${as_user[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $folder -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null || { cat "$folder/server.log" >&2; exit 1; }

export TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
echo "with_postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
status=0
"$@" || status=$?
exit "$status"
