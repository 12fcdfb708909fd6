#!/usr/bin/env python3
"""What a hostile client does to `agro web` with a handful of requests, one attack at a time.

    Benchmarks/web/attacks.py AGRO_FULL [--catalog FILE] [--only N,...]

Starts AGRO_FULL (`agro-full`; any build, so that two builds are measured in one run) on
loopback for each attack, with a stand-in for OpenWeatherMap on loopback where the attack needs
one, and prints one line per attack: what was sent, what the server did, its CPU seconds and
peak resident memory for the attack, and the p99 of cheap requests (uncached API pages from
another client address) made meanwhile, with how many of them failed. Every request goes to
127.0.0.0/8; the script stops what it starts. Nothing is written into the repository.
"""
import argparse
import http.server
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Upstream:
    """An OpenWeatherMap stand-in: `mode` is "hang" (reads and never answers) or a JSON body."""

    def __init__(self, mode):
        self.mode, self.calls = mode, 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                outer.calls += 1
                if outer.mode == "hang":
                    time.sleep(60)
                    return
                body = json.dumps(outer.mode(self.path)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()


class Server:
    def __init__(self, agro, catalog, web=(), env=None):
        self.port = free_port()
        self.home = tempfile.mkdtemp(prefix="agro-attack-")
        environment = dict(os.environ, AGRO_HOME=ROOT, XDG_DATA_HOME=self.home, XDG_CACHE_HOME=self.home,
                           XDG_CONFIG_HOME=self.home, **(env or {}))
        arguments = [agro] + (["--catalog", catalog] if catalog else []) + ["web", "--host", "127.0.0.1",
                                                                            "--port", str(self.port)] + list(web)
        # The access log goes to a file: a pipe nobody reads fills at 64 KB, and the server's
        # logging then blocks every request (seen after some 320 requests of the weather fuzz).
        self.log = open(os.path.join(self.home, "stderr.log"), "wb")
        self.process = subprocess.Popen(arguments, env=environment, stdout=subprocess.DEVNULL, stderr=self.log)
        for _ in range(300):
            if self.get("/healthz", timeout=1)[0] == 200:
                break
            time.sleep(0.1)
        self.cpu0 = self.cpu()

    def alive(self):
        return self.process.poll() is None

    def cpu(self):
        try:
            fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / TICK
        except OSError:
            return float("nan")

    def peak_mb(self):
        try:
            for line in open(f"/proc/{self.process.pid}/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def connect(self, source="127.0.0.1", timeout=10):
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect(("127.0.0.1", self.port))
        return s

    def request(self, raw, source="127.0.0.1", timeout=10):
        """Sends raw bytes, returns (status, head, seconds); status 0 when refused or cut."""
        started = time.monotonic()
        try:
            s = self.connect(source, timeout)
            s.sendall(raw)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            s.close()
        except OSError:
            return 0, "", time.monotonic() - started
        head = data.split(b"\r\n\r\n")[0].decode("latin-1")
        try:
            status = int(head.split(" ")[1])
        except (IndexError, ValueError):
            status = 0
        return status, head, time.monotonic() - started

    def get(self, path, source="127.0.0.1", timeout=10):
        return self.request(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(), source, timeout)

    def stop(self):
        self.process.kill()
        self.process.wait()


def cheap_meanwhile(server, seconds, source="127.0.0.9"):
    """Uncached API pages from another client for `seconds`: (p99 seconds, failures, count)."""
    times, failures, index = [], 0, 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        index += 1
        status, _, took = server.get(f"/api/v1/products?perPage=5&page={index % 3 + 1}&n={index}", source, timeout=40)
        times.append(took)
        failures += status != 200
        time.sleep(0.05)
    times.sort()
    return (times[min(len(times) - 1, int(len(times) * 0.99))] if times else float("nan")), failures, len(times)


def report(number, name, server, outcome, cheap=None):
    figures = f"cpu {server.cpu() - server.cpu0:.2f} s, peak {server.peak_mb():.0f} MB"
    if cheap:
        figures += f", cheap p99 {cheap[0] * 1000:.0f} ms ({cheap[1]} of {cheap[2]} failed)"
    print(f"{number:>2}. {name}: {outcome}; {figures}{'' if server.alive() else '; SERVER DIED'}", flush=True)


def plan_csv(applications):
    lines = ["culture,sowing,harvest,area,application,date,bbch,product,dose,unit,pests"]
    for n in range(1, applications + 1):
        head = "winter-wheat,2025-09-10,2026-07-28,120" if n == 1 else ",,,"
        lines.append(f"{head},{n},2026-05-20,32,tebuconazole-250-ec,0.5,l/ha,puccinia-striiformis")
    return "\n".join(lines).encode()


def attack_stalled_bodies(agro, catalog):
    server = Server(agro, catalog, ["--workers", "2", "--cache-mb", "0"])
    held = []
    for target in ["/plan", "/api/v1/plan/check"]:
        s = server.connect("127.0.0.2")
        s.sendall(f"POST {target} HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 100000\r\n\r\n".encode())
        held.append(s)
    cheap = cheap_meanwhile(server, 10)
    report(1, "two POST heads, no body, 2 workers", server, "cheap requests meanwhile", cheap)
    server.stop()


def attack_weather_offset(agro, catalog):
    recorded = json.load(open(os.path.join(ROOT, "..", "shared", "fixtures", "owm",
                                           "current_weather_rain_gust_manila_metric.json")))
    recorded["timezone"] = 57600
    upstream = Upstream(lambda path: recorded)
    server = Server(agro, catalog, env={"AGRO_OPENWEATHER_URL": upstream.url, "OPENWEATHER_API_KEY": "attack"})
    status, _, _ = server.get("/weather?at=14.6,120.98")
    outcome = f"weather page {status}"
    time.sleep(0.5)
    if server.alive():
        status, _, _ = server.get("/healthz")
        outcome += f", then /healthz {status}"
    report(2, "UTC offset of 57,600 s from upstream", server, outcome)
    server.stop()
    upstream.stop()


def attack_big_plan(agro, catalog):
    server = Server(agro, catalog)
    body = plan_csv(20000)
    started = time.monotonic()
    status, _, took = server.request(
        b"POST /api/v1/plan/check HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, timeout=120)
    report(3, f"plan of 20,000 applications ({len(body) // 1024} KB)", server, f"{status} in {took:.1f} s")
    server.stop()


def attack_boundary(agro, catalog):
    server = Server(agro, catalog)
    boundary = "b" * 10000
    # Near misses: every delimiter-like run fails at its last byte, the worst case of a naive search.
    miss = ("\r\n--" + "b" * 9999 + "c").encode()
    body = miss * (4 * 1024 * 1024 // len(miss))
    status, _, took = server.request(
        b"POST /plan HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body, timeout=90)
    outcome = f"{status} in {took:.1f} s" if status else f"no answer within {took:.0f} s"
    report(4, "10 KB multipart boundary over 4 MB of near misses", server, outcome)
    server.stop()


def attack_sockets(agro, catalog):
    server = Server(agro, catalog)
    held = []
    for _ in range(1024):
        try:
            held.append(server.connect("127.0.0.2", timeout=2))
        except OSError:
            break
    time.sleep(1)
    refused = sum(server.get("/healthz", "127.0.0.3", timeout=5)[0] != 200 for _ in range(20))
    report(5, f"one client holds {len(held)} sockets", server, f"{refused} of 20 health probes from another client refused")
    for s in held:
        s.close()
    server.stop()


def attack_heads(agro, catalog):
    server = Server(agro, catalog)
    held = []
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 90000
    for index in range(1000):
        try:
            s = server.connect(f"127.0.{index // 200 + 1}.{index % 200 + 2}", timeout=2)
            s.sendall(head)
            held.append(s)
        except OSError:
            pass
    body = plan_csv(500)
    for _ in range(2):
        server.request(b"POST /api/v1/plan/check HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nConnection: close\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body, timeout=60)
    peak = server.peak_mb()
    for s in held:
        s.close()
    time.sleep(2)
    now = 0
    for line in open(f"/proc/{server.process.pid}/status"):
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    report(6, f"{len(held)} unfinished 90 KB heads from 1,000 addresses + two plan checks", server,
           f"peak {peak:.0f} MB, {now:.0f} MB after")
    server.stop()


def attack_stalled_weather(agro, catalog):
    upstream = Upstream("hang")
    server = Server(agro, catalog, ["--workers", "2", "--cache-mb", "0"],
                    env={"AGRO_OPENWEATHER_URL": upstream.url, "OPENWEATHER_API_KEY": "attack"})
    threads = [threading.Thread(target=server.get, args=(f"/api/v1/weather?at={40 + i},70", f"127.0.0.{i + 2}", 30))
               for i in range(2)]
    for thread in threads:
        thread.start()
    cheap = cheap_meanwhile(server, 8)
    for thread in threads:
        thread.join()
    report(7, "two weather requests, upstream stalled, 2 workers", server, f"{upstream.calls} upstream calls", cheap)
    server.stop()
    upstream.stop()


def attack_wrong_answers(agro, catalog):
    server = Server(agro, catalog)
    outcomes = []
    tank = "/api/v1/tank?product=tebuconazole-250-ec&dose=1&area=100&water=1e-300&tank=1e300"
    outcomes.append(f"tank overflow {server.get(tank)[0]}")
    status, head, _ = server.request(b"OPTIONS /api/v1/plan/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    allow = [line for line in head.split("\r\n") if line.lower().startswith("allow:")]
    outcomes.append(f"OPTIONS plan/check {allow[0].split(':', 1)[1].strip() if allow else '-'}")
    outcomes.append("POST /api/v1/nope " + str(server.request(
        b"POST /api/v1/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")[0]))
    outcomes.append("xchunked " + str(server.request(
        b"POST /api/v1/plan/check HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\nConnection: close\r\n\r\n")[0]))
    outcomes.append("no Host " + str(server.request(b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")[0]))
    outcomes.append("two Hosts " + str(server.request(
        b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n")[0]))
    status, head, _ = server.request(b"GET //\\evil.com HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    location = [line for line in head.split("\r\n") if line.lower().startswith("location:")]
    outcomes.append(f"//\\evil.com {status} {location[0].split(':', 1)[1].strip() if location else ''}".strip())
    report(8, "wrong answers", server, "; ".join(outcomes))
    server.stop()


def attack_weather_budget(agro, catalog):
    recorded = json.load(open(os.path.join(ROOT, "..", "shared", "fixtures", "owm",
                                           "current_weather_rain_gust_manila_metric.json")))
    upstream = Upstream(lambda path: recorded)
    server = Server(agro, catalog, env={"AGRO_OPENWEATHER_URL": upstream.url, "OPENWEATHER_API_KEY": "attack"})
    for client in range(3):
        for place in range(40):
            server.get(f"/api/v1/weather?at={10 + place},{10 + client}", f"127.0.0.{client + 2}")
    spent = upstream.calls
    fourth = server.get("/api/v1/weather?at=60,60", "127.0.0.9")[0]
    report(9, "three clients ask 40 places each in a minute", server,
           f"{spent} upstream calls, a fourth client then gets {fourth}")
    server.stop()
    upstream.stop()


ATTACKS = [attack_stalled_bodies, attack_weather_offset, attack_big_plan, attack_boundary, attack_sockets,
           attack_heads, attack_stalled_weather, attack_wrong_answers, attack_weather_budget]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("agro")
    parser.add_argument("--catalog")
    parser.add_argument("--only", help="attack numbers, e.g. 1,3")
    args = parser.parse_args()
    # 1,024 sockets of one client and 1,000 heads: past the usual soft limit of open files.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    only = {int(n) for n in args.only.split(",")} if args.only else None
    print(f"{args.agro}; {os.cpu_count()} cores; load {open('/proc/loadavg').read().split()[0]}", flush=True)
    for number, attack in zip([1, 2, 3, 4, 5, 6, 7, 8, 9], ATTACKS):
        if only and number not in only:
            continue
        try:
            attack(args.agro, args.catalog)
        except Exception as error:  # one attack's failure is its figure, not the end of the run
            print(f"{number:>2}. failed to run: {error}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
