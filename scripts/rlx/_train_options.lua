-- rlx._train_options: rlx.train's option declarations (engine/train/options.cpp, the one place an
-- option is declared: name, type, unit, bounds, default, the options it excludes or needs, store
-- column, flag, help and doc lines, sweep role, report knob), read once from the engine, and the
-- readers built from them: rlx.train.OPTIONS, `rlx train`'s flags and --help, study:sweep{}'s
-- keys and dimensions, the study's --set parameters, the planner's defaults, the report's knobs,
-- and the option tables of docs/lua-api/train.md and docs/cli.md (`rlx train --options-md`).
-- It requires nothing of rlx's, so every one of those modules can require it at load.
local M = {}

--- The declarations in the order rlx.train reads them; OPTIONS[name] is the same entry.
M.OPTIONS = rlx._core.train.options()
for _, o in ipairs(M.OPTIONS) do M.OPTIONS[o.name] = o end

local function decl(name)
  local d = M.OPTIONS[name]
  if not d then error("rlx._train_options: no option '" .. tostring(name) .. "' is declared", 2) end
  return d
end

--- An option's declared default (nil when the run decides it, as input's).
function M.default(name) return decl(name).default end

-- Whether a reader of typed values fills the default in when the value is not given: not where it
-- matters that the option was given (an option that excludes or needs another), nor where the
-- default depends on other options (default_text), nor for booleans (a flag is given or not).
local function fills_default(d)
  local t = d.flag_type or d.type
  return d.default ~= nil and t ~= "boolean" and not d.excludes and not d.needs and not d.default_text and
    d.echoed ~= false
end

local SPEC_TYPES = {integer = "integer", number = "number", boolean = "boolean"}

--- The rlx.options spec entry of a value typed on a command line (a flag of `rlx train`, a --set
--- parameter): its type, its inclusive bounds (a command line's cap, typed_max, before max),
--- its choices, its help line and, where the reader fills it in, its default; `extra` overrides.
function M.spec(name, extra)
  local d = decl(name)
  local e = {type = SPEC_TYPES[d.flag_type or d.type] or "string", min = not d.min_open and d.min or nil,
    max = d.typed_max or (not d.max_open and d.max or nil), one_of = d.one_of, help = d.help}
  if fills_default(d) then e.default = d.default end
  for k, v in pairs(extra or {}) do e[k] = v end
  return e
end

--- The options a sweep hands every run as given ("pass"), runs once per value ("dimension"), or
--- loops over itself ("matrix": model, precision, batch); each a list of names in order.
function M.sweep_role(role)
  local out = {}
  for _, o in ipairs(M.OPTIONS) do if o.sweep == role then out[#out + 1] = o.name end end
  return out
end

--- The report's framework knobs (§6.7): {name, over = the baseline setting}, in order.
function M.knobs()
  local out = {}
  for _, o in ipairs(M.OPTIONS) do
    if o.knob_over then out[#out + 1] = {name = o.name, over = o.knob_over} end
  end
  return out
end

-- ---- the option table of docs/lua-api/train.md, generated from the declarations

local function number_text(v) return string.format("%.10g", v) end

-- What a value must be, in words: "integer >= 1", "number > 0, < 1", "one of fp32, amp, bf16".
local KIND = {integer = "integer", number = "number", boolean = "boolean", string = "string",
  model = "name or model table", warmup = "integer or `\"auto\"`", min_stable = "boolean or table",
  counters = "boolean, group or list of groups"}
local function value_text(d)
  if d.one_of then return "one of " .. table.concat(d.one_of, ", ") end
  local bounds = {}
  if d.min then bounds[#bounds + 1] = (d.min_open and "> " or ">= ") .. number_text(d.min) end
  if d.max then bounds[#bounds + 1] = (d.max_open and "< " or "<= ") .. number_text(d.max) end
  local text = KIND[d.type] .. (#bounds > 0 and (" " .. table.concat(bounds, ", ")) or "")
  return d.unit and (text .. " (" .. d.unit .. ")") or text
end

--- An option's default as the docs write it: `32`, `"fp32"`, or the declaration's words.
function M.default_text(d)
  if d.default_text then return d.default_text end
  if d.default == nil then return "none" end
  if type(d.default) == "string" then return '`"' .. d.default .. '"`' end
  return "`" .. (type(d.default) == "number" and number_text(d.default) or tostring(d.default)) .. "`"
end

--- A Markdown table cell: a | in the text would end it.
function M.cell(text) return (tostring(text):gsub("|", "\\|")) end

-- What study:sweep{} does with an option (its declaration's sweep role), for the table.
local SWEEP_TEXT = {pass = "study:sweep hands it to every run", dimension = "a dimension of study:sweep",
  matrix = "a loop of study:sweep"}

-- After the doc line: what the value must be, what a sweep does with it, its runs column.
local function facts(d)
  local parts = {value_text(d)}
  if SWEEP_TEXT[d.sweep] then parts[#parts + 1] = SWEEP_TEXT[d.sweep] end
  if d.store_column then parts[#parts + 1] = "column `runs." .. d.store_column .. "`" end
  return table.concat(parts, "; ")
end

--- The option table of docs/lua-api/train.md, as Markdown, from the declarations: each option's
--- default and its doc line, then what its value must be, what study:sweep{} does with it and its
--- runs column.
function M.markdown()
  local lines = {"| option | default | meaning |", "| --- | --- | --- |"}
  for _, d in ipairs(M.OPTIONS) do
    lines[#lines + 1] = string.format("| `%s` | %s | %s. *%s* |", d.name, M.cell(M.default_text(d)),
      M.cell(d.doc), M.cell(facts(d)))
  end
  return table.concat(lines, "\n") .. "\n"
end

return M
