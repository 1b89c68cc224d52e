-- rlx.csv: the one CSV writer (RFC 4180) behind `rlx export --csv`, the seed-layout files,
-- `rlx train --log-dir` and rows:to_csv, so every CSV rlx writes quotes and prints numbers alike.
--
--   rlx.csv.text({"model", "images_per_s"}, {{"resnet50", 40.25}})  --> "model,images_per_s\nresnet50,40.25\n"
--
-- Numbers are written in full: integers as integers, others with the fewest digits that read back
-- as the same double (%.15g, else %.17g). nil is an empty cell (unknown), a table its JSON text,
-- booleans "true"/"false" unless the caller maps them; a cell holding a comma, a quote or a line
-- break is quoted, its quotes doubled; a text cell a spreadsheet would run as a formula starts
-- with ' (M.neutral).
local errors = require("rlx.errors")
local M = {}

--- A user's CSV file read one record at a time (RFC 4180; engine/util/csv_reader.h), by rlx's rule
--- for reading a user's files (a FIFO or a device is refused at once; at most max_bytes bytes):
--- rlx.csv.reader(path, {what = "the kit's metrics.csv", max_bytes = N}) -> reader; reader:next()
--- -> {fields = {...}, cols = {column of each field}, line = first line} or nil at the end;
--- reader:close(). A malformed file raises "PATH:LINE:COL: what is wrong; the fix".
M.reader = rlx._core.csv.open

-- A decimal number as a spreadsheet reads one: an optional sign, digits with at most one point,
-- an optional exponent ("-5", "+2.5", "-.5", "1e-3"). Not Lua's tonumber, which also takes
-- leading and trailing white space ("\t1", "\r-2") and hex ("-0x10").
local function decimal(s)
  local mantissa, exponent = s:match("^[+%-]?([%d.]+)(.*)$")
  if not mantissa or not (mantissa:find("^%d+%.?%d*$") or mantissa:find("^%.%d+$")) then return false end
  return exponent == "" or exponent:find("^[eE][+%-]?%d+$") ~= nil
end

--- A text cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a
--- carriage return: `=HYPERLINK(...)`, `@SUM(...)`) gets a leading ' so it is shown as text; a
--- decimal number written as text ("-5", "-1e-3") stays as it is. The CSV side of rlx's escaping
--- rule (issue 35 item 4; the terminal's and the report's is rlx.show.printable).
function M.neutral(s)
  if s:find("^[=+%-@\t\r]") and not decimal(s) then return "'" .. s end
  return s
end

--- One cell's text.
function M.field(v)
  if v == nil then return "" end
  local s
  local t = type(v)
  if t == "number" then
    if v ~= v then
      s = "nan"
    elseif v == math.floor(v) and math.abs(v) < 2 ^ 53 then
      s = string.format("%d", v)
    else
      s = string.format("%.15g", v)
      if tonumber(s) ~= v then s = string.format("%.17g", v) end
    end
  elseif t == "table" then
    s = rlx.json.encode(v)
  else
    s = M.neutral(tostring(v))
  end
  if s:find('[,"\r\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

--- One line (no line break) of the cells values[1..n]; n defaults to #values (give it when the
--- last cells may be nil).
function M.line(values, n)
  errors.expect("rlx.csv.line", values, "table", "an array of cell values")
  local cells = {}
  for i = 1, n or table.maxn(values) do cells[i] = M.field(values[i]) end
  return table.concat(cells, ",")
end

--- The whole text: the header line of `columns`, then one line per row (an array of values in
--- the columns' order), each ending in "\n".
function M.text(columns, rows)
  errors.expect("rlx.csv.text", columns, "table", "an array of column names")
  errors.expect("rlx.csv.text", rows, "table", "an array of rows (arrays of values)")
  local lines = {M.line(columns, #columns)}
  for _, values in ipairs(rows) do lines[#lines + 1] = M.line(values, #columns) end
  return table.concat(lines, "\n") .. "\n"
end

return M
