# rlx.fs (scripts/rlx/fs.lua, host/bindings/bind_fs.cpp): write_atomic's normal case, wrong type,
# missing argument, unknown option, and the engine's errors (same file as an input, full device,
# missing directory). Names start "fs: ".
set(FS_NL "[[:space:]]")
# Each test in a directory of its own, .../fs/<hash of its name>/fs: under ctest -j they ran at
# once in one directory that each began by deleting.
function(fs_tmp name out)
  string(MD5 h "${name}")
  string(SUBSTRING "${h}" 0 8 h)
  set(${out} "local d = os.getenv('RLX_TEST_TMP') .. '/fs/${h}/fs' os.execute('rm -rf ' .. d .. ' && mkdir -p ' .. d) "
    PARENT_SCOPE)
endfunction()
function(rlx_fs_ok name code re)
  fs_tmp("${name}" FS_TMP)
  rlx_e2e(NAME "fs: ${name}" ARGS -e "${FS_TMP}${code}" STDOUT "^${re}${FS_NL}$")
endfunction()
function(rlx_fs_err name code re)
  fs_tmp("${name}" FS_TMP)
  rlx_e2e(NAME "fs: ${name}" EXIT 1 ARGS -e "${FS_TMP}${code}"
    STDERR "^\\(command line\\):1: rlx\\.fs\\.write_atomic: ${re}${FS_NL}$")
endfunction()

rlx_fs_ok("write_atomic writes and replaces, leaving no temporary file"
  "rlx.fs.write_atomic(d .. '/a.txt', 'old') local p = rlx.fs.write_atomic(d .. '/a.txt', 'new\\n') local f = io.open(p) io.write(f:read('*a')) f:close() io.stdout:flush() os.execute('ls -A ' .. d)"
  "new${FS_NL}a\\.txt")
rlx_fs_ok("write_atomic writes a new file next to a different input"
  "rlx.fs.write_atomic(d .. '/in.db', 'db') rlx.fs.write_atomic(d .. '/out.csv', 'x', {not_same_as = {d .. '/in.db'}}) print(io.open(d .. '/out.csv'):read('*a'))"
  "x")
rlx_fs_err("write_atomic refuses an output that is the input through a symlink"
  "rlx.fs.write_atomic(d .. '/in.db', 'db') os.execute('ln -s in.db ' .. d .. '/link.db') rlx.fs.write_atomic(d .. '/link.db', 'x', {not_same_as = d .. '/in.db'})"
  "the output '[^']*/fs/link\\.db' is the same file as the input '[^']*/fs/in\\.db': writing it would destroy the input; choose another output file")
rlx_fs_err("write_atomic on a full device names the cause" "rlx.fs.write_atomic('/dev/full', 'x')"
  "cannot write '/dev/full': No space left on device")
rlx_fs_err("write_atomic into a missing directory" "rlx.fs.write_atomic(d .. '/nodir/x.csv', 'x')"
  "cannot write '[^']*/fs/nodir/x\\.csv': the directory '[^']*/fs/nodir' does not exist")
rlx_fs_err("write_atomic wrong type" "rlx.fs.write_atomic(d .. '/x', 42)" "argument 2 must be a string, got number")
rlx_fs_err("write_atomic missing path" "rlx.fs.write_atomic()" "argument 1 must be a string, got no value")
rlx_fs_err("write_atomic unknown option" "rlx.fs.write_atomic(d .. '/x', '', {not_same = 'a'})"
  "unknown option 'not_same' \\(valid options: not_same_as\\)")
rlx_fs_err("write_atomic option of the wrong type" "rlx.fs.write_atomic(d .. '/x', '', {not_same_as = 3})"
  "option 'not_same_as' must be a string or an array of strings, got 3")
rlx_fs_ok("same_file sees through symlinks and hard links"
  "rlx.fs.write_atomic(d .. '/a', 'a') rlx.fs.write_atomic(d .. '/b', 'a') os.execute('ln -s a ' .. d .. '/s && ln ' .. d .. '/a ' .. d .. '/h') print(rlx.fs.same_file(d .. '/a', d .. '/s'), rlx.fs.same_file(d .. '/h', d .. '/s'), rlx.fs.same_file(d .. '/a', d .. '/b'), rlx.fs.same_file(d .. '/a', d .. '/none'))"
  "true\ttrue\tfalse\tfalse")
# rlx.fs.list (issue 34, rlx import-kit's ncu CSVs): regular files only, sorted, by suffix; a missing
# folder is an error unless missing_ok; a file is not a folder.
rlx_fs_ok("list names the regular files of a folder, sorted"
  "for _, n in ipairs({'b.csv', 'a.csv', 'c.txt'}) do rlx.fs.write_atomic(d .. '/' .. n, '') end os.execute('mkdir ' .. d .. '/sub.csv') print(table.concat(rlx.fs.list(d), ','), table.concat(rlx.fs.list(d, {suffix = '.csv'}), ','), #rlx.fs.list(d .. '/none', {missing_ok = true}))"
  "a\\.csv,b\\.csv,c\\.txt\ta\\.csv,b\\.csv\t0")
fs_tmp("list errors" FS_TMP)
rlx_e2e(NAME "fs: list of a missing folder" EXIT 1 ARGS -e "${FS_TMP}rlx.fs.list(d .. '/none')"
  STDERR "^\\(command line\\):1: rlx\\.fs\\.list: no folder '.*/none' \\(check the path\\)\n")
rlx_e2e(NAME "fs: list of a file" EXIT 1 ARGS -e "${FS_TMP}rlx.fs.write_atomic(d .. '/f', '') rlx.fs.list(d .. '/f')"
  STDERR "^\\(command line\\):1: rlx\\.fs\\.list: '.*/f' is not a folder\n")
# rlx.fs.read / check_file and list's not_only_regular (issue 48 item 1): the one rule for a user's
# files. A FIFO is refused at once (it would block), a missing file is nil with missing_ok, the cap
# counts the bytes read; list sees the FIFO only when asked, so a reader can refuse it by name.
rlx_fs_ok("read and check_file of a regular file; missing_ok; list with not_only_regular"
  "rlx.fs.write_atomic(d .. '/a.csv', 'x,y') os.execute('mkfifo ' .. d .. '/f.csv') print(rlx.fs.read(d .. '/a.csv'), rlx.fs.check_file(d .. '/a.csv'), rlx.fs.read(d .. '/none', {missing_ok = true}), table.concat(rlx.fs.list(d), ','), table.concat(rlx.fs.list(d, {not_only_regular = true}), ','))"
  "x,y\t3\tnil\ta\\.csv\ta\\.csv,f\\.csv")
fs_tmp("read of a FIFO" FS_TMP)
rlx_e2e(NAME "fs: read of a FIFO is refused at once" EXIT 1
  ARGS -e "${FS_TMP}os.execute('mkfifo ' .. d .. '/f.csv') rlx.fs.read(d .. '/f.csv', {what = 'the CSV'})"
  STDERR "^\\(command line\\):1: rlx\\.fs\\.read: the CSV '.*/f\\.csv' is a FIFO, not a regular file: rlx reads only regular files \\(this one would block or never end\\)\\x3b put the file itself there\n")
fs_tmp("read past max_bytes" FS_TMP)
rlx_e2e(NAME "fs: read past max_bytes is refused" EXIT 1
  ARGS -e "${FS_TMP}rlx.fs.write_atomic(d .. '/big', '12345') rlx.fs.read(d .. '/big', {max_bytes = 4})"
  STDERR "^\\(command line\\):1: rlx\\.fs\\.read: '.*/big' is larger than the 4 bytes rlx reads of such a file: is it the right file\\?\n")
