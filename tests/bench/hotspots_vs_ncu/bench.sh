#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Device call: GPU tests, screenshots, overhead and ncu comparison. Run from the repository root on the GPU machine after
# `source .devlibs/env.sh`.
# $P/probe is built here with: g++ -std=c++20 -O2 probe.cpp -I/usr/local/cuda/include \
#   -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda -lnvrtc -lcupti -o probe
W=/tmp/hb; mkdir -p $W; P=${PROBE_DIR:-tests/bench/hotspots_vs_ncu}; CLI=build/ci/bin/warpbench-cli
exec > >(tee $W/bench.log $OUT/bench-live.log) 2>&1
which g++ c++ python3 | head -3
export WARPBENCH_SCREENSHOT_DIR=$OUT QT_QPA_PLATFORM=offscreen
for ex in matmul_tiled reduction; do
  proj=resources/examples/$ex/$ex.wbproj
  echo "=== $ex: plain profile vs profile --hotspots (wall time of warpbench-cli, warm NVRTC cache)"
  $CLI profile $proj > /dev/null 2>&1
  for i in 1 2; do /usr/bin/time -f "plain %e s" $CLI profile $proj > /dev/null; done
  for i in 1 2; do /usr/bin/time -f "hotspots %e s" $CLI profile --hotspots --json $proj > $W/${ex}_hot$i.json; done
  python3 -c "import json;h=json.load(open('$W/${ex}_hot1.json'))['profile']['hotspots'];print('collectMs',round(h['collectMs'],1),'launches',h['launches'],'total',h['totalSamples'],'dropped',h['droppedSamples'])"
  $CLI profile --hotspots $proj | tail -30
  $P/probe compile resources/examples/$ex/$ex.cu $ex.cu $W/$ex > /dev/null
  nvdisasm -g -c $W/$ex.cubin > $W/${ex}_listing.txt
  k=$([ $ex = matmul_tiled ] && echo matmul_tiled || echo block_sum)
  fn=$(grep -o "\.text\.\S*$k\S*" $W/${ex}_listing.txt | head -1 | sed 's/\.text\.//')
  ncu --section SourceCounters --page source --print-source sass --csv -k regex:$k $P/probe run $ex > $W/ncu_$ex.csv 2>&1
  python3 $P/compare.py $W/${ex}_hot1.json $W/ncu_$ex.csv $W/${ex}_listing.txt $fn $ex | tee $W/cmp_$ex.md
done
cp $W/bench.log $OUT/
tar czf $OUT/bench.tgz -C /tmp hb
ls -la $OUT
