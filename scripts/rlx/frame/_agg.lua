-- rlx.frame._agg: group_by, agg and pivot of rlx.frame (added to the frame methods,
-- rlx.frame._meta.methods, when this loads): grouping by column values, the statistics of each group
-- (mean, sd, cv, median, min, max, sum, count) and pivot tables. Groups sort by their values
-- (rlx.frame.less), as dplyr's summarise and pandas' groupby do.
local errors = require("rlx.errors")
local options = require("rlx.options")
local show = require("rlx.show")
local stats = require("rlx.stats")
local meta = require("rlx.frame._meta")
local M = {}

local Frame = meta.methods  -- the frame methods (rlx.frame's): group_by, agg and pivot are added here
local Grouped = {}
local grouped_mt = {__index = Grouped}
M.grouped_metatable, M.grouped_methods = grouped_mt, Grouped

local function numbers_of(fname, col, stat, values)
  for _, v in ipairs(values) do
    if type(v) ~= "number" then
      errors.raise(fname, string.format("column '%s' holds %s (%s): %s needs numbers", col,
        type(v) == "string" and "text" or type(v) .. "s", type(v) == "string" and string.format("%q", v) or
        tostring(v), stat))
    end
  end
  return values
end

local function min_max(fname, col, stat, values)
  if #values == 0 then return nil end
  local kind = type(values[1])
  for _, v in ipairs(values) do
    if type(v) ~= kind or (kind ~= "number" and kind ~= "string") then
      errors.raise(fname, string.format("column '%s' mixes %s and %s values: %s needs numbers or text", col,
        kind, type(v), stat))
    end
  end
  local best = values[1]
  for _, v in ipairs(values) do
    if (stat == "min" and v < best) or (stat == "max" and v > best) then best = v end
  end
  return best
end

-- Each statistic of the non-missing values of a column (nil and NaN are missing). sd and cv are
-- over n - 1 (rlx.stats); the mean of no values is nil, as SQL's AVG of no rows is NULL.
local STATS = {
  mean = function(f, c, v) return stats.mean(numbers_of(f, c, "mean", v)) end,
  sd = function(f, c, v) return stats.sd(numbers_of(f, c, "sd", v)) end,
  median = function(f, c, v) return stats.median(numbers_of(f, c, "median", v)) end,
  cv = function(f, c, v) return stats.cv(numbers_of(f, c, "cv", v)) end,
  sum = function(f, c, v)
    local s = 0
    for _, x in ipairs(numbers_of(f, c, "sum", v)) do s = s + x end
    return s
  end,
  min = function(f, c, v) return min_max(f, c, "min", v) end,
  max = function(f, c, v) return min_max(f, c, "max", v) end,
  count = function(_, _, v) return #v end,
}
local STAT_NAMES = {}
for k in pairs(STATS) do STAT_NAMES[#STAT_NAMES + 1] = k end
table.sort(STAT_NAMES)
M.STATISTICS = STAT_NAMES

local function check_stat(fname, stat, what)
  if type(stat) ~= "string" or not STATS[stat] then
    errors.raise(fname, string.format("unknown statistic %s for %s (valid: %s)",
      type(stat) == "string" and ("'" .. stat .. "'") or tostring(stat), what, table.concat(STAT_NAMES, ", ")))
  end
end

-- Groups of rows by the values of keys, sorted by those values: {{values = {...}, rows = {...}}, ...}.
local function groups_of(rows, keys)
  local by_key, list = {}, {}
  for _, r in ipairs(rows) do
    local parts = {}
    for i, k in ipairs(keys) do
      local v = r[k]
      parts[i] = type(v) .. ":" .. tostring(v)
    end
    local id = table.concat(parts, "\0")
    local g = by_key[id]
    if not g then
      local values = {}
      for i, k in ipairs(keys) do values[i] = r[k] end
      g = {values = values, rows = {}}
      by_key[id] = g
      list[#list + 1] = g
    end
    g.rows[#g.rows + 1] = r
  end
  table.sort(list, function(a, b)
    for i = 1, #keys do
      local x, y = a.values[i], b.values[i]
      if x ~= y then return meta.less(x, y) end
    end
    return false
  end)
  return list
end

--- rows:group_by{"model", "precision"} (or a single name): the rows grouped by those columns,
--- waiting for :agg{...}.
function Frame:group_by(keys)
  meta.check_self(self, "group_by", '{"column", ...}')
  keys = meta.name_list("rows:group_by", "the grouping columns", keys)
  meta.check_columns("rows:group_by", self, keys)
  local copy = {}
  for i, k in ipairs(keys) do copy[i] = k end
  return setmetatable({frame = self, keys = copy}, grouped_mt)
end

grouped_mt.__tostring = function(g)
  return string.format("%d rows in %d groups by %s; summarise them with :agg{column = \"mean\", n = \"count\", ...}",
    #g.frame, #groups_of(g.frame, g.keys), table.concat(g.keys, ", "))
end

-- The plan of an agg spec: {{out =, col =, stat =, ...}, ...} in output column order.
local function agg_plan(frame, spec)
  local fname = "rows:agg"
  if type(spec) ~= "table" then
    errors.raise(fname, 'expected {column = "statistic", ...} such as {images_per_s = "mean", n = "count"}, got ' ..
      type(spec))
  end
  local valid = {}
  for _, c in ipairs(show.columns(frame)) do valid[c] = true end
  local plan = {}
  for col, what in pairs(spec) do
    if type(col) ~= "string" then
      errors.raise(fname, 'expected {column = "statistic", ...}; got the key ' .. tostring(col))
    end
    local list = type(what) == "table" and what or {what}
    if type(what) == "table" and #what == 0 then
      errors.raise(fname, string.format("'%s': expected a statistic or a list of them, got an empty table", col))
    end
    for i, stat in ipairs(list) do
      check_stat(fname, stat, "column '" .. col .. "'")
      if stat ~= "count" then meta.check_columns(fname, frame, {col}) end
      plan[#plan + 1] = {out = type(what) == "table" and (col .. "_" .. stat) or col, col = col, stat = stat,
        count_rows = stat == "count" and not valid[col], pos = i}
    end
  end
  -- By column name (the spec is a hash: it has no order), then in the order the list gives.
  table.sort(plan, function(a, b)
    if a.col ~= b.col then return a.col < b.col end
    return a.pos < b.pos
  end)
  return plan
end

local function aggregate(frame, keys, spec)
  local plan = agg_plan(frame, spec)
  local out = {}
  for i, g in ipairs(groups_of(frame, keys)) do
    local rec = {}
    for j, k in ipairs(keys) do rec[k] = g.values[j] end
    for _, p in ipairs(plan) do
      if p.count_rows then
        rec[p.out] = #g.rows
      else
        local values = {}
        for _, r in ipairs(g.rows) do
          -- nil and NaN are missing values, left out as rows:plot leaves them out (one rule for
          -- frames, issue 35 item 10: one NaN used to make the group's mean NaN).
          local v = r[p.col]
          if v ~= nil and v == v then values[#values + 1] = v end
        end
        rec[p.out] = STATS[p.stat]("rows:agg", p.col, values)
      end
    end
    out[i] = rec
  end
  local columns = {}
  for i, k in ipairs(keys) do columns[i] = k end
  for _, p in ipairs(plan) do columns[#columns + 1] = p.out end
  return meta.new(out, columns)
end

--- grouped:agg{column = "mean" | {"mean", "sd"}, n = "count", ...}: one row per group (sorted by
--- the group's values) with the group columns and one column per statistic: named after the
--- column for a single statistic, column_stat for a list. "count" counts the non-missing values
--- of an existing column, or the rows when its name is not a column.
function Grouped:agg(spec)
  if getmetatable(self) ~= grouped_mt then
    errors.raise("rows:agg", "called with '.' instead of ':' (use rows:group_by{...}:agg{...})")
  end
  return aggregate(self.frame, self.keys, spec)
end

--- rows:agg{...}: the statistics over all rows, as one row.
function Frame:agg(spec)
  meta.check_self(self, "agg", '{column = "statistic", ...}')
  return aggregate(self, {}, spec)
end

--- rows:pivot{rows = "batch", cols = "model", value = "images_per_s" [, agg = "mean"]}: one row per
--- value of `rows`, one column per value of `cols`, the cell holding `value`. Several rows for one
--- cell need agg (a statistic).
function Frame:pivot(opts)
  meta.check_self(self, "pivot", '{rows = "column", cols = "column", value = "column"}')
  local o = options.check("rows:pivot", opts, {
    rows = {type = "string_list", required = true}, cols = {type = "string", required = true},
    value = {type = "string", required = true}, agg = {type = "string"},
  })
  if o.agg then check_stat("rows:pivot", o.agg, "agg") end
  local row_keys = o.rows
  local names = {o.cols, o.value}
  for _, k in ipairs(row_keys) do names[#names + 1] = k end
  meta.check_columns("rows:pivot", self, names)
  -- A NaN can be no table key (Lua raised "table index is NaN"): it is a missing value here.
  local col_values, seen = {}, {}
  for _, r in ipairs(self) do
    local v = r[o.cols]
    if v ~= nil and v == v and not seen[v] then seen[v] = true; col_values[#col_values + 1] = v end
  end
  table.sort(col_values, meta.less)
  local columns = {}
  for i, k in ipairs(row_keys) do columns[i] = k end
  local is_key = {}
  for _, k in ipairs(row_keys) do is_key[k] = true end
  local named = {}
  for _, v in ipairs(col_values) do
    local name = tostring(v)
    if is_key[name] then
      errors.raise("rows:pivot", string.format("the value '%s' of column '%s' is also a row column: rename one", name,
        o.cols))
    end
    -- 1 and "1" would be one column, their cells mixed.
    if named[name] then
      errors.raise("rows:pivot", string.format("column '%s' holds both the number %s and the text \"%s\", which " ..
        "would be one pivot column: make them one type", o.cols, name, name))
    end
    named[name] = true
    columns[#columns + 1] = name
  end
  local out = {}
  for i, g in ipairs(groups_of(self, row_keys)) do
    local rec, cells = {}, {}
    for j, k in ipairs(row_keys) do rec[k] = g.values[j] end
    for _, r in ipairs(g.rows) do
      local c, v = r[o.cols], r[o.value]
      if c ~= nil and c == c and v ~= nil then
        cells[c] = cells[c] or {}
        table.insert(cells[c], v)
      end
    end
    for c, values in pairs(cells) do
      if #values > 1 and not o.agg then
        local where = {}
        for j, k in ipairs(row_keys) do where[j] = string.format("%s = %s", k, tostring(g.values[j])) end
        errors.raise("rows:pivot", string.format("%d values of '%s' for %s, %s = %s: pass agg = \"mean\" (or another " ..
          "statistic), or group_by{...}:agg{...} first", #values, o.value, table.concat(where, ", "), o.cols,
          tostring(c)))
      end
      rec[tostring(c)] = o.agg and STATS[o.agg]("rows:pivot", o.value, values) or values[1]
    end
    out[i] = rec
  end
  local caption = string.format("%s%s: %s down, %s across", o.value, o.agg and (" (" .. o.agg .. ")") or "",
    table.concat(row_keys, ", "), o.cols)
  return meta.new(out, columns, caption)
end

return M
