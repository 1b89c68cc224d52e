-- experiments/mac_mps.lua: seed 001's "Mac MPS" row (an Apple M-series GPU through Metal: fp32,
-- batch 32/64), kept as a documented stub while no Mac is available to build and test on.
--
-- rlx trains with LibTorch's CPU and CUDA backends only: the LibTorch rlx builds against (Debian's,
-- or a CUDA one, scripts/setup.sh) has no MPS backend, and rlx.devices() never lists an "mps"
-- device. So with `--set label=mac-mps` (labels use '-': '_' separates a run label's fields)
-- all.lua finds this file for the label, but no device has its kind: the message below says so, and
-- the Mac's CPU is swept with experiments/cpu.lua (seed 001's "Mac CPU" row, batch 16/32/64) under
-- the label mac-mps. No MPS run is made, stored or reported; the report's environment table shows
-- the CPU. To study the Mac's GPU, run seed 000's run_train.py with --backend mps and add its
-- metrics.csv rows by hand; rlx's numbers for that machine are CPU numbers.
io.stderr:write("experiments/mac_mps.lua: this rlx cannot train on an Apple GPU (its LibTorch has no MPS " ..
  "backend; rlx.devices() lists cpu and cuda only): no MPS runs; the CPU uses experiments/cpu.lua\n")
return {kind = "mps", batch = {32, 64}, precision = {"fp32"}}
