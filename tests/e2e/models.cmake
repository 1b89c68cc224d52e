# End-to-end tests of rlx.model and `rlx models` (issue 3). Exact numbers: torchvision's counts
# (resnet50 25,557,032 parameters, 4,089,184,256 MACs at 224; resnet18 at 32x32 with 10 classes
# 11,181,642 and 37,016,576, counted with torchvision 0.14) and the hand-worked tiny model.
set(M ${CMAKE_SOURCE_DIR}/tests/e2e/models)
rlx_e2e(NAME "models: resnet50 params" ARGS -e "print(rlx.model.summary{model='resnet50'}.params)"
  STDOUT "^25557032\n$")
rlx_e2e(NAME "models: list" ARGS -e "print(table.concat(rlx.model.list(), ' '))"
  STDOUT "^resnet18 resnet34 resnet50 vgg16 mobilenet_v2 alexnet\n$")
rlx_e2e(NAME "models: summary of Lua and built-in models" ARGS run ${M}/summary.lua
  STDOUT "^tiny\t918\t18\t9856\t19712\t2250\t27786\t105004\t20520\t11\n1:conv:4x8x8:108:6912 2:bn:4x8x8:8:0 3:relu:4x8x8:0:0 4:maxpool:4x4x4:0:0 5\\.1:conv:4x4x4:144:2304 5\\.2:bn:4x4x4:8:0 5\\.add:add:4x4x4:0:0 5\\.relu:relu:4x4x4:0:0 6:flatten:64:0:0 7:dropout:64:0:0 8:linear:10:650:640\namp\t18956\t20520\t1804\nresnet50\t25557032\t4089184256\t1\tfp32\nratio\t2\\.991\ttrue\ncifar\t11181642\t37016576\n$")
rlx_e2e(NAME "models: summary wrong type" EXIT 1 ARGS -e "rlx.model.summary{model = 3}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.summary: option 'model' must be a model name or a model table, got a number\n")
rlx_e2e(NAME "models: summary missing model" EXIT 1 ARGS -e "rlx.model.summary{batch = 2}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.summary: option 'model' is required: a built-in name \\(rlx\\.model\\.list\\(\\)\\) or a model table\n")
rlx_e2e(NAME "models: summary unknown key" EXIT 1 ARGS -e "rlx.model.summary{model = 'resnet18', bacth = 2}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.summary: unknown option 'bacth' \\(valid options: batch, classes, input, layers, model, precision\\)\n")
rlx_e2e(NAME "models: summary bad batch" EXIT 1 ARGS -e "rlx.model.summary{model = 'resnet18', batch = 0}"
  STDERR "rlx\\.model\\.summary: option 'batch' must be an integer >= 1, got 0")
rlx_e2e(NAME "models: summary unknown model (C++ exception)" EXIT 1 ARGS -e "rlx.model.summary{model = 'resnet19'}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.summary: unknown model 'resnet19' \\(built-in models: resnet18, resnet34, resnet50, vgg16, mobilenet_v2, alexnet\\x3b or pass a Lua model table\\)\n")
rlx_e2e(NAME "models: bad Lua layer names the layer and field" EXIT 1
  ARGS -e "rlx.model.summary{model = {layers = {{'conv', out = 4, k = 3}, {'relu'}, {'linear'}}}}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.summary: model layer layers\\[3\\] \\(linear\\): needs flat features but gets a 4x222x222 map\\x3b add \\{\"flatten\"\\} before it\n")
rlx_e2e(NAME "models: input too small for alexnet" EXIT 1 ARGS -e "rlx.model.summary{model = 'alexnet', input = 32}"
  STDERR "rlx\\.model\\.summary: model layer features\\.12 \\(maxpool\\): kernel 3 does not fit the 1x1 input \\(pad 0\\)")
rlx_e2e(NAME "models: cli list" ARGS models
  STDOUT "built-in models at 224x224, 1000 classes.*resnet18 +11,689,512 +1\\.814 .*vgg16 +138,357,544 +15\\.470 .*alexnet +61,100,840 +0\\.714 ")
rlx_e2e(NAME "models: cli vgg16 batch table and layers" ARGS models vgg16 --batch 16,32,64 --layers
  STDOUT "vgg16: input 3x224x224, 1000 classes, fp32\n  parameters   138,357,544 .*batch +train GFLOP/iter.*\n +16 .*\n +32 .*\n +64 .*layers \\(batch 16, fp32\\):\nlayer +kind +output .*features\\.0 +conv +64x224x224 +1,792 +86\\.704 .*classifier\\.6 +linear +1000 +4,097,000 +4\\.096 ")
