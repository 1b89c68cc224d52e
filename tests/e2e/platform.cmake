# Platforms (issue 44): the one-owner rule for architecture-specific code, and a study merged from
# an x86-64 machine and an arm64 one (the fixture scripts/arm64/check.sh's smoke study wrote under
# qemu) rendering with both architectures and ISAs named.
set(PF ${CMAKE_SOURCE_DIR}/tests/e2e/platform)
add_test(NAME "platform: intrinsics and architecture tests only in the platform files"
  COMMAND bash ${PF}/one_owner.sh WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME "platform: the arm64 smoke study's report names the emulated arm64 beside an x86-64 H200"
  COMMAND bash ${PF}/arm64_report.sh $<TARGET_FILE:rlx> ${RLX_TEST_TMP} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
