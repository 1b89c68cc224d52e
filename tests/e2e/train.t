# End-to-end tests of rlx.train, rlx.devices and `rlx train` (issue 4). Most use a four-layer model
# (tests/e2e/train/tiny_model.lua) so they run in about a second, with batch = 2, iters = 2,
# warmup = 1, input = 16, classes = 3, threads = 1; the acceptance check uses resnet18 at 64x64.

train: acceptance resnet18 at 64x64
  $ rlx -e "local r = rlx.train{model='resnet18', batch=4, iters=3, warmup=1, input=64, classes=10} print(r.ok, r.images_per_s > 0, #r.samples)"
  true\ttrue\t3 (esc)

train: result fields and their relations
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, label='L1'} local s = 0 for _, x in ipairs(r.samples) do s = s + x end print(r.ok, r.model, r.device, r.precision, r.threads, r.label, r.batch, r.iters, r.data_kind, math.abs(r.seconds - s) < 1e-9, math.abs(r.images_per_s - 4 / r.seconds) < 1e-6 * r.images_per_s, r.iter_s.min <= r.iter_s.median and r.iter_s.median <= r.iter_s.max, r.loss_first == r.loss_first, r.max_rss_bytes > 0, r.device_max_bytes)"
  true\ttiny\tcpu\tfp32\t1\tL1\t2\t2\tsynthetic\ttrue\ttrue\ttrue\ttrue\ttrue\tnil (esc)

train: rlx.train.run is the same call
  $ rlx -e "print(rlx.train.run{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1}.ok)"
  true

train: bf16 on the CPU trains
  $ rlx -e "local r = rlx.train{model='resnet18', precision='bf16', batch=2, iters=2, warmup=1, input=32, classes=10} print(r.ok, r.precision, r.loss_last == r.loss_last)"
  true\tbf16\ttrue (esc)

train: bf16 on the CPU trains mobilenet_v2 (relu6 backward)
  $ rlx -e "local r = rlx.train{model='mobilenet_v2', precision='bf16', batch=2, iters=1, warmup=0, input=32, classes=10} print(r.ok, r.error, r.loss_last == r.loss_last)"
  true\tnil\ttrue (esc)

train: memory_format contiguous, grad_accum, deterministic, nvtx note
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, memory_format='contiguous', grad_accum=2, deterministic=true, cudnn_benchmark=true, nvtx=true, lr=0.01, momentum=0, weight_decay=0, seed=3} print(r.ok, r.grad_accum, r.note ~= nil, r.memory_format)"
  true\t2\ttrue\tcontiguous (esc)

train: memory_format defaults to channels_last for a CNN, contiguous for an MLP
  $ rlx -e "local a = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1} local b = rlx.train{model={name='mlp', layers={{'flatten'}, {'linear'}}}, batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1} print(a.memory_format, b.memory_format, a.page_faults >= 0)"
  channels_last\tcontiguous\ttrue (esc)

train: bad memory_format names the valid ones
  $ rlx -e "rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, memory_format='nhwc'}"
  stderr contains: rlx.train: option 'memory_format' must be one of channels_last, contiguous, got "nhwc"
  [1]

train: device cuda without a GPU is ok=false
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, device='cuda'} print(r.ok, r.error)"
  false\tdevice 'cuda' is not available: .*use device="cpu" (re)

train: amp on the CPU is ok=false
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, device='cpu', precision='amp'} print(r.ok, r.error)"
  stdout starts with: false\tprecision 'amp' .*needs a CUDA device.*bf16 (re)

train: missing dataset is ok=false
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, data='/nonexistent/imagenet'} print(r.ok, r.error)"
  stdout starts with: false\tdataset not found: '/nonexistent/imagenet' does not exist (esc)

train: ImageFolder with one corrupt JPEG skips one file
  $ rlx run tests/e2e/train/folder.lua
  true\timagefolder\t1\t2\t7\t2 (esc)
  true\t1 (esc)

train: CIFAR-10 records train
  $ rlx run tests/e2e/train/cifar.lua
  true\tcifar10\t32\t10\t20\tnil (esc)
  false\t.*not a whole number of 3073-byte records (re)

