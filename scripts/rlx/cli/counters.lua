-- rlx counters: which hardware counters this machine can collect, and why the others are missing.
local args = require("rlx.cli._args")
local M = {summary = "hardware counters this device supports (CUPTI on NVIDIA, perf_event on CPU)",
  synopsis = "counters --list [--device D] [--chip C] [--json]"}

local cmd = {name = "counters", usage = "rlx counters --list [--device cpu|cuda[:N]] [--chip CHIP] [--json]",
  description = "Lists the counters rlx collects on DEVICE (cpu: perf_event; cuda: CUPTI range profiling),\n" ..
    "whether each is supported here, and the reason when it is not. With --chip (GH100, GA100, ...)\n" ..
    "the CUPTI host API validates the metric names and plans the passes for that chip, no GPU needed.",
  options = {
    {"list", "--list", type = "boolean", help = "list the counters (the only action)"},
    {"device", "--device", default = "cpu", help = "cpu, cuda or cuda:N"},
    {"chip", "--chip", help = "plan for this NVIDIA chip with the CUPTI host API (cuda only)"},
    {"json", "--json", type = "boolean", help = "print JSON"},
  }}

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if not o.list then
    args.usage_error("counters", "nothing to do: use --list")
  end
  if o.device ~= "cpu" and o.device ~= "cuda" and not tostring(o.device):match("^cuda:%d+$") then
    args.usage_error("counters", string.format("--device must be cpu, cuda or cuda:N, got '%s'", o.device))
  end
  if o.chip and not tostring(o.device):match("^cuda") then
    args.usage_error("counters", "--chip plans for an NVIDIA chip: add --device cuda (--chip " .. o.chip ..
      " --device cuda)")
  end
  local ok, l = pcall(rlx.counters.list, {device = o.device, chip = o.chip})
  -- A chip CUPTI does not know is a bad argument: a usage error (exit 2); anything else (no CUPTI
  -- in this build) failed here (exit 1).
  if not ok then
    rlx.errors.pass_exits(l)
    local text = rlx.errors.message(l)
    local unknown_chip = type(l) == "table" and l.code == "unknown_chip"
    if unknown_chip then
      text = text .. "; give the chip's code name as CUPTI spells it (GH100, GA100, AD102, TU104, ...)"
    end
    args.fail("counters", text, {usage = unknown_chip})
  end
  if o.json then
    print(rlx.json.encode(l, 2))
  else
    for _, line in ipairs(rlx.counters.format_list(l)) do print(line) end
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
