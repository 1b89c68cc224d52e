-- rlx.report.md: the Markdown pieces a report is built from: escaping values taken from the
-- database, GFM tables, number formats, and the marked placeholders for prose only people write.
--
-- Every value rlx puts into report.md goes through M.esc (or a number format), so a label, an error
-- message or a host name can never open a link, a table cell or an HTML tag.
local printable = require("rlx.show").printable
local stats = require("rlx.stats")
local M = {}

-- The placeholder mark: `grep -n "TO WRITE" report.md` lists what is left to write.
M.PLACEHOLDER = "**[TO WRITE]**"
-- The draft mark: a paragraph rlx wrote from the numbers it cites (each traced to a table row), for
-- the student to check and rewrite in their own words (`grep -n DRAFT report.md`).
M.DRAFT = "**[DRAFT]**"

--- Backslash-escapes the punctuation that could start markup inside a line (CommonMark + GFM
--- tables): emphasis, code, links, HTML, table pipes, strikethrough, entities. An underscore
--- inside a word (mobilenet_v2) is plain text in CommonMark and stays readable. Newlines become
--- spaces (a cell is one line).
function M.esc(v)
  if v == nil then return "" end
  local s = printable((tostring(v):gsub("[\r\n]+", " ")))
  s = s:gsub("[\\`*{}%[%]<>|~&]", "\\%0")
  s = s:gsub("^_", "\\_"):gsub("_$", "\\_"):gsub("([^%w\\])_", "%1\\_"):gsub("_([^%w])", "\\_%1")
  return s
end

-- The longest run of backticks in s.
local function longest_backticks(s)
  local n = 0
  for run in s:gmatch("`+") do n = math.max(n, #run) end
  return n
end

--- Inline code span for commands and file names: fenced with one backtick more than the longest
--- run inside (a name holding `` used to close a `` span early).
function M.code(s)
  s = printable((tostring(s):gsub("[\r\n]+", " ")))
  local n = longest_backticks(s)
  if n == 0 then return "`" .. s .. "`" end
  local fence = string.rep("`", n + 1)
  return fence .. " " .. s .. " " .. fence
end

--- A fenced code block of lines (a table of strings), the fence longer than any backtick run in
--- them so no line can end the block.
function M.block(lines, lang)
  local n = 2
  for _, l in ipairs(lines) do n = math.max(n, longest_backticks(l)) end
  local fence = string.rep("`", n + 1)
  local out = {fence .. (lang or "")}
  for _, l in ipairs(lines) do out[#out + 1] = l end
  out[#out + 1] = fence
  return out
end

--- One word of a POSIX shell command: as it is when it holds only characters no shell treats
--- specially, else in single quotes (a ' inside becomes '\''). Issue 25 finding 4: a study named
--- a`touch PWNED`b ran touch when a report's command was pasted into a shell.
function M.shq(v)
  local s = tostring(v)
  if s ~= "" and not s:find("[^%w_%-%./:=,+@%%]") then return s end
  if rlx._core.term.has_control(s) then
    -- Control characters as bash's $'...' escapes, so the command stays printable and exact.
    return "$'" .. s:gsub("[\\']", "\\%0"):gsub("[%z\1-\31\127-\255]", function(c)
      return string.format("\\%03o", c:byte()) end) .. "'"
  end
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

--- A shell command from words: strings are quoted words; a pair {flag, value} becomes "flag value",
--- or "flag=value" when the value starts with '-' (which rlx's parser would take for a flag).
function M.shell(words)
  local out = {}
  for _, w in ipairs(words) do
    if type(w) == "table" then
      local v = tostring(w[2])
      out[#out + 1] = v:sub(1, 1) == "-" and (w[1] .. "=" .. M.shq(v)) or (w[1] .. " " .. M.shq(v))
    else
      out[#out + 1] = M.shq(w)
    end
  end
  return table.concat(out, " ")
end

--- A marked placeholder paragraph (a block quote, so it stands out in the HTML too).
function M.placeholder(text)
  return "> " .. M.PLACEHOLDER .. " " .. text
end

--- A drafted paragraph (a block quote marked [DRAFT], drawn blue in the HTML): sentences rlx wrote
--- from the numbers they cite, for the student to check and rewrite. nil or "" sentences are
--- skipped; nil when none is left.
function M.draft(sentences)
  local kept = {}
  for _, s in ipairs(sentences) do if s and s ~= "" then kept[#kept + 1] = s end end
  if #kept == 0 then return nil end
  return "> " .. M.DRAFT .. " " .. table.concat(kept, " ")
end

--- A share as a percentage a reader can take in: "42.0 %", "0.61 %", "< 0.001 %" (never "9.6e-07 %").
function M.share(v)
  if type(v) ~= "number" or v ~= v then return "-" end
  local p = v * 100
  if p == 0 then return "0 %" end
  if math.abs(p) < 0.001 then return "< 0.001 %" end
  if math.abs(p) >= 1 then return M.pct(v, 1) end
  return M.sig(p, 2) .. " %"
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

--- The unit a column of durations is shown in (issue 34: a CPU iteration printed as "75407 ms"):
--- seconds when the median of the values (seconds) is 1 s or more, else milliseconds. Returns the
--- unit's name and the factor that turns seconds into it.
function M.time_unit(seconds)
  local xs = {}
  for _, v in ipairs(seconds) do if type(v) == "number" and v == v then xs[#xs + 1] = v end end
  local median = #xs > 0 and stats.median(xs) or 0
  if median >= 1 then return "s", 1 end
  return "ms", 1e3
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
