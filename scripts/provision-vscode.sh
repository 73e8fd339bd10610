#!/usr/bin/env bash
# Provisions what the real-VS-Code runs need: Debian packages (chromium, libkrb5-dev, ripgrep) and
# code-server 4.100.3 (= VS Code 1.100.3; 4.101+ needs Node 24) in .vscode-test/, which git ignores.
# Idempotent and offline-safe: only the npm registry and Debian's mirrors are used, and a complete
# install (marker file) makes this a sub-second no-op.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="${OPENHANDS_CODE_SERVER_DIR:-$ROOT/.vscode-test/code-server-$CODE_SERVER_VERSION}"
MARKER="$DEST/.provisioned"
PKG="$DEST/node_modules/code-server"
START_NS=$(date +%s%N)

elapsed() { echo "$(( ($(date +%s%N) - START_NS) / 1000000 )) ms"; }
log() { echo "[provision] $*"; }

# --- Debian packages -------------------------------------------------------------------------------
# chromium: the browser the workbench runs in; libkrb5-dev: code-server's `kerberos` module;
# ripgrep: replaces @vscode/ripgrep's GitHub download; g++/make/python3: native rebuilds (usually present);
# fonts-liberation: Chromium only recommends it, and without fonts the screenshots show empty boxes;
# openssl: the HTTPS tests make a throwaway self-signed certificate with it (usually present).
APT_PACKAGES=(chromium fonts-liberation libkrb5-dev ripgrep g++ make python3 openssl)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { log "need root to install: ${missing[*]}"; exit 1; }
    SUDO=(sudo)
  fi
  log "installing Debian packages: ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- code-server -----------------------------------------------------------------------------------
if [[ -f "$MARKER" && -f "$PKG/out/node/entry.js" ]]; then
  log "code-server $CODE_SERVER_VERSION already provisioned in $DEST ($(elapsed))"
  exit 0
fi

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [[ "$node_major" != 20 ]]; then
  log "warning: code-server $CODE_SERVER_VERSION is built for Node 20; this is Node $(node -v)"
fi

# Two runs at once (e.g. test:vscode and test:e2e in parallel) must not install over each other.
mkdir -p "$(dirname "$DEST")"
exec 9>"$DEST.lock"
flock 9
if [[ -f "$MARKER" && -f "$PKG/out/node/entry.js" ]]; then
  log "code-server $CODE_SERVER_VERSION was provisioned by a concurrent run ($(elapsed))"
  exit 0
fi

log "installing code-server $CODE_SERVER_VERSION into $DEST"
# A half-finished install is redone from scratch: partial node_modules trees make npm rebuild flaky.
rm -rf "$DEST"
mkdir -p "$DEST"
# Own package.json so npm does not walk up and install into the project.
echo '{ "name": "code-server-cache", "private": true }' >"$DEST/package.json"

# node-pty's install runs `npx node-gyp`; the machine's npmrc has yes=false which would cancel it.
export npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# 1. Scripts off: code-server's postinstall downloads ripgrep from GitHub (unreachable here).
(cd "$DEST" && npm install --no-save --ignore-scripts --loglevel=error "code-server@$CODE_SERVER_VERSION")
# 2. code-server's own native dependency.
(cd "$DEST" && npm rebuild --loglevel=error argon2)

# 3. VS Code's server dependencies; ripgrep comes from Debian instead of GitHub.
VSCODE="$PKG/lib/vscode"
(cd "$VSCODE" && npm install --omit=dev --ignore-scripts --loglevel=error)
mkdir -p "$VSCODE/node_modules/@vscode/ripgrep/bin"
ln -sfn "$(command -v rg)" "$VSCODE/node_modules/@vscode/ripgrep/bin/rg"
(cd "$VSCODE" && npm rebuild --loglevel=error)

# 4. What code-server's postinstall would have done.
ln -sfn node_modules "$VSCODE/node_modules.asar"
ln -sfn code-linux.sh "$VSCODE/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$VSCODE/bin/helpers/browser.sh"

# 5. Built-in extensions' dependencies.
(cd "$VSCODE/extensions" && npm install --omit=dev --ignore-scripts --loglevel=error && npm rebuild --loglevel=error)

# 6. Only a working binary earns the marker.
# A throwaway config dir keeps code-server from writing ~/.config/code-server/config.yaml.
version_output="$(XDG_CONFIG_HOME="$DEST/.config" "$DEST/node_modules/.bin/code-server" --version 2>&1 || true)"
version_line="$(grep "^$CODE_SERVER_VERSION " <<<"$version_output" | head -1 || true)"
if [[ -z "$version_line" ]]; then
  log "code-server --version did not report $CODE_SERVER_VERSION:"
  echo "$version_output" >&2
  exit 1
fi
echo "$version_line" >"$MARKER"
log "code-server ready: $(head -1 "$MARKER") ($(elapsed))"
