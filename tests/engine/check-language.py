#!/usr/bin/env python3
"""The language's words in every place that lists them agree with the
engine's op table (engine/tp-ops.def, printed by print-language): the
GtkSourceView language file, the web editor's highlighter, the page's
"language in brief", the README's language paragraph, the fuzz
dictionary, and docs/language.md's source, operator and function tables
(where each word's row must also name the op it records).  A keyword added to the table and missing from one of them,
or a word one of them lists that the language does not have, fails here.
Usage: check-language.py PRINT_LANGUAGE SOURCE_ROOT.  Prints TAP."""
import pathlib
import re
import subprocess
import sys

results = []


def check(name, got, want):
    ok = got == want
    detail = "" if ok else "got %s, want %s (missing %s, extra %s)" % (
        sorted(got), sorted(want), sorted(want - got), sorted(got - want))
    results.append((name, ok, detail))


def words(text):
    return set(text.split())


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True,
                         text=True).stdout
    root = pathlib.Path(sys.argv[2])
    form = {}
    records = []
    for line in out.splitlines():
        kind, word, op = line.split(" ")
        form.setdefault(kind, set()).add(word)
        records.append((kind, word, op))
    sources = form["source"]
    unary, axis, shaped = form["unary"], form["axis"], form["shaped"]
    functions = unary | axis | shaped
    operators = form["operator"]
    symbols = operators | form["prefix"]
    keywords = sources | functions

    # GtkSourceView: the source and function contexts' keywords.
    lang = (root / "resources/language-specs/tape.lang").read_text()

    def context(cid):
        m = re.search(r'<context id="%s"[^>]*>(.*?)</context>' % cid, lang,
                      re.S)
        return set(re.findall(r"<keyword>([^<]*)</keyword>",
                              m.group(1))) if m else set()
    check("tape.lang: sources", context("source"), sources)
    check("tape.lang: functions", context("function"), functions)
    m = re.search(r'<context id="operator"[^>]*>\s*<match>\[([^\]]*)\]',
                  lang)
    check("tape.lang: operators", symbols - set(m.group(1) if m else ""),
          set())

    # The web editor's highlighter.
    js = (root / "web/src/tape-language.js").read_text()

    def js_set(name):
        m = re.search(r"const %s = new Set\(\[(.*?)\]\)" % name, js, re.S)
        return set(re.findall(r"'([^']*)'", m.group(1))) if m else set()
    check("tape-language.js: SOURCES", js_set("SOURCES"), sources)
    check("tape-language.js: FUNCTIONS", js_set("FUNCTIONS"), functions)
    m = re.search(r"OPERATOR = /\[([^\]]*)\]/y", js)
    check("tape-language.js: operators",
          symbols - set((m.group(1) if m else "").replace("\\", "")), set())

    # The page's help: one <dt> per form lists its words.
    html = (root / "web/src/index.html").read_text()
    m = re.search(r"<summary>the language in brief</summary>(.*?)</details>",
                  html, re.S)
    brief = m.group(1) if m else ""
    lists = [words(t) for t in re.findall(r"<dt><code>([^<]*)</code></dt>",
                                          brief)]
    for name, want in (("operators", operators), ("functions of one value",
                       unary), ("axis functions", axis),
                       ("shaped functions", shaped)):
        check("index.html: " + name,
              next((l for l in lists if l == want), set()), want)
    named = {w for w in keywords if re.search(r"\b%s\b" % w, brief)}
    check("index.html: sources", named & sources, sources)
    check("index.html: every function word is a keyword",
          set().union(*[l for l in lists if l & functions]) - functions,
          set())

    # The README's language paragraph.
    readme = (root / "README.md").read_text()
    m = re.search(r"## The language\n(.*?)\n\n", readme, re.S)
    para = " ".join(m.group(1).split()) if m else ""
    spans = [words(s) for s in re.findall(r"`([^`]*)`", para)]
    for name, want in (("operators", operators), ("unary functions", unary),
                       ("axis functions", axis), ("shaped functions",
                       shaped)):
        check("README: " + name, next((s for s in spans if s == want),
                                      set()), want)
    check("README: sources", {w for s in spans for w in s} & sources,
          sources)

    # The fuzz dictionary: its keyword section, then every operator.
    dic = (root / "tests/fuzz/tape.dict").read_text()
    m = re.search(r"# Keywords[^\n]*\n(.*?)\n#", dic, re.S)
    check("tape.dict: keywords",
          set(re.findall(r'^"([^"]*)"$', m.group(1) if m else "", re.M)),
          keywords)
    check("tape.dict: operators",
          symbols - set(re.findall(r'^"(.)"$', dic, re.M)), set())

    # docs/language.md: the tables of sources, operators and functions.
    doc = (root / "docs/language.md").read_text()

    def table(title):
        m = re.search(r"### %s\n\n(.*?)\n\n" % title, doc, re.S)
        rows = m.group(1).splitlines()[2:] if m else []
        return [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    src_rows = table("Sources")
    op_rows = table("Operators")
    fn_rows = table("Functions")
    check("language.md: sources",
          {re.match(r"`(\w+)", r[0]).group(1) for r in src_rows}, sources)
    check("language.md: operators",
          {w for r in op_rows for w in re.findall(r"`a (\S) b`", r[0])},
          operators)
    check("language.md: prefix operators",
          {w for r in op_rows for w in re.findall(r"`(\S)a`", r[0])},
          form["prefix"])
    check("language.md: functions",
          {w for r in fn_rows for w in re.findall(r"`(\w+)\(", r[0])},
          functions)
    unrecorded = set()
    for kind, word, op in records:
        if kind == "source":
            continue
        if kind == "operator":
            pattern = "`a %s b`" % word
        elif kind == "prefix":
            pattern = "`%sa`" % word
        else:
            pattern = "`%s(" % word
        row = next((r for r in op_rows + fn_rows if pattern in r[0]), None)
        if row is None or "`%s" % op not in row[-1]:
            unrecorded.add(word)
    check("language.md: each word's row names the op it records",
          unrecorded, set())

    print("1..%d" % len(results))
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            print("# " + detail)
    return 0 if all(ok for _, ok, _ in results) else 1


sys.exit(main())
