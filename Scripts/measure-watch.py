#!/usr/bin/env python3
# Measures `recipes list --watch` (see the README, "Live fetches"): how long after another
# process adds a recipe it appears, and the idle watcher's CPU use.
# Usage: Scripts/measure-watch.py .build/release/recipes [ADDS]   (IDLE_SECONDS=20 by default)
import random, os, subprocess, sys, tempfile, time, signal, statistics
binary = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
d = tempfile.mkdtemp(prefix="watch-measure-")
store = os.path.join(d, "recipes.sqlite")
env = {k: v for k, v in os.environ.items() if not k.startswith("RECIPES_") and not k.startswith("XDG_")}
env.update(HOME=d, XDG_DATA_HOME=d, XDG_CONFIG_HOME=d)
subprocess.run([binary, "list", "--store", store], env=env, check=True, capture_output=True)  # seeds the samples
out_path = os.path.join(d, "watch.out")
out = open(out_path, "wb")
w = subprocess.Popen([binary, "list", "--watch", "--store", store], env=env, stdout=out, stderr=subprocess.DEVNULL)
def text():
    with open(out_path, "rb") as f: return f.read().decode()
deadline = time.time() + 30
while "Banana" not in text() and time.time() < deadline: time.sleep(0.01)
print("initial list lines:", len(text().splitlines()))
from_start, from_exit, add_ms = [], [], []
for i in range(runs):
    name = f"Latency Probe {i}"
    time.sleep(random.uniform(0.3, 0.6))  # adds land at random points of the poll cycle
    t0 = time.perf_counter()
    subprocess.run([binary, "add", "--name", name, "--store", store], env=env, check=True, capture_output=True)
    t1 = time.perf_counter()
    while name not in text():
        if time.perf_counter() - t0 > 30: raise SystemExit("not seen")
        time.sleep(0.001)
    t2 = time.perf_counter()
    from_start.append((t2 - t0) * 1000); from_exit.append((t2 - t1) * 1000); add_ms.append((t1 - t0) * 1000)
def summary(xs): return f"median {statistics.median(xs):.0f} ms, min {min(xs):.0f}, max {max(xs):.0f}"
print(f"adds: {runs}; add process: {summary(add_ms)}")
print(f"seen after the add process exited: {summary(from_exit)}")
print(f"seen after the add process started: {summary(from_start)}")
time.sleep(2)
tck = os.sysconf("SC_CLK_TCK")
def cpu():
    fields = open(f"/proc/{w.pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
c0, t0 = cpu(), time.perf_counter()
time.sleep(float(os.environ.get("IDLE_SECONDS", "20")))
c1, t1 = cpu(), time.perf_counter()
print(f"idle: {c1 - c0} ticks of 1/{tck} s in {t1 - t0:.1f} s = {100.0 * (c1 - c0) / tck / (t1 - t0):.2f}% of one core")
w.send_signal(signal.SIGINT)
print("exit status after SIGINT:", w.wait(timeout=10))
print("lists drawn:", text().count("\n---\n") + 1)
