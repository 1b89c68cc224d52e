// precisions.h: which precisions this build of rlx can train in on each device, and why not where
// it cannot. The one owner of those refusals: the trainer refuses a run with the line before it
// builds anything, rlx.devices() lists them per device (refused_precisions), and a study's planner
// leaves a refused precision out of its plan with the same line (rlx.experiment).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlx::train {

// Why `precision` ("fp32", "amp", "bf16") cannot train on device `device_id` ("cpu", "cuda:N"):
// one line naming the cause and the fix; "" when it can. bf16 on the CPU is decided by a probe
// (a bf16 convolution and linear layer, forward and backward, run once per process), so the
// refusal names what this LibTorch did on this CPU, not a rule about versions.
std::string precision_refusal(const std::string& precision, const std::string& device_id);

// {precision: refusal} for every precision the device refuses; {} when it refuses none.
nlohmann::json refused_precisions(const std::string& device_id);

// The refusal of bf16 on the CPU given the probe's error ("" = it ran): pure, tested on any host.
// torch_version "1.13.0"; arm64_bf16: this is an arm64 CPU with the bf16 feature, where LibTorch
// 1.13 hands bf16 convolutions to oneDNN (seen under qemu-user, 2026-11-29: a CPU model without
// bf16 trained resnet18 in bf16, one with it failed in oneDNN).
std::string cpu_bf16_refusal(const std::string& probe_error, const std::string& torch_version,
                             bool arm64_bf16);

}  // namespace rlx::train
