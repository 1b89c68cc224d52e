#!/usr/bin/env bash
# identity.sh RLX TMPDIR: issue 55 (environments by identity, emulation marked, effects over every
# run, point 9's report items) and issue 56 item 2 (`rlx report A.db B.db` is the report of their
# merge, slot for slot, whatever their order), on real databases (tests/fixtures/studies, copied):
# the old EPYC (Zen 3, AVX2) and the fresh one (Zen 5, AVX-512), both labelled epyc-2c; the old EPYC
# with the H200 study and the qemu arm64 smoke study. Every value below is worked out by hand from
# the stored runs (sqlite3 on a copy), as the comments say.
set -euo pipefail
rlx=$1
d=$2/report_identity
rm -rf "$d" && mkdir -p "$d"
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "$2 lacks: $1"; }
hasnt() { if grep -qF -- "$1" "$2"; then fail "$2 has: $1"; fi; }
F=tests/fixtures/studies
cp "$F/epyc-2c-study.db" "$d/old.db"
cp "$F/epyc-zen5-study.db" "$d/zen5.db"   # in WAL mode, as the study left it
cp "$F/h200-default-study.db" "$d/h200.db"
cp "$F/qemu-arm64-smoke.db" "$d/qemu.db"
inputs() { sha256sum "$d/old.db" "$d/zen5.db" "$d/h200.db" "$d/qemu.db"; }
before=$(inputs)
no_side_files() { if ls "$d"/*.db-wal "$d"/*.db-shm 2>/dev/null; then fail "$1 left side files beside an input"; fi; }

# --- 1. Two machines, one label: two environments -------------------------------------------------
"$rlx" report "$d/old.db" "$d/zen5.db" --out "$d/pair" --quiet
no_side_files "rlx report"
md=$d/pair/report.md
# The ids differ (1e533b74 Zen 3, d9faeff0 Zen 5): the CPU model reads "AMD EPYC" on both, the flags
# tell them apart (avx512f on the Zen 5 only).
has 'Environments: epyc-2c \[AMD EPYC AVX-512\], epyc-2c \[AMD EPYC AVX2\]' "$md"
# ResNet-50 batch 32 is two rows, no longer one pooled 8.99 ± 3.04: the Zen 5's three runs, the Zen
# 3's one kept run of three.
has '| epyc-2c \[AMD EPYC AVX-512\] | resnet50 | fp32 | 32 | channels_last | 3 | 10.5 ± 0.7 |' "$md"
has '| epyc-2c \[AMD EPYC AVX2\] | resnet50 | fp32 | 32 | channels_last | 1 of 3 (the highest) | 4.51 |' "$md"
# §6.2 across them. VGG-16 batch 32: (4.0324 + 3.7656 + 3.9767) / 3 = 3.9249 over (0.8102 + 0.8876 +
# 0.9072) / 3 = 0.8683: 4.52x.
has '| vgg16 | fp32 | 32 | epyc-2c \[AMD EPYC AVX-512\] / epyc-2c \[AMD EPYC AVX2\] | 3.92 (3; ±2.7 %) | 0.868 (3; ±17.1 %) † | 4.52× (95% CI [3.97, 5.07]) † |' "$md"
hasnt 'no ratios between environments' "$md"
hasnt 'no cross-environment ratios' "$md"
for f in throughput_env-epyc-2c__AMD_EPYC_AVX-512_ throughput_env-epyc-2c__AMD_EPYC_AVX2_ roofline_epyc-2c__AMD_EPYC_AVX-512_ \
    roofline_epyc-2c__AMD_EPYC_AVX2_; do
  [ -f "$d/pair/figures/$f.png" ] || fail "no figure $f.png"
done
# A footnote's command lists one machine's runs: the label is shared, the id is not.
has '`rlx runs '"$d"'/old.db --env epyc-2c --model vgg16 --precision fp32 --batch 32 --env-id 1e533b74 --study p1-roofline`' "$md"
# The largest effect, over every run of both rows, its CI excluding 1.
has 'The largest effect: epyc-2c \[AMD EPYC AVX-512\] trains vgg16 at 4.52× the images/s of epyc-2c \[AMD EPYC AVX2\] (fp32, batch 32; 95 % CI [3.97, 5.07]) (over all 3 runs of each row)' "$md"
has 'No run was skipped.' "$md"

# The order of the arguments changes nothing but the order the sources are named in.
"$rlx" report "$d/zen5.db" "$d/old.db" --out "$d/pair2" --quiet
no_side_files "rlx report (reversed)"
strip() { grep -vF -e "$d/" "$1"; }
diff <(strip "$md") <(strip "$d/pair2/report.md") > "$d/order.diff" || { cat "$d/order.diff"; fail "the order of the databases changed the report"; }
# ... and it is the report of their merge: Table 2 line for line, the same two environments.
"$rlx" merge "$d/merged.db" "$d/old.db" "$d/zen5.db" > "$d/merge.out"
no_side_files "rlx merge"
has "$d/merged.db: 2 environments share the label epyc-2c (ids " "$d/merge.out"
has "$d/merged.db: 54 runs in all (54 new)" "$d/merge.out"
"$rlx" report "$d/merged.db" --out "$d/merged" --quiet
table2() { sed -n '/^\*\*Table 2 /,/^n: runs averaged/p' "$1"; }
diff <(table2 "$md") <(table2 "$d/merged/report.md") > "$d/t2.diff" || { cat "$d/t2.diff"; fail "Table 2 differs from the merge's"; }
has 'Environments: epyc-2c \[AMD EPYC AVX-512\], epyc-2c \[AMD EPYC AVX2\]' "$d/merged/report.md"

# The same through the library's `with` (study:report{with =}, --set with= on experiments/all.lua).
"$rlx" -e "local db = rlx.db.open('$d/old.db', {readonly = true}) rlx.report.write(db, {dir = '$d/with', study = 'p1-roofline', with = {'$d/zen5.db'}, quiet = true, html = false}) db:close()"
no_side_files "rlx.report.write{with =}"
diff <(table2 "$md") <(table2 "$d/with/report.md") > "$d/with.diff" || { cat "$d/with.diff"; fail "with= differs"; }

# --- 3. Effects over every run (the Zen 5 alone) ----------------------------------------------------
"$rlx" report "$d/zen5.db" --out "$d/zen5" --quiet
md=$d/zen5/report.md
# VGG-16 from batch 16 to 64 over all runs: (3.7595 + 3.3759 + 3.8625) / 3 = 3.666 -> (3.3295 +
# 3.5546 + 4.1937) / 3 = 3.693, +0.7 %: the 1.14x of the one kept run at batch 64 is no headline,
# and where it is cited it says what it rests on.
sed -n '/^## Abstract/,/^---/p;/^### Takeaways/,/^---/p' "$md" > "$d/headlines.md"
hasnt '1.14×' "$d/headlines.md"
has 'vgg16 in fp32 goes from 3.67 images/s at batch 16 to 4.19 at batch 64: 1.14× (one run on a side: no CI) on the runs Table 2 keeps (3 of 3 at batch 16, 1 of 3 at batch 64); over all of them 1.01× (95 % CI [' "$md"
# No ratio's CI excludes 1; the largest: MobileNetV2 (61.583 + 63.658 + 56.342) / 3 = 60.53 at batch
# 16 -> (58.828 + 57.341 + 50.807) / 3 = 55.66 at batch 64: 0.92x; run 3 of each is left out of
# Table 2's means (contended at 16, unsteady at 64).
has "No ratio's 95 % CI excludes 1 over every run of its rows, so no effect is established (the largest, not a finding: a larger batch moves mobilenet_v2 on epyc-2c in fp32 from 60.5 images/s at batch 16 to 55.7 at batch 64: 0.92× (95 % CI [0.77, 1.07]) (over all 3 runs of each row, 2 of them left out of Table 2's means)" "$md"
# Its plan counted 23 runs; 27 are stored: no percentage between them.
has 'estimated 45.0 min before the first run for 23 runs, took 43.3 min until the report for the 27 runs stored: not comparable with the estimate, which counted 23.' "$md"

# --- 2 and 9. The three-database set: emulation marked, point 9's items ---------------------------
"$rlx" report "$d/old.db" "$d/h200.db" "$d/qemu.db" --out "$d/three" --quiet --hypotheses experiments/hypotheses.lua
md=$d/three/report.md
has 'qemu-arm64-2c \[emulated\] ran under an emulator: its numbers are the emulator'"'"'s figures, not comparable, and none of them counts among the findings below.' "$md"
# 9 EPYC rows and 9 H200 rows have a bound; the 3 qemu rows none.
has 'Of 18 roofline points judged against a roof' "$md"
has '| 2.10 ± 0.10 † | 1.17–3.04 (±44.4 %) | 0.474 ± 0.023 † | 8.16–8.44 | none (emulated) |' "$md"
has '| qemu-arm64-2c \[emulated\] | cpu | gemm_fp32_gflops (emulator'"'"'s figure, not comparable) | 2nd ceiling (fp32) | 0.3826 GFLOP/s |' "$md"
has '- Scale: 32x32 synthetic images (6 runs, on qemu-arm64-2c \[emulated\]: emulated, the emulator'"'"'s figures, not comparable).' "$md"
hasnt 'qemu-arm64-2c \[emulated\], resnet18, fp32, batch 16: above its compute roof' "$md"
# Hypotheses given after the runs; H1 ("every machine") judged without the one that ran no VGG-16.
has '**Hypotheses** (given to the report after the runs (rlx report --hypotheses), not declared before them;' "$md"
has 'Judged without qemu-arm64-2c \[emulated\]: it has no row it names, so the verdict holds for the environments above only.' "$md"
# One Dataset line, each input once; settings and protocols per environment; plans named by
# environment, the H200's estimate (19 runs) not compared with the 9 that ran.
has '**Dataset.** synthetic images (rlx'"'"'s generator, no dataset), 1000 classes, input 224x224 (epyc-2c, h200), 32x32 (qemu-arm64-2c \[emulated\]).' "$md"
has '**Framework settings recorded:** epyc-2c: memory format channels_last (mobilenet_v2, resnet50, vgg16); h200: memory format channels_last (resnet50), memory format contiguous (vgg16); qemu-arm64-2c \[emulated\]: memory format contiguous (resnet18).' "$md"
has '; qemu-arm64-2c \[emulated\]: 0 warm-up + 1 timed iterations.' "$md"
has '**Plan of qemu-arm64-2c \[emulated\] (study p1-roofline):** estimated 18.2 min before the first run for 6 runs, took 4.3 min (-76 %) until the report.' "$md"
has '**Plan of h200 (study gpu-default):** budget 1.7 min; estimated 1.7 min before the first run for 19 runs, took 1.5 min until the report for the 9 runs stored: not comparable with the estimate, which counted 19.' "$md"
hasnt 'The largest effect: A' "$md"

# --- Issue 56 item 2: merge's slot rule, and studies picked whatever the order ------------------
# b.db holds another run in the slot of MobileNetV2 batch 16 repeat 2 (63.658 images/s in a.db),
# at 50 images/s; Table 2 keeps runs 2 and 3 (run 1 is left out).
L=epyc-2c_mobilenet_v2_fp32_bs16_run2
cp "$d/zen5.db" "$d/a.db"; cp "$d/zen5.db" "$d/b.db"; cp "$d/zen5.db" "$d/a2.db"
"$rlx" run tests/e2e/report/slot_rerun.lua --set db="$d/b.db" --set label=$L --set images_per_s=50 > /dev/null
"$rlx" run tests/e2e/report/slot_rerun.lua --set db="$d/a2.db" --set label=$L --set status=failed --set keep_id=true > /dev/null
row() { grep -F '| epyc-2c | mobilenet_v2 | fp32 | 16 | channels_last |' "$1" | head -1 | cut -d'|' -f7-8; }
# a.db first: b.db's run is skipped, as rlx merge skips it: (63.658 + 56.342) / 2 = 60.0 ± 5.2.
"$rlx" report "$d/a.db" "$d/b.db" --out "$d/ab" --quiet
[ "$(row "$d/ab/report.md")" = " 2 of 3 | 60.0 ± 5.2 " ] || fail "a b: $(row "$d/ab/report.md")"
has 'Skipped (1): `'$L'` from `'"$d"'/b.db` (its slot held by `'$L'` from `'"$d"'/a.db`).' "$d/ab/report.md"
"$rlx" merge --quiet "$d/ab.db" "$d/a.db" "$d/b.db" 2> "$d/ab.err"
has "skipped run $L" "$d/ab.err"
"$rlx" report "$d/ab.db" --out "$d/ab-merged" --quiet
diff <(table2 "$d/ab/report.md") <(table2 "$d/ab-merged/report.md") > "$d/ab.diff" || { cat "$d/ab.diff"; fail "a b differs from their merge"; }
# b.db first: its run holds the slot: (50 + 56.342) / 2 = 53.2 ± 4.5.
"$rlx" report "$d/b.db" "$d/a.db" --out "$d/ba" --quiet
[ "$(row "$d/ba/report.md")" = " 2 of 3 | 53.2 ± 4.5 " ] || fail "b a: $(row "$d/ba/report.md")"
# a2.db's attempt failed: b.db's ok run replaces it, as rlx merge replaces it.
"$rlx" report "$d/a2.db" "$d/b.db" --out "$d/a2b" --quiet
[ "$(row "$d/a2b/report.md")" = " 2 of 3 | 53.2 ± 4.5 " ] || fail "a2 b: $(row "$d/a2b/report.md")"
has 'Replaced (1): `'$L'` from `'"$d"'/b.db` (its slot held by `'$L'` from `'"$d"'/a2.db`).' "$d/a2b/report.md"
# A database with two studies beside one with one: the same study, in either order.
"$rlx" merge --quiet "$d/two.db" "$d/old.db" "$d/h200.db"
"$rlx" report "$d/two.db" "$d/h200.db" --out "$d/s1" > "$d/s1.out" 2> /dev/null
"$rlx" report "$d/h200.db" "$d/two.db" --out "$d/s2" > "$d/s2.out" 2> /dev/null
has '(study gpu-default, 2 databases)' "$d/s1.out"
has '(study gpu-default, 2 databases)' "$d/s2.out"

[ "$before" = "$(inputs)" ] || fail "a report changed its input databases"
echo "identity ok"
