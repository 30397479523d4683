#!/usr/bin/env python3
"""Load on ddalab serve (CTest serve_load): N scripted participants play whole sessions
concurrently through the JSON API, each over one keep-alive connection as a browser holds one
(--close: a new connection per request), polling as the page does (the screen's poll_ms). With
--kill the server is killed with SIGKILL when half the participants have answered their first
questionnaire, and restarted on the same port; the participants carry on (a request cut by the
kill is sent again; its answer may then be 409 or 400 when the first copy had been applied).

Checks: no error, every session complete (by the clients, by /admin and on disk), every action
the server acknowledged is in the session's game file (nothing lost by the kill), `ddalab study
analyze` of the folder. Prints the latency of action requests measured by the clients and by the
server itself (/admin's "latency"; pace 0: the AI's pace excluded), the server's peak RSS and CPU.

The protocol: the shipped Lost Cities protocol with 1 game per condition, hand 5, an AI at level 5
and games capped at --rounds rounds (a short game, still a whole session).

With --slow-clients N the participants play session after session while N slow clients from
another address (127.0.0.2) each send a header line or a body byte every 2 s: a window without
them, the attack (at most 50 s), a window without them again. Checks besides: the server
answers the attacker's connections over its per-address limit 503 at once, cuts the ones it took
at the read deadline, and the participants' p95 latency during the attack stays within 2x the
larger p95 of the windows without it (70 such clients held all 64 request threads: every
participant waited).

Every participant connects from an address of its own (127.1.x.y: loopback, to 127.0.0.1), as
real participants do: the server limits the connections one address may have open.

usage: serve_load.py DDALAB SOURCE_DIR [--participants N] [--rounds R] [--kill] [--close]
                     [--threads T] [--slow-clients N]
exit 0: passed, 1: failed, 77: skipped (no /proc to read the server's RSS and CPU from)
"""
import argparse
import asyncio
import hashlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import serve_test as t  # reads DDALAB and SOURCE_DIR from sys.argv[1:3]

parser = argparse.ArgumentParser()
parser.add_argument("ddalab")
parser.add_argument("source")
parser.add_argument("--participants", type=int, default=200)
parser.add_argument("--rounds", type=int, default=8, help="Lost Cities' max_rounds")
parser.add_argument("--kill", action="store_true")
parser.add_argument("--close", action="store_true", help="a new connection per request")
parser.add_argument("--threads", type=int, default=2, help="the server's --threads (AI decisions)")
parser.add_argument("--keep", help="copy the study folder here at the end")
parser.add_argument("--slow-clients", type=int, default=0,
                    help="slow clients in the attack phase (participants play session after session)")
ARGS = parser.parse_args()

errors = []
client_ms = {}  # "METHOD path" -> the durations the clients measured, in ms
acknowledged = {}  # participant -> {game index: [actions answered 200]}
cut_actions = {}  # participant -> {game index: action requests cut by the kill}
answered_first = [0]  # participants past their first questionnaire
timeline = []  # (start, ms) of every participant's GET session and POST action
servers_started = [1]  # a screen read from a server the kill ended may be stale on the next one


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Connection:
    """HTTP/1.1 to the server, kept alive between requests unless --close (or the server closes
    it); a request the connection loses is sent again on a new one, and noted as cut."""

    def __init__(self, port, source):
        self.port, self.source, self.streams, self.cut = port, source, None, False

    async def request(self, method, path, body=None, token=None):
        data = b"" if body is None else json.dumps(body).encode()
        head = "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n" % (method, path, len(data))
        if token:
            head += "Authorization: Bearer %s\r\n" % token
        if ARGS.close:
            head += "Connection: close\r\n"
        message = (head + "\r\n").encode() + data
        while True:
            try:
                if self.streams is None:
                    self.streams = await asyncio.open_connection("127.0.0.1", self.port,
                                                                 local_addr=(self.source, 0))
                start = time.perf_counter()
                status, text, close = await self.exchange(message)
                ms = 1000 * (time.perf_counter() - start)
                endpoint = method + " " + path.split("?")[0]
                client_ms.setdefault(endpoint, []).append(ms)
                if endpoint in ("GET /api/v1/session", "POST /api/v1/session/action"):
                    timeline.append((start, ms))
                if close:
                    self.drop()
                return status, json.loads(text) if text else None
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.drop()
                self.cut = True
                await asyncio.sleep(0.1)

    async def exchange(self, message):
        reader, writer = self.streams
        writer.write(message)
        await writer.drain()
        first = await reader.readline()
        if not first:
            raise ConnectionResetError("closed before the answer")
        status = int(first.split()[1])
        length, close = 0, False
        while True:
            line = (await reader.readline()).decode("latin-1").strip().lower()
            if not line:
                break
            key, _, value = line.partition(":")
            if key == "content-length":
                length = int(value)
            elif key == "connection" and "close" in value:
                close = True
        return status, await reader.readexactly(length), close

    def drop(self):
        if self.streams:
            self.streams[1].close()
        self.streams = None


