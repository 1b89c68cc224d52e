-- data_probe_model.lua: a model that costs next to nothing per image (average pool, linear), so
-- that rlx.train on a dataset measures the data pipeline (bench/data_pipeline.sh).
return {name = "data_probe", layers = {{"adaptive_avgpool", out = 1}, {"flatten"}, {"linear"}}}
