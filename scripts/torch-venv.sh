#!/usr/bin/env bash
# torch-venv.sh: the virtual environment that holds the pinned torch (scripts/torch-requirements.txt),
# which rlx builds against and every Python peer runs. It lives in a cache folder keyed by the pin,
# the Python version and the machine, so another clone of the same pin (CI's fresh clone) finds it
# instead of downloading 3 GB again; the clone's .venv links to it.
#
#   source scripts/torch-venv.sh
#   rlx_venv_dir                # prints the folder for this pin
#   rlx_venv_check DIR          # 0 when DIR holds the pin's torch, ready; else RLX_VENV_WHY says why
#   rlx_venv_ensure             # installs it when missing or half-installed; sets RLX_VENV
#   bash scripts/torch-venv.sh  # rlx_venv_ensure, then prints the folder
#
# Inputs: RLX_TORCH_PIN (default scripts/torch-requirements.txt), RLX_VENV_PYTHON (the Python that
# makes the environment, default Debian's /usr/bin/python3), RLX_VENV_CACHE (default
# /var/cache/rlx/venv for root, else ${XDG_CACHE_HOME:-$HOME/.cache}/rlx/venv), RLX_VENV_DIR (a
# folder to use as it is).
# A folder is ready only once its stamp (.rlx-ready) is written, after pip finished and the torch in
# it was checked; a folder without the stamp is half-installed and is made again.

_rlx_pin() { echo "${RLX_TORCH_PIN:-scripts/torch-requirements.txt}"; }
_rlx_venv_python() { echo "${RLX_VENV_PYTHON:-/usr/bin/python3}"; }

