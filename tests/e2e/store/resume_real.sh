#!/usr/bin/env bash
# resume_real.sh RLX: resume_kill.sh with real training; exits 77 (skipped) without rlx.train.
set -u
if [ "$("$1" -e 'io.write(tostring(type(rlx.train) == "function"))' 2>/dev/null)" != "true" ]; then
  echo "rlx.train is not in this build: skipped"
  exit 77
fi
exec bash "$(dirname "$0")/resume_kill.sh" "$1" real
