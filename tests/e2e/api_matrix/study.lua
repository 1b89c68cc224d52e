-- study.lua: the study 'api' (environment label 'api') in a new database of its own, N, for one case
-- of tests/e2e/api_matrix.t, and the scratch folder:
--   local s, t = dofile('tests/e2e/api_matrix/study.lua')(N)   -- $RLX_TEST_TMP/api_study_N.db
local t, fresh = dofile('tests/e2e/api_matrix/scratch.lua')
return function(n)
  return rlx.study{name = 'api', label = 'api', db = fresh(t .. '/api_study_' .. n .. '.db')}, t
end