# The pin's requirement lines, without comments or blank lines.
rlx_pin_lines() { grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$(_rlx_pin)"; }

# Where environments are kept: root's in /var/cache/rlx/venv, readable by every user who runs the
# rlx root built (it loads LibTorch from there); another user's in ~/.cache/rlx/venv.
rlx_venv_cache() {
  if [ -n "${RLX_VENV_CACHE:-}" ]; then echo "$RLX_VENV_CACHE"
  elif [ "$(id -u)" = 0 ]; then echo /var/cache/rlx/venv
  else echo "${XDG_CACHE_HOME:-$HOME/.cache}/rlx/venv"; fi
}

rlx_venv_dir() {
  if [ -n "${RLX_VENV_DIR:-}" ]; then echo "$RLX_VENV_DIR"; return; fi
  local py key torch
  py=$(_rlx_venv_python)
  key=$({ rlx_pin_lines; "$py" -c 'import sys, platform; print(sys.version_info[:2], platform.machine())'; } |
    sha256sum | cut -c1-12)
  torch=$(rlx_pin_lines | sed -n 's/^torch==\([^ ;]*\).*/\1/p' | head -n 1)
  echo "$(rlx_venv_cache)/torch-${torch:-unpinned}-$key"
}

# rlx_venv_check DIR: is DIR a finished environment whose torch is the pinned one, with its CMake
# package and the C++11 ABI? Sets RLX_VENV_WHY (one line naming the problem and the fix) when not.
rlx_venv_check() {
  local dir=$1 out want version prefix abi
  RLX_VENV_WHY=""
  if [ ! -e "$dir" ]; then
    RLX_VENV_WHY="no virtual environment at $dir: run scripts/setup.sh, which installs the pinned torch there"
    return 1
  fi
  if [ ! -f "$dir/.rlx-ready" ] || [ ! -x "$dir/bin/python" ]; then
    RLX_VENV_WHY="the virtual environment at $dir is half-installed (no .rlx-ready stamp or no bin/python): remove it (rm -rf $dir) and run scripts/setup.sh again"
    return 1
  fi
  if ! out=$("$dir/bin/python" -c 'import torch, torch.utils
print(torch.__version__.split("+")[0]); print(torch.utils.cmake_prefix_path); print(int(torch.compiled_with_cxx11_abi()))' 2>&1); then
    RLX_VENV_WHY="the virtual environment at $dir cannot import torch ($(tail -n 1 <<<"$out")): remove it (rm -rf $dir) and run scripts/setup.sh again"
    return 1
  fi
  version=$(sed -n 1p <<<"$out") prefix=$(sed -n 2p <<<"$out") abi=$(sed -n 3p <<<"$out")
  want=$(rlx_pin_lines | sed -n 's/^torch==\([^ ;]*\).*/\1/p' | head -n 1)
  if [ -n "$want" ] && [ "$version" != "$want" ]; then
    RLX_VENV_WHY="the virtual environment at $dir holds torch $version, the pin ($(_rlx_pin)) says $want: remove it (rm -rf $dir) and run scripts/setup.sh again"
    return 1
  fi
  if [ ! -f "$prefix/Torch/TorchConfig.cmake" ]; then
    RLX_VENV_WHY="the torch $version in $dir has no CMake package ($prefix/Torch/TorchConfig.cmake is missing): it is not a LibTorch to build against; reinstall the wheel from PyPI (rm -rf $dir; scripts/setup.sh) or set RLX_TORCH_DIR to an unpacked LibTorch"
    return 1
  fi
  if [ "$abi" != 1 ]; then
    RLX_VENV_WHY="the torch $version in $dir was built with the pre-C++11 std::string ABI, which cannot link with Debian's C++ libraries (fmt, SQLiteCpp): install a wheel built with the C++11 ABI (every PyPI torch since 2.7) or set RLX_TORCH_DIR to a cxx11-ABI LibTorch"
    return 1
  fi
  RLX_VENV_TORCH_VERSION=$version RLX_VENV_TORCH_PREFIX=$prefix
  return 0
}

# Installs the pin into a fresh folder when the one for this pin is missing or half-installed. One
# setup at a time per cache (flock), so two clones running setup together install it once.
rlx_venv_ensure() {
  local dir py lock
  dir=$(rlx_venv_dir) || return 1
  RLX_VENV=$dir
  rlx_venv_check "$dir" && return 0
  [ -n "${RLX_VENV_DIR:-}" ] && return 1 # a folder the user named is theirs to fix
  py=$(_rlx_venv_python)
  mkdir -p "$(dirname "$dir")" || { RLX_VENV_WHY="cannot create $(dirname "$dir"): set RLX_VENV_CACHE to a writable folder"; return 1; }
  lock="$dir.lock"
  exec {RLX_VENV_LOCK_FD}>"$lock"
  flock "$RLX_VENV_LOCK_FD"
  if ! rlx_venv_check "$dir"; then
    [ -e "$dir" ] && echo "setup: $RLX_VENV_WHY; making it again" >&2
    rm -rf "$dir"
    echo "setup: installing $(rlx_pin_lines | tr '\n' ' ')into $dir (about 3 GB from PyPI, once per pin)" >&2
    # Readable by every user: rlx loads LibTorch from here at run time.
    if ! (umask 022 && "$py" -m venv "$dir" >&2); then
      RLX_VENV_WHY="$py -m venv failed: install Debian's python3-venv (apt-get install python3-venv) and run scripts/setup.sh again"
      flock -u "$RLX_VENV_LOCK_FD"; return 1
    fi
    if ! (umask 022 && "$dir/bin/python" -m pip install --progress-bar off --only-binary=:all: -r "$(_rlx_pin)" >&2); then
      RLX_VENV_WHY="pip could not install $(rlx_pin_lines | tr '\n' ' ')into $dir (see pip's words above): check that PyPI is reachable and run scripts/setup.sh again"
      flock -u "$RLX_VENV_LOCK_FD"; return 1
    fi
    rlx_pin_lines >"$dir/.rlx-ready"
    if ! rlx_venv_check "$dir"; then
      rm -f "$dir/.rlx-ready"
      flock -u "$RLX_VENV_LOCK_FD"; return 1
    fi
  fi
  flock -u "$RLX_VENV_LOCK_FD"
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cd "$(dirname "$0")/.." || exit 1
  if rlx_venv_ensure; then echo "$RLX_VENV"; else echo "setup: $RLX_VENV_WHY" >&2; exit 1; fi
fi
