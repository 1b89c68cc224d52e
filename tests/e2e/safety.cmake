# End-to-end tests of the host's and merge's handling of bad input and failures: rlx.json.encode's
# indent limit, `rlx repl --db` read-only, statement errors and rlx.fail in the repl, a merge on a
# full disk, a bad RLX_SCRIPTS_DIR. Names start "safety: ".
set(SF ${CMAKE_SOURCE_DIR}/tests/e2e/safety)
set(SF_FIXTURES ${CMAKE_SOURCE_DIR}/tests/fixtures/studies)
set(SF_ENV "RLX_TEST_TMP=${RLX_TEST_TMP};RLX_SOURCE_DIR=${CMAKE_SOURCE_DIR};HOME=${RLX_TEST_TMP}")
function(rlx_safety_script name script)
  add_test(NAME "e2e: safety: ${name}" COMMAND bash ${SF}/${script} $<TARGET_FILE:rlx> ${ARGN}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("e2e: safety: ${name}" PROPERTIES ENVIRONMENT "${SF_ENV}" SKIP_RETURN_CODE 77)
endfunction()

# rlx.json.encode: an indent up to 64 is exact (nlohmann's dump wrote heap bytes past 1024); more is
# refused in one line, by rlx.json and by the native under it.
rlx_e2e(NAME "safety: rlx.json.encode at the largest indents is exact" ARGS run ${SF}/json_indent.lua
  STDOUT "^1\t64\t74\ttrue\n20\t64\t25781\ttrue\n3\t0\t28\ttrue\n2\t7\t47\ttrue\ntrue\n$")
rlx_e2e(NAME "safety: rlx.json.encode refuses an indent over 64" ARGS -e "rlx.json.encode({a = 1}, 3000)" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.json\\.encode: the indent \\(argument 2\\) must be at most 64 spaces per level, got 3000: give 0 to 64 \\(2 is usual\\), or nil for one line\n$")
rlx_e2e(NAME "safety: rlx.db.encode refuses an indent of 65" ARGS -e "rlx.db.encode({a = 1}, 65)" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.json\\.encode: the indent \\(argument 2\\) must be at most 64 spaces per level, got 65: give 0 to 64 \\(2 is usual\\), or nil for one line\n$")
rlx_e2e(NAME "safety: the JSON native refuses an indent of 1e9" ARGS -e "rlx._core.host.json_encode({a = 1}, 1e9)" EXIT 1
  STDERR "^\\(command line\\):1: rlx\\.json\\.encode: the indent \\(argument 2\\) must be an integer from 0 to 64 \\(spaces per level\\) or nil \\(one line\\), got 1000000000\n$")

# rlx repl --db: read-only unless --write; a file this user cannot write is usable.
rlx_safety_script("repl --db does not change the database" repl_readonly.sh ${SF_FIXTURES}/epyc-2c-study.db)
rlx_safety_script("repl --db on a read-only file" repl_readonly_file.sh ${SF_FIXTURES}/epyc-2c-study.db)

# The repl keeps a statement's error position and traceback (an old rlx ran `error("boom")` as
# `return error("boom")`, a tail call, and printed just "boom").
rlx_e2e(NAME "safety: repl statement error has its position and traceback" ARGS repl STDIN ${SF}/repl_error.txt EXIT 1
  STDERR "^stdin:1: boom\nstack traceback:\n\t\\[C\\]: in function 'error'\n\tstdin:1: in main chunk\n$")
# With input from a pipe rlx.fail ends the repl with its status, as it ends a script; exit_ok with 0.
rlx_e2e(NAME "safety: piped repl ends at rlx.fail with its status" ARGS repl STDIN ${SF}/repl_fail.txt EXIT 4
  STDOUT "^$" STDERR "^four\n$")
rlx_e2e(NAME "safety: piped repl ends at rlx.errors.exit_ok with 0" ARGS repl STDIN ${SF}/repl_exit_ok.txt
  STDOUT "^1\n$" STDERR "^$")
rlx_e2e(NAME "safety: piped repl: an error, then rlx.fail's status" ARGS repl STDIN ${SF}/repl_statement_errors.txt
  EXIT 3 STDERR "^stdin:1: in f\nstack traceback:\n\t\\[C\\]: in function 'error'\n\tstdin:1: in function 'f'\n\tstdin:1: in main chunk\nthree\n$")
rlx_safety_script("repl at a terminal goes on after rlx.fail" repl_tty_fail.sh)

# rlx merge on a full disk: no partial new OUT.db, an existing one all or nothing, the fix named.
rlx_safety_script("merge on a full disk leaves no partial OUT.db" merge_full_disk.sh ${SF_FIXTURES})
rlx_safety_script("merge on a full tmpfs" merge_tmpfs.sh ${SF_FIXTURES}/epyc-2c-study.db)

# A bad RLX_SCRIPTS_DIR: one line naming it, what is missing and the fix.
rlx_safety_script("a bad RLX_SCRIPTS_DIR is one line" scripts_dir.sh)
