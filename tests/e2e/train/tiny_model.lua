-- tiny_model.lua: a four-layer CNN so end-to-end training tests take well under a second.
return {name = "tiny", layers = {{"conv", out = 4, k = 3, pad = 1}, {"bn"}, {"relu"},
  {"adaptive_avgpool", out = 1}, {"flatten"}, {"linear"}}}
