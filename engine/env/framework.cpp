// framework.cpp: see framework.h.
#include "env/framework.h"

#include <regex>

namespace rlx::env {
namespace {

// The first capture of `pattern` in `text`, or "".
std::string find(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(pattern)) && m.size() > 1) return m[1].str();
  return "";
}

void put(nlohmann::json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

// A Build settings flag: "USE_NCCL=ON" / "USE_NCCL=1" -> true, "OFF"/"0" -> false, absent -> null.
nlohmann::json flag(const std::string& text, const std::string& name) {
  const std::string v = find(text, "\\b" + name + "=([A-Za-z0-9]+)");
  if (v.empty()) return nullptr;
  return v == "ON" || v == "1" || v == "TRUE" || v == "True";
}

}  // namespace

std::string mkl_version_from_text(const std::string& text) {
  return find(text, "Math Kernel Library Version ([0-9][0-9.]*)");
}

std::string mkl_branch_isa(int branch) {
  switch (branch) {
    // What mkl_cbwr_get_auto_branch() answers on a CPU that is not Intel's (an AMD EPYC, 2026-12-02):
    // MKL's Intel-compatible path, not an ISA of its own.
    case 2: return "Intel-compatible path: not an Intel CPU";
    case 3: return "SSE2";
    case 6: return "SSSE3";
    case 7: return "SSE4.1";
    case 8: return "SSE4.2";
    case 9: return "AVX";
    case 10: return "AVX2";
    case 11: return "AVX-512 (MIC)";
    case 12: return "AVX-512";
    case 13: return "AVX-512 (MIC, E1)";
    case 14: return "AVX-512 (E1)";
    default: return "";
  }
}

nlohmann::json framework_from_config(const std::string& text) {
  nlohmann::json out = nlohmann::json::object();
  put(out, "torch", find(text, "\\bTORCH_VERSION=([0-9][0-9A-Za-z.+]*)"));
  put(out, "torch_git", find(text, "\\bCOMMIT_SHA=([0-9a-f]{7,40})"));
  put(out, "cxx_compiler", find(text, "\n\\s*- (GCC [0-9.]+|clang [0-9.]+)"));
  put(out, "cuda_build", find(text, "\\bCUDA_VERSION=([0-9][0-9.]*)"));
  put(out, "cudnn_build", find(text, "\\bCUDNN_VERSION=([0-9][0-9.]*)"));
  put(out, "onednn", find(text, "MKL-DNN v([0-9][0-9.]*)"));
  put(out, "cpu_capability", find(text, "CPU capability usage: ([A-Z0-9_]+)"));
  put(out, "openmp", find(text, "OpenMP [0-9]+ \\(a\\.k\\.a\\. OpenMP ([0-9.]+)\\)"));
  const std::string blas = find(text, "\\bBLAS_INFO=([A-Za-z0-9_]+)");
  if (!blas.empty()) {
    nlohmann::json b = {{"name", blas == "mkl" ? "MKL" : (blas == "open" ? "OpenBLAS" : blas)}};
    put(b, "version", mkl_version_from_text(text));
    out["blas"] = b;
  }
  nlohmann::json dist = nlohmann::json::object();
  for (const auto& [key, name] : {std::pair{"gloo", "USE_GLOO"}, {"nccl", "USE_NCCL"}, {"mpi", "USE_MPI"}}) {
    if (const nlohmann::json f = flag(text, name); !f.is_null()) dist[key] = f;
  }
  if (!dist.empty()) out["distributed"] = dist;
  return out;
}

}  // namespace rlx::env
