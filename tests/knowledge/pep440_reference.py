#!/usr/bin/env python3
"""Writes the PEP 440 reference table: what packaging (the library pip vendors) answers for a generated set
of versions and specifiers. tests/knowledge/pep440_reference_test.cpp compares src/knowledge/pep440 with it.

  python3 tests/knowledge/pep440_reference.py > tests/knowledge/data/pep440_reference.tsv   (packaging >= 22)
  python3 tests/knowledge/pep440_reference.py --packaging-version

Lines, tab-separated ('!' marks text packaging rejects):
  packaging <version>
  V <text> <normalised | !> <rank in PEP 440 order, equal versions share one> <is_prerelease 0|1>
  S <text> <normalised | !> <prereleases named 0|1>
  C <version> <specifier set> <contains(v)> <contains(v, prereleases=True)>   (0|1 each)
"""
import itertools
import sys

try:  # the standalone distribution first, else the copy pip vendors
    import packaging
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version
except ImportError:
    from pip._vendor import packaging
    from pip._vendor.packaging.specifiers import InvalidSpecifier, SpecifierSet
    from pip._vendor.packaging.version import InvalidVersion, Version

# Versions: every segment kind, spellings packaging normalises, and orderings that are easy to get wrong.
VERSIONS = [
    "0", "0.0", "0.9", "0.9.9", "1", "1.0", "1.0.0", "1.0.0.0", "1.0.1", "1.1", "1.1.0", "1.2", "1.9", "1.10",
    "2.0", "2.0.1", "2.1", "2.1.0", "2.2", "3.0", "10.0",
    "1.0.dev0", "1.0.dev1", "1.0a1", "1.0a1.dev1", "1.0a2", "1.0b1", "1.0rc1", "1.0rc1.post1", "1.0rc2",
    "1.0.post1", "1.0.post1.dev1", "1.0.post2", "1.0.1rc1", "1.1a1", "1.1.dev1", "2.0rc1", "2.0.post1",
    "2.1.0rc1", "2.1.0.dev1", "2.2.0.dev1", "3.0rc1", "3.0a0",
    "1.0+local", "1.0+local.1", "1.0+1", "1.0+abc.5", "1.0.post1+x", "2.1.2+cu121", "2.1.2", "1.0rc1+x",
    "1!0.1", "1!1.0", "1!1.0rc1", "1!2.0", "0!1.0",
    "1.0RC1", "1.0-1", "1.0_a_1", "1.0.alpha1", "1.0c1", "1.0pre1", "1.0-r2", "1.0rev3", "1.0-dev2",
    "v1.0", "V2.0", "01.00", "1.0.POST1", "1.0+LOCAL", " 1.0 ", "1.0+ubuntu-1_2",
    # not versions
    "", "1.0.x", "latest", "1.0+", "1.0-", "1..0", "1.0.*", "!1.0", "1.0 2",
]

BASES = ["1", "1.0", "1.0.0", "1.1", "2.0", "1.0rc1", "1.0a1", "1.0.post1", "1.0.dev1", "1.0.post1.dev1",
         "1!1.0", "1.0+local", "2.1", "2.1.0", "v1.0", "1.0.RC1", "1.0.r1", "1.0.pre1", "1.0-1"]
OPERATORS = ["==", "!=", "<=", ">=", "<", ">", "~=", "==="]
WILDCARDS = ["==1.*", "==1.0.*", "==1.0.0.*", "==2.*", "!=1.*", "!=1.0.*", "!=1.0.0.*", "==1!1.*", "==0.*",
             "==1.1.*", "==1.0rc1.*", "==1.0.post1.*", "==1.0.dev1.*", "==1.0+local.*", ">=1.0.*", "~=1.0.*"]
SETS = [
    "", ">=1.0,<2.0", ">=1.0,<2.0rc1", ">=1.0rc1,<2.0", ">=1.0,!=1.0.1,<2.0", "~=1.0,!=1.1.*", ">1.0,<=2.1",
    ">=2.1", ">=2.1,<3", "<2.0.0,>=1.10", ">=2.0.dev0", "<=1.0rc1", ">1.0a1", "<3.0rc1", "==1.0,==1.0.0",
    "~=1.0rc1", "~=2.1.0", "~=1.0.post1", "~=1!1.0", ">= 1.0 , < 2", ">=1.0,,<2", "==1.0+local,>=1.0",
    "=>1.0", ">>1", "~=1", "== 1.0.*", "===1.0rc1", "<1.0+local", "1.0", ">=", "<>1.0",
]


def specifiers():
    out = list(SETS)
    for op, base in itertools.product(OPERATORS, BASES):
        out.append(op + base)
    return out + WILDCARDS


def parse_version(text):
    try:
        return Version(text)
    except InvalidVersion:
        return None


def main(argv):
    if argv[1:] == ["--packaging-version"]:
        print(packaging.__version__)
        return 0
    out = sys.stdout
    out.write("packaging\t%s\n" % packaging.__version__)
    valid = [(t, parse_version(t)) for t in VERSIONS]
    ordered = sorted({v for _, v in valid if v is not None})
    for text, v in valid:
        if v is None:
            out.write("V\t%s\t!\t-1\t0\n" % text)
        else:
            out.write("V\t%s\t%s\t%d\t%d\n" % (text, v, ordered.index(v), int(v.is_prerelease)))
    for spec in specifiers():
        try:
            s = SpecifierSet(spec)
        except InvalidSpecifier:
            out.write("S\t%s\t!\t0\n" % spec)
            continue
        out.write("S\t%s\t%s\t%d\n" % (spec, s, int(bool(s.prereleases))))
        for text, v in valid:
            if v is not None:
                out.write("C\t%s\t%s\t%d\t%d\n" % (text, spec, int(s.contains(v)), int(s.contains(v, prereleases=True))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
