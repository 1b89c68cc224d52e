#!/usr/bin/env bash
# build-here.sh: builds containers/cpu.Containerfile and runs the smoke study in the image, on a
# Debian 12 machine that reaches Debian's mirrors but no image registry (and where `podman run`
# cannot start containers: crun's setrlimit is refused in some sandboxes). By hand, as root:
#
#   scripts/containers/build-here.sh       # base image, image, rlx env inside, the smoke study
#
# 1. the base image: a Debian 12 root file system made with `debootstrap --variant=minbase
#    bookworm` and imported with `podman import` (localhost/debian-bookworm-minbase), reused;
# 2. the image: `buildah bud --isolation chroot` of containers/cpu.Containerfile on that base
#    (localhost/rlx-cpu): scripts/setup.sh inside, as in the README;
# 3. `buildah run --isolation chroot` in a container of the image, with $OUT mounted at /out:
#    `rlx version`, `rlx env` (compared with `rlx env` here, outside: env-diff.txt), a tiny
#    `rlx train` and the smoke study (`rlx run /rlx/experiments/all.lua --set scale=smoke`, plus
#    $RLX_CONTAINER_STUDY), whose results, figures and report land in $OUT.
# Output: $RLX_CONTAINER_CACHE (default ~/.cache/rlx-containers)/out. RLX_CONTAINER_STEPS="base
# image run" chooses steps. The outside `rlx env` needs a built build/rlx.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHE=${RLX_CONTAINER_CACHE:-$HOME/.cache/rlx-containers}
OUT=$CACHE/out
BASE=localhost/debian-bookworm-minbase
IMAGE=localhost/rlx-cpu
STEPS=" ${RLX_CONTAINER_STEPS:-base image run} "
mkdir -p "$CACHE" "$OUT"
say() { printf 'containers: %s\n' "$*"; }
wants() { [[ $STEPS == *" $1 "* ]]; }
T0=$(date +%s)

need=()
for tool in debootstrap:debootstrap buildah:buildah podman:podman; do
  command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" fuse-overlayfs
fi

if wants base && ! podman image exists "$BASE"; then
  t=$(date +%s)
  if [ ! -x "$CACHE/rootfs/bin/bash" ]; then
    rm -rf "$CACHE/rootfs"
    nice -n 10 debootstrap --variant=minbase bookworm "$CACHE/rootfs" http://deb.debian.org/debian >"$CACHE/debootstrap.log"
  fi
  tar -C "$CACHE/rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  say "base image $BASE from debootstrap --variant=minbase bookworm ($(($(date +%s) - t)) s)"
fi

# Speed only, never the image's contents: this host's downloaded .debs (apt uses a .deb already in
# its archive folder instead of fetching it) and its ccache (the image's compiler is the same Debian
# package, and base_dir makes the paths relative, so the host's objects of the same sources hit).
# Bind mounts exist only while the build's RUN steps run; the image keeps neither.
speedups=()
if [ "${RLX_CONTAINER_SPEEDUPS:-1}" = 1 ]; then
  [ -d /var/cache/apt/archives ] && speedups+=(--volume /var/cache/apt/archives:/var/cache/apt/archives)
  host_ccache=$(ccache -k cache_dir 2>/dev/null || true)
  if [ -n "$host_ccache" ] && [ -d "$host_ccache" ]; then
    printf 'cache_dir = /ccache\nbase_dir = /rlx\n' >"$CACHE/ccache.conf"
    speedups+=(--volume "$host_ccache:/ccache" --volume "$CACHE/ccache.conf:/etc/ccache.conf:ro")
  fi
fi

# A host behind a TLS-inspecting proxy trusts its CA through PIP_CERT / SSL_CERT_FILE (this
# sandbox does); the image's Debian CA bundle does not know it, so pip inside the build could not
# reach PyPI. That CA file and a pip.conf naming it are mounted for the build's RUN steps only.
host_ca=${PIP_CERT:-${SSL_CERT_FILE:-}}
if [ -n "$host_ca" ] && [ -f "$host_ca" ]; then
  printf '[global]\ncert = /etc/rlx-host-ca.crt\n' >"$CACHE/pip.conf"
  speedups+=(--volume "$host_ca:/etc/rlx-host-ca.crt:ro" --volume "$CACHE/pip.conf:/etc/pip.conf:ro")
fi

if wants image; then
  t=$(date +%s)
  nice -n 10 buildah bud --isolation chroot --layers=false --build-arg BASE="$BASE" "${speedups[@]}" \
    -f containers/cpu.Containerfile -t "$IMAGE" . >"$OUT/image-build.log" 2>&1 ||
    { tail -40 "$OUT/image-build.log"; exit 1; }
  say "image $IMAGE built ($(($(date +%s) - t)) s): $(podman image inspect "$IMAGE" --format '{{.Size}}') bytes, $(podman image inspect "$IMAGE" --format '{{.Architecture}}')"
fi

if wants run; then
  ctr=$(buildah from "$IMAGE")
  trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
  # The host folder goes to /out, not /work: buildah run mounts a fresh volume for the image's
  # VOLUME /work over a -v at the same path (files written there were lost, 2026-11-29);
  # In docker run and podman run a -v at a VOLUME's path replaces the volume (the Containerfile's
  # -v "$PWD/out:/work"); podman run cannot start containers in this sandbox to show it.
  inside() { nice -n 10 buildah run --isolation chroot -v "$OUT:/out" --workingdir /out "$ctr" -- "$@"; }
  inside rlx version | tee "$OUT/version-inside.txt"
  inside rlx env >"$OUT/env-inside.md"
  if [ -x build/rlx ]; then
    build/rlx env >"$OUT/env-outside.md"
    diff "$OUT/env-outside.md" "$OUT/env-inside.md" >"$OUT/env-diff.txt" || true
    say "rlx env outside vs inside (diff, $OUT/env-diff.txt):"
    sed 's/^/    /' "$OUT/env-diff.txt"
  fi
  t=$(date +%s)
  rm -rf "$OUT/results" "$OUT/figures" "$OUT/report.md" "$OUT/report.html"
  inside rlx train --model resnet18 --input 32 --batch-size 2 --iters 2 --warmup-iters 1 --classes 10 2>&1 |
    tee "$OUT/train-inside.txt"
  # RLX_CONTAINER_STUDY="--set models=resnet18" narrows the study (word-split on purpose).
  # shellcheck disable=SC2086
  inside rlx run /rlx/experiments/all.lua --set scale=smoke ${RLX_CONTAINER_STUDY:-} 2>&1 | tee "$OUT/study.log"
  say "smoke study in the container ($(($(date +%s) - t)) s): $(grep -E '^done in' "$OUT/study.log" || echo 'no done-in line')"
  ls "$OUT" | sed 's/^/    /'
fi
say "total $(($(date +%s) - T0)) s; output in $OUT"
