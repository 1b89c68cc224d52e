#!/usr/bin/env bash
# relink.sh ROOT: makes every absolute symbolic link under ROOT relative, so that a link such as
# usr/lib/aarch64-linux-gnu/libm.so -> /lib/aarch64-linux-gnu/libm.so.6 resolves inside ROOT (a
# sysroot) instead of on the host.
set -euo pipefail
ROOT=$(cd "${1:?usage: relink.sh ROOT}" && pwd)
find "$ROOT" -type l -lname '/*' -print0 | while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  dir=$(dirname "$link")
  ln -sfn "$(realpath -m --relative-to="$dir" "$ROOT$target")" "$link"
done
