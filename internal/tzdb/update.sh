#!/bin/sh
# update.sh rebuilds zoneinfo.zip, the time-zone database embedded in precisiond,
# from a pinned Debian tzdata package (IANA release + Debian packaging).
#
# To move to a new IANA release: pick the Debian version (apt-cache policy tzdata),
# download it once, put its version and sha256 below, run this script from the
# repository root (sh internal/tzdb/update.sh), regenerate the oracle vectors
# (python3 tools/testdata/oracle/gen_time.py --zoneinfo <extracted dir>, and
# /usr/bin/python3 tools/testdata/oracle/gen_schedule.py, which reads the zip), update
# "version" in the time contracts (contracts/defs/{time_facts,timezone_convert,schedule_expand}.json)
# and run the tests. The contracts' source_policy.version must equal the release
# recorded in the zip (a test checks it).
set -eu

DEB_VERSION="2026f-0+deb12u1"
DEB_SHA256="3254eb870c8a949518214805aee5e4276af7699988ea8b9a3a583cd0f1eab31c"

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$work" && apt-get download "tzdata=$DEB_VERSION")
deb=$(ls "$work"/tzdata_*_all.deb)
echo "$DEB_SHA256  $deb" | sha256sum -c -
dpkg-deb -x "$deb" "$work/x"

go run "$here/mkzip.go" -src "$work/x/usr/share/zoneinfo" -debian "$DEB_VERSION" -out "$here/zoneinfo.zip"
echo "wrote $here/zoneinfo.zip"
