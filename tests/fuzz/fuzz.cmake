# libFuzzer targets (issue 17 item 20), built with Debian's clang (clang-14 + libclang-rt-14-dev)
# apart from the main build: each target compiles the sources it fuzzes with
# -fsanitize=fuzzer,address,undefined so libFuzzer sees their coverage. Each runs for a bounded
# time over its seed corpus (tests/fuzz/corpus/<target>, plus tests/fuzz/<target>.dict when there
# is one) in ctest label "fuzz", which the normal suite includes. Where clang cannot build a fuzzer the targets are skipped with a reason.
find_program(RLX_FUZZ_CLANG NAMES clang++-14 clang++)
set(RLX_FUZZ_SECONDS 60 CACHE STRING "seconds each fuzz target runs in the test suite")
set(RLX_FUZZ_OK FALSE)
if(RLX_FUZZ_CLANG)
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz_probe.cpp
    "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n")
  execute_process(COMMAND ${RLX_FUZZ_CLANG} -fsanitize=fuzzer ${CMAKE_BINARY_DIR}/fuzz_probe.cpp
    -o ${CMAKE_BINARY_DIR}/fuzz_probe RESULT_VARIABLE probe_rc OUTPUT_QUIET ERROR_QUIET)
  if(probe_rc EQUAL 0)
    set(RLX_FUZZ_OK TRUE)
  endif()
endif()
if(NOT RLX_FUZZ_OK)
  message(STATUS "fuzz targets skipped: no clang with -fsanitize=fuzzer (install clang-14 libclang-rt-14-dev)")
  return()
endif()

# rlx_fuzz_target(NAME name SOURCES files... [FLAGS flags...] [LIBS flags...]): builds fuzz_<name>
# with clang and adds the test "fuzz: <name>" running it for RLX_FUZZ_SECONDS over corpus/<name>.
function(rlx_fuzz_target)
  cmake_parse_arguments(F "" "NAME" "SOURCES;FLAGS;LIBS" ${ARGN})
  set(exe ${CMAKE_BINARY_DIR}/fuzz/fuzz_${F_NAME})
  list(TRANSFORM F_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/)
  add_custom_command(OUTPUT ${exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/fuzz
    COMMAND ${RLX_FUZZ_CLANG} -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined
      -I${CMAKE_SOURCE_DIR}/engine ${F_FLAGS} ${F_SOURCES} ${F_LIBS} -o ${exe}
    DEPENDS ${F_SOURCES} COMMENT "Building fuzz target ${F_NAME} with ${RLX_FUZZ_CLANG}" VERBATIM)
  add_custom_target(fuzz_${F_NAME} ALL DEPENDS ${exe})
  set(dict "")
  if(EXISTS ${CMAKE_SOURCE_DIR}/tests/fuzz/${F_NAME}.dict)
    set(dict ${CMAKE_SOURCE_DIR}/tests/fuzz/${F_NAME}.dict)  # tokens the target's input is made of
  endif()
  add_test(NAME "fuzz: ${F_NAME}"
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh ${exe} ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${F_NAME}
      ${RLX_FUZZ_SECONDS} ${dict})
  set_tests_properties("fuzz: ${F_NAME}" PROPERTIES LABELS fuzz TIMEOUT 300)
endfunction()

rlx_fuzz_target(NAME ncu_csv
  SOURCES tests/fuzz/ncu_csv_fuzz.cpp engine/counters/ncu_import.cpp engine/counters/ncu_csv.cpp
    engine/counters/metrics.cpp engine/util/text_file.cpp
  LIBS -lfmt)
rlx_fuzz_target(NAME model_spec
  SOURCES tests/fuzz/model_spec_fuzz.cpp engine/models/model_spec.cpp engine/models/spec_json.cpp
    engine/models/builtins.cpp engine/util/printable.cpp
  LIBS -lfmt)
rlx_fuzz_target(NAME jpeg
  SOURCES tests/fuzz/jpeg_fuzz.cpp engine/train/image.cpp engine/util/text_file.cpp
  LIBS -lturbojpeg -lfmt)
rlx_fuzz_target(NAME cifar
  SOURCES tests/fuzz/cifar_fuzz.cpp engine/train/dataset.cpp engine/train/image.cpp engine/train/cifar_pickle.cpp
    engine/train/pickle.cpp engine/util/text_file.cpp
  LIBS -lturbojpeg -lfmt -lpthread)
# CIFAR-10's Python batches: the restricted pickle reader (never calls anything) and the layout.
rlx_fuzz_target(NAME cifar_pickle
  SOURCES tests/fuzz/cifar_pickle_fuzz.cpp engine/train/cifar_pickle.cpp engine/train/pickle.cpp
    engine/util/text_file.cpp
  LIBS -lfmt)
list(TRANSFORM LUAJIT_INCLUDE_DIRS PREPEND -I OUTPUT_VARIABLE RLX_FUZZ_LUAJIT_INCLUDES)
# --set: the host's argument parsing and typing and the option checker of the bindings (no other
# bindings, no LibTorch) with LuaJIT running scripts/rlx/params.lua and its modules from the tree.
rlx_fuzz_target(NAME set_params
  SOURCES tests/fuzz/set_params_fuzz.cpp host/set_args.cpp engine/util/printable.cpp host/bindings/lua_bind.cpp
    engine/util/interrupt.cpp engine/util/supervisor.cpp
    host/bindings/lua_options.cpp host/bindings/lua_json.cpp
  FLAGS -I${CMAKE_SOURCE_DIR}/host -I${CMAKE_SOURCE_DIR}/host/bindings ${RLX_FUZZ_LUAJIT_INCLUDES}
    -DRLX_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
  LIBS -lluajit-5.1 -lfmt)
