#!/usr/bin/env bash
# Install WordNet 3.0 offline data (Debian's wordnet-base) when we may; used for synonyms.
set -u
[ -d /usr/share/wordnet ] && [ -f /usr/share/wordnet/data.noun ] && exit 0
command -v apt-get >/dev/null 2>&1 || exit 1
[ "$(id -u)" = 0 ] || { echo "run 'sudo apt-get install wordnet-base' for synonym_replace"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q wordnet-base >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q wordnet-base >/dev/null 2>&1; }