rlx_e2e(NAME "models: cli Lua file" ARGS models ${M}/tiny.lua --input 8 --classes 10 --batch 2
  STDOUT "tiny: input 3x8x8, 10 classes, fp32\n  parameters   918 \\(trainable 918\\), buffers 18\n")
rlx_e2e(NAME "models: cli json" ARGS models resnet18 --input 32 --classes 10 --batch 4,8 --json
  STDOUT "\"batches\": \\[.*\"params\": 11181642,")
rlx_e2e(NAME "models: cli unknown model" EXIT 2 ARGS models resnet19
  STDERR "^rlx models: unknown model 'resnet19'")
rlx_e2e(NAME "models: cli bad precision" EXIT 2 ARGS models resnet18 --precision fp8
  STDERR "rlx models: --precision must be one of amp, bf16, fp32, got 'fp8'")
rlx_e2e(NAME "models: cli bad batch" EXIT 2 ARGS models resnet18 --batch 0
  STDERR "^rlx models: --batch must be integers separated by commas \\(each an integer >= 1\\), got '0'\nTry 'rlx models --help'\\.\n$")
# Issue 17 item 12: estimates are int64; a batch or input that overflows one is refused, never
# printed as a negative count.
rlx_e2e(NAME "models: cli batch beyond int64 estimates" EXIT 2 ARGS models resnet18 --batch 1e12
  STDERR "rlx models: batch 1000000000000 is too large: resnet18 at input 224 exceeds the int64 limit 9223372036854775807 FLOPs or bytes\\x3b the largest batch is [0-9]+")
rlx_e2e(NAME "models: cli later batch beyond int64" EXIT 2 ARGS models resnet18 --batch 16,1e12
  STDERR "batch 1000000000000 is too large")
rlx_e2e(NAME "models: summary batch beyond int64" EXIT 1
  ARGS -e "rlx.model.summary{model = 'resnet18', batch = 1e15}"
  STDERR "rlx\\.model\\.summary: batch 1000000000000000 is too large: resnet18 at input 224 exceeds the int64 limit")
rlx_e2e(NAME "models: summary input beyond int64" EXIT 1
  ARGS -e "rlx.model.summary{model = 'resnet18', input = 1e9}"
  STDERR "rlx\\.model\\.summary: input 1000000000 is too large: resnet18 at batch 1 exceeds the int64 limit 9223372036854775807\\x3b use a smaller input")
rlx_e2e(NAME "models: a Lua-defined model trains and summarises" ARGS run ${M}/train_tiny.lua
  STDOUT "^true\ttiny\t918\n$")
rlx_e2e(NAME "models: max_batch worked by hand" ARGS run ${M}/max_batch.lua STDOUT "^2\t1\t1\t0\t0\ntrue\ttrue\n$")
rlx_e2e(NAME "models: max_batch missing key" EXIT 1 ARGS -e "rlx.model.max_batch{memory_gib = 16}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.max_batch: option 'model' is required")
rlx_e2e(NAME "models: max_batch unknown key" EXIT 1 ARGS -e "rlx.model.max_batch{model = 'resnet18', memory_gib = 16, bacth = 2}"
  STDERR "rlx\\.model\\.max_batch: unknown option 'bacth' \\(valid options: classes, input, memory_bytes, memory_gib, model, precision\\)")
rlx_e2e(NAME "models: max_batch wrong type" EXIT 1 ARGS -e "rlx.model.max_batch{model = 'resnet18', memory_gib = 'lots'}"
  STDERR "rlx\\.model\\.max_batch: option 'memory_gib' must be a number >= 0, got \"lots\"")
rlx_e2e(NAME "models: max_batch needs one budget" EXIT 1 ARGS -e "rlx.model.max_batch{model = 'resnet18'}"
  STDERR "rlx\\.model\\.max_batch: give exactly one of 'memory_gib' and 'memory_bytes'")
rlx_e2e(NAME "models: max_batch unknown model (C++ exception)" EXIT 1 ARGS -e "rlx.model.max_batch{model = 'resnet99', memory_gib = 2}"
  STDERR "^\\(command line\\):1: rlx\\.model\\.max_batch: unknown model 'resnet99'")
rlx_e2e(NAME "models: cli gib" ARGS models ${M}/tiny.lua --input 8 --classes 10 --batch 2 --gib 0.0001
  STDOUT "largest batch within 0.0001 GiB: 20 in fp32, 31 in amp")
