-- cuda_graphs.lua (rlx run, from the repository root): rlx.train's cuda_graphs off a GPU. Every
-- input that cannot be captured is refused with one error naming why (the exact texts below);
-- device "auto" on a machine without a usable GPU is ok = false naming cuda_graphs; a run without
-- it echoes cuda_graphs = false; a wrong type names the option. tests/gpu/graphs_cuda.sh runs the
-- graphed steps on a GPU.
local tiny = dofile("tests/e2e/train/tiny_model.lua")
local function opts(extra)
  local o = {model = tiny, batch = 2, iters = 1, warmup = 1, input = 16, classes = 3, threads = 1, progress = false,
    cuda_graphs = true, device = "auto"}
  for k, v in pairs(extra) do o[k] = v end
  return o
end
local function refused(extra, want)
  local ok, err = pcall(rlx.train, opts(extra))
  assert(not ok, "not refused: " .. rlx.inspect(extra))
  local msg = rlx.errors.message(err)
  assert(msg == want, "got:  " .. msg .. "\nwant: " .. want)
end
refused({device = "cpu"}, "cuda_graphs captures the step's CUDA kernels, and the run is on the CPU " ..
  "(device=\"cpu\"); use device=\"cuda\" or drop cuda_graphs")
refused({data = "/nonexistent/imagenet"}, "cuda_graphs replays one captured step on fixed input tensors, and " ..
  "data=\"/nonexistent/imagenet\" brings a new batch every step (rlx does not copy batches into the captured " ..
  "inputs); use data=\"synthetic\" or drop cuda_graphs")
refused({grad_accum = 2}, "cuda_graphs captures one step with its optimizer update, and grad_accum=2 makes steps " ..
  "without one; use grad_accum=1 or drop cuda_graphs")
refused({counter_iters = 1}, "cuda_graphs cannot be combined with counted iterations (counter_iters=1): rlx has " ..
  "not verified that its counters see the kernels of a replayed graph; count in a run without cuda_graphs")
refused({counters = true}, "option 'counters' cannot be combined with cuda_graphs: rlx has not verified that its " ..
  "counters see the kernels of a replayed graph; count in a run without cuda_graphs")
refused({warmup = 0}, "cuda_graphs needs warmup >= 1: the step is captured after eager steps have set up cuDNN, " ..
  "cuBLAS and the allocator")
refused({cuda_graphs = "yes"}, "option 'cuda_graphs' must be true or false, got \"yes\"")

-- No GPU here: "auto" trains on the CPU, which cannot be graphed; the run says so.
local r = rlx.train(opts({}))
assert(r.ok == false and r.cuda_graphs == true, rlx.inspect(r))
assert(r.error:find("^cuda_graphs captures the step's CUDA kernels, and device \"auto\" chose 'cpu' %(") and
  r.error:find("; drop cuda_graphs$"), r.error)
local eager = rlx.train(opts({cuda_graphs = false}))
assert(eager.ok == true and eager.cuda_graphs == false, rlx.inspect(eager))
print("cuda_graphs refusals ok")
