#!/usr/bin/env bash
# sysroot.sh: a Debian 12 arm64 sysroot for cross-building rlx (scripts/arm64/check.sh runs it).
#
#   scripts/arm64/sysroot.sh CACHE     # prints the sysroot's path (CACHE/sysroot) on its last line
#
# The host's own apt state is never touched: a private apt root under CACHE/apt (the host's Debian
# sources, Architecture arm64, an empty dpkg status) resolves the build packages' whole dependency
# closure and downloads it ("install --download-only", i.e. apt-get download of every dependency),
# and each .deb is unpacked with dpkg-deb into CACHE/sysroot. Nothing runs from the packages (no
# maintainer scripts): a sysroot needs their files only. Debian 12 still ships files under /lib
# and /usr/lib alike, so the sysroot is made merged-/usr first (lib -> usr/lib, as an installed
# bookworm is) and tar keeps those links; absolute symbolic links inside the packages are then
# made relative, so they resolve inside the sysroot for the cross linker and for qemu.
# A rerun with the same package list reuses everything (CACHE/sysroot/.rlx-packages).
set -euo pipefail
CACHE=${1:?usage: sysroot.sh CACHE_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)

# What rlx links and reads at run time: setup.sh's build packages, minus the host tools. LibTorch is
# not among them: it is the pinned PyPI wheel's (scripts/arm64/torch-wheel.sh), as on x86-64;
# libgloo-dev gives c10d's Gloo headers, as setup.sh installs them there.
PACKAGES=(
  libc6-dev libstdc++-12-dev libgcc-12-dev
  libgloo-dev
  libluajit-5.1-dev libsqlitecpp-dev libsqlite3-dev
  libcairo2-dev libfontconfig-dev fonts-dejavu-core
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev
  libturbojpeg0-dev libedit-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev
)

APT=$CACHE/apt
SYSROOT=$CACHE/sysroot
STAMP=$SYSROOT/.rlx-packages
wanted=$(printf '%s\n' "${PACKAGES[@]}")
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$wanted" ]; then
  echo "sysroot: reusing $SYSROOT"
  echo "$SYSROOT"
  exit 0
fi

mkdir -p "$APT/etc/apt/sources.list.d" "$APT/etc/apt/preferences.d" "$APT/var/lib/apt/lists/partial" \
  "$APT/var/cache/apt/archives/partial" "$APT/var/lib/dpkg"
: >"$APT/var/lib/dpkg/status"
# The host's Debian sources (bookworm, its updates and security), third-party ones left out.
cp /etc/apt/sources.list.d/debian.sources "$APT/etc/apt/sources.list.d/" 2>/dev/null ||
  printf 'deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
    >"$APT/etc/apt/sources.list"
apt_opts=(-o "Dir=$APT" -o "Dir::State::status=$APT/var/lib/dpkg/status" -o "Dir::Etc::trusted=/etc/apt/trusted.gpg"
  -o "Dir::Etc::trustedparts=/etc/apt/trusted.gpg.d" -o APT::Architecture=arm64 -o APT::Architectures=arm64
  -o APT::Install-Recommends=false -o Debug::NoLocking=true -o APT::Sandbox::User=root -q)
echo "sysroot: resolving ${#PACKAGES[@]} packages for arm64 (private apt root $APT)"
apt-get "${apt_opts[@]}" update >/dev/null
apt-get "${apt_opts[@]}" -y --download-only install "${PACKAGES[@]}" >"$CACHE/apt-download.log"
debs=("$APT"/var/cache/apt/archives/*.deb)
echo "sysroot: unpacking ${#debs[@]} packages into $SYSROOT"
rm -rf "$SYSROOT"
mkdir -p "$SYSROOT/usr/lib" "$SYSROOT/usr/bin" "$SYSROOT/usr/sbin"
ln -s usr/lib "$SYSROOT/lib"
ln -s usr/bin "$SYSROOT/bin"
ln -s usr/sbin "$SYSROOT/sbin"
for deb in "${debs[@]}"; do
  dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$SYSROOT"
done
bash "$HERE/relink.sh" "$SYSROOT"
# Debian's alternatives are set by maintainer scripts, which do not run here: the BLAS and LAPACK
# LibTorch loads are the OpenMP OpenBLAS, the choice scripts/setup.sh makes on a Debian machine.
lib=$SYSROOT/usr/lib/aarch64-linux-gnu
for so in libblas.so.3 liblapack.so.3 libopenblas.so.0; do
  ln -sfn "openblas-openmp/$so" "$lib/$so"
done
echo "$wanted" >"$STAMP"
du -sh "$SYSROOT" | sed 's/^/sysroot: /'
echo "$SYSROOT"
