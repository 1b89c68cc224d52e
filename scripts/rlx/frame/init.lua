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
local meta = require("rlx.frame._meta")
-- group_by, agg and pivot: rlx.frame._agg adds them to the frame methods (rlx.frame._meta.methods).
local agg = require("rlx.frame._agg")
local frame_plot = require("rlx.frame._plot")
local csv = require("rlx.csv")
local M = {}
M.grouped_metatable, M.grouped_methods, M.STATISTICS = agg.grouped_metatable, agg.grouped_methods, agg.STATISTICS

local Frame = meta.methods
local mt = meta.metatable
M.metatable, M.methods, M.info, M.is, M.new, M.less = mt, Frame, meta.info, meta.is, meta.new, meta.less
local check_self, name_list, derive, less = meta.check_self, meta.name_list, meta.derive, meta.less
local check_columns = meta.check_columns


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
  local ok, err = pcall(rlx.fs.write_atomic, path, csv.text(cols, rows))
  if not ok then
    errors.pass_exits(err)
    errors.raise("rows:to_csv", (errors.is(err) and tostring(err.message) or errors.text(err)))
  end
  return path
end

--- rows:plot{x =, y =, by =, out =, logx =, logy =, title =, kind =}: see rlx.frame._plot.
function Frame:plot(opts)
  check_self(self, "plot", '{x = "column", y = "column", out = "file.png"}')
  return frame_plot.plot(self, opts)
end


return setmetatable(M, {__call = function(_, rows, columns) return M.new(rows, columns) end})
