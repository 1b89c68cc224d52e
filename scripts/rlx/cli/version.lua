-- rlx version: prints what this binary is and what it can use on this machine.
local args = require("rlx.cli._args")
local startup_text = require("rlx._startup_text")
local M = {summary = "versions of rlx, LibTorch, LuaJIT, SQLite, Cairo, fmt; architecture and ISA; CUDA/CUPTI; GPUs; BLAS kernel",
  synopsis = "version [--json]"}

local cmd = {name = "version", usage = "rlx version [--json]",
  description = "Prints the versions of rlx and the libraries it was built with, the architecture and\n" ..
    "vector ISA its kernels use (and an emulator it runs under), whether CUDA and\n" ..
    "CUPTI support are compiled in, which GPUs are visible, and which OpenBLAS kernel set fp32\n" ..
    "products run on and why (rlx may have chosen a better one than OpenBLAS did: docs/cli.md).",
  options = {{"json", "--json", type = "boolean", help = "print one JSON object"}}}

--- One line for the BLAS fp32 products run on: library, version, threading, and the kernel set
--- with why it is the one in use (engine/env/blas_kernel.h).
function M.blas_text(b)
  if type(b) ~= "table" then return "unknown" end
  if b.name ~= "OpenBLAS" then return tostring(b.name or "unknown") .. " (not OpenBLAS: no kernel choice)" end
  local version = b.version ~= "" and b.version or nil
  return string.format("OpenBLAS%s, %s build; kernel %s", version and (" " .. version) or "", tostring(b.threading),
    tostring(b.reason))
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  -- A LibTorch part that does not load: one line, "rlx version: ...", exit 1 (issue 56 item 7).
  local ok, v = pcall(rlx.version)
  if not ok then args.fail("version", v) end
  if o.json then
    print(rlx.json.encode(v, 2))
    return 0
  end
  local function line(k, val) print(string.format("%-10s %s", k, val)) end
  line("rlx", v.rlx .. " (" .. v.build_type .. ", " .. v.compiler .. ")")
  line("CPU", tostring(v.isa) .. (v.emulation and (" (emulated: " .. v.emulation .. "; its figures are the " ..
    "emulator's, not a CPU's)") or ""))
  line("LibTorch", v.torch .. (v.torch_cuda and " (CUDA)" or " (CPU only)"))
  line("Framework", rlx.env.framework_text(v.framework) or "unknown")
  if type(v.framework) == "table" and v.framework.openmp_library then line("OpenMP", v.framework.openmp_library) end
  line("LuaJIT", v.luajit)
  line("SQLite", v.sqlite)
  line("Cairo", v.cairo)
  line("fmt", v.fmt)
  line("CUDA", v.cuda and ("toolkit " .. v.cuda .. " (CUPTI counters compiled in)") or "not built in")
  line("CUPTI", v.cupti and ("API " .. v.cupti) or "not built in")
  line("BLAS", M.blas_text(v.blas))
  line("GPUs", #v.gpus > 0 and table.concat(v.gpus, ", ") or "none visible")
  for i, t in ipairs(v.tuning or {}) do line(i == 1 and "Tuning" or "", t) end
  if v.startup then line("", startup_text.openmp(v.startup.openmp_wait) .. " (chosen by the commands that train)") end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
