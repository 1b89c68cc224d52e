# End-to-end tests of issue 17 (hardening against hostile input): nothing lost, nothing
# half-written, messages that name the real cause. Shell scenarios live in tests/e2e/reliability/;
# docs/reliability.md has a section per item naming its test.
foreach(scenario outputs figures store_open)
  add_test(NAME "e2e: reliability: ${scenario}"
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/e2e/reliability/${scenario}.sh $<TARGET_FILE:rlx>
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("e2e: reliability: ${scenario}" PROPERTIES
    ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP}")
endforeach()
