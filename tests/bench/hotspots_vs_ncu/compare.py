#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Per-line PC-sample distribution: warpbench-cli profile --hotspots --json vs ncu SourceCounters
# (per-SASS-instruction "Warp Stall Sampling (All Samples)", mapped to source lines with the
# nvdisasm -g line table of the same CUBIN).
import csv, json, re, sys
ours_json, ncu_csv, listing, func, title = sys.argv[1:6]
doc = json.load(open(ours_json))
h = doc["profile"]["hotspots"]
ours = {l["line"]: l["samples"] for l in h["lines"]}
# nvdisasm -g listing: offset -> (line, opcode) for `func`
cur, fn, line, lmap = None, None, 0, {}
for raw in open(listing):
    s = raw.strip()
    m = re.match(r'//-+ \.text\.(\S+)', s)
    if m: fn = m.group(1); line = 0; continue
    m = re.match(r'//## File "([^"]*)", line (\d+)', s)
    if m: line = int(m.group(2)); continue
    m = re.match(r'/\*([0-9a-f]{4})\*/\s+(.*?);', s)
    if m and fn == func:
        text = m.group(2).strip()
        op = [t for t in text.split() if not t.startswith('@')][0]
        lmap[int(m.group(1), 16)] = (line, op)
rows = [r for r in csv.reader(l for l in open(ncu_csv) if l.startswith('"'))]
# One table per profiled launch (each with its header row); samples are summed over launches.
ncu, mismatch, launches, ninstr = {}, 0, 0, 0
prev = None
def flush(block):
    global mismatch, launches, prev, ninstr
    if not block: return
    # ncu 2025.3 printed matmul_tiled's table twice per launch (identical, back to back):
    # a table equal to the one before it is counted once.
    if block == prev:
        launches -= 1
        return
    prev = list(block)
    ninstr += len(block)
    base = min(a for a, _, _ in block)
    for a, src, n in block:
        ln, op = lmap.get(a - base, (0, "?"))
        nop = [t for t in src.split() if not t.startswith('@')][0] if src else "?"
        if op != nop: mismatch += 1
        ncu[ln] = ncu.get(ln, 0) + n
block, cols = [], None
for r in rows:
    if "Address" in r and "Source" in r:
        flush(block); block = []; launches += 1
        cols = (r.index("Address"), r.index("Source"), r.index("Warp Stall Sampling (All Samples)"))
        continue
    if cols and len(r) > cols[2] and r[cols[0]].startswith("0x"):
        block.append((int(r[cols[0]], 16), r[cols[1]].strip(), int(r[cols[2]] or 0)))
flush(block)
to, tn = sum(ours.values()), sum(ncu.values())
print(f"### {title}\n")
print(f"warpbench: {to} samples over {h['launches']} launch(es) (period 2^{h['samplingPeriodLog2']}, "
      f"{h['droppedSamples']} dropped); ncu: {tn} samples over {launches} launch(es); SASS opcodes differing between ncu's "
      f"instructions and the listing: {mismatch} of {ninstr}\n")
print("| line | warpbench samples | share | ncu samples | share |\n|---|---|---|---|---|")
for ln in sorted(set(ours) | set(ncu), key=lambda l: -ours.get(l, 0)):
    print(f"| {ln} | {ours.get(ln,0)} | {100*ours.get(ln,0)/max(1,to):.1f}% | {ncu.get(ln,0)} | {100*ncu.get(ln,0)/max(1,tn):.1f}% |")
top_o = [l for l, _ in sorted(ours.items(), key=lambda x: -x[1])[:5]]
top_n = [l for l, _ in sorted(ncu.items(), key=lambda x: -x[1])[:5]]
print(f"\ntop 5 lines, warpbench: {top_o}; ncu: {top_n}; same set: {set(top_o) == set(top_n)}; "
      f"same order: {top_o == top_n}; common: {len(set(top_o) & set(top_n))}/5\n")
