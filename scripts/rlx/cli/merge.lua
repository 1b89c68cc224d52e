-- rlx merge: combines study databases from several machines into one (idempotent).
local args = require("rlx.cli._args")
local show = require("rlx.show")
local M = {summary = "merge study databases (environments deduplicated, runs never duplicated)",
  synopsis = "merge OUT.db IN.db..."}

local cmd = {name = "merge", usage = "rlx merge OUT.db IN.db...",
  description = "Copies every environment, study, run (with samples, counters, complexity and roofline\n" ..
    "points) and peak of each IN.db into OUT.db, creating it when missing. Environments are matched by\n" ..
    "content hash, runs by their unique id, so merging the same file twice adds nothing.\n" ..
    "A run whose slot (study, environment, configuration, repeat) OUT.db already holds with another\n" ..
    "run is reported on stderr, one line each: skipped (the default), or, when it is ok and the\n" ..
    "slot's run failed, crashed or is still marked running, it replaces that attempt. With\n" ..
    "--as-repeats an ok run whose slot holds another ok run is kept as the configuration's next\n" ..
    "repeat (label _runN renumbered), so both measurements count.",
  options = {{"quiet", "--quiet", type = "boolean", help = "print nothing on success but skipped runs"},
    {"as_repeats", "--as-repeats", type = "boolean",
      help = "keep an ok run whose slot holds another ok run as a further repeat"}},
  positionals = {{"files", rest = true, path = "database"}}}


