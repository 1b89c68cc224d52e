-- l2_roofline.lua (rlx run, from the repository root): a CUDA study's roofline drawn at the L2
-- level (issue 46). The H100 smoke study of 2026-11-26 (docs/gpu/h100-2026-11-26/h100-study.db,
-- copied) stored an `l2` roofline point per run from CUPTI's lts__t_bytes but no L2 roof; a
-- CUDA peaks table now carries `l2_gbps`. With an l2_gbps row added to the copy (9000 GB/s, a
-- stand-in value for this test, not a measurement), rlx.figures.draw{level = "l2"} draws the
-- roofline with the L2 roof (a roofline draws the memory roof of the level its points are placed at,
-- issue 45) and one point per configuration.
local tmp = assert(os.getenv("RLX_TEST_TMP"), "RLX_TEST_TMP")
local src = assert(io.open("docs/gpu/h100-2026-11-26/h100-study.db", "rb"))
local path = tmp .. "/l2_roofline.db"
local dst = assert(io.open(path, "wb"))
dst:write(src:read("*a"))
src:close()
dst:close()
local db = rlx.db.open(path)
local env = db:first("SELECT environment_id AS id, measured_at FROM peaks WHERE device = 'cuda' LIMIT 1")
db:exec("INSERT INTO peaks (environment_id, device, name, value, unit, source, spread, measured_at) " ..
  "VALUES (?, 'cuda', 'l2_gbps', 9000, 'GB/s', 'measured', 0.01, ?)", env.id, env.measured_at)
db:close()
local study = rlx.study{name = "gpu-smoke", db = path}
local out = rlx.figures.draw(study, {level = "l2", dir = tmp .. "/l2_figures", quiet = true})
local roofline
for _, f in ipairs(out.files or out) do
  if f.figure == "C" then roofline = f end
end
assert(roofline, "no roofline drawn at the L2 level")
local roofs = {}
for _, r in ipairs(roofline.plot.roofs) do roofs[r.label] = r.gbps end
assert(roofs.L2 == 9000 and roofs.DRAM == nil, rlx.inspect(roofline.plot.roofs))
assert(#roofline.plot.points == 18, "points: " .. #roofline.plot.points)  -- 3 models x 2 batches x 3 precisions
assert(roofline.plot.subtitle:find("L2 traffic", 1, true), roofline.plot.subtitle)
local f = assert(io.open(roofline.path, "rb"))
assert(f:read(8) == "\137PNG\r\n\26\n", "not a PNG")
f:close()
print("l2 roofline ok")
