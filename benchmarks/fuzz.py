"""Fuzzing at length: any input from a stranger must work or fail with a CardrulesError.

    python benchmarks/fuzz.py --cases N [--seed S] [--jobs J]
                              [--target all|expressions|mutated|yaml|store|moves|extremes]
                              [--timeout 5] [--memory-mb 2048] [--out fuzz-failures]
    python benchmarks/fuzz.py --replay FILE [FILE ...] [--minimize] [--timeout 5]

Runs the generators of tests/fuzzing.py (the ones tests/test_fuzz.py runs a few of) for N cases:
with `--target all`, N in total, taken in turn from each target, plus the fixed list of crafted
extremes once. Case i of a target is drawn from `random.Random(f"{seed}/{target}/{i}")`, so the
same --seed gives the same cases whatever --jobs is. Each case runs in one of J worker processes
with a time limit (a case over it counts as slow and its worker is replaced) and a memory cap
(RLIMIT_AS, so a memory hog shows as a MemoryError instead of taking the machine).

Prints, per target and in total: the cases, those accepted (loaded and played fine), the clean
errors (a CardrulesError), the uncaught ones (grouped by exception type and the innermost
traceback frame inside interpreter/), the slow ones, and the slowest case's time. Every uncaught
or slow case is written to --out as JSON (the case and what happened), to replay with --replay;
--minimize then shrinks the input while it still fails the same way and writes FILE.min.json.
Exit status 1 when any case was uncaught or slow.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

import fuzzing

Request = fuzzing.Case | tuple[str, int, int]


def requests(target: str, cases: int, seed: int) -> Iterator[tuple[str, Request]]:
    """(target, request) for each case to run: generated ones as (target, seed, index), which the
    worker generates itself, and the extremes as they are."""
    targets = fuzzing.TARGETS if target == "all" else (target,) if target != "extremes" else ()
    for i in range(cases if targets else 0):
        t = targets[i % len(targets)]
        yield t, (t, seed, i // len(targets))
    if target in ("all", "extremes"):
        for case in fuzzing.EXTREMES.values():
            yield "extremes", case


class Tally:
    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = defaultdict(Counter)
        self.slowest: dict[str, tuple[float, str]] = {}
        self.kinds: dict[str, dict[str, Any]] = {}  # failure key -> {count, targets, first file, input}
        self.slow: list[tuple[str, float, str, str]] = []

    def add(self, target: str, case: fuzzing.Case, result: fuzzing.Result, file: Path | None) -> None:
        outcome = "crash" if result.outcome == "crash" else result.outcome
        self.counts[target][outcome] += 1
        self.counts[target]["cases"] += 1
        if result.seconds > self.slowest.get(target, (-1.0, ""))[0]:
            self.slowest[target] = (result.seconds, case.name)
        if result.outcome == "slow":
            self.slow.append((target, result.seconds, str(file), case.describe(160).replace("\n", "\\n")))
        elif result.bad:
            entry = self.kinds.setdefault(result.key, {"count": 0, "targets": Counter(), "file": None,
                                                      "size": None, "input": "", "message": result.message})
            entry["count"] += 1
            entry["targets"][target] += 1
            size = len(json.dumps(case.data))
            if entry["size"] is None or size < entry["size"]:  # keep the smallest example
                entry.update(file=str(file), size=size, input=case.describe(200).replace("\n", "\\n"),
                             message=result.message)

    def table(self) -> str:
        rows = [("target", "cases", "accepted", "clean errors", "uncaught", "slow", "slowest (s)")]
        total: Counter[str] = Counter()
        for target in list(fuzzing.TARGETS) + ["extremes"]:
            c = self.counts.get(target)
            if not c:
                continue
            total.update(c)
            rows.append((target, str(c["cases"]), str(c["accepted"]), str(c["error"]),
                         str(c["uncaught"] + c["crash"]), str(c["slow"]), f"{self.slowest[target][0]:.2f}"))
        slowest = max(self.slowest.values(), default=(0.0, ""))[0]
        rows.append(("total", str(total["cases"]), str(total["accepted"]), str(total["error"]),
                     str(total["uncaught"] + total["crash"]), str(total["slow"]), f"{slowest:.2f}"))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
                 for row in rows]
        lines.insert(1, "-" * len(lines[0]))
        lines.insert(len(lines) - 1, "-" * len(lines[0]))
        return "\n".join(lines)

    def report(self) -> str:
        out = [self.table()]
        if self.kinds:
            out.append("\nuncaught, by exception type and innermost interpreter/ frame:")
            for key, e in sorted(self.kinds.items(), key=lambda kv: -kv[1]["count"]):
                where = ", ".join(f"{t} {n}" for t, n in e["targets"].most_common())
                out.append(f"  {e['count']:5d}  {key}  [{where}]")
                out.append(f"         {e['message'][:200]!r}")
                out.append(f"         smallest: {e['file']}: {e['input'][:200]}")
        if self.slow:
            out.append("\nslow (over the time limit):")
            for target, seconds, file, text in sorted(self.slow, key=lambda s: -s[1]):
                out.append(f"  {seconds:6.2f} s  {file}: {text[:200]}")
        return "\n".join(out)

    @property
    def failed(self) -> bool:
        return any(c["uncaught"] or c["slow"] or c["crash"] for c in self.counts.values())


def write_record(path: Path, case: fuzzing.Case, result: fuzzing.Result) -> Path:
    """A case file: the case (what --replay reads) and what happened to it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"case": case.to_dict(), "result": {k: getattr(result, k) for k in
                                                 ("outcome", "seconds", "error_type", "message", "frame", "traceback")}}
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def save_failure(out: Path, case: fuzzing.Case, result: fuzzing.Result) -> Path:
    name = case.name or f"{case.target}-{abs(hash(json.dumps(case.data))) % 10 ** 8}"
    return write_record(out / f"{name}.json", case, result)


