-- rlx.report.md: the Markdown pieces a report is built from: escaping values taken from the
-- database, GFM tables, number formats, and the marked placeholders for prose only people write.
--
-- Every value rlx puts into report.md goes through M.esc (or a number format), so a label, an error
-- message or a host name can never open a link, a table cell or an HTML tag.
local M = {}

-- The placeholder mark: `grep -n "TO WRITE" report.md` lists what is left to write.
M.PLACEHOLDER = "**[TO WRITE]**"

--- Backslash-escapes the punctuation that could start markup inside a line (CommonMark + GFM
--- tables): emphasis, code, links, HTML, table pipes, strikethrough, entities. An underscore
--- inside a word (mobilenet_v2) is plain text in CommonMark and stays readable. Newlines become
--- spaces (a cell is one line).
function M.esc(v)
  if v == nil then return "" end
  local s = tostring(v):gsub("[\r\n]+", " ")
  s = s:gsub("[\\`*{}%[%]<>|~&]", "\\%0")
  s = s:gsub("^_", "\\_"):gsub("_$", "\\_"):gsub("([^%w\\])_", "%1\\_"):gsub("_([^%w])", "\\_%1")
  return s
end

--- Inline code span for commands and file names (backticks inside are doubled around).
function M.code(s)
  s = tostring(s):gsub("[\r\n]+", " ")
  if s:find("`") then return "`` " .. s .. " ``" end
  return "`" .. s .. "`"
end

--- A marked placeholder paragraph (a block quote, so it stands out in the HTML too).
function M.placeholder(text)
  return "> " .. M.PLACEHOLDER .. " " .. text
end

--- Fixed decimals; "-" for a missing value.
function M.fixed(v, digits)
  if type(v) ~= "number" or v ~= v then return "-" end
  return string.format("%." .. (digits or 1) .. "f", v)
end

--- "mean ± sd" with fixed decimals; only the mean when sd is nil (a single repeat).
function M.mean_sd(m, s, digits)
  if type(m) ~= "number" then return "-" end
  if type(s) ~= "number" then return M.fixed(m, digits) end
  return M.fixed(m, digits) .. " ± " .. M.fixed(s, digits)
end

--- "mean ± sd" with the mean to n significant digits (default 3) and the SD to the same decimals.
function M.mean_sd_sig(m, s, n)
  if type(m) ~= "number" or m ~= m then return "-" end
  n = n or 3
  local mag = m == 0 and 0 or math.floor(math.log10(math.abs(m)))
  local decimals = math.max(0, n - 1 - mag)
  return M.mean_sd(m, s, decimals)
end

--- A number with n significant digits, without exponent for everyday magnitudes.
function M.sig(v, n)
  if type(v) ~= "number" or v ~= v then return "-" end
  if v == 0 then return "0" end
  n = n or 3
  local mag = math.floor(math.log10(math.abs(v)))
  local decimals = math.max(0, n - 1 - mag)
  if mag >= 15 or mag < -6 then return string.format("%." .. (n - 1) .. "e", v) end
  return string.format("%." .. decimals .. "f", v)
end

--- A fraction as a percentage with one decimal ("12.3 %").
function M.pct(v, digits)
  if type(v) ~= "number" or v ~= v then return "-" end
  return string.format("%." .. (digits or 1) .. "f %%", v * 100)
end

--- Bytes as decimal MB (1e6) with one decimal: rlx's memory unit, as in `rlx models`.
function M.mb(bytes)
  if type(bytes) ~= "number" then return "-" end
  return string.format("%.1f", bytes / 1e6)
end

--- Bytes as MiB (2^20) with one decimal: the unit torchsummary prints as "MB" (and the seeds'
--- memory figures use), shown beside M.mb's MB where a reader compares with them.
function M.mib(bytes)
  if type(bytes) ~= "number" then return "-" end
  return string.format("%.1f", bytes / 2 ^ 20)
end

--- The sentence that says which memory unit is which (tables with MB and MiB columns).
M.MEMORY_UNITS = "MB = 10^6 bytes; MiB = 2^20 bytes = 1.048576 MB, the unit torchsummary prints as \"MB\" " ..
  "and the seeds' memory figures use"

--- A GFM table: headers (array of strings), rows (arrays of already formatted cells), align (array
--- of "l"/"r", default left). Returns an array of lines.
function M.table(headers, rows, align)
  local function line(cells) return "| " .. table.concat(cells, " | ") .. " |" end
  local rule = {}
  for i = 1, #headers do rule[i] = (align and align[i] == "r") and "---:" or "---" end
  local out = {line(headers), line(rule)}
  for _, r in ipairs(rows) do
    local cells = {}
    for i = 1, #headers do
      local c = r[i]
      cells[i] = (c == nil or c == "") and "-" or tostring(c)
    end
    out[#out + 1] = line(cells)
  end
  return out
end

--- A document being written: add lines, paragraphs and tables; text() joins them.
function M.doc()
  local d = {lines = {}}
  function d:add(...)
    for _, s in ipairs({...}) do
      if type(s) == "table" then
        for _, l in ipairs(s) do self.lines[#self.lines + 1] = l end
      else
        self.lines[#self.lines + 1] = s
      end
    end
    return self
  end
  function d:para(...)
    self:add(...)
    self.lines[#self.lines + 1] = ""
    return self
  end
  function d:text() return table.concat(self.lines, "\n") .. "\n" end
  return d
end

return M