def body(screen, rng):
    kind = screen["kind"]
    if kind == "consent":
        return "consent", {"agree": True}
    if kind == "demographics":
        return "demographics", {"answers": {i["key"]: rng.choice(i["options"]) for i in screen["items"]}}
    if kind in ("instructions", "debrief"):
        return "read", {}
    if kind == "game":
        return "action", {"action": rng.choice(screen["board"]["legal"])["action"]}
    return "answers", {"answers": {i["key"]: rng.randint(i["min"], i["max"]) for i in screen["items"]},
                       "item_ms": {i["key"]: 5 for i in screen["items"]}, "comment": ""}


def source_address(k):
    """Participant k's own loopback address (127.0.0.x is left to the slow clients)."""
    return "127.1.%d.%d" % (k // 250, k % 250 + 1)


async def participant(k, port, done, name=None):
    """One whole session; returns when it is complete (or after far too many screens)."""
    name = name or "load-%d" % k
    rng, connection = random.Random(name), Connection(port, source_address(k))
    acks, cuts = acknowledged.setdefault(name, {}), cut_actions.setdefault(name, {})
    status, created = await connection.request("POST", "/api/v1/sessions?PROLIFIC_PID=" + name, {})
    if status not in (200, 201):
        errors.append("%s: POST sessions %d" % (name, status))
        return
    token = created["token"]
    for _ in range(20000):
        connection.cut = False
        server = servers_started[0]
        status, screen = await connection.request("GET", "/api/v1/session", token=token)
        if status != 200:
            errors.append("%s: GET session %d %s" % (name, status, screen))
            continue
        kind = screen["kind"]
        if kind == "complete":
            done.append(name)
            return
        if kind == "game" and screen["waiting"]:
            await asyncio.sleep(screen["poll_ms"] / 1000)
            continue
        submission, sent = body(screen, rng)
        game = int(screen["label"].split()[1]) - 1 if kind == "game" else None
        status, reply = await connection.request("POST", "/api/v1/session/" + submission, sent, token)
        connection.cut |= servers_started[0] != server  # the screen came from the killed server
        if kind == "game" and connection.cut:
            cuts[game] = cuts.get(game, 0) + 1
        if status == 200:
            if kind == "game":
                acks.setdefault(game, []).append(sent["action"])
            if kind == "questionnaire" and screen["label"].startswith("Game 1 "):
                answered_first[0] += 1
        elif not (connection.cut and status in (400, 409)):
            errors.append("%s: POST %s %d %s" % (name, submission, status, reply))
    errors.append("%s: not complete after 20000 screens" % name)


def usage(pid):
    """The process's peak RSS in kB and its CPU seconds so far."""
    with open("/proc/%d/status" % pid) as f:
        rss = [line for line in f if line.startswith("VmHWM")][0].split()[1]
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().split(")")[1].split()
    return int(rss), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_latency(server):
    """/admin's progress JSON (it reads every session folder: slow under load, so not on the
    participants' event loop and with a long timeout)."""
    request = urllib.request.Request(server.base + "/api/v1/admin/progress")
    request.add_header("Authorization", "Bearer " + server.secret)
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        progress = json.loads(response.read())
    print("  /admin's progress took %.1f s" % (time.perf_counter() - start))
    return progress


def nothing_lost(study):
    """Every action the server acknowledged is in its game file, in order; the file holds at most
    the cut requests' actions more."""
    lost = []
    for name, games in acknowledged.items():
        folder = os.path.join(study, "web-" + hashlib.sha256(name.encode()).hexdigest()[:20])
        for game, acks in games.items():
            path = os.path.join(folder, "game-%02d.json" % (game + 1))
            if not os.path.exists(path):
                lost.append("%s: no %s" % (name, path))
                continue
            with open(path) as f:
                recorded = [d["action"] for d in json.load(f).get("decisions", [])]
            it = iter(recorded)
            kept = all(a in it for a in acks)  # acks is a subsequence of recorded
            extra = len(recorded) - len(acks)
            if not kept or extra < 0 or extra > cut_actions[name].get(game, 0):
                lost.append("%s game %d: acknowledged %s, recorded %s" % (name, game + 1, acks, recorded))
    return lost


def percentile(values, q):
    values = sorted(values)
    return values[max(0, min(len(values) - 1, int(q * len(values) + 0.999999) - 1))] if values else 0


def report_latency(what, summary):
    for endpoint in ("POST /api/v1/session/action", "GET /api/v1/session", "connection wait for a thread"):
        if endpoint in summary:
            s = summary[endpoint]
            print("  server-side, %s: %s n=%d p50 %.1f ms p95 %.1f ms max %.1f ms" % (
                what, endpoint, s["count"], s["p50_ms"], s["p95_ms"], s["max_ms"]))


async def load(protocol, study, port):
    options = ("--creations-per-minute", str(ARGS.participants + 10), "--threads", str(ARGS.threads))
    server = t.Server(protocol, study, *options, port=port)
    done, rss, cpu, killed_at = [], 0, 0.0, None
    start = time.time()
    tasks = [asyncio.create_task(participant(k, port, done)) for k in range(ARGS.participants)]
    if ARGS.kill:
        while answered_first[0] < ARGS.participants // 2 and not all(task.done() for task in tasks):
            await asyncio.sleep(0.05)
        before = await asyncio.to_thread(server_latency, server)
        rss, cpu = usage(server.process.pid)
        server.kill()
        servers_started[0] += 1
        killed_at = time.time() - start
        print("killed with SIGKILL after %.1f s (%d past their first questionnaire, %d complete)" % (
            killed_at, answered_first[0], len(done)))
        report_latency("before the kill", before.get("latency", {}))
        server = await asyncio.to_thread(t.Server, protocol, study, *options, port=port)
    await asyncio.gather(*tasks)
    wall = time.time() - start
    more_rss, more_cpu = usage(server.process.pid)
    progress = server_latency(server)
    printed = server.stop()
    return done, progress, printed, max(rss, more_rss), cpu + more_cpu, wall


class SlowClients:
    """N connections from 127.0.0.2, each sending a header line (even ones) or a body byte (odd
    ones) every 2 s; a connection the server ends is opened again at the next tick."""

    def __init__(self, port, n):
        self.refused, self.cut, self.stopping = 0, 0, False
        self.tasks = [asyncio.create_task(self.client(port, k)) for k in range(n)]

    async def client(self, port, k):
        body = k % 2 == 1
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            except OSError:
                await asyncio.sleep(2)
                continue
            writer.write(b"POST /api/v1/session/action HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                         (b"Content-Length: 4000\r\n\r\n" if body else b""))
            while not self.stopping:
                try:
                    answer = await asyncio.wait_for(reader.read(4096), 2)
                except asyncio.TimeoutError:  # the server is still reading: a little more
                    writer.write(b"1" if body else b"X-Slow: 1\r\n")
                    continue
                except OSError:
                    answer = b""
                if answer.startswith(b"HTTP/1.1 503"):
                    self.refused += 1
                else:
                    self.cut += 1
                break
            writer.close()
            await asyncio.sleep(2)

    async def stop(self):
        self.stopping = True
        await asyncio.gather(*self.tasks, return_exceptions=True)


def p95_between(start, end):
    values = [ms for t, ms in timeline if start <= t < end]
    return percentile(values, 0.95), len(values)


async def slow_clients(protocol, study, port):
    """Participants play session after session through three windows: without slow clients,
    with ARGS.slow_clients of them, without them again."""
    # Each participant's address starts a session after each one it ends, faster than any
    # per-minute limit on a quick machine: the creation limit is not what this phase measures.
    options = ("--creations-per-minute", "100000", "--threads", str(ARGS.threads))
    server = t.Server(protocol, study, *options, port=port)
    done, playing, start = [], [True], time.time()

    async def player(k):
        for j in range(1000):
            if not playing[0]:
                return
            await participant(k, port, done, "load-%d-%d" % (k, j))

    players = [asyncio.create_task(player(k)) for k in range(ARGS.participants)]
    while len(acknowledged) < ARGS.participants:  # every player has started a session
        await asyncio.sleep(0.05)
    windows = {}
    begin = time.perf_counter()
    await asyncio.sleep(10)
    windows["before"] = (begin, time.perf_counter())
    attack = SlowClients(port, ARGS.slow_clients)
    limit = 16  # the server's default --connections-per-address
    begin = time.perf_counter()
    while attack.refused < ARGS.slow_clients - limit and time.perf_counter() - begin < 15:
        await asyncio.sleep(0.05)  # the first connections taken, the others refused at once
    t.check(attack.refused >= ARGS.slow_clients - limit,
            "slow clients over the per-address limit refused at once: %d" % attack.refused)
    await asyncio.sleep(15)
    while attack.cut == 0 and time.perf_counter() - begin < 45:  # the deadline ends the ones taken
        await asyncio.sleep(0.05)
    windows["during"] = (begin, time.perf_counter())
    await attack.stop()
    print("slow clients: %d connections refused at once (503), %d cut at the read deadline, for %.1f s" % (
        attack.refused, attack.cut, windows["during"][1] - begin))
    t.check(attack.cut > 0, "slow clients cut at the read deadline")
    begin = time.perf_counter()
    await asyncio.sleep(10)
    windows["after"] = (begin, time.perf_counter())
    playing[0] = False
    await asyncio.gather(*players)
    p95 = {name: p95_between(*window) for name, window in windows.items()}
    for name, (value, n) in p95.items():
        print("  participants' requests %s the slow clients: n=%d p95 %.1f ms" % (name, n, value))
    baseline = max(p95["before"][0], p95["after"][0])
    # Within 2x, or 50 ms over, whichever is larger: a p95 of a few milliseconds doubles with the
    # machine's other load alone, while the attack without the limits held requests for 46 s.
    t.check(p95["during"][0] <= max(2 * baseline, baseline + 50),
            "the participants' p95 during the slow clients within 2x (or +50 ms) its value without them: %.1f ms, %.1f ms" % (
                p95["during"][0], baseline))
    wall = time.time() - start
    rss, cpu = usage(server.process.pid)
    progress = server_latency(server)
    printed = server.stop()
    return done, progress, printed, rss, cpu, wall


def main():
    if not os.path.exists("/proc/self/stat"):
        print("skipped: no /proc to read the server's RSS and CPU from")
        return 77
    with tempfile.TemporaryDirectory() as folder:
        protocol, document = t.protocol_file(folder)
        document["game"]["params"] = {"hand_size": 5, "max_rounds": ARGS.rounds}
        with open(protocol, "w") as f:
            json.dump(document, f)
        study = os.path.join(folder, "study")
        run = slow_clients if ARGS.slow_clients else load
        done, progress, printed, rss, cpu, wall = asyncio.run(run(protocol, study, free_port()))
        n = len(acknowledged)  # the sessions started
        print("%d participants%s: %d complete by the clients, %d on disk (/admin), %d dropped out, "
              "%d errors %s, %.1f s" % (n, " (server killed mid-load)" if ARGS.kill else "", len(done),
                                       progress.get("complete", -1), progress.get("dropped_out", -1),
                                       len(errors), errors[:3], wall))
        t.check(len(done) == n and progress.get("complete") == n and progress.get("dropped_out") == 0,
                "every session complete")
        t.check(not errors, "no error")
        lost = nothing_lost(study)
        t.check(not lost, "every acknowledged action kept: %s" % lost[:3])
        for endpoint in ("POST /api/v1/session/action", "GET /api/v1/session"):
            values = client_ms.get(endpoint, [])
            print("  client-side: %s n=%d p50 %.1f ms p95 %.1f ms max %.1f ms" % (
                endpoint, len(values), percentile(values, 0.5), percentile(values, 0.95), max(values or [0])))
        report_latency("after the restart" if ARGS.kill else "whole run", progress.get("latency", {}))
        print("  server: peak RSS %.0f MB, CPU %.1f s over %.1f s (%.0f %% of one core)" % (
            rss / 1024, cpu, wall, 100 * cpu / wall))
        t.check("ddalab serve: latency POST /api/v1/session/action" in printed,
                "the latency lines at shutdown: " + printed[-300:])
        result = subprocess.run([t.DDALAB, "study", "analyze", study, "--out", os.path.join(folder, "analysis")],
                                capture_output=True, text=True)
        t.check(result.returncode == 0, "study analyze: %s" % result.stderr[-500:])
        t.check("%d complete" % n in result.stdout, "analyze reads every session: " + result.stdout[:300])
        if ARGS.keep:
            shutil.copytree(study, ARGS.keep, dirs_exist_ok=True)
    print("%d failures" % len(t.failures))
    return 1 if t.failures else 0


if __name__ == "__main__":
    sys.exit(main())
