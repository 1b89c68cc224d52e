-- rlx.env: the environment a study runs in, captured from the machine (engine/env) and completed
-- with what only the running rlx knows (library versions from rlx.version(), devices from
-- rlx.devices()). rlx.env.markdown() renders seed 000's logs/env_info.md, filled in.
local options = require("rlx.options")
local errors = require("rlx.errors")
local core = rlx._core.env

local M = {}

-- Fields that change between two captures of the same machine and software: left out of the id.
local VOLATILE = {captured_at = true, id = true}

--- The content id of an environment table (same machine and software -> same id). Inside a
--- container the host name is left out: it is usually the container's id, new on every start,
--- and would stop a restarted container from resuming its study.
function M.id(env)
  errors.expect("rlx.env.id", env, "table", "an environment table")
  local stable = {}
  local in_container = env.container ~= nil and env.container ~= "none"
  for k, v in pairs(env) do
    if not VOLATILE[k] and not (in_container and k == "host") then stable[k] = v end
  end
  return rlx.db.hash(stable)
end

-- A short name for the hardware: the GPU model when there is one ("NVIDIA GeForce RTX 4090" ->
-- "rtx4090", "NVIDIA H100 80GB HBM3" -> "h100", "Tesla T4" -> "t4"), else the CPU family and core
-- count ("AMD EPYC 7B13" with 2 cores -> "epyc-2c", "Intel(R) Xeon(R) CPU @ 2.20GHz" -> "xeon-2c"),
-- or under an emulator its kind and the architecture (qemu-user arm64 on 2 cores -> "qemu-arm64-2c").
-- Never the container or virtualization kind: that names no machine.
function M.hardware_label(env)
  local gpu = type(env.gpu_name) == "string" and env.gpu_name:lower() or nil
  if gpu and gpu ~= "" then
    gpu = gpu:gsub("nvidia", ""):gsub("geforce", ""):gsub("tesla", ""):gsub("%(r%)", ""):gsub("%(tm%)", "")
    local model = gpu:match("rtx%s*%d+%s*%a*") or gpu:match("gtx%s*%d+") or gpu:match("[ahlbvtpk]%d+%a?") or
      gpu:match("%w+")
    if model then return (model:gsub("%s+", "")) end
  end
  local cpu = type(env.cpu_model) == "string" and env.cpu_model:lower() or ""
  local family
  for _, f in ipairs({"epyc", "xeon", "ryzen", "threadripper", "opteron", "core", "celeron", "pentium", "atom",
    "graviton", "neoverse", "ampere", "apple"}) do
    if cpu:find(f, 1, true) then family = f break end
  end
  family = family or (cpu:match("%a+") or (env.arch or "cpu"))
  -- Under an emulator the CPU is the emulator's: "qemu-arm64-2c", never the host's family.
  if type(env.emulation) == "table" then
    family = (tostring(env.emulation.kind):match("^%a+") or "emulated") .. "-" .. tostring(env.arch_name or env.arch)
  end
  local cores = tonumber(env.cpu_cores) or tonumber(env.cpu_threads)
  return family .. (cores and ("-" .. math.floor(cores) .. "c") or "")
end

-- --set env=NAME (its text as typed: --set env=4090 is the label "4090"), else $RLX_ENV, else the
-- hardware (M.hardware_label).
local function default_label(env)
  local text = rlx.params_text and rlx.params_text.env
  local name = text or os.getenv("RLX_ENV")
  if not name or name == "" then name = M.hardware_label(env) end
  return (name:gsub("[^%w%-%.]", "-"))
end

--- Whether a label was given by the user (--set env=, $RLX_ENV) rather than made from hardware.
function M._label_given()
  local text = rlx.params_text and rlx.params_text.env
  local envvar = os.getenv("RLX_ENV")
  return (text ~= nil and text ~= "") or (envvar ~= nil and envvar ~= "")
end

--- Whether CUDA_VISIBLE_DEVICES hides every GPU on purpose: set, and empty or "-1..." (CUDA's own
--- "no device"). A user (or scripts/gpu/build-and-test.sh running the CPU test suite on a GPU
--- machine) asked for no GPU; that is no fault to warn about. Unset, or naming a device, is not.
function M.gpu_hidden_on_purpose(visible)
  return type(visible) == "string" and (visible:match("^%s*$") ~= nil or visible:match("^%s*%-1") ~= nil)
end

