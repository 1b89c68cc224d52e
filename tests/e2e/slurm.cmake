# Slurm and GPU-build tests (issue 14): a real single-node Slurm cluster started in a temporary
# directory (tests/slurm/cluster.sh), setup.sh's choice of LibTorch driven with fake GPUs, and the
# CUDA code built and linked, one LibTorch only. Each skips (77) with its reason where it cannot run.
function(rlx_script_test NAME SCRIPT)
  add_test(NAME "${NAME}" COMMAND bash ${CMAKE_SOURCE_DIR}/${SCRIPT} ${ARGN} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("${NAME}" PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP}")
endfunction()

rlx_script_test("setup: detect-torch with fake GPUs and LibTorch dirs" tests/setup/detect_torch.sh)
rlx_script_test("setup: the CUDA code is built and linked (CUDA-enabled LibTorch everywhere)" tests/setup/cuda_built.sh ${CMAKE_BINARY_DIR})
rlx_script_test("setup: librlx_torch.so resolves exactly one LibTorch" tests/setup/one_libtorch.sh ${CMAKE_BINARY_DIR})
rlx_script_test("slurm: single-node cluster runs a job array" tests/slurm/cluster_smoke.sh)
set_tests_properties("slurm: single-node cluster runs a job array" PROPERTIES TIMEOUT 120)
# A small study through rlx submit on the real cluster; then one array task cancelled midway and
# the same command submitted again (each ~20-60 s on 2 cores); and a study sweeping ranks {1, 2}
# whose 2-rank run starts its ranks as an srun step inside the array task (issue 52).
# Each reads an empty calibration cache of its own: a calibration another test stored in the shared
# one (LibTorch 2.15 chose contiguous for ResNet-18 at 32x32 on a Zen 5) gave the shards' runs another
# layout than the slots the plan dealt, and the runs counted as missing.
foreach(t submit_study cancel_resubmit data_parallel)
  rlx_script_test("slurm: ${t}" tests/slurm/${t}.sh $<TARGET_FILE:rlx>)
  set_tests_properties("slurm: ${t}" PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE ENVIRONMENT
    "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP};XDG_CACHE_HOME=${RLX_TEST_TMP}/cache-slurm-${t}")
endforeach()
if(RLX_HAVE_TORCH_CUDA)
  rlx_e2e(NAME "setup: a GPU this build cannot use is said loudly" ARGS run tests/setup/gpu_unusable.lua
    STDOUT "gpu_unusable ok")
else()
  rlx_e2e(NAME "setup: a GPU this build cannot use is said loudly" ARGS run tests/setup/gpu_unusable.lua
    STDOUT "gpu_unusable ok"
    STDERR "rlx.study: WARNING: the GPU here is not used: NVIDIA H100 80GB HBM3 is present, but this rlx is built against a CPU-only LibTorch")
endif()

# rlx submit / status / shard without a cluster: usage errors, and a dry run that plans and shards.
rlx_e2e(NAME "slurm: rlx submit needs a script" EXIT 2 ARGS submit STDERR "rlx submit: missing SCRIPT")
rlx_e2e(NAME "slurm: rlx submit of a missing script" EXIT 2 ARGS submit no/such.lua
  STDERR "rlx submit: no script 'no/such.lua'")
rlx_e2e(NAME "slurm: rlx submit --tasks 0" EXIT 2 ARGS submit tests/slurm/study.lua --tasks 0
  STDERR "^rlx submit: --tasks must be an integer from 1 to 10000, got '0'\nTry 'rlx submit --help'\\.\n$")
rlx_e2e(NAME "slurm: rlx submit --dry-run plans, deals 8 slots into 3 shards, writes the sbatch options"
  ARGS submit tests/slurm/study.lua --set db=${RLX_TEST_TMP}/slurm-dry/study.db --tasks 3 --partition gpu --gres gpu:1 --time 0:10:00 --sbatch-arg=--exclusive --sbatch-arg --account=lab --dry-run
  STDOUT "environment gpu: 8 runs in the matrix.*8 slots planned, 0 stored ok, 0 queued in earlier submissions, 8 to submit\\ntask 0: gpu_resnet18_fp32_bs2_run1 gpu_mobilenet_v2_fp32_bs4_run1 gpu_mobilenet_v2_fp32_bs2_run2\\ntask 1: gpu_resnet18_fp32_bs4_run1 gpu_resnet18_fp32_bs2_run2 gpu_mobilenet_v2_fp32_bs4_run2\\ntask 2: gpu_mobilenet_v2_fp32_bs2_run1 gpu_resnet18_fp32_bs4_run2\\n.*#SBATCH --array=0-2\\n.*#SBATCH --partition=gpu\\n#SBATCH --gres=gpu:1\\n#SBATCH --time=0:10:00\\n#SBATCH --exclusive\\n#SBATCH --account=lab\\nexec .* shard run .*/slurm-dry/shards/study/<submission>/manifest.json'\\nsubmit: dry run, nothing written or submitted")
rlx_e2e(NAME "slurm: rlx status of a missing database" EXIT 1 ARGS status no/such.db
  STDERR "rlx status: no database at 'no/such.db' and no submissions under .*/no/shards/such")
rlx_e2e(NAME "slurm: rlx shard run of a missing manifest" EXIT 1 ARGS shard run no/manifest.json 0
  STDERR "rlx: no manifest at 'no/manifest.json'")
rlx_e2e(NAME "slurm: rlx shard needs run or collect" EXIT 2 ARGS shard go x.json STDERR "unknown action 'go' \\(run or collect\\)")
rlx_e2e(NAME "slurm: collect keeps one ok run per slot across two nodes of one label"
  ARGS run tests/slurm/collect.lua STDOUT "collect ok")
rlx_script_test("slurm: rlx submit without sbatch says where to run it" tests/slurm/no_sbatch.sh $<TARGET_FILE:rlx>)
rlx_script_test("slurm: shards run and collected by hand (fake sbatch)" tests/slurm/by_hand.sh $<TARGET_FILE:rlx>)
