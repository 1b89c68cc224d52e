// tensor_library.cpp: finds and loads librlx_torch.so on first use (tensor_library.h).
#include "startup/tensor_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "startup/startup.h"

// Linked into the unit tests beside the parts that use LibTorch; absent (null) in rlx, which loads
// the library instead.
extern "C" const rlx::startup::TensorLibrary* rlx_tensor_library() __attribute__((weak));

namespace rlx::startup {
namespace {

constexpr const char* kLibraryName = "librlx_torch.so";
constexpr const char* kEntry = "rlx_tensor_library";
const TensorLibrary* g_loaded = nullptr;

// Why loading failed, with the fix: the library missing or from another build (copy it beside the
// binary, or rebuild), or present but unable to load LibTorch itself (the folder the build was
// configured against, RLX_TORCH_LIBRARY_DIR: gone, or unreadable by this user).
std::string load_failure(const std::string& path, const std::string& error) {
  const std::string head = "cannot load rlx's LibTorch part " + path + ": " + error;
  if (access(path.c_str(), R_OK) == 0 && error.find(kLibraryName) == std::string::npos &&
      error.find("not the library of this build") == std::string::npos) {
    return head + " (LibTorch itself did not load: this build links the one in " RLX_TORCH_LIBRARY_DIR
                  ", which must exist and be readable by this user; run scripts/setup.sh again as the user "
                  "who runs rlx, or rebuild against a LibTorch every user can read: docs/getting-started.md)";
  }
  return head + " (it is built beside the rlx binary: copy it next to the binary you run, or rebuild with "
                "cmake --build build)";
}

const TensorLibrary* load() {
  if (rlx_tensor_library != nullptr) {
    load_tensor_libraries(nullptr);
    return rlx_tensor_library();
  }
  const std::string path = tensor_library_path();
  const TensorLibrary* lib = nullptr;
  std::string error;
  load_tensor_libraries([&] {
    // RTLD_GLOBAL: LibTorch's libraries (OpenBLAS, libgomp, the CUDA runtime) are then found by
    // name as if rlx had linked them, which the start-up's BLAS record and the counters rely on.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      error = why != nullptr ? why : "unknown error";
      return;
    }
    auto* entry = reinterpret_cast<const TensorLibrary* (*)()>(dlsym(handle, kEntry));
    if (entry == nullptr || entry() == nullptr || entry()->abi != kTensorLibraryAbi) {
      error = "it is not the library of this build of rlx (no matching " + std::string(kEntry) + ")";
      return;
    }
    lib = entry();
  });
  if (lib == nullptr) throw std::runtime_error(load_failure(path, error));
  return lib;
}

}  // namespace

const TensorLibrary& tensor_library() {
  // Lua runs on one thread; the library's own functions may be called from others once loaded.
  static const TensorLibrary* lib = load();
  g_loaded = lib;
  return *lib;
}

bool tensor_library_loaded() {
  return g_loaded != nullptr || rlx_tensor_library != nullptr;
}

std::string tensor_library_path() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return kLibraryName;  // the loader's search path, as a last resort
  std::string dir(exe, static_cast<std::size_t>(n));
  dir.erase(dir.find_last_of('/') + 1);
  return dir + kLibraryName;
}

}  // namespace rlx::startup
