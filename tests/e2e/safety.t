# End-to-end tests of the host's and merge's handling of bad input and failures: rlx.json.encode's
# indent limit, `rlx repl --db` read-only, statement errors and rlx.fail in the repl, a merge on a
# full disk, a bad RLX_SCRIPTS_DIR. Names start "safety: ".

# rlx.json.encode: an indent up to 64 is exact (nlohmann's dump wrote heap bytes past 1024); more is
# refused in one line, by rlx.json and by the native under it.
safety: rlx.json.encode at the largest indents is exact
  $ rlx run tests/e2e/safety/json_indent.lua
  1\t64\t74\ttrue (esc)
  20\t64\t25781\ttrue (esc)
  3\t0\t28\ttrue (esc)
  2\t7\t47\ttrue (esc)
  true

safety: rlx.json.encode refuses an indent over 64
  $ rlx -e 'rlx.json.encode({a = 1}, 3000)'
  stderr: (command line):1: rlx.json.encode: the indent (argument 2) must be at most 64 spaces per level, got 3000: give 0 to 64 (2 is usual), or nil for one line
  [1]

safety: rlx.db.encode refuses an indent of 65
  $ rlx -e 'rlx.db.encode({a = 1}, 65)'
  stderr: (command line):1: rlx.json.encode: the indent (argument 2) must be at most 64 spaces per level, got 65: give 0 to 64 (2 is usual), or nil for one line
  [1]

safety: the JSON native refuses an indent of 1e9
  $ rlx -e 'rlx._core.host.json_encode({a = 1}, 1e9)'
  stderr: (command line):1: rlx.json.encode: the indent (argument 2) must be an integer from 0 to 64 (spaces per level) or nil (one line), got 1000000000
  [1]

# rlx repl --db: read-only unless --write; a file this user cannot write is usable.
safety: repl --db does not change the database
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/repl_readonly.sh "$RLX" $RLX_SOURCE_DIR/tests/fixtures/studies/epyc-2c-study.db

safety: repl --db on a read-only file
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/repl_readonly_file.sh "$RLX" $RLX_SOURCE_DIR/tests/fixtures/studies/epyc-2c-study.db

# The repl keeps a statement's error position and traceback (an old rlx ran `error("boom")` as
# `return error("boom")`, a tail call, and printed just "boom").
safety: repl statement error has its position and traceback
  $ rlx repl < tests/e2e/safety/repl_error.txt
  stderr:
  stdin:1: boom
  stack traceback:
  \t[C]: in function 'error' (esc)
  \tstdin:1: in main chunk (esc)
  [1]

# With input from a pipe rlx.fail ends the repl with its status, as it ends a script; exit_ok with 0.
safety: piped repl ends at rlx.fail with its status
  $ rlx repl < tests/e2e/safety/repl_fail.txt
  stdout:
  stderr: four
  [4]

safety: piped repl ends at rlx.errors.exit_ok with 0
  $ rlx repl < tests/e2e/safety/repl_exit_ok.txt
  1
  stderr:

safety: piped repl: an error, then rlx.fail's status
  $ rlx repl < tests/e2e/safety/repl_statement_errors.txt
  stderr:
  stdin:1: in f
  stack traceback:
  \t[C]: in function 'error' (esc)
  \tstdin:1: in function 'f' (esc)
  \tstdin:1: in main chunk (esc)
  three
  [3]

safety: repl at a terminal goes on after rlx.fail
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/repl_tty_fail.sh "$RLX"

# rlx merge on a full disk: no partial new OUT.db, an existing one all or nothing, the fix named.
safety: merge on a full disk leaves no partial OUT.db
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/merge_full_disk.sh "$RLX" $RLX_SOURCE_DIR/tests/fixtures/studies

safety: merge on a full tmpfs
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/merge_tmpfs.sh "$RLX" $RLX_SOURCE_DIR/tests/fixtures/studies/epyc-2c-study.db

# A bad RLX_SCRIPTS_DIR: one line naming it, what is missing and the fix.
safety: a bad RLX_SCRIPTS_DIR is one line
  ctest: SKIP_RETURN_CODE 77
  $ bash tests/e2e/safety/scripts_dir.sh "$RLX"
