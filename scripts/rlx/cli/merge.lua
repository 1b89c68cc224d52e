-- rlx merge: combines study databases from several machines into one (idempotent).
local args = require("rlx.cli.args")
local M = {summary = "merge study databases (environments deduplicated, runs never duplicated)",
  synopsis = "merge OUT.db IN.db..."}

local cmd = {name = "merge", usage = "rlx merge OUT.db IN.db...",
  description = "Copies every environment, study, run (with samples, counters, complexity and roofline\n" ..
    "points) and peak of each IN.db into OUT.db, creating it when missing. Environments are matched by\n" ..
    "content hash, runs by their unique id, so merging the same file twice adds nothing.",
  options = {{"quiet", "--quiet", type = "boolean", help = "print nothing on success"}},
  positionals = {{"files", rest = true}}}


function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  o.out = table.remove(o.rest, 1)
  if #o.rest == 0 then args.usage_error("merge", "missing IN.db (rlx merge OUT.db IN.db...)") end
  local ok, out = pcall(rlx.db.open, o.out)
  if not ok then args.fail("merge", out) end
  local total = 0
  for _, path in ipairs(o.rest) do
    local ok2, st = pcall(out.merge_from, out, path)
    if not ok2 then args.fail("merge", st) end
    total = total + st.runs
    if not o.quiet then
      print(string.format("%s: +%d runs, +%d environments, +%d studies, +%d samples, +%d counters, +%d peaks, " ..
        "+%d roofline points", path, st.runs, st.environments, st.studies, st.samples, st.counters, st.peaks,
        st.roofline_points))
    end
  end
  local n = out:first("SELECT count(*) AS n FROM runs").n
  if not o.quiet then print(string.format("%s: %d runs in all (%d new)", o.out, n, total)) end
  out:close()
  return 0
end

return M
