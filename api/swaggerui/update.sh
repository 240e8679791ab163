#!/bin/sh
# Re-fetches the vendored Swagger UI (served at /docs) from the npm registry:
#   sh api/swaggerui/update.sh
# To move to another release, set VERSION and INTEGRITY below to the values
# `npm view swagger-ui-dist@VERSION dist.integrity` prints, run this script,
# then update the sha256 list in SOURCE.md (the script prints it) and
# swaggerUIVersion in api/pages.go; TestSwaggerUIVendored checks all three
# agree and TestDocsInChromium drives the page.
set -eu
VERSION=5.35.0
INTEGRITY=sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==
FILES="swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE"

dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$tmp" && npm pack --silent "swagger-ui-dist@$VERSION" >/dev/null)
tgz="$tmp/swagger-ui-dist-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 | tr -d '\n')"
if [ "$got" != "$INTEGRITY" ]; then
  echo "swagger-ui-dist@$VERSION: integrity $got, want $INTEGRITY" >&2
  exit 1
fi
tar -xzf "$tgz" -C "$tmp"
for f in $FILES; do
  cp "$tmp/package/$f" "$dir/$f"
done
cd "$dir" && sha256sum $FILES
