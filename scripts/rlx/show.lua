-- rlx.show: the one table printer. A list of records (query results, study:runs, rlx.stats
-- outputs, frames) prints as an aligned table: a header, numbers right-aligned at one precision
-- per column, columns chosen to fit the terminal (those left out are named), "... N more rows"
-- and a row count. The REPL prints results with it, `rlx.show(rows, opts)` gives control, and
-- `rlx runs` lists runs through it. Anything else is printed by rlx._pretty, as before.
--
--   rlx.show(study:runs{}, {cols = {"model", "batch", "images_per_s"}, max_rows = 10})
local errors = require("rlx.errors")
local options = require("rlx.options")
local frame_meta = require("rlx.frame._meta")
local pretty = require("rlx._pretty")
local M = {}

-- Units of the few names rlx stores without one; every other name carries its unit
-- (images_per_s, iter_mean_s, max_rss_bytes, fp32_gflops, dram_gbps, train_flops).
M.UNITS = {ai = "FLOP/B", complexity_ai = "FLOP/B", gflops = "GFLOP/s", gbps = "GB/s"}

M.DEFAULT_MAX_ROWS = 40
M.DEFAULT_MAX_CELL = 40

-- Display width of a UTF-8 string (one column per code point: rlx prints no wide characters).
local function text_width(s)
  local n = 0
  for i = 1, #s do
    local b = s:byte(i)
    if b < 0x80 or b >= 0xC0 then n = n + 1 end
  end
  return n
end

