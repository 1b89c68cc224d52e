-- rlx env: prints this machine's environment as seed 000's logs/env_info.md (or JSON).
local args = require("rlx.cli.args")
local M = {summary = "this machine's environment (OS, CPU, caches, GPU, versions) as env_info.md",
  synopsis = "env [--markdown FILE] [--json]"}

local cmd = {name = "env",
  usage = "rlx env [--markdown FILE] [--json] [--label NAME] [--zone ZONE] [--instance-type T] [--db PATH]",
  description = "Captures the environment from local sources only (no network) and prints it as the\n" ..
    "Markdown of seed 000's logs/env_info.md, or as JSON. --markdown also writes it to FILE\n" ..
    "(through a temporary file renamed when complete; a write error fails with exit status 1).\n" ..
    "The printed Markdown ends with the training settings chosen on this machine (rlx.calibrate):\n" ..
    "each model's memory layout and its measured margin, from --db and from rlx train's cache.",
  options = {
    {"db", "--db", metavar = "PATH", help = "also list the settings a study database chose for this environment"},
    {"markdown", "--markdown", metavar = "FILE", help = "write the Markdown to FILE"},
    {"json", "--json", type = "boolean", help = "print JSON instead of Markdown"},
    {"label", "--label", metavar = "NAME", help = "environment label (starts every run label)"},
    {"zone", "--zone", help = "cloud region/zone (not exposed locally)"},
    {"instance_type", "--instance-type", metavar = "TYPE", help = "cloud instance type"},
  }}

-- The calibrations (rlx.calibrate) of this environment in the databases that exist among
-- `paths`, as a Markdown section; "" when there are none.
local function settings_section(env, paths)
  local rows = {}
  for _, path in ipairs(paths) do
    local f = io.open(path, "r")
    if f then
      f:close()
      local ok, db = pcall(rlx.db.open, path, {readonly = true})
      if ok then
        for _, kind in ipairs({"cpu", "cuda"}) do
          local got, cals = pcall(db.calibrations, db, env.id, kind)
          for _, c in ipairs(got and cals or {}) do
            rows[#rows + 1] = string.format("| %s | %s | %s | %d | %s | %s | %.3g | %s | %s |", c.model, c.precision,
              kind, c.input, c.memory_format, rlx.calibrate.margin_text(c),
              c.per_image_s, tostring(c.measured_at), path)
          end
        end
        db:close()
      end
    end
  end
  if #rows == 0 then return "" end
  return "\n## Training settings chosen on this machine\n\n" ..
    "Each model's memory layout, measured here (rlx.calibrate: both layouts timed, the faster kept; within " ..
    string.format("%.0f %%", rlx.calibrate.NEAR * 100) .. " or within the probe's noise a tie keeps the default, " ..
    "channels_last; margin = " ..
    "the other layout's best step over the chosen one's):\n\n" ..
    "| Model | Precision | Device | Input | Layout | Margin | s/image (probe) | Measured | Database |\n" ..
    "| --- | --- | --- | ---: | --- | --- | ---: | --- | --- |\n" .. table.concat(rows, "\n") .. "\n"
end

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
    io.write(settings_section(env, o.db and {o.db, rlx.calibrate.cache_db()} or {rlx.calibrate.cache_db()}))
  else
    print("wrote " .. o.markdown)
  end
  return 0
end

return M
