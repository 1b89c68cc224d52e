-- scratch.lua: a new, empty folder for one case of tests/e2e/fs.t, its own (under ctest -j the cases
-- run at once): $RLX_TEST_TMP/fs/TAG/fs, so that messages name ".../fs/FILE".
--   local d = dofile('tests/e2e/fs/scratch.lua')('TAG')
return function(tag)
  local d = os.getenv('RLX_TEST_TMP') .. '/fs/' .. tag .. '/fs'
  os.execute('rm -rf ' .. d .. ' && mkdir -p ' .. d)
  return d
end
