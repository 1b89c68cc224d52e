-- rlx.studydb.data.name_environments (issue 55): environments are identities, not labels. Each case
-- is a set of environments as the store reads them; the names follow from the fields by hand.
local data = require("rlx.studydb.data")
local function names(envs)
  local runs = {}
  for _, e in ipairs(envs) do
    e.info = e.info or {}
    runs[#runs + 1] = {environment_id = e.id, env = e.label, device = "cpu"}
  end
  data.name_environments(envs, runs, {})
  local out = {}
  for i, e in ipairs(envs) do
    assert(runs[i].env == e.label and runs[i].env_key == e.label, "a run takes its environment's name")
    out[#out + 1] = e.label
  end
  return table.concat(out, " | ")
end
local EPYC = {cpu_model = "AMD EPYC", cpu_cores = 2, memory_bytes = 25276510208, torch = "1.13.0", container = "docker"}
local function epyc(id, flags, extra)
  local e = {id = id, label = "epyc-2c", cpu_flags = flags}
  for k, v in pairs(EPYC) do e[k] = v end
  for k, v in pairs(extra or {}) do e[k] = v end
  return e
end
-- The old Zen 3 and the fresh Zen 5: one model name, the flags tell them apart.
print("cpu", names({epyc("1e533b74", "fma avx2"), epyc("d9faeff0", "fma avx2 avx512f avx512_bf16")}))
-- One machine, two LibTorch builds: the torch version, from info.framework.torch where rlx recorded
-- it (issue 51), else the torch column.
print("torch", names({epyc("aa", "avx2"), epyc("bb", "avx2", {torch = "2.15.0+cpu-column",
  info = {framework = {torch = "2.15.0"}}})}))
-- Nothing listed differs: the id's first 8 digits.
print("id", names({epyc("0123456789", "avx2"), epyc("abcdef0123", "avx2")}))
-- Alone, a label stays as it is; an emulated environment says so.
print("alone", names({epyc("cc", "avx2"), {id = "dd", label = "qemu-arm64-2c", cpu_model = "emulated arm64 CPU",
  info = {emulation = {kind = "qemu-user"}}}}))
-- Named again (a combined report names its inputs' environments once more): the same names.
local envs = {epyc("1e533b74", "avx2"), epyc("d9faeff0", "avx512f")}
names(envs)
print("again", names(envs))
