# End-to-end tests of rlx.model and `rlx models` (issue 3). Exact numbers: torchvision's counts
# (resnet50 25,557,032 parameters, 4,089,184,256 MACs at 224; resnet18 at 32x32 with 10 classes
# 11,181,642 and 37,016,576, counted with torchvision 0.14) and the hand-worked tiny model.

models: resnet50 params
  $ rlx -e "print(rlx.model.summary{model='resnet50'}.params)"
  25557032

models: list
  $ rlx -e "print(table.concat(rlx.model.list(), ' '))"
  resnet18 resnet34 resnet50 vgg16 mobilenet_v2 alexnet

models: summary of Lua and built-in models
  $ rlx run tests/e2e/models/summary.lua
  tiny\t918\t18\t9856\t19712\t2250\t27786\t105004\t20520\t11 (esc)
  1:conv:4x8x8:108:6912 2:bn:4x8x8:8:0 3:relu:4x8x8:0:0 4:maxpool:4x4x4:0:0 5.1:conv:4x4x4:144:2304 5.2:bn:4x4x4:8:0 5.add:add:4x4x4:0:0 5.relu:relu:4x4x4:0:0 6:flatten:64:0:0 7:dropout:64:0:0 8:linear:10:650:640
  amp\t18956\t20520\t1804 (esc)
  resnet50\t25557032\t4089184256\t1\tfp32 (esc)
  ratio\t2.991\ttrue (esc)
  cifar\t11181642\t37016576 (esc)

models: summary wrong type
  $ rlx -e 'rlx.model.summary{model = 3}'
  stderr starts with: (command line):1: rlx.model.summary: option 'model' must be a model name or a model table, got a number\n (esc)
  [1]

models: summary missing model
  $ rlx -e 'rlx.model.summary{batch = 2}'
  stderr starts with: (command line):1: rlx.model.summary: option 'model' is required: a built-in name (rlx.model.list()) or a model table\n (esc)
  [1]

models: summary unknown key
  $ rlx -e "rlx.model.summary{model = 'resnet18', bacth = 2}"
  stderr starts with: (command line):1: rlx.model.summary: unknown option 'bacth' (valid options: batch, classes, input, layers, model, precision)\n (esc)
  [1]

models: summary bad batch
  $ rlx -e "rlx.model.summary{model = 'resnet18', batch = 0}"
  stderr contains: rlx.model.summary: option 'batch' must be an integer >= 1, got 0
  [1]

models: summary unknown model (C++ exception)
  $ rlx -e "rlx.model.summary{model = 'resnet19'}"
  stderr starts with: (command line):1: rlx.model.summary: unknown model 'resnet19' (built-in models: resnet18, resnet34, resnet50, vgg16, mobilenet_v2, alexnet; or pass a Lua model table)\n (esc)
  [1]

models: bad Lua layer names the layer and field
  $ rlx -e "rlx.model.summary{model = {layers = {{'conv', out = 4, k = 3}, {'relu'}, {'linear'}}}}"
  stderr starts with: (command line):1: rlx.model.summary: model layer layers[3] (linear): needs flat features but gets a 4x222x222 map; add {"flatten"} before it\n (esc)
  [1]

models: input too small for alexnet
  $ rlx -e "rlx.model.summary{model = 'alexnet', input = 32}"
  stderr contains: rlx.model.summary: model layer features.12 (maxpool): kernel 3 does not fit the 1x1 input (pad 0)
  [1]

models: cli list
  $ rlx models
  stdout contains: built-in models at 224x224, 1000 classes.*resnet18 +11,689,512 +1\.814 .*vgg16 +138,357,544 +15\.470 .*alexnet +61,100,840 +0\.714\x20 (re)

models: cli vgg16 batch table and layers
  $ rlx models vgg16 --batch 16,32,64 --layers
  stdout contains:
  vgg16: input 3x224x224, 1000 classes, fp32
    parameters   138,357,544 .*batch +train GFLOP/iter.* (re)
   +16 .* (re)
   +32 .* (re)
   +64 .*layers \(batch 16, fp32\): (re)
  layer +kind +output .*features\.0 +conv +64x224x224 +1,792 +86\.704 .*classifier\.6 +linear +1000 +4,097,000 +4\.096\x20 (re)

