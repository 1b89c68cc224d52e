# _ab_rounds.sh: sourced by the benches that compare two settings of one rlx process
# (huge_pages.sh, affinity.sh). ab_rounds ROUNDS A B runs, per round and per model of MODELS, the
# caller's `one MODEL SETTING` (which prints images/s) for A and B back to back, A first in odd
# rounds and B first in even ones, so that neither always follows the other on a drifting machine,
# and prints the round's ratio B / A: only ratios within a round are read.
ab_rounds() {  # ROUNDS A B
  local rounds=$1 a=$2 b=$3 r m x y
  for r in $(seq 1 "$rounds"); do
    echo "round $r"
    for m in ${MODELS:-resnet50 vgg16 mobilenet_v2}; do
      if ((r % 2)); then x=$(one "$m" "$a"); y=$(one "$m" "$b"); else y=$(one "$m" "$b"); x=$(one "$m" "$a"); fi
      awk -v m="$m" -v x="$x" -v y="$y" -v n="$b / $a" 'BEGIN{printf "  %-12s %s = %.3f\n", m, n, y / x}'
    done
  done 2>&1
}
