// tensor_library.cpp: finds and loads librlx_torch.so on first use (tensor_library.h).
#include "libtorch/tensor_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
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

// Why loading failed, from what was found (never from dlerror's wording), each with its fix.
enum class Failure { missing, not_library, libtorch, other_build };

std::string load_failure(const std::string& path, Failure kind, const std::string& detail) {
  const std::string head = "cannot load rlx's LibTorch part " + path + ": ";
  switch (kind) {
    case Failure::missing:
      return head + detail +
             " (it is built beside the rlx binary: copy it next to the binary you run, or rebuild with cmake "
             "--build build)";
    case Failure::not_library:
      return head + detail +
             " (empty or damaged): rebuild with cmake --build build, or copy the librlx_torch.so built with "
             "this rlx beside it";
    case Failure::other_build:
      return head + detail +
             ": it is from another build of rlx; rebuild both with cmake --build build, or copy the "
             "librlx_torch.so built with this rlx beside it";
    case Failure::libtorch:
      break;
  }
  return head + detail +
         " (LibTorch itself did not load: this build links the one in " RLX_TORCH_LIBRARY_DIR
         ", which must exist and be readable by this user; run scripts/setup.sh again as the user "
         "who runs rlx, or rebuild against a LibTorch every user can read: docs/getting-started.md)";
}

// Whether the file starts with the ELF magic (every shared library does).
bool is_elf(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  unsigned char magic[4] = {};
  const bool ok = std::fread(magic, 1, 4, f) == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' &&
                  magic[3] == 'F';
  std::fclose(f);
  return ok;
}

const TensorLibrary* load() {
  if (rlx_tensor_library != nullptr) {
    load_tensor_libraries(nullptr);
    return rlx_tensor_library();
  }
  const std::string path = tensor_library_path();
  if (access(path.c_str(), R_OK) != 0) throw std::runtime_error(load_failure(path, Failure::missing, std::strerror(errno)));
  // Not a shared library at all (empty, truncated, a copy gone wrong): no LibTorch was tried.
  if (!is_elf(path)) throw std::runtime_error(load_failure(path, Failure::not_library, "it is not a shared library"));
  const TensorLibrary* lib = nullptr;
  Failure kind = Failure::libtorch;
  std::string detail;
  load_tensor_libraries([&] {
    // RTLD_GLOBAL: LibTorch's libraries (OpenBLAS, libgomp, the CUDA runtime) are then found by
    // name as if rlx had linked them, which the start-up's BLAS record and the counters rely on.
    // The file is there (checked above): a failure here is one of the libraries it needs.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      detail = why != nullptr ? why : "unknown error";
      return;
    }
    auto* entry = reinterpret_cast<const TensorLibrary* (*)()>(dlsym(handle, kEntry));
    if (entry == nullptr || entry() == nullptr) {
      kind = Failure::other_build;
      detail = std::string("it has no ") + kEntry;
      return;
    }
    if (entry()->abi != kTensorLibraryAbi) {
      kind = Failure::other_build;
      char stamps[96];
      std::snprintf(stamps, sizeof stamps, "its ABI stamp is %016llx, this rlx's %016llx",
                    static_cast<unsigned long long>(entry()->abi), static_cast<unsigned long long>(kTensorLibraryAbi));
      detail = stamps;
      return;
    }
    lib = entry();
  });
  if (lib == nullptr) throw std::runtime_error(load_failure(path, kind, detail));
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