models: cli Lua file
  $ rlx models tests/e2e/models/tiny.lua --input 8 --classes 10 --batch 2
  stdout contains:
  tiny: input 3x8x8, 10 classes, fp32
    parameters   918 (trainable 918), buffers 18\n (esc)

models: cli json
  $ rlx models resnet18 --input 32 --classes 10 --batch 4,8 --json
  stdout contains: "batches": \[.*"params": 11181642, (re)

models: cli unknown model
  $ rlx models resnet19
  stderr starts with: rlx models: unknown model 'resnet19'
  [2]

models: cli bad precision
  $ rlx models resnet18 --precision fp8
  stderr contains: rlx models: --precision must be one of amp, bf16, fp32, got 'fp8'
  [2]

models: cli bad batch
  $ rlx models resnet18 --batch 0
  stderr:
  rlx models: --batch must be integers separated by commas (each an integer >= 1), got '0'
  Try 'rlx models --help'.
  [2]

# Issue 17 item 12: estimates are int64; a batch or input that overflows one is refused, never
# printed as a negative count.
models: cli batch beyond int64 estimates
  $ rlx models resnet18 --batch 1e12
  stderr contains: rlx models: batch 1000000000000 is too large: resnet18 at input 224 exceeds the int64 limit 9223372036854775807 FLOPs or bytes; the largest batch is [0-9]+ (re)
  [2]

models: cli later batch beyond int64
  $ rlx models resnet18 --batch 16,1e12
  stderr contains: batch 1000000000000 is too large
  [2]

models: summary batch beyond int64
  $ rlx -e "rlx.model.summary{model = 'resnet18', batch = 1e15}"
  stderr contains: rlx.model.summary: batch 1000000000000000 is too large: resnet18 at input 224 exceeds the int64 limit
  [1]

models: summary input beyond int64
  $ rlx -e "rlx.model.summary{model = 'resnet18', input = 1e9}"
  stderr contains: rlx.model.summary: input 1000000000 is too large: resnet18 at batch 1 exceeds the int64 limit 9223372036854775807; use a smaller input
  [1]

models: a Lua-defined model trains and summarises
  $ rlx run tests/e2e/models/train_tiny.lua
  true\ttiny\t918 (esc)

models: max_batch worked by hand
  $ rlx run tests/e2e/models/max_batch.lua
  2\t1\t1\t0\t0 (esc)
  true\ttrue (esc)

models: max_batch missing key
  $ rlx -e 'rlx.model.max_batch{memory_gib = 16}'
  stderr starts with: (command line):1: rlx.model.max_batch: option 'model' is required
  [1]

models: max_batch unknown key
  $ rlx -e "rlx.model.max_batch{model = 'resnet18', memory_gib = 16, bacth = 2}"
  stderr contains: rlx.model.max_batch: unknown option 'bacth' (valid options: classes, input, memory_bytes, memory_gib, model, precision)
  [1]

models: max_batch wrong type
  $ rlx -e "rlx.model.max_batch{model = 'resnet18', memory_gib = 'lots'}"
  stderr contains: rlx.model.max_batch: option 'memory_gib' must be a number >= 0, got "lots"
  [1]

models: max_batch needs one budget
  $ rlx -e "rlx.model.max_batch{model = 'resnet18'}"
  stderr contains: rlx.model.max_batch: give exactly one of 'memory_gib' and 'memory_bytes'
  [1]

models: max_batch unknown model (C++ exception)
  $ rlx -e "rlx.model.max_batch{model = 'resnet99', memory_gib = 2}"
  stderr starts with: (command line):1: rlx.model.max_batch: unknown model 'resnet99'
  [1]

models: cli gib
  $ rlx models tests/e2e/models/tiny.lua --input 8 --classes 10 --batch 2 --gib 0.0001
  stdout contains: largest batch within 0.0001 GiB: 20 in fp32, 31 in amp (re)
