# TorchPackage.cmake: finds the one LibTorch rlx builds against (included by Dependencies.cmake).
# Sets TORCH_LIBRARIES, TORCH_INCLUDE_DIRS, TORCH_LIBRARY, TORCH_CUDA_LIBRARIES (CUDA builds),
# Torch_VERSION, RLX_TORCH_ROOT (the prefix: lib/ and include/ inside), RLX_TORCH_LIBRARY_DIR and
# RLX_TORCH_NVIDIA_LIB_DIRS (NVIDIA's wheels beside a PyPI torch).
#
# The LibTorch is the pinned PyPI wheel's (scripts/setup.sh passes its CMake prefix) or
# RLX_TORCH_DIR's. Three things the package's own CMake files get wrong for rlx are handled here:
#  - TorchConfig.cmake looks for its libraries on the default paths before its own folder, so a
#    second LibTorch on the system (Debian's libtorch-dev in /usr/lib) would win for some of them and
#    rlx would link two versions: the folder beside the package goes first, and the result is checked.
#  - A build folder configured against another LibTorch before keeps that one's library paths in its
#    cache (TORCH_LIBRARY, c10_LIBRARY, ...): a new Torch_DIR clears them.
#  - A CUDA-enabled package refuses to configure without the CUDA toolkit (its Caffe2Config looks for
#    nvcc), though rlx compiles no CUDA code: on a machine without the toolkit (a fresh Debian 12, a
#    container image) the wheel's libraries and the headers of NVIDIA's wheels beside it are declared
#    here instead (rlx_torch_from_wheel below), so the CUDA paths still compile and link.
if(DEFINED RLX_TORCH_CONFIGURED_WITH AND NOT "${Torch_DIR}" STREQUAL "${RLX_TORCH_CONFIGURED_WITH}")
  foreach(v RLX_TORCH_CMAKE_DIR TORCH_LIBRARY c10_LIBRARY C10_CUDA_LIBRARY Caffe2_DIR kineto_LIBRARY)
    unset(${v} CACHE)
  endforeach()
  message(STATUS "rlx: LibTorch changed (${RLX_TORCH_CONFIGURED_WITH} -> ${Torch_DIR}): its cached paths cleared")
endif()
find_path(RLX_TORCH_CMAKE_DIR TorchConfig.cmake PATH_SUFFIXES Torch share/cmake/Torch HINTS ${Torch_DIR})
if(RLX_TORCH_CMAKE_DIR)
  get_filename_component(RLX_TORCH_ROOT "${RLX_TORCH_CMAKE_DIR}/../../.." ABSOLUTE)
  list(PREPEND CMAKE_PREFIX_PATH "${RLX_TORCH_ROOT}")
