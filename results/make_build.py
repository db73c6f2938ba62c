#!/usr/bin/env python3
"""results/BUILD.md from results/build.jsonl (rows of results/build_time.sh) and the stage and
test times runs of tools/test.sh printed: results/make_build.py [TEST_SH_LOG ...] (by default
every log kept in results/test-sh/, by name, so oldest first: a run's `test.sh:` and ctest
`Test #` lines, `grep -E "Test +#[0-9]+:|^test.sh:" LOG > results/test-sh/DATE-WHAT-COMMIT.log`)."""
import json, pathlib, re, sys

here = pathlib.Path(__file__).parent
rows = [json.loads(l) for l in (here / "build.jsonl").read_text().splitlines() if l.strip()]
out = ["# Build time", "",
       "Made by `results/make_build.py` from `results/build.jsonl`, whose rows `results/build_time.sh` "
       "measures: the CPU time (user + sys) of a clean Release build, `cmake --build build -j2` from an "
       "empty folder with ccache off, warnings as errors and the Python module, as tools/test.sh builds. "
       "The machine has 2 cores and is shared: a build measured while other work ran shows it in the "
       "load average, and CPU time rises with the load too.", "",
       "| commit | what | CMake options | CPU s (user + sys) | vs before issue 26 | wall s | load before / after |",
       "|---|---|---|---:|---:|---:|---|"]
BEFORE = "0a5837a83cc5"  # the tree before issue 26 (the rooms, half the build)
cpu_of = lambda r: r["user_s"] + r["sys_s"]
before = sorted(cpu_of(r) for r in rows if r["commit"] == BEFORE)
base = before[len(before) // 2] if before else cpu_of(rows[0])
for r in rows:
    cpu = cpu_of(r)
    out.append(f"| `{r['commit']}` | {r['label']} | {r.get('options') or 'none'} | {cpu:.0f} | {cpu / base:.2f} | "
               f"{r['real_s']:.0f} | "
               f"{r['load_before'] if r['load_before'] is not None else 'not recorded'} / {r['load_after'] if r['load_after'] is not None else 'not recorded'} |")
out += ["", f"\"vs before issue 26\": the CPU time over the median of the rows of `{BEFORE}` ({base:.0f} CPU s). "
        "Pairs measured one right after the other are the fair comparison; the issue asks for at most 0.55."]
# the ccache rows (results/ccache_clones.sh): a second clone at another path
clones = here / "ccache.jsonl"
if clones.exists():
    crow = [json.loads(l) for l in clones.read_text().splitlines() if l.strip()]
    out += ["", "A fresh clone in another folder after an earlier one, with ccache as tools/test.sh sets it up "
            "(`results/ccache_clones.sh`, rows in `results/ccache.jsonl`): the second clone's build.", "",
            "| commit | build | second clone's build s | ccache hits | misses | load |", "|---|---|---:|---:|---:|---:|"]
    out += [f"| `{r['commit']}` | {r['config']} | {r['second_clone_s']:.0f} | {r['hits']} | {r['misses']} | {r['load']} |"
            for r in crow]
STAGE = r"test.sh: (.+?) took (\d+) s \(total (\d+) s(?:; CPU (\d+) s, ([\d.]+) cores)?\)"
STAGE_SPLIT = r"test.sh: (.+?) took \d+ s \(total \d+ s(?:; CPU \d+ s, [\d.]+ cores)?\)"
logs = sys.argv[1:] or sorted((here / "test-sh").glob("*.log"))  # named DATE-what-COMMIT.log
for log in logs:
    stages = re.findall(STAGE, pathlib.Path(log).read_text())
    if stages:
        cpu = any(c for *_, c, _ in stages)  # the CPU columns, where test.sh printed them
        out += ["", f"Stages of one run of tools/test.sh (`{pathlib.Path(log).name}`):", ""]
        if cpu:
            out += ["CPU s: of the processes the stage waited for (bash's `times`); a build run beside a stage "
                    "counts in the stage that waits for its end, so its cores busy can pass the machine's 2.", "",
                    "| stage | s | CPU s | cores busy |", "|---|---:|---:|---:|"]
            out += [f"| {s} | {t} | {c} | {k} |" for s, t, _, c, k in stages] + [f"| total | {stages[-1][2]} | | |"]
        else:
            out += ["| stage | s |", "|---|---:|"] + [f"| {s} | {t} |" for s, t, *_ in stages]
            out += [f"| total | {stages[-1][2]} |"]
    # the slowest tests of each ctest stage, where the log keeps ctest's lines (the stage line
    # comes after its tests)
    text = pathlib.Path(log).read_text()
    parts = re.split(STAGE_SPLIT, text)
    for body, stage in zip(parts[0::2], parts[1::2]):
        tests = re.findall(r"Test +#\d+: (.+?) \.{3,}.*?\s([\d.]+) sec", body)
        if not tests:
            continue
        tests = sorted(((float(t), n) for n, t in tests), reverse=True)
        out += ["", f"{stage}: {len(tests)} tests, {sum(t for t, _ in tests):.0f} test-seconds (run in parallel: ctest -j as test.sh gives it); "
                "the ten slowest:", "", "| s | test |", "|---:|---|"] + [f"| {t:.1f} | {n} |" for t, n in tests[:10]]
(here / "BUILD.md").write_text("\n".join(out) + "\n")
print((here / "BUILD.md").read_text())
