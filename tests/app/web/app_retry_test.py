#!/usr/bin/env python3
"""The participant's page (app/web/static/app.js) sends a request again when the server answers
503 (it applied nothing: it cannot record right now, or the address has too many connections
open), instead of showing "Not accepted" and dropping the participant's move. app.js runs in Node
with a stand-in for the DOM and for fetch: the session's creation, the first screen and the
consent are each answered 503 once, then as usual.

usage: app_retry_test.py STATIC_DIR
exit 0: passed, 1: failed, 77: skipped (no node)
"""
import os
import shutil
import subprocess
import sys
import tempfile

HARNESS = r"""
const elements = [];
function element(tag) {
  const node = {
    tag, textContent: "", children: [], listeners: {},
    setAttribute() {}, append(...c) { this.children.push(...c); },
    replaceChildren(...c) { this.children = c; }, addEventListener(type, f) { this.listeners[type] = f; },
  };
  elements.push(node);
  return node;
}
const statusLine = element("p");
const statuses = [];
globalThis.document = {
  getElementById: (id) => (id === "status" ? statusLine : element("div")),
  createElement: element, createElementNS: (ns, tag) => element(tag),
  createTextNode: (text) => ({ text }),
};
const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v),
                            removeItem: (k) => store.delete(k) };
globalThis.window = { location: { search: "" } };
const requests = [];
const refusedOnce = new Set();
const answers = {
  "POST api/v1/sessions": [201, { token: "t".repeat(64), resumed: false }],
  "GET api/v1/session": null,
  "POST api/v1/session/consent": [200, { ok: true }],
};
let consented = false;
globalThis.fetch = async (url, options) => {
  const key = `${options.method} ${url}`;
  requests.push(key);
  statuses.push(statusLine.textContent);
  const reply = (status, body) => ({
    status, ok: status < 400, headers: { get: (h) => (h === "Retry-After" ? "0" : null) },
    json: async () => body,
  });
  if (!refusedOnce.has(key)) {
    refusedOnce.add(key);
    return reply(503, { error: "the study cannot record right now", path: "" });
  }
  if (key === "GET api/v1/session")
    return reply(200, consented ? { kind: "complete" }
                                : { kind: "consent", text: "Text", agree: "AGREE", decline: "NO" });
  if (key === "POST api/v1/session/consent") consented = true;
  return reply(...answers[key]);
};
await import(process.argv[2]);
const until = async (what, condition) => {
  for (let i = 0; i < 200 && !condition(); ++i) await new Promise((r) => setTimeout(r, 25));
  if (!condition()) { console.log(`FAIL: ${what}; requests ${JSON.stringify(requests)}`); process.exit(1); }
};
await until("the consent drawn", () => elements.some((e) => e.children.includes("AGREE")));
elements.find((e) => e.children.includes("AGREE")).listeners.click();
await until("the completion", () => requests.filter((r) => r === "GET api/v1/session").length === 3);
const expected = ["POST api/v1/sessions", "POST api/v1/sessions", "GET api/v1/session",
                  "GET api/v1/session", "POST api/v1/session/consent", "POST api/v1/session/consent",
                  "GET api/v1/session"];
const failures = [];
if (JSON.stringify(requests) !== JSON.stringify(expected))
  failures.push(`each refused request sent again: ${JSON.stringify(requests)}`);
if (statuses.some((s) => s.startsWith("Not accepted")) || statusLine.textContent.startsWith("Not accepted"))
  failures.push(`a 503 shown as not accepted: ${JSON.stringify(statuses)}`);
if (!statuses.some((s) => s.startsWith("The study cannot record right now")))
  failures.push(`the participant told it is trying again: ${JSON.stringify(statuses)}`);
for (const f of failures) console.log(`FAIL: ${f}`);
console.log(`${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
"""


def main():
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        print("skipped: no node")
        return 77
    static = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        for name in ("app.js", "boards.js"):
            shutil.copy(os.path.join(static, name), folder)
        with open(os.path.join(folder, "package.json"), "w") as f:
            f.write('{"type": "module"}\n')
        harness = os.path.join(folder, "harness.mjs")
        with open(harness, "w") as f:
            f.write(HARNESS)
        result = subprocess.run([node, harness, "file://" + os.path.join(folder, "app.js")],
                                capture_output=True, text=True, timeout=60)
        print(result.stdout + result.stderr)
        return result.returncode


if __name__ == "__main__":
    sys.exit(main())
