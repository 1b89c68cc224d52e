-- tiny.lua: the hand-worked model of tests/unit/models/test_tiny.cpp, written as a Lua table
-- (also usable as `rlx models tests/e2e/models/tiny.lua --input 8 --classes 10`).
return {name = "tiny", layers = {
  {"conv", out = 4, k = 3, pad = 1, bias = false}, {"bn"}, {"relu"},
  {"maxpool", k = 2},
  {"residual", body = {{"conv", out = 4, k = 3, pad = 1, bias = false}, {"bn"}}, after = "relu"},
  {"flatten"}, {"dropout"}, {"linear"},
}}
