#!/usr/bin/env bash
# Runs the live-server tests of pinned Python CouchDB client libraries (their own test suites,
# from their PyPI sdists) against a server, and, given a reference CouchDB too, compares.
#
#   run.sh TARGET_URL [REFERENCE_URL]
#
# Both URLs carry admin credentials: http://USER:PASSWORD@HOST:PORT. The suites run one after
# the other, never in parallel: pycouchdb's fixtures delete every database on the server.
# Each suite deletes and creates databases, so point it at a scratch server.
# Environment: WORK (default /tmp/client-libraries) holds the venv, the sdists and the results;
# TEST_TIMEOUT (default 90) is pytest-timeout's per-test limit in seconds (above CouchDB's 60 s
# default timeout of a continuous _changes feed, which some tests wait out).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${1:?usage: run.sh TARGET_URL [REFERENCE_URL]}"
reference="${2:-}"
work="${WORK:-/tmp/client-libraries}"
timeout_seconds="${TEST_TIMEOUT:-90}"
venv="$work/venv"

# The libraries under test and the test tools, exactly pinned.
libraries=(CouchDB==1.2 pycouchdb==1.17.1 aiocouch==4.0.1)
tools=(pytest==9.2.0 pytest-asyncio==1.5.0 pytest-timeout==2.4.0 pytest-html==4.2.0 pytest-mock==3.17.0)

mkdir -p "$work/sdist" "$work/results"
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q "${libraries[@]}" "${tools[@]}"
for pin in "${libraries[@]}"; do
    name="${pin%%==*}"; version="${pin##*==}"
    if ! ls "$work/sdist/" | grep -qi "^${name}-${version}\.tar\.gz$"; then
        "$venv/bin/pip" download -q --no-binary :all: --no-deps -d "$work/sdist" "$pin"
    fi
done

# One fresh copy of a library's sdist per run: pycouchdb's URL is written into its copy.
fresh() { # NAME VERSION -> prints the folder
    local archive folder
    archive="$(ls "$work/sdist/" | grep -i "^$1-$2\.tar\.gz$")"
    folder="$work/src/$3/$1-$2"
    rm -rf "$folder"; mkdir -p "$work/src/$3"
    tar xzf "$work/sdist/$archive" -C "$work/src/$3"
    echo "$work/src/$3/$(tar tzf "$work/sdist/$archive" | head -1 | cut -d/ -f1)"
}

# Deletes the databases whose names hold a slash (left by failed couchdb-python tests).
drop_slashed_databases() { # URL
    "$venv/bin/python" - "$1" <<'PYTHON'
import base64, json, sys, urllib.parse, urllib.request
parts = urllib.parse.urlsplit(sys.argv[1])
base = f"{parts.scheme}://{parts.hostname}:{parts.port}"
token = base64.b64encode(f"{urllib.parse.unquote(parts.username or '')}:{urllib.parse.unquote(parts.password or '')}".encode()).decode()
def call(method, path):
    request = urllib.request.Request(base + path, method=method, headers={"Authorization": "Basic " + token})
    with urllib.request.urlopen(request) as reply:
        return json.load(reply)
for name in call("GET", "/_all_dbs"):
    if "/" in name:
        call("DELETE", "/" + urllib.parse.quote(name, safe=""))
PYTHON
}

pytest_args=(-q -rA -p no:cacheprovider --timeout "$timeout_seconds")

run_suites() { # LABEL URL
    local label="$1" url="$2" folder hostport user password
    hostport="$("$venv/bin/python" -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(f"{p.scheme}://{p.hostname}:{p.port}")' "$url")"
    user="$("$venv/bin/python" -c 'import sys, urllib.parse as u; print(u.unquote(u.urlsplit(sys.argv[1]).username or ""))' "$url")"
    password="$("$venv/bin/python" -c 'import sys, urllib.parse as u; print(u.unquote(u.urlsplit(sys.argv[1]).password or ""))' "$url")"
    echo "== $label: $hostport" >&2
    rm -f "$work/results/$label-"*

    # pycouchdb first: its fixture deletes every database, and fails on a name holding a slash
    # (it does not escape it), such as couchdb-python's leftovers, which are removed first.
    # Its integration tests name the server in the source; the copy gets this URL.
    drop_slashed_databases "$url"
    folder="$(fresh pycouchdb 1.17.1 "$label")"
    sed -i "s#http://admin:password@localhost:5984/#$url/#g" "$folder"/test/integration/*.py
    (cd "$folder" && "$venv/bin/python" -m pytest "${pytest_args[@]}" \
        --junitxml "$work/results/$label-pycouchdb.xml" test/integration >"$work/results/$label-pycouchdb.log" 2>&1) || true

    # couchdb-python: its tests read COUCHDB_URL; its test modules are not named test_*.py.
    folder="$(fresh CouchDB 1.2 "$label")"
    (cd "$folder" && COUCHDB_URL="$url/" "$venv/bin/python" -m pytest "${pytest_args[@]}" \
        --junitxml "$work/results/$label-CouchDB.xml" \
        couchdb/tests/client.py couchdb/tests/couchhttp.py couchdb/tests/design.py \
        couchdb/tests/mapping.py couchdb/tests/multipart.py couchdb/tests/package.py \
        couchdb/tests/tools.py couchdb/tests/view.py couchdb/tests/couch_tests.py >"$work/results/$label-CouchDB.log" 2>&1) || true

    # aiocouch: its fixtures read COUCHDB_HOST, COUCHDB_USER and COUCHDB_PASS.
    folder="$(fresh aiocouch 4.0.1 "$label")"
    (cd "$folder" && COUCHDB_HOST="$hostport" COUCHDB_USER="$user" COUCHDB_PASS="$password" \
        "$venv/bin/python" -m pytest "${pytest_args[@]}" \
        --junitxml "$work/results/$label-aiocouch.xml" tests >"$work/results/$label-aiocouch.log" 2>&1) || true
}

run_suites target "$target"
if [ -n "$reference" ]; then run_suites reference "$reference"; fi
"$venv/bin/python" "$here/summarize.py" "$work/results" "$here/excluded.txt" CouchDB pycouchdb aiocouch
