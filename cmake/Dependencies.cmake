# Finds every dependency as Debian installs it, and detects the optional CUDA pieces:
#  - RLX_HAVE_CUPTI: the CUDA toolkit with CUPTI is present (/usr/local/cuda here); the counters
#    backend is compiled and linked against it.
#  - RLX_HAVE_TORCH_CUDA: LibTorch itself was built with CUDA (pip's LibTorch 2.x on a GPU box);
#    the CUDA training paths (events, autocast fp16, grad scaler) are compiled.
find_package(PkgConfig REQUIRED)

# rlx_find_c_library(VAR pkgconfig-name header-path-suffix header library): defines the imported
# target PkgConfig::VAR from pkg-config, or, where the .pc file or one of its Requires.private is
# missing (libraries unpacked from .deb files on a GPU machine, scripts/gpu/), from the header and
# library found directly.
macro(rlx_find_c_library VAR PCNAME SUFFIX HEADER LIBNAME)
  pkg_check_modules(${VAR} QUIET IMPORTED_TARGET ${PCNAME})
  if(NOT ${VAR}_FOUND)
    find_path(${VAR}_INCLUDE_DIR ${HEADER} PATH_SUFFIXES ${SUFFIX})
    find_library(${VAR}_LIBRARY NAMES ${LIBNAME})
    if(NOT ${VAR}_INCLUDE_DIR OR NOT ${VAR}_LIBRARY)
      message(FATAL_ERROR "rlx: ${PCNAME} not found (install its Debian -dev package: scripts/setup.sh)")
    endif()
    add_library(PkgConfig::${VAR} INTERFACE IMPORTED)
    set_target_properties(PkgConfig::${VAR} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${${VAR}_INCLUDE_DIR}
      INTERFACE_LINK_LIBRARIES ${${VAR}_LIBRARY})
    message(STATUS "rlx: ${PCNAME} from ${${VAR}_LIBRARY} (no pkg-config)")
  endif()
