-- rlx.report.drafts: the paragraphs the numbers can support, drafted for the student to check and
-- rewrite (md.draft: a block quote marked [DRAFT]). Every sentence states the numbers it rests on and
-- cites the table rows they come from (the rows' footnotes, Appendix A); what only the author can
-- say (motivation, surprises, judgement) stays a [TO WRITE] placeholder in the sections. Each
-- function returns the draft's Markdown, or nil when the data support no sentence.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local pairing = require("rlx.report.pairs")
local lead = require("rlx.report.lead")
local data = require("rlx.studydb.data")
local M = {}

local function esc(v) return md.esc(tostring(v)) end

-- "a, b and c".
local function join(list)
  if #list <= 2 then return table.concat(list, " and ") end
  return table.concat(list, ", ", 1, #list - 1) .. " and " .. list[#list]
end

-- "4.69" or "4.69-4.75": a range of numbers to 3 significant digits.
local function range(lo, hi)
  if not (lo and hi) then return "-" end
  local a, b = md.sig(lo, 3), md.sig(hi, 3)
  return a == b and a or (a .. "–" .. b)
end

-- The refs of rows, joined: "[^R1][^R2]".
local function refs(ctx, rows)
  local out = {}
  for _, g in ipairs(rows) do out[#out + 1] = ctx.ref(g) end
  return table.concat(out, " ")
end

-- The models of the study in seed order, and the rows of each environment and model.
local function models_of(D)
  local seen, out = {}, {}
  for _, g in ipairs(D.groups) do
    if not seen[g.model] then seen[g.model] = true; out[#out + 1] = g.model end
  end
  table.sort(out, function(a, b)
    local x, y = data.MODEL_ORDER[a] or 99, data.MODEL_ORDER[b] or 99
    if x ~= y then return x < y end
    return a < b
  end)
  return out
end
M.models_of = models_of

local function rows_where(D, pred)
  local out = {}
  for _, g in ipairs(D.groups) do if pred(g) then out[#out + 1] = g end end
  return out
end

-- The precisions among rows, fp32 first.
local function precisions(rows)
  local seen, out = {}, {}
  for _, g in ipairs(rows) do
    if not seen[g.precision] then seen[g.precision] = true; out[#out + 1] = g.precision end
  end
  table.sort(out, function(a, b)
    local x, y = data.PRECISION_ORDER[a] or 99, data.PRECISION_ORDER[b] or 99
    if x ~= y then return x < y end
    return tostring(a) < tostring(b)
  end)
  return out
end

-- A point's class as Table 2 says it (one rule: compute.class_of).
local function class_of(r) return compute.class_of(r) end

-- §5: per environment and model, the bound of each precision across its batches, the share of the
-- roof it reaches, and what would move it. rows: the environment's rows of one model.
local function roofline_paragraph(ctx, env, model, rows)
  local sentences = {}
  local speedups = {}
  for _, p in ipairs(pairing.precision(ctx.D)) do
    if p.base.env_key == env and p.base.model == model then speedups[#speedups + 1] = p end
  end
  for _, prec in ipairs(precisions(rows)) do
    local placed, group_rows = {}, {}
    for _, g in ipairs(rows) do
      local r = g.precision == prec and compute.roofline(ctx.D, g)
      if r and r.bound then placed[#placed + 1] = {g = g, r = r}; group_rows[#group_rows + 1] = g end
    end
    if #placed > 0 then
      local classes, ai_lo, ai_hi, eff_lo, eff_hi, gf_lo, gf_hi = {}, math.huge, 0, math.huge, 0, math.huge, 0
      local estimated = false
      for _, x in ipairs(placed) do
        classes[class_of(x.r)] = (classes[class_of(x.r)] or 0) + 1
        ai_lo, ai_hi = math.min(ai_lo, x.r.ai_lo or x.r.ai), math.max(ai_hi, x.r.ai_hi or x.r.ai)
        if x.r.eff_roof then eff_lo, eff_hi = math.min(eff_lo, x.r.eff_roof), math.max(eff_hi, x.r.eff_roof) end
        gf_lo, gf_hi = math.min(gf_lo, x.r.gflops), math.max(gf_hi, x.r.gflops)
        estimated = estimated or x.r.source == "estimated"
      end
      local r0 = placed[1].r
      local n_classes = 0
      for _ in pairs(classes) do n_classes = n_classes + 1 end
      local batches = {}
      for _, x in ipairs(placed) do batches[#batches + 1] = tostring(x.g.batch) end
      local where = #placed > 1 and ("at batch " .. join(batches)) or ("at batch " .. batches[1])
      local ridge = r0.ridge_ai and string.format("a ridge of %s FLOP/byte (%s %s ÷ DRAM %s GB/s)",
        md.sig(r0.ridge_ai, 3), esc(r0.roof_label or "roof"), md.sig(r0.peak_gflops, 4), md.sig(r0.peak_gbps, 4)) or
        "its ridge"
      local ai_words = estimated and string.format("AI %s FLOP/byte, estimated: from rlx's upper traffic model to " ..
        "its minimum traffic", range(ai_lo, ai_hi)) or string.format("AI %s FLOP/byte, measured by counters",
        range(ai_lo, ai_hi))
      if n_classes == 1 then
        sentences[#sentences + 1] = string.format("On %s, %s in %s is %s %s (%s, against %s) %s.", esc(env),
          esc(model), esc(prec), next(classes), where, ai_words, ridge, refs(ctx, group_rows))
      else
        local parts = {}
        for _, x in ipairs(placed) do
          parts[#parts + 1] = string.format("%s at batch %d (AI %s)", class_of(x.r), x.g.batch,
            md.sig(x.r.ai, 3))
        end
        sentences[#sentences + 1] = string.format("On %s, %s in %s changes class with the batch: %s, against %s " ..
          "(its range %s-%s: a class is stated only outside it) %s.", esc(env), esc(model), esc(prec),
          table.concat(parts, ", "), ridge, md.sig(r0.ridge_lo, 3), md.sig(r0.ridge_hi, 3), refs(ctx, group_rows))
      end
      if eff_hi > 0 then
        sentences[#sentences + 1] = string.format("It reaches %s GFLOP/s, %s of the roof at its AI (%s).",
          range(gf_lo, gf_hi), eff_lo == eff_hi and md.share(eff_lo) or (md.share(eff_lo) .. " to " .. md.share(eff_hi)),
          ctx.points_where or "§5")
      end
      -- What would move it.
      if classes["host/launch-bound"] then
        local ev = {}
        for _, x in ipairs(placed) do
          if x.r.host then ev[#ev + 1] = compute.host_text(x.r.host) end
        end
        sentences[#sentences + 1] = "Where host/launch-bound the GPU waits on the host (" .. table.concat(ev, "; ") ..
          "): the step's time is not the kernels' work, so neither more bandwidth nor more FLOP/s would move it; " ..
          "fewer launches (CUDA graphs, fused kernels) or a larger batch would, and its roofline position is not " ..
          "a cause."
      end
      local main = classes["near the ridge"] and "near the ridge" or (classes["memory-bound"] and "memory-bound") or
        (classes["compute-bound"] and "compute-bound") or nil
      if not main then -- luacheck: ignore 542
      elseif main == "near the ridge" then
        sentences[#sentences + 1] = "Near the ridge either roof may bind: neither more intensity nor more " ..
          "bandwidth alone is sure to move it; " .. (estimated and "measured DRAM bytes (counters) would place it."
          or "more repeats and a re-measured peak would narrow the ridge's range.")
      elseif main == "memory-bound" then
        sentences[#sentences + 1] = "Left of the ridge it rises with arithmetic intensity (fewer bytes per FLOP: " ..
          "a larger batch where the AI grows with it, lower-precision activations, fused layers) or with the " ..
          "bandwidth it attains; more FLOP/s alone would not move it."
        -- Far below the roof the roof is not what sets the time (issue 55: H200 AMP at 20.7-52.6 %
        -- of its DRAM roof was told only "memory-bound").
        local top
        for _, x in ipairs(placed) do
          if class_of(x.r) == "memory-bound" and x.r.eff_roof then top = math.max(top or 0, x.r.eff_roof) end
        end
        if top and top < compute.HOST_KERNEL_SHARE then
          sentences[#sentences + 1] = string.format("But it reaches at most %s of the DRAM roof at its AI: the " ..
            "bandwidth roof bounds it without setting its time, and what does (kernels that do not stream at " ..
            "full bandwidth, the host between them) the roofline does not show.", md.share(top))
        end
      else
        local up = ""
        for _, p in ipairs(speedups) do
          if p.base.precision == prec and prec == "fp32" then
            local x, q = pairing.ratio_parts(p.r)
            up = string.format(": %s gave %s at batch %d here, %s %s", esc(p.precision), x, p.base.batch, q,
              ctx.ref(p.base) .. " " .. ctx.ref(p.other))
            break
          end
        end
        local unit = "a lower precision on tensor cores"
        if rows[1].kind ~= "cuda" then
          local pk = (ctx.D.peaks[rows[1].runs[1].environment_id] or {})[rows[1].kind]
          unit = rlx.roofline.bf16_emulated(pk) and "not bf16 here: this CPU emulates it on its FP32 units (§5)" or
            "bf16 on AMX or avx512_bf16 units"
        end
        sentences[#sentences + 1] = "Right of the ridge it rises only with more FLOP/s per step: faster arithmetic " ..
          "(" .. unit .. up .. ") or less time outside the roofline's work (" ..
          (rows[1].kind == "cuda" and "launches, " or "") .. "memory-bound layers inside the step, the optimizer); " ..
          "more bandwidth would not move it."
      end
    end
  end
  return md.draft(sentences)
end

--- §5's drafts: one paragraph per environment and model.
function M.roofline(ctx)
  local out = {}
  for _, env in ipairs(lead.env_keys(ctx.D)) do
    for _, model in ipairs(models_of(ctx.D)) do
      local rows = rows_where(ctx.D, function(g) return g.env_key == env and g.model == model end)
      local p = #rows > 0 and roofline_paragraph(ctx, env, model, rows)
      if p then out[#out + 1] = p end
    end
  end
  return out
end

-- "from 838 images/s at batch 64 to 972 at batch 256: 1.16× (one run per side: no CI)".
-- The ratio of two rows' mean images/s over every ok run of each (issue 55: the headline used the one
-- unflagged run of three; runs Table 2's means leave out count here), with the runs left out of the
-- table's means: r (pairing.ratio), left (runs of both rows left out).
local function over_all_runs(a, b)
  local r = pairing.ratio(compute.values(a.runs, "images_per_s"), compute.values(b.runs, "images_per_s"))
  local ta, tb = compute.throughput(a), compute.throughput(b)
  local left = (ta.all_flagged and 0 or #ta.flagged) + (tb.all_flagged and 0 or #tb.flagged)
  return r, left
end

-- "over all 3 and 3 runs, 2 of them left out of Table 2's means" (what a finding's ratio rests on).
local function runs_words(r, left)
  local n = r.n_a == r.n_b and string.format("over all %d runs of each row", r.n_a) or
    string.format("over all %d and %d runs of the rows", r.n_a, r.n_b)
  if left > 0 then n = n .. string.format(", %d of them left out of Table 2's means", left) end
  return n
end

-- A series' precision as a draft names it, with its ranks when it trained data-parallel (issue 52:
-- the 1-rank and the 2-rank series of one model read alike): "fp32", "fp32 on 2 ranks".
local function series_precision(g)
  local n = pairing.ranks_of(g)
  return esc(g.precision) .. (n > 1 and (" on " .. n .. " ranks") or "")
end

local function trend_words(ctx, s)
  local words = string.format("from %s images/s at batch %d to %s at batch %d: %s", md.sig(s.ta.mean, 3),
    s.first.batch, md.sig(s.tb.mean, 3), s.last.batch, pairing.ratio_words(s.r))
  local sig = pairing.significant(s.r)
  if sig == false then words = words .. ", a change the repeats do not tell from none" end
  -- Runs left out of a side's mean: how many, and the ratio over every run (issue 55: a trend of
  -- 1.14x rested on the one kept run of three; over all of them it was +0.7 %).
  if s.ta.n < s.ta.n_all or s.tb.n < s.tb.n_all then
    local r = over_all_runs(s.last, s.first)
    words = words .. string.format(" on the runs Table 2 keeps (%d of %d at batch %d, %d of %d at batch %d)",
      s.ta.n, s.ta.n_all, s.first.batch, s.tb.n, s.tb.n_all, s.last.batch)
    if r then words = words .. "; over all of them " .. pairing.ratio_words(r) end
  end
  return words .. " " .. ctx.ref(s.first) .. " " .. ctx.ref(s.last)
end

--- §4.1's draft: the batch trend of each series with its CI.
function M.trends(ctx)
  local sentences = {}
  for _, s in ipairs(pairing.batch_series(ctx.D)) do
    if s.r then
      sentences[#sentences + 1] = string.format("On %s, %s in %s goes %s.", esc(s.first.env_key), esc(s.first.model),
        series_precision(s.first), trend_words(ctx, s))
    end
  end
  local up = {}
  for _, p in ipairs(pairing.precision(ctx.D)) do up[#up + 1] = p end
  if #up > 0 then
    local lo, hi
    for _, p in ipairs(up) do
      if not lo or p.r.ratio < lo.r.ratio then lo = p end
      if not hi or p.r.ratio > hi.r.ratio then hi = p end
    end
    -- "raises" only when every pair is faster: a 0.97x is no raise (a fresh Zen 5 study's MobileNetV2).
    local verb = lo.r.ratio >= 1 and "raises images/s" or "moves images/s from"
    sentences[#sentences + 1] = string.format("Lower precision %s %s (%s, %s, batch %d) to %s " ..
      "(%s, %s, batch %d) over fp32 (§6.1) %s.", verb, pairing.ratio_words(lo.r), esc(lo.base.env_key), esc(lo.base.model),
      lo.base.batch, pairing.ratio_words(hi.r), esc(hi.base.env_key), esc(hi.base.model), hi.base.batch,
      ctx.ref(lo.other) .. " " .. ctx.ref(hi.other))
  end
  return md.draft(sentences)
end

--- §3's draft: which model stresses memory most, from Table 1 and Table 1b's minimum-traffic AI.
function M.complexity(ctx)
  local per = {}
  for _, r in ipairs(ctx.D.ok) do
    local c = ctx.D.complexity[r.id]
    if c and type(c.ai) == "number" then
      local m = per[r.model] or {params = c.params, ai_lo = math.huge, ai_hi = 0, model = r.model}
      m.ai_lo, m.ai_hi = math.min(m.ai_lo, c.ai), math.max(m.ai_hi, c.ai)
      per[r.model] = m
    end
  end
  local list = {}
  for _, m in pairs(per) do list[#list + 1] = m end
  if #list < 2 then return nil end
  table.sort(list, function(a, b) return a.ai_lo < b.ai_lo end)
  local parts = {}
  for _, m in ipairs(list) do
    parts[#parts + 1] = string.format("%s %s", esc(m.model), range(m.ai_lo, m.ai_hi))
  end
  local low, high = list[1], list[#list]
  local sentences = {string.format("Per byte of minimum DRAM traffic the models do %s FLOP (Table 1b, over the " ..
    "batches and precisions run).", join(parts)),
    string.format("%s moves the most bytes per FLOP: it is the most sensitive to bandwidth, and the first to " ..
      "fall left of a machine's ridge; %s, at %.0f× its intensity, is the last.", esc(low.model), esc(high.model),
      high.ai_lo / low.ai_lo)}
  local most
  for _, m in ipairs(list) do if m.params and (not most or m.params > most.params) then most = m end end
  if most then
    sentences[#sentences + 1] = string.format("%s has the most parameters (%s M, Table 1): its weights, gradients " ..
      "and momentum are read and written every step whatever the batch, so its intensity grows with the batch as " ..
      "that traffic is shared by more images.", esc(most.model), md.fixed(most.params / 1e6, 1))
  end
  return md.draft(sentences)
end

--- §4.2's draft: the variability of each environment, from the CVs across repeats.
function M.variability(ctx)
  local sentences = {}
  for _, env in ipairs(lead.env_keys(ctx.D)) do
    local repeats = compute.repeat_cvs(ctx.D, env)
    local cvs, singles = repeats.cvs, repeats.singles
    if #cvs > 0 then
      sentences[#sentences + 1] = string.format("On %s the rows' images/s vary by a median CV of %s across repeats " ..
        "(%s to %s over %d rows, %s)%s.", esc(env), md.pct(repeats.median, 1), md.pct(cvs[1], 1),
        md.pct(cvs[#cvs], 1), #cvs, ctx.variability_appendix or "Appendix F.3",
        singles > 0 and string.format("; %d row%s rest%s on one run", singles,
          singles == 1 and "" or "s", singles == 1 and "s" or "") or "")
    elseif singles > 0 then
      sentences[#sentences + 1] = string.format("On %s every row rests on one run (n=1): its run-to-run " ..
        "variability is not measured, and its ratios carry no CI.", esc(env))
    end
  end
  return md.draft(sentences)
end

-- The largest ratio of a list of pairs (by |log|), with its key.
local function effect(r) return r and r.ratio and r.ratio > 0 and math.abs(math.log(r.ratio)) or 0 end

--- §6's drafts: one paragraph per model, from its precision speedups, batch trends and ratios across
--- environments (each with its CI).
function M.models(ctx)
  local out = {}
  local envs = lead.env_keys(ctx.D)
  local prec, series, across = pairing.precision(ctx.D), pairing.batch_series(ctx.D), pairing.environments(ctx.D, envs)
  for _, model in ipairs(models_of(ctx.D)) do
    local rows = rows_where(ctx.D, function(g) return g.model == model end)
    local sentences = {}
    local fast, slow
    for _, g in ipairs(rows) do
      local t = compute.throughput(g)
      if t.mean then
        if not fast or t.mean > compute.throughput(fast).mean then fast = g end
        if not slow or t.mean < compute.throughput(slow).mean then slow = g end
      end
    end
    if fast and slow and fast ~= slow then
      sentences[#sentences + 1] = string.format("%s runs fastest on %s in %s at batch %d (%s images/s %s) and " ..
        "slowest on %s in %s at batch %d (%s %s).", esc(model), esc(fast.env_key), series_precision(fast), fast.batch,
        md.sig(compute.throughput(fast).mean, 3), ctx.ref(fast), esc(slow.env_key), series_precision(slow), slow.batch,
        md.sig(compute.throughput(slow).mean, 3), ctx.ref(slow))
    elseif fast then
      sentences[#sentences + 1] = string.format("%s ran in one configuration: %s images/s on %s in %s at batch %d %s.",
        esc(model), md.sig(compute.throughput(fast).mean, 3), esc(fast.env_key), series_precision(fast), fast.batch,
        ctx.ref(fast))
    end
    local best
    for _, p in ipairs(prec) do
      if p.base.model == model and (not best or effect(p.r) > effect(best.r)) then best = p end
    end
    if best then
      local n = 0
      for _, p in ipairs(prec) do if p.base.model == model then n = n + 1 end end
      sentences[#sentences + 1] = string.format("%s over fp32 reaches %s on %s at batch %d %s%s.", esc(best.precision),
        pairing.ratio_words(best.r), esc(best.base.env_key), best.base.batch, ctx.ref(best.base) .. " " .. ctx.ref(best.other),
        n > 1 and string.format(", the largest of its %d precision pairs (§6.1)", n) or " (§6.1)")
    end
    for _, s in ipairs(series) do
      if s.first.model == model and s.r then
        sentences[#sentences + 1] = string.format("On %s in %s it goes %s.", esc(s.first.env_key),
          series_precision(s.first), trend_words(ctx, s))
      end
    end
    local far
    for _, p in ipairs(across) do
      if p.x.model == model and not (p.x.emulated or p.y.emulated) and (not far or effect(p.r) > effect(far.r)) then
        far = p
      end
    end
    if far then
      local x, q = pairing.ratio_parts(far.r)
      sentences[#sentences + 1] = string.format("Across environments, %s trains it at %s the images/s of %s " ..
        "(%s, batch %d; %s; §6.2) %s.", esc(far.x.env_key), x, esc(far.y.env_key), esc(far.x.precision), far.x.batch,
        q, ctx.ref(far.x) .. " " .. ctx.ref(far.y))
    end
    local classes = {}
    for _, g in ipairs(rows) do
      local r = compute.roofline(ctx.D, g)
      if r and r.bound then
        local k = esc(g.env_key) .. " " .. esc(g.precision)
        classes[k] = classes[k] or {}
        classes[k][class_of(r)] = true
      end
    end
    local bits = {}
    for k, set in pairs(classes) do
      local names = {}
      for c in pairs(set) do names[#names + 1] = c end
      table.sort(names)
      bits[#bits + 1] = k .. ": " .. table.concat(names, " / ")
    end
    table.sort(bits)
    if #bits > 0 then sentences[#sentences + 1] = "Its roofline class (§5, Table 2): " .. table.concat(bits, "; ") .. "." end
    local p = md.draft(sentences)
    if p then out[#out + 1] = {model = model, text = p} end
  end
  return out
end

--- The findings ranked by effect size (|log| of the ratio): every precision speedup, ratio across
--- environments and batch trend, the largest first; one per kind and model. Each ratio is over every
--- ok run of its two rows (over_all_runs), and a finding is a headline (`headline`, the abstract's
--- and the Takeaways' only) when that ratio's 95 % CI excludes 1: a ratio with no CI (a row of one
--- run) or one the repeats cannot tell from 1 is not. Rows of an emulated environment are never
--- findings. Returns {{size, text, headline, key}}.
function M.findings(ctx)
  local envs = lead.env_keys(ctx.D)
  local cands = {}
  local function add(key, r, left, text, a, b)
    cands[#cands + 1] = {size = effect(r), key = key, headline = pairing.significant(r) == true,
      text = text .. " (" .. runs_words(r, left) .. ") " .. ctx.ref(a) .. " " .. ctx.ref(b) .. "."}
  end
  for _, p in ipairs(pairing.precision(ctx.D)) do
    local r, left = over_all_runs(p.other, p.base)
    if r and not p.base.emulated then
      add("prec|" .. p.base.model, r, left, string.format("%s over fp32 speeds %s up %s on %s at batch %d",
        esc(p.precision), esc(p.base.model), pairing.ratio_words(r), esc(p.base.env_key), p.base.batch),
        p.base, p.other)
    end
  end
  for _, p in ipairs(pairing.environments(ctx.D, envs)) do
    local x, y = p.x, p.y
    local r, left = over_all_runs(x, y)
    if r and r.ratio < 1 then x, y = y, x; r, left = over_all_runs(x, y) end
    if r and not (x.emulated or y.emulated) then
      local rx, q = pairing.ratio_parts(r)
      add("env|" .. x.model, r, left, string.format("%s trains %s at %s the images/s of %s (%s, batch %d; %s)",
        esc(x.env_key), esc(x.model), rx, esc(y.env_key), esc(x.precision), x.batch, q), x, y)
    end
  end
  for _, s in ipairs(pairing.batch_series(ctx.D)) do
    local r, left = over_all_runs(s.last, s.first)
    if r and not s.first.emulated then
      add("batch|" .. s.first.model .. "|" .. s.first.env_key, r, left, string.format("a larger batch moves %s on %s " ..
        "in %s from %s images/s at batch %d to %s at batch %d: %s", esc(s.first.model), esc(s.first.env_key),
        series_precision(s.first), md.sig(r.mean_b, 3), s.first.batch, md.sig(r.mean_a, 3), s.last.batch,
        pairing.ratio_words(r)), s.first, s.last)
    end
  end
  table.sort(cands, function(a, b)
    if a.headline ~= b.headline then return a.headline end
    return a.size > b.size
  end)
  local seen, out = {}, {}
  for _, c in ipairs(cands) do
    if not seen[c.key] then seen[c.key] = true; out[#out + 1] = c end
  end
  return out
end

-- A sentence's first letter in upper case (a finding starts lower case: it follows a colon).
local function capital(text) return (text:gsub("^%l", string.upper)) end

--- The takeaways: the three largest findings whose 95 % CI excludes 1, ranked.
function M.takeaways(ctx)
  local f = M.findings(ctx)
  if #f == 0 then return nil end
  local lines = {string.format("> %s Ranked by effect size (|ln ratio|), largest first, over every run of each " ..
    "row; only ratios whose 95 %% CI excludes 1:", md.DRAFT), ">"}
  local n = 0
  for i = 1, math.min(3, #f) do
    if f[i].headline then n = n + 1; lines[#lines + 1] = string.format("> %d. %s", n, capital(f[i].text)) end
  end
  if n == 0 then
    lines[#lines + 1] = "> No ratio's 95 % CI excludes 1 over every run of its rows (a row of one run has no CI): " ..
      "no finding is established; the largest ratio, not a finding: " .. f[1].text
  end
  return table.concat(lines, "\n")
end

-- Counts of the roofline classes: "5 memory-bound, 10 compute-bound, 3 near the ridge".
local function class_counts(ctx)
  local n = {}
  for _, g in ipairs(ctx.D.groups) do
    local r = compute.roofline(ctx.D, g)
    if r and r.bound then n[class_of(r)] = (n[class_of(r)] or 0) + 1 end
  end
  local parts = {}
  for _, c in ipairs({"memory-bound", "compute-bound", "host/launch-bound", "near the ridge"}) do
    if n[c] then parts[#parts + 1] = string.format("%d %s", n[c], c) end
  end
  return #parts > 0 and join(parts) or nil
end

--- The abstract's draft: what was measured, the range, the roofline classes (the sections' sentence
--- `facts[1]` when given), the largest effect, then the rest of `facts`.
function M.abstract(ctx, facts)
  facts = facts or {}
  local D = ctx.D
  local envs, models = lead.env_keys(D), models_of(D)
  local batches, precs = {}, {}
  for _, g in ipairs(D.groups) do batches[g.batch] = true; precs[g.precision] = true end
  local bl, pl = {}, {}
  for b in pairs(batches) do bl[#bl + 1] = b end
  table.sort(bl)
  for p in pairs(precs) do pl[#pl + 1] = p end
  table.sort(pl)
  for i, b in ipairs(bl) do bl[i] = tostring(b) end
  if #models == 0 then return nil end
  local esc_list = function(t) local o = {} for i, x in ipairs(t) do o[i] = esc(x) end return join(o) end
  local sentences = {string.format("We trained %s on %s at batch sizes %s in %s, timing every step, and placed " ..
    "each configuration on its machine's roofline.", esc_list(models), esc_list(envs), join(bl), esc_list(pl))}
  local emulated = {}
  for _, e in ipairs(D.envs or {}) do if e.emulated then emulated[#emulated + 1] = esc(e.label) end end
  if #emulated > 0 then
    sentences[#sentences + 1] = string.format("%s ran under an emulator: %s numbers are the emulator's figures, " ..
      "not comparable, and none of them counts among the findings below.", join(emulated),
      #emulated == 1 and "its" or "their")
  end
  local lo, hi
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    if t.mean and not g.emulated then
      if not lo or t.mean < compute.throughput(lo).mean then lo = g end
      if not hi or t.mean > compute.throughput(hi).mean then hi = g end
    end
  end
  if lo and hi then
    sentences[#sentences + 1] = string.format("Throughput ranged from %s images/s (%s) to %s (%s).",
      md.sig(compute.throughput(lo).mean, 3), ctx.describe(lo), md.sig(compute.throughput(hi).mean, 3), ctx.describe(hi))
  end
  local counts = class_counts(ctx)
  if facts[1] then sentences[#sentences + 1] = facts[1]
  elseif counts then sentences[#sentences + 1] = "Roofline points: " .. counts .. " (§5)." end
  local f = M.findings(ctx)
  if f[1] and f[1].headline then sentences[#sentences + 1] = "The largest effect: " .. f[1].text
  elseif f[1] then
    sentences[#sentences + 1] = "No ratio's 95 % CI excludes 1 over every run of its rows, so no effect is " ..
      "established (the largest, not a finding: " .. f[1].text:gsub("%.$", "") .. ")."
  end
  for i = 2, #facts do sentences[#sentences + 1] = facts[i] end
  return md.draft(sentences)
end

--- The conclusion's draft: the three questions answered from the tables, and the hypotheses.
function M.conclusion(ctx, verdicts)
  local sentences = {}
  local counts = class_counts(ctx)
  if counts then
    sentences[#sentences + 1] = "Question 1: the roofline points are " .. counts .. " (§5, §6.5)."
  end
  local prec = pairing.precision(ctx.D)
  if #prec > 0 then
    local lo, hi
    for _, p in ipairs(prec) do
      if not lo or p.r.ratio < lo.r.ratio then lo = p end
      if not hi or p.r.ratio > hi.r.ratio then hi = p end
    end
    sentences[#sentences + 1] = string.format("Question 2: lower precision gave %s to %s over fp32 (§6.1) %s.",
      pairing.ratio_words(lo.r), pairing.ratio_words(hi.r), ctx.ref(lo.other) .. " " .. ctx.ref(hi.other))
  end
  local across = pairing.environments(ctx.D, lead.env_keys(ctx.D))
  local far
  if #across > 0 then
    for _, p in ipairs(across) do
      if not (p.x.emulated or p.y.emulated) and (not far or effect(p.r) > effect(far.r)) then far = p end
    end
  end
  if far then
    local x, q = pairing.ratio_parts(far.r)
    sentences[#sentences + 1] = string.format("Question 3: the environments differ by up to %s (%s over %s, %s, " ..
      "batch %d; %s; §6.2) %s.", x, esc(far.x.env_key), esc(far.y.env_key), esc(far.x.model), far.x.batch, q,
      ctx.ref(far.x) .. " " .. ctx.ref(far.y))
  end
  if verdicts and #verdicts > 0 then
    local n = {}
    for _, v in ipairs(verdicts) do n[v.verdict] = (n[v.verdict] or 0) + 1 end
    local parts = {}
    for _, k in ipairs({"supported", "rejected", "undecided", "untested"}) do
      if n[k] then parts[#parts + 1] = string.format("%d %s", n[k], k) end
    end
    sentences[#sentences + 1] = string.format("Of the %d hypotheses declared, %s (§6.6).", #verdicts, join(parts))
  end
  return md.draft(sentences)
end

return M
