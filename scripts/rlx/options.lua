-- rlx.options: the one option-spec format. A spec maps each option name to an entry
--   {type =, required =, default =, min =, max =, one_of = {...}, help = "..."}
-- and serves three readers, so types, ranges, defaults, help lines and messages are the same for all:
--   * options.check(fname, opts, spec): the option table of a function written in Lua. The checking
--     is the C++ reader every native binding uses (lua::Options, host/bindings/lua_options.cpp,
--     reached as rlx._core.host.check_options): an error reads the same whichever layer raised it
--     and points at the user's script;
--   * rlx.params.declare(spec): a study script's --set parameters, values given as text;
--   * rlx.cli._args: the flags of the `rlx NAME` commands, values given as text.
-- The text readers use from_text (a value from "32" or "16,32,64", range and one_of checked) and
-- help_line; the requirement in their messages ("an integer >= 1") is the C++ reader's own words.
--
--   local o = options.check("study:sweep", opts, {
--     models = {type = "string_list", required = true},
--     repeats = {type = "integer", min = 1, default = 1, help = "repeats of each configuration"},
--   })
-- Types: number, integer, string, boolean, table, function, any, int_list and string_list (a
-- single value or an array), and one_of = {...} for strings and string lists.
local errors = require("rlx.errors")
local pretty = require("rlx._pretty")
local core = rlx._core.host
local M = {}

