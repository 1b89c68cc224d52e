#!/usr/bin/env bash
# huge_pages.sh RLX: transparent huge pages for the training heap on request (RLX_HUGE_PAGES=1,
# engine/util/huge_pages.h), checked against the kernel's mode on the machine that runs the test:
# the note every command gives (the environment's id includes it), no restart unless asked, the
# restart in madvise mode when asked (same pid, recorded in startup.restarts; rlx's GLIBC_TUNABLES
# and its marker RLX_STARTUP taken out of the environment after it, so no child inherits them), the
# user's allocator setting kept, and a heap that really is in huge pages after a training step
# (AnonHugePages of the process).
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
mode=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
note='for _, t in ipairs(rlx.version().tuning) do if t:match("^thp:") or t:match("^malloc:") then print(t) end end'
# The Lua runs in the child of rlx's supervisor (engine/util/supervisor.h): the process that
# started, and restarted, is its parent.
pid_and_env='local f = io.open("/proc/self/stat"); local ppid = f:read("*a"):match("^%d+ %b() %S+ (%d+)"); f:close()
print(ppid, os.getenv("RLX_STARTUP") or "-", os.getenv("GLIBC_TUNABLES") or "-",
  (table.concat(rlx.version().startup.restarts, ","):find("huge_pages") and "huge_pages" or "-"))'
rlx_malloc="malloc: glibc, no mmap'd chunks, no heap trimming (freed buffers are reused, not refaulted)"
asked="thp: the training heap in transparent huge pages (RLX_HUGE_PAGES=1, kernel mode madvise: the commands that train start with GLIBC_TUNABLES=glibc.malloc.hugetlb=1)"
case "$mode" in
  madvise) want="thp: not asked (kernel mode madvise; RLX_HUGE_PAGES=1 asks)" ;;
  always) want="thp: the heap in transparent huge pages (kernel mode always: given unasked)" ;;
  never) want="thp: none (kernel mode never)" ;;
  *) want="thp: not asked (/sys/kernel/mm/transparent_hugepage/enabled unreadable)" ;;
esac
clean=(env -u GLIBC_TUNABLES -u RLX_STARTUP -u RLX_HUGE_PAGES -u LD_PRELOAD -u MALLOC_MMAP_THRESHOLD_ -u MALLOC_TRIM_THRESHOLD_
  -u MALLOC_MMAP_MAX_ -u MALLOC_TOP_PAD_)
