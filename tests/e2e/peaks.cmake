# End-to-end tests of rlx.peaks, rlx.roofline and `rlx peaks` (issue 6). Numbers are worked by hand
# in the scripts under tests/e2e/peaks/; measured figures are only checked to exist, never timed.
set(P ${CMAKE_SOURCE_DIR}/tests/e2e/peaks)
rlx_e2e(NAME "peaks: roofline points worked by hand" ARGS run ${P}/roofline_cases.lua STDOUT
  "^memory ai=17\\.13 gflops=1649\\.5 attainable=15418\\.7 ridge=17\\.44 bound=memory eff=0\\.1070 above=false\ncompute ai=100\\.00 gflops=10000\\.0 attainable=15700\\.0 ridge=17\\.44 bound=compute eff=0\\.6369 above=false\nabove ai=2\\.00 gflops=400\\.0 attainable=200\\.0 ridge=10\\.00 bound=memory eff=2\\.0000 above=true\nv100-fp16 ai=17\\.13 gflops=1649\\.5 attainable=15418\\.7 ridge=138\\.89 bound=memory eff=0\\.1070 above=false\nfields\tfp16_tensor_gflops\tdram_gbps\nenv-l2 ai=10\\.00 gflops=1000\\.0 attainable=500\\.0 ridge=40\\.00 bound=memory eff=2\\.0000 above=true\n$")
rlx_e2e(NAME "peaks: roofline.point wrong type" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 'many', bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.point: option 'flops' must be a number, got \"many\"")
rlx_e2e(NAME "peaks: roofline.point missing key" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 1, bytes = 1, peak_flops = 1, peak_bw = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.point: option 'seconds' is required \\(a number\\)")
rlx_e2e(NAME "peaks: roofline.point unknown key" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1, peak_gbps = 2}"
  STDERR "rlx\\.roofline\\.point: unknown option 'peak_gbps' \\(valid options: bytes, ceiling, flops, level, peak_bw, peak_flops, peaks, precision, seconds\\)")
rlx_e2e(NAME "peaks: roofline.point C++ check of zero bytes" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 1, bytes = 0, seconds = 1, peak_flops = 1, peak_bw = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.point: option 'bytes' must be a finite number > 0 \\(byte\\)")
rlx_e2e(NAME "peaks: roofline.point without roofs" EXIT 1 ARGS -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1}"
  STDERR "rlx\\.roofline\\.point: option 'peak_flops' is required \\(FLOP/s\\), or give peaks= \\(a peaks table\\)")
rlx_e2e(NAME "peaks: roofline.point peaks table without the precision" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peaks = rlx.peaks.datasheet('Tesla T4'), precision = 'bf16'}"
  STDERR "rlx\\.roofline\\.point: the peaks table has no 'bf16_tensor_gflops' field")
rlx_e2e(NAME "peaks: roofline.point unknown precision" EXIT 1
  ARGS -e "rlx.roofline.point{flops = 1, bytes = 1, seconds = 1, peak_flops = 1, peak_bw = 1, precision = 'fp8'}"
  STDERR "option 'precision' must be one of bf16, fp16, fp32, fp64, tf32, got \"fp8\"")
rlx_e2e(NAME "peaks: roofline.ceilings of a datasheet entry"
  ARGS -e "for _, c in ipairs(rlx.roofline.ceilings(rlx.peaks.datasheet('NVIDIA A100-SXM4-40GB'))) do io.write(c.name, '=', string.format('%g', c.value), ' ') end"
  STDOUT "^bf16_tensor_gflops=3\\.12e\\+14 fp16_tensor_gflops=3\\.12e\\+14 tf32_tensor_gflops=1\\.56e\\+14 fp16_gflops=7\\.8e\\+13 bf16_gflops=3\\.9e\\+13 fp32_gflops=1\\.95e\\+13 fp64_tensor_gflops=1\\.95e\\+13 fp64_gflops=9\\.7e\\+12 dram_gbps=1\\.555e\\+12 $")
rlx_e2e(NAME "peaks: roofline.ceilings wrong type" EXIT 1 ARGS -e "rlx.roofline.ceilings(42)"
  STDERR "rlx\\.roofline\\.ceilings: expected a peaks table, got number")
