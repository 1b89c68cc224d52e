-- rlx.train: fixed-iteration training with honest timing (engine/train through rlx._core.train).
--   local r = rlx.train{model = "resnet18", batch = 32, iters = 20, warmup = 5, device = "cpu"}
--   if r.ok then print(r.images_per_s, r.iter_s.median) else print(r.error) end
-- rlx.train{...} and rlx.train.run{...} are the same call. Invalid options raise an error naming
-- the option; a run that cannot happen (no such device, missing dataset, out of memory) returns
-- ok = false with `error`. Options, results and method: docs/lua-api/train.md, docs/training.md.
local core = rlx._core.train
local M = {}

--- Trains `iters` measured iterations after `warmup` unmeasured ones; returns the result table.
function M.run(opts)
  if type(opts) ~= "table" then
    rlx.options.raise("rlx.train: expected a table of options, got " .. type(opts) ..
      " (e.g. rlx.train{model = \"resnet18\", batch = 32})")
  end
  return core.train(opts)
end

--- The devices this machine can train on (same as rlx.devices()).
function M.devices()
  return core.devices()
end

--- One line for people: "resnet18 cpu fp32 batch 32: 95.3 img/s (median 0.335 s/iter, 2 threads)".
function M.summary_line(r)
  local fname = "rlx.train.summary_line"
  if type(r) ~= "table" then
    rlx.options.raise(fname .. ": expected the result table rlx.train returns, got " .. type(r))
  end
  local function need(field, v, want, what)
    if type(v) ~= want then
      rlx.options.raise(string.format("%s: result field '%s' must be %s, got %s (pass the table rlx.train returns)",
        fname, field, what, type(v)))
    end
  end
  need("ok", r.ok, "boolean", "true or false")
  if r.ok then
    for _, f in ipairs({"model", "device", "precision"}) do need(f, r[f], "string", "a string") end
    need("batch", r.batch, "number", "a number")
    need("images_per_s", r.images_per_s, "number", "a number")
    need("iter_s", r.iter_s, "table", "a table {median = ...}")
    need("iter_s.median", r.iter_s.median, "number", "a number")
    for _, f in ipairs({"data_wait_s", "threads", "loss_first", "loss_last"}) do need(f, r[f], "number", "a number") end
  end
  if not r.ok then
    return string.format("%s %s %s batch %d: FAILED: %s", tostring(r.model), tostring(r.device),
      tostring(r.precision), r.batch or 0, tostring(r.error))
  end
  local skipped = r.skipped_files and r.skipped_files > 0 and
    string.format(", %d file(s) skipped", r.skipped_files) or ""
  local layout = type(r.memory_format) == "string" and (r.memory_format .. ", ") or ""
  return string.format("%s %s %s batch %d: %.1f img/s (median %.4f s/iter, data wait %.3f s, %d threads, %sloss %.3f -> %.3f%s)%s",
    r.model, r.device, r.precision, r.batch, r.images_per_s, r.iter_s.median, r.data_wait_s,
    r.threads, layout, r.loss_first, r.loss_last, skipped, r.label and (" [" .. r.label .. "]") or "")
end

return setmetatable(M, {__call = function(_, opts) return M.run(opts) end})
