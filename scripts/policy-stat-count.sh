#!/usr/bin/env bash
# Counts how often the daemon stats a project's .gatehouse.toml for gated calls through the
# real Claude Code hook (it was n+3 per call). Needs strace and a built dist/.
# Usage: scripts/policy-stat-count.sh [calls]
set -euo pipefail
calls=${1:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export GATEHOUSE_HOME=$tmp/home GATEHOUSE_SOCKET=$tmp/run/agent.sock GATEHOUSE_DASHBOARD_PORT=0
mkdir -p "$tmp/project/sub"
printf '[rules]\nrequire_permission = ["push_git"]\n' >"$tmp/project/.gatehouse.toml"
strace -f -qq -e trace=stat,lstat,newfstatat,statx,access,faccessat,faccessat2,openat -o "$tmp/trace" \
  node "$root/dist/cli/gatehouse.js" daemon --no-dashboard >"$tmp/out" 2>&1 &
daemon=$!
for _ in $(seq 100); do grep -q 'gatehouse: ready' "$tmp/out" 2>/dev/null && break; sleep 0.1; done
# One warm-up call, so the count is of steady calls only.
run() {
  printf '{"session_id":"s1","transcript_path":"/nonexistent.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"t%s"}' \
    "$tmp/project/sub" "$1" "$RANDOM$RANDOM" | node "$root/dist/cli/gatehouse.js" hook claude-code >/dev/null
}
run 'ls'
before=$(grep -c '\.gatehouse\.toml' "$tmp/trace" || true)
for _ in $(seq "$calls"); do run 'ls -la && git status && cat README.md'; done
after=$(grep -c '\.gatehouse\.toml' "$tmp/trace" || true)
grep "\.gatehouse\.toml" "$tmp/trace" | sed "s/^[0-9]* *//" | sort | uniq -c | sort -rn | head -5
echo "lookups (stat, access, open) of a .gatehouse.toml per gated call (3 commands in one Bash call): $(( (after - before) / calls )) ($(( after - before )) over $calls calls)"
