#!/usr/bin/env python3
"""results/BUILD.md from results/build.jsonl (rows of results/build_time.sh) and the CI stage
times a run of tools/test.sh printed, if given: results/make_build.py [TEST_SH_LOG ...]."""
import json, pathlib, re, sys

here = pathlib.Path(__file__).parent
rows = [json.loads(l) for l in (here / "build.jsonl").read_text().splitlines() if l.strip()]
out = ["# Build time", "",
       "Made by `results/make_build.py` from `results/build.jsonl`, whose rows `results/build_time.sh` "
       "measures: the CPU time (user + sys) of a clean Release build, `cmake --build build -j2` from an "
       "empty folder with ccache off, warnings as errors and the Python module, as tools/test.sh builds. "
       "The machine has 2 cores and is shared: a build measured while other work ran shows it in the "
       "load average, and CPU time rises with the load too.", "",
       "| commit | what | CPU s (user + sys) | vs first | wall s | load before / after |",
       "|---|---|---:|---:|---:|---|"]
base = rows[0]["user_s"] + rows[0]["sys_s"] if rows else 0
for r in rows:
    cpu = r["user_s"] + r["sys_s"]
    out.append(f"| `{r['commit']}` | {r['label']} | {cpu:.0f} | {cpu / base:.2f} | {r['real_s']:.0f} | "
               f"{r['load_before'] if r['load_before'] is not None else 'not recorded'} / {r['load_after'] if r['load_after'] is not None else 'not recorded'} |")
for log in sys.argv[1:]:
    stages = re.findall(r"test.sh: (.+?) took (\d+) s \(total (\d+) s\)", pathlib.Path(log).read_text())
    if stages:
        out += ["", f"Stages of one run of tools/test.sh (`{pathlib.Path(log).name}`):", "",
                "| stage | s |", "|---|---:|"] + [f"| {s} | {t} |" for s, t, _ in stages] + \
               [f"| total | {stages[-1][2]} |"]
(here / "BUILD.md").write_text("\n".join(out) + "\n")
print((here / "BUILD.md").read_text())