endmacro()
rlx_find_c_library(LUAJIT luajit luajit-2.1 lua.h luajit-5.1)
include(${CMAKE_CURRENT_LIST_DIR}/CheckLuaJITUnwinding.cmake)
rlx_find_c_library(CAIRO cairo cairo cairo.h cairo)
rlx_find_c_library(LIBEDIT libedit "" editline/readline.h edit)
rlx_find_c_library(TURBOJPEG libturbojpeg "" turbojpeg.h turbojpeg)
# GFM Markdown for report.html (engine/report). Debian ships no .pc file for the extensions.
rlx_find_c_library(CMARK_GFM libcmark-gfm "" cmark-gfm.h cmark-gfm)
rlx_find_c_library(CMARK_GFM_EXT libcmark-gfm-extensions "" cmark-gfm-core-extensions.h cmark-gfm-extensions)
find_package(SQLiteCpp REQUIRED)
find_package(fmt REQUIRED)
find_package(Catch2 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(Threads REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/TorchPackage.cmake)

# Torch's exported flags carry include paths and the ABI define; an INTERFACE target keeps them in
# one place so only the libraries that really include LibTorch headers pay for them.
add_library(rlx_torch_deps INTERFACE)
target_link_libraries(rlx_torch_deps INTERFACE ${TORCH_LIBRARIES})
target_compile_options(rlx_torch_deps INTERFACE -Wno-unused-parameter)
foreach(dir ${RLX_TORCH_NVIDIA_LIB_DIRS})
  target_link_options(rlx_torch_deps INTERFACE "LINKER:-rpath-link,${dir}")
endforeach()
# PyTorch's wheels ship their own, newer fmt headers inside LibTorch's include directory, so a
# translation unit that includes LibTorch sees that fmt, whose out-of-line functions are in no
# library rlx links (Debian's libfmt is an older major version). Those units use fmt header-only;
# the versions live in different inline namespaces (fmt::v9, fmt::v12), so they do not clash.
get_target_property(RLX_FMT_INCLUDE_DIRS fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
foreach(dir ${TORCH_INCLUDE_DIRS})
  if(EXISTS "${dir}/fmt/format.h" AND NOT dir IN_LIST RLX_FMT_INCLUDE_DIRS AND NOT RLX_TORCH_OWN_FMT)
    set(RLX_TORCH_OWN_FMT ON)
    target_compile_definitions(rlx_torch_deps INTERFACE FMT_HEADER_ONLY=1)
    message(STATUS "rlx: LibTorch ships fmt (${dir}/fmt): its users compile fmt header-only")
  endif()
endforeach()

# LibTorch's version as its headers give it (torch/version.h), for `rlx version` without loading
# LibTorch (host/rlx_build_info.h.in; the library itself is loaded on first use).
set(RLX_TORCH_VERSION "${Torch_VERSION}")
foreach(dir ${TORCH_INCLUDE_DIRS})
  # 1.13 defines the numbers in torch/version.h; 2.10 and newer in torch/headeronly/version.h.
  foreach(rel torch/version.h torch/csrc/api/include/torch/version.h torch/headeronly/version.h)
    if(EXISTS "${dir}/${rel}" AND NOT RLX_TORCH_VERSION_FROM_HEADER)
      file(STRINGS "${dir}/${rel}" _rlx_torch_version REGEX "^#define TORCH_VERSION_(MAJOR|MINOR|PATCH) ")
      if(_rlx_torch_version MATCHES ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*PATCH ([0-9]+).*")
        set(RLX_TORCH_VERSION "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
        set(RLX_TORCH_VERSION_FROM_HEADER ON)
      endif()
    endif()
  endforeach()
endforeach()

set(RLX_HAVE_TORCH_CUDA OFF)
set(RLX_TORCH_CUDA_INT 0)
if(TORCH_CUDA_LIBRARIES OR TARGET torch_cuda)
  set(RLX_HAVE_TORCH_CUDA ON)
  set(RLX_TORCH_CUDA_INT 1)
  target_compile_definitions(rlx_torch_deps INTERFACE RLX_HAVE_TORCH_CUDA=1)
endif()

# c10d, LibTorch's distributed package (data-parallel runs: engine/train/data_parallel.h): its
# headers come with LibTorch 2.x; ProcessGroupGloo.hpp also includes Gloo's, which the PyPI wheel
# leaves out (Debian's libgloo-dev gives them; only types are used from them, the code is LibTorch's).
# The NCCL process group needs nccl.h (NVIDIA's wheel beside torch, or the toolkit's).
set(RLX_HAVE_C10D OFF)
set(RLX_HAVE_C10D_NCCL OFF)
find_path(RLX_GLOO_INCLUDE_DIR gloo/context.h)
if(RLX_TORCH_VERSION VERSION_GREATER_EQUAL 2.10 AND RLX_GLOO_INCLUDE_DIR)
  # c10d's C++ API is not stable between LibTorch releases (c10d::Reducer's constructor changes):
  # the calls rlx makes must compile against this LibTorch, or data-parallel is left out (ranks > 1
  # then fails with the reason) rather than the whole build failing (a GPU machine's own torch).
  include(CheckCXXSourceCompiles)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  set(CMAKE_REQUIRED_FLAGS "-std=c++20 ${TORCH_CXX_FLAGS}")
  set(CMAKE_REQUIRED_INCLUDES ${TORCH_INCLUDE_DIRS} ${RLX_GLOO_INCLUDE_DIR})
  set(CMAKE_REQUIRED_DEFINITIONS -DUSE_C10D_GLOO=1)
  check_cxx_source_compiles([=[
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>
void f(std::vector<at::Tensor> p, c10::intrusive_ptr<c10d::ProcessGroup> g, c10::intrusive_ptr<c10d::Store> s) {
  auto o = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(1));
  o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(s, 0, 1, o);
  g->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, gloo);
  c10d::TCPStoreOptions t;
  t.isServer = true;
  t.waitWorkers = false;
  auto [idx, lim] = c10d::compute_bucket_assignment_by_size(p, std::vector<size_t>{1}, std::vector<bool>{});
  c10d::Reducer r(p, idx, g, std::vector<bool>{}, 1, false, false, std::unordered_map<size_t, std::string>{}, 1, false,
                  false, std::vector<int64_t>{});
  r.prepare_for_forward();
  r.rebuild_buckets();
  r.prepare_for_backward({});
}
int main() { return 0; }
]=] RLX_C10D_API_COMPILES)
  unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_INCLUDES)
  unset(CMAKE_REQUIRED_DEFINITIONS)
endif()
if(RLX_C10D_API_COMPILES)
  set(RLX_HAVE_C10D ON)
  target_compile_definitions(rlx_torch_deps INTERFACE RLX_HAVE_C10D=1 USE_C10D_GLOO=1)
  if(RLX_HAVE_TORCH_CUDA)
    find_path(RLX_NCCL_INCLUDE_DIR nccl.h HINTS "${RLX_TORCH_ROOT}/../nvidia/nccl/include" /usr/local/cuda/include)
    if(RLX_NCCL_INCLUDE_DIR)
      set(RLX_HAVE_C10D_NCCL ON)
      target_compile_definitions(rlx_torch_deps INTERFACE RLX_HAVE_C10D_NCCL=1 USE_C10D_NCCL=1)
      target_include_directories(rlx_torch_deps INTERFACE ${RLX_NCCL_INCLUDE_DIR})
    endif()
  endif()
endif()
message(STATUS "rlx: c10d data-parallel: ${RLX_HAVE_C10D} (Gloo headers: ${RLX_GLOO_INCLUDE_DIR}), NCCL: ${RLX_HAVE_C10D_NCCL}")

# CUPTI and the driver's header: the CUDA toolkit's, else those NVIDIA's wheels put beside a PyPI
# torch (nvidia/cu13: include/ and lib/, libraries with their major version only).
set(RLX_CUDA_ROOT_DEFAULT "/usr/local/cuda")
if(NOT EXISTS "${RLX_CUDA_ROOT_DEFAULT}/include/cuda.h")
  file(GLOB RLX_WHEEL_CUDA_ROOTS LIST_DIRECTORIES true "${RLX_TORCH_ROOT}/../nvidia/cu[0-9]*")
  if(RLX_WHEEL_CUDA_ROOTS)
    list(GET RLX_WHEEL_CUDA_ROOTS 0 RLX_CUDA_ROOT_DEFAULT)
  endif()
endif()
set(RLX_CUDA_ROOT "${RLX_CUDA_ROOT_DEFAULT}" CACHE PATH "CUDA toolkit root (for CUPTI)")
set(RLX_HAVE_CUPTI OFF)
find_path(CUPTI_INCLUDE_DIR cupti_range_profiler.h
  HINTS ${RLX_CUDA_ROOT}/include ${RLX_CUDA_ROOT}/extras/CUPTI/include)
find_library(CUPTI_LIBRARY NAMES cupti libcupti.so.13 libcupti.so.12
  HINTS ${RLX_CUDA_ROOT}/lib64 ${RLX_CUDA_ROOT}/lib ${RLX_CUDA_ROOT}/extras/CUPTI/lib64)
find_library(CUPTI_CHECKPOINT_LIBRARY checkpoint HINTS ${RLX_CUDA_ROOT}/lib64 ${RLX_CUDA_ROOT}/lib)
# No libcuda here: engine/counters loads the driver with dlopen at run time (a linked libcuda would
# keep rlx from starting on machines without the NVIDIA driver), so only the headers are needed.
find_path(CUDA_DRIVER_INCLUDE_DIR cuda.h HINTS ${RLX_CUDA_ROOT}/include)
if(CUPTI_INCLUDE_DIR AND CUPTI_LIBRARY AND CUDA_DRIVER_INCLUDE_DIR)
  set(RLX_HAVE_CUPTI ON)
  get_filename_component(CUPTI_LIBRARY_DIR ${CUPTI_LIBRARY} DIRECTORY)
endif()
option(RLX_ENABLE_CUPTI "Build the CUPTI counters backend when the toolkit is found" ON)
if(NOT RLX_ENABLE_CUPTI)
  set(RLX_HAVE_CUPTI OFF)
endif()
message(STATUS "rlx: LibTorch ${Torch_VERSION}, CUDA in LibTorch: ${RLX_HAVE_TORCH_CUDA}, CUPTI: ${RLX_HAVE_CUPTI}")