# The title stops where CMake cut the old name, at its ';'; it went on: os.system is refused
train: CIFAR-10 Python batches (pickles made by the test) train
  $ rlx run tests/e2e/train/cifar_pickle.lua
  true\tcifar10\t32\t10\t20\ttrue (esc)
  false\t[^\n]*cifar-10-batches-py/data_batch_3' is not a CIFAR-10 Python batch: at byte 2: the pickle names 'os.system', which rlx does not call[^\n]* (re)

train: counters=true adds the collector's result
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, counters=true} print(r.ok, type(r.counters), type(r.counters.available))"
  true\ttable\tboolean (esc)

train: devices lists the CPU
  $ rlx -e 'local d = rlx.devices() print(d[1].kind, d[1].id, d[1].threads >= 1, d[1].memory_bytes > 0, rlx.train.devices()[1].id)'
  cpu\tcpu\ttrue\ttrue\tcpu (esc)

# Invalid options raise errors naming the option, at the caller's line.
train: batch=0 names batch
  $ rlx -e "rlx.train{model='resnet18', batch=0}"
  stderr starts with: \(command line\):1: rlx.train: option 'batch' must be an integer >= 1, got 0\n (re)
  [1]

train: unknown key bacth is named
  $ rlx -e 'rlx.train{bacth=4}'
  stderr contains: rlx.train: unknown option 'bacth' \(valid options: augment, batch,\x20 (re)
  [1]

train: wrong type names the option
  $ rlx -e "rlx.train{model='resnet18', iters='3'}"
  stderr contains: rlx.train: option 'iters' must be an integer >= 1, got "3" (re)
  [1]

train: missing model
  $ rlx -e 'rlx.train{batch=2}'
  stderr contains: rlx.train: option 'model' is required: a built-in name (re)
  [1]

train: unknown precision
  $ rlx -e "rlx.train{model='resnet18', precision='fp8'}"
  stderr contains: rlx.train: option 'precision' must be one of (re)
  [1]

train: malformed device
  $ rlx -e "rlx.train{model='resnet18', device='gpu0'}"
  stderr contains: rlx.train: option 'device' must be "cpu", "cuda", "cuda:N" or "auto", got "gpu0" (re)
  [1]

train: lr must be positive
  $ rlx -e "rlx.train{model='resnet18', lr=0}"
  stderr contains: rlx.train: option 'lr' must be a number > 0, got 0 (re)
  [1]

train: counters of a wrong type
  $ rlx -e "rlx.train{model='resnet18', counters=3}"
  stderr contains: rlx.train: option 'counters' must be true, false or a list of metric groups, got a number (re)
  [1]

train: not a table
  $ rlx -e "rlx.train('resnet18')"
  stderr starts with: \(command line\):1: rlx.train: expected a table of options, got string (re)
  [1]

train: C++ exception path, unknown model
  $ rlx -e "rlx.train{model='resnet99'}"
  stderr starts with: \(command line\):1: rlx.train: option 'model': unknown model 'resnet99' \(built-in models: resnet18 (re)
  [1]

train: bad layer in a model table
  $ rlx -e "rlx.train{model={layers={{'conv', out=0}}}}"
  stderr contains: rlx.train: option 'model':\x20 (re)
  [1]

# The CLI.
train: cli one-line summary
  $ rlx train --arch resnet18 --batch-size 2 --warmup-iters 1 --iters 2 --input 32 --classes 10 --threads 1 --label cli
  resnet18 cpu fp32 batch 2: [0-9.]+ img/s \(median [0-9.]+ s/iter.*\) \[cli\] (re)

train: cli --json
  $ rlx train --model tests/e2e/train/tiny_model.lua --batch-size 2 --iters 2 --warmup-iters 0 --input 16 --classes 3 --json --channels-last --grad-accum-steps 2 --no-augment
  stdout contains: "images_per_s": .*"model": "tiny" (re)

train: cli --memory-format contiguous
  $ rlx train --model tests/e2e/train/tiny_model.lua --batch-size 2 --iters 1 --warmup-iters 0 --input 16 --classes 3 --memory-format contiguous
  tiny cpu fp32 batch 2: [0-9.]+ img/s \(median .*, contiguous, loss .*\) (re)

train: cli --channels-last contradicting --memory-format is a usage error
  $ rlx train --model tests/e2e/train/tiny_model.lua --channels-last --memory-format contiguous
  stderr starts with: rlx train: --channels-last contradicts --memory-format contiguous
  [2]

train: cli --backend cuda fails with status 1
  $ rlx train --arch resnet18 --backend cuda --iters 1
  stderr contains: rlx train: device 'cuda' is not available
  [1]

train: cli bad value is a usage error
  $ rlx train --arch resnet18 --batch-size 0
  stderr starts with:
  rlx train: --batch-size must be an integer >= 1, got '0'
  Try 'rlx train --help'
  [2]

train: cli needs a model
  $ rlx train --iters 1
  stderr contains: --model (or --arch) is required
  [2]

train: cli --cuda-graphs on the CPU exits 2 with one line, before any probe
  $ rlx train --arch resnet18 --cuda-graphs --device cpu
  stderr:
  rlx train: --cuda-graphs captures the step's CUDA kernels, and --device cpu runs on the CPU; use --device cuda or drop --cuda-graphs
  Try 'rlx train --help'. (re)
  [2]

# On a machine with a GPU (rlx.devices() stands in for one here: a machine without CUDA refuses
# --cuda-graphs first, issue 56 item 7, tested in reliability/messages5.sh).
train: cli --cuda-graphs with --grad-accum-steps 2 is a usage error naming why
  $ rlx -e "rlx.devices = function() return {{kind = 'cuda', id = 'cuda:0'}} end os.exit(require('rlx.cli.train').main('--model', 'tests/e2e/train/tiny_model.lua', '--cuda-graphs', '--grad-accum-steps', '2', '--memory-format', 'contiguous'))"
  stderr starts with:
  rlx train: cuda_graphs captures one step with its optimizer update, and grad_accum=2 makes steps without one; use grad_accum=1 or drop cuda_graphs
  Try
  [2]

train: cuda_graphs refusals, each naming why (issue 46)
  $ rlx run tests/e2e/train/cuda_graphs.lua
  cuda_graphs refusals ok

train: cli --help
  $ rlx train --help
  stdout contains: usage: rlx train.*--arch, --model.*--grad-accum-steps (re)

train: Ctrl-C exits 130
  $ bash tests/e2e/train/interrupt.sh "$RLX"

# The progress bar: drawn when asked (or when stderr is a terminal), absent otherwise.
train: progress=true draws on stderr
  $ rlx -e "print(rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, progress=true}.ok)"
  true
  stderr contains: measure +2/2 +\[=+\] (re)

train: quiet when stderr is not a terminal
  $ rlx -e "print(rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1}.ok)"
  true
  stderr does not contain: img/s

# More option checks: every integer option has its lower bound named.
train: workers must be >= 0
  $ rlx -e "rlx.train{model='resnet18', workers=-1}"
  stderr contains: rlx.train: option 'workers' must be an integer >= 0, got -1 (re)
  [1]

train: grad_accum must be >= 1
  $ rlx -e "rlx.train{model='resnet18', grad_accum=0}"
  stderr contains: rlx.train: option 'grad_accum' must be an integer >= 1, got 0 (re)
  [1]

train: augment must be a boolean
  $ rlx -e "rlx.train{model='resnet18', augment='no'}"
  stderr contains: rlx.train: option 'augment' must be true or false, got "no" (re)
  [1]

train: threads used is reported
  $ rlx -e "print(rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1}.threads, rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch=2, iters=1, warmup=0, input=16, classes=3, threads=0}.threads >= 1)"
  1\ttrue (esc)

# OMP_NUM_THREADS is the user's choice of threads (util/cpu_stat.h default_threads): rlx.train's
# default follows it and says so; an explicit threads still wins; "0" and junk fall back to the CPUs.
train: OMP_NUM_THREADS sets the default threads, threads= still wins
  $ OMP_NUM_THREADS=1 rlx -e "local a = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch=2, iters=1, warmup=0, input=16, classes=3} local b = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch=2, iters=1, warmup=0, input=16, classes=3, threads=2} local d = rlx.env.default_threads() print(a.threads, a.threads_from, b.threads, b.threads_from, d.threads, d.from)"
  1\tOMP_NUM_THREADS\t2\tthreads\t1\tOMP_NUM_THREADS (esc)
  stderr:

train: OMP_NUM_THREADS that is not a count leaves the default to the CPUs
  $ OMP_NUM_THREADS=0 rlx -e 'local d = rlx.env.default_threads() print(d.from, d.threads == rlx.env.usable_cpus())'
  cpus\ttrue (esc)

# memory_format through study:sweep: passed to rlx.train, and shown in labels when given.
train: study plan passes memory_format and labels it
  $ rlx -e "local s = rlx.study{name = 'mf', db = os.getenv('RLX_TEST_TMP') .. '/train_mf.db'} local a = s:plan{models = {'resnet18'}, batch = {2}, memory_format = 'contiguous'}[1] local b = s:plan{models = {'resnet18'}, batch = {2}}[1] print(a.config.memory_format, a.label:match('_resnet18_fp32_contiguous_bs2_run1\$') ~= nil, b.label:match('_resnet18_fp32_bs2_run1\$') ~= nil)"
  contiguous\ttrue\ttrue (esc)

# Counted iterations, steady state, pinned memory, the metrics.csv log (issue 15 items 2, 3, 6).
train: counter_iters runs counted iterations after the timed ones
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, counter_iters=3} print(#r.samples, r.counter_iters, #r.counted_samples, r.counted_iter_s > 0, r.stability.extended_iters, type(r.stability.stable), r.stability.cv >= 0)"
  2\t3\t3\ttrue\t0\tboolean\ttrue (esc)

train: without counters nothing is counted
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1} print(r.counter_iters, r.counted_iter_s, r.pin_memory, r.min_stable)"
  0\tnil\tfalse\tfalse (esc)

train: min_stable extends to the cap when the verdict cannot be met
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, min_stable={cv=1e-12, max_extra=3}} print(#r.samples, r.stability.extended_iters, r.stability.stable, r.stability.max_cv)"
  2\t3\tfalse\t1e-12 (esc)

train: min_stable unknown key
  $ rlx -e "rlx.train{model='resnet18', min_stable={drfit=0.1}}"
  stderr contains: option 'min_stable'.*unknown.*drfit (re)
  [1]

train: min_stable wrong type
  $ rlx -e "rlx.train{model='resnet18', min_stable=3}"
  stderr contains: rlx.train: option 'min_stable' must be true, false or a table \{drift =, cv =, max_extra =\}, got a number (re)
  [1]

train: counters with counter_iters=0
  $ rlx -e "rlx.train{model='resnet18', counters=true, counter_iters=0}"
  stderr contains: rlx.train: option 'counter_iters' must be >= 1 when counters are collected (re)
  [1]

train: pin_memory on the CPU is a note
  $ rlx -e "local r = rlx.train{model=dofile('tests/e2e/train/tiny_model.lua'), batch = 2, iters = 2, warmup = 1, input = 16, classes = 3, threads = 1, pin_memory=true} print(r.ok, r.pin_memory, r.note)"
  true\ttrue\tpin_memory applies to CUDA runs reading a dataset: nothing to pin here (esc)

train: --log-dir appends seed 000's metrics.csv
  $ bash tests/e2e/train/log_dir.sh "$RLX" $RLX_SOURCE_DIR/tests/e2e/train/tiny_model.lua
  ok
  stderr:

# Issue 25: outputs checked before the training, and metrics.csv appended safely (finding 5). The
# timeout ends the old code's endless read of a metrics.csv linked to /dev/full.
train: outputs are checked before training
  ctest: TIMEOUT 300
  $ bash tests/e2e/train/outputs.sh "$RLX" $RLX_SOURCE_DIR/tests/e2e/train/tiny_model.lua
  ok
  stderr:

# Issue 25 finding 8: half the files of a class corrupt, and a class folder that cannot be listed.
train: ImageFolder: corrupt files are skipped whatever the seed, an unlistable class is an error
  $ bash tests/e2e/train/dataset_errors.sh "$RLX" $RLX_SOURCE_DIR/tests/e2e/train/tiny_model.lua
  ok
  stderr:

train: append_metrics_csv refuses a failed result
  $ rlx -e "rlx.train.append_metrics_csv('/tmp', {ok = false})"
  stderr contains: rlx.train.append_metrics_csv: argument 2 must be a successful result of rlx.train \(ok = true\), got ok = false (re)
  [1]

train: append_metrics_csv wrong directory type
  $ rlx -e 'rlx.train.append_metrics_csv(3, {ok = true})'
  stderr contains: rlx.train.append_metrics_csv: the directory \(argument 1\) must be a non-empty string, got number (re)
  [1]

train: check_metrics_csv reads a metrics.csv by the one reader: a link to a device is refused at once
  $ D=$RLX_TEST_TMP/mcsv_zero; rm -rf $D; mkdir -p $D; ln -s /dev/zero $D/metrics.csv
  > rlx -e "rlx.train.check_metrics_csv(os.getenv('RLX_TEST_TMP') .. '/mcsv_zero')"
  stderr: (command line):1: rlx.train.check_metrics_csv: the metrics.csv '$RLX_TEST_TMP/mcsv_zero/metrics.csv' is a device, not a regular file: rlx reads only regular files (this one would block or never end); put the file itself there
  [1]

train: rlx.fs.read_ends gives a file's first and last bytes and its size
  $ printf 'a,b\n1,2' > $RLX_TEST_TMP/ends.csv; rlx -e "print(rlx.fs.read_ends(os.getenv('RLX_TEST_TMP') .. '/ends.csv', {head_bytes = 3}))"
  a,b\t2\t7 (esc)

train: rlx.fs.read_ends refuses a byte count above 64 MiB
  $ rlx -e "rlx.fs.read_ends('README.md', {head_bytes = 67108865})"
  stderr: (command line):1: rlx.fs.read_ends: option 'head_bytes' is at most 67108864 (64 MiB), got 67108865
  [1]

train: rlx.fs.read_ends refuses a negative byte count
  $ rlx -e "rlx.fs.read_ends('README.md', {tail_bytes = -1})"
  stderr: (command line):1: rlx.fs.read_ends: option 'tail_bytes' must be an integer >= 0, got -1
  [1]

train: rlx.fs.read_ends refuses an unknown option, naming the valid ones
  $ rlx -e "rlx.fs.read_ends('README.md', {head = 3})"
  stderr: (command line):1: rlx.fs.read_ends: unknown option 'head' (valid options: head_bytes, missing_ok, tail_bytes, what)
  [1]

train: rlx.fs.read_ends of a missing file: an error, or nil with missing_ok
  $ rlx -e "print(rlx.fs.read_ends('nope.csv', {missing_ok = true})) rlx.fs.read_ends('nope.csv')"
  nil
  stderr: (command line):1: rlx.fs.read_ends: 'nope.csv' does not exist (check the path)
  [1]

train: --db stores the run for import-ncu
  $ bash tests/e2e/train/train_db.sh "$RLX" $RLX_SOURCE_DIR/tests/e2e/train/tiny_model.lua $RLX_SOURCE_DIR/tests/fixtures/ncu/two_processes.csv
  ok
  stderr:

train: study runs store the memory_format used
  $ rlx -e "local p = os.getenv('RLX_TEST_TMP') .. '/train_mf_store.db' os.remove(p) local s = rlx.study{name = 'mf', db = p} local o = {models = {'resnet18'}, batch = {2}, iters = 1, warmup = 0, input = 16, classes = 3, threads = 1, quiet = true} s:sweep(o) o.memory_format = 'contiguous' s:sweep(o) for _, r in ipairs(s.db:query('SELECT label, memory_format FROM runs ORDER BY label')) do print(r.label:match('resnet18.*\$'), r.memory_format) end"
  resnet18_fp32_bs2_run1\tchannels_last (esc)
  resnet18_fp32_contiguous_bs2_run1\tcontiguous (esc)

# Issue 33: libgomp's waiting chosen from the load before LibTorch loads; the user's valid choice
# wins, an invalid one is ignored with a warning and OMP_NUM_THREADS has --threads' bound (issue
# 48); nothing reaches a child; each run's result records it.
train: OpenMP waiting is chosen from the load before LibTorch loads, the user's valid choice wins
  ctest: TIMEOUT 300
  $ bash tests/e2e/train/openmp_wait.sh "$RLX"
  ok
  stderr:

# Issue 33: transparent huge pages for the training heap, from the kernel's mode; the user's
# allocator setting wins; the one restart is recorded and leaves nothing for a child; the heap
# really is in huge pages.
train: the training heap is in transparent huge pages where the kernel allows it
  ctest: TIMEOUT 300
  $ bash tests/e2e/train/huge_pages.sh "$RLX"
  ok
  stderr:

# The CPUs rlx may run on (affinity mask), not the machine's: default threads, the load at start,
# a run's contention. Alone: another test on the pinned CPU would be real contention.
train: threads, the load at start and contention count the CPUs rlx may run on
  ctest: TIMEOUT 120 RUN_SERIAL TRUE SKIP_RETURN_CODE 77
  $ bash tests/e2e/train/affinity.sh "$RLX"
  ok
  stderr:

# Issue 33: rlx train's --memory-format auto from a machine with nothing calibrated: probed (also
# with --threads 0), kept, reused, said by --verbose with every setting; CIFAR probed at 32x32.
train: --memory-format auto probes once, at the run's input, and --verbose says every setting
  ctest: TIMEOUT 300 RUN_SERIAL TRUE
  $ bash tests/e2e/train/auto_layout.sh "$RLX"
  ok
  stderr:

# Issue 48 item 12: one layout rule for rlx.train{}, study:sweep{}, rlx train and the study; the
# result says which rule chose the layout.
train: one layout rule: given, else this machine's calibration, else the default; the result says which
  $ bash tests/e2e/train/layout_rule.sh "$RLX"
  ok
  stderr:

train: --threads below 0 is refused before any probe
  $ rlx train --model resnet18 --threads -1
  stderr contains: rlx train: --threads must be an integer >= 0, got '-1'
  [2]

train: study script --set memory_format takes auto, channels_last or contiguous
  $ rlx run experiments/all.lua --set memory_format=nhwc --dry-run
  stderr contains: experiments/all.lua: --set memory_format= must be one of auto, channels_last, contiguous, got 'nhwc' (re)
  [2]

train: study script --set memory_format=contiguous puts every run in that layout
  $ rlx run experiments/all.lua --set memory_format=contiguous --set scale=smoke --set db=build/no-such-dir/mf.db --dry-run
  stdout contains: 1  [a-z0-9.-]+_resnet50_fp32_contiguous_bs16_run1 .*mobilenet_v2_fp32_contiguous_bs16_run1\x20 (re)

# A cgroup's CPU quota caps the default threads (a real cgroup; skipped where none can be made).
train: a cgroup CPU quota caps the default threads, the peaks' cores, and is said
  ctest: TIMEOUT 120 RUN_SERIAL TRUE SKIP_RETURN_CODE 77
  $ bash tests/e2e/train/cpu_quota.sh "$RLX"
  ok
  stderr:

train: a contended run's note names a cgroup quota below its threads
  $ rlx -e 'print(rlx.train.protocol_note{contended = true, other_cpu = 0, cpu_share = 0.5, cpu_quota = 1.5, threads = 2}) print(rlx.train.protocol_note{contended = true, other_cpu = 1.2, cpu_share = 0.6, cpu_quota = 2, threads = 2})'
  ; contended (0.0 other cores, CPU share 50 %; the cgroup's CPU quota allows 1.5 CPUs for 2 threads)
  ; contended (1.2 other cores, CPU share 60 %)

# Issue 52: data-parallel runs on c10d (Gloo, 2 ranks on this CPU): the figures against their
# formulas, a study's rows, and every fault (ranks above the CPUs, the port in use, kill -9,
# Ctrl-C, a rank that cannot start, refused options) ending within seconds with no rank left.
train: data-parallel, 2 Gloo ranks on the CPU, and its faults
  ctest: TIMEOUT 240 RUN_SERIAL TRUE
  $ bash tests/e2e/train/data_parallel.sh "$RLX" $RLX_TEST_TMP
  ok
  stderr:
