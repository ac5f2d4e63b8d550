#!/usr/bin/env python3
"""The command line's lessons (docs/lessons.md, The command line):
`topos --lesson LESSON [PROGRAM]` prints a line per goal and exits 0
when every goal is met, 1 when one is not, 2 for a usage error or a
refused lesson (LESSON:LINE:COL: error: MESSAGE); --solution grades the
lesson's solution with its right answers; --answer answers questions in
order; --json prints the lesson and the grade; --lesson-pot writes every
message of the course once, as a template msgfmt would read.
Usage: check-lesson-cli.py TOPOS SOURCE_ROOT.  Prints TAP."""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


def run(topos, *args, stdin=None):
    p = subprocess.run([topos, *args], input=stdin, capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


LESSON = """# Make the loss zero

## text

The README program, with its *error* squared.

## start

```tape
w = parameter 0.0
x = input 2.0
y = input 4.0
error = w * x - y
loss = error * error
```

## solution

```tape
w = parameter 2.0
x = input 2.0
y = input 4.0
error = w * x - y
loss = error * error
```

## goals

reads
  say: The program reads.
value loss = 0
  say: The loss is 0.
  hint: Which `w` makes `w * x` equal to `y`?
question: How many nodes does differentiate append?
  about: derivative
  wrong: 5
  right: 17
  wrong: 23
"""

START = """lesson: Make the loss zero
[met]     The program reads.
[not met] The loss is 0.
          found: `loss` is 16
          hint: Which `w` makes `w * x` equal to `y`?
[not met] How many nodes does differentiate append?
          1. 5
          2. 17
          3. 23
          found: not answered yet
1 of 3 goals met
"""


def main():
    topos, root = sys.argv[1], pathlib.Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        lesson = os.path.join(tmp, "zero.lesson")
        with open(lesson, "w") as f:
            f.write(LESSON)
        rc, out, err = run(topos, "--lesson", lesson)
        check("the start: a line per goal, exit 1", rc == 1 and out == START
              and err == "", "%d\n%s%s" % (rc, out, err))
        rc, out, err = run(topos, "--lesson", lesson, "--solution")
        check("the solution with its answers: exit 0",
              rc == 0 and out.endswith("3 of 3 goals met\n")
              and "[not met]" not in out, out + err)
        program = os.path.join(tmp, "mine.tape")
        with open(program, "w") as f:
            f.write("w = parameter 2.0\nx = input 2.0\ny = input 4.0\n"
                    "error = w * x - y\nloss = error * error\n")
        rc, out, err = run(topos, "--lesson", lesson, "--answer", "2", program)
        check("a program and an answer: exit 0", rc == 0
              and out.endswith("3 of 3 goals met\n"), out + err)
        rc, out, err = run(topos, "--lesson", lesson, "--answer", "1", program)
        check("a wrong answer: exit 1", rc == 1
              and "found: that is not the answer\n" in out, out + err)
        rc, out, err = run(topos, "--lesson", lesson, "-",
                           stdin="w = parameter 0.0\nloss = w * ww\n")
        check("a program that does not read is graded: exit 1", rc == 1
              and "[not met] The program reads.\n          found: 2:12: `ww` "
                  "is not defined yet; did you mean `w`?\n" in out
              and "found: the program does not read\n" in out, out + err)
        rc, out, err = run(topos, "--lesson", lesson, "--json")
        try:
            doc = json.loads(out)
            ok = (rc == 1 and doc["grade"]["met"] == 1
                  and doc["grade"]["goals"][1] == {"state": "unmet",
                                                   "found": "`loss` is 16"}
                  and doc["lesson"]["title"]["source"] == "Make the loss zero"
                  and doc["lesson"]["questions"] == 1)
        except (ValueError, KeyError) as e:
            ok = False
            err += str(e)
        check("--json: the lesson and the grade", ok, out + err)

        bad = os.path.join(tmp, "bad.lesson")
        with open(bad, "w") as f:
            f.write(LESSON.replace("## goals", "## goal"))
        rc, out, err = run(topos, "--lesson", bad)
        check("a refused lesson: exit 2, LESSON:LINE:COL", rc == 2 and out == ""
              and err == "%s:27:4: error: no section is called `goal`: the "
                         "sections are text, start, solution, hints, choices "
                         "and goals\n" % bad, err)
        for args, what in [(["--lesson"], "missing value after --lesson"),
                           (["--lesson", lesson, "--answer", "x"],
                            "--answer takes a choice's number"),
                           (["--lesson", lesson, "--solution", program],
                            "--solution grades the lesson's own"),
                           (["--lesson", lesson, "--reading", "spec"],
                            "unknown option with --lesson: --reading"),
                           (["--lesson", lesson, program, program],
                            "more than one PROGRAM"),
                           (["--lesson-pot"], "--lesson-pot takes one"),
                           (["--lesson", os.path.join(tmp, "none.lesson")],
                            "cannot open")]:
            rc, out, err = run(topos, *args)
            check("usage error: %s" % what, rc == 2 and what in err, err)
        rc, out, err = run(topos, "--lesson", "--help")
        check("--lesson --help", rc == 2, err)
        rc, out, err = run(topos, "--lesson", lesson, "--help")
        check("--lesson LESSON --help prints the usage", rc == 0
              and out.startswith("usage: topos --lesson LESSON"), out + err)

    # docs/lessons.md's example prints what the page says it prints.
    doc = (root / "docs" / "lessons.md").read_text()
    m = re.search(r"## An example\n\n````\n(.*?)\n````\n\n`topos --lesson "
                  r"make-zero.lesson` grades the starting program:\n\n```\n"
                  r"(.*?)```\n", doc, re.S)
    check("docs/lessons.md has its example", m is not None)
    if m:
        with tempfile.TemporaryDirectory() as tmp:
            example = os.path.join(tmp, "make-zero.lesson")
            with open(example, "w") as f:
                f.write(m.group(1) + "\n")
            rc, out, err = run(topos, "--lesson", example)
            check("docs/lessons.md: the example's output", rc == 1
                  and out == m.group(2), out + err)
            rc, out, err = run(topos, "--lesson", example, "--solution")
            check("docs/lessons.md: the example's solution", rc == 0
                  and out.endswith("3 of 3 goals met\n"), out + err)

    # The course: each start fails a goal, each solution meets them all.
    lessons = sorted((root / "resources" / "lessons").glob("*.lesson"))
    check("the course has its twelve lessons", len(lessons) >= 12)
    for path in lessons:
        rc, out, err = run(topos, "--lesson", str(path))
        check("%s: the start fails a goal" % path.name,
              rc == 1 and "[not met]" in out and err == "", out + err)
        rc, out, err = run(topos, "--lesson", str(path), "--solution")
        check("%s: the solution meets every goal" % path.name,
              rc == 0 and "[not met]" not in out and err == "", out + err)

    # A lesson's choices are the compile's: lesson 12 grades its programs
    # with --remat auto, and says so in its JSON.
    remat = root / "resources" / "lessons" / "12-remat.lesson"
    rc, out, err = run(topos, "--lesson", str(remat), "--solution", "--json")
    try:
        doc = json.loads(out)
        ok = (rc == 0 and doc["lesson"]["choices"] == {
                  "optimize": False, "remat": "auto", "direction": None}
              and doc["grade"]["all_met"]
              and doc["grade"]["goals"][0]["found"].startswith(
                  "auto recomputes "))
    except (ValueError, KeyError, IndexError) as e:
        ok = False
        err += str(e)
    check("--lesson compiles with the lesson's choices", ok, out + err)

    # The template: every message once, each with where it comes from.
    rc, out, err = run(topos, "--lesson-pot", *map(str, lessons))
    entries = re.findall(r'((?:#: .*\n)+)msgid "((?:[^"\\]|\\.)*)"\nmsgstr ""\n',
                         out)
    ids = [m for _, m in entries]
    check("--lesson-pot: a template", rc == 0 and out.startswith(
        "# The lessons' messages") and len(ids) > 50, err)
    check("--lesson-pot: each message once", len(ids) == len(set(ids)))
    check("--lesson-pot: every reference is FILE:LINE",
          all(re.fullmatch(r"(#: [^:\n]+\.lesson:\d+\n)+", refs)
              for refs, _ in entries))
    check("--lesson-pot: the first lesson's title first",
          ids[:1] == ["A tape records what you write"], ids[:2])

    print("1..%d" % len(results))
    for k, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", k, name))
        if not ok and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
