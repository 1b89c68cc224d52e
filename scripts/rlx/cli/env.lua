-- rlx env: prints this machine's environment as seed 000's logs/env_info.md (or JSON).
local args = require("rlx.cli.args")
local M = {summary = "this machine's environment (OS, CPU, caches, GPU, versions) as env_info.md",
  synopsis = "env [--markdown FILE] [--json]"}

local cmd = {name = "env", usage = "rlx env [--markdown FILE] [--json] [--label NAME] [--zone ZONE] [--instance-type T]",
  description = "Captures the environment from local sources only (no network) and prints it as the\n" ..
    "Markdown of seed 000's logs/env_info.md, or as JSON. --markdown also writes it to FILE\n" ..
    "(through a temporary file renamed when complete; a write error fails with exit status 1).",
  options = {
    {"markdown", "--markdown", metavar = "FILE", help = "write the Markdown to FILE"},
    {"json", "--json", type = "boolean", help = "print JSON instead of Markdown"},
    {"label", "--label", metavar = "NAME", help = "environment label (starts every run label)"},
    {"zone", "--zone", help = "cloud region/zone (not exposed locally)"},
    {"instance_type", "--instance-type", metavar = "TYPE", help = "cloud instance type"},
  }}

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  rlx.fs.check_outputs("env", {{o.markdown ~= "-" and o.markdown or nil, "file", {what = "--markdown"}}})
  local env = rlx.env.capture{label = o.label, zone = o.zone, instance_type = o.instance_type}
  local md = rlx.env.markdown(env)
  if o.markdown then
    rlx.fs.write_output("rlx env", o.markdown, md)
  end
  if o.json then
    print(rlx.json.encode(env, 2))
  elseif not o.markdown then
    io.write(md)
  else
    print("wrote " .. o.markdown)
  end
  return 0
end

return M
