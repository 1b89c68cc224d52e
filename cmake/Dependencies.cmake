# Finds every dependency as Debian installs it, and detects the optional CUDA pieces:
#  - RLX_HAVE_CUPTI: the CUDA toolkit with CUPTI is present (/usr/local/cuda here); the counters
#    backend is compiled and linked against it.
#  - RLX_HAVE_TORCH_CUDA: LibTorch itself was built with CUDA (pip's LibTorch 2.x on a GPU box);
#    the CUDA training paths (events, autocast fp16, grad scaler) are compiled.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LUAJIT REQUIRED IMPORTED_TARGET luajit)
pkg_check_modules(CAIRO REQUIRED IMPORTED_TARGET cairo)
pkg_check_modules(FONTCONFIG IMPORTED_TARGET fontconfig)
pkg_check_modules(LIBEDIT REQUIRED IMPORTED_TARGET libedit)
pkg_check_modules(TURBOJPEG REQUIRED IMPORTED_TARGET libturbojpeg)
find_package(SQLiteCpp REQUIRED)
find_package(fmt REQUIRED)
find_package(Catch2 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(Threads REQUIRED)
find_package(Torch REQUIRED)

# Torch's exported flags carry include paths and the ABI define; an INTERFACE target keeps them in
# one place so only the libraries that really include LibTorch headers pay for them.
add_library(rlx_torch_deps INTERFACE)
target_link_libraries(rlx_torch_deps INTERFACE ${TORCH_LIBRARIES})
target_compile_options(rlx_torch_deps INTERFACE -Wno-unused-parameter)

set(RLX_HAVE_TORCH_CUDA OFF)
set(RLX_TORCH_CUDA_INT 0)
if(TORCH_CUDA_LIBRARIES OR TARGET torch_cuda)
  set(RLX_HAVE_TORCH_CUDA ON)
  set(RLX_TORCH_CUDA_INT 1)
  target_compile_definitions(rlx_torch_deps INTERFACE RLX_HAVE_TORCH_CUDA=1)
endif()

set(RLX_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root (for CUPTI)")
set(RLX_HAVE_CUPTI OFF)
find_path(CUPTI_INCLUDE_DIR cupti_range_profiler.h
  HINTS ${RLX_CUDA_ROOT}/include ${RLX_CUDA_ROOT}/extras/CUPTI/include)
find_library(CUPTI_LIBRARY cupti HINTS ${RLX_CUDA_ROOT}/lib64 ${RLX_CUDA_ROOT}/extras/CUPTI/lib64)
find_library(CUDA_DRIVER_LIBRARY cuda HINTS ${RLX_CUDA_ROOT}/lib64/stubs ${RLX_CUDA_ROOT}/lib64)
find_library(CUPTI_CHECKPOINT_LIBRARY checkpoint HINTS ${RLX_CUDA_ROOT}/lib64)
if(CUPTI_INCLUDE_DIR AND CUPTI_LIBRARY AND CUDA_DRIVER_LIBRARY)
  set(RLX_HAVE_CUPTI ON)
  get_filename_component(CUPTI_LIBRARY_DIR ${CUPTI_LIBRARY} DIRECTORY)
endif()
option(RLX_ENABLE_CUPTI "Build the CUPTI counters backend when the toolkit is found" ON)
if(NOT RLX_ENABLE_CUPTI)
  set(RLX_HAVE_CUPTI OFF)
endif()
message(STATUS "rlx: LibTorch ${Torch_VERSION}, CUDA in LibTorch: ${RLX_HAVE_TORCH_CUDA}, CUPTI: ${RLX_HAVE_CUPTI}")
