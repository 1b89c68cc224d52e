-- rows:plot{...} (rlx.frame): a line or scatter chart of two columns, one series per value of
-- `by`, drawn with rlx.plot.line (the Cairo layer). Several rows at one x of a series (repeats)
-- are drawn as their mean with a ± 1 SD bar, and the subtitle says so. Prints the path; shows the
-- figure inline too when the terminal can (rlx._termimg).
local errors = require("rlx.errors")
local options = require("rlx.options")
local show = require("rlx.show")
local meta = require("rlx.frame._meta")
local termimg = require("rlx._termimg")
local M = {}

local SPEC = {
  x = {type = "string", required = true}, y = {type = "string", required = true}, by = {type = "string_list"},
  out = {type = "string", required = true}, logx = {type = "boolean", default = false},
  logy = {type = "boolean", default = false}, title = {type = "string"}, subtitle = {type = "string"},
  xlabel = {type = "string"}, ylabel = {type = "string"}, kind = {type = "string", one_of = {"line", "scatter"}},
  width = {type = "integer", min = 100}, height = {type = "integer", min = 100},
  inline = {type = "boolean", default = true},
}

local function check_numeric(frame, col, axis)
  for i, r in ipairs(frame) do
    local v = r[col]
    if v ~= nil and type(v) ~= "number" then
      errors.raise("rows:plot", string.format("%s column '%s' holds %s in row %d (%s): x and y must be numeric " ..
        "columns; draw one line per value of a text column with by = \"%s\"", axis, col, type(v), i,
        type(v) == "string" and string.format("%q", v) or tostring(v), col))
    end
  end
end

local function check_columns(frame, names)
  local valid, set = show.columns(frame), {}
  for _, c in ipairs(valid) do set[c] = true end
  local sorted = {}
  for i, c in ipairs(valid) do sorted[i] = c end
  table.sort(sorted)
  for _, c in ipairs(names) do
    if not set[c] then
      errors.raise("rows:plot", string.format("unknown column '%s' (valid columns: %s)", c, table.concat(sorted, ", ")))
    end
  end
end

-- Series {label, x, y, sd} from the frame: one per distinct `by` tuple, points sorted by x, repeats
-- at one x averaged. Returns the series, whether any point averages repeats, and the distinct xs.
local function build_series(frame, o)
  local by = o.by or {}
  local groups = {}
  local order = {}
  local all_x, aggregated = {}, false
  for _, r in ipairs(frame) do
    local x, y = r[o.x], r[o.y]
    -- A NaN is a missing value here: it has no place on an axis, and as a table key it raised
    -- "table index is NaN".
    if x ~= nil and y ~= nil and x == x and y == y then
      local parts = {}
      for i, k in ipairs(by) do parts[i] = r[k] == nil and "-" or tostring(r[k]) end
      local label = #by > 0 and table.concat(parts, " ") or o.y
      local g = groups[label]
      if not g then
        g = {label = label, values = {}, at = {}}
        for i, k in ipairs(by) do g.values[i] = r[k] end
        groups[label] = g
        order[#order + 1] = g
      end
      if not g.at[x] then
        g.at[x] = {}
        g.xs = g.xs or {}
        g.xs[#g.xs + 1] = x
      end
      table.insert(g.at[x], y)
      all_x[x] = true
    end
  end
  table.sort(order, function(a, b)
    for i = 1, #by do
      if a.values[i] ~= b.values[i] then return meta.less(a.values[i], b.values[i]) end
    end
    return false
  end)
  local series = {}
  for _, g in ipairs(order) do
    table.sort(g.xs)
    local s = {label = g.label, x = {}, y = {}, sd = {}}
    local any_sd = false
    for i, x in ipairs(g.xs) do
      local ys = g.at[x]
      s.x[i] = x
      s.y[i] = rlx.stats.mean(ys)
      s.sd[i] = #ys > 1 and rlx.stats.sd(ys) or 0
      if #ys > 1 then aggregated, any_sd = true, true end
    end
    if not any_sd then s.sd = nil end
    series[#series + 1] = s
  end
  local xs = {}
  for x in pairs(all_x) do xs[#xs + 1] = x end
  table.sort(xs)
  return series, aggregated, xs
end

--- Draws the chart; prints the path (and the figure inline where the terminal shows images).
--- Returns rlx.plot.line's info (axes, scales, info:px), which the REPL does not print.
function M.plot(frame, opts)
  local o = options.check("rows:plot", opts, SPEC)
  if #frame == 0 then
    errors.raise("rows:plot", "the frame has no rows: nothing to draw (did a where{} or a query match nothing?)")
  end
  local names = {o.x, o.y}
  for _, k in ipairs(o.by or {}) do names[#names + 1] = k end
  check_columns(frame, names)
  check_numeric(frame, o.x, "the x")
  check_numeric(frame, o.y, "the y")
  local series, aggregated, xs = build_series(frame, o)
  if #series == 0 then
    errors.raise("rows:plot", string.format("no row has both '%s' and '%s': nothing to draw", o.x, o.y))
  end
  -- Few integer x values (batch sizes): ticks at exactly those values.
  local xticks
  local integers = #xs <= 12
  for _, x in ipairs(xs) do
    if x ~= math.floor(x) or (o.logx and x <= 0) then integers = false end
  end
  if integers and #xs >= 2 then xticks = xs end
  -- A quantity that is never negative (images/s, seconds) starts at zero on a linear axis: the
  -- error bars of a mean ± SD pulled the axis to -5 images/s (issue 34).
  local ymin
  if not o.logy then
    ymin = 0
    for _, s in ipairs(series) do
      for _, y in ipairs(s.y) do if y < 0 then ymin = nil end end
    end
  end
  local plot_opts = {series = series, out = o.out, title = o.title, xlabel = o.xlabel or o.x, ymin = ymin,
    ylabel = o.ylabel or o.y, xscale = o.logx and "log" or "linear", yscale = o.logy and "log" or "linear",
    kind = o.kind, xticks = xticks, width = o.width, height = o.height,
    subtitle = o.subtitle or (aggregated and "mean ± 1 SD where a point has several rows" or nil)}
  local ok, info = pcall(rlx.plot.line, plot_opts)
  if not ok then
    errors.pass_exits(info)
    errors.raise("rows:plot", errors.is(info) and tostring(info.message) or errors.text(info))
  end
  io.write(o.out, "\n")
  if o.inline then termimg.show(o.out) end
  io.stdout:flush()
  return info
end

return M
