#!/usr/bin/env bash
# behaviour snapshot: JSON of odds/simulate/fairness/league for both games, every preset.
# usage: benchmarks/behaviour_snapshot.sh OUTDIR   (uses whatever `kaptai` is on PATH)
# Run it before and after a refactor and compare the two folders with `cmp`: a change
# that should not change behaviour leaves every .json byte-identical.
set -u
out=$1; mkdir -p "$out"; cd /tmp
run() { name=$1; shift; kaptai "$@" --format json > "$out/$name.json" 2> "$out/$name.err"; echo "$? $name" >> "$out/status"; }
: > "$out/status"
for r in traditional advanced; do
  run odds-kts4-$r odds kap-tai-shap --players 4 --rules $r
  run odds-kts6-$r odds kap-tai-shap --players 6 --rules $r --no-distance
  run odds-ks-$r odds kap-shap --rules $r
  for w in 1 2; do
    run sim-kts4-$r-w$w simulate kap-tai-shap --players 4 --rules $r --hands 30000 --seed 7 --workers $w --no-progress
    run sim-ks-$r-w$w simulate kap-shap --rules $r --hands 20000 --seed 7 --workers $w --no-progress --policy 0=score,1=random
  done
done
run fair-kts fairness kap-tai-shap --players 4 --hands 20000 --seed 3 --no-progress
run fair-kts-cut fairness kap-tai-shap --players 4 --hands 20000 --seed 3 --variants house_cut --no-progress
run league-kts league kap-tai-shap --players 4 --hands 3000 --seed 2 --no-progress
run odds-b2-4 odds big-two --players 4
run odds-b2-3 odds big-two --players 3 --hand leftover_receiver
run odds-b2-seq odds big-two --players 4 --straight-order sequential
for w in 1 2; do
  run sim-b2-$w simulate big-two --players 4 --hands 20000 --seed 7 --workers $w --no-progress
  run sim-b2h-$w simulate big-two --players 4 --hands 5000 --seed 7 --workers $w --no-progress --policy heuristic
done
run sim-b2-mal simulate big-two --players 3 -o malaysian_3p=true --malaysian-swap always --hands 5000 --seed 7 --no-progress
run fair-b2 fairness big-two --hands 10000 --seed 3 --no-progress
run fair-b2-top fairness big-two --hands 5000 --seed 3 --variants top_rule --no-progress
run eval-kts evaluate kap-tai-shap "66 66 44 44 14 14 55 55 46 46" --rules advanced
run waits-kts waits kap-tai-shap "16 16 16 12 33 13 15 22 66" --seen "44 26"
run advise-kts advise kap-tai-shap "16 16 16 12 33 13 15 22 66 45" --seen 44 --draws 3
run drawodds-kts draw-odds kap-tai-shap "16 16 16 12 33 13 15 22 66" --draws 3
