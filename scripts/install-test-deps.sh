#!/usr/bin/env bash
# Installs the Debian packages the tests use, if they are missing: chromium and fonts (the
# dashboard's browser tests), xvfb, dbus, dunst and libnotify-bin (real desktop
# notifications). Uses sudo when not root. Does nothing when all are there.
set -euo pipefail
need=()
for pkg in chromium fonts-liberation xvfb dbus dunst libnotify-bin xauth; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "install-test-deps: no apt-get here; install these yourself: ${need[*]}" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-test-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
