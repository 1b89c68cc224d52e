-- tests/slurm/study.lua: the small study the Slurm tests submit: 2 models x 2 batch sizes x 2
-- repeats on the CPU, 32x32 synthetic images, one measured iteration (8 slots, seconds each).
-- --set db=PATH and --set figures=DIR place its outputs. --set hold=LABEL makes the slot whose
-- label contains LABEL write the file --set hold_marker=PATH and then wait (up to 5 minutes) before
-- training, so a test can cancel that array task while it is midway, deterministically.
local P = rlx.params
local function trainer(opts)
  if P.hold and opts.label:find(P.hold, 1, true) then
    local f = assert(io.open(P.hold_marker, "w"))
    f:write(opts.label, "\n")
    f:close()
    os.execute("sleep 300")
  end
  return rlx.train(opts)
end
local study = rlx.study{name = "slurm-test", db = P.db}
local stats = study:sweep{models = {"resnet18", "mobilenet_v2"}, batch = {2, 4}, repeats = 2, warmup = 0, iters = 1,
  input = 32, classes = 10, device = "cpu", threads = 1, trainer = trainer}
if not (rlx.flags and rlx.flags.dry_run) then
  print(string.format("study: %d planned, %d ran (%d ok, %d failed), %d done before", stats.planned, stats.ran,
    stats.ok, stats.failed, stats.skipped))
  study:figures{dir = P.figures or "figures"}
end
study:close()