--- Why the GPU the driver reports (env.gpus, from nvidia-smi or /proc/driver/nvidia) cannot be
--- trained on by this rlx, or nil: a CPU-only LibTorch (Debian's) on a GPU machine would otherwise
--- run the CPU sweep only, quietly. devices: rlx.devices(); version: rlx.version(); visible: the
--- value of CUDA_VISIBLE_DEVICES (default: the environment's; false: unset). nil as well when
--- CUDA_VISIBLE_DEVICES hides the GPUs on purpose (M.gpu_hidden_on_purpose).
function M.gpu_unusable(env, devices, version, visible)
  if type(env) ~= "table" or type(env.gpus) ~= "table" or #env.gpus == 0 then return nil end
  if visible == nil then visible = os.getenv("CUDA_VISIBLE_DEVICES") end
  if M.gpu_hidden_on_purpose(visible) then return nil end
  for _, d in ipairs(devices or {}) do
    if d.kind == "cuda" then return nil end
  end
  local name = tostring(env.gpus[1].name or "an NVIDIA GPU")
  if #env.gpus > 1 then name = string.format("%s (and %d more)", name, #env.gpus - 1) end
  if not (version and version.torch_cuda) then
    return string.format("%s is present, but this rlx is built against a CPU-only LibTorch %s, so it trains on " ..
      "the CPU only; rebuild on this machine with scripts/setup.sh, which finds a CUDA LibTorch (docs/gpu.md)", name,
      tostring(version and version.torch or "?"))
  end
  return string.format("%s is present and this rlx's LibTorch has CUDA, but LibTorch sees no CUDA device " ..
    "(is the driver older than LibTorch's CUDA?)", name)
end

--- The framework as one line (rlx.version().framework, an environment's `framework`): "LibTorch
--- 2.15.0 (d0f2af8b66b2), CUDA 13.2, cuDNN 9.26.0, NCCL 2.30.7, oneDNN 3.13.3, MKL 2024.2 (AVX2),
--- ATen CPU kernels AVX512". nil for an environment captured before rlx recorded it.
function M.framework_text(fw)
  if type(fw) ~= "table" or type(fw.torch) ~= "string" then return nil end
  local parts = {"LibTorch " .. fw.torch .. (type(fw.torch_git) == "string" and (" (" .. fw.torch_git:sub(1, 12) .. ")") or "")}
  local function add(name, value)
    if type(value) == "string" and value ~= "" then parts[#parts + 1] = name .. " " .. value end
  end
  add("CUDA", fw.cuda_runtime or fw.cuda_build)
  add("cuDNN", fw.cudnn or fw.cudnn_build)
  add("NCCL", fw.nccl)
  add("oneDNN", fw.onednn)
  local b = type(fw.blas) == "table" and fw.blas or {}
  if type(b.name) == "string" then
    local version, isa = b.version and (" " .. tostring(b.version)) or "", b.isa and (" (" .. tostring(b.isa) .. ")") or ""
    parts[#parts + 1] = b.name .. version .. isa
  end
  add("ATen CPU kernels", fw.cpu_capability)
  return table.concat(parts, ", ")
end

--- Captures the environment: {label=, zone=, instance_type=} (zone and instance type override
--- what the machine exposes; neither is knowable offline on every cloud).
function M.capture(opts)
  local o = options.check("rlx.env.capture", opts, {
    label = {type = "string"}, zone = {type = "string"}, instance_type = {type = "string"},
  })
  if o.label and not o.label:match("^[%w][%w%-%.]*$") then
    errors.raise("rlx.env.capture", string.format("option 'label' must be letters, digits, '-' or '.' (it " ..
      "starts every run label), got %q", o.label))
  end
  local env = core.capture(o.label or "")
  if env.label == "" then env.label = default_label(env) end
  local v = rlx.version()
  env.rlx, env.torch, env.torch_cuda = v.rlx, v.torch, v.torch_cuda
  env.luajit, env.compiler, env.sqlite, env.build_type = v.luajit, v.compiler, v.sqlite, v.build_type
  env.cuda_build = v.cuda
  -- The cuDNN the runs use is LibTorch's (a CUDA build says which); the one installed on the machine
  -- (its cudnn_version.h) can be another (PyTorch's wheels bring their own), kept beside it.
  if v.cudnn and v.cudnn ~= env.cudnn then env.cudnn_installed, env.cudnn = env.cudnn, v.cudnn end
  -- Allocator and BLAS-thread settings change throughput (docs/benchmarks.md), so they are part of
  -- the environment and of its id.
  env.process_tuning = v.tuning
  -- The framework as data (LibTorch and its commit, CUDA runtime, cuDNN, NCCL, oneDNN, the BLAS and
  -- the ISA it dispatches to): two builds of rlx on one machine are two environments (issue 51).
  env.framework = v.framework
  -- The OpenBLAS kernel set decides the fp32 GEMM rate (5x between Prescott and SkylakeX on one
  -- CPU): part of the environment and its id. The check's error figure is left out (not an identity).
  if type(v.blas) == "table" then
    env.blas = {name = v.blas.name, threading = v.blas.threading, core = v.blas.core ~= "" and v.blas.core or nil,
      set_by = v.blas.set_by, openblas_choice = v.blas.openblas_choice ~= "" and v.blas.openblas_choice or nil,
      reason = v.blas.reason}
  end
  local ok, devices = pcall(rlx.devices)
  env.devices = {}
  if ok and type(devices) == "table" then
    for _, d in ipairs(devices) do
      env.devices[#env.devices + 1] = {kind = d.kind, id = d.id, name = d.name, memory_bytes = d.memory_bytes}
      -- Without nvidia-smi or /proc/driver/nvidia (containers), LibTorch still names the GPU.
      if d.kind == "cuda" and #env.gpus == 0 then
        env.gpus[#env.gpus + 1] = {name = d.name, memory_bytes = d.memory_bytes, driver = env.gpu_driver}
      end
    end
  end
  if not env.gpu_name and env.gpus[1] then
    env.gpu_name, env.gpu_memory_bytes = env.gpus[1].name, env.gpus[1].memory_bytes
  end
  env.gpu_unusable = M.gpu_unusable(env, env.devices, v)
  if o.zone then env.cloud_zone = o.zone end
  if o.instance_type then env.instance_type = o.instance_type end
  env.id = M.id(env)
  return env
end

local function gib(bytes)
  if type(bytes) ~= "number" then return "unknown" end
  return string.format("%.1f GiB", bytes / 2 ^ 30)
end

local function size(bytes)
  if bytes >= 2 ^ 20 then return string.format("%g MiB", bytes / 2 ^ 20) end
  return string.format("%g KiB", bytes / 2 ^ 10)
end

local function or_unknown(v) if v == nil or v == "" then return "unknown" end return tostring(v) end

--- How many CPUs this process may run on: its affinity mask's count (`taskset`, a Slurm task's
--- cpuset, a container's), else the machine's, and no more than its cgroup's CPU quota rounded up
--- (`docker run --cpus`, a Kubernetes limit: M.cpu_quota). rlx.train's default thread count unless
--- OMP_NUM_THREADS is set (M.default_threads). Not part of the environment (and its id): it is a
--- property of the process, not of the machine.
function M.usable_cpus() return core.usable_cpus() end

--- rlx.train's default intra-op threads and why: {threads, from = "OMP_NUM_THREADS" | "cpus"}.
--- OMP_NUM_THREADS set to a count ("4", or "4,2": its outer level) is the user's choice, as every
--- OpenMP program reads it; else one per usable CPU (M.usable_cpus).
function M.default_threads() return core.default_threads() end

--- The CPU time this process's cgroup allows, as {cpus = quota / period, source = the file that
--- set it}, or nil without a quota. The tightest of its group and the groups above it, cgroup v1
--- (cpu.cfs_quota_us) or v2 (cpu.max).
function M.cpu_quota() return core.cpu_quota() end

--- A quota's CPUs as text: "1 CPU", "1.5 CPUs".
function M.cpus_text(cpus) return string.format("%.3g CPU%s", cpus, cpus == 1 and "" or "s") end

--- Seed 000's logs/env_info.md for this environment, as Markdown text.
function M.markdown(env)
  errors.expect("rlx.env.markdown", env, "table", "an environment table")
  local L = {}
  local function add(s) L[#L + 1] = s end
  local function row(k, v) add(string.format("| %s | %s |", k, or_unknown(v))) end
  add("# Environment: " .. or_unknown(env.label))
  add("")
  add(string.format("Captured by rlx %s on %s (environment id `%s`).", or_unknown(env.rlx), or_unknown(env.captured_at),
    or_unknown(env.id)))
  add("")
  add("## System")
  add("")
  add("| Item | Value |")
  add("| --- | --- |")
  row("Host", env.host)
  row("OS", env.os)
  row("Kernel", env.kernel)
  row("Architecture", env.arch and (env.arch_name and env.arch_name ~= env.arch) and
    string.format("%s (%s)", env.arch, env.arch_name) or env.arch)
  if env.emulation then
    row("Emulation", string.format("%s: %s%s; every figure is the emulator's, not a CPU's", or_unknown(env.emulation.kind),
      or_unknown(env.emulation.evidence), env.emulation.host_cpu and (" (host CPU: " .. env.emulation.host_cpu .. ")") or ""))
  end
  row("Virtualization", env.virtualization)
  row("Container", env.container)
  row("Cloud provider", env.cloud_provider or "none detected")
  row("Region/Zone", env.cloud_zone or "not exposed locally (pass zone= to rlx.env.capture)")
  row("Instance type", env.instance_type)
  local dmi = env.dmi or {}
  if dmi.sys_vendor or dmi.product_name then
    row("Machine (DMI)", (dmi.sys_vendor or "") .. " " .. (dmi.product_name or ""))
  end
  add("")
  add("## CPU and memory")
  add("")
  add("| Item | Value |")
  add("| --- | --- |")
  row("CPU model", env.cpu_model)
  row("Sockets / cores / threads", string.format("%s / %s / %s", or_unknown(env.cpu_sockets),
    or_unknown(env.cpu_cores), or_unknown(env.cpu_threads)))
  row("Vector ISA (rlx's kernels)", env.isa)
  row("Vector extensions", env.simd and #env.simd > 0 and table.concat(env.simd, ", ") or nil)
  local caches = {}
  for _, c in ipairs(env.cpu_caches or {}) do
    if type(c.size_bytes) == "number" and c.size_bytes > 0 then
      local kind = c.type == "Data" and "d" or (c.type == "Instruction" and "i" or "")
      caches[#caches + 1] = string.format("L%d%s %s", c.level, kind, size(c.size_bytes))
    end
  end
  local from_sysconf = env.cpu_caches and env.cpu_caches[1] and env.cpu_caches[1].source == "sysconf"
  row("Caches (per cpu0)", #caches > 0 and (table.concat(caches, ", ") ..
    (from_sysconf and " (from CPUID via sysconf: this machine has no /sys cache directory)" or "")) or nil)
  row("Memory", gib(env.memory_bytes))
  add("")
  add("## GPU")
  add("")
  add("| Item | Value |")
  add("| --- | --- |")
  if env.gpus and #env.gpus > 0 then
    for i, g in ipairs(env.gpus) do
      row("GPU " .. (i - 1), string.format("%s, %s", or_unknown(g.name), gib(g.memory_bytes)))
    end
  else
    row("GPU", "none visible")
  end
  row("Driver", env.gpu_driver)
  row("CUDA toolkit (installed)", env.cuda)
  row("CUDA (rlx built with)", env.cuda_build or "not built in")
  row(env.cudnn_installed and "cuDNN (LibTorch uses)" or "cuDNN", env.cudnn)
  if env.cudnn_installed then row("cuDNN (installed, unused)", env.cudnn_installed) end
  if env.gpu_unusable then row("**GPU not used**", env.gpu_unusable) end
  add("")
  add("## Software")
  add("")
  add("| Item | Value |")
  add("| --- | --- |")
  row("rlx", string.format("%s (%s)", or_unknown(env.rlx), or_unknown(env.build_type)))
  row("LibTorch", string.format("%s (%s)", or_unknown(env.torch), env.torch_cuda and "CUDA" or "CPU only"))
  row("Framework", M.framework_text(env.framework))
  if type(env.framework) == "table" and env.framework.openmp_library then
    row("OpenMP runtime", env.framework.openmp_library)
  end
  row("LuaJIT", env.luajit)
  row("SQLite", env.sqlite)
  row("Compiler", env.compiler)
  row("BLAS kernel", type(env.blas) == "table" and env.blas.reason or nil)
  row("Process settings", env.process_tuning and #env.process_tuning > 0 and table.concat(env.process_tuning, "; ") or nil)
  row("Python", "not used (rlx embeds LuaJIT)")
  add("")
  add("## Storage and network")
  add("")
  add("| Item | Value |")
  add("| --- | --- |")
  local st = env.storage or {}
  row("Root filesystem", st.root_fs and string.format("%s on %s, %s", st.root_fs, or_unknown(st.root_device),
    gib(st.root_bytes)) or nil)
  row("Network", "not captured (no network access is used)")
  row("Container image tag", env.container ~= "none" and "record the image tag here" or "n/a")
  add("")
  return table.concat(L, "\n")
end

return M
