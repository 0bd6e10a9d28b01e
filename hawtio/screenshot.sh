#!/usr/bin/env bash
# A picture of Hawtio, already connected, showing a running Oneway's routes with their counters,
# taken in headless Chromium, so that the one-command console keeps working:
#   hawtio/screenshot.sh [picture.png]        (default target/hawtio-routes.png)
# Needs a replicator running with its management endpoint on localhost:9876 (mvn compile
# camel:run), Chromium (Debian: apt-get install chromium) and Node.js with npm (playwright-core
# is installed under target/ from the npm registry).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/hawtio-routes.png}
mkdir -p target "$(dirname "$out")"
mvn -q -f hawtio/pom.xml compile exec:java > target/hawtio.log 2>&1 &
console=$!
trap 'kill $console 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf -o /dev/null http://localhost:8090/oneway && break
  sleep 1
done
if [ ! -d target/playwright/node_modules/playwright-core ]; then
  npm install --silent --prefix target/playwright playwright-core@1 > target/playwright.log 2>&1
fi
NODE_PATH=target/playwright/node_modules node hawtio/screenshot.js http://localhost:8090/oneway "$out"
echo "$out"
