#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The library's own instructions per call, under callgrind, against recorded values.

Runs the call_cost program (tests/perf/call_cost.cpp) under valgrind's callgrind at 1 process (a
singleton: every neighbor is the process itself, which the library serves by local copies) and at 2
(real messages: the ring's edges and the Moore torus's neighbors in the other half); callgrind
collects only inside cost_phase and writes one profile per kind of call. For each kind it sums
the exclusive instructions (Ir) of every function by the object (ELF file) the function is in:

  library  libcartcoll.so (or, in a static build, the program minus call_cost.cpp's own functions)
  runtime  the C and C++ runtime: libc (malloc, memcpy, ...), libstdc++, libgcc_s, libm, ld.so
  MPI      everything else: the MPI library, its components and transports
  program  call_cost.cpp's own loop

and divides by the number of calls (the maximum over processes). The library's figures are exact and
repeat from run to run: it never polls. MPI's figures at 2 processes include MPI's polling while it
waits for the other process and vary. The check compares "library" with the recorded file: it fails
when a kind costs more than 10 % above its recorded value (or is missing from the file), and always
prints every figure. CARTCOLL_RECORD_COST=1 (or --record) writes the measured values to the file
instead. See docs/performance.md, "Per-call instructions".
"""
import argparse
import collections
import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TOLERANCE = 0.10
RUNTIME = re.compile(r"^(libc\.so|libc-|libstdc\+\+|libgcc_s|libm\.so|libm-|ld-linux|ld\.so|libpthread|libdl|"
                     r"vgpreload_)")


def parse_profile(path):
    """Exclusive Ir per (object, file, function), and call counts per (caller object, callee)."""
    names = {"ob": {}, "fl": {}, "fn": {}}
    table_of = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl",
                "fn": "fn", "cfn": "fn"}
    exclusive = collections.Counter()
    calls = collections.Counter()
    ob = fl = fn = cfn = cob = ""
    skip_next_cost = False
    with open(path) as profile:
        for line in profile:
            line = line.rstrip("\n")
            if not line:
                continue
            head = line[0]
            if head.isdigit() or head in "+-*":
                if skip_next_cost:  # the inclusive cost of the call just named: not this function's own
                    skip_next_cost = False
                    continue
                fields = line.split()
                if len(fields) > 1:
                    exclusive[(ob, fl, fn)] += int(fields[1])
                continue
            key, _, value = line.partition("=")
            if key in table_of:
                match = re.match(r"\((\d+)\)(?: (.*))?$", value)
                table = names[table_of[key]]
                if match:
                    if match.group(2) is not None:
                        table[match.group(1)] = match.group(2)
                    value = table[match.group(1)]
                if key == "ob":
                    ob = value
                elif key == "fl":
                    fl = value
                elif key == "fn":
                    fn, cob = value, ""
                elif key == "cob":
                    cob = value
                elif key == "cfn":
                    cfn = value
            elif key == "calls":
                calls[(ob, cob or ob, cfn)] += int(value.split()[0])
                cob = ""
                skip_next_cost = True
    return exclusive, calls


@functools.lru_cache(maxsize=None)
def category(obj, fl, program, library, program_source):
    if os.path.realpath(obj) == program:
        if library or (program_source and os.path.realpath(fl) == program_source):
            return "program"
        return "library"  # a static build: the library's functions are in the program
    base = os.path.basename(obj)
    if library and base.startswith(library):
        return "library"
    if RUNTIME.match(base):
        return "runtime"
    return "MPI"


ALLOCATORS = re.compile(r"^(malloc|calloc|realloc|aligned_alloc|posix_memalign|operator new)")


def launch_under_callgrind(args, procs, out):
    """Runs the program under callgrind at procs processes; returns its output and the dump files."""
    callgrind = [args.valgrind, "--tool=callgrind", "--toggle-collect=cost_phase", "--dump-after=cost_phase",
                 f"--callgrind-out-file={out}/callgrind.out.%p", os.path.realpath(args.program), str(args.calls)]
    # 1 process: a singleton (no launcher). More: the launcher starts one callgrind per process.
    command = callgrind if procs == 1 else shlex.split(args.launch) + [str(procs)] + shlex.split(args.launch_flags) + callgrind
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed (exit {run.returncode}):\n{run.stdout}\n{run.stderr}")
    kinds = []
    for line in run.stdout.splitlines():
        match = re.match(r"kind (\S+) calls (\d+) wrong (\d+)$", line)
        if match:
            kinds.append(match.group(1))
    # Per process, one dump per call of cost_phase, numbered in call order (callgrind.out.PID.N).
    dumps = collections.defaultdict(list)
    for name in os.listdir(out):
        match = re.fullmatch(r"callgrind\.out\.(\d+)\.(\d+)", name)
        if match:
            dumps[match.group(1)].append((int(match.group(2)), os.path.join(out, name)))
    if not kinds or len(dumps) != procs or any(len(files) != len(kinds) for files in dumps.values()):
        sys.exit(f"{len(kinds)} kinds printed, dumps {dict(dumps)}:\n{run.stdout}\n{run.stderr}")
    return kinds, [[path for _, path in sorted(files)] for files in dumps.values()]


def measure(args, procs):
    """Per kind: instructions per call by category (the maximum over processes) and allocations."""
    program = os.path.realpath(args.program)
    source = os.path.realpath(args.program_source) if args.program_source else ""
    with tempfile.TemporaryDirectory(prefix="call_cost.") as out:
        kinds, dumps_by_process = launch_under_callgrind(args, procs, out)
        figures = {f"{kind}.np{procs}": collections.Counter() for kind in kinds}
        for dumps in dumps_by_process:
            for kind, dump in zip(figures, dumps):
                exclusive, call_counts = parse_profile(dump)
                per = collections.Counter()
                for (obj, fl, _), cost in exclusive.items():
                    per[category(obj, fl, program, args.library, source)] += cost
                per["allocations"] = sum(n for (caller, _, callee), n in call_counts.items()
                                         if category(caller, "", program, args.library, "") == "library"
                                         and ALLOCATORS.match(callee))
                for name, value in per.items():
                    figures[kind][name] = max(figures[kind][name], value / args.calls)
        return figures


def read_recorded(path):
    """The recorded values by kind, and the context line they were recorded in."""
    recorded, context = {}, ""
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("# context:"):
                    context = line.split(":", 1)[1].strip()
                fields = line.split("#", 1)[0].split()
                if len(fields) == 2:
                    recorded[fields[0]] = float(fields[1])
    return recorded, context


def write_recorded(path, figures, context):
    with open(path, "w") as f:
        f.write("# The library's own instructions per call (exclusive Ir in libcartcoll; the maximum over processes),\n"
                "# one int per block (the v kinds of degree 3: 1 + j ints on edge j), under callgrind: the reference of\n"
                "# the ctest check call_cost (tests/perf/check_call_cost.py, tests/perf/call_cost.cpp). Kind.npN:\n"
                "# measured at N processes.\n"
                "# Re-record with CARTCOLL_RECORD_COST=1 ctest -R call_cost (docs/performance.md).\n")
        f.write(f"# context: {context}\n")
        for kind, values in figures.items():
            if not kind.startswith("mpi_"):
                f.write(f"{kind} {round(values['library'])}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--valgrind", default="valgrind")
    parser.add_argument("--program", required=True)
    parser.add_argument("--program-source", help="the program's own source file (a static build's program holds the library)")
    parser.add_argument("--library", default="libcartcoll.so", help="the library's file name prefix; empty: static build")
    parser.add_argument("--recorded", required=True, help="file of recorded values")
    parser.add_argument("--context", default="", help="MPI, compiler, build kind: written with a recording")
    parser.add_argument("--calls", type=int, default=50, help="calls of each kind measured")
    parser.add_argument("--procs", type=int, nargs="+", default=[1, 2], help="process counts to measure at")
    parser.add_argument("--launch", default="mpiexec -n", help="the launcher and its process-count flag")
    parser.add_argument("--launch-flags", default="", help="the launcher's flags after the count")
    parser.add_argument("--record", action="store_true", help="write the recorded values (also CARTCOLL_RECORD_COST=1)")
    args = parser.parse_args()

    if shutil.which(args.valgrind) is None:
        sys.exit(f"{args.valgrind} not found: this check needs valgrind (scripts/common.sh installs it)")
    figures = {}
    for procs in args.procs:
        figures.update(measure(args, procs))
    recorded, recorded_context = read_recorded(args.recorded)
    record = args.record or os.environ.get("CARTCOLL_RECORD_COST", "") not in ("", "0")
    print(f"instructions per call ({args.calls} calls of each kind after warm-up; the maximum over processes)")
    print(f"{'kind':40} {'library':>8} {'recorded':>8} {'ratio':>6} {'MPI':>8} {'runtime':>8} {'allocs':>6}")
    failed = []
    for kind, values in figures.items():
        mine = values["library"]
        reference = recorded.get(kind)
        checked = not kind.startswith("mpi_")
        ratio = f"{mine / reference:6.2f}" if checked and reference else "     -"
        shown_reference = f"{reference:8.0f}" if checked and reference is not None else "       -"
        print(f"{kind:40} {mine:8.0f} {shown_reference} {ratio} {values['MPI']:8.0f} {values['runtime']:8.0f} "
              f"{values['allocations']:6.2f}")
        if checked and not record:
            if reference is None:
                failed.append(f"{kind}: no recorded value in {args.recorded}")
            elif mine > reference * (1 + TOLERANCE):
                failed.append(f"{kind}: {mine:.0f} instructions per call, {mine / reference - 1:+.1%} over the "
                              f"recorded {reference:.0f}")
    if record:
        write_recorded(args.recorded, figures, args.context)
        print(f"recorded in {args.recorded}")
        return 0
    if recorded_context != args.context:
        print(f"note: recorded with {recorded_context or '?'}; measured with {args.context or '?'}")
    if failed:
        print(f"FAILED: more than {TOLERANCE:.0%} over the recorded instructions per call:")
        for line in failed:
            print("  " + line)
        print("If the growth is intended, re-record: CARTCOLL_RECORD_COST=1 ctest -R call_cost (docs/performance.md).")
        return 1
    print(f"every kind within {TOLERANCE:.0%} of its recorded value")
    return 0


if __name__ == "__main__":
    sys.exit(main())
