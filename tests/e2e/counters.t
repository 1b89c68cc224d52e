# End-to-end tests of the hardware counters (issue 8): rlx.counters, rlx counters --list and
# rlx import-ncu on the fixtures in tests/fixtures/ncu (sums worked by hand in
# tests/unit/counters/test_ncu_import.cpp).

# rlx.counters.import_ncu
counters: import_ncu sums kernels and processes
  $ rlx -e "local s = rlx.counters.import_ncu('tests/fixtures/ncu/two_processes.csv') print(s.kernels, s.processes, #s.per_kernel, s.flops_fp32, s.dram_bytes, s.flops_tensor, s.per_kernel[3].count)"
  5\t2\t3\t4021060\t10407000\t4194304\t1 (esc)

counters: import_ncu wrong type
  $ rlx -e 'rlx.counters.import_ncu(42)'
  stderr starts with: (command line):1: rlx.counters.import_ncu: argument 1 must be a string, got number
  [1]

counters: import_ncu malformed file names file and line
  $ rlx -e "rlx.counters.import_ncu('tests/fixtures/ncu/malformed/non_numeric.csv')"
  stderr starts with: \(command line\):1: rlx\.counters\.import_ncu: .*non_numeric\.csv:4: column "gpu__time_duration\.sum": value "12\.5us" is not a number as ncu writes it (re)
  [1]

counters: import_ncu missing file
  $ rlx -e "rlx.counters.import_ncu('/nonexistent/x.csv')"
  stderr contains: rlx.counters.import_ncu: the ncu CSV '/nonexistent/x.csv' does not exist (check the path)
  [1]

# rlx.counters.list / available / measure
counters: list cpu has task_clock
  $ rlx -e "for _, m in ipairs(rlx.counters.list{device = 'cpu'}.metrics) do if m.name == 'task_clock' or m.name == 'cycles' then print(m.name, m.supported or m.reason ~= nil) end end"
  cycles\ttrue (esc)
  task_clock\ttrue (esc)

counters: list unknown option
  $ rlx -e "rlx.counters.list{devce = 'cpu'}"
  stderr starts with: (command line):1: rlx.counters.list: unknown option 'devce' (valid options: chip, device)
  [1]

counters: list wrong type
  $ rlx -e 'rlx.counters.list{device = 1}'
  stderr contains: rlx.counters.list: option 'device' must be a string, got 1
  [1]

counters: list bad device
  $ rlx -e "rlx.counters.list{device = 'gpu'}"
  stderr contains: rlx.counters.list: option 'device' is invalid: unknown device 'gpu' (use "cpu", "cuda" or "cuda:N")
  [1]

counters: list chip on cpu
  $ rlx -e "rlx.counters.list{device = 'cpu', chip = 'GH100'}"
  stderr contains: rlx.counters.list: option 'chip' is invalid: option chip applies to cuda devices only
  [1]

counters: available cpu
  $ rlx -e 'print(rlx.counters.available().source)'
  perf_event

counters: available wrong type
  $ rlx -e 'rlx.counters.available(3)'
  stderr contains: rlx.counters.available: argument 1 must be a string, got number
  [1]

counters: measure cpu counts software events
  $ rlx -e 'local r = rlx.counters.measure(function() local t = {} for i = 1, 200000 do t[i] = i end end, {iters = 2}) print(r.source, r.available or r.reason ~= nil, r.iterations, (r.values.task_clock or 0) > 0 or r.unsupported.task_clock ~= nil, r.values.page_faults ~= nil or r.unsupported.page_faults ~= nil, r.values.cycles ~= nil or r.unsupported.cycles ~= nil)'
  perf_event\ttrue\t2\ttrue\ttrue\ttrue (esc)

counters: measure wrong type
  $ rlx -e 'rlx.counters.measure(5)'
  stderr starts with: (command line):1: rlx.counters.measure: argument 1 must be the function to measure, got number
  [1]

counters: import_ncu of a directory
  $ rlx -e "rlx.counters.import_ncu('$RLX_SOURCE_DIR/tests/fixtures/ncu')"
  stderr contains: rlx\.counters\.import_ncu: the ncu CSV '.*/tests/fixtures/ncu' is a directory, not a regular file: give the path of a file in it (re)
  [1]

counters: measure unknown option
  $ rlx -e 'rlx.counters.measure(function() end, {iter = 2})'
  stderr contains: rlx.counters.measure: unknown option 'iter' (valid options: device, groups, iters)
  [1]

