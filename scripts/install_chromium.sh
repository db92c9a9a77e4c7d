#!/usr/bin/env bash
# Install Debian's chromium when we may: the browser test of the metric Spaces
# (tests/evaluate_modules/test_space_apps.py, slow) drives it headless through playwright,
# which is given this browser's path and downloads none.
set -u
command -v chromium >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || exit 1
[ "$(id -u)" = 0 ] || { echo "run 'sudo apt-get install chromium' for the Spaces' browser test"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }
