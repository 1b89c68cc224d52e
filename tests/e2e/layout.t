# Issue 55 item 8: a memory-layout choice that holds. Three calibrations in a row on this machine
# (MobileNetV2 at 128x128, batch 16, each from an empty cache) choose the same layout (a clear win
# of the default and a tie that keeps it are one choice), each stating its batch and 95 % CI,
# printed and stored; an MLP, the same work in both layouts, is a tie in each of three probes,
# stated within its CI. No timing threshold; skipped (77) when other processes shared the cores
# through every round of a probe. Alone: another test beside it would be the contention it sets
# aside.
layout: three calibrations in a row agree, and a tie is stated within its CI
  ctest: SKIP_RETURN_CODE 77 RUN_SERIAL TRUE TIMEOUT 300
  $ bash tests/e2e/train/layout_holds.sh "$RLX"
  ok
  stderr:
