# End-to-end tests of issue 23 (seed 000's kit): experiments/all.lua's data=, zone=, instance= and
# price_per_hour= through a dry run and a study with a stand-in trainer, and the environment
# scripts' labels. The seed-layout export is tested in store.cmake (export_seed), the CIFAR-10
# Python batches in train.cmake.
add_test(NAME "e2e: kit: all.lua on an ImageFolder with zone, instance and price; report rows by hand"
  COMMAND bash ${CMAKE_SOURCE_DIR}/tests/e2e/kit/kit.sh $<TARGET_FILE:rlx>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("e2e: kit: all.lua on an ImageFolder with zone, instance and price; report rows by hand"
  PROPERTIES ENVIRONMENT "RLX_TEST_TMP=${RLX_TEST_TMP};HOME=${RLX_TEST_TMP}")
rlx_e2e(NAME "kit: gcp-l4 and mac-mps labels find gcp.lua and mac_mps.lua"
  ARGS -e "local e = rlx.experiment local l = e.labels_for({env = {label = 'gcp-l4'}}, {kind = 'cuda', name = 'NVIDIA L4'}) print(table.concat(l, ',')) print((select(2, e.pick('experiments', 'cuda', l)))) print((select(2, e.pick('experiments', 'cpu', e.labels_for({env = {label = 'mac-mps'}}, {kind = 'cpu'})))))"
  STDOUT "^gcp-l4,gcp_l4,gcp,l4\ngcp\ncpu\n$"
  STDERR "experiments/mac_mps.lua: this rlx cannot train on an Apple GPU")
rlx_e2e(NAME "kit: all.lua --help lists data, zone, instance, price_per_hour" ARGS run experiments/all.lua --help
  STDOUT "data=STRING .*instance=STRING .*price_per_hour=NUMBER .*zone=STRING ")
