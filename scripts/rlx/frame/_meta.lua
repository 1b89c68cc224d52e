-- rlx.frame._meta: what makes a table a frame (rlx.frame): the metatable and its method table,
-- each frame's column order and caption, frame.new and the order frames sort by. It requires no
-- other part of the frame, so rlx.show (which prints frames) and rlx.frame._agg read it at load
-- without a cycle; rlx.frame and rlx.frame._agg add their methods to M.methods.
local errors = require("rlx.errors")
local M = {}

local Frame = {}
local mt = {__index = Frame}
M.metatable = mt
M.methods = Frame

-- Per frame: its column order (a query's SELECT order, a select's list) and a caption (pivot's
-- "images_per_s: batch down, model across"). Weak keys: a frame that is dropped takes it along.
local info_of = setmetatable({}, {__mode = "k"})

--- The frame's stored column order and caption ({columns =, caption =}; both may be nil).
function M.info(rows) return info_of[rows] or {} end

--- Whether v is a frame.
function M.is(v) return type(v) == "table" and getmetatable(v) == mt end

--- Makes rows (an array of records) a frame, in place, and returns it. columns: the column order
--- (optional); caption: a line printed above the table (optional).
function M.new(rows, columns, caption)
  if rows == nil then rows = {} end
  errors.expect("rlx.frame", rows, "table", "an array of records (tables of column = value)")
  local meta = getmetatable(rows)
  if meta ~= nil and meta ~= mt then
    errors.raise("rlx.frame", "the table already has a metatable; pass a plain array of records")
  end
  for i, r in ipairs(rows) do
    if type(r) ~= "table" then
      errors.raise("rlx.frame", string.format("row %d must be a table of column = value, got %s", i, type(r)))
    end
  end
  setmetatable(rows, mt)
  if columns ~= nil or caption ~= nil or info_of[rows] == nil then
    info_of[rows] = {columns = columns, caption = caption}
  end
  return rows
end

--- A new frame of rows derived from parent: parent's column order unless columns are given.
function M.derive(parent, rows, columns, caption)
  return M.new(rows, columns or M.info(parent).columns, caption)
end

-- Ordering used by sort, group_by and pivot: numbers (and booleans, false first) before strings,
-- each in natural order; nil last.
local TYPE_ORDER = {boolean = 1, number = 2, string = 3}
function M.less(a, b)
  if a == nil or b == nil then return a ~= nil and b == nil end
  local ta, tb = type(a), type(b)
  if ta ~= tb then return (TYPE_ORDER[ta] or 4) < (TYPE_ORDER[tb] or 4) end
  if ta == "boolean" then return (not a) and b end
  -- NaN after every other number: compared as < it is neither less nor greater than anything,
  -- an order table.sort refuses ("invalid order function for sorting").
  if ta == "number" and (a ~= a or b ~= b) then return a == a end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

--- Raises "rows:NAME: called with '.' instead of ':'" unless self is a frame.
function M.check_self(self, name, usage)
  if getmetatable(self) ~= mt then
    errors.raise("rows:" .. name, string.format("called with '.' instead of ':' (use rows:%s%s)", name, usage))
  end
end

--- A string or an array of strings, as an array.
function M.name_list(fname, what, v)
  if type(v) == "string" then return {v} end
  if type(v) == "table" and #v > 0 then
    for i, c in ipairs(v) do
      if type(c) ~= "string" then
        errors.raise(fname, string.format("%s[%d] must be a column name (string), got %s", what, i, type(c)))
      end
    end
    return v
  end
  errors.raise(fname, string.format("%s must be a column name or an array of column names, got %s", what,
    type(v) == "table" and "an empty table" or type(v)))
end

-- Column order when a table does not carry its own (study:runs rows come from JSON objects, whose
-- keys have no order): what identifies a run, then what it measured, then the rest by name.
local PRIORITY = {"study", "env", "model", "precision", "batch", "device", "run", "status", "images_per_s",
  "iter_mean_s", "iter_sd_s", "ci_rel", "stable", "stop_reason", "seconds", "memory_format", "label",
  "error"}
local RANK = {}
for i, name in ipairs(PRIORITY) do RANK[name] = i end
-- Shown last: identifiers nobody reads in a table.
local LAST = {id = true, run_id = true, env_id = true}

--- The columns of rows in display order: the frame's own order first (a query's SELECT order, a
--- select{...}'s list), then the other keys found in the rows: rlx's usual ones first (model,
--- precision, batch, ...), then by name, nested values and ids last.
function M.columns(rows)
  local info = M.is(rows) and M.info(rows) or nil
  local out, seen = {}, {}
  for _, c in ipairs(info and info.columns or {}) do
    if not seen[c] then out[#out + 1], seen[c] = c, true end
  end
  local extra, nested = {}, {}
  for _, r in ipairs(rows) do
    if type(r) == "table" then
      for k, v in pairs(r) do
        if type(k) == "string" and not seen[k] then
          seen[k] = true
          extra[#extra + 1] = k
        end
        if type(v) == "table" then nested[k] = true end
      end
    end
  end
  local function rank(k)
    if LAST[k] then return 3 end
    if nested[k] then return 2 end
    return RANK[k] and 0 or 1
  end
  table.sort(extra, function(a, b)
    local ra, rb = rank(a), rank(b)
    if ra ~= rb then return ra < rb end
    if ra == 0 then return RANK[a] < RANK[b] end
    return a < b
  end)
  for _, k in ipairs(extra) do out[#out + 1] = k end
  return out
end

local function sorted_copy(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  table.sort(out)
  return out
end

--- Raises when a name is not a column of the frame (M.columns). A frame with no rows and no stored
--- columns has no known columns: every name is accepted (there is nothing to select from anyway).
function M.check_columns(fname, self, names)
  local valid = M.columns(self)
  if #valid == 0 then return end
  local set = {}
  for _, c in ipairs(valid) do set[c] = true end
  for _, c in ipairs(names) do
    if type(c) ~= "string" then
      errors.raise(fname, string.format("column names are strings, got %s (valid columns: %s)", type(c),
        table.concat(sorted_copy(valid), ", ")))
    end
    if not set[c] then
      errors.raise(fname, string.format("unknown column '%s' (valid columns: %s)", c,
        table.concat(sorted_copy(valid), ", ")))
    end
  end
end

return M
