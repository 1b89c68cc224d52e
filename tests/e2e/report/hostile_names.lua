-- A study whose name, database path and dataset path are hostile to a shell (issue 25 finding 4):
-- the name runs `touch PWNED` when unquoted, the paths hold spaces, a quote and backticks. Usage:
-- rlx run hostile_names.lua --set dir=D; prints the database's path.
local dir = assert(rlx.params.dir, "--set dir=")
local name = "a`touch PWNED`b"
local db = dir .. "/st dir/it's `x`.db"
os.execute("mkdir -p '" .. dir .. "/st dir' '" .. dir .. "/my data/train/c'")
local s = rlx.study{name = name, db = db, label = "env-1"}
local function trainer(o)
  return {ok = true, images_per_s = 10 * o.batch, iter_s = {mean = 0.1, sd = 0}, seconds = 0.5, device = "cpu",
    precision = o.precision, batch = o.batch}
end
s:sweep{models = {"resnet18"}, batch = {2, 4}, repeats = 2, iters = 5, warmup = 0, input = 32, classes = 10,
  data = dir .. "/my data", trainer = trainer, quiet = true, memory_check = false}
s:close()
print(db)