-- The first `w` columns of s, ending in "…" when cut.
local function cut(s, w)
  if text_width(s) <= w then return s end
  if w <= 0 then return "" end
  local out, n, i = {}, 0, 1
  while i <= #s and n < w - 1 do
    local b = s:byte(i)
    local len = b >= 0xF0 and 4 or b >= 0xE0 and 3 or b >= 0xC0 and 2 or 1
    out[#out + 1] = s:sub(i, i + len - 1)
    n, i = n + 1, i + len
  end
  return table.concat(out) .. "…"
end

local function pad(s, w, right)
  local fill = string.rep(" ", w - text_width(s))
  return right and (fill .. s) or (s .. fill)
end

local function is_integer(v) return v == math.floor(v) and math.abs(v) < 1e15 end

M.SIGNIFICANT = 5

-- Decimals a column needs so that each value shows its first five significant digits (fewer when
-- the value is a shorter decimal: 60.25 needs 2, 16 none), at most 6; nil when the column needs
-- exponents (values of 1e9 and above).
local function decimals_for(values)
  local decimals = 0
  for _, v in ipairs(values) do
    if v == v and v ~= math.huge and v ~= -math.huge and not is_integer(v) then
      if math.abs(v) >= 1e9 then return nil end
      local g = string.format("%." .. M.SIGNIFICANT .. "g", v)
      local frac = g:find("e") and "123456" or (g:match("%.(%d+)$") or "")
      decimals = math.max(decimals, math.min(6, #frac))
    elseif v == v and math.abs(v) >= 1e15 then
      return nil
    end
  end
  return decimals
end

local function fmt_number(v, decimals)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" elseif v == -math.huge then return "-inf" end
  if decimals == nil then return string.format("%." .. M.SIGNIFICANT .. "g", v) end
  if decimals == 0 then return string.format("%d", v) end
  local s = string.format("%." .. decimals .. "f", v)
  -- A small non-zero value would read as 0.000: show its magnitude instead.
  if v ~= 0 and tonumber(s) == 0 then return string.format("%.2g", v) end
  return s
end

--- The text with line breaks and tabs as spaces (kept with keep_lines) and every other control
--- character (ESC, BEL, NUL, DEL, the C1 controls) written as \ddd: a cell comes from a database
--- anyone could have written, and an escape sequence in a run's label or error must not reach the
--- terminal (it can retitle the window, or on some terminals set the clipboard). The one escaping
--- rule of rlx (engine/util/printable.h): tables, progress lines, messages and the report.
function M.printable(s, keep_lines)
  return rlx._core.term.printable(tostring(s), keep_lines and true or false)
end

local function fmt_cell(v, max_cell)
  if v == nil then return "" end
  local t = type(v)
  if t == "string" then return cut(M.printable(v), max_cell) end
  if t == "table" then
    return cut(pretty.format(v, {depth = 1, max_items = 4, width = max_cell}), max_cell)
  end
  return tostring(v)
end

local function is_record(r)
  if type(r) ~= "table" or getmetatable(r) ~= nil or rawget(r, 1) ~= nil then return false end
  local k = next(r)
  if k == nil then return false end
  for key in pairs(r) do
    if type(key) ~= "string" then return false end
  end
  return true
end

-- The stored column order and caption of a frame (rlx.frame._meta), nil for other tables.
local function frame_info(rows)
  if frame_meta.is(rows) then return frame_meta.info(rows) end
  return nil
end

--- Whether v prints as a table: a frame, or a non-empty array whose elements are all records
--- (tables with string keys only), with nothing but the array in it.
function M.is_records(v)
  if type(v) ~= "table" then return false end
  if frame_info(v) then return true end
  if getmetatable(v) ~= nil then return false end
  local n = #v
  if n == 0 then return false end
  for k in pairs(v) do
    if type(k) ~= "number" or k < 1 or k > n or k ~= math.floor(k) then return false end
  end
  for i = 1, n do
    if not is_record(v[i]) then return false end
  end
  return true
end

--- The columns of rows in display order (rlx.frame._meta.columns): the frame's own order first,
--- then the other keys found in the rows, rlx's usual ones first.
M.columns = frame_meta.columns

--- The terminal's width in columns: $COLUMNS when it is a positive integer, else the width of the
--- terminal on stdout; nil when stdout is not a terminal (a pipe or a file: nothing is cut).
function M.terminal_width()
  local c = tonumber(os.getenv("COLUMNS") or "")
  if c and c >= 1 and c == math.floor(c) then return c end
  return rlx._core.term.width()
end

local SPEC = {
  cols = {type = "string_list"},
  max_rows = {type = "integer", min = 0},
  width = {type = "integer", min = 1},
  max_cell = {type = "integer", min = 1},
  footer = {type = "string"},
  caption = {type = "string"},
}

local function header_name(c)
  local unit = M.UNITS[c]
  return unit and string.format("%s (%s)", c, unit) or c
end

-- Words joined with ", " after prefix, in lines of at most `width` columns and at most
-- `max_lines` lines (the last one ends "... (N more)" when they do not all fit).
local function wrap_list(prefix, words, width, max_lines)
  local lines, line = {}, prefix
  for i, word in ipairs(words) do
    local piece = word .. (i < #words and "," or "")
    local last_line = #lines + 1 == max_lines
    local reserve = (last_line and i < #words) and #string.format(" ... (%d more)", #words) or 0
    if text_width(line) + 1 + text_width(piece) + reserve > width and line ~= prefix then
      if last_line then
        lines[#lines + 1] = line .. string.format(" ... (%d more)", #words - i + 1)
        return lines
      end
      lines[#lines + 1] = line
      line = "  " .. piece
    else
      line = line .. " " .. piece
    end
  end
  lines[#lines + 1] = line
  return lines
end

-- Cells of one column for the shown rows: strings, and whether it is right-aligned.
local function column_cells(rows, n, c, max_cell)
  local numbers, all_numbers, any = {}, true, false
  for i = 1, n do
    local v = rows[i][c]
    if v ~= nil then
      any = true
      if type(v) == "number" then numbers[#numbers + 1] = v else all_numbers = false end
    end
  end
  local numeric = any and all_numbers
  local decimals = numeric and decimals_for(numbers) or nil
  local cells = {}
  for i = 1, n do
    local v = rows[i][c]
    cells[i] = (numeric and v ~= nil) and fmt_number(v, decimals) or fmt_cell(v, max_cell)
  end
  return cells, numeric
end

-- The columns that fit `width`, taken in order (a column too wide is skipped, later narrower ones
-- may still fit): {name, head, cells, right, w} each, and the names left out.
local function fit(rows, n, cols, width, max_cell)
  local shown, left_out, used = {}, {}, 0
  for _, c in ipairs(cols) do
    local cells, right = column_cells(rows, n, c, max_cell)
    local head = header_name(c)
    local w = text_width(head)
    for i = 1, n do w = math.max(w, text_width(cells[i])) end
    local need = (#shown > 0 and 2 or 0) + w
    if #shown == 0 and w > width then
      w, need = width, width  -- one column wider than the terminal: cut its cells
    end
    if used + need <= width then
      shown[#shown + 1] = {name = c, head = head, cells = cells, right = right, w = w}
      used = used + need
    else
      left_out[#left_out + 1] = c
    end
  end
  return shown, left_out
end

-- Splits cols into those that vary and "name = value" texts of those holding one plain value in
-- every row (a study's env, precision, device, ...).
local function split_constant(rows, cols)
  local varying, same = {}, {}
  for _, c in ipairs(cols) do
    local first, constant = rows[1][c], true
    if first == nil or type(first) == "table" then constant = false end
    for i = 2, #rows do
      if not constant then break end
      if rows[i][c] ~= first then constant = false end
    end
    if constant then
      local text = type(first) == "number" and fmt_number(first, decimals_for({first})) or fmt_cell(first, 24)
      same[#same + 1] = c .. " = " .. text
    else
      varying[#varying + 1] = c
    end
  end
  return varying, same
end

-- The table's lines: header, rule, one line per shown row.
local function table_lines(shown, n, lines)
  local function line(texts)
    local parts = {}
    for j, col in ipairs(shown) do
      local t = cut(texts[j], col.w)
      -- Numbers and their headers are right-aligned; the last text column gets no trailing blanks.
      parts[j] = (j == #shown and not col.right) and t or pad(t, col.w, col.right)
    end
    lines[#lines + 1] = table.concat(parts, "  ")
  end
  if #shown == 0 then return end
  local heads, rules = {}, {}
  for j, col in ipairs(shown) do heads[j], rules[j] = col.head, string.rep("-", col.w) end
  line(heads)
  line(rules)
  for i = 1, n do
    local texts = {}
    for j, col in ipairs(shown) do texts[j] = col.cells[i] end
    line(texts)
  end
end

local function checked_cols(all, cols, nrows)
  local valid = {}
  for _, c in ipairs(all) do valid[c] = true end
  for _, c in ipairs(cols) do
    if not valid[c] and nrows > 0 then
      errors.raise("rlx.show", string.format("unknown column '%s' (valid columns: %s)", c, table.concat(all, ", ")))
    end
  end
  return cols
end

--- format(rows [, opts]) -> text (lines without a final newline); rows is an array of records or
--- one record (a table of one row). opts: cols (the columns, in
--- order), max_rows (default 40; 0 shows every row), width (default: the terminal's, no limit when
--- stdout is not a terminal), max_cell (longest text cell, default 40), footer (replaces the
--- "N rows" line), caption (a line above the table).
function M.format(rows, opts)
  local o = options.check("rlx.show", opts, SPEC)
  errors.expect("rlx.show", rows, "table", "an array of records (tables with string keys)")
  -- One record (rlx.stats.summary's, a run's result) is a table of one row, not "0 rows".
  if is_record(rows) then rows = {rows} end
  for i, r in ipairs(rows) do
    if type(r) ~= "table" then
      errors.raise("rlx.show", string.format("row %d must be a table of column = value, got %s", i, type(r)))
    end
  end
  local info = frame_info(rows)
  local cols = o.cols and checked_cols(M.columns(rows), o.cols, #rows) or M.columns(rows)
  local max_rows = o.max_rows or M.DEFAULT_MAX_ROWS
  local n = (max_rows == 0 or #rows <= max_rows) and #rows or max_rows
  local width = o.width or M.terminal_width() or math.huge
  local max_cell = o.max_cell or M.DEFAULT_MAX_CELL
  local shown, left_out = fit(rows, n, cols, width, max_cell)
  local same = {}
  -- Too wide, in rlx's own column order: columns with one value in every row move to a line of
  -- their own, which leaves room for those that differ (images_per_s before a constant env).
  if #left_out > 0 and not o.cols and not (info and info.columns) and #rows >= 2 then
    local varying
    varying, same = split_constant(rows, cols)
    shown, left_out = fit(rows, n, varying, width, max_cell)
  end
  local lines = {}
  local caption = o.caption or (info and info.caption)
  if caption then lines[#lines + 1] = caption end
  table_lines(shown, n, lines)
  if n < #rows then lines[#lines + 1] = string.format("... %d more rows", #rows - n) end
  local count = o.footer or string.format("%d row%s", #rows, #rows == 1 and "" or "s")
  if (#left_out > 0 or #same > 0) and not o.footer then
    count = string.format("%s, %d columns (%d shown)", count, #cols, #shown)
  end
  lines[#lines + 1] = count
  local wrap_width = width == math.huge and 100 or width
  for _, l in ipairs(wrap_list("same in every row:", same, wrap_width, 2)) do
    if #same > 0 then lines[#lines + 1] = l end
  end
  if #left_out > 0 then
    for _, l in ipairs(wrap_list("not shown (too wide):", left_out, wrap_width, 3)) do lines[#lines + 1] = l end
    if not o.footer then lines[#lines + 1] = "pick others with rows:select{...}" end
  end
  return table.concat(lines, "\n")
end

--- rlx.show(rows [, opts]): prints format(rows, opts) on stdout.
function M.show(rows, opts)
  io.write(M.format(rows, opts), "\n")
  io.stdout:flush()
end

return setmetatable(M, {__call = function(_, rows, opts) return M.show(rows, opts) end})
