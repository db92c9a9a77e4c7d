#!/usr/bin/env bash
# Install Debian's espeak-ng when we may: RhymeTagger, the rhyme peer of bench/bench_rhyme_peers.py,
# transcribes with it (the bench and its test report the peer as not run without it).
set -u
command -v espeak-ng >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || exit 1
[ "$(id -u)" = 0 ] || { echo "run 'sudo apt-get install espeak-ng' for the RhymeTagger peer"; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q espeak-ng >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q espeak-ng >/dev/null 2>&1; }
