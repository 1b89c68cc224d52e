# End-to-end tests of rlx.peaks, rlx.roofline and `rlx peaks` (issue 6). Numbers are worked by hand
# in the scripts under tests/e2e/peaks/; measured figures are only checked to exist, never timed.

peaks: roofline points worked by hand
  $ rlx run tests/e2e/peaks/roofline_cases.lua
  memory ai=17.13 gflops=1649.5 attainable=15418.7 ridge=17.44 bound=memory eff=0.1070 above=false
  compute ai=100.00 gflops=10000.0 attainable=15700.0 ridge=17.44 bound=compute eff=0.6369 above=false
  above ai=2.00 gflops=400.0 attainable=200.0 ridge=10.00 bound=memory eff=2.0000 above=true
  v100-fp16 ai=17.13 gflops=1649.5 attainable=15418.7 ridge=138.89 bound=memory eff=0.1070 above=false
  fields\tfp16_tensor_gflops\tdram_gbps (esc)
  env-l2 ai=10.00 gflops=1000.0 attainable=500.0 ridge=40.00 bound=memory eff=2.0000 above=true

peaks: roofline.point wrong type
  $ rlx -e "rlx.roofline.point{flops = 'many', bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1}"
  stderr contains: (command line):1: rlx.roofline.point: option 'flops' must be a number, got "many"
  [1]

peaks: roofline.point missing key
  $ rlx -e 'rlx.roofline.point{flops = 1, bytes = 1, peak_flops = 1, peak_bw = 1}'
  stderr contains: (command line):1: rlx.roofline.point: option 'seconds' is required (a number)
  [1]

peaks: roofline.point unknown key
  $ rlx -e 'rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1, peak_gbps = 2}'
  stderr contains: rlx.roofline.point: unknown option 'peak_gbps' (valid options: bytes, ceiling, flops, level, peak_bw, peak_flops, peaks, precision, seconds)
  [1]

peaks: roofline.point C++ check of zero bytes
  $ rlx -e 'rlx.roofline.point{flops = 1, bytes = 0, seconds = 1, peak_flops = 1, peak_bw = 1}'
  stderr contains: (command line):1: rlx.roofline.point: option 'bytes' must be a finite number > 0 (byte)
  [1]

peaks: roofline.point without roofs
  $ rlx -e 'rlx.roofline.point{flops = 1, bytes = 1, seconds = 1}'
  stderr contains: rlx.roofline.point: option 'peak_flops' is required (FLOP/s), or give peaks= (a peaks table)
  [1]

peaks: roofline.point peaks table without the precision
  $ rlx -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peaks = rlx.peaks.datasheet('Tesla T4'), precision = 'bf16'}"
  stderr contains: rlx.roofline.point: the peaks table has no 'bf16_tensor_gflops' field
  [1]

peaks: roofline.point unknown precision
  $ rlx -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1, precision = 'fp8'}"
  stderr contains: option 'precision' must be one of bf16, fp16, fp32, fp64, tf32, got "fp8"
  [1]

peaks: roofline.ceilings of a datasheet entry
  $ rlx -e "for _, c in ipairs(rlx.roofline.ceilings(rlx.peaks.datasheet('NVIDIA A100-SXM4-40GB'))) do io.write(c.name, '=', string.format('%g', c.value), ' ') end"
  bf16_tensor_gflops=3.12e+14 fp16_tensor_gflops=3.12e+14 tf32_tensor_gflops=1.56e+14 fp16_gflops=7.8e+13 bf16_gflops=3.9e+13 fp32_gflops=1.95e+13 fp64_tensor_gflops=1.95e+13 fp64_gflops=9.7e+12 dram_gbps=1.555e+12\x20 (esc) (no-eol)

peaks: roofline.ceilings wrong type
  $ rlx -e 'rlx.roofline.ceilings(42)'
  stderr contains: rlx.roofline.ceilings: expected a peaks table, got number
  [1]

peaks: roofline.attainable
  $ rlx -e 'print(rlx.roofline.attainable(5, 1e12, 1e11), rlx.roofline.attainable(50, 1e12, 1e11))'
  500000000000\t1000000000000 (esc)

peaks: roofline.attainable wrong type
  $ rlx -e "rlx.roofline.attainable('x', 1, 1)"
  stderr contains: (command line):1: rlx.roofline.attainable: argument 1 must be a number, got string
  [1]

# Issue 32: a point known by its AI and rate is placed by the same C++ (roofline_place): ai 2 on
# 1000 GFLOP/s and 100 GB/s: roof min(2 x 100, 1000) = 200, ridge 10, memory-bound; 400 GFLOP/s is
# above the memory roof, not the compute roof.
peaks: roofline.place by the point's rules
  $ rlx -e 'local p = rlx.roofline.place{ai = 2, flops_per_s = 400e9, peak_flops = 1e12, peak_bw = 100e9} print(p.attainable_gflops, p.ridge_ai, p.bound, p.above_roof, p.above_memory_roof, p.above_compute_roof, p.flops, rlx.roofline.ridge(1e12, 100e9))'
  200\t10\tmemory\ttrue\ttrue\tfalse\tnil\t10 (esc)

peaks: roofline.place unknown key
  $ rlx -e 'rlx.roofline.place{ai = 1, flops_per_s = 1, peak_flops = 1, peak_bw = 1, gflops = 1}'
  stderr contains: (command line):1: rlx.roofline.place: unknown option 'gflops' (valid options: ai, flops_per_s, peak_bw, peak_flops)
  [1]

peaks: roofline.place missing key
  $ rlx -e 'rlx.roofline.place{ai = 1, peak_flops = 1, peak_bw = 1}'
  stderr contains: (command line):1: rlx.roofline.place: option 'flops_per_s' is required (a number)
  [1]

peaks: roofline.place C++ check of a negative AI
  $ rlx -e 'rlx.roofline.place{ai = -1, flops_per_s = 1, peak_flops = 1, peak_bw = 1}'
  stderr contains: (command line):1: rlx.roofline.place: option 'ai' must be a finite number >= 0 (FLOP/byte)
  [1]

peaks: roofline.for_run measured and estimated
  $ rlx run tests/e2e/peaks/for_run.lua
  estimated dram fp32 ai=10.00 gflops=20.00 attainable=50.00 bound=memory eff=0.400
  rows\t1 (esc)
  estimated dram bf16 ai=80.00 gflops=80.00 attainable=40.00 bound=compute eff=2.000
  rows\t1 (esc)
  measured dram fp32 ai=20.00 gflops=40.00 attainable=100.00 bound=compute eff=0.400
  measured l2 fp32 ai=5.00 gflops=40.00 attainable=nil bound=nil eff=nil
  rows\t2 (esc)
  measured dram fp32 ai=20.00 gflops=20.00 attainable=100.00 bound=compute eff=0.200
  rows\t1 (esc)
  estimated dram fp32 ai=10.00 gflops=20.00 attainable=50.00 bound=memory eff=0.400
  rows\t1 (esc)
  ncu
  estimated dram fp32 ai=10.00 gflops=20.00 attainable=nil bound=nil eff=nil
  rows\t1 (esc)
  rows\t0 (esc)

# Issue 22: one roof policy for every precision (fp32 FMA, bf16 VDPBF16PS / AMX / emulated, TF32
# tensor for fp32 runs with tf32 = true, GEMM as the second ceiling), worked by hand in the script.
peaks: one roof policy per precision, emulated bf16 and TF32
  $ rlx run tests/e2e/peaks/roof_policy.lua
  native fp32 fp32_gflops 343 FP32 FMA vector emulated=false gemm=290 GEMM FP32
  native bf16 bf16_gflops 172 BF16 VDPBF16PS vector emulated=false gemm=168 GEMM BF16
  amx bf16 bf16_tensor_gflops 4000 BF16 AMX tensor emulated=false gemm=1800 GEMM BF16
  emulated bf16 bf16_gflops 343 BF16 emulated (FP32 FMA) vector emulated=true gemm=60 GEMM BF16 (emulated)
  emulated fp32 ai=5.000 gflops=60.00 roof=fp32_gflops ridge=8.863 attainable=193.50 bound=memory eff=0.3101 above=false
  emulated bf16 ai=5.000 gflops=35.29 roof=bf16_gflops ridge=8.863 attainable=193.50 bound=memory eff=0.1824 above=false
  old bf16 gemm_bf16_gflops 50 GEMM BF16 gemm emulated=false gemm=50 GEMM BF16
  note\tthe measured GEMM is the roof (no bf16 arithmetic peak measured: bf16_tensor_gflops, bf16_gflops) (esc)
  cuda fp32 gemm_fp32_gflops 19000 GEMM FP32 gemm emulated=false gemm=19000 GEMM FP32
  reference\tfp32_gflops\t19500 (esc)
  tf32 tf32 gemm_tf32_gflops 120000 GEMM TF32 gemm emulated=false gemm=120000 GEMM TF32
  origin\tmeasured\tfp32 run with tf32 = true: judged against a TF32 roof; the measured GEMM is the roof (no tf32 arithmetic peak measured: tf32_tensor_gflops, tf32_gflops) (esc)
  tf32 tf32 ai=100.000 gflops=100000.00 roof=gemm_tf32_gflops ridge=85.714 attainable=120000.00 bound=compute eff=0.8333 above=false
  fp32 fp32 ai=100.000 gflops=100000.00 roof=gemm_fp32_gflops ridge=13.571 attainable=19000.00 bound=compute eff=5.2632 above=true
  cpu-tf32\tfp32\tfp32_gflops\ttf32 = true has no effect on the CPU: judged against the FP32 roof (esc)

