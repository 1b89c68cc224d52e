# Slurm and GPU-build tests (issue 14): a real single-node Slurm cluster started in a temporary
# directory (tests/slurm/cluster.sh), setup.sh's choice of LibTorch driven with fake GPUs, and the
# CUDA-only code compiled syntax-only. Each skips (77) with its reason where it cannot run.
function(rlx_script_test NAME SCRIPT)
  add_test(NAME "${NAME}" COMMAND bash ${CMAKE_SOURCE_DIR}/${SCRIPT} ${ARGN} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("${NAME}" PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP}")
endfunction()

rlx_script_test("setup: detect-torch with fake GPUs and LibTorch dirs" tests/setup/detect_torch.sh)
rlx_script_test("setup: CUDA-only code compiles syntax-only" tests/setup/cuda_syntax.sh ${CMAKE_BINARY_DIR})
rlx_script_test("slurm: single-node cluster runs a job array" tests/slurm/cluster_smoke.sh)
set_tests_properties("slurm: single-node cluster runs a job array" PROPERTIES TIMEOUT 120)
