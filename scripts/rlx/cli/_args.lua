-- rlx.cli._args: declarative parsing of subcommand arguments, so every `rlx NAME` command has
-- conventional flags (--flag value, --flag=value, -h/--help) and the same usage errors (exit 2).
--
--   local args = require("rlx.cli._args")
--   local cmd = {
--     name = "models", usage = "rlx models [NAME] [options]", summary = "...",
--     options = {
--       {"batch", "--batch", type = "int_list", min = 1, default = {1}, help = "batch sizes, e.g. 16,32,64"},
--       {"precision", "--precision", one_of = {"fp32", "amp", "bf16"}, help = "..."},
--       {"json", "--json", type = "boolean", help = "print JSON"},
--     },
--     positionals = {{"name", optional = true}},
--   }
--   local o = args.parse(cmd, {...})   -- nil when --help was printed
-- Each option is an rlx.options spec entry (type, min, max, one_of, default, help: the format of
-- options.check and rlx.params.declare, with the same range checks and messages) after its name and
-- flag, plus alias, metavar, name (true: the value names runs or files, so a path separator is
-- refused; a control character is refused in every value) and path (the value is a path rlx opens:
-- "file" it reads, "dir" it reads, "database", "output" it writes, "output_dir" it writes in; a
-- positional declares it too). `path` is how tests/e2e/reliability/path_slots.sh finds every path a
-- user can name and puts a FIFO there (issue 56 item 4: none may block). Types: string (default), number, integer,
-- int_list ("16,32,64"), boolean (no value), string_list (a repeatable flag, collected into an array).
-- Errors of a command: args.usage_error(name, msg) for bad arguments (exit 2, "Try 'rlx NAME
-- --help'."), args.fail(name, err [, opts]) for an error caught from the library (exit 1, or 2 with
-- opts.usage; the library function's name is left out of the text: the command is what failed).
local errors = require("rlx.errors")
local options = require("rlx.options")
local M = {}

--- Ends the program with a usage error: "rlx NAME: msg" and "Try 'rlx NAME --help'.", exit 2.
function M.usage_error(name, msg) errors._usage("rlx " .. name, msg, name) end

--- Ends the program for an error err caught with pcall: "rlx NAME: <message>" (no position, no
--- library function), exit 1; with opts.usage it is a usage error (exit 2). Exits (Ctrl-C,
--- rlx.fail) pass unchanged.
function M.fail(name, err, opts)
  errors.pass_exits(err)
  local text = errors.message(err)
  if opts and opts.usage then M.usage_error(name, text) end
  rlx.fail(1, "rlx " .. name .. ": " .. text)
end

local function usage_error(cmd, msg) M.usage_error(cmd.name, msg) end

function M.help_text(cmd)
  local lines = {"usage: " .. cmd.usage, ""}
  if cmd.description then lines[#lines + 1] = cmd.description; lines[#lines + 1] = "" end
  if cmd.options and #cmd.options > 0 then
    lines[#lines + 1] = "Options:"
    for _, o in ipairs(cmd.options) do
      local flag = o[2]
      if o.alias then flag = o.alias .. ", " .. flag end
      if o.type ~= "boolean" then flag = flag .. " " .. (o.metavar or string.upper(o[1])) end
      lines[#lines + 1] = options._help_line(flag, o)
    end
    lines[#lines + 1] = string.format("  %-28s %s", "-h, --help", "show this help")
  end
  if cmd.epilog then lines[#lines + 1] = ""; lines[#lines + 1] = cmd.epilog end
  return table.concat(lines, "\n") .. "\n"
end

-- A flag's spec entries are checked once per command (a typo in a key would accept anything).
local FLAG_KEYS = {[1] = true, [2] = true, alias = true, metavar = true, name = true, path = true}
local PATH_KINDS = {file = true, dir = true, database = true, output = true, output_dir = true}
local checked = setmetatable({}, {__mode = "k"})
local function check_flags(cmd)
  if checked[cmd] then return end
  local spec = {}
  for _, o in ipairs(cmd.options or {}) do spec[o[2]] = o end
  options._check_spec("rlx.cli._args", spec, {entry = "flag", keys = FLAG_KEYS})
  for _, o in ipairs(cmd.options or {}) do
    if o.path ~= nil and not PATH_KINDS[o.path] then
      errors.raise("rlx.cli._args", string.format("flag %s: path = %s is not file, dir, database, output or " ..
        "output_dir", o[2], tostring(o.path)))
    end
  end
  checked[cmd] = true
end

-- Every value typed (a flag's or a positional) is refused with a control character, and a flag
-- declared name = true (a label or study name: it names runs and files) with a path separator,
-- as `--set` refuses them (one rule: options._text_problem; issue 56 item 6).
local function convert(cmd, o, raw)
  local bad = options._text_problem(raw, {name = o.name})
  if bad then usage_error(cmd, o[2] .. " " .. bad) end
  local v, why = options._from_text(o, raw)
  if why then usage_error(cmd, o[2] .. " " .. why) end
  return v
end

--- Parses argv (an array of strings). Returns the options table (positionals by name, leftover
--- positionals in .rest), or nil after printing --help.
function M.parse(cmd, argv)
  check_flags(cmd)
  local by_flag = {}
  local out = {rest = {}}
  for _, o in ipairs(cmd.options or {}) do
    by_flag[o[2]] = o
    if o.alias then by_flag[o.alias] = o end
    if o.type == "string_list" then out[o[1]] = {} end
    if o.default ~= nil then out[o[1]] = o.default end
  end
  local positionals = {}
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "-h" or a == "--help" then
      io.write(M.help_text(cmd))
      return nil
    elseif a == "--" then
      for j = i + 1, #argv do positionals[#positionals + 1] = argv[j] end
      break
    elseif a:sub(1, 1) == "-" and #a > 1 and not rlx._core.host.parse_decimal(a) then  -- "-1" is a value
      local flag, value = a:match("^(%-%-[^=]+)=(.*)$")
      flag = flag or a
      local o = by_flag[flag]
      if not o then usage_error(cmd, "unknown option '" .. flag .. "'") end
      if o.type == "boolean" then
        if value ~= nil then usage_error(cmd, flag .. " takes no value") end
        out[o[1]] = true
      else
        if value == nil then
          i = i + 1
          value = argv[i]
          if value == nil then usage_error(cmd, flag .. " needs a value") end
        end
        if o.type == "string_list" then
          local list = out[o[1]]
          list[#list + 1] = convert(cmd, o, value)
        else
          out[o[1]] = convert(cmd, o, value)
        end
      end
    else
      positionals[#positionals + 1] = a
    end
    i = i + 1
  end
  for _, a in ipairs(positionals) do
    local bad = options._text_problem(a)
    if bad then usage_error(cmd, "an argument " .. bad) end
  end
  local specs = cmd.positionals or {}
  for _, p in ipairs(specs) do
    if p.rest then
      -- Earlier specs already took theirs off the front, so what is left is all rest.
      for j = 1, #positionals do out.rest[#out.rest + 1] = positionals[j] end
      if #out.rest == 0 and not p.optional then usage_error(cmd, "missing " .. string.upper(p[1])) end
      positionals = {}
      break
    end
    local v = table.remove(positionals, 1)
    if v == nil and not p.optional then usage_error(cmd, "missing " .. string.upper(p[1])) end
    out[p[1]] = v
  end
  if #positionals > 0 then usage_error(cmd, "unexpected argument '" .. positionals[1] .. "'") end
  return out
end

return M