def explicit(case: fuzzing.Case) -> fuzzing.Case:
    """A generated case's content, for a case whose generation the worker did not finish."""
    if case.kind != "generate":
        return case
    try:
        d = case.data
        return fuzzing.generate(d["target"], d["seed"], d["index"])
    except Exception:  # noqa: BLE001 - its generation fails: keep the recipe
        return case


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    memory = args.memory_mb * 1024 * 1024
    pending = iter(requests(args.target, args.cases, args.seed))
    workers = [fuzzing.Worker(args.timeout, memory) for _ in range(max(args.jobs, 1))]
    targets: dict[int, str] = {}
    tally = Tally()
    started = time.perf_counter()
    done = 0
    total = (args.cases if args.target != "extremes" else 0) + (len(fuzzing.EXTREMES) if args.target in ("all", "extremes") else 0)
    try:
        busy: dict[int, fuzzing.Worker] = {}
        exhausted = False
        while True:
            for w in workers:  # give every idle worker a case
                if id(w) not in busy and not exhausted:
                    try:
                        target, request = next(pending)
                    except StopIteration:
                        exhausted = True
                        break
                    w.send(request)
                    busy[id(w)] = w
                    targets[id(w)] = target
            if not busy:
                break
            deadline = min(w.started for w in busy.values()) + args.timeout
            ready = wait([w.conn for w in busy.values()], timeout=max(deadline - time.perf_counter(), 0.01))
            finished = []
            for w in list(busy.values()):
                if w.conn in ready:
                    finished.append((w, *w.receive()))
                elif time.perf_counter() - w.started >= args.timeout:
                    finished.append((w, *w.timed_out()))
            for w, case, result in finished:
                del busy[id(w)]
                target = targets.pop(id(w))
                file = None
                if result.bad:
                    case = explicit(case)
                    file = save_failure(out, case, result)
                tally.add(target, case, result, file)
                done += 1
                if args.progress and done % 100 == 0:
                    rate = done / (time.perf_counter() - started)
                    print(f"  {done}/{total} cases, {rate:.1f}/s", file=sys.stderr, flush=True)
    finally:
        for w in workers:
            w.close()
    seconds = time.perf_counter() - started
    print(f"cardrules fuzz: seed {args.seed}, target {args.target}, {done} cases in {seconds:.1f} s "
          f"on {args.jobs} job(s), time limit {args.timeout:g} s, memory cap {args.memory_mb} MB")
    print(tally.report())
    if tally.failed:
        print(f"\nfailing cases written to {out}/ (replay: python benchmarks/fuzz.py --replay FILE [--minimize])")
    return 1 if tally.failed else 0


def replay(args: argparse.Namespace) -> int:
    worker = fuzzing.Worker(args.timeout, args.memory_mb * 1024 * 1024)
    status = 0
    try:
        for name in args.replay:
            record = json.loads(Path(name).read_text(encoding="utf-8"))
            case = explicit(fuzzing.Case.from_dict(record.get("case", record)))
            result = worker.run(case)
            print(f"== {name}\n{case.describe(1000)}\n-> {result.summary()}\n")
            status |= int(result.bad)
            if args.minimize and result.bad:
                small = fuzzing.minimize(case, worker.run, budget=args.budget)
                path = write_record(Path(name).with_suffix(".min.json"), small, worker.run(small))
                print(f"minimized ({path}):\n{small.describe(4000)}\n")
    finally:
        worker.close()
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases to run (with --target all, in total)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--target", default="all", choices=("all",) + fuzzing.TARGETS + ("extremes",))
    parser.add_argument("--timeout", type=float, default=fuzzing.DEFAULT_TIMEOUT,
                        help="seconds a case may take before it counts as slow (default 5)")
    parser.add_argument("--memory-mb", type=int, default=fuzzing.DEFAULT_MEMORY // 2 ** 20,
                        help="address space a worker may use, in MB (default 2048)")
    parser.add_argument("--out", default="fuzz-failures", help="folder for the failing cases (default fuzz-failures/)")
    parser.add_argument("--progress", action="store_true", help="report progress every 100 cases on stderr")
    parser.add_argument("--replay", nargs="+", metavar="FILE", help="run these case files again and show the result")
    parser.add_argument("--minimize", action="store_true", help="with --replay: shrink each failing input")
    parser.add_argument("--budget", type=int, default=400, help="with --minimize: the most runs per case")
    args = parser.parse_args()
    return replay(args) if args.replay else run(args)


if __name__ == "__main__":
    sys.exit(main())
