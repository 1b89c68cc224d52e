# End-to-end tests of the hardware counters (issue 8): rlx.counters, rlx counters --list and
# rlx import-ncu on the fixtures in tests/fixtures/ncu (sums worked by hand in
# tests/unit/counters/test_ncu_import.cpp).
set(C ${CMAKE_SOURCE_DIR}/tests/e2e/counters)
set(F ${CMAKE_SOURCE_DIR}/tests/fixtures/ncu)

# rlx.counters.import_ncu
rlx_e2e(NAME "counters: import_ncu sums kernels and processes" ARGS -e
  "local s = rlx.counters.import_ncu('${F}/two_processes.csv') print(s.kernels, s.processes, #s.per_kernel, s.flops_fp32, s.dram_bytes, s.flops_tensor, s.per_kernel[3].count)"
  STDOUT "^5\t2\t3\t4021060\t10407000\t4194304\t1\n$")
rlx_e2e(NAME "counters: import_ncu wrong type" ARGS -e "rlx.counters.import_ncu(42)" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.counters\\.import_ncu: argument 1 must be a string, got number")
rlx_e2e(NAME "counters: import_ncu malformed file names file and line" ARGS -e
  "rlx.counters.import_ncu('${F}/malformed/non_numeric.csv')" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.counters\\.import_ncu: .*non_numeric\\.csv:4: column \"gpu__time_duration\\.sum\": value \"12\\.5us\" is not a number as ncu writes it")
rlx_e2e(NAME "counters: import_ncu missing file" ARGS -e "rlx.counters.import_ncu('/nonexistent/x.csv')" EXIT 1
  STDERR "rlx\\.counters\\.import_ncu: the ncu CSV '/nonexistent/x\\.csv' does not exist \\(check the path\\)")

# rlx.counters.list / available / measure
rlx_e2e(NAME "counters: list cpu has task_clock" ARGS -e
  "for _, m in ipairs(rlx.counters.list{device = 'cpu'}.metrics) do if m.name == 'task_clock' or m.name == 'cycles' then print(m.name, m.supported or m.reason ~= nil) end end"
  STDOUT "^cycles\ttrue\ntask_clock\ttrue\n$")
rlx_e2e(NAME "counters: list unknown option" ARGS -e "rlx.counters.list{devce = 'cpu'}" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.counters\\.list: unknown option 'devce' \\(valid options: chip, device\\)")
rlx_e2e(NAME "counters: list wrong type" ARGS -e "rlx.counters.list{device = 1}" EXIT 1
  STDERR "rlx\\.counters\\.list: option 'device' must be a string, got 1")
rlx_e2e(NAME "counters: list bad device" ARGS -e "rlx.counters.list{device = 'gpu'}" EXIT 1
  STDERR "rlx\\.counters\\.list: option 'device' is invalid: unknown device 'gpu' \\(use \"cpu\", \"cuda\" or \"cuda:N\"\\)")
rlx_e2e(NAME "counters: list chip on cpu" ARGS -e "rlx.counters.list{device = 'cpu', chip = 'GH100'}" EXIT 1
  STDERR "rlx\\.counters\\.list: option 'chip' is invalid: option chip applies to cuda devices only")
rlx_e2e(NAME "counters: available cpu" ARGS -e "print(rlx.counters.available().source)" STDOUT "^perf_event\n$")
rlx_e2e(NAME "counters: available wrong type" ARGS -e "rlx.counters.available(3)" EXIT 1
  STDERR "rlx\\.counters\\.available: argument 1 must be a string, got number")
rlx_e2e(NAME "counters: measure cpu counts software events" ARGS -e
  "local r = rlx.counters.measure(function() local t = {} for i = 1, 200000 do t[i] = i end end, {iters = 2}) print(r.source, r.available or r.reason ~= nil, r.iterations, (r.values.task_clock or 0) > 0 or r.unsupported.task_clock ~= nil, r.values.page_faults ~= nil or r.unsupported.page_faults ~= nil, r.values.cycles ~= nil or r.unsupported.cycles ~= nil)"
  STDOUT "^perf_event\ttrue\t2\ttrue\ttrue\ttrue\n$")
rlx_e2e(NAME "counters: measure wrong type" ARGS -e "rlx.counters.measure(5)" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.counters\\.measure: argument 1 must be the function to measure, got number")
rlx_e2e(NAME "counters: import_ncu of a directory" ARGS -e "rlx.counters.import_ncu('${F}')" EXIT 1
  STDERR "rlx\\.counters\\.import_ncu: the ncu CSV '.*/tests/fixtures/ncu' is a directory, not a regular file: give the path of a file in it")
rlx_e2e(NAME "counters: measure unknown option" ARGS -e "rlx.counters.measure(function() end, {iter = 2})" EXIT 1
  STDERR "rlx\\.counters\\.measure: unknown option 'iter' \\(valid options: device, groups, iters\\)")
rlx_e2e(NAME "counters: measure unknown group" ARGS -e "rlx.counters.measure(function() end, {groups = {'cycels'}})" EXIT 1
  STDERR "rlx\\.counters\\.measure: option 'groups' is invalid: unknown cpu counter 'cycels' \\(valid: cycles,")
rlx_e2e(NAME "counters: measure error in the function" ARGS -e "rlx.counters.measure(function() error('boom') end)" EXIT 1
  STDERR "^\\(command line\\):1: boom\nstack traceback:")
rlx_e2e(NAME "counters: measure cuda without GPU is unavailable, not an error" ARGS -e
  "local r = rlx.counters.measure(function() end, {device = 'cuda', iters = 2}) print(r.source, r.device)"
  STDOUT "^cupti\tcuda:0\n$")

# rlx counters --list
rlx_e2e(NAME "counters: --list cpu" ARGS counters --list STDOUT "device cpu \\(perf_event\\).*(yes|no) +cycles +hardware.*(yes|no) +task_clock +software")
rlx_e2e(NAME "counters: --list --json" ARGS counters --list --json STDOUT "\"source\": \"perf_event\"")
rlx_e2e(NAME "counters: without --list" ARGS counters EXIT 2 STDERR "rlx counters: nothing to do: use --list")
rlx_e2e(NAME "counters: bad --device" ARGS counters --list --device tpu EXIT 2
  STDERR "rlx counters: --device must be cpu, cuda or cuda:N, got 'tpu'")
rlx_e2e(NAME "counters: --help" ARGS counters --help STDOUT "usage: rlx counters --list")

# rlx import-ncu
rlx_e2e(NAME "counters: import-ncu prints totals" ARGS import-ncu ${F}/two_processes.csv
  STDOUT "5 kernel launches \\(3 distinct\\), 2 processes.*flops_fp32 +4\\.02106e\\+06 FLOP.*dram_bytes +1\\.0407e\\+07 byte.*seconds +0\\.000233 s")
rlx_e2e(NAME "counters: import-ncu --json" ARGS import-ncu ${F}/two_processes.csv --json
  STDOUT "\"flops_fp32\": 4021060")
rlx_e2e(NAME "counters: import-ncu malformed" ARGS import-ncu ${F}/malformed/ragged.csv EXIT 1
  STDERR "^rlx import-ncu: .*ragged\\.csv:4: ragged row: 27 fields, the header has 28\n$")
rlx_e2e(NAME "counters: import-ncu reads the details page of ncu --csv" ARGS import-ncu ${F}/details_seed002.csv
  STDOUT "details_seed002\\.csv: 3 kernel launches \\(2 distinct\\), 1 process.*flops_fp32 +5\\.37136e\\+08 FLOP.*dram_bytes +5\\.3255e\\+06 byte.*seconds +0\\.001524 s")
rlx_e2e(NAME "counters: import-ncu names the metrics it cannot use" ARGS import-ncu ${F}/details_seed002.csv
  STDOUT "\n  not used, not additive \\(rlx sums only \\.sum metrics over kernels\\): Registers Per Thread, dram__throughput\\.avg\\.pct_of_peak_sustained_elapsed, sm__throughput\\.avg\\.pct_of_peak_sustained_elapsed\n$")
rlx_e2e(NAME "counters: import-ncu refuses bytes in seconds" ARGS import-ncu ${F}/malformed/bytes_in_time.csv EXIT 1
  STDERR "^rlx import-ncu: .*bytes_in_time\\.csv:2: column \"dram__bytes_read\\.sum\": unit \"usecond\" is a time, but the metric counts bytes")
rlx_e2e(NAME "counters: import-ncu --iterations needs --run" ARGS import-ncu ${F}/two_processes.csv --iterations 2 EXIT 2
  STDERR "rlx import-ncu: --iterations is only used with --run LABEL")
# Seed 000's nvprof-era flop_count_sp in a CSV (one kernel, DRAM 1,000 + 500 bytes, PCIe read 64):
# named with what replaced it; the write half of PCIe is missing.
rlx_e2e(NAME "counters: import-ncu names seed 000's nvprof-era metrics" ARGS import-ncu ${F}/seed000_nvprof_names.csv
  STDOUT "  dram_bytes +1500 byte\n.*  pcie_bytes +64 byte\n.*  missing metrics \\(counted as 0\\): pcie__write_bytes\\.sum\n  not used, nvprof-era names \\(current ncu rejects them\\x3b collect the current ones in code/metric_names_ncu\\.txt of rlx export --layout seed\\): flop_count_sp \\(now flops_fp32 = fadd \\+ fmul \\+ 2 x ffma\\)\n$")
# The range is the option spec's (min = 1), worded as every CLI range check.
rlx_e2e(NAME "counters: import-ncu --iterations 0" ARGS import-ncu ${F}/two_processes.csv --run a --db x.db --iterations 0
  EXIT 2 STDERR "^rlx import-ncu: --iterations must be an integer from 1 to 1000000000, got '0'\nTry 'rlx import-ncu --help'\\.\n$")
rlx_e2e(NAME "counters: import-ncu --db of a missing database" ARGS import-ncu ${F}/two_processes.csv --run x --db /nonexistent/dir/x.db EXIT 1
  STDERR "^rlx import-ncu: ")
rlx_e2e(NAME "counters: import-ncu without a file" ARGS import-ncu EXIT 2 STDERR "rlx import-ncu: missing FILE")
rlx_e2e(NAME "counters: import-ncu --run needs --db" ARGS import-ncu ${F}/two_processes.csv --run x EXIT 2
  STDERR "rlx import-ncu: --run needs --db PATH")
rlx_e2e(NAME "counters: import-ncu --run attaches to the run with a measured roofline point" ARGS run ${C}/attach.lua
  STDERR "rlx import-ncu: no roofline point for run 'old': it has no counted iterations .*import again with --iterations N"
  STDOUT "stored 28 counters with run 'r18-b2' \\(study 'ncu-test'\\).*measured roofline point \\(ncu\\) dram: AI 0\\.789 FLOP/byte, 0\\.04108 GFLOP/s\nmeasured roofline point \\(ncu\\) l2: AI 0\\.329 FLOP/byte.*dram__bytes_read\\.sum\t6\\.657e\\+06\tbyte\tncu\ndram_bytes\t1\\.0407e\\+07\tbyte\tncu:derived\nflops_fp32\t4\\.02106e\\+06\tflop\tncu:derived\niterations\t2\tcount\tncu:derived\nseconds\t0\\.000233\tsecond\tncu:derived\nr18-b2\tdram\tncu\t4\\.10775e\\+06 5\\.2035e\\+06 0\\.789421 0\\.04107753\t0\\.1\n.*stored 27 counters with run 'old'.*old points\t1\n.*old\t2\\.05388e\\+06 0\\.01026938\n$")
rlx_e2e(NAME "counters: import-ncu --run with an unknown label" ARGS run ${C}/missing_label.lua EXIT 1
  STDERR "^rlx import-ncu: no run labelled 'nope' in .*counters_missing_label\\.db\\x3b list the labels with: rlx runs ")

# rlx.train{counters = true} on CPU: the perf_event collector sees the measured iterations; this
# project's VMs refuse the hardware events (reported with the reason), software events are counted.
# perf_event counts the counted iterations (3 by default), run after the 2 timed ones.
rlx_e2e(NAME "counters: train with counters on cpu" ARGS -e
  "local r = rlx.train{model = 'resnet18', batch = 2, iters = 2, warmup = 1, input = 32, classes = 10, counters = true} local c = r.counters print(r.ok, c.source, c.iterations, r.counter_iters, #r.samples, #r.counted_samples, (c.values.task_clock or 0) > 0 or c.unsupported.task_clock ~= nil, c.values.page_faults ~= nil or c.unsupported.page_faults ~= nil, c.values.cycles ~= nil or c.unsupported.cycles:find('perf_event_open', 1, true) ~= nil, c.values.instructions ~= nil or c.unsupported.instructions ~= nil)"
  STDOUT "^true\tperf_event\t3\t3\t2\t3\ttrue\ttrue\ttrue\ttrue\n$")

# Tests that need CUPTI compiled in (the CUDA toolkit at build time; scripts/gpu or /usr/local/cuda).
if(RLX_HAVE_CUPTI)
  rlx_e2e(NAME "counters: list GH100 plan without a GPU" ARGS -e
    "local l = rlx.counters.list{device = 'cuda', chip = 'GH100'} print(l.chip, #l.groups[1], l.groups[1][1])"
    STDOUT "^GH100\t5\tgpu__time_duration\\.sum\n$")
  rlx_e2e(NAME "counters: list unknown chip (C++ exception path)" ARGS -e "rlx.counters.list{device = 'cuda', chip = 'XYZ1'}" EXIT 1
    STDERR "rlx\\.counters\\.list: option 'chip' is invalid: CUPTI host API does not know chip 'XYZ1'")
  # Three machines: no driver (CI), a driver whose GPU is hidden (CUDA_VISIBLE_DEVICES=, as
  # scripts/gpu/build-and-test.sh runs ctest), a GPU.
  rlx_e2e(NAME "counters: available cuda without a driver or with one" ARGS -e
    "local a = rlx.counters.available('cuda') print(a.source, a.available or a.reason)"
    STDOUT "^cupti\t(true|no NVIDIA driver \\(libcuda\\.so\\.1 not found\\)|cuInit failed: CUDA_ERROR_NO_DEVICE \\(no usable NVIDIA GPU\\))\n$")
  rlx_e2e(NAME "counters: --list cuda --chip GH100" ARGS counters --list --device cuda --chip GH100
    STDOUT "chip GH100:.*yes +sm__ops_path_tensor_src_fp16\\.sum.*no +sm__ops_path_tensor_src_fp16_dst_fp32\\.sum +tensor +not a metric on this chip")
  rlx_e2e(NAME "counters: version reports CUPTI compiled in" ARGS version STDOUT "CUPTI +API [0-9]+")

else()
  rlx_e2e(NAME "counters: cuda without CUPTI compiled in" ARGS -e "print(rlx.counters.available('cuda').reason)"
    STDOUT "^CUPTI support is not compiled in \\(rebuild with the CUDA toolkit installed\\)\n$")
endif()
