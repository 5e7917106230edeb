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
hdr = rows[1]
ai = hdr.index("Address"); si = hdr.index("Source"); ci = hdr.index("Warp Stall Sampling (All Samples)")
data = [(int(r[ai], 16), r[si].strip(), int(r[ci] or 0)) for r in rows[2:] if len(r) > ci and r[ai].startswith("0x")]
base = min(a for a, _, _ in data)
ncu, mismatch = {}, 0
for a, src, n in data:
    off = a - base
    ln, op = lmap.get(off, (0, "?"))
    nop = [t for t in src.split() if not t.startswith('@')][0] if src else "?"
    if op != nop: mismatch += 1
    ncu[ln] = ncu.get(ln, 0) + n
to, tn = sum(ours.values()), sum(ncu.values())
print(f"### {title}\n")
print(f"warpbench: {to} samples over {h['launches']} launch(es) (period 2^{h['samplingPeriodLog2']}, "
      f"{h['droppedSamples']} dropped); ncu: {tn} samples; SASS opcodes differing between ncu's "
      f"instructions and the listing: {mismatch} of {len(data)}\n")
print("| line | warpbench samples | share | ncu samples | share |\n|---|---|---|---|---|")
for ln in sorted(set(ours) | set(ncu), key=lambda l: -ours.get(l, 0)):
    print(f"| {ln} | {ours.get(ln,0)} | {100*ours.get(ln,0)/max(1,to):.1f}% | {ncu.get(ln,0)} | {100*ncu.get(ln,0)/max(1,tn):.1f}% |")
top_o = [l for l, _ in sorted(ours.items(), key=lambda x: -x[1])[:5]]
top_n = [l for l, _ in sorted(ncu.items(), key=lambda x: -x[1])[:5]]
print(f"\ntop 5 lines, warpbench: {top_o}; ncu: {top_n}; same set: {set(top_o) == set(top_n)}; "
      f"same order: {top_o == top_n}; common: {len(set(top_o) & set(top_n))}/5\n")
