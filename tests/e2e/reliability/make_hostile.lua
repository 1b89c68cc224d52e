-- make_hostile.lua: a study whose stored strings hold escape sequences and a spreadsheet formula,
-- as a database written by another tool (or an older rlx) may (issue 35 item 4). Its sweep is not
-- quiet, so its progress lines print the labels. Usage: rlx run make_hostile.lua --set db=PATH
local db = assert(rlx.params.db, "--set db=")
local s = rlx.study{name = "hostile", db = db, label = "env"}
local function trainer(o)
  if o.model:find("HYPERLINK", 1, true) then
    return {ok = false, error = "boom\27]0;PWN\7 \27[2J"}
  end
  return {ok = true, images_per_s = 10 * o.batch, iter_s = {mean = 0.1, sd = 0}, seconds = 0.5, device = "cpu",
    precision = o.precision, batch = o.batch}
end
s:sweep{models = {"resnet18", "m\27[2J\27]0;PWN\7", '=HYPERLINK("http://x","y")'}, batch = {2}, repeats = 1,
  iters = 5, warmup = 0, input = 32, classes = 10, trainer = trainer, memory_check = false, noise_floor = false}
s:close()
