-- The report's data-parallel scaling section (issue 52, §6.8), checked on the HAND-MADE fixture
-- tests/fixtures/studies/dp-handmade.db (make_dp_handmade.sh: the real 1-rank ResNet-18 smoke runs
-- plus invented 2-rank runs; to be replaced by a real 2-rank study), every number worked by hand:
--
-- images/s (runs column, global): 1 rank batch 4: 133.47293768409, 138.30267762282 (mean 135.887808,
--   SD 3.4151); 1 rank batch 8: 232.78432689606, 240.74220581310 (mean 236.763266, SD 5.6271);
--   2 ranks batch 2: 120, 130 (mean 125, SD 7.0711); 2 ranks batch 4: 240, 250 (mean 245, SD 7.0711).
-- Weak, 2 ranks x batch 4 against 1 x batch 4: R = 245 / 135.887808 = 1.802958; u_a = 50 / (2 x 245²)
--   = 0.00041649, u_b = 11.6632 / (2 x 135.887808²) = 0.00031581; SE = R √(u_a + u_b) = 0.048790;
--   df = (u_a + u_b)² / (u_a² + u_b²) = 1.9629; t975(1.9629) = 12.706 + (4.303 - 12.706) (1 - 1/1.9629)
--   / (1 - 1/2) = 4.4618; CI = R ± 0.21769 = [1.5853, 2.0207]. Efficiency = R / (resources: 2 ranks x 2
--   threads over 1 rank x 2 threads = 2) = 0.901479 -> 90.1 %,
--   CI / 2 = 79.3-101.0 %.
-- Strong, 2 x batch 4 (global 8) against 1 x batch 8: R = 245 / 236.763266 = 1.034789 -> 1.03×;
--   u_b = 31.6639 / (2 x 236.763266²) = 0.00028243; df = 1.9290, t = 4.6122, SE = 0.027357: CI
--   [0.9086, 1.1610] -> [0.91, 1.16]; efficiency 0.517394 -> 51.7 % (45.4-58.0 %).
-- Strong, 2 x batch 2 (global 4) against 1 x batch 4: R = 125 / 135.887808 = 0.919876 -> 0.92×; u_a =
--   50 / (2 x 125²) = 0.0016; df = 1.3800, t975(1.38) = 12.706 - 8.403 (1 - 1/1.38) / 0.5 = 8.0786, SE =
--   0.040263: CI [0.5946, 1.2451] -> [0.59, 1.25]; efficiency 0.459938 -> 46.0 % (29.7-62.3 %).
--   Weak: no 1-rank run at batch 2.
-- Communication (result.data_parallel, rank 0, mean of the 2 runs): batch 4: all-reduce (0.0100 +
--   0.0096) / 2 = 9.80 ms, share (0.30 + 0.30) / 2 = 30.0 %; exposed (0.0040 + 0.0032) / 2 = 3.60 ms,
--   share (0.12 + 0.10) / 2 = 11.0 %. Batch 2: (0.0110 + 0.0102) / 2 = 10.6 ms, share (0.0110 / (4 /
--   120) + 0.0102 / (4 / 130)) / 2 = (0.33 + 0.3315) / 2 = 33.1 %; exposed 4.50 ms, (0.15 + 0.13) / 2
--   = 14.0 %. Gradients 44,726,568 bytes = 44.7 MB a step.
-- Memory (MB = 1e6 bytes): 2 x batch 4: ranks (420 + 424) / 2 = 422.0 and (410 + 414) / 2 = 412.0,
--   total (830 + 838) / 2 = 834.0, ÷ 44.726568 = 18.6×; 2 x batch 2: 402.0 / 394.0, total 796.0,
--   17.8×; 1 x batch 4: (566.595584 + 578.830336) / 2 = 572.7 (12.8×); 1 x batch 8: 574.1 (12.8×).
--   Parameters 44,726,568 bytes = 44.7 MB = 42.7 MiB.
--
-- Usage: rlx run scaling.lua --set fixture=COPY_OF_dp-handmade.db --set out=DIR
--        rlx run scaling.lua --set plain=COPY_OF_torch-2.15-smoke.db --set out=DIR
-- (the second: a study without ranks > 1 has no scaling section, and a ranks hypothesis is untested).
local P = rlx.params.declare{
  fixture = {type = "string", help = "a copy of tests/fixtures/studies/dp-handmade.db"},
  plain = {type = "string", help = "a copy of a study without data-parallel runs"},
  out = {type = "string", required = true, help = "the report's folder"},
}
local function read(path)
  local f = assert(io.open(path))
  local t = f:read("*a")
  f:close()
  return t
end
local function has(what, text, s)
  if text:find(s, 1, true) then print("ok\t" .. what) else print("MISSING\t" .. what .. "\t" .. s) end
end
local function hasnt(what, text, s)
  if not text:find(s, 1, true) then print("ok\t" .. what) else print("PRESENT\t" .. what .. "\t" .. s) end
end
local HYP = {
  {"2 ranks train ResNet-18 at least 1.6x faster than 1", ranks = {ranks = 2, over = 1, model = "resnet18"},
    at_least = 1.6},
  {"2 ranks train ResNet-18 at least 1.5x faster than 1", ranks = {ranks = 2, over = 1, model = "resnet18"},
    at_least = 1.5},
  {"2 ranks on half the batch at most 1.3x", ranks = {ranks = 2, over = 1, scaling = "strong"}, at_most = 1.3},
}

if P.plain then
  local out = rlx.report.write(rlx.db.open(P.plain, {readonly = true}), {dir = P.out, quiet = true, hypotheses = HYP})
  local md = read(out.markdown)
  hasnt("no scaling section", md, "Scaling (data-parallel)")
  hasnt("no ranks column", md, "| Ranks |")
  hasnt("no per-rank batch header", md, "Batch sizes (per rank)")
  hasnt("no data-parallel timing sentence", md, "a data-parallel run's")
  local e = 0
  for _, f in ipairs(out.figures) do if f.figure == "E" then e = e + 1 end end
  print(e == 0 and "ok\tno figure E" or ("PRESENT\tfigure E\t" .. e))
  has("ranks hypothesis untested", md, "- **H1. 2 ranks train ResNet-18 at least 1.6x faster than 1** — **untested** " ..
    "(global images/s on 2 ranks ÷ on 1 rank at the same batch per rank (model resnet18), at least 1.6). The study " ..
    "has no data-parallel run (ranks \\> 1): train with ranks > 1")
  has("strong hypothesis untested", md, "- **H3. 2 ranks on half the batch at most 1.3x** — **untested** (global " ..
    "images/s on 2 ranks ÷ on 1 rank at the same global batch, at most 1.3).")
  return
end

local out = rlx.report.write(rlx.db.open(P.fixture, {readonly = true}), {dir = P.out, quiet = true, hypotheses = HYP})
local md = read(out.markdown)
has("section", md, "### 6.8 Scaling (data-parallel)")
has("weak defined", md, "**Weak scaling** compares a row with the 1-rank row of the same batch per rank B: speedup " ..
  "= images/s(N ranks, batch B) ÷ images/s(1 rank, batch B).")
has("strong defined", md, "**Strong scaling** compares it with the 1-rank row of the same global batch G: speedup = " ..
  "images/s(N ranks, batch G/N) ÷ images/s(1 rank, batch G). Efficiency = speedup ÷ the ratio of the two rows' " ..
  "resources: GPUs on a GPU (N: one per rank), CPU threads on a CPU (ranks × threads per rank")
has("family", md, "**epyc-2c, resnet18, fp32** (2 ranks: gloo, launched locally, 2 threads per rank; 1 rank: 2 threads):")
has("header", md, "| Ranks | Batch per rank | Global batch | Images/s (global) | n | Weak: efficiency (same batch " ..
  "per rank) | Strong: speedup (same global batch) | Strong: efficiency | All-reduce ms/step (share) | Exposed comm. " ..
  "ms/step (share) | Gradients MB/step | Runs |")
has("1 x 4", md, "| 1 | 4 | 4 | 136 ± 3 | 2 | baseline | baseline | baseline | none (1 process) | none (1 process) | - |")
has("1 x 8", md, "| 1 | 8 | 8 | 237 ± 6 | 2 | baseline | baseline | baseline | none (1 process) | none (1 process) | - |")
has("2 x 2", md, "| 2 | 2 | 4 | 125 ± 7 | 2 | no 1-rank run at batch 2 | 0.92× (95 % CI [0.59, 1.25]) | 46.0 % " ..
  "(95 % CI 29.7–62.3 %) | 10.6 (33.1 %) | 4.50 (14.0 %) | 44.7 |")
has("2 x 4", md, "| 2 | 4 | 8 | 245 ± 7 | 2 | 90.1 % (95 % CI 79.3–101.0 %) | 1.03× (95 % CI [0.91, 1.16]) | 51.7 % " ..
  "(95 % CI 45.4–58.0 %) | 9.80 (30.0 %) | 3.60 (11.0 %) | 44.7 |")
has("draft", md, "2 ranks at batch 4 per rank trained 245 images/s, 1.80× (95 % CI [1.59, 2.02]) one rank's at the " ..
  "same batch per rank: a weak-scaling efficiency of 90.1 % (95 % CI 79.3–101.0 %)")
