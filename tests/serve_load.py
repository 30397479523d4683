#!/usr/bin/env python3
"""Load on ddalab serve (issue 39's load test, by hand; not in CTest): N scripted participants play
whole sessions concurrently through the API, polling as the page does; with --kill the server is
killed with SIGKILL halfway and restarted on the same port, and the participants carry on (a
request cut by the kill is sent again; its answer may then be 409 or 400 when the first one had
been applied). Reports errors, complete sessions (from /admin), the latency of action requests
(pace 0: the AI's pace excluded) and the server's peak RSS and CPU time.

usage: serve_load.py DDALAB SOURCE_DIR [PARTICIPANTS] [--kill]
"""
import http.client
import os
import random
import socket
import sys
import tempfile
import threading
import time

import serve_test as t  # reads DDALAB and SOURCE_DIR from sys.argv too

N = int(sys.argv[3]) if len(sys.argv) > 3 else 50
KILL = "--kill" in sys.argv
t.poll_seconds = None  # as the page does: ask again after the screen's poll_ms
errors = []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Participant:
    def __init__(self, server, k):
        self.server, self.rng, self.cut = server, random.Random(k), False

    def call(self, method, path, body=None, token=None):
        """The request, sent again while the server is down; notes that it was cut."""
        while True:
            try:
                return self.server[0].json(method, path, body, token)
            except (OSError, http.client.HTTPException):
                self.cut = True
                time.sleep(0.1)

    def run(self, done):
        status, created = self.call("POST", "/api/v1/sessions", {})
        token = created["token"]
        for _ in range(20000):
            self.cut = False
            status, screen = self.call("GET", "/api/v1/session", token=token)
            if status != 200:
                errors.append("GET %d" % status)
                continue
            kind = screen["kind"]
            if kind == "complete":
                done.append(token)
                return
            if kind == "game" and screen["waiting"]:
                time.sleep(screen["poll_ms"] / 1000)
                continue
            submission, body = self.body(screen)
            status, reply = self.call("POST", "/api/v1/session/" + submission, body, token)
            if status != 200 and not (self.cut and status in (400, 409)):
                errors.append("POST %s %d %s" % (submission, status, reply))

    def body(self, screen):
        kind, rng = screen["kind"], self.rng
        if kind == "consent":
            return "consent", {"agree": True}
        if kind == "demographics":
            return "demographics", {"answers": {i["key"]: rng.choice(i["options"]) for i in screen["items"]}}
        if kind in ("instructions", "debrief"):
            return "read", {}
        if kind == "game":
            return "action", {"action": rng.choice(screen["board"]["legal"])["action"]}
        return "answers", {"answers": {i["key"]: rng.randint(i["min"], i["max"]) for i in screen["items"]},
                           "item_ms": {i["key"]: 5 for i in screen["items"]}}


def usage(pid):
    with open("/proc/%d/status" % pid) as f:
        rss = [line for line in f if line.startswith("VmHWM")][0].split()[1]
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().split(")")[1].split()
    return int(rss), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    with tempfile.TemporaryDirectory() as folder:
        protocol, _ = t.protocol_file(folder)
        study = os.path.join(folder, "study")
        port = free_port()
        options = ("--creations-per-minute", str(N + 10), "--threads", "2")
        server = [t.Server(protocol, study, *options, port=port)]
        done = []
        start = time.time()
        threads = [threading.Thread(target=Participant(server, k).run, args=(done,)) for k in range(N)]
        for thread in threads:
            thread.start()
        cpu = 0
        if KILL:
            time.sleep(10)
            cpu += usage(server[0].process.pid)[1]
            server[0].kill()
            print("killed with SIGKILL after 10 s: %d complete" % len(done))
            server[0] = t.Server(protocol, study, *options, port=port)
        for thread in threads:
            thread.join()
        wall = time.time() - start
        rss, more = usage(server[0].process.pid)
        status, progress = server[0].json("GET", "/api/v1/admin/progress", token=server[0].secret)
        server[0].stop()
        actions = sorted(d for m, p, d in t.latencies if p == "/api/v1/session/action")
        reads = sorted(d for m, p, d in t.latencies if p == "/api/v1/session")
        print("%d participants, %d complete by the clients, %d complete on disk, %d errors %s, %.1f s" % (
            N, len(done), progress["complete"], len(errors), errors[:3], wall))
        print("POST action n=%d p50 %.1f ms p95 %.1f ms" % (
            len(actions), 1000 * actions[len(actions) // 2], 1000 * actions[int(0.95 * len(actions))]))
        print("GET session n=%d p50 %.1f ms p95 %.1f ms" % (
            len(reads), 1000 * reads[len(reads) // 2], 1000 * reads[int(0.95 * len(reads))]))
        print("server peak RSS %d kB (the last process), CPU %.1f s" % (rss, cpu + more))
        ok = len(done) == N and progress["complete"] == N and not errors and not t.failures
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
