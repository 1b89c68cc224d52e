# rlx.fs (scripts/rlx/fs.lua, host/bindings/bind_fs.cpp): write_atomic's normal case, wrong type,
# missing argument, unknown option, and the engine's errors (same file as an input, full device,
# missing directory). Names start "fs: ".
#
# Each case in a folder of its own (tests/e2e/fs/scratch.lua): under ctest -j they ran at once in
# one folder that each began by deleting.

fs: write_atomic writes and replaces, leaving no temporary file
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-writes-and-replaces') rlx.fs.write_atomic(d .. '/a.txt', 'old') local p = rlx.fs.write_atomic(d .. '/a.txt', 'new\n') local f = io.open(p) io.write(f:read('*a')) f:close() io.stdout:flush() os.execute('ls -A ' .. d)"
  new
  a.txt

fs: write_atomic writes a new file next to a different input
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-writes-a-new-file-n') rlx.fs.write_atomic(d .. '/in.db', 'db') rlx.fs.write_atomic(d .. '/out.csv', 'x', {not_same_as = {d .. '/in.db'}}) print(io.open(d .. '/out.csv'):read('*a'))"
  x

fs: write_atomic refuses an output that is the input through a symlink
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-refuses-an-output-t') rlx.fs.write_atomic(d .. '/in.db', 'db') os.execute('ln -s in.db ' .. d .. '/link.db') rlx.fs.write_atomic(d .. '/link.db', 'x', {not_same_as = d .. '/in.db'})"
  stderr: \(command line\):1: rlx\.fs\.write_atomic: the output '[^']*/fs/link\.db' is the same file as the input '[^']*/fs/in\.db': writing it would destroy the input; choose another output file (re)
  [1]

fs: write_atomic on a full device names the cause
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-on-a-full-device-na') rlx.fs.write_atomic('/dev/full', 'x')"
  stderr: (command line):1: rlx.fs.write_atomic: cannot write '/dev/full': No space left on device
  [1]

fs: write_atomic into a missing directory
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-into-a-missing-dire') rlx.fs.write_atomic(d .. '/nodir/x.csv', 'x')"
  stderr: \(command line\):1: rlx\.fs\.write_atomic: cannot write '[^']*/fs/nodir/x\.csv': the directory '[^']*/fs/nodir' does not exist (re)
  [1]

fs: write_atomic wrong type
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-wrong-type') rlx.fs.write_atomic(d .. '/x', 42)"
  stderr: (command line):1: rlx.fs.write_atomic: argument 2 must be a string, got number
  [1]

fs: write_atomic missing path
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-missing-path') rlx.fs.write_atomic()"
  stderr: (command line):1: rlx.fs.write_atomic: argument 1 must be a string, got no value
  [1]

fs: write_atomic unknown option
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-unknown-option') rlx.fs.write_atomic(d .. '/x', '', {not_same = 'a'})"
  stderr: (command line):1: rlx.fs.write_atomic: unknown option 'not_same' (valid options: not_same_as)
  [1]

fs: write_atomic option of the wrong type
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('write-atomic-option-of-the-wrong') rlx.fs.write_atomic(d .. '/x', '', {not_same_as = 3})"
  stderr: (command line):1: rlx.fs.write_atomic: option 'not_same_as' must be a string or an array of strings, got 3
  [1]

fs: same_file sees through symlinks and hard links
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('same-file-sees-through-symlinks') rlx.fs.write_atomic(d .. '/a', 'a') rlx.fs.write_atomic(d .. '/b', 'a') os.execute('ln -s a ' .. d .. '/s && ln ' .. d .. '/a ' .. d .. '/h') print(rlx.fs.same_file(d .. '/a', d .. '/s'), rlx.fs.same_file(d .. '/h', d .. '/s'), rlx.fs.same_file(d .. '/a', d .. '/b'), rlx.fs.same_file(d .. '/a', d .. '/none'))"
  true\ttrue\tfalse\tfalse (esc)

# rlx.fs.list (issue 34, rlx import-kit's ncu CSVs): regular files only, sorted, by suffix; a missing
# folder is an error unless missing_ok; a file is not a folder.
fs: list names the regular files of a folder, sorted
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('list-names-the-regular-files-of') for _, n in ipairs({'b.csv', 'a.csv', 'c.txt'}) do rlx.fs.write_atomic(d .. '/' .. n, '') end os.execute('mkdir ' .. d .. '/sub.csv') print(table.concat(rlx.fs.list(d), ','), table.concat(rlx.fs.list(d, {suffix = '.csv'}), ','), #rlx.fs.list(d .. '/none', {missing_ok = true}))"
  a.csv,b.csv,c.txt\ta.csv,b.csv\t0 (esc)

fs: list of a missing folder
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('list-of-a-missing-folder') rlx.fs.list(d .. '/none')"
  stderr starts with: \(command line\):1: rlx\.fs\.list: no folder '.*/none' \(check the path\)\n (re)
  [1]

fs: list of a file
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('list-of-a-file') rlx.fs.write_atomic(d .. '/f', '') rlx.fs.list(d .. '/f')"
  stderr starts with: \(command line\):1: rlx\.fs\.list: '.*/f' is not a folder\n (re)
  [1]

# rlx.fs.read / check_file and list's not_only_regular (issue 48 item 1): the one rule for a user's
# files. A FIFO is refused at once (it would block), a missing file is nil with missing_ok, the cap
# counts the bytes read; list sees the FIFO only when asked, so a reader can refuse it by name.
# The title stops where CMake cut the old name, at its ';'; it went on: missing_ok; list with not_only_regular
fs: read and check_file of a regular file
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('read-and-check-file-of-a-regular') rlx.fs.write_atomic(d .. '/a.csv', 'x,y') os.execute('mkfifo ' .. d .. '/f.csv') print(rlx.fs.read(d .. '/a.csv'), rlx.fs.check_file(d .. '/a.csv'), rlx.fs.read(d .. '/none', {missing_ok = true}), table.concat(rlx.fs.list(d), ','), table.concat(rlx.fs.list(d, {not_only_regular = true}), ','))"
  x,y\t3\tnil\ta.csv\ta.csv,f.csv (esc)

fs: read of a FIFO is refused at once
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('read-of-a-fifo-is-refused-at-onc') os.execute('mkfifo ' .. d .. '/f.csv') rlx.fs.read(d .. '/f.csv', {what = 'the CSV'})"
  stderr starts with: \(command line\):1: rlx\.fs\.read: the CSV '.*/f\.csv' is a FIFO, not a regular file: rlx reads only regular files \(this one would block or never end\); put the file itself there\n (re)
  [1]

fs: read past max_bytes is refused
  $ rlx -e "local d = dofile('tests/e2e/fs/scratch.lua')('read-past-max-bytes-is-refused') rlx.fs.write_atomic(d .. '/big', '12345') rlx.fs.read(d .. '/big', {max_bytes = 4})"
  stderr starts with: \(command line\):1: rlx\.fs\.read: '.*/big' is larger than the 4 bytes rlx reads of such a file: is it the right file\?\n (re)
  [1]
