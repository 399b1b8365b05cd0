#!/usr/bin/env python3
"""Live sync figures: latency from `recipes add` on store A to the recipe being pulled into
store B, both running `recipes sync --live --json` against one `recipes serve`, and the idle
CPU of a live sync. Usage: .ci/live-sync-figures.py [path/to/recipes] [samples] [idle-seconds]
(default .build/release/recipes, 7 samples, 20 s). Then the server is killed and restarted
on the same port 2 s later, and the time until B has pulled a recipe A added meanwhile is
reported."""
import json, os, re, signal, statistics, subprocess, sys, tempfile, time

binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/recipes")
samples = int(sys.argv[2]) if len(sys.argv) > 2 else 7
idle_seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
work = tempfile.mkdtemp(prefix="live-sync-figures-")
env = {k: v for k, v in os.environ.items() if not k.startswith(("RECIPES_", "XDG_"))}
env.update(HOME=work, XDG_DATA_HOME=work + "/data", XDG_CONFIG_HOME=work + "/config")
with open(work + "/pw", "w") as f:
    f.write("s3cret\n")

def start(args, out):
    return subprocess.Popen([binary] + args, env=env, stdout=open(out, "w"), stderr=open(out + ".err", "w"))

def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return False

def events(path):
    with open(path) as f:
        return [json.loads(line)["event"] for line in f if line.strip()]

def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime

server = start(["serve", "--data-dir", work + "/server", "--port", "0", "--user", "admin", "--password-file", work + "/pw"], work + "/serve.out")
wait_for(lambda: "listening on" in open(work + "/serve.out").read())
port = re.search(r"listening on http://[^:]+:(\d+)", open(work + "/serve.out").read()).group(1)
remote = f"http://admin:s3cret@127.0.0.1:{port}/recipes"
store = lambda name: ["--store", f"{work}/{name}.sqlite", "--no-samples", "--remote", remote]
live = {name: start(["sync", "--live", "--json"] + store(name), f"{work}/{name}.events") for name in ("a", "b")}
for name in live:
    assert wait_for(lambda: "caughtUp" in events(f"{work}/{name}.events")), name

from_start, from_exit = [], []
try:
    for index in range(samples):
        time.sleep(1)  # let both sides settle
        before = events(f"{work}/b.events").count("pulled")
        started = time.monotonic()
        subprocess.run([binary, "add", "--name", f"Latency {index}"] + store("a"), env=env, check=True, capture_output=True)
        exited = time.monotonic()
        assert wait_for(lambda: events(f"{work}/b.events").count("pulled") > before, 20), "B never pulled"
        seen = time.monotonic()
        from_start.append((seen - started) * 1000)
        from_exit.append((seen - exited) * 1000)
    shown = subprocess.run([binary, "show", f"Latency {samples - 1}"] + store("b"), env=env, capture_output=True)
    assert shown.returncode == 0, shown.stderr

    time.sleep(2)
    hz = os.sysconf("SC_CLK_TCK")
    ticks = {name: cpu_ticks(p.pid) for name, p in live.items()}
    server_ticks = cpu_ticks(server.pid)
    time.sleep(idle_seconds)
    idle = {name: (cpu_ticks(p.pid) - ticks[name]) / hz / idle_seconds * 100 for name, p in live.items()}
    server_idle = (cpu_ticks(server.pid) - server_ticks) / hz / idle_seconds * 100

    # The server dies (SIGKILL) and comes back on the same port and data directory 2 s later;
    # a recipe added meanwhile on A must reach B.
    server.kill()
    server.wait()
    before = events(f"{work}/b.events").count("pulled")
    subprocess.run([binary, "add", "--name", "While Offline"] + store("a"), env=env, check=True, capture_output=True)
    time.sleep(2)
    offline = {name: "offline" in events(f"{work}/{name}.events") for name in live}
    server = start(["serve", "--data-dir", work + "/server", "--port", port, "--user", "admin", "--password-file", work + "/pw"], work + "/serve2.out")
    wait_for(lambda: "listening on" in open(work + "/serve2.out").read())
    restarted = time.monotonic()
    assert wait_for(lambda: events(f"{work}/b.events").count("pulled") > before, 60), "B never pulled after the restart"
    catch_up = (time.monotonic() - restarted) * 1000
finally:
    for p in live.values():
        p.send_signal(signal.SIGINT)
    codes = [p.wait(10) for p in live.values()]
    server.send_signal(signal.SIGTERM)
    server.wait(10)

result = {
    "samples": samples,
    "latencyFromAddStartMs": {"median": round(statistics.median(from_start), 1), "min": round(min(from_start), 1), "max": round(max(from_start), 1)},
    "latencyFromAddExitMs": {"median": round(statistics.median(from_exit), 1), "min": round(min(from_exit), 1), "max": round(max(from_exit), 1)},
    "idleSeconds": idle_seconds,
    "idleCPUPercentOfOneCore": {k: round(v, 2) for k, v in idle.items()},
    "serverIdleCPUPercentOfOneCore": round(server_idle, 2),
    "offlineReportedWithin2s": offline,
    "catchUpAfterRestartMs": round(catch_up, 1),
    "sigintExitCodes": codes,
}
print(json.dumps(result, indent=2))
