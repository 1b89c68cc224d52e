# Issue 55 point 6: reference lines that say what they are, on copies of the Zen 5, old EPYC and H200
# fixtures (tests/e2e/figures55/figures.lua, every value worked by hand there): the Zen 5's GEMM, run
# on OpenBLAS's Haswell kernels (OPENBLAS_CORETYPE=Haswell in its environment) and exceeded by its
# training points, drawn and explained as a reference; Figure D's estimated (hollow) and measured
# (filled) AIs and each environment's ridges in its colour; Figure B relative to each environment's
# median, saying what it draws.
figures: reference lines, Figure D's methods and ridges, Figure B's spread (issue 55 point 6)
  $ bash tests/e2e/figures55/check.sh "$RLX" $RLX_TEST_TMP
  figures55: 28 checks ok
