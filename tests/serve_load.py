#!/usr/bin/env python3
"""Load on ddalab serve (issue 39's load test, by hand; not in CTest): N scripted participants play
whole sessions concurrently through the API; reports errors, complete sessions, the latency of
action requests (pace 0: the AI's pace excluded) and the server's peak RSS and CPU time.

usage: serve_load.py DDALAB SOURCE_DIR [PARTICIPANTS]
"""
import os
import random
import sys
import tempfile
import threading
import time

import serve_test as t  # reads DDALAB and SOURCE_DIR from sys.argv too

N = int(sys.argv[3]) if len(sys.argv) > 3 else 50
t.poll_seconds = None  # as the page does: ask again after the screen's poll_ms


def main():
    with tempfile.TemporaryDirectory() as folder:
        protocol, document = t.protocol_file(folder)
        study = os.path.join(folder, "study")
        server = t.Server(protocol, study, "--creations-per-minute", str(N + 10), "--threads", "2")
        secrets = [c["name"] for c in document["conditions"]]
        done = []

        def participant(k):
            rng = random.Random(k)
            status, created = server.json("POST", "/api/v1/sessions", {})
            for _ in range(5000):
                if t.answer(server, created["token"], rng, secrets)["kind"] == "complete":
                    done.append(k)
                    return

        start = time.time()
        threads = [threading.Thread(target=participant, args=(k,)) for k in range(N)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.time() - start
        pid = server.process.pid
        with open("/proc/%d/status" % pid) as f:
            rss = [line for line in f if line.startswith("VmHWM")][0].split()[1]
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().split(")")[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        server.stop()
        actions = sorted(d for m, p, d in t.latencies if p == "/api/v1/session/action")
        reads = sorted(d for m, p, d in t.latencies if p == "/api/v1/session")
        print("%d participants, %d complete, %d errors, %.1f s wall" % (N, len(done), len(t.failures), wall))
        print("POST action n=%d p50 %.1f ms p95 %.1f ms max %.1f ms" % (
            len(actions), 1000 * actions[len(actions) // 2], 1000 * actions[int(0.95 * len(actions))], 1000 * actions[-1]))
        print("GET session n=%d p50 %.1f ms p95 %.1f ms" % (
            len(reads), 1000 * reads[len(reads) // 2], 1000 * reads[int(0.95 * len(reads))]))
        print("server peak RSS %s kB, CPU %.1f s" % (rss, cpu))
        return 0 if len(done) == N and not t.failures else 1


if __name__ == "__main__":
    sys.exit(main())
