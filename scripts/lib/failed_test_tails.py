#!/usr/bin/env python3
"""failed_test_tails.py LAST_TEST_LOG LAST_TESTS_FAILED N: the last N output lines of each failed ctest test.

ctest's LastTest.log holds every test's output between "Output:" and "<end of output>"; LastTestsFailed.log
lists the failed ones as "number:name". Used by scripts/test so that the reason of a failure is at the end of
the log, where CI's excerpt of it is.
"""
import sys


def main() -> int:
    log_path, failed_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    failed = [line.split(":", 1)[1].strip() for line in open(failed_path, errors="replace") if ":" in line]
    outputs, name, lines, inside = {}, None, [], False
    for line in open(log_path, errors="replace"):
        line = line.rstrip("\n")
        if " Test: " in line and "/" in line.split(" Test: ")[0]:
            name = line.split(" Test: ", 1)[1].strip()
        elif line == "Output:":
            inside, lines = True, []
        elif line == "<end of output>":
            inside = False
            if name:
                outputs[name] = lines
        elif inside and not set(line) <= {"-"}:
            lines.append(line)
    for test in failed:
        print(f"---- the last lines of failed test {test} ----")
        for line in outputs.get(test, ["(no output recorded in LastTest.log)"])[-n:]:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
