#!/usr/bin/env bash
# The GPU machine's check of the exercises' gpu_time goals: every exercise with one is graded by
# the carried `warpscope check` on its starting file and its reference solution (built by nvcc,
# timed in the confined run process), printing each GPU goal's value and whether it held, and
# the seconds each check took. Runs what scripts/gpu_carry.sh packed:
#   WS_CARRY_BINS="app/warpscope" scripts/gpu_carry.sh build
#   device run  carry [".carry"]  command: bash scripts/gpu_exercises.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
export XDG_CACHE_HOME=/tmp/warpscope-cache

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== exercises with a gpu_time goal: starting file and reference solution"
printf "%-22s %-9s %-6s %-8s %s\n" exercise file exit seconds "gpu_time goals (value, held)"
for t in $(grep -l 'metric = "gpu_time"' exercises/*.toml); do
  name=$(basename "$t" .toml)
  for which in start solution; do
    file=""
    [ "$which" = solution ] && file="--file tests/exercises/solutions/$name.cu"
    t0=$(date +%s.%N)
    timeout 300 "$ws" check "$t" $file --json > "$out/check_${name}_$which.json" 2> "$out/check_${name}_$which.err"
    rc=$?
    t1=$(date +%s.%N)
    goals=$(python3 - "$out/check_${name}_$which.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("no record:", e); sys.exit()
if r.get("status") != "graded":
    print(r.get("status"), r.get("message", "")[:300]); sys.exit()
print("; ".join(f"{g['value_text']} {'held' if g['held'] else 'skipped' if g.get('skipped') else 'FAILED'} ({g['detail']})"
                for g in r["goals"] if g["metric"] == "gpu_time"))
PY
)
    printf "%-22s %-9s %-6s %-8.1f %s\n" "$name" "$which" "$rc" "$(python3 -c "print($t1 - $t0)")" "$goals"
    [ -s "$out/check_${name}_$which.err" ] && head -3 "$out/check_${name}_$which.err"
  done
done
pack_out
