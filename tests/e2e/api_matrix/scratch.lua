-- scratch.lua: the scratch folder of the api transcript's one-line cases (tests/e2e/api_matrix.t),
-- and fresh(path), which removes a database an earlier run left there (with its -wal and -shm) and
-- returns path:  local t, fresh = dofile('tests/e2e/api_matrix/scratch.lua')
local t = os.getenv('RLX_TEST_TMP')
local function fresh(p)
  for _, x in ipairs({'', '-wal', '-shm'}) do os.remove(p .. x) end
  return p
end
return t, fresh
