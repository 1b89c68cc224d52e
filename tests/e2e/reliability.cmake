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

# Item 13: out of memory at --batch-size 1e12 is one line with the promised advice, not LibTorch's
# enforce text twice. (1e12 x 3 x 224 x 224 x 4 bytes, refused by the host allocator at once.)
rlx_e2e(NAME "reliability: out of memory is one line with the advice" EXIT 1
  ARGS train --model resnet18 --batch-size 1e12 --iters 1 --warmup-iters 0 STDOUT "^$"
  STDERR "^rlx train: out of memory: the host could not allocate 602112000000000000 bytes \\(602112000 GB\\) \\(lower batch or input\\)\n$")
# Item 18: MobileNetV2 at batch 1 with a 32-pixel input reaches a 1x1 feature map before a batch
# norm layer: the message names the cause.
rlx_e2e(NAME "reliability: batch norm at batch 1 names batch >= 2" EXIT 1
  ARGS train --model mobilenet_v2 --batch-size 1 --input 32 --iters 1 --warmup-iters 0 --threads 1
  STDERR "^rlx train: training with batch norm needs batch >= 2: a batch norm layer got one value per channel \\(input \\[1, [0-9]+, 1, 1\\]\\), which has no variance to normalize by\\x3b use batch >= 2, or a larger input so the feature map is more than 1x1\n$")
