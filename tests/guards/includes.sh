#!/usr/bin/env bash
# includes.sh: includes go down the layers (docs/architecture.md, "Ownership guards"). The engine
# (engine/, plotting/) knows no Lua and nothing of the host: it includes no host/ or bindings/
# header and no Lua header. Process start-up (engine/startup) and the LibTorch boundary
# (engine/libtorch) sit above the other engine parts, which include neither (the trainer, the
# store or the peaks reaching up into start-up was issue 53's finding); the boundary uses start-up
# (start-up's step before LibTorch loads), start-up does not include the boundary, and plotting/
# includes neither.
source "$(dirname "$0")/common.sh"
include='^[^:]+:[0-9]+: *# *include *[<"]'
# The host's headers by the names they are included with (host/ and host/bindings/ are include
# folders: "lua_bind.h" as well as "bindings/lua_bind.h").
host_names=$(find host -name '*.h' | sed -E 's|^host/||; s|^bindings/||; s|\.|\\.|g' | sort -u | paste -sd'|' -)
lua_or_host="${include}(host/|bindings/|lua\\.h|lualib\\.h|lauxlib\\.h|luajit\\.h|lua\\.hpp|($host_names)\")"
upward="${include}(startup|libtorch)/"
catches includes "$lua_or_host" 'engine/train/x.cpp:3:#include "host/bindings/lua_bind.h"'
catches includes "$lua_or_host" 'plotting/x.cpp:3:#include "lua_bind.h"'
catches includes "$upward" 'engine/store/runs.cpp:10:#include "startup/legacy_notes.h"'
hits=$( {
  code_lines $(cpp_files engine plotting) | grep -E -- "$lua_or_host"
  code_lines $(cpp_files engine plotting | grep -vE '^engine/(startup|libtorch)/') | grep -E -- "$upward"
  code_lines $(cpp_files engine/startup) | grep -E -- "${include}libtorch/"
} )
report "an include that runs up the layers (engine parts below start-up and the LibTorch boundary; the engine below the host and Lua)" "$hits"