local function describe(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" or type(v) == "boolean" then return tostring(v) end
  return "a " .. type(v)
end

-- What a spec entry may say, and the types it may name.
M.SPEC_KEYS = {type = true, required = true, default = true, min = true, max = true, one_of = true, help = true}
M.TYPES = {number = true, integer = true, string = true, boolean = true, table = true, ["function"] = true,
  any = true, int_list = true, string_list = true}

--- Checks a spec: a misspelt entry ({typ = "string"}) would silently accept anything, so it is
--- refused naming the fix. opts: entry = the noun of the messages ("spec entry"), keys = further
--- keys an entry may have (a CLI flag's names), types = the types allowed (default M.TYPES).
function M._check_spec(fname, spec, opts)
  opts = opts or {}
  local noun, types = opts.entry or "spec entry", opts.types or M.TYPES
  local function bad(what) errors.raise(fname, what) end
  for key, s in pairs(spec) do
    if type(s) ~= "table" then
      bad(string.format("%s '%s' must be a table such as {type = \"string\"}, got %s", noun, tostring(key), type(s)))
    end
    for k in pairs(s) do
      if not M.SPEC_KEYS[k] and not (opts.keys and opts.keys[k]) then
        local valid = {}
        for v in pairs(M.SPEC_KEYS) do valid[#valid + 1] = v end
        for v in pairs(opts.keys or {}) do if type(v) == "string" then valid[#valid + 1] = v end end
        table.sort(valid)
        bad(string.format("%s '%s' has unknown key '%s' (valid keys: %s)", noun, tostring(key), tostring(k),
          table.concat(valid, ", ")))
      end
    end
    if s.type ~= nil and not types[s.type] then
      bad(string.format("%s '%s' has unknown type %s (valid types: %s)", noun, tostring(key), describe(s.type),
        table.concat(pretty.sorted_keys(types), ", ")))
    end
    for _, k in ipairs({"min", "max"}) do
      if s[k] ~= nil and type(s[k]) ~= "number" then
        bad(string.format("%s '%s': %s must be a number, got %s", noun, tostring(key), k, describe(s[k])))
      end
    end
    if s.one_of ~= nil and type(s.one_of) ~= "table" then
      bad(string.format("%s '%s': one_of must be an array of strings, got %s", noun, tostring(key), describe(s.one_of)))
    end
  end
end

--- What a value of the entry must be: "an integer >= 1", "one of cpu, cuda" (the C++ reader's words).
function M._requirement(entry) return core.option_requirement(entry) end

-- A decimal number (no hex, inf or nan) that fits, read as `--set` reads one (host/set_args.cpp,
-- the one reader): integers up to 2^53, where doubles stop counting exactly, and finite numbers.
local MAX_INT = 2 ^ 53
local function decimal(raw)
  if type(raw) ~= "string" then return nil end
  return core.parse_decimal(raw)
end

local function in_range(entry, n) return (not entry.min or n >= entry.min) and (not entry.max or n <= entry.max) end

local function one_of_has(entry, v)
  if not entry.one_of then return true end
  for _, c in ipairs(entry.one_of) do if c == v then return true end end
  return false
end

-- The number in text for an integer or number entry, or nil, what is wrong with it and, for a
-- number beyond what an integer holds, "out_of_range" (a list reports that one as it is).
local function number_of(entry, text, integer)
  local n = decimal(text)
  if n and integer and math.abs(n) > MAX_INT then
    return nil, string.format("is out of range: %s (at most %d)", text, MAX_INT), "out_of_range"
  end
  if not n or (integer and n ~= math.floor(n)) or not in_range(entry, n) then
    return nil, string.format("must be %s, got '%s'", M._requirement(entry), text)
  end
  return n
end

--- The items of a comma list ("16,32" or "fp32, bf16"), blanks around each item dropped; or the
--- items and what is wrong when one is empty ("1,,2", "a,", ","): a doubled or trailing comma is
--- a typo, not a shorter list (issue 35 item 11).
function M.split_list(text)
  local parts, empty = {}, false
  for part in (tostring(text) .. ","):gmatch("([^,]*),") do
    part = part:match("^%s*(.-)%s*$")
    if part == "" then empty = true else parts[#parts + 1] = part end
  end
  if empty and #parts > 0 then
    return parts, string.format("has an empty item in '%s' (two commas in a row, or one at an end): remove it",
      tostring(text))
  end
  if #parts == 0 then return parts, string.format("needs at least one item, got '%s'", tostring(text)) end
  return parts, nil
end

--- What is wrong with a text a user typed as a flag's value, or nil: a control character (a line
--- break, a tab, ESC: it would reach the terminal, the database and the report as raw bytes), in
--- the words `--set` uses for the same (host/set_args.cpp refuses it there); with opts.name (a
--- label that names files and runs) also an empty text or a path separator, as rlx.study refuses
--- `--set label=../x`. The end of a sentence about the flag (issue 56 item 6: one rule for the
--- flags and --set alike).
function M._text_problem(text, opts)
  if type(text) ~= "string" then return nil end
  local term = rlx._core.term
  if term.has_control(text) then
    -- Line breaks and tabs shown as \n, \r, \t (printable would show them as blanks), the rest \ddd.
    local shown = text:gsub("[\n\r\t]", {["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t"})
    return string.format("'%s': the value holds a control character (shown as \\ddd; a line break, a tab, ESC): " ..
      "type it without", term.printable(shown, false))
  end
  if opts and opts.name and (text == "" or text == "." or text == ".." or text:find("[/\\]")) then
    return string.format("must be a non-empty name without '/' or '\\' (it names runs and files), got '%s'", text)
  end
  return nil
end

--- The value of a text given on the command line ("32", "16,32,64", "true") for a spec entry,
--- checked against its type, range and one_of; or nil and what is wrong, as the end of a
--- sentence about the flag: "must be an integer >= 1, got '0'". A string_list entry reads one
--- element (a repeatable flag gives one per occurrence).
function M._from_text(entry, text)
  local t = entry.type or "string"
  if t == "integer" or t == "number" then
    local n, why = number_of(entry, text, t == "integer")
    return n, why
  end
  if t == "boolean" then
    if text == "true" or text == "false" then return text == "true" end
    return nil, string.format("must be true or false, got '%s'", text)
  end
  if t == "int_list" then
    local element = {type = "integer", min = entry.min, max = entry.max}
    local parts, empty = M.split_list(text)
    if empty then return nil, empty end
    local list, seen = {}, {}
    for _, part in ipairs(parts) do
      local n, why, kind = number_of(element, part, true)
      if not n then
        if kind == "out_of_range" then return nil, why end
        return nil, string.format("must be integers separated by commas (each %s), got '%s'", M._requirement(element),
          text)
      end
      -- A repeated item (4,4 or 4,04) would plan or print everything twice (issue 56 item 6).
      if seen[n] then
        return nil, string.format("lists %d twice in '%s': give each item once", n, text)
      end
      seen[n] = true
      list[#list + 1] = n
    end
    return list
  end
  if not one_of_has(entry, text) then
    return nil, string.format("must be %s, got '%s'", M._requirement({type = "string", one_of = entry.one_of}), text)
  end
  return text
end

--- One line of a --help listing: "  <left>   <help> (default <value>)".
function M._help_line(left, entry)
  local d = entry.default
  local default = d == nil and "" or (" (default " .. (type(d) == "table" and table.concat(d, ",") or tostring(d)) .. ")")
  return string.format("  %-28s %s%s", left, entry.help or "", default)
end

--- Validates opts against spec and returns a new table with defaults filled in.
function M.check(fname, opts, spec)
  if type(fname) ~= "string" then
    errors.raise("rlx.options.check", "the function name (argument 1) must be a string, got " .. type(fname))
  end
  if type(spec) ~= "table" then
    errors.raise("rlx.options.check", "the spec (argument 3) must be a table mapping each option name to " ..
      "{type = ...}, got " .. type(spec))
  end
  for key in pairs(spec) do
    if type(key) ~= "string" then
      errors.raise("rlx.options.check", "spec keys must be option names (strings), got " .. describe(key))
    end
  end
  M._check_spec("rlx.options.check", spec)
  return core.check_options(fname, opts, spec)
end

return M
