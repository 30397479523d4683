#!/usr/bin/env python3
"""Writes fuzz_online's seed corpus (tests/fuzz/corpus-online/): request sequences in the format
fuzz_online.cpp decodes (an op byte, then its operands; a chunk is a 2-byte little-endian length
and its bytes). Run it again after changing that format: python3 tests/fuzz/online_seeds.py"""
import json
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus-online")
STEP, WALK, GET, CONSENT, DEMOGRAPHICS, READ, ACTION, ANSWERS, RAW, ADMIN = range(10)


def chunk(text):
    data = text.encode() if isinstance(text, str) else text
    return struct.pack("<H", len(data)) + data


def post(op, body):
    return bytes([op]) + chunk(body)


def raw(method, path, key, value, body, who):
    return bytes([RAW, method]) + chunk(path) + chunk(key) + chunk(value) + chunk(body) + bytes([who])


# Steps take a choice byte each (1: agree, the second option, ...).
pages = bytes([STEP, 1, STEP, 1, STEP])  # consent, demographics, instructions
seeds = {
    "walk-whole-session": bytes([WALK, 1] * 12 + [ADMIN, 1, ADMIN, 0]),
    "decline": bytes([STEP, 0, GET]),
    "consent-bodies": b"".join(post(CONSENT, b) for b in [
        '{"agree": true}', '{"agree": "yes"}', '{"agree": 1}', '{}', '[]', 'null', '{"agree": true, "x": 1}',
        '{"agree": true, "agree": false}', '{"agree": tr', b'{"agree": "\xff"}']),
    "demographics-bodies": bytes([STEP, 1]) + b"".join(post(DEMOGRAPHICS, b) for b in [
        '{"answers": {"age_band": "18-24"}}', '{"answers": {"age_band": "99"}}', '{"answers": {}}',
        '{"answers": {"age_band": 1}}', '{"answers": {"age_band": "18-24", "x": "y"}}', '{"answers": []}']),
    "game-actions": pages + b"".join(post(ACTION, b) for b in [
        '{"action": 0}', '{"action": -1}', '{"action": 1e400}', '{"action": 2.5}', '{"action": "1"}',
        '{"action": 18446744073709551616}', '{"action": null}', '{}']) + bytes([STEP, 3, STEP, 7, GET]),
    "questionnaire-answers": pages + bytes([WALK, 1]) + b"".join(post(ANSWERS, json.dumps(b)) for b in [
        {"answers": {"enjoyment": 50, "fairness": 4}, "item_ms": {"enjoyment": 10, "fairness": 20}, "comment": "ok"},
        {"answers": {"enjoyment": 101, "fairness": 4}},
        {"answers": {"enjoyment": 50, "fairness": 0}},
        {"answers": {"enjoyment": 50}},
        {"answers": {"enjoyment": 50, "fairness": 4}, "item_ms": {"enjoyment": -1}},
        {"answers": {"enjoyment": 50, "fairness": 4}, "comment": "x" * 5000},
        {"answers": {"enjoyment": 50.5, "fairness": 4}}]) + bytes([STEP, 2, STEP, 2]),
    "read-bodies": bytes([STEP, 1, STEP, 1]) + post(READ, "") + post(READ, "{}") + post(READ, '{"x": 1}'),
    "raw-requests": b"".join([
        raw(0, "/api/v1/session", "", "", "", 0), raw(1, "/api/v1/sessions", "participant", "../../etc", "", 3),
        raw(1, "/api/v1/sessions", "participant", "fuzz-1", "", 3), raw(3, "/api/v1/session", "", "", "", 0),
        raw(0, "/api/v1/admin/progress", "", "", "", 1), raw(0, "/api/v1/admin/archive", "", "", "", 0),
        raw(0, "/api/v1/%2e%2e/admin", "", "", "", 1), raw(0, b"/api/\xc3", "", "", "", 1),
        raw(1, "/api/v1/session/consent", "", "", '{"agree": true}', 2)]),
}
os.makedirs(OUT, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("wrote %d seeds to %s" % (len(seeds), OUT))
