#!/usr/bin/env bash
# Side-by-side emulator throughput of two bench_emu builds (e.g. main and a change), alternating
# runs so that a noisy machine slows both alike:
#   scripts/bench_emu_ab.sh OLD NEW [log2n=16] [workers=1] [alternations=9] [reps=5]
# Per reduction variant: the medians over the alternations of each build's per-process median
# of the whole run (column 4 of bench_emu's table), their ratio, and NEW's emulator-only time
# (column 5; builds before the emulator-only column print the whole run there).
set -euo pipefail
OLD=$1; NEW=$2; K=${3:-16}; W=${4:-1}; A=${5:-9}; R=${6:-5}
med() { printf "%s\n" "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for v in 1 3 5 8; do
  o=(); n=(); e=()
  for _ in $(seq "$A"); do
    o+=("$("$OLD" --variant $v --log2n "$K" --workers "$W" --reps "$R" | awk 'NR>2 {print $4}')")
    line=$("$NEW" --variant $v --log2n "$K" --workers "$W" --reps "$R" | awk 'NR>2 {print $4, $5}')
    n+=("${line% *}"); e+=("${line#* }")
  done
  mo=$(med "${o[@]}"); mn=$(med "${n[@]}"); me=$(med "${e[@]}")
  echo "reduce$v 2^$K workers $W: run ms old $mo new $mn (x$(awk -v a="$mo" -v b="$mn" 'BEGIN {printf "%.2f", a / b}')); new emulator-only $me ms"
done