rlx_e2e(NAME "peaks: roofline.attainable" ARGS -e "print(rlx.roofline.attainable(5, 1e12, 1e11), rlx.roofline.attainable(50, 1e12, 1e11))"
  STDOUT "^500000000000\t1000000000000\n$")
rlx_e2e(NAME "peaks: roofline.attainable wrong type" EXIT 1 ARGS -e "rlx.roofline.attainable('x', 1, 1)"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.attainable: argument 1 must be a number, got string")
# Issue 32: a point known by its AI and rate is placed by the same C++ (roofline_place): ai 2 on
# 1000 GFLOP/s and 100 GB/s: roof min(2 x 100, 1000) = 200, ridge 10, memory-bound; 400 GFLOP/s is
# above the memory roof, not the compute roof.
rlx_e2e(NAME "peaks: roofline.place by the point's rules" ARGS -e
  "local p = rlx.roofline.place{ai = 2, flops_per_s = 400e9, peak_flops = 1e12, peak_bw = 100e9} print(p.attainable_gflops, p.ridge_ai, p.bound, p.above_roof, p.above_memory_roof, p.above_compute_roof, p.flops, rlx.roofline.ridge(1e12, 100e9))"
  STDOUT "^200\t10\tmemory\ttrue\ttrue\tfalse\tnil\t10\n$")
rlx_e2e(NAME "peaks: roofline.place unknown key" EXIT 1
  ARGS -e "rlx.roofline.place{ai = 1, flops_per_s = 1, peak_flops = 1, peak_bw = 1, gflops = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.place: unknown option 'gflops' \\(valid options: ai, flops_per_s, peak_bw, peak_flops\\)")
rlx_e2e(NAME "peaks: roofline.place missing key" EXIT 1
  ARGS -e "rlx.roofline.place{ai = 1, peak_flops = 1, peak_bw = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.place: option 'flops_per_s' is required \\(a number\\)")
rlx_e2e(NAME "peaks: roofline.place C++ check of a negative AI" EXIT 1
  ARGS -e "rlx.roofline.place{ai = -1, flops_per_s = 1, peak_flops = 1, peak_bw = 1}"
  STDERR "\\(command line\\):1: rlx\\.roofline\\.place: option 'ai' must be a finite number >= 0 \\(FLOP/byte\\)")
rlx_e2e(NAME "peaks: roofline.for_run measured and estimated" ARGS run ${P}/for_run.lua STDOUT
  "^estimated dram fp32 ai=10\\.00 gflops=20\\.00 attainable=50\\.00 bound=memory eff=0\\.400\nrows\t1\nestimated dram bf16 ai=80\\.00 gflops=80\\.00 attainable=40\\.00 bound=compute eff=2\\.000\nrows\t1\nmeasured dram fp32 ai=20\\.00 gflops=40\\.00 attainable=100\\.00 bound=compute eff=0\\.400\nmeasured l2 fp32 ai=5\\.00 gflops=40\\.00 attainable=nil bound=nil eff=nil\nrows\t2\nmeasured dram fp32 ai=20\\.00 gflops=20\\.00 attainable=100\\.00 bound=compute eff=0\\.200\nrows\t1\nestimated dram fp32 ai=10\\.00 gflops=20\\.00 attainable=50\\.00 bound=memory eff=0\\.400\nrows\t1\nncu\nestimated dram fp32 ai=10\\.00 gflops=20\\.00 attainable=nil bound=nil eff=nil\nrows\t1\nrows\t0\n$")
# Issue 22: one roof policy for every precision (fp32 FMA, bf16 VDPBF16PS / AMX / emulated, TF32
# tensor for fp32 runs with tf32 = true, GEMM as the second ceiling), worked by hand in the script.
rlx_e2e(NAME "peaks: one roof policy per precision, emulated bf16 and TF32" ARGS run ${P}/roof_policy.lua STDOUT
  "^native fp32 fp32_gflops 343 FP32 FMA vector emulated=false gemm=290 GEMM FP32\nnative bf16 bf16_gflops 172 BF16 VDPBF16PS vector emulated=false gemm=168 GEMM BF16\namx bf16 bf16_tensor_gflops 4000 BF16 AMX tensor emulated=false gemm=1800 GEMM BF16\nemulated bf16 bf16_gflops 343 BF16 emulated \\(FP32 FMA\\) vector emulated=true gemm=60 GEMM BF16 \\(emulated\\)\nemulated fp32 ai=5\\.000 gflops=60\\.00 roof=fp32_gflops ridge=8\\.863 attainable=193\\.50 bound=memory eff=0\\.3101 above=false\nemulated bf16 ai=5\\.000 gflops=35\\.29 roof=bf16_gflops ridge=8\\.863 attainable=193\\.50 bound=memory eff=0\\.1824 above=false\nold bf16 gemm_bf16_gflops 50 GEMM BF16 gemm emulated=false gemm=50 GEMM BF16\nnote\tthe measured GEMM is the roof \\(no bf16 arithmetic peak measured: bf16_tensor_gflops, bf16_gflops\\)\ncuda fp32 gemm_fp32_gflops 19000 GEMM FP32 gemm emulated=false gemm=19000 GEMM FP32\nreference\tfp32_gflops\t19500\ntf32 tf32 gemm_tf32_gflops 120000 GEMM TF32 gemm emulated=false gemm=120000 GEMM TF32\norigin\tmeasured\tfp32 run with tf32 = true: judged against a TF32 roof; the measured GEMM is the roof \\(no tf32 arithmetic peak measured: tf32_tensor_gflops, tf32_gflops\\)\ntf32 tf32 ai=100\\.000 gflops=100000\\.00 roof=gemm_tf32_gflops ridge=85\\.714 attainable=120000\\.00 bound=compute eff=0\\.8333 above=false\nfp32 fp32 ai=100\\.000 gflops=100000\\.00 roof=gemm_fp32_gflops ridge=13\\.571 attainable=19000\\.00 bound=compute eff=5\\.2632 above=true\ncpu-tf32\tfp32\tfp32_gflops\ttf32 = true has no effect on the CPU: judged against the FP32 roof\n$")
# A point above its own roof is flagged in rlx.roofline.suspect, the figure and the report, with the
# measurement to suspect; the report's peaks table shows best, median, spread, repeats and mode.
rlx_e2e(NAME "peaks: a point above its own roof is flagged in the figure and the report" ARGS run ${P}/roof_flags.lua
  STDOUT "^above its compute roof \\(98\\.7 GFLOP/s against a roof of 64\\.3\\): suspect fp32_gflops \\(FP32 FMA, measured quick, best of 5, spread 21\\.5 %\\), else the FLOP count \\(analytic, rlx\\.model\\.summary\\)\nmemory\tthe byte count \\(analytic: every tensor's traffic counted at DRAM, though caches serve part of it\\)\ndram_gbps \\(DRAM, measured full, best of 5, spread 2\\.0 %\\)\nnil\n10\t9\t12\t3\t3\tfalse\ttrue\nfigure\tfp32\tbs4!\t23\\.47\nfigure\tbf16\tbs4!\t11\\.74\nsubtitle\ttrue\nceilings\tFP32 FMA = BF16 emulated=5, GEMM FP32( on BLAS)? \\(reference: training points exceed it\\)=4s, GEMM BF16 \\(emulated\\)( on BLAS)? \\(reference: training points exceed it\\)=3s\n(ok\t[^\n]*\n){13}$")
rlx_e2e(NAME "peaks: roofline.for_run unknown key" EXIT 1 ARGS -e "rlx.roofline.for_run({}, {peak = {}})"
  STDERR "rlx\\.roofline\\.for_run: unknown option 'peak' \\(valid options: complexity, datasheet, peaks, precision, tf32\\)")
rlx_e2e(NAME "peaks: roofline.for_run wrong type" EXIT 1 ARGS -e "rlx.roofline.for_run('run')"
  STDERR "rlx\\.roofline\\.for_run: expected a run result table, got string")
rlx_e2e(NAME "peaks: roofline.for_run option of the wrong type" EXIT 1 ARGS -e "rlx.roofline.for_run({}, {peaks = 3})"
  STDERR "rlx\\.roofline\\.for_run: option 'peaks' must be a table, got 3")

rlx_e2e(NAME "peaks: datasheet entries, matching, define" ARGS run ${P}/datasheet.lua STDOUT
  "^NVIDIA H100 80GB HBM3 -> NVIDIA H100 SXM5 80GB fp32=67000 tf32=494500 fp16t=989500 bf16t=989500 fp64=34000 dram=3350 url\nNVIDIA A100-SXM4-40GB -> NVIDIA A100-SXM4-40GB fp32=19500 tf32=156000 fp16t=312000 bf16t=312000 fp64=9700 dram=1555 url\nTesla V100-SXM2-16GB -> Tesla V100-SXM2 fp32=15700 tf32=nil fp16t=125000 bf16t=nil fp64=7800 dram=900 url\nnvidia a100-sxm4-80gb -> NVIDIA A100-SXM4-80GB .* dram=2039 url\nNVIDIA GeForce RTX 4090 -> .* fp32=82600 .*dram=1008 url\nNVIDIA H200 -> NVIDIA H200 .*dram=4800 url\nTesla T4 -> Tesla T4 fp32=8100 .*dram=320 url\nNVIDIA L4 -> NVIDIA L4 .*dram=300 url\nNVIDIA A10G -> NVIDIA A10G .*dram=600 url\nNVIDIA H100 PCIe -> NVIDIA H100 PCIe fp32=51000 .*dram=2000 url\nNVIDIA A100 80GB PCIe -> .*dram=1935 url\nNVIDIA GeForce RTX 3090 -> .*dram=936 url\nTesla V100-PCIE-32GB -> Tesla V100-PCIE fp32=14000 .*dram=900 url\nNVIDIA A100-PCIE-40GB -> .*dram=1555 url\nNVIDIA B200\tnil\nentries\t16\twith url, dram and fp32\t16\nACME X1 -> My Accelerator fp32=1000 .*dram=100 url\nNVIDIA H100 80GB HBM3 -> H100 as clocked here fp32=60000 .*dram=3000 \\?\norigin\tuser\nNVIDIA H100 80GB HBM3 -> NVIDIA H100 SXM5 80GB fp32=67000 .*\nACME X1\tnil\nTesla T4 -> Tesla T4 fp32=8100 .*\n$")
rlx_e2e(NAME "peaks: datasheet wrong type" EXIT 1 ARGS -e "rlx.peaks.datasheet(42)"
  STDERR "\\(command line\\):1: rlx\\.peaks\\.datasheet: expected a device name \\(string\\), got number")
rlx_e2e(NAME "peaks: define missing source" EXIT 1 ARGS -e "rlx.peaks.define{name = 'x', fp32_gflops = 1}"
  STDERR "rlx\\.peaks\\.define: option 'source' is required \\(a string\\)")
rlx_e2e(NAME "peaks: define unknown key" EXIT 1 ARGS -e "rlx.peaks.define{name = 'x', source = 'y', fp32_tflops = 1}"
  STDERR "rlx\\.peaks\\.define: unknown option 'fp32_tflops' \\(valid options: architecture, bf16_gflops, ")
rlx_e2e(NAME "peaks: define wrong type" EXIT 1 ARGS -e "rlx.peaks.define{name = 'x', source = 'y', dram_gbps = '900'}"
  STDERR "rlx\\.peaks\\.define: option 'dram_gbps' must be a number >= 0, got \"900\"")
rlx_e2e(NAME "peaks: define without figures" EXIT 1 ARGS -e "rlx.peaks.define{name = 'x', source = 'y'}"
  STDERR "rlx\\.peaks\\.define: entry 'x' has no peak figure")

rlx_e2e(NAME "peaks: measure quick fp64 and dram"
  ARGS -e "local p = rlx.peaks.measure{quick = true, repeats = 2, only = {'fp64', 'dram'}} print(p.device, p.source, p.fp64_gflops > 0, p.dram_gbps > 0, p.stats.fp64_gflops.repeats, p.fp32_gflops, p.threads == #rlx.peaks.cpu_info().cores, type(p.spread.dram_gbps))"
  STDOUT "^cpu\tmeasured\ttrue\ttrue\t2\tnil\ttrue\tnumber\n$")
rlx_e2e(NAME "peaks: measure wrong type" EXIT 1 ARGS -e "rlx.peaks.measure{repeats = 'many'}"
  STDERR "\\(command line\\):1: rlx\\.peaks\\.measure: option 'repeats' must be an integer")
rlx_e2e(NAME "peaks: measure unknown key" EXIT 1 ARGS -e "rlx.peaks.measure{devices = 'cpu'}"
  STDERR "rlx\\.peaks\\.measure: unknown option 'devices' \\(valid options: clock, device, isa, only, quick, remeasure, repeats, spread_limit_pct, threads\\)")
rlx_e2e(NAME "peaks: measure unknown figure" EXIT 1 ARGS -e "rlx.peaks.measure{only = 'l4'}"
  STDERR "rlx\\.peaks\\.measure: option 'only' names unknown figure 'l4' for device cpu")
rlx_e2e(NAME "peaks: measure by wall clock, one thread"
  ARGS -e "local p = rlx.peaks.measure{quick = true, repeats = 1, only = 'l1', clock = 'wall', threads = 1} print(p.clock, p.threads, p.l1_gbps > 0, p.method.l1_gbps:match('wall clock') ~= nil)"
  STDOUT "^wall	1	true	true
$")
rlx_e2e(NAME "peaks: measure by the default clock is wall, cpu on request"
  ARGS -e "local a = rlx.peaks.measure{quick = true, repeats = 1, only = 'fp64', threads = 1} local b = rlx.peaks.measure{quick = true, repeats = 1, only = 'fp64', threads = 1, clock = 'cpu'} print(a.clock, b.clock, b.method.fp64_gflops:match('cpu clock') ~= nil)"
  STDOUT "^wall\tcpu\ttrue\n$")
rlx_e2e(NAME "peaks: measure bad clock" EXIT 1 ARGS -e "rlx.peaks.measure{clock = 'sundial'}"
  STDERR "rlx\\.peaks\\.measure: option 'clock' must be one of cpu, wall, got \"sundial\"")
rlx_e2e(NAME "peaks: measure too many threads" EXIT 1 ARGS -e "rlx.peaks.measure{threads = 4096, only = 'fp64'}"
  STDERR "rlx\\.peaks\\.measure: threads=4096 but this process may use [0-9]+ cores")
rlx_e2e(NAME "peaks: measure in a chosen ISA"
  ARGS -e "local p = rlx.peaks.measure{isa = 'scalar', only = 'fp64', quick = true, repeats = 1} print(p.isa, p.fp64_gflops > 0, p.method.fp64_gflops:match('12 FMA chains of 1 lanes') ~= nil)"
  STDOUT "^scalar	true	true
$")
rlx_e2e(NAME "peaks: measure unknown ISA" EXIT 1 ARGS -e "rlx.peaks.measure{isa = 'sse'}"
  STDERR "rlx\\.peaks\\.measure: option 'isa' must be one of avx2\\+fma, avx512, neon, scalar, sve, got \"sse\"")
rlx_e2e(NAME "peaks: cpu_info"
  ARGS -e "local c = rlx.peaks.cpu_info() print(type(c.name), #c.cores >= 1, c.caches[1].level, c.cuda_available)"
  STDOUT "^string	true	1	false
$")
rlx_e2e(NAME "peaks: summarize" ARGS -e "local s = rlx.peaks.summarize{3, 1, 2, 4} print(s.best, s.median, s.worst, s.spread_pct)"
  STDOUT "^4\t2\\.5\t1\t75\n$")
rlx_e2e(NAME "peaks: summarize wrong type" EXIT 1 ARGS -e "rlx.peaks.summarize{'a'}"
  STDERR "rlx\\.peaks\\.summarize: expected a non-empty array of numbers")

rlx_e2e(NAME "peaks: cli --help" ARGS peaks --help STDOUT "usage: rlx peaks \\[--device cpu\\|cuda\\] \\[--json\\] \\[--db PATH\\]")
rlx_e2e(NAME "peaks: cli quick measurement" ARGS peaks --quick --repeats 1 --only fp32,l1
  STDOUT "\\((avx512|avx2\\+fma|sve|neon|scalar), [0-9]+ threads, wall clock, quick measurement, below a full one\\)\n  L1 bandwidth +[0-9.]+ GB/s +median.*\n  FP32 FMA peak +[0-9.]+ GFLOP/s")
rlx_e2e(NAME "peaks: cli --json" ARGS peaks --quick --repeats 1 --only fp64 --json STDOUT "^\\{.*\"fp64_gflops\":[0-9.e+]+.*\\}\n$")
rlx_e2e(NAME "peaks: cli --datasheet" ARGS peaks --datasheet "NVIDIA H100 80GB HBM3"
  STDOUT "^NVIDIA H100 SXM5 80GB .*dram_gbps +3350\\.0 GB/s.*source: +https://")
rlx_e2e(NAME "peaks: cli --datasheet unknown" EXIT 1 ARGS peaks --datasheet "NVIDIA B200"
  STDERR "^rlx peaks: no datasheet entry matches 'NVIDIA B200' \\(see rlx peaks --list\\)\n$")
rlx_e2e(NAME "peaks: cli --list" ARGS peaks --list STDOUT "Tesla V100-SXM2\n.*NVIDIA GeForce RTX 3090\n$")
rlx_e2e(NAME "peaks: cli bad device" EXIT 2 ARGS peaks --device tpu STDERR "--device must be one of cpu, cuda, got 'tpu'")
rlx_e2e(NAME "peaks: cli unknown option" EXIT 2 ARGS peaks --bogus STDERR "rlx peaks: unknown option '--bogus'")
rlx_e2e(NAME "peaks: cli --db stores the peaks" ARGS run ${P}/db.lua
  STDOUT "\nstored fp64\ttrue\tdram\ttrue\tunit\tGFLOP/s\tGB/s\tspread\tnumber\tsource\tmeasured\n$")

# The CPU-only build's answer to device = "cuda" (the C++ exception path); a CUDA build measures.
if(NOT RLX_HAVE_TORCH_CUDA)
rlx_e2e(NAME "peaks: measure cuda in a CPU-only build (C++ exception)" EXIT 1 ARGS -e "rlx.peaks.measure{device = 'cuda'}"
  STDERR "\\(command line\\):1: rlx\\.peaks\\.measure: device 'cuda' needs rlx built against a CUDA LibTorch \\(this build's LibTorch is CPU-only\\). use device='cpu'")
rlx_e2e(NAME "peaks: cli --device cuda without CUDA" EXIT 1 ARGS peaks --device cuda
  STDERR "^rlx peaks: device 'cuda' needs rlx built against a CUDA LibTorch")
endif()
# The GEMM peak reports the threads the product ran on (the BLAS's own count for fp32): with one
# LibTorch thread, one, whatever OpenBLAS build (the OpenMP one follows LibTorch, the pthreads one
# is set to one thread for training).
rlx_e2e(NAME "peaks: gemm reports the threads it ran on"
  ARGS -e "local p = rlx.peaks.measure{quick = true, repeats = 1, only = {'gemm_fp32', 'gemm_bf16'}, threads = 1} print(p.gemm_threads.gemm_fp32_gflops, p.gemm_threads.gemm_bf16_gflops, p.method.gemm_fp32_gflops:match(', 1 threads %(LibTorch set to 1%)') ~= nil)"
  STDOUT "^1\t1\ttrue\n$")
rlx_e2e(NAME "peaks: cli prints the gemm threads" ARGS peaks --quick --repeats 1 --only gemm_fp32 --threads 1
  STDOUT "GEMM fp32 .* on 1 thread\n")
rlx_e2e(NAME "peaks: a CUDA study's roofline at the L2 level, from its stored l2 points and an l2_gbps roof"
  ARGS run ${P}/l2_roofline.lua STDOUT "^l2 roofline ok\n$")