counters: measure unknown group
  $ rlx -e "rlx.counters.measure(function() end, {groups = {'cycels'}})"
  stderr contains: rlx.counters.measure: option 'groups' is invalid: unknown cpu counter 'cycels' (valid: cycles,
  [1]

counters: measure error in the function
  $ rlx -e "rlx.counters.measure(function() error('boom') end)"
  stderr starts with:
  (command line):1: boom
  stack traceback:
  [1]

counters: measure cuda without GPU is unavailable, not an error
  $ rlx -e "local r = rlx.counters.measure(function() end, {device = 'cuda', iters = 2}) print(r.source, r.device)"
  cupti\tcuda:0 (esc)

# rlx counters --list
counters: --list cpu
  $ rlx counters --list
  stdout contains: device cpu \(perf_event\).*(yes|no) +cycles +hardware.*(yes|no) +task_clock +software (re)

counters: --list --json
  $ rlx counters --list --json
  stdout contains: "source": "perf_event"

counters: without --list
  $ rlx counters
  stderr contains: rlx counters: nothing to do: use --list
  [2]

counters: bad --device
  $ rlx counters --list --device tpu
  stderr contains: rlx counters: --device must be cpu, cuda or cuda:N, got 'tpu'
  [2]

counters: --help
  $ rlx counters --help
  stdout contains: usage: rlx counters --list

# rlx import-ncu
counters: import-ncu prints totals
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv
  stdout contains: 5 kernel launches \(3 distinct\), 2 processes.*flops_fp32 +4\.02106e\+06 FLOP.*dram_bytes +1\.0407e\+07 byte.*seconds +0\.000233 s (re)

counters: import-ncu --json
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv --json
  stdout contains: "flops_fp32": 4021060

counters: import-ncu malformed
  $ rlx import-ncu tests/fixtures/ncu/malformed/ragged.csv
  stderr: rlx import-ncu: .*ragged\.csv:4: ragged row: 27 fields, the header has 28 (re)
  [1]

counters: import-ncu reads the details page of ncu --csv
  $ rlx import-ncu tests/fixtures/ncu/details_seed002.csv
  stdout contains: details_seed002\.csv: 3 kernel launches \(2 distinct\), 1 process.*flops_fp32 +5\.37136e\+08 FLOP.*dram_bytes +5\.3255e\+06 byte.*seconds +0\.001524 s (re)

counters: import-ncu names the metrics it cannot use
  $ rlx import-ncu tests/fixtures/ncu/details_seed002.csv
  stdout ends with: \n  not used, not additive (rlx sums only .sum metrics over kernels): Registers Per Thread, dram__throughput.avg.pct_of_peak_sustained_elapsed, sm__throughput.avg.pct_of_peak_sustained_elapsed (esc)

counters: import-ncu refuses bytes in seconds
  $ rlx import-ncu tests/fixtures/ncu/malformed/bytes_in_time.csv
  stderr starts with: rlx import-ncu: .*bytes_in_time\.csv:2: column "dram__bytes_read\.sum": unit "usecond" is a time, but the metric counts bytes (re)
  [1]

counters: import-ncu --iterations needs --run
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv --iterations 2
  stderr contains: rlx import-ncu: --iterations is only used with --run LABEL
  [2]

# Seed 000's nvprof-era flop_count_sp in a CSV (one kernel, DRAM 1,000 + 500 bytes, PCIe read 64):
# named with what replaced it; the write half of PCIe is missing.
counters: import-ncu names seed 000's nvprof-era metrics
  $ rlx import-ncu tests/fixtures/ncu/seed000_nvprof_names.csv
  stdout ends with:
    dram_bytes +1500 byte (re)
  .*  pcie_bytes +64 byte (re)
  .*  missing metrics \(counted as 0\): pcie__write_bytes\.sum (re)
    not used, nvprof-era names (current ncu rejects them; collect the current ones in code/metric_names_ncu.txt of rlx export --layout seed): flop_count_sp (now flops_fp32 = fadd + fmul + 2 x ffma)

# The range is the option spec's (min = 1), worded as every CLI range check.
counters: import-ncu --iterations 0
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv --run a --db x.db --iterations 0
  stderr:
  rlx import-ncu: --iterations must be an integer from 1 to 1000000000, got '0'
  Try 'rlx import-ncu --help'.
  [2]

counters: import-ncu --db of a missing database
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv --run x --db /nonexistent/dir/x.db
  stderr starts with: rlx import-ncu:\x20 (esc)
  [1]

counters: import-ncu without a file
  $ rlx import-ncu
  stderr contains: rlx import-ncu: missing FILE
  [2]

counters: import-ncu --run needs --db
  $ rlx import-ncu tests/fixtures/ncu/two_processes.csv --run x
  stderr contains: rlx import-ncu: --run needs --db PATH
  [2]

counters: import-ncu --run attaches to the run with a measured roofline point
  $ rlx run tests/e2e/counters/attach.lua
  stdout ends with:
  stored 28 counters with run 'r18-b2' \(study 'ncu-test'\).*measured roofline point \(ncu\) dram: AI 0\.789 FLOP/byte, 0\.04108 GFLOP/s (re)
  measured roofline point \(ncu\) l2: AI 0\.329 FLOP/byte.*dram__bytes_read\.sum\t6\.657e\+06\tbyte\tncu (re)
  dram_bytes\t1.0407e+07\tbyte\tncu:derived (esc)
  flops_fp32\t4.02106e+06\tflop\tncu:derived (esc)
  iterations\t2\tcount\tncu:derived (esc)
  seconds\t0.000233\tsecond\tncu:derived (esc)
  r18-b2\tdram\tncu\t4.10775e+06 5.2035e+06 0.789421 0.04107753\t0.1 (esc)
  .*stored 27 counters with run 'old'.*old points\t1 (re)
  .*old\t2\.05388e\+06 0\.01026938 (re)
  stderr contains: rlx import-ncu: no roofline point for run 'old': it has no counted iterations .*import again with --iterations N (re)

counters: import-ncu --run with an unknown label
  $ rlx run tests/e2e/counters/missing_label.lua
  stderr starts with: rlx import-ncu: no run labelled 'nope' in .*counters_missing_label\.db; list the labels with: rlx runs\x20 (re)
  [1]

# rlx.train{counters = true} on CPU: the perf_event collector sees the measured iterations; this
# project's VMs refuse the hardware events (reported with the reason), software events are counted.
# perf_event counts the counted iterations (3 by default), run after the 2 timed ones.
counters: train with counters on cpu
  $ rlx -e "local r = rlx.train{model = 'resnet18', batch = 2, iters = 2, warmup = 1, input = 32, classes = 10, counters = true} local c = r.counters print(r.ok, c.source, c.iterations, r.counter_iters, #r.samples, #r.counted_samples, (c.values.task_clock or 0) > 0 or c.unsupported.task_clock ~= nil, c.values.page_faults ~= nil or c.unsupported.page_faults ~= nil, c.values.cycles ~= nil or c.unsupported.cycles:find('perf_event_open', 1, true) ~= nil, c.values.instructions ~= nil or c.unsupported.instructions ~= nil)"
  true\tperf_event\t3\t3\t2\t3\ttrue\ttrue\ttrue\ttrue (esc)

counters: cuda without CUPTI compiled in
  requires: not cupti
  $ rlx -e "print(rlx.counters.available('cuda').reason)"
  CUPTI support is not compiled in (rebuild with the CUDA toolkit installed)

# Tests that need CUPTI compiled in (the CUDA toolkit at build time; scripts/gpu or /usr/local/cuda).
counters: list GH100 plan without a GPU
  requires: cupti
  $ rlx -e "local l = rlx.counters.list{device = 'cuda', chip = 'GH100'} print(l.chip, #l.groups[1], l.groups[1][1])"
  GH100\t5\tgpu__time_duration.sum (esc)

counters: list unknown chip (C++ exception path)
  requires: cupti
  $ rlx -e "rlx.counters.list{device = 'cuda', chip = 'XYZ1'}"
  stderr contains: rlx.counters.list: option 'chip' is invalid: CUPTI host API does not know chip 'XYZ1'
  [1]

# Three machines: no driver (CI), a driver whose GPU is hidden (CUDA_VISIBLE_DEVICES=, as
# scripts/gpu/build-and-test.sh runs ctest), a GPU.
counters: available cuda without a driver or with one
  requires: cupti
  $ rlx -e "local a = rlx.counters.available('cuda') print(a.source, a.available or a.reason)"
  cupti\t(true|no NVIDIA driver \(libcuda\.so\.1 not found\)|cuInit failed: CUDA_ERROR_NO_DEVICE \(no usable NVIDIA GPU\)) (re)

counters: --list cuda --chip GH100
  requires: cupti
  $ rlx counters --list --device cuda --chip GH100
  stdout contains: chip GH100:.*yes +sm__ops_path_tensor_src_fp16\.sum.*no +sm__ops_path_tensor_src_fp16_dst_fp32\.sum +tensor +not a metric on this chip (re)

counters: version reports CUPTI compiled in
  requires: cupti
  $ rlx version
  stdout contains: CUPTI +API [0-9]+ (re)
