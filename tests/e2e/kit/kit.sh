#!/usr/bin/env bash
# kit.sh RLX: experiments/all.lua with seed 000's kit parameters (issue 23): a dry run on an
# ImageFolder with a zone is accepted and shows both; the same with a stand-in trainer, an instance
# type and a price writes a report whose environment table, dataset line, time breakdown and cost
# rows are checked against values worked out by hand; the seed-layout export carries the zone.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/kit-e2e"
rm -rf "$T" && mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "$2 lacks: $1"; }
"$RLX" run tests/e2e/kit/make_folder.lua --set dir="$T/imagenette" >/dev/null

# The acceptance: dry run with data= and zone=.
"$RLX" run experiments/all.lua --dry-run --set data="$T/imagenette" --set zone=us-central1-a \
  --set db="$T/dry.db" --set label=dry --set precision=fp32,bf16 --set budget=none >"$T/dry.out" 2>"$T/dry.err"
has "study p1-roofline in $T/dry.db, environment 'dry' (zone us-central1-a)" "$T/dry.out"
has "data $T/imagenette/train: imagefolder, 12 images in 3 classes" "$T/dry.out"
has "scale default: 224x224 imagefolder images" "$T/dry.out"
has "dry run: 54 to run, 0 skipped" "$T/dry.out"
# A dry run writes nothing (issue 35 item 3: it stored the study's environment, zone and all, in a
# new dry.db); the zone is in the plan above, and the real run below stores it (the report's row).
[ ! -e "$T/dry.db" ] || fail "the dry run made $T/dry.db"

# A bad data= is one line, exit 2, before anything is opened.
set +e
"$RLX" run experiments/all.lua --dry-run --set data="$T/nope" --set db="$T/bad.db" >/dev/null 2>"$T/bad.err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "bad data= exit $rc"
[ "$(wc -l <"$T/bad.err")" -le 1 ] && has "experiments/all.lua: --set data=: rlx.train.dataset: dataset not found: '$T/nope'" "$T/bad.err"
[ ! -e "$T/bad.db" ] || fail "bad data= created the database"

# The study with a stand-in trainer, then its report.
# precision=fp32,bf16: bf16 rows on every CPU (the plan leaves bf16 out where it is emulated).
"$RLX" run tests/e2e/kit/all_data_fake.lua --set scale=smoke --set devices=cpu --set db="$T/kit.db" --set precision=fp32,bf16 \
  --set figures="$T/out/figures" --set label=kit --set data="$T/imagenette" --set zone=us-central1-a \
  --set instance=g2-standard-8 --set price_per_hour=0.36 >"$T/run.out" 2>"$T/run.err" \
  || fail "$(tail -5 "$T/run.err")"
md="$T/out/report.md"
has "| us-central1-a, g2-standard-8 |" "$md"
has "images from \`$T/imagenette\` (imagefolder, 12 images in 3 classes), 1000 classes, input 32x32" "$md"
# resnet50 fp32 batch 16: iteration 16/100 = 160 ms, data wait a quarter = 40 ms (25.0 %), compute
# 120 ms; user 0.5 s, system 0.1 s over the one timed iteration: 500 and 100 ms per iteration, in the
# iteration's unit (issue 34); over a wall of 0.16 + 0.04 = 0.2 s: 3.00 cores; RSS 1e9 bytes =
# 1000.0 MB = 953.7 MiB (1e9 / 1,048,576).
has "| kit | resnet50 | fp32 | 16 | 160 | 120 | 40.0 | 25.0 % | 500 | 100 | 3.00 | 1000.0 (953.7) | process peak RSS |" "$md"
# Cost: 0.36 per hour x 1,000 / (3,600 x 100 images/s) = 0.001 per 1,000 images; batch 64:
# 400 images/s: 0.00025.
has "| kit | resnet50 | fp32 | 16 | 100 | 0.3600 | 0.00100 |" "$md"
has "| kit | resnet50 | fp32 | 64 | 400 | 0.3600 | 0.000250 |" "$md"
# Repeats that differ: mobilenet_v2 bf16 batch 64 at 2,000 and 6,000 images/s, mean 4,000 (the
# row's images/s): 0.36 x 1,000 / (3,600 x 4,000) = 0.000025 (a mean of the two runs' costs,
# 0.00005 and 0.0000167, would give 0.0000333 beside a column that says 4,000).
has "| kit | mobilenet_v2 | bf16 | 64 | 4000 | 0.3600 | 0.0000250 |" "$md"
# One environment: Figure B compares a workload across environments, so it is not drawn, and §4.2
# says why (issue 34).
has "Figure B is not drawn: one environment (kit); Figure B compares one workload across environments" "$md"
"$RLX" export "$T/kit.db" --layout seed --out "$T/kit" >/dev/null 2>&1
has "| Region/Zone | us-central1-a |" "$T/kit/logs/env_info.md"
has "| Instance type | g2-standard-8 |" "$T/kit/logs/env_info.md"
echo "kit ok"
