#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Device call: profile overhead and the per-line comparison with ncu. Run from the repository
# root on the GPU machine after `source .devlibs/env.sh`.
# $P/probe is built here with: g++ -std=c++20 -O2 probe.cpp -I/usr/local/cuda/include \
#   -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda -lnvrtc -lcupti -o probe
# ncu profiles as many launches as Warpbench sampled (the probe launches the example that many
# times), with the same sampling interval (2^(5+3) = 2^8 cycles), and its samples are summed
# over the launches: the same work on both sides, with cold caches and with warm ones.
W=/tmp/hb; mkdir -p $W; P=${PROBE_DIR:-tests/bench/hotspots_vs_ncu}; CLI=build/ci/bin/warpbench-cli
exec > >(tee $W/bench.log $OUT/bench-live.log) 2>&1
for ex in matmul_tiled reduction; do
  proj=resources/examples/$ex/$ex.wbproj
  echo "=== $ex: wall time of warpbench-cli (warm NVRTC cache)"
  $CLI profile $proj > /dev/null 2>&1
  for i in 1 2; do /usr/bin/time -f "run %e s" $CLI run $proj > /dev/null; done
  for i in 1 2; do /usr/bin/time -f "profile --no-counters %e s" $CLI profile --no-counters $proj > /dev/null; done
  for i in 1 2; do /usr/bin/time -f "profile %e s" $CLI profile --json $proj > $W/${ex}_plain$i.json; done
  for i in 1 2; do /usr/bin/time -f "profile --hotspots %e s" $CLI profile --hotspots --json $proj > $W/${ex}_hot$i.json; done
  python3 - $W/${ex}_plain1.json $W/${ex}_hot1.json <<'PY'
import json, sys
for f in sys.argv[1:]:
    p = json.load(open(f))['profile']
    s = {x['tag']: x['value'] for x in p.get('summaries', []) if 'tag' in x}
    print(f, 'stop:', p.get('stopReason'), 'samples:', s.get('wb/timing/samples'), 'median us:', round(1e6 * s.get('wb/timing/median', 0), 2), 'noise %:', round(s.get('wb/timing/noise', 0), 2))
    h = p.get('hotspots')
    if h: print('  hotspots collectMs', round(h['collectMs'], 1), 'launches', h['launches'], 'total', h['totalSamples'], 'dropped', h['droppedSamples'])
PY
  $CLI profile --hotspots $proj | tail -16
  launches=$(python3 -c "import json;print(json.load(open('$W/${ex}_hot1.json'))['profile']['hotspots']['launches'])")
  $P/probe compile resources/examples/$ex/$ex.cu $ex.cu $W/$ex > /dev/null
  nvdisasm -g -c $W/$ex.cubin > $W/${ex}_listing.txt
  k=$([ $ex = matmul_tiled ] && echo matmul_tiled || echo block_sum)
  fn=$(grep -o "\.text\.\S*$k\S*" $W/${ex}_listing.txt | head -1 | sed 's/\.text\.//')
  # Cold caches on both sides (Warpbench flushes L2 before each sampled launch, ncu's default
  # --cache-control all flushes its caches), then warm on both (--no-flush, --cache-control none).
  $CLI profile --hotspots --no-flush --json $proj > $W/${ex}_hotwarm.json
  for mode in all none; do
    ncu --section SourceCounters --warp-sampling-interval 3 --cache-control $mode --page source \
        --print-source sass --csv -k regex:$k $P/probe run $ex $launches > $W/ncu_${ex}_$mode.csv 2>&1
  done
  echo "--- cold: profile --hotspots vs ncu --cache-control all"
  python3 "$(dirname "$0")"/compare.py $W/${ex}_hot1.json $W/ncu_${ex}_all.csv $W/${ex}_listing.txt $fn $ex | tee $W/cmp_$ex.md
  echo "--- warm: profile --hotspots --no-flush vs ncu --cache-control none"
  python3 "$(dirname "$0")"/compare.py $W/${ex}_hotwarm.json $W/ncu_${ex}_none.csv $W/${ex}_listing.txt $fn $ex | tee $W/cmp_${ex}_warm.md
done
cp $W/bench.log $OUT/
tar czf $OUT/bench.tgz -C /tmp hb
