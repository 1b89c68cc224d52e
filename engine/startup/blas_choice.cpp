// blas_choice.cpp: the OpenBLAS kernel chosen before the BLAS loads (blas_choice.h).
#include "startup/blas_choice.h"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>

#include "env/blas_kernel.h"
#include "env/env.h"
#include "util/env_value.h"
#include "util/printable.h"

namespace rlx::startup {
namespace {

using env::BlasPlan;
using env::SgemmFn;

// The BLAS LibTorch loads: Debian's libtorch_cpu needs libblas.so.3 (the alternatives' choice,
// scripts/setup.sh selects OpenBLAS's OpenMP build); libopenblas.so.0 where that is missing.
constexpr const char* kBlasLibraries[] = {"libblas.so.3", "libopenblas.so.0"};
// A child that has not answered by then (a machine under heavy load) counts as failed.
constexpr int kProbeTimeoutMs = 20'000;

std::string getenv_str(const char* name) {
  const char* v = util::env_value(name);
  return v ? std::string(v) : std::string();
}

std::string corename_in(void* lib) {
  auto* name = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_corename"));
  return name && name() ? std::string(name()) : std::string();
}

// RLX_TEST_BLAS_CHECK=fail: the real product with one element spoiled, as a wrong kernel would.
SgemmFn g_real_sgemm = nullptr;
void spoiled_sgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                   const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                   const float* beta, float* c, const int* ldc) {
  g_real_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  c[0] += 1.0f;
}

// In a child process: loads the BLAS (with OPENBLAS_CORETYPE=coretype when not empty) and answers
// "<core>\n" or, with check, "<core>\n<ok|fail>\n<detail>". The caller exits it with _exit, so
// nothing of this process (buffers, atexit handlers, databases) runs twice. rlx has no other thread
// when it first loads LibTorch (data loading starts inside a training run), so the child's loader
// and allocator are free; a child that hangs all the same is killed after kProbeTimeoutMs.
std::string probe_in_child(const std::string& coretype, bool check) {
  if (coretype.empty())
    unsetenv("OPENBLAS_CORETYPE");
  else
    setenv("OPENBLAS_CORETYPE", coretype.c_str(), 1);
  void* lib = nullptr;
  for (const char* name : kBlasLibraries)
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  if (lib == nullptr) return "\n";
  std::string out = corename_in(lib) + "\n";
  if (!check) return out;
  auto* sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "sgemm_"));
  if (sgemm == nullptr) return out + "fail\nno sgemm_ symbol to check it with";
  g_real_sgemm = sgemm;
  const bool spoil = getenv_str("RLX_TEST_BLAS_CHECK") == "fail";
  std::string detail;
  const bool ok = env::check_sgemm(spoil ? &spoiled_sgemm : sgemm, &detail);
  return out + (ok ? "ok\n" : "fail\n") + detail;
}

// Runs probe_in_child in a child process and returns its answer; nullopt when the child could not
// be started, died or did not answer within kProbeTimeoutMs.
std::optional<std::string> probe(const std::string& coretype, bool check) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string answer = probe_in_child(coretype, check);
    const char* p = answer.data();
    for (std::size_t left = answer.size(); left > 0;) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string answer;
  char buf[512];
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kProbeTimeoutMs);
  bool done = false;
  while (!done) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) answer.append(buf, static_cast<std::size_t>(n));
    done = n <= 0;
  }
  close(fds[0]);
  if (!done) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return answer;
}

std::string real_corename() {
  return corename_in(RTLD_DEFAULT);
}

bool equal_ci(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

BlasDecision choose_blas_kernel() {
  BlasDecision d;
  env::BlasInputs in;
  in.cpu_flags = env::cpu_flags();
  in.opt_out = getenv_str(env::kBlasAutoVar) == "0";
  // Only a better kernel than OpenBLAS's own needs a look before the load.
  if (!getenv_str("OPENBLAS_CORETYPE").empty() || in.opt_out ||
      env::best_coretype_for_flags(in.cpu_flags).empty())
    return d;
  const auto own = probe("", false);
  if (!own) return d;
  in.corename = own->substr(0, own->find('\n'));
  // The test hook stands for OpenBLAS's own choice only, where OpenBLAS is there.
  if (const std::string pretend = getenv_str("RLX_TEST_BLAS_CORENAME");
      !in.corename.empty() && !pretend.empty())
    in.corename = pretend;
  d.openblas_choice = in.corename;
  const BlasPlan plan = env::plan_blas_kernel(in);
  if (plan.action != BlasPlan::Action::set_core) return d;
  const auto checked = probe(plan.coretype, true);
  std::string why;
  if (!checked) {
    why = "the child process that checks it did not answer";
  } else {
    std::istringstream lines(*checked);
    std::string core, verdict, detail;
    std::getline(lines, core);
    std::getline(lines, verdict);
    std::getline(lines, detail);
    if (!equal_ci(core, plan.coretype)) {
      why = "OpenBLAS did not accept it and runs " + core;
    } else if (verdict != "ok") {
      why = "it failed the numerical check: " + detail;
      std::cerr << "rlx: OpenBLAS kernel " << util::printable(core)
                << " dropped, back to OpenBLAS's own choice: " << util::printable(why) << "\n";
    } else {
      d.coretype = plan.coretype;
      d.check = detail;
      setenv("OPENBLAS_CORETYPE", plan.coretype.c_str(), 1);
      return d;
    }
  }
  d.dropped = plan.coretype;
  d.dropped_why = why;
  return d;
}

void describe_blas_kernel(const BlasDecision& d, Blas& b) {
  b.core = real_corename();
  b.checked = false;
  b.check.clear();
  if (b.core.empty()) {
    b.set_by = "none";
    b.openblas_choice.clear();
    b.reason = env::plan_blas_kernel({}).reason;
    return;
  }
  if (!d.coretype.empty() && equal_ci(b.core, d.coretype)) {
    b.set_by = "rlx";
    b.openblas_choice = d.openblas_choice;
    b.checked = true;
    b.check = d.check;
    b.reason = env::set_core_reason(b.core, d.openblas_choice, d.coretype);
    return;
  }
  if (!d.dropped.empty()) {
    b.set_by = "openblas";
    b.openblas_choice = b.core;
    b.reason = env::dropped_core_reason(b.core, d.dropped, d.dropped_why);
    return;
  }
  env::BlasInputs in;
  in.corename = b.core;
  in.cpu_flags = env::cpu_flags();
  in.coretype_env = getenv_str("OPENBLAS_CORETYPE");
  in.opt_out = getenv_str(env::kBlasAutoVar) == "0";
  const std::string pretend = getenv_str("RLX_TEST_BLAS_CORENAME");
  if (!pretend.empty() && in.coretype_env.empty()) in.corename = pretend;
  const BlasPlan plan = env::plan_blas_kernel(in);
  b.set_by = plan.set_by;
  b.openblas_choice = plan.openblas_choice;
  // A plan to set a kernel here means the look before the load could not be made (a child
  // process that failed): OpenBLAS's own choice is what runs.
  b.reason = plan.action == BlasPlan::Action::keep
                 ? plan.reason
                 : in.corename + " (OpenBLAS's own choice; rlx could not check " + plan.coretype +
                       " before loading it)";
}

}  // namespace rlx::startup
