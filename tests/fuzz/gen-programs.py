#!/usr/bin/env python3
"""Writes random tape programs that mostly read (about two in three), to
seed the fuzzer with deep, well-formed states that byte mutations reach
slowly: every op, ranks 0-4 and 16, tensor literals, broadcasts, reshapes,
matmuls, reassigned and keyword names, CRLF line ends, a few deliberate
mistakes.
Usage: gen-programs.py OUTDIR COUNT [SEED]"""
import os
import random
import sys

UNARY = ["tanh", "exp", "ln", "sqrt", "sin", "cos", "relu", "sum", "transpose"]
AXIS = ["sum_along", "log_softmax", "logsumexp", "softmax", "mean_along"]
NAMES = ["w", "x", "b", "h", "loss", "y", "z", "q", "input", "sum"]


def shape(rng):
    rank = rng.choice([0, 1, 1, 2, 2, 2, 3, 4, 16])
    if rank == 16:
        return [1] * 15 + [rng.randint(1, 3)]
    return [rng.randint(1, 5) for _ in range(rank)]


def text(s):
    return "[" + ", ".join(map(str, s)) + "]"


def literal(rng, s):
    """A tensor literal of shape s (rank >= 2), now and then made ragged
    or otherwise broken."""
    def rows(dims):
        if not dims:
            return rng.choice(["0", "1", "-1", "0.5", "-2e-3", "3.25", "-0"])
        parts = [rows(dims[1:]) for _ in range(dims[0])]
        if rng.random() < 0.03:
            parts = parts[:-1] or parts + parts
        return "[" + ", ".join(parts) + "]"
    t = rows(s)
    if rng.random() < 0.05:
        t = rng.choice([t[:-1], t.replace(",", "", 1), t.replace("0", "a", 1),
                        "[[]]", t + "]"])
    return t


def volume(s):
    v = 1
    for d in s:
        v *= d
    return v


def program(rng):
    names, lines = [], []
    for k in range(rng.randint(1, 12)):
        name = rng.choice(NAMES + ["w%d" % k])
        c = rng.random()
        if not names or c < 0.25:
            s = shape(rng)
            kind = rng.choice(["parameter", "input", "leaf"])
            if len(s) >= 2 and volume(s) <= 64 and rng.random() < 0.4:
                expr, sh = "%s %s" % (kind, literal(rng, s)), s
            elif rng.random() < 0.8:
                expr, sh = "%s %s" % (kind, text(s)), s
            else:
                expr, sh = "%s %s" % (kind, rng.choice(["0.5", "-1", "1e39", "0", "nan"])), []
        else:
            a, sa = rng.choice(names)
            c = rng.random()
            if c < 0.2:
                b, sb = rng.choice(names)
                op = rng.choice("+-*/")
                if sa == sb or not sa or not sb or rng.random() < 0.1:
                    expr, sh = "%s %s %s" % (a, op, b), sa or sb
                else:
                    expr, sh = "%s %s 2.0" % (a, op), sa
            elif c < 0.35:
                f = rng.choice(UNARY)
                expr = "%s(%s)" % (f, a)
                sh = [] if f == "sum" else sa[::-1] if f == "transpose" else sa
            elif c < 0.5 and sa:
                axis = rng.randrange(len(sa)) if rng.random() < 0.9 else len(sa)
                f = rng.choice(AXIS)
                expr = "%s(%s, %d)" % (f, a, axis)
                dropped = f in ("sum_along", "logsumexp", "mean_along")
                sh = sa[:axis] + sa[axis + 1:] if dropped else sa
            elif c < 0.6 and len(sa) == 2:
                s2 = [sa[1], rng.randint(1, 4)]
                b = name + "m"
                lines.append("%s = input %s" % (b, text(s2)))
                names.append((b, s2))
                expr, sh = "%s @ %s" % (a, b), [sa[0], s2[1]]
            elif c < 0.7 and not sa:
                s = shape(rng)
                expr, sh = "broadcast(%s, %s)" % (a, text(s)), s
            elif c < 0.8 and sa:
                v = volume(sa)
                s = rng.choice([[v], [1, v], [v, 1]])
                expr, sh = "reshape(%s, %s)" % (a, text(s)), s
            else:
                expr, sh = "-(%s)" % a, sa
        lines.append("%s = %s" % (name, expr))
        names.append((name, sh))
    if rng.random() < 0.7:
        lines.append("loss = sum(%s)" % rng.choice(names)[0])
    eol = rng.choice(["\n", "\n", "\r\n"])
    return eol.join(lines) + eol


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    os.makedirs(out, exist_ok=True)
    for n in range(count):
        with open(os.path.join(out, "gen%05d.tape" % n), "w", newline="") as f:
            f.write(program(rng))


if __name__ == "__main__":
    main()
