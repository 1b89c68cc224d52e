-- gpu_vs_pytorch_table.lua: the table of bench/gpu_vs_pytorch.sh from its JSON lines (rlx's and
-- the Python loop's rows, several rounds): per case, each tool and variant's median images/s over
-- the rounds, and the ratios taken within each round (both tools measured minutes apart), given as
-- the median over rounds with their range. A ratio above 1 means rlx is faster.
--   rlx run bench/gpu_vs_pytorch_table.lua --set jsonl=OUT/gpu_vs_pytorch.jsonl [--set md=OUT/table.md]
local P = rlx.params.declare{jsonl = {required = true, help = "the JSON lines of the rounds"},
  md = {help = "also write the table here (Markdown)"}}
local stats = rlx.stats

local rows, cases, rounds, seen = {}, {}, {}, {}
for line in io.lines(P.jsonl) do
  local ok, r = pcall(rlx.json.decode, line)
  if ok and type(r) == "table" and r.case then
    local key = r.case .. "|" .. r.tool .. "|" .. r.variant
    rows[key] = rows[key] or {}
    rows[key][r.round] = r
    if not seen["case " .. r.case] then seen["case " .. r.case] = true; cases[#cases + 1] = r.case end
    if not seen[r.round] then seen[r.round] = true; rounds[#rounds + 1] = r.round end
  end
end
table.sort(rounds)

local function ips(case, tool, variant, round)
  local r = (rows[case .. "|" .. tool .. "|" .. variant] or {})[round]
  return r and r.ok and r.images_per_s or nil, r
end
local function median_ips(case, tool, variant)
  local xs = {}
  for _, rd in ipairs(rounds) do xs[#xs + 1] = ips(case, tool, variant, rd) end
  return #xs > 0 and stats.median(xs) or nil, #xs
end
-- The ratio a/b per round (both measured), as "median [min-max] (n)".
local function ratio(case, a, b)
  local xs = {}
  for _, rd in ipairs(rounds) do
    local x, y = ips(case, a[1], a[2], rd), ips(case, b[1], b[2], rd)
    if x and y then xs[#xs + 1] = x / y end
  end
  if #xs == 0 then return "-" end
  table.sort(xs)
  return string.format("%.2f [%.2f-%.2f] (%d)", stats.median(xs), xs[1], xs[#xs], #xs)
end
local function cell(v) return v and string.format("%.0f", v) or "-" end

local head = "| case | rlx eager | rlx cuda_graphs | Python foreach | Python per-parameter | Python CUDA graphs " ..
  "| rlx eager / Python foreach | rlx graphs / Python foreach | rlx graphs / Python graphs |"
local lines = {string.format("images/s, median over %d round(s); ratios within each round: median [range] (rounds)",
  #rounds), "", head, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"}
local errors_seen = {}
for _, case in ipairs(cases) do
  local m = {}
  for _, tv in ipairs({{"rlx", "eager"}, {"rlx", "graphs"}, {"python", "foreach"}, {"python", "per_param"},
    {"python", "graphs"}}) do
    m[#m + 1] = cell((median_ips(case, tv[1], tv[2])))
    for _, rd in ipairs(rounds) do
      local _, r = ips(case, tv[1], tv[2], rd)
      if r and not r.ok then errors_seen[case .. ", " .. tv[1] .. " " .. tv[2]] = tostring(r.error) end
    end
  end
  lines[#lines + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", case, m[1], m[2], m[3], m[4], m[5],
    ratio(case, {"rlx", "eager"}, {"python", "foreach"}), ratio(case, {"rlx", "graphs"}, {"python", "foreach"}),
    ratio(case, {"rlx", "graphs"}, {"python", "graphs"}))
end
local keys = {}
for k in pairs(errors_seen) do keys[#keys + 1] = k end
table.sort(keys)
if #keys > 0 then lines[#lines + 1] = "" end
for _, k in ipairs(keys) do lines[#lines + 1] = "- failed: " .. k .. ": " .. errors_seen[k]:sub(1, 200) end
local text = table.concat(lines, "\n") .. "\n"
io.write(text)
if P.md then rlx.fs.write_atomic(P.md, text) end