--- One line for an input run whose slot OUT already held (conn:merge_from's conflicts): skipped
--- runs on stderr always, replaced and kept ones on stdout unless quiet.
function M.report_conflict(input, out, c, quiet)
  local run = string.format("run %s (id %s, study %s, %s)", c.label, c.id, c.study, c.status)
  local held = string.format("%s (id %s, %s)", c.held_label, c.held_id, c.held_status)
  if c.action == "skipped" then
    local why = c.status == "ok" and "; keep both with --as-repeats" or
      string.format(": the input holds only a %s attempt", c.status)
    io.stderr:write(string.format("rlx merge: %s: skipped %s: its slot is held by %s in %s%s\n", input, run, held,
      out, why))
  elseif not quiet and c.action == "replaced" then
    print(string.format("%s: %s replaced the %s attempt %s", input, run, c.held_status, held))
  elseif not quiet then
    print(string.format("%s: %s kept as repeat %d, label %s (its slot was held by %s)", input, run, c.new_repeat,
      c.new_label, held))
  end
end

-- Text with every occurrence of `from` (plain text, not a pattern) replaced by `to`.
local function replace_plain(text, from, to)
  local out, at = {}, 1
  while true do
    local b, e = text:find(from, at, true)
    if not b then break end
    out[#out + 1] = text:sub(at, b - 1) .. to
    at = e + 1
  end
  out[#out + 1] = text:sub(at)
  return table.concat(out)
end

-- An SQLite write error that a person fixes outside rlx (SQLite's code says it: a full or failing
-- disk): the error's message with what to do about it.
local function with_fix(err, out)
  local message = rlx.errors.message(err)
  local code = type(err) == "table" and err.code
  if code == "SQLITE_FULL" or code == "SQLITE_IOERR" then
    return message .. string.format(" (free space on the disk that holds '%s', or give an OUT.db on another disk)",
      out)
  end
  return message
end

-- Merges o.rest into the database at `target` (o.out itself, or the temporary file a new OUT is
-- built in); `fail(message)` ends the command. Prints what each input added.
local function merge_all(o, target, fail_open)
  local ok, out = pcall(rlx.db.open, target)
  if not ok then fail_open(with_fix(rlx.errors.pass_exits(out), o.out)) end
  local function fail(message)  -- closed first: a new OUT's file is removed next
    out:close()
    fail_open(message)
  end
  local total, skipped = 0, 0
  for i, path in ipairs(o.rest) do
    local ok2, st = pcall(out.merge_from, out, path, {as_repeats = o.as_repeats})
    if not ok2 then
      local message = with_fix(rlx.errors.pass_exits(st), o.out)
      -- Say what OUT holds now: the inputs before this one are in, this one and the rest are not
      -- (a new OUT is not created at all).
      local rest = {}
      for j = i + 1, #o.rest do rest[#rest + 1] = o.rest[j] end
      if target ~= o.out then fail(message) end
      fail(message .. string.format("; %s holds %s; not merged: %s%s", o.out,
        i > 1 and ("what it held and " .. table.concat(o.rest, ", ", 1, i - 1)) or "what it held", path,
        #rest > 0 and (", " .. table.concat(rest, ", ")) or ""))
    end
    total = total + st.runs
    if #st.running_skipped > 0 then
      -- Always said (even with --quiet): those runs are not in OUT yet.
      io.stderr:write(show.printable(string.format("rlx merge: %s: %d run(s) still being trained " ..
        "there not copied (a claim is no result): %s; merge again once they are stored", path,
        #st.running_skipped, table.concat(st.running_skipped, ", "))) .. "\n")
    end
    for _, c in ipairs(st.conflicts) do
      if c.action == "skipped" then skipped = skipped + 1 end
      M.report_conflict(path, o.out, c, o.quiet)
    end
    if not o.quiet then
      -- Superseded attempts (issue 55) are kept beside the runs, never as runs: said when there are any.
      local attempts = (st.run_attempts or 0) > 0 and string.format(", +%d superseded attempts", st.run_attempts) or ""
      print(string.format("%s: +%d runs, +%d environments, +%d studies, +%d samples, +%d counters, +%d peaks, " ..
        "+%d roofline points%s", path, st.runs, st.environments, st.studies, st.samples, st.counters, st.peaks,
        st.roofline_points, attempts))
    end
  end
  local n = out:count_runs().n
  -- Two machines with one label stay two environments (issue 55): said, with how reports tell them apart.
  if not o.quiet then
    for _, row in ipairs(out:query("SELECT label, count(*) AS n, group_concat(substr(id, 1, 8), ', ') AS ids " ..
        "FROM environments GROUP BY label HAVING count(*) > 1 ORDER BY label")) do
      print(string.format("%s: %d environments share the label %s (ids %s): they stay apart, and reports name " ..
        "each with what tells it apart (docs/report.md, \"Environments are identities, not labels\")", o.out, row.n,
        row.label, row.ids))
    end
  end
  if target ~= o.out then
    -- The new file must hold everything by itself before it is renamed: its write-ahead log is
    -- copied in now (where a full disk still fails loudly), not at close (where it cannot).
    local ok3, ck = pcall(out.first, out, "PRAGMA wal_checkpoint(TRUNCATE)")
    if not ok3 then fail(with_fix(rlx.errors.pass_exits(ck), o.out)) end
    if not (ck and ck.busy == 0) then fail("cannot complete the new database: its write-ahead log was busy") end
  end
  out:close()
  return n, total, skipped
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  o.out = table.remove(o.rest, 1)
  if #o.rest == 0 then args.usage_error("merge", "missing IN.db (rlx merge OUT.db IN.db...)") end
  -- Every input is read, and OUT checked, before OUT is created or changed (issue 25 finding 11: a
  -- missing input left an empty OUT).
  -- Each input is only read: the side files a read-only open makes beside one are removed again.
  local side = {}
  for _, path in ipairs(o.rest) do side[path] = side[path] or rlx.db._side_files(path) end
  local function tidy_inputs()
    for _, path in ipairs(o.rest) do if path ~= o.out then rlx.db._tidy_side_files(path, side[path]) end end
  end
  for _, path in ipairs(o.rest) do
    local readable, db = pcall(rlx.db.open, path, {readonly = true})
    if not readable then args.fail("merge", db) end
    db:close()
  end
  rlx.fs.check_outputs("merge", {{o.out, "database", {what = "OUT.db"}}})
  -- A new OUT is built under a temporary name beside it and renamed when every input is in: a
  -- failure (a full disk, a bad input, Ctrl-C) leaves no OUT, not an empty or partial one. An
  -- existing OUT takes each input in one transaction.
  local present, size = pcall(rlx.fs.check_file, o.out, {what = "OUT.db", missing_ok = true})
  if not present then args.fail("merge", size) end
  local existing = size ~= nil
  local target = existing and o.out or string.format("%s.merging-%s", o.out, rlx.db.new_id():sub(1, 12))
  local function fail(message)
    message = replace_plain(message, target, o.out)
    if target ~= o.out then message = message .. string.format("; %s was not created", o.out) end
    rlx.fail(1, "rlx merge: " .. message)
  end
  local ok, n, total, skipped = pcall(merge_all, o, target, fail)
  tidy_inputs()
  if ok and target ~= o.out then
    local renamed, why = os.rename(target, o.out)
    if not renamed then
      ok, n = pcall(rlx.fail, 1, string.format("rlx merge: cannot rename the merged database %s to %s (%s); %s was " ..
        "not created", target, o.out, tostring(why), o.out))
    end
  end
  if not ok then
    if target ~= o.out then
      for _, suffix in ipairs({"", "-wal", "-shm", "-journal"}) do os.remove(target .. suffix) end
    end
    error(n, 0)
  end
  if not o.quiet then
    print(string.format("%s: %d runs in all (%d new%s)", o.out, n, total,
      skipped > 0 and string.format(", %d skipped: their slots were taken", skipped) or ""))
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
