-- .luacheckrc: luacheck (Debian's lua-check) over rlx's Lua, run in ctest as "lint: luacheck" on
-- scripts/, experiments/, tests/ and bench/ (tests/CMakeLists.txt). It catches what a typo in Lua costs silently:
-- a misspelt local becomes a global, an unused variable hides a forgotten use.
std = "luajit"
-- rlx's Lua is formatted by hand; the C++ side is 110 columns (.clang-format), and wrapped Lua
-- strings and format calls read better a little wider.
max_line_length = 130
-- The one global: the host creates `rlx` (scripts/rlx/init.lua fills it). Lua code may set --set
-- values, flags and script arguments (a Slurm shard replays its submission's), nothing else of it.
read_globals = {
  rlx = {
    other_fields = true,
    fields = {
      params = {read_only = false, other_fields = true},
      flags = {read_only = false, other_fields = true},
      args = {read_only = false, other_fields = true},
    },
  },
}
-- A method may leave self unused (it is one for the interface: study:plan, conn:transaction, ...).
ignore = {"212/self"}
-- A script whose syntax error is what its test reads (e2e: host: syntax error exits 1).
exclude_files = {"tests/e2e/host/syntax_error.lua"}
-- Tests stand in for natives (rlx.peaks.measure, rlx._core.env.capture) and set the --set values and
-- the script arguments a run would have: in these files rlx and arg are theirs to write.
for _, f in ipairs({"tests/e2e/store/api.lua", "tests/e2e/trust/calibrate.lua", "tests/setup/gpu_unusable.lua",
  "tests/slurm/collect.lua", "tests/e2e/trust/pinned_plan.lua", "tests/e2e/trust/bf16_pair.lua"}) do
  files[f] = {globals = {"rlx", "arg"}}
end
