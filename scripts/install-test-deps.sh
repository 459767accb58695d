#!/usr/bin/env bash
# Installs the Debian packages the tests use, if they are missing: chromium and fonts (the
# dashboard's browser tests), xvfb, dbus, dunst and libnotify-bin (real desktop
# notifications), postgresql (the hub's tests start their own server), bubblewrap and socat
# (Claude Code's sandbox), less (its lesspipe), jq and ripgrep, which tests run, then the agent CLIs
# the end-to-end tests run and yarn 1, which the hook tests run (test/agents). Uses sudo for
# apt-get when not root. Does nothing when all are there.
set -euo pipefail
need=()
for pkg in chromium fonts-liberation xvfb dbus dunst libnotify-bin xauth postgresql bubblewrap socat less jq ripgrep; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
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
fi

# The real agent CLIs the end-to-end tests drive and yarn 1 (test/agents), pinned by their own
# lockfile and kept apart from Gatehouse's packages: they declare Node 22 (npm says EBADENGINE for
# them here) but run on Node 20, and they are large. Skipped when the lockfile is unchanged.
agents="$(dirname "$0")/../test/agents"
stamp="$agents/node_modules/.installed-lock"
if ! cmp -s "$agents/package-lock.json" "$stamp" 2>/dev/null; then
  echo "install-test-deps: installing the agent CLIs in test/agents" >&2
  # `npm install` from the lockfile, not `npm ci`: the CLIs list native packages for every
  # platform as optional dependencies, and the registry reachable here holds only Linux's, so
  # the lockfile cannot name the others and `npm ci` refuses it as out of sync. The versions
  # installed are still the lockfile's; --no-save leaves it untouched.
  npm install --prefix "$agents" --no-save --no-audit --no-fund --loglevel=error
  cp "$agents/package-lock.json" "$stamp"
fi
