-- collect.lua: `rlx shard collect` without a cluster, on shard databases made with a stub trainer,
-- for what one node cannot show: two nodes of one environment label (same label, different
-- machine ids). Submission 1 (node A) stored slot run1 ok and slot run2 failed, and an earlier
-- collect already merged both; submission 2 (node B) stored run2 ok. Collecting keeps exactly one
-- run per slot, both ok, the failed attempt dropped from the study database but kept in its shard.
local S = require("rlx.slurm._array")
local dir = (os.getenv("RLX_TEST_TMP") or "/tmp") .. "/slurm-collect"
assert(os.execute("rm -rf '" .. dir .. "' && mkdir -p '" .. dir .. "'") == 0)
local main = dir .. "/results/c.db"
local root = S.shards_root(main)
assert(root == dir .. "/results/shards/c", root)
local real_capture = rlx._core.env.capture
local function as_node(host)
  rlx._core.env.capture = function(label, r)
    local env = real_capture(label, r)
    env.host, env.container = host, "none"
    return env
  end
end
local fail_run2 = true
local function trainer(o)
  if fail_run2 and o.label:match("_run2$") then return {ok = false, error = "out of memory (stub)"} end
  return {ok = true, images_per_s = 100, seconds = 0.01, iter_s = {mean = 0.01}}
end
local MATRIX = {models = "resnet18", batch = 2, repeats = 2, iters = 1, warmup = 0, input = 32}
-- Node A's shard ran the whole matrix (run2 failed); node B's shard ran run2 only (ok).
local function shard(sub, host, only_run2)
  as_node(host)
  local s = rlx.study{name = "c", db = root .. "/" .. sub .. "/task-0.db", label = "gpu"}
  local items = s:plan(MATRIX)
  for _, it in ipairs(items) do
    if not only_run2 or it.run == 2 then
      local cfg = {}
      for k, v in pairs(it.config) do cfg[k] = v end
      s:store_run(cfg, trainer({label = it.label}), {run = it.run, label = it.label})
    end
  end
  local env_id = s.env_id
  s:close()
  return env_id, items
end
local env_a, items = shard("20260101T000000Z", "node-a", false)
fail_run2 = false
local env_b = shard("20260101T010000Z", "node-b", true)
rlx._core.env.capture = real_capture
assert(env_a ~= env_b, "two nodes, two environment ids")

-- An earlier collect (of submission 1 alone) left the failed attempt in the study database.
local db = rlx.db.open(main)
db:merge_from(root .. "/20260101T000000Z/task-0.db")
assert(db:first("SELECT count(*) AS n FROM runs WHERE status = 'failed'").n == 1)
db:close()

local slot = S.slot_key("c", "gpu", items[2].key, 2)
local m = {version = S.MANIFEST_VERSION, study = "c", db = main, dir = root .. "/20260101T010000Z",
  figures = dir .. "/figures", report = dir .. "/report", studies = {{name = "c", label = "gpu"}},
  command = "rlx submit c.lua", tasks = {{labels = {items[2].label}, slots = {{slot = slot, label = items[2].label}}}}}
S.write_manifest(m)
local rc = require("rlx.slurm._shard").collect(m.dir .. "/manifest.json")
assert(rc == 0, "collect returned " .. tostring(rc))

db = rlx.db.open(main, {readonly = true})
local rows = db:query([[SELECT r.label, r.status, r.environment_id FROM runs r ORDER BY r.label]])
assert(#rows == 2, "one run per slot, got " .. #rows)
assert(rows[1].label == "gpu_resnet18_fp32_bs2_run1" and rows[1].status == "ok" and rows[1].environment_id == env_a)
assert(rows[2].label == "gpu_resnet18_fp32_bs2_run2" and rows[2].status == "ok" and rows[2].environment_id == env_b)
assert(db:first("PRAGMA integrity_check").integrity_check == "ok")
db:close()
local old = rlx.db.open(root .. "/20260101T000000Z/task-0.db", {readonly = true})
assert(old:first("SELECT count(*) AS n FROM runs WHERE status = 'failed'").n == 1, "the shard keeps its attempt")
old:close()
-- Collecting again changes nothing.
assert(require("rlx.slurm._shard").collect(m.dir .. "/manifest.json") == 0)
db = rlx.db.open(main, {readonly = true})
assert(db:first("SELECT count(*) AS n, sum(status = 'ok') AS ok FROM runs").n == 2)
db:close()
local st = require("rlx.slurm._status").status(main)
assert(st.totals.slots == 1 and st.totals.done == 1, rlx.inspect(st.totals))
print("collect ok")
