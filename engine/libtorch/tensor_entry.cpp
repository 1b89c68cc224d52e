// tensor_entry.cpp: the one symbol librlx_torch.so exports for rlx (tensor_library.h). Compiled into
// the library with the parts that use LibTorch, and linked into the unit tests beside them.
#include "libtorch/tensor_library.h"
#include "train/data_parallel.h"
#include "train/devices.h"

extern "C" const rlx::startup::TensorLibrary* rlx_tensor_library() {
  static const rlx::startup::TensorLibrary lib = [] {
    rlx::startup::TensorLibrary l;
    l.train = &rlx::train::train;
    l.devices = &rlx::train::devices;
    l.cudnn_version = &rlx::train::cudnn_version;
    l.framework = &rlx::train::framework;
    l.optimizer_note = &rlx::train::optimizer_note;
    l.cpu_gemm = &rlx::peaks::torch_cpu_gemm;
    l.cuda_available = &rlx::peaks::torch_cuda_available;
    l.measure_cuda = &rlx::peaks::measure_cuda;
    l.run_rank = &rlx::train::run_rank_process;
    return l;
  }();
  return &lib;
}
