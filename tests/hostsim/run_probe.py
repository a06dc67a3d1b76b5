#!/usr/bin/env python3
"""Runs a probe built against hostsim and judges it (ctest driver).

--expect pass:   the probe's JSON verdict is `pass` and hostsim found nothing (no "hostsim: " line).
--expect caught: a mutant: the verdict is not `pass`, or hostsim reported something; with --reason, the
                 probe's output must also match that regular expression (caught for the right reason).
"""
import argparse
import json
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", choices=["pass", "caught"], required=True)
    ap.add_argument("--reason", default="")
    ap.add_argument("--level", default="quick")
    ap.add_argument("--timeout", type=float, default=280)
    ap.add_argument("probe")
    a = ap.parse_args()
    t0 = time.monotonic()
    try:
        p = subprocess.run([a.probe, "--level", a.level, "--json"], capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        print(f"{a.probe}: still running after {a.timeout:.0f} s")
        return 1
    took = time.monotonic() - t0
    found = [l for l in p.stderr.splitlines() if l.startswith("hostsim: ")]
    try:
        result = json.loads(p.stdout)
        status, summary = result.get("status"), result.get("summary", "")
    except ValueError:
        status, summary = None, "no JSON result (exit %d)" % p.returncode
    print(f"probe {a.probe} --level {a.level}: status {status}, exit {p.returncode}, {took:.1f} s")
    print(f"summary: {summary}")
    for l in found[:10]:
        print(l)
    if a.expect == "pass":
        ok = p.returncode == 0 and status == "pass" and not found
        if not ok:
            print(p.stdout[-4000:])
            print(p.stderr[-4000:])
        return 0 if ok else 1
    caught = status != "pass" or bool(found) or p.returncode != 0
    if not caught:
        print("MUTANT NOT CAUGHT: the probe passed and hostsim found nothing")
        return 1
    if a.reason and not re.search(a.reason, p.stdout + "\n" + p.stderr):
        print(f"caught, but not for the expected reason /{a.reason}/:")
        print(p.stdout[-3000:])
        return 1
    print(f"caught ({'reason /' + a.reason + '/' if a.reason else 'verdict ' + str(status)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