has("memory 1 x 4", md, "| epyc-2c | resnet18 | fp32 | 1 | 4 | process peak RSS | 572.7 | 572.7 | 44.7 | 42.7 | 12.8× |")
has("memory 1 x 8", md, "| epyc-2c | resnet18 | fp32 | 1 | 8 | process peak RSS | 574.1 | 574.1 | 44.7 | 42.7 | 12.8× |")
has("memory 2 x 2", md, "| epyc-2c | resnet18 | fp32 | 2 | 2 | process peak RSS | 402.0 / 394.0 | 796.0 | 44.7 | 42.7 | " ..
  "17.8× |")
has("memory 2 x 4", md, "| epyc-2c | resnet18 | fp32 | 2 | 4 | process peak RSS | 422.0 / 412.0 | 834.0 | 44.7 | 42.7 | " ..
  "18.6× |")
-- Runs of different ranks are never averaged together: Table 2 has a row per rank count.
has("table 2, 2 ranks", md, "| epyc-2c | resnet18 | fp32 | 4 | 2 (global batch 8) | 2 | 245 ± 7 |")
has("table 2, 1 rank", md, "| epyc-2c | resnet18 | fp32 | 4 | 1 | 2 | 136 ± 3 |")
has("run matrix", md, "| 2, 4, 8 | 1, 2 |")
-- The footnote's command lists the row's runs only, and Appendix G's command trains it again.
has("footnote", md, "epyc-2c, resnet18, fp32, batch 4, 2 ranks: averaged: " ..
  "`epyc-2c_resnet18_fp32_contiguous_2ranks_bs4_run1`, `epyc-2c_resnet18_fp32_contiguous_2ranks_bs4_run2`.")
has("footnote command", md, "--model resnet18 --precision fp32 --batch 4 --ranks 2`")
has("appendix G", md, "rlx train --model resnet18 --batch-size 4 --warmup-iters 2 --iters 8 --precision fp32 " ..
  "--device cpu --input 32 --classes 10 --memory-format contiguous --ranks 2")
-- Hypotheses naming ranks: weak 1.80× [1.585, 2.021] against 1.6 (undecided) and 1.5 (supported);
-- strong at most 1.3: 0.92× [0.59, 1.25] and 1.03× [0.91, 1.16], both below (supported).
has("H1", md, "- **H1. 2 ranks train ResNet-18 at least 1.6x faster than 1** — **undecided** (global images/s on 2 " ..
  "ranks ÷ on 1 rank at the same batch per rank (model resnet18), at least 1.6). epyc-2c, fp32, 2 ranks × batch 4 " ..
  "against 1 × batch 4: 1.80× (95 % CI [1.59, 2.02]), undecided")
has("H2", md, "- **H2. 2 ranks train ResNet-18 at least 1.5x faster than 1** — **supported**")
has("H3", md, "- **H3. 2 ranks on half the batch at most 1.3x** — **supported** (global images/s on 2 ranks ÷ on 1 " ..
  "rank at the same global batch, at most 1.3). resnet18, epyc-2c, fp32, 2 ranks × batch 2 against 1 × batch 4: " ..
  "0.92× (95 % CI [0.59, 1.25]), supported")
-- Figure E: one series per batch per rank, the 1-rank point first, labelled with §6.8's efficiencies,
-- and the ideal line (2 x 135.887808 = 271.78) beside batch 4.
local fig
for _, f in ipairs(out.figures) do if f.figure == "E" then fig = f end end
if not fig then
  print("MISSING\tfigure E")
else
  has("figure E file", fig.rel, "figures/scaling_env-epyc-2c.png")
  has("figure E embedded", md, "![Scaling vs ranks — epyc-2c](figures/scaling_env-epyc-2c.png)")
  local got = {}
  for _, s in ipairs(fig.plot.series) do
    local ys, ls = {}, {}
    for i, y in ipairs(s.y) do ys[i] = string.format("%d:%.2f", s.x[i], y) end
    for i, l in ipairs(s.labels or {}) do ls[i] = l end
    got[#got + 1] = s.label .. " = " .. table.concat(ys, ", ") .. (#ls > 0 and (" [" .. table.concat(ls, "|") .. "]") or "")
  end
  local text = table.concat(got, "\n")
  has("figure E batch 2", text, "resnet18 fp32 batch 2/rank = 2:125.00 [strong 46.0 %]")
  has("figure E batch 4", text, "resnet18 fp32 batch 4/rank = 1:135.89, 2:245.00 [|weak 90.1 %, strong 51.7 %]")
  has("figure E ideal", text, "batch 4/rank ideal (1 rank × resources) = 1:135.89, 2:271.78")
  has("figure E batch 8", text, "resnet18 fp32 batch 8/rank = 1:236.76 [")
  has("figure E checklist", md, "- E: Data-parallel scaling vs ranks — `figures/scaling_env-epyc-2c.png`")
end
