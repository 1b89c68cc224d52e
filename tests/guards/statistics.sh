#!/usr/bin/env bash
# statistics.sh: statistics have one owner (docs/architecture.md, "Student's t, the 95 % CI of a
# mean, percentiles, mean and SD"): engine/train/stats.cpp, which Lua reaches as rlx.stats
# (host/bindings/bind_stats.cpp, scripts/rlx/stats.lua). Nothing else computes a mean, an SD, a
# median, a percentile or a quantile; it calls them. The signatures looked for:
#   a middle element: xs[math.floor((#xs + 1) / 2)], xs[#xs / 2], v[v.size() / 2], nth_element;
#   a mean by hand: sum / #xs, sum /= static_cast<double>(v.size()), std::accumulate(...) / n;
#   a squared deviation: (x - mean)^2, (x - mean) * (x - mean);
#   a sample variance: sqrt(... / (n - 1)), or an interpolated rank: q * (#xs - 1), p * (n - 1).
source "$(dirname "$0")/common.sh"
owners='^(engine/train/stats\.(cpp|h)|scripts/rlx/stats\.lua|host/bindings/bind_stats\.cpp):'
id='[A-Za-z_][A-Za-z0-9_.]*'
pattern="#$id *\\+ *1 *\\) */ *2|math\\.(floor|ceil)\\( *\\(? *#[^)]*/ *2|\\[ *#$id */ *2|size\\(\\) */ *2 *\\]|nth_element"
pattern+="|[A-Za-z0-9_)] */ *#$id|/=? *static_cast<double>\\($id\\.size\\(\\)\\)|accumulate\\(.*\\) */"
pattern+="|\\( *$id *- *(mean|mu|avg|m) *\\) *(\\^ *2|\\*)|sqrt *\\([^;]*- *1 *\\)"
pattern+="|\\* *\\( *(#$id|$id\\.size\\(\\)|n) *- *1 *\\)"
catches statistics "$pattern" '  local median = #xs > 0 and xs[math.floor((#xs + 1) / 2)] or 0'
catches statistics "$pattern" '  for (double x : v) ss += (x - mean) * (x - mean);'
catches statistics "$pattern" '  mean /= static_cast<double>(v.size());'
catches statistics "$pattern" '  local m = sum / #values'
# Nothing is allowed: a statistic outside the owner is moved into it.
allow=''
hits=$( { code_lines $(lua_files scripts/rlx); code_lines $(cpp_files engine host plotting); } |
  grep -vE "$owners" | grep -E -- "$pattern" | allowed "$allow")
report "a statistic computed outside engine/train/stats.cpp and rlx.stats (call rlx.stats / train:: instead)" "$hits"
