"""Counts the client-library test results that run.sh wrote.

    summarize.py RESULTS_DIR EXCLUDED_FILE LIBRARY...

RESULTS_DIR holds target-LIBRARY.xml and, optionally, reference-LIBRARY.xml (pytest's JUnit
XML). EXCLUDED_FILE lists tests left out of the ratio, one per line as
`LIBRARY TEST_ID CATEGORY`, where CATEGORY is `javascript` (needs a JavaScript design function,
which recipes serve answers 501) or `replication` (needs server-side replication).
"""

import os
import sys
import xml.etree.ElementTree as ElementTree


def outcomes(path):
    """Maps each test ID in a JUnit XML file to passed, failed or skipped."""
    if not os.path.exists(path):
        return None
    result = {}
    for case in ElementTree.parse(path).iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        tags = {child.tag for child in case}
        if "failure" in tags or "error" in tags:
            outcome = "failed"
        elif "skipped" in tags:
            outcome = "skipped"
        else:
            outcome = "passed"
        # A test whose setup passed but teardown errored appears twice: failed wins.
        if result.get(test_id) != "failed":
            result[test_id] = outcome
    return result


def excluded_tests(path):
    """Reads EXCLUDED_FILE into {library: {test_id: category}}."""
    table = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            library, test_id, category = line.split()
            table.setdefault(library, {})[test_id] = category
    return table


def main():
    results, excluded_path, libraries = sys.argv[1], sys.argv[2], sys.argv[3:]
    excluded = excluded_tests(excluded_path)
    in_scope_total = passing_total = 0
    have_reference = True
    for library in libraries:
        target = outcomes(os.path.join(results, f"target-{library}.xml")) or {}
        reference = outcomes(os.path.join(results, f"reference-{library}.xml"))
        passed = sum(1 for outcome in target.values() if outcome == "passed")
        failed = sum(1 for outcome in target.values() if outcome == "failed")
        line = f"{library}: target {passed} passed, {failed} failed"
        if reference is None:
            have_reference = False
            print(line)
            continue
        skipped_here = excluded.get(library, {})
        reference_passing = {test for test, outcome in reference.items() if outcome == "passed"}
        in_scope = {test for test in reference_passing if test not in skipped_here}
        passing = {test for test in in_scope if target.get(test) == "passed"}
        by_category = {}
        for test in reference_passing - in_scope:
            by_category[skipped_here[test]] = by_category.get(skipped_here[test], 0) + 1
        left_out = ", ".join(f"{count} {name}" for name, count in sorted(by_category.items())) or "none"
        print(f"{line}; reference {len(reference_passing)} passed ({left_out} left out); "
              f"{len(passing)} of {len(in_scope)} in scope pass on target")
        for test in sorted(in_scope - passing):
            print(f"    fails on target: {test} ({target.get(test, 'not run')})")
        in_scope_total += len(in_scope)
        passing_total += len(passing)
    if have_reference and in_scope_total:
        print(f"overall: {passing_total} of {in_scope_total} ({100 * passing_total / in_scope_total:.1f}%)")


if __name__ == "__main__":
    main()