# A point above its own roof is flagged in rlx.roofline.suspect, the figure and the report, with the
# measurement to suspect; the report's peaks table shows best, median, spread, repeats and mode.
peaks: a point above its own roof is flagged in the figure and the report
  $ rlx run tests/e2e/peaks/roof_flags.lua
  above its compute roof (98.7 GFLOP/s against a roof of 64.3): suspect fp32_gflops (FP32 FMA, measured quick, best of 5, spread 21.5 %), else the FLOP count (analytic, rlx.model.summary)
  memory\tthe byte count (analytic: every tensor's traffic counted at DRAM, though caches serve part of it) (esc)
  dram_gbps (DRAM, measured full, best of 5, spread 2.0 %)
  nil
  10\t9\t12\t3\t3\tfalse\ttrue (esc)
  figure\tfp32\tbs4!\t23.47 (esc)
  figure\tbf16\tbs4!\t11.74 (esc)
  subtitle\ttrue (esc)
  ceilings\tFP32 FMA = BF16 emulated=5, GEMM FP32( on BLAS)? \(reference: training points exceed it\)=4s, GEMM BF16 \(emulated\)( on BLAS)? \(reference: training points exceed it\)=3s (re)
  (ok\t[^\n]*\n){13} (re) (no-eol)

peaks: roofline.for_run unknown key
  $ rlx -e 'rlx.roofline.for_run({}, {peak = {}})'
  stderr contains: rlx.roofline.for_run: unknown option 'peak' (valid options: complexity, datasheet, peaks, precision, tf32)
  [1]

peaks: roofline.for_run wrong type
  $ rlx -e "rlx.roofline.for_run('run')"
  stderr contains: rlx.roofline.for_run: expected a run result table, got string
  [1]

peaks: roofline.for_run option of the wrong type
  $ rlx -e 'rlx.roofline.for_run({}, {peaks = 3})'
  stderr contains: rlx.roofline.for_run: option 'peaks' must be a table, got 3
  [1]

peaks: datasheet entries, matching, define
  $ rlx run tests/e2e/peaks/datasheet.lua
  NVIDIA H100 80GB HBM3 -> NVIDIA H100 SXM5 80GB fp32=67000 tf32=494500 fp16t=989500 bf16t=989500 fp64=34000 dram=3350 url
  NVIDIA A100-SXM4-40GB -> NVIDIA A100-SXM4-40GB fp32=19500 tf32=156000 fp16t=312000 bf16t=312000 fp64=9700 dram=1555 url
  Tesla V100-SXM2-16GB -> Tesla V100-SXM2 fp32=15700 tf32=nil fp16t=125000 bf16t=nil fp64=7800 dram=900 url
  nvidia a100-sxm4-80gb -> NVIDIA A100-SXM4-80GB .* dram=2039 url (re)
  NVIDIA GeForce RTX 4090 -> .* fp32=82600 .*dram=1008 url (re)
  NVIDIA H200 -> NVIDIA H200 .*dram=4800 url (re)
  Tesla T4 -> Tesla T4 fp32=8100 .*dram=320 url (re)
  NVIDIA L4 -> NVIDIA L4 .*dram=300 url (re)
  NVIDIA A10G -> NVIDIA A10G .*dram=600 url (re)
  NVIDIA H100 PCIe -> NVIDIA H100 PCIe fp32=51000 .*dram=2000 url (re)
  NVIDIA A100 80GB PCIe -> .*dram=1935 url (re)
  NVIDIA GeForce RTX 3090 -> .*dram=936 url (re)
  Tesla V100-PCIE-32GB -> Tesla V100-PCIE fp32=14000 .*dram=900 url (re)
  NVIDIA A100-PCIE-40GB -> .*dram=1555 url (re)
  NVIDIA B200\tnil (esc)
  entries\t16\twith url, dram and fp32\t16 (esc)
  ACME X1 -> My Accelerator fp32=1000 .*dram=100 url (re)
  NVIDIA H100 80GB HBM3 -> H100 as clocked here fp32=60000 .*dram=3000 \? (re)
  origin\tuser (esc)
  NVIDIA H100 80GB HBM3 -> NVIDIA H100 SXM5 80GB fp32=67000 .* (re)
  ACME X1\tnil (esc)
  Tesla T4 -> Tesla T4 fp32=8100 .* (re)

peaks: datasheet wrong type
  $ rlx -e 'rlx.peaks.datasheet(42)'
  stderr contains: (command line):1: rlx.peaks.datasheet: expected a device name (string), got number
  [1]

peaks: define missing source
  $ rlx -e "rlx.peaks.define{name = 'x', fp32_gflops = 1}"
  stderr contains: rlx.peaks.define: option 'source' is required (a string)
  [1]

peaks: define unknown key
  $ rlx -e "rlx.peaks.define{name = 'x', source = 'y', fp32_tflops = 1}"
  stderr contains: rlx.peaks.define: unknown option 'fp32_tflops' (valid options: architecture, bf16_gflops,\x20 (esc)
  [1]

peaks: define wrong type
  $ rlx -e "rlx.peaks.define{name = 'x', source = 'y', dram_gbps = '900'}"
  stderr contains: rlx.peaks.define: option 'dram_gbps' must be a number >= 0, got "900"
  [1]

peaks: define without figures
  $ rlx -e "rlx.peaks.define{name = 'x', source = 'y'}"
  stderr contains: rlx.peaks.define: entry 'x' has no peak figure
  [1]

peaks: measure quick fp64 and dram
  $ rlx -e "local p = rlx.peaks.measure{quick = true, repeats = 2, only = {'fp64', 'dram'}} print(p.device, p.source, p.fp64_gflops > 0, p.dram_gbps > 0, p.stats.fp64_gflops.repeats, p.fp32_gflops, p.threads == #rlx.peaks.cpu_info().cores, type(p.spread.dram_gbps))"
  cpu\tmeasured\ttrue\ttrue\t2\tnil\ttrue\tnumber (esc)

peaks: measure wrong type
  $ rlx -e "rlx.peaks.measure{repeats = 'many'}"
  stderr contains: (command line):1: rlx.peaks.measure: option 'repeats' must be an integer
  [1]

peaks: measure unknown key
  $ rlx -e "rlx.peaks.measure{devices = 'cpu'}"
  stderr contains: rlx.peaks.measure: unknown option 'devices' (valid options: clock, device, isa, only, quick, remeasure, repeats, spread_limit_pct, threads)
  [1]

peaks: measure unknown figure
  $ rlx -e "rlx.peaks.measure{only = 'l4'}"
  stderr contains: rlx.peaks.measure: option 'only' names unknown figure 'l4' for device cpu
  [1]

peaks: measure by wall clock, one thread
  $ rlx -e "local p = rlx.peaks.measure{quick = true, repeats = 1, only = 'l1', clock = 'wall', threads = 1} print(p.clock, p.threads, p.l1_gbps > 0, p.method.l1_gbps:match('wall clock') ~= nil)"
  wall\t1\ttrue\ttrue (esc)

peaks: measure by the default clock is wall, cpu on request
  $ rlx -e "local a = rlx.peaks.measure{quick = true, repeats = 1, only = 'fp64', threads = 1} local b = rlx.peaks.measure{quick = true, repeats = 1, only = 'fp64', threads = 1, clock = 'cpu'} print(a.clock, b.clock, b.method.fp64_gflops:match('cpu clock') ~= nil)"
  wall\tcpu\ttrue (esc)

peaks: measure bad clock
  $ rlx -e "rlx.peaks.measure{clock = 'sundial'}"
  stderr contains: rlx.peaks.measure: option 'clock' must be one of cpu, wall, got "sundial"
  [1]

peaks: measure too many threads
  $ rlx -e "rlx.peaks.measure{threads = 4096, only = 'fp64'}"
  stderr contains: rlx\.peaks\.measure: threads=4096 but this process may use [0-9]+ cores (re)
  [1]

peaks: measure in a chosen ISA
  $ rlx -e "local p = rlx.peaks.measure{isa = 'scalar', only = 'fp64', quick = true, repeats = 1} print(p.isa, p.fp64_gflops > 0, p.method.fp64_gflops:match('12 FMA chains of 1 lanes') ~= nil)"
  scalar\ttrue\ttrue (esc)

peaks: measure unknown ISA
  $ rlx -e "rlx.peaks.measure{isa = 'sse'}"
  stderr contains: rlx.peaks.measure: option 'isa' must be one of avx2+fma, avx512, neon, scalar, sve, got "sse"
  [1]

peaks: cpu_info
  $ rlx -e 'local c = rlx.peaks.cpu_info() print(type(c.name), #c.cores >= 1, c.caches[1].level, c.cuda_available)'
  string\ttrue\t1\tfalse (esc)

peaks: summarize
  $ rlx -e 'local s = rlx.peaks.summarize{3, 1, 2, 4} print(s.best, s.median, s.worst, s.spread_pct)'
  4\t2.5\t1\t75 (esc)

peaks: summarize wrong type
  $ rlx -e "rlx.peaks.summarize{'a'}"
  stderr contains: rlx.peaks.summarize: expected a non-empty array of numbers
  [1]

peaks: cli --help
  $ rlx peaks --help
  stdout contains: usage: rlx peaks [--device cpu|cuda] [--json] [--db PATH]

peaks: cli quick measurement
  $ rlx peaks --quick --repeats 1 --only fp32,l1
  stdout contains:
  \((avx512|avx2\+fma|sve|neon|scalar), [0-9]+ threads, wall clock, quick measurement, below a full one\) (re)
    L1 bandwidth +[0-9.]+ GB/s +median.* (re)
    FP32 FMA peak +[0-9.]+ GFLOP/s (re)

peaks: cli --json
  $ rlx peaks --quick --repeats 1 --only fp64 --json
  \{.*"fp64_gflops":[0-9.e+]+.*\} (re)

peaks: cli --datasheet
  $ rlx peaks --datasheet 'NVIDIA H100 80GB HBM3'
  stdout starts with: NVIDIA H100 SXM5 80GB .*dram_gbps +3350\.0 GB/s.*source: +https:// (re)

peaks: cli --datasheet unknown
  $ rlx peaks --datasheet 'NVIDIA B200'
  stderr: rlx peaks: no datasheet entry matches 'NVIDIA B200' (see rlx peaks --list)
  [1]

peaks: cli --list
  $ rlx peaks --list
  stdout ends with:
  Tesla V100-SXM2
  .*NVIDIA GeForce RTX 3090 (re)

peaks: cli bad device
  $ rlx peaks --device tpu
  stderr contains: --device must be one of cpu, cuda, got 'tpu'
  [2]

peaks: cli unknown option
  $ rlx peaks --bogus
  stderr contains: rlx peaks: unknown option '--bogus'
  [2]

peaks: cli --db stores the peaks
  $ rlx run tests/e2e/peaks/db.lua
  stdout ends with: \nstored fp64\ttrue\tdram\ttrue\tunit\tGFLOP/s\tGB/s\tspread\tnumber\tsource\tmeasured (esc)

# The CPU-only build's answer to device = "cuda" (the C++ exception path); a CUDA build measures.
peaks: measure cuda in a CPU-only build (C++ exception)
  requires: not cuda-torch
  $ rlx -e "rlx.peaks.measure{device = 'cuda'}"
  stderr contains: \(command line\):1: rlx\.peaks\.measure: device 'cuda' needs rlx built against a CUDA LibTorch \(this build's LibTorch is CPU-only\). use device='cpu' (re)
  [1]

peaks: cli --device cuda without CUDA
  requires: not cuda-torch
  $ rlx peaks --device cuda
  stderr starts with: rlx peaks: device 'cuda' needs rlx built against a CUDA LibTorch
  [1]

# The GEMM peak reports the threads the product ran on (the BLAS's own count for fp32): with one
# LibTorch thread, one, whatever OpenBLAS build (the OpenMP one follows LibTorch, the pthreads one
# is set to one thread for training).
peaks: gemm reports the threads it ran on
  $ rlx -e "local p = rlx.peaks.measure{quick = true, repeats = 1, only = {'gemm_fp32', 'gemm_bf16'}, threads = 1} print(p.gemm_threads.gemm_fp32_gflops, p.gemm_threads.gemm_bf16_gflops, p.method.gemm_fp32_gflops:match(', 1 threads %(LibTorch set to 1%)') ~= nil)"
  1\t1\ttrue (esc)

peaks: cli prints the gemm threads
  $ rlx peaks --quick --repeats 1 --only gemm_fp32 --threads 1
  stdout contains: GEMM fp32 .* on 1 thread\n (re)

peaks: a CUDA study's roofline at the L2 level, from its stored l2 points and an l2_gbps roof
  $ rlx run tests/e2e/peaks/l2_roofline.lua
  l2 roofline ok
