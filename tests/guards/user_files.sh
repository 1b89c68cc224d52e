#!/usr/bin/env bash
# user_files.sh: a file a user names is read through one reader (docs/architecture.md, "reading a
# file a user names"): util::UserFile / read_user_file / check_user_file (engine/util/text_file.cpp),
# in Lua rlx.fs.read / rlx.fs.check_file / rlx.csv.reader. It opens without blocking, takes regular
# files only and caps the bytes; io.open, loadfile, dofile, std::ifstream and fopen block on a FIFO.
# Looked for: in scripts/rlx, io.open without a write mode ("w", "a"), io.lines, io.input, loadfile,
# dofile; in engine/, host/ and plotting/, std::ifstream / std::fstream, fopen without a write mode,
# open(..., O_RDONLY). Writing a file is not reading one. The allow list names the files that read
# the machine's own files (/proc, /sys, rlx's own library), never a user's, each with what it reads.
source "$(dirname "$0")/common.sh"
# A call, or the function handed on as a value (pcall(dofile, path), local open = io.open).
lua_pattern='io\.open *([(,)]|$)|io\.lines|io\.input|(^|[^A-Za-z0-9_.])(loadfile|dofile)([^A-Za-z0-9_]|$)'
lua_write='io\.open *\([^)]*, *["'"'"'][wa]b?\+?["'"'"']'
cpp_pattern='ifstream|fstream|fopen *\(|[^A-Za-z_]open *\(.*O_RDONLY'
cpp_write='fopen *\([^)]*, *"[wa]b?\+?"'
catches "user-file (Lua)" "$lua_pattern" '  local chunk, err = loadfile(m.script)'
catches "user-file (Lua)" "$lua_pattern" '  local f = io.open(path, "rb")'
catches "user-file (Lua)" "$lua_pattern" '      local ok, env = pcall(dofile, path)'
catches "user-file (C++)" "$cpp_pattern" '  std::ifstream in(path);'
catches "user-file (C++)" "$cpp_pattern" '  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);'
allow='
engine/util/text_file.cpp         the one reader (and read_text_file, for the machine own small files)
engine/util/thread_cpu.cpp        /proc/self/task/<tid>/schedstat and stat
engine/util/cpu_stat.cpp          /proc/stat
engine/util/atomic_file.cpp       /proc/self/status (the umask); a folder opened O_DIRECTORY to fsync it
engine/startup/huge_pages.cpp     /sys/kernel/mm/transparent_hugepage/enabled
engine/peaks/cpu_info.cpp         /sys/devices/system/cpu files (caches, topology)
engine/platform/emulation.cpp     /proc/cpuinfo
engine/counters/perf_collector.cpp /proc/sys/kernel/perf_event_paranoid
engine/train/process_usage.cpp    /proc/self/status (peak RSS)
engine/store/claims.cpp           /proc/<pid>/stat, /proc/stat (whether a claim holder still runs)
engine/env/memory.cpp             /dev/kmsg, without blocking (the kernel OOM killer lines)
engine/libtorch/tensor_library.cpp librlx_torch.so ELF magic (rlx own library beside its executable)
scripts/rlx/train.lua |"/proc/sys/kernel/hostname"| the machine host name
scripts/rlx/params.lua |local open = io.open| the wrapper that refuses writes while a script lists its parameters (--help); it reads nothing
'
hits=$( { code_lines $(lua_files scripts/rlx) | grep -E -- "$lua_pattern" | grep -vE -- "$lua_write";
          code_lines $(cpp_files engine host plotting) | grep -E -- "$cpp_pattern" | grep -vE -- "$cpp_write" |
            grep -vE '^[^:]+:[0-9]+:#include'; } |
  allowed "$allow")
report "a file opened for reading outside the one reader (use rlx.fs.read / rlx.fs.check_file, util::UserFile)" "$hits"
