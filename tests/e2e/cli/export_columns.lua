-- export_columns.lua (rlx run ... --set db=COPY --set out=FILE): `rlx export DB --csv` writes one
-- cell per header on every row; a nil field (error on an ok run, device_max_bytes on the CPU) is an
-- empty cell in its own column, not a hole that moves the later values one column left. DB is a
-- copy of tests/fixtures/studies/epyc-2c-study.db (27 ok runs of the 2-core EPYC study).
local p = rlx.params.declare{db = {type = "string", required = true, help = "a copy of the EPYC study"},
  out = {type = "string", required = true, help = "the CSV to write"}}
local db, out = p.db, p.out
assert(require("rlx.cli.export").main(db, "--csv", out) == 0, "export failed")
local f = assert(io.open(out, "rb"))
local text = f:read("*a")
f:close()

-- RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks.
local records, rec, field, i, n = {}, {}, {}, 1, #text
while i <= n do
  local c = text:sub(i, i)
  if c == '"' and #field == 0 then
    local j = i + 1
    while true do
      local q = assert(text:find('"', j, true), "unclosed quote")
      if text:sub(q + 1, q + 1) == '"' then
        field[#field + 1] = text:sub(j, q)
        j = q + 2
      else
        field[#field + 1] = text:sub(j, q - 1)
        i = q + 1
        break
      end
    end
  elseif c == "," then
    rec[#rec + 1] = table.concat(field); field = {}; i = i + 1
  elseif c == "\n" then
    rec[#rec + 1] = table.concat(field); field = {}; records[#records + 1] = rec; rec = {}; i = i + 1
  else
    field[#field + 1] = c; i = i + 1
  end
end
assert(#rec == 0 and #field == 0, "the text does not end with a line break")

local header = records[1]
assert(#header == 56, "header: " .. #header .. " columns, expected 22 of seed 000 + 34 of rlx")
assert(#records == 28, "expected a header and 27 runs, got " .. #records .. " records")
for k = 2, #records do
  assert(#records[k] == #header, string.format("row %d has %d cells, the header %d", k - 1, #records[k], #header))
end
local col = {}
for k, name in ipairs(header) do col[name] = k end

-- The run epyc-2c_mobilenet_v2_fp32_bs16_run1: 16 images x 3 measured iterations in 2.149088238 s
-- = 22.33505314080082 images/s; ok, so its error is unknown (empty); a CPU run has no
-- device_max_bytes; loss 6.9310016632080078 first.
local row
for k = 2, #records do
  if records[k][col.label] == "epyc-2c_mobilenet_v2_fp32_bs16_run1" then row = records[k] end
end
assert(row, "run epyc-2c_mobilenet_v2_fp32_bs16_run1 not exported")
local want = {arch = "mobilenet_v2", batch_size = "16", measured_iters = "3", elapsed_sec = "2.149088238",
  images_per_sec = "22.33505314080082", images_processed = "48", status = "ok", error = "", study = "p1-roofline",
  env = "epyc-2c", run = "1", run_id = "bdb67654cf616a0ed5b024554f5f5d68", device = "cpu",
  started_at = "2026-11-26T13:50:34Z", finished_at = "2026-11-26T13:50:41Z", max_rss_bytes = "2172047360",
  device_max_bytes = "", loss_first = "6.9310016632080078", loss_last = "5.3531913757324219", threads = "2",
  params = "3504872", cpu_model = "AMD EPYC", gpu_name = "",
  cuda_graphs = "",  -- a study stored before schema version 8 has no such column: unknown
  ranks = "", global_batch = ""}  -- nor one before version 9 these
for name, v in pairs(want) do
  assert(col[name], "no column " .. name)
  assert(row[col[name]] == v, string.format("%s: '%s', expected '%s'", name, row[col[name]], v))
end
-- Every run: status in the status column, and an empty error (all 27 are ok).
for k = 2, #records do
  assert(records[k][col.status] == "ok" and records[k][col.error] == "", "row " .. (k - 1) .. " status/error shifted")
end
print("export columns ok")
