"""Medians over the runs of graph-combining / trivial, / MPI_Neighbor_*, and cc-auto / the best, before and after. Run in this directory: python3 compare.py > comparison.md"""
import csv,glob,collections,statistics
rows=collections.defaultdict(dict)
for f in sorted(glob.glob('*/results.csv')):
    run=f.split('/')[0]
    for r in csv.DictReader(open(f)):
        rows[(run,r['op'],r['neighborhood'],int(r['block_elements']))][r['impl']]=(float(r['median_s']),int(r['messages_per_call']))
keys=sorted({k[1:] for k in rows})
runs=sorted({k[0] for k in rows})
print("| op | graph | ints | graph-combining ÷ trivial, before | after | graph-combining ÷ MPI_Neighbor, before | after | `cc-auto` ÷ best, before | after |")
print("|---|---|---|---|---|---|---|---|---|")
for k in keys:
    cells=[]
    for metric in ('tr','mpi','auto'):
        for v in ('before','after'):
            vals=[]
            for run in runs:
                if not run.startswith(v): continue
                d=rows[(run,)+k]
                gc=d['cc-graph-combining'][0]
                if metric=='tr': vals.append(gc/d['cc-trivial'][0])
                elif metric=='mpi': vals.append(gc/d['mpi-neighbor'][0])
                else:
                    best=min(d[i][0] for i in ('cc-trivial','cc-graph-combining','cc-graph-routing') if i in d)
                    vals.append(d['cc-auto'][0]/best)
            cells.append("%.2f (%.2f–%.2f)"%(statistics.median(vals),min(vals),max(vals)))
    print("|",k[0],"|",k[1],"|",k[2],"|"," | ".join(cells),"|")
