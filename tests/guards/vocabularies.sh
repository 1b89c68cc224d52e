#!/usr/bin/env bash
# vocabularies.sh: each vocabulary has one owner (docs/architecture.md, "a vocabulary"): the
# precisions (models::precision_names), the memory layouts (models::memory_format_names) and the
# device kinds (models::device_kind_names), all in engine/models/complexity.cpp; Lua reads them as
# rlx.model.PRECISIONS, MEMORY_FORMATS and DEVICE_KINDS. Looked for, in scripts/rlx, engine/,
# host/ and plotting/: a list that writes two of a vocabulary's words side by side ("fp32", "amp";
# "channels_last", "contiguous"; "cpu", "cuda") or a set of them ({fp32 = true, bf16 = true}); a
# pair of one word twice ({"cuda", "cuda"}: a column and its field) is no list.
# A study's own choice (experiments/, a test) is not a vocabulary and is not read.
source "$(dirname "$0")/common.sh"
word_list() { echo "\"($1)\" *, *\"($1)\"|[{ ,]($1) *= *true *, *($1) *= *true"; }
precisions='fp32|amp|bf16'
layouts='channels_last|contiguous'
devices='cpu|cuda|mps'
pattern="$(word_list "$precisions")|$(word_list "$layouts")|$(word_list "$devices")"
catches vocabularies "$pattern" 'M.LOWER_PRECISIONS = {"amp", "bf16"}'
catches vocabularies "$pattern" '  static const std::vector<std::string> names = {"channels_last", "contiguous"};'
catches vocabularies "$pattern" '  device = {type = "string", one_of = {"cpu", "cuda", "mps"}}'
catches vocabularies "$pattern" 'M.PRECISIONS = {fp32 = true, amp = true, bf16 = true, fp16 = true}'
allow='
engine/models/complexity.cpp  the owner
scripts/rlx/cli/models.lua |{"fp32", "amp"}| the two memory estimates a model summary carries (memory_fp32_bytes, memory_amp_bytes), not the list of precisions
engine/peaks/measure.cpp |{"fp32", "bf16"}| the GEMM peaks a CPU measures (gemm_fp32, gemm_bf16): the peaks own figures, not training precisions
'
hits=$( { code_lines $(lua_files scripts/rlx); code_lines $(cpp_files engine host plotting); } |
  grep -E -- "$pattern" | grep -vE -- '"([a-z0-9_]+)" *, *"\1"' | allowed "$allow")
report "a vocabulary written out of its owner (read rlx.model.PRECISIONS / MEMORY_FORMATS / DEVICE_KINDS, models::*_names())" "$hits"
