#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/support/chromium.ts: the pricing page, a browser MCP client).
# Idempotent: does nothing when /usr/bin/chromium is already there. Runs as root (CI and dev machines).
# Why Debian's package: test tools' own browser downloads are blocked on these machines.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "install-chromium: /usr/bin/chromium already present ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown')); nothing to do"
  exit 0
fi

SUDO=''
if [ "$(id -u)" -ne 0 ]; then SUDO='sudo'; fi

echo 'install-chromium: /usr/bin/chromium missing; running apt-get update'
$SUDO apt-get update
echo 'install-chromium: running apt-get install -y chromium'
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
echo "install-chromium: installed $(/usr/bin/chromium --version 2>/dev/null)"
