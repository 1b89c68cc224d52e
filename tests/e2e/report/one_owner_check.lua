-- one_owner_check.lua: on one real study database (one_owner.sh), the same row read from the four
-- places that show it must carry the same numbers (issue 32: `rlx runs --summary` printed a row as
-- "0.9 ± 0.0" where Table 2 said "0.896 ± 0.006", and §4.3 and §6.4 gave one row two peaks):
--   summary.md   `rlx runs DB --summary`
--   rep/report.md  `rlx report DB`: Table 2, §4.3's peak memory, §6.4's measured memory
--   kit/         `rlx export DB --layout seed`: analysis/roofline_points.csv, analysis/peaks.json
--   the REPL's frames: study:table2() and study:runs{} grouped and aggregated by rlx.frame.
-- Parameters: dir (holding the files above and db, a copy of the database), study. Prints one line
-- per kind of comparison with the rows compared, or fails naming the row and both values.
local dir = assert(rlx.params_text.dir, "--set dir=")
local study_name = assert(rlx.params_text.study, "--set study=")
local md = require("rlx.report.md")

-- The whole text of a file under dir (a test's file: the collector closes it).
local function read(path) return assert(io.open(dir .. "/" .. path, "rb"), "missing " .. path):read("*a") end
local function check(cond, what, ...) if not cond then error(string.format(what, ...), 0) end end
local function near(a, b) return type(a) == "number" and type(b) == "number" and math.abs(a - b) <= 1e-12 * math.abs(b) end

local function lines_of(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

local function cells_of(line)
  local cells = {}
  for c in line:sub(3, -3):gmatch("([^|]*)") do
    if c ~= "" then cells[#cells + 1] = c:match("^%s*(.-)%s*$") end
  end
  return cells
end

-- The Markdown table whose header line contains `head`, from lines: {header = {...}, rows = {{...}}}.
local function table_with(lines, head)
  for i, line in ipairs(lines) do
    if line:sub(1, 2) == "| " and line:find(head, 1, true) then
      local t = {header = cells_of(line), rows = {}, lines = {}}
      local j = i + 2
      while lines[j] and lines[j]:sub(1, 2) == "| " do
        t.rows[#t.rows + 1] = cells_of(lines[j])
        t.lines[#t.lines + 1] = lines[j]
        j = j + 1
      end
      return t
    end
  end
  error("no table with a '" .. head .. "' column", 0)
end

local function column(t, name)
  for i, h in ipairs(t.header) do if h == name then return i end end
  error("no column '" .. name .. "' in " .. table.concat(t.header, " | "), 0)
end

-- The lead cells of a row (env, model, precision, batch and the fields the rows differ in).
local function key_of(row, lead) return table.concat(row, "|", 1, lead) end

local report = lines_of(read("rep/report.md"))
local summary = lines_of(read("summary.md"))
local t2 = table_with(report, "95 % CI of the mean")
local lead = column(t2, "n") - 1

-- 1. rlx runs --summary prints the report's Table 2, cell for cell, without the Runs column.
local s2 = table_with(summary, "95 % CI of the mean")
check(#s2.rows == #t2.rows and #s2.rows > 0, "rows: --summary %d, Table 2 %d", #s2.rows, #t2.rows)
check(table.concat(s2.header, "|") .. "|Runs" == table.concat(t2.header, "|"), "headers: %s against %s",
  table.concat(s2.header, " | "), table.concat(t2.header, " | "))
for i, row in ipairs(t2.rows) do
  local want = table.concat(row, " | ", 1, #row - 1)
  local got = table.concat(s2.rows[i], " | ")
  check(got == want, "row %d: --summary '%s', Table 2 '%s'", i, got, want)
end
print("runs --summary = Table 2", #t2.rows)

-- 2. The REPL: study:table2() has Table 2's numbers (formatted as the report formats them), and
-- rlx.frame's own group_by/agg over a row's runs gives its mean and SD where no run was left out.
local s = rlx.study{name = study_name, db = dir .. "/db"}
local records = s:table2()
check(#records == #t2.rows, "study:table2(): %d rows, Table 2 %d", #records, #t2.rows)
local n_col, ips_col, gf_col, ai_col, bound_col = column(t2, "n"), column(t2, "Images/s"), lead + 4, lead + 5,
  column(t2, "Bound")
local by_key, aggregated = {}, 0
for i, rec in ipairs(records) do
  local row = t2.rows[i]
  local mark = rec.all_flagged and " †" or ""
  check(row[1] == md.esc(rec.env) and row[2] == md.esc(rec.model) and row[3] == md.esc(rec.precision) and
    row[4] == tostring(rec.batch),
    "row %d: Table 2 %s, frame %s %s %s %s", i, key_of(row, 4), rec.env, rec.model, rec.precision, rec.batch)
  check(row[n_col]:match("^%d+") == tostring(rec.n), "row %d n: Table 2 '%s', frame %s", i, row[n_col], rec.n)
  check(row[ips_col] == md.mean_sd_sig(rec.images_per_s_mean, rec.images_per_s_sd) .. mark,
    "row %d images/s: Table 2 '%s', frame %s ± %s", i, row[ips_col], rec.images_per_s_mean, rec.images_per_s_sd)
  if rec.ai_mean then
    check(row[gf_col] == md.mean_sd_sig(rec.gflops_mean, rec.gflops_sd) .. mark, "row %d GFLOP/s: '%s', frame %s",
      i, row[gf_col], rec.gflops_mean)
    -- An estimated AI is the same in every repeat, a range from the upper traffic model to the
    -- minimum traffic (issue 45): Table 2 shows the range, the frame its ends and the mean (its top).
    local want = md.mean_sd_sig(rec.ai_mean, rec.ai_sd)
    if rec.source == "estimated" then
      want = rec.ai_lo and (md.sig(rec.ai_lo, 3) .. "–" .. md.sig(rec.ai_hi, 3)) or md.mean_sd_sig(rec.ai_mean, nil)
      check(not rec.ai_hi or rec.ai_hi == rec.ai_mean, "row %d AI: the range's top %s is not the mean %s", i,
        rec.ai_hi, rec.ai_mean)
    end
    check(row[ai_col] == want, "row %d AI: Table 2 '%s', frame %s ± %s", i, row[ai_col], rec.ai_mean, rec.ai_sd)
  end
  -- Near the ridge the table states no bound (issue 45: a range across the ridge has none); a
  -- host/launch-bound GPU row (issue 55) states that class with its two times, whatever its side.
  check(rec.bound == nil or (rec.class == "host/launch-bound" and row[bound_col]:find("^host/launch%-bound %(")) or
    (rec.class == "near the ridge" and row[bound_col]:find("^near the ridge")) or
    (rec.class == rec.bound .. "-bound" and row[bound_col] == rec.bound), "row %d bound: Table 2 '%s', frame %s (%s)",
    i, row[bound_col], tostring(rec.bound), tostring(rec.class))
  by_key[key_of(row, lead)] = rec
  if rec.left_out == 0 then
    local labels = {}
    for l in rec.labels:gmatch("%S+") do labels[l] = true end
    local agg = s:runs{status = "ok"}:where(function(r) return labels[r.label] end)
      :agg{images_per_s = {"mean", "sd"}, n = "count"}[1]
    check(agg.n == rec.n and agg.images_per_s_mean == rec.images_per_s_mean and
      (agg.images_per_s_sd == rec.images_per_s_sd), "row %d: rows:agg mean %s sd %s n %s, study:table2() %s %s %s", i,
      tostring(agg.images_per_s_mean), tostring(agg.images_per_s_sd), agg.n, rec.images_per_s_mean,
      tostring(rec.images_per_s_sd), rec.n)
    aggregated = aggregated + 1
  end
end
print("study:table2() = Table 2", #records, "rows:agg", aggregated)

-- 3. Peak memory: §4.3's and §6.4's cell of a row are the frame's peak_memory_bytes.
local compared = 0
for _, t in ipairs({table_with(report, "Peak memory, MB (MiB)"), table_with(report, "Measured (MB)")}) do
  local col = t.header[lead + 1] == "Estimated (MB)" and column(t, "Measured (MB)") or column(t, "Peak memory, MB (MiB)")
  for _, row in ipairs(t.rows) do
    local rec = by_key[key_of(row, lead)]
    check(rec, "no Table 2 row for %s", key_of(row, lead))
    -- §4.3's cell is "MB (MiB)", §6.4's MB alone.
    local mb = row[col]:match("^(%S+)")
    check(mb == md.mb(rec.peak_memory_bytes), "%s peak memory: report '%s', frame %s", key_of(row, lead), row[col],
      tostring(rec.peak_memory_bytes))
    compared = compared + 1
  end
end
print("peak memory §4.3 and §6.4 = frame", compared)

-- 4. The seed layout: each run's point and roofs in analysis/roofline_points.csv and peaks.json are
-- the ones the row's means and bound come from.
local function csv_rows(path)
  local ls = lines_of(read(path))
  local header, rows = {}, {}
  for name in ls[1]:gmatch("[^,]+") do header[#header + 1] = name end
  for i = 2, #ls do
    if ls[i] ~= "" then
      local cells, row = {}, {}
      for cell in (ls[i] .. ","):gmatch("([^,]*),") do cells[#cells + 1] = cell end
      for k, name in ipairs(header) do row[name] = tonumber(cells[k]) or cells[k] end
      rows[row.label] = row
    end
  end
  return rows
end
local points = csv_rows("kit/analysis/roofline_points.csv")
local peaks = rlx.json.decode(read("kit/analysis/peaks.json"))
local placed = 0
for _, rec in ipairs(records) do
  if rec.ai_mean and rec.ridge_ai and rec.left_out == 0 then
    local ai, gf, n = {}, {}, 0
    for l in rec.labels:gmatch("%S+") do
      local p = points[l]
      check(p, "roofline_points.csv lacks %s", l)
      check(p.source == rec.source, "%s: source %s in the CSV, %s in the row", l, p.source, rec.source)
      check(near(p.ridge_ai, rec.ridge_ai), "%s: ridge %s in the CSV, %s in the row", l, p.ridge_ai, rec.ridge_ai)
      local e = peaks[p.env]
      check(e and near(e.ridge_ai[p.precision], rec.ridge_ai), "%s: peaks.json ridge %s, row %s", l,
        tostring(e and e.ridge_ai[p.precision]), rec.ridge_ai)
      local own = rlx.roofline.place{ai = p.ai, flops_per_s = p.attained_gflops * 1e9,
        peak_flops = p.peak_gflops * 1e9, peak_bw = p.peak_gbps * 1e9}
      check(p.bound == own.bound and near(p.attainable_gflops, own.attainable_gflops), "%s: CSV bound %s, placed %s",
        l, p.bound, own.bound)
      ai[#ai + 1], gf[#gf + 1], n = p.ai, p.attained_gflops, n + 1
    end
    check(n == rec.n and near(rlx.stats.mean(ai), rec.ai_mean) and near(rlx.stats.mean(gf), rec.gflops_mean),
      "%s %s %s %s: CSV mean AI %s GFLOP/s %s over %d, row %s %s over %d", rec.env, rec.model, rec.precision,
      rec.batch, rlx.stats.mean(ai), rlx.stats.mean(gf), n, rec.ai_mean, rec.gflops_mean, rec.n)
    local row_place = rlx.roofline.place{ai = rec.ai_mean, flops_per_s = rec.gflops_mean * 1e9,
      peak_flops = rec.ridge_ai, peak_bw = 1}
    check(row_place.bound == rec.bound, "%s %s: bound %s, placed %s", rec.model, rec.batch, rec.bound, row_place.bound)
    placed = placed + 1
  end
end
print("seed layout = Table 2", placed)

-- 5. The figures: each point of Figure A (images/s, its SD and n) and each line point of Figure D (the
-- AI as rlx.plot.ai_vs_batch drew it, after its own mean per line and batch) is its row's value in
-- study:table2(), rows with runs left out included (issue 32: Figure D averaged every run's point,
-- the left-out ones and both sources with them, while Table 2 kept the used runs' measured ones).
-- A figure names a row by its key (D.groups'); study:table2()'s records come in D.groups' order.
local rec_of = {}
for i, g in ipairs(require("rlx.studydb.data").load(s.db, study_name, dir .. "/db").groups) do
  rec_of[g.key] = records[i]
end
local function record_for(key) return rec_of[key] or error("no study:table2() row for figure row " .. key, 0) end
local figs = s:figures{dir = dir .. "/fig", quiet = true}
local a_points, d_points, d_left_out = 0, 0, 0
for _, f in ipairs(figs.files) do
  if f.figure == "A" then
    for _, series in ipairs(f.plot.series) do
      for i, key in ipairs(series.rows) do
        local rec = record_for(key)
        check(series.y[i] == rec.images_per_s_mean and series.sd[i] == (rec.images_per_s_sd or 0) and
          series.n[i] == rec.n, "Figure A %s: %s ± %s (n %s), row %s ± %s (n %s)", key, series.y[i], series.sd[i],
          series.n[i], rec.images_per_s_mean, tostring(rec.images_per_s_sd), rec.n)
        a_points = a_points + 1
      end
    end
  elseif f.figure == "D" then
    local line_of = {}
    for _, l in ipairs(f.series) do line_of[l.label] = l end
    for _, p in ipairs(f.plot.points) do
      local rec = record_for(p.row)
      local by = {}
      for _, field in ipairs(f.plot.by) do by[#by + 1] = tostring(p[field]) end
      local line = line_of[table.concat(by, " ")]
      local drawn
      for i, x in ipairs(line and line.x or {}) do if x == p.batch then drawn = line.y[i] end end
      check(drawn and near(drawn, rec.ai_mean), "Figure D %s: AI drawn %s, row %s", p.row, tostring(drawn),
        tostring(rec.ai_mean))
      d_points = d_points + 1
      if rec.left_out > 0 then d_left_out = d_left_out + 1 end
    end
  end
end
print("figure A = Table 2", a_points, "figure D = Table 2", d_points, "of them with runs left out", d_left_out)
s:close()