endif()
# The wheel's CMake files compile a CUDA probe to pick GPU architectures unless told them; rlx
# compiles no CUDA kernels of its own (only LibTorch's and PTX through the driver), so any list does.
if(NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
  set(ENV{TORCH_CUDA_ARCH_LIST} "8.0;9.0")
endif()

# A wheel's LibTorch declared from its files: headers, the five libraries, and NVIDIA's headers from
# the wheels beside it (nvidia/*/include: the CUDA runtime, cuBLAS, cuSPARSE, cuSOLVER, CUPTI, NVTX).
# With RLX_TORCH_CPU_ONLY, the wheel's CPU part alone (libtorch_cpu.so, libc10.so): for an arm64
# cross-build, whose index lacks NVIDIA's aarch64 wheels (scripts/arm64/torch-wheel.sh says which);
# rlx is then built as against a CPU-only LibTorch, its CUDA paths left out.
function(rlx_torch_from_wheel root)
  file(GLOB nvidia_includes LIST_DIRECTORIES true "${root}/../nvidia/*/include")
  set(includes "${root}/include" "${root}/include/torch/csrc/api/include")
  set(libs "")
  set(names torch torch_cpu c10 torch_cuda c10_cuda)
  if(RLX_TORCH_CPU_ONLY)
    set(names torch_cpu c10)
  endif()
  foreach(name ${names})
    if(NOT EXISTS "${root}/lib/lib${name}.so")
      message(FATAL_ERROR "rlx: ${root}/lib/lib${name}.so is missing: the torch wheel is incomplete; remove its "
        "virtual environment and run scripts/setup.sh again")
    endif()
    list(APPEND libs "${root}/lib/lib${name}.so")
  endforeach()
  # The CUDA runtime itself: rlx's CUDA code calls it directly (streams, events), as the package's
  # own Caffe2 targets would link it (CUDA::cudart).
  if(NOT RLX_TORCH_CPU_ONLY)
    file(GLOB cudart "${root}/../nvidia/cu[0-9]*/lib/libcudart.so.[0-9]*")
    list(APPEND libs ${cudart})
  endif()
  add_library(rlx_torch_wheel INTERFACE IMPORTED)
  set_target_properties(rlx_torch_wheel PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${includes};${nvidia_includes}"
    INTERFACE_LINK_LIBRARIES "${libs}"
    INTERFACE_COMPILE_DEFINITIONS "_GLIBCXX_USE_CXX11_ABI=1")
  file(STRINGS "${root}/include/torch/headeronly/version.h" v REGEX "^#define TORCH_VERSION_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*PATCH ([0-9]+).*" "\\1.\\2.\\3" version "${v}")
  set(TORCH_LIBRARIES rlx_torch_wheel PARENT_SCOPE)
  set(TORCH_INCLUDE_DIRS "${includes}" PARENT_SCOPE)
  if(RLX_TORCH_CPU_ONLY)
    set(TORCH_LIBRARY "${root}/lib/libtorch_cpu.so" PARENT_SCOPE)
  else()
    set(TORCH_LIBRARY "${root}/lib/libtorch.so" PARENT_SCOPE)
    set(TORCH_CUDA_LIBRARIES "${root}/lib/libtorch_cuda.so" PARENT_SCOPE)
  endif()
  set(Torch_VERSION "${version}" PARENT_SCOPE)
  message(STATUS "rlx: LibTorch ${version} declared from the wheel's files in ${root} (CPU part only: ${RLX_TORCH_CPU_ONLY})")
endfunction()

option(RLX_TORCH_CPU_ONLY "link a CUDA-enabled torch wheel's CPU libraries only (arm64 cross-build)" OFF)
find_program(RLX_NVCC nvcc HINTS ${CMAKE_CUDA_COMPILER} /usr/local/cuda/bin)
if(RLX_TORCH_CPU_ONLY AND RLX_TORCH_ROOT)
  rlx_torch_from_wheel("${RLX_TORCH_ROOT}")
elseif(RLX_TORCH_ROOT AND EXISTS "${RLX_TORCH_ROOT}/lib/libtorch_cuda.so" AND EXISTS "${RLX_TORCH_ROOT}/../nvidia"
   AND NOT RLX_NVCC AND NOT CMAKE_CUDA_COMPILER)
  rlx_torch_from_wheel("${RLX_TORCH_ROOT}")
else()
  find_package(Torch REQUIRED)
endif()
get_filename_component(RLX_TORCH_LIBRARY_DIR "${TORCH_LIBRARY}" DIRECTORY)
set(RLX_TORCH_CONFIGURED_WITH "${Torch_DIR}" CACHE INTERNAL "the Torch_DIR this build folder was configured with")
foreach(lib ${TORCH_LIBRARIES})
  if(lib MATCHES "/lib(torch|c10)[^/]*\\.so" AND NOT lib MATCHES "^${RLX_TORCH_LIBRARY_DIR}/")
    message(FATAL_ERROR "rlx: two LibTorch builds met: ${TORCH_LIBRARY} and ${lib}. "
      "Build against one: remove the other from the search paths (Debian's libtorch-dev: "
      "apt-get remove libtorch-dev) or set RLX_TORCH_DIR to the one you want, then run scripts/setup.sh")
  endif()
endforeach()
# A wheel's libtorch_cuda.so finds CUDA, cuDNN and NCCL in NVIDIA's wheels beside it (its RPATH
# names $ORIGIN/../../nvidia/*/lib). The linker must look there first too: another NCCL or cuBLAS on
# the default paths (the toolkit's, in /usr/local/cuda/lib64) is older and lacks symbols LibTorch needs.
file(GLOB RLX_TORCH_NVIDIA_LIB_DIRS LIST_DIRECTORIES true "${RLX_TORCH_LIBRARY_DIR}/../../nvidia/*/lib")
