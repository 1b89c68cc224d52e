# Script tests whose names do not start "e2e: " (the transcripts, tests/e2e/*.t, hold every "e2e: "
# test): platforms, setup and Slurm. Each script exits 0 when it passed and 77 when it cannot run here
# (with its reason); none has its output checked here.

# Platforms (issue 44): the one-owner rule for architecture-specific code, and a study merged from
# an x86-64 machine and an arm64 one (the fixture scripts/arm64/check.sh's smoke study wrote under
# qemu) rendering with both architectures and ISAs named.
set(PF ${CMAKE_SOURCE_DIR}/tests/e2e/platform)
add_test(NAME "platform: intrinsics and architecture tests only in the platform files"
  COMMAND bash ${PF}/one_owner.sh WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME "platform: the arm64 smoke study's report names the emulated arm64 beside an x86-64 H200"
  COMMAND bash ${PF}/arm64_report.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# Slurm and GPU-build tests (issue 14): a real single-node Slurm cluster started in a temporary
# directory (tests/slurm/cluster.sh), setup.sh's choice of LibTorch driven with fake GPUs, and the
# CUDA code built and linked, one LibTorch only. Each skips (77) with its reason where it cannot run.
# The cases without a cluster (usage errors, a dry run, collect) are in tests/e2e/slurm.t.
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
rlx_script_test("slurm: rlx submit without sbatch says where to run it" tests/slurm/no_sbatch.sh $<TARGET_FILE:rlx>)
rlx_script_test("slurm: shards run and collected by hand (fake sbatch)" tests/slurm/by_hand.sh $<TARGET_FILE:rlx>)
