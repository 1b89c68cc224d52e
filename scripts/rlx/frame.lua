-- rlx.frame: a small data-frame API on plain arrays of records, for analysis at the prompt.
-- A frame IS the array (a metatable on the same table), so ipairs, # and rows[i] work as before;
-- study:runs{}, study:points{} and conn:query / conn:sql return frames.
--
--   local r = study:runs{}:where{status = "ok"}:group_by{"model", "batch"}:agg{images_per_s = "mean"}
--   r:pivot{rows = "batch", cols = "model", value = "images_per_s"}
--   r:plot{x = "batch", y = "images_per_s", by = "model", out = "/tmp/t.png"}
--
-- Methods return new frames and leave their input as it was (records are shared, not copied,
-- except by select and agg, which build new ones). Every column name is checked: an unknown one
-- is an error naming it and the valid columns.
local errors = require("rlx.errors")
local show = require("rlx.show")
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

local function check_self(self, name, usage)
  if getmetatable(self) ~= mt then
    errors.raise("rows:" .. name, string.format("called with '.' instead of ':' (use rows:%s%s)", name, usage))
  end
end

local function sorted_copy(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  table.sort(out)
  return out
end

-- Raises when a name is not a column of the frame. A frame with no rows and no stored columns
-- has no known columns: every name is accepted (there is nothing to select from anyway).
local function check_columns(fname, self, names)
  local valid = show.columns(self)
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

-- A string or an array of strings, as an array.
local function name_list(fname, what, v)
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

local function derive(parent, rows, columns, caption)
  local cols = columns or M.info(parent).columns
  return M.new(rows, cols, caption)
end

-- Ordering used by sort, group_by and pivot: numbers (and booleans, false first) before strings,
-- each in natural order; nil last.
local TYPE_ORDER = {boolean = 1, number = 2, string = 3}
local function less(a, b)
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
M.less = less

------------------------------------------------------------------------------------------------
-- where, select, sort, head, tail

local function matches(v, want)
  local tw = type(want)
  if tw == "function" then return v ~= nil and want(v) and true or false end
  if tw == "table" then
    for _, w in ipairs(want) do
      if v == w then return true end
    end
    return false
  end
  return v == want
end

-- A table given as a value must be a non-empty list of plain values: {} or a record matched no
-- row at all, silently (issue 35 item 11: `:where{config = {}}`).
local function check_wanted(k, want)
  if type(want) ~= "table" then return end
  if #want == 0 then
    errors.raise("rows:where", string.format("the value for '%s' is %s table: give a value, a non-empty list of " ..
      "values, or a function of the cell (a cell holding a table is matched with rows:where(function(row) ... end))",
      k, next(want) == nil and "an empty" or "a non-list"))
  end
  for i, w in ipairs(want) do
    if type(w) == "table" then
      errors.raise("rows:where", string.format("the value for '%s' lists a table (item %d): tables are not compared " ..
        "by value; use rows:where(function(row) ... end)", k, i))
    end
  end
end

--- rows:where{column = value, ...} or rows:where(function(row) ... end): the rows that match. A
--- value may be a list (any of them) or a function of the cell (called for non-nil cells).
function Frame:where(cond)
  check_self(self, "where", "{column = value} or rows:where(function(row) ... end)")
  local keep
  if type(cond) == "function" then
    keep = cond
  elseif type(cond) == "table" then
    local names = {}
    for k in pairs(cond) do
      if type(k) ~= "string" then
        errors.raise("rows:where", "conditions are column = value pairs (or a function(row)), got the key " ..
          tostring(k))
      end
      names[#names + 1] = k
    end
    table.sort(names)
    check_columns("rows:where", self, names)
    for _, k in ipairs(names) do check_wanted(k, cond[k]) end
    keep = function(r)
      for _, k in ipairs(names) do
        if not matches(r[k], cond[k]) then return false end
      end
      return true
    end
  else
    errors.raise("rows:where", "expected {column = value, ...} or a function(row) returning true for the rows " ..
      "to keep, got " .. type(cond))
  end
  local out = {}
  for _, r in ipairs(self) do
    if keep(r) then out[#out + 1] = r end
  end
  return derive(self, out)
end

--- rows:select{"a", "b"} (or rows:select("a", "b")): new records with only these columns, in this
--- order.
function Frame:select(first, ...)
  check_self(self, "select", '{"column", ...}')
  local cols = type(first) == "string" and {first, ...} or first
  if type(cols) ~= "table" or #cols == 0 then
    errors.raise("rows:select", 'expected a list of column names such as {"model", "batch"}, got ' ..
      (type(cols) == "table" and "an empty table" or type(cols)))
  end
  for k in pairs(cols) do
    if type(k) ~= "number" then
      errors.raise("rows:select", string.format("expected a list of column names, got the key '%s'", tostring(k)))
    end
  end
  check_columns("rows:select", self, cols)
  local out = {}
  for i, r in ipairs(self) do
    local rec = {}
    for _, c in ipairs(cols) do rec[c] = r[c] end
    out[i] = rec
  end
  local order = {}
  for i, c in ipairs(cols) do order[i] = c end
  return M.new(out, order)
end

--- rows:sort(column [, "asc"|"desc"]), rows:sort{"a", "b"} (by a, then b), or rows:sort(function(a, b)):
--- a sorted copy; stable (ties keep their order); missing values last.
function Frame:sort(by, order)
  check_self(self, "sort", '("column" [, "desc"])')
  order = order or "asc"
  if order ~= "asc" and order ~= "desc" then
    errors.raise("rows:sort", string.format('the order (argument 2) must be "asc" or "desc", got %s', tostring(order)))
  end
  local cmp
  if type(by) == "function" then
    cmp = by
  else
    local keys = name_list("rows:sort", "the sort key (argument 1)", by)
    check_columns("rows:sort", self, keys)
    cmp = function(a, b)
      for _, k in ipairs(keys) do
        local x, y = a[k], b[k]
        if x ~= y and not (x ~= x and y ~= y) then  -- two NaNs are a tie
          if x == nil or y == nil then return y == nil end
          if order == "desc" then return less(y, x) end
          return less(x, y)
        end
      end
      return false
    end
  end
  local idx = {}
  for i = 1, #self do idx[i] = i end
  table.sort(idx, function(i, j)
    local a, b = self[i], self[j]
    if cmp(a, b) then return true end
    if cmp(b, a) then return false end
    return i < j
  end)
  local out = {}
  for n, i in ipairs(idx) do out[n] = self[i] end
  return derive(self, out)
end

local function count_arg(fname, n)
  if n == nil then return 10 end
  if type(n) ~= "number" or n < 0 or n ~= math.floor(n) then
    errors.raise(fname, "the row count (argument 1) must be an integer >= 0, got " .. tostring(n))
  end
  return n
end

--- rows:head([n = 10]): the first n rows.
function Frame:head(n)
  check_self(self, "head", "([n])")
  n = count_arg("rows:head", n)
  local out = {}
  for i = 1, math.min(n, #self) do out[i] = self[i] end
  return derive(self, out)
end

--- rows:tail([n = 10]): the last n rows.
function Frame:tail(n)
  check_self(self, "tail", "([n])")
  n = count_arg("rows:tail", n)
  local out = {}
  for i = math.max(1, #self - n + 1), #self do out[#out + 1] = self[i] end
  return derive(self, out)
end

--- rows:columns(): the column names, in the order the table prints them.
function Frame:columns()
  check_self(self, "columns", "()")
  return show.columns(self)
end

--- rows:col(name): the column's values, in row order (rows without a value are skipped).
function Frame:col(name)
  check_self(self, "col", '("column")')
  check_columns("rows:col", self, {name_list("rows:col", "the column (argument 1)", name)[1]})
  local out = {}
  for _, r in ipairs(self) do
    if r[name] ~= nil then out[#out + 1] = r[name] end
  end
  return out
end

--- rows:show([opts]): prints the table (rlx.show's options: cols, max_rows, width, max_cell).
function Frame:show(opts)
  check_self(self, "show", "([options])")
  show.show(self, opts)
end

------------------------------------------------------------------------------------------------
-- to_csv, plot

--- rows:to_csv(path): writes the frame as CSV (RFC 4180: a header, then one line per row; numbers
--- in full precision, nested values as JSON), atomically (rlx.fs.write_atomic). Returns path.
function Frame:to_csv(path)
  check_self(self, "to_csv", '("file.csv")')
  errors.expect("rows:to_csv", path, "string", "the output path (a string)")
  local cols = show.columns(self)
  local rows = {}
  for i, r in ipairs(self) do
    local values = {}
    for j, c in ipairs(cols) do values[j] = r[c] end
    rows[i] = values
  end
  local ok, err = pcall(rlx.fs.write_atomic, path, require("rlx.csv").text(cols, rows))
  if not ok then
    errors.pass_exits(err)
    errors.raise("rows:to_csv", (errors.is(err) and tostring(err.message) or errors.text(err)))
  end
  return path
end

--- rows:plot{x =, y =, by =, out =, logx =, logy =, title =, kind =}: see rlx._frame_plot.
function Frame:plot(opts)
  check_self(self, "plot", '{x = "column", y = "column", out = "file.png"}')
  return require("rlx._frame_plot").plot(self, opts)
end

-- group_by, agg and pivot (scripts/rlx/_frame_agg.lua) share the helpers above.
require("rlx._frame_agg").install(M, Frame, {check_self = check_self, check_columns = check_columns,
  name_list = name_list})

return setmetatable(M, {__call = function(_, rows, columns) return M.new(rows, columns) end})
