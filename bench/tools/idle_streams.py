#!/usr/bin/env python3
"""Opens many idle widget conversation streams on a running parley and measures what holding them
costs: the server's CPU over an idle window, then how soon a team member's reply reaches the
streams of a taken-over conversation. Prints one Markdown table row. Used by
bench/scenarios/live_streams.sh."""
import argparse
import json
import os
import selectors
import socket
import time
import urllib.request

ORIGIN = "https://shop.example.com"


def address(n):
    return "10.%d.%d.%d" % ((n >> 16) & 255, (n >> 8) & 255, n & 255)


def post(port, path, body, headers):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **headers}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"{}")


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def open_stream(port, conv, visitor, n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(("GET /widget/v1/conversations/%s/events?visitorId=%s HTTP/1.1\r\nHost: bench\r\n"
               "Origin: %s\r\nX-Forwarded-For: %s\r\n\r\n" % (conv, visitor, ORIGIN, address(n))).encode())
    return s


def read_until(socks, text, limit):
    """Reads every socket until each has received `text`; returns the seconds it took."""
    start = time.monotonic()
    sel = selectors.DefaultSelector()
    got = {}
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
        got[s] = b""
    left = set(socks)
    while left and time.monotonic() - start < limit:
        for key, _ in sel.select(timeout=0.5):
            data = key.fileobj.recv(65536)
            got[key.fileobj] += data
            if text in got[key.fileobj] or not data:
                left.discard(key.fileobj)
                sel.unregister(key.fileobj)
    sel.close()
    if left:
        raise SystemExit("%d streams did not get %r" % (len(left), text))
    return time.monotonic() - start


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--agent", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--streams", type=int, default=1000)
    p.add_argument("--idle", type=float, default=30)
    p.add_argument("--label", default="")
    a = p.parse_args()

    conversations = []
    for i in range((a.streams + 2) // 3):
        visitor = "bench-%d" % i
        r = post(a.port, "/widget/v1/agents/%s/messages" % a.agent, {"message": "Hello", "visitorId": visitor},
                 {"Origin": ORIGIN, "X-Forwarded-For": address(100000 + i)})
        conversations.append((r["conversationId"], visitor))
    socks = []
    for n in range(a.streams):
        conv, visitor = conversations[n // 3]
        socks.append(open_stream(a.port, conv, visitor, n))
    if socks:
        read_until(socks, b"event: conversation", 60)
    time.sleep(2)  # let the opening settle

    hz = os.sysconf("SC_CLK_TCK")
    t0, c0 = time.monotonic(), cpu_ticks(a.pid)
    time.sleep(a.idle)
    t1, c1 = time.monotonic(), cpu_ticks(a.pid)
    share = (c1 - c0) / hz / (t1 - t0)

    if not socks:  # the node's own idle cost, for comparison
        print("| %s | 0 | %.2f%% | — | — |" % (a.label, share * 100))
        return
    conv, _ = conversations[0]
    auth = {"Authorization": "Bearer " + a.token}
    post(a.port, "/console/v1/conversations/%s/takeover" % conv, {}, auth)
    for s in socks[:3]:  # what the takeover sent is read and dropped
        s.setblocking(False)
        try:
            while s.recv(65536):
                pass
        except BlockingIOError:
            pass
        s.setblocking(True)
    start = time.monotonic()
    post(a.port, "/console/v1/conversations/%s/reply" % conv, {"message": "Sam here"}, auth)
    read_until(socks[:3], b"Sam here", 30)
    took = time.monotonic() - start
    for s in socks:
        s.close()
    print("| %s | %d | %.2f%% | %.2f µs | %.0f ms |" % (a.label, a.streams, share * 100, share * 1e6 / a.streams,
                                                      took * 1000))


if __name__ == "__main__":
    main()