got=$("${clean[@]}" "$RLX" -e "$note")
[ "$got" = "$rlx_malloc"$'\n'"$want" ] || fail "note ($mode): $got"
# rlx version does not restart, and says the same.
[ "$("${clean[@]}" "$RLX" version | grep -cF "$want")" = 1 ] || fail "rlx version differs from the training commands"
# The user's setting wins: the allocator is left alone, nothing restarts.
got=$("${clean[@]}" GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$RLX" -e "$note")
[ "$got" = "malloc: glibc, left as the environment sets it (MALLOC_*_ or GLIBC_TUNABLES)"$'\n'"thp: left as the environment sets the allocator (GLIBC_TUNABLES=glibc.malloc.hugetlb=0)" ] ||
  fail "user's GLIBC_TUNABLES: $got"
read -r pid marker tunables restarts < <("${clean[@]}" GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$RLX" -e "$pid_and_env")
[ "$marker" = - ] && [ "$tunables" = glibc.malloc.hugetlb=0 ] && [ "$restarts" = - ] ||
  fail "user's GLIBC_TUNABLES changed: $marker $tunables $restarts"
# A value other than 0 or 1 is a one-line error, exit 2, before anything runs.
got=$("${clean[@]}" RLX_HUGE_PAGES=yes "$RLX" -e 'print("ran")' 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$got" = 'rlx: RLX_HUGE_PAGES must be 1 (the training heap in huge pages) or 0, got "yes"; set it to 1 or 0, or unset it' ] ||
  fail "bad RLX_HUGE_PAGES: exit $rc: $got"
[ "$("${clean[@]}" RLX_HUGE_PAGES=0 "$RLX" -e "$note")" = "$rlx_malloc"$'\n'"$want" ] || fail "RLX_HUGE_PAGES=0"
# Not asked: no restart, whatever the mode.
read -r pid marker tunables restarts < <("${clean[@]}" "$RLX" -e "$pid_and_env")
[ "$marker" = - ] && [ "$tunables" = - ] && [ "$restarts" = - ] ||
  fail "restart without RLX_HUGE_PAGES=1: RLX_STARTUP=$marker, $tunables, $restarts"
read -r pid marker tunables restarts < <("${clean[@]}" RLX_HUGE_PAGES=1 "$RLX" -e "$pid_and_env")
if [ "$mode" = madvise ]; then
  # Asked: one restart (recorded), after which neither rlx's tunable nor its marker is left in the
  # environment; rlx's malloc settings still apply.
  [ "$marker" = - ] && [ "$tunables" = - ] && [ "$restarts" = huge_pages ] ||
    fail "restart: RLX_STARTUP=$marker, $tunables, $restarts"
  got=$("${clean[@]}" RLX_HUGE_PAGES=1 "$RLX" -e "$note")
  [ "$got" = "$rlx_malloc"$'\n'"$asked" ] || fail "asked note: $got"
  [ "$("${clean[@]}" RLX_HUGE_PAGES=1 "$RLX" version | grep -cF "$asked")" = 1 ] || fail "rlx version, asked"
  # A marker of another process (an environment copied into a job) is not this one's restart: it is
  # dropped, and the GLIBC_TUNABLES beside it is the user's.
  read -r pid marker tunables restarts < <("${clean[@]}" RLX_HUGE_PAGES=1 RLX_STARTUP=1:huge_pages \
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$RLX" -e "$pid_and_env")
  [ "$marker" = - ] && [ "$tunables" = glibc.malloc.hugetlb=1 ] && [ "$restarts" = - ] ||
    fail "another process's marker: RLX_STARTUP=$marker, $tunables, $restarts"
else
  [ "$marker" = - ] && [ "$tunables" = - ] && [ "$restarts" = - ] ||
    fail "no restart in mode $mode: RLX_STARTUP=$marker, $tunables, $restarts"
fi
# Asked, after a training step the heap is (madvise, always) or is not (never) in huge pages; the
# run's result records the choice.
huge='rlx.train{model = "resnet18", input = 64, classes = 10, batch = 16, iters = 1, warmup = 0, threads = 1,
  device = "cpu", memory_format = "contiguous"}
local f = io.open("/proc/self/smaps_rollup"); local kb = f:read("*a"):match("AnonHugePages:%s+(%d+) kB"); f:close()
print(tonumber(kb) > 0 and "huge" or "small")'
if [ "$mode" = madvise ]; then  # not asked: small pages (so the check below is the ask's doing)
  got=$("${clean[@]}" "$RLX" -e "$huge" 2>&1 | tail -1)
  [ "$got" = small ] || fail "huge pages without RLX_HUGE_PAGES=1 in mode madvise: $got"
fi
got=$("${clean[@]}" RLX_HUGE_PAGES=1 "$RLX" -e "$huge" 2>&1 | tail -1)
case "$mode" in
  madvise | always) [ "$got" = huge ] || fail "no huge pages after a step in mode $mode: $got" ;;
  never) [ "$got" = small ] || fail "huge pages in mode never: $got" ;;
esac
case "$mode" in madvise) choice=asked ;; always | never) choice=$mode ;; *) choice=mode_unknown ;; esac
got=$("${clean[@]}" RLX_HUGE_PAGES=1 "$RLX" train --model resnet18 --input 16 --classes 3 --batch-size 2 --iters 1 \
  --warmup-iters 0 --threads 1 --memory-format contiguous --json 2>/dev/null |
  "$RLX" -e 'local r = rlx.json.decode(io.read("*a")) print(r.startup.huge_pages.choice, r.startup.huge_pages.kernel_mode)')
[ "$got" = "$choice"$'\t'"$mode" ] || fail "train result: $got"
echo ok
