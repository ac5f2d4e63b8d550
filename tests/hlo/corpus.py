"""The StableHLO round trip's generated corpus: tape-language programs that
together use every op of the language and of differentiate, each paired
with the topos options it is read with (target and observe variants).

corpus() returns a list of (name, source, options).  Everything is
deterministic: the random programs come from a fixed seed, so a failure
names a program that can be regenerated with `corpus.py NAME`."""
import random
import sys

# Hand-written programs: one or two ops each, so a failure points at the
# op.  Every op of section 6.3 appears, in the forward module and in the
# recorded gradient (Step, BroadcastAlong, Broadcast of a Sum, Permute).
HAND = [
    ("add", "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(a + b)\n"),
    ("sub", "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(a - b)\n"),
    ("mul", "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(a * b)\n"),
    ("div", "a = parameter [2, 3]\nb = input [2, 3]\n"
            "loss = sum(a / (b * b + 1.0))\n"),
    ("neg", "a = parameter [4]\nloss = sum(-a)\n"),
    ("exp", "a = parameter [2, 2]\nloss = sum(exp(a))\n"),
    ("ln", "a = parameter [2, 2]\nloss = sum(ln(a * a + 0.5))\n"),
    ("sqrt", "a = parameter [3]\nloss = sum(sqrt(a * a + 0.25))\n"),
    ("tanh", "a = parameter [3, 2]\nloss = sum(tanh(a))\n"),
    ("sin", "a = parameter [3, 2]\nloss = sum(sin(a))\n"),
    ("cos", "a = parameter [3, 2]\nloss = sum(cos(a))\n"),
    ("matmul", "a = parameter [2, 3]\nb = parameter [3, 4]\n"
               "loss = sum(a @ b)\n"),
    ("sum-rank0", "a = parameter 1.5\nb = sum(a)\nloss = sum(b) * a\n"),
    ("sum-alias-result", "a = parameter 0.25\nloss = sum(sum(a))\n"),
    ("sum-along-0", "a = parameter [3, 4]\nloss = sum(sum_along(a, 0) * "
                    "sum_along(a, 0))\n"),
    ("sum-along-rank3", "a = parameter [2, 3, 4]\n"
                        "b = sum_along(a, 1)\nc = sum_along(b, 1)\n"
                        "loss = sum(c * c)\n"),
    ("broadcast", "a = parameter 0.5\nb = broadcast(a, [2, 3])\n"
                  "c = input [2, 3]\nloss = sum(b * c)\n"),
    ("broadcast-rank3", "a = parameter 0.5\nb = broadcast(a * a, [2, 1, 3])\n"
                        "loss = sum(b)\n"),
    ("scalar-side", "a = parameter [2, 2]\nb = parameter 2.0\n"
                    "loss = sum(a * b + b / (a * a + 1.0) - 3.0)\n"),
    ("reshape", "a = parameter [2, 3]\nb = reshape(a, [3, 2])\n"
                "c = reshape(b, [6])\nd = reshape(c, [1, 6, 1])\n"
                "loss = sum(d * d)\n"),
    ("transpose", "a = parameter [2, 3]\nb = input [2, 3]\n"
                  "loss = sum(transpose(a) @ b)\n"),
    ("relu", "a = parameter [3, 3]\nloss = sum(relu(a) * relu(a))\n"),
    ("log-softmax-1", "a = parameter [3, 4]\n"
                      "loss = sum(log_softmax(a, 1) * log_softmax(a, 1))\n"),
    ("log-softmax-0", "a = parameter [3, 4]\nb = input [3, 4]\n"
                      "loss = sum(log_softmax(a, 0) * b)\n"),
    ("log-softmax-rank3", "a = parameter [2, 3, 2]\nb = input [2, 3, 2]\n"
                          "loss = sum(log_softmax(a, 1) * b)\n"),
    ("logsumexp", "a = parameter [3, 4]\nb = logsumexp(a, 1)\n"
                  "loss = sum(b * b)\n"),
    ("logsumexp-rank1", "a = parameter [5]\nloss = logsumexp(a, 0)\n"),
    ("softmax", "a = parameter [2, 5]\nb = input [2, 5]\n"
                "loss = sum(softmax(a, 1) * b)\n"),
    ("mean-along", "a = parameter [4, 3]\nm = mean_along(a, 1)\n"
                   "loss = sum(m * m)\n"),
    ("parameter-target", "w = parameter 0.5\n"),
    ("unused-parameter", "w = parameter [2]\nv = parameter [3]\n"
                         "loss = sum(w * w)\n"),
    ("no-parameter", "x = input [2, 2]\ny = tanh(x @ x)\n"),
    ("leaf-literals", "c = leaf [2, 2]\nx = input [2, 2]\n"
                      "y = x * 0.00001 + x * 10000000000000000.0 - x * 1.0e-7\n"
                      "loss = sum(y * c) + 123456.789\n"),
    ("infinite-literal", "x = input [2]\nbig = 1e39\n"
                         "loss = sum(x) + big\n"),
]

# Options variants: the last scalar, an observed intermediate, an observed
# argument (so an argument is a result), and an observed node outside the
# closure.
VARIANTS = {
    "add": [[], ["--observe", "b"]],
    "matmul": [[], ["--observe", "a"]],
    "relu": [[], ["--exact"]],
    "log-softmax-1": [[], ["--observe", "a"]],
    "mean-along": [[], ["--observe", "m"]],
    "sum-rank0": [[], ["--observe", "b"], ["--target", "b"]],
    "unused-parameter": [[], ["--observe", "v"]],
    "reshape": [[], ["--observe", "c", "--observe", "b"]],
    "no-parameter": [[], ["--observe", "x"]],
}

UNARY = ["tanh", "sin", "cos", "neg", "exp-tanh", "ln-sq", "sqrt-sq", "relu"]


class Gen:
    """A random, shape-correct program whose values stay bounded: inputs
    and parameters are in [-1, 1], exp only sees tanh, ln and sqrt only
    see x*x + c, division only by x*x + 1."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.vals = []          # (name, shape)
        self.n = 0

    def new(self, expr, shape):
        name = "v%d" % self.n
        self.n += 1
        self.lines.append("%s = %s" % (name, expr))
        self.vals.append((name, shape))
        return name

    def shape(self):
        rank = self.r.choice([1, 2, 2, 2, 3])
        return [self.r.randint(1, 4) for _ in range(rank)]

    def pick(self, pred=lambda s: True):
        cands = [v for v in self.vals if pred(v[1])]
        return self.r.choice(cands) if cands else None

    def step(self):
        r = self.r
        kind = r.choice(["unary", "unary", "binary", "binary", "scalar-side",
                         "matmul", "transpose", "reduce", "along", "along",
                         "broadcast", "reshape", "source"])
        if kind == "source":
            s = self.shape()
            self.new("%s %s" % (r.choice(["parameter", "input", "leaf"]),
                                fmt_shape(s)), s)
        elif kind == "unary":
            a, s = self.pick()
            f = r.choice(UNARY)
            expr = {"neg": "-%s" % a,
                    "exp-tanh": "exp(tanh(%s))" % a,
                    "ln-sq": "ln(%s * %s + 0.5)" % (a, a),
                    "sqrt-sq": "sqrt(%s * %s + 0.25)" % (a, a)}.get(
                        f, "%s(%s)" % (f, a))
            self.new(expr, s)
        elif kind == "binary":
            a, s = self.pick()
            others = [v for v, t in self.vals if t == s and v != a]
            if others:
                b = r.choice(others)
            else:
                b = self.new("%s %s" % (r.choice(["input", "parameter"]),
                                        fmt_shape(s)), s)
            op = r.choice(["+", "-", "*", "/"])
            if op == "/":
                self.new("%s / (%s * %s + 1.0)" % (a, b, b), s)
            else:
                self.new("%s %s %s" % (a, op, b), s)
        elif kind == "scalar-side":
            a, s = self.pick()
            c = self.pick(lambda t: len(t) == 0)
            c = c[0] if c is not None else r.choice(["0.5", "2.0", "1.5"])
            op = r.choice(["+", "-", "*"])
            self.new("%s %s %s" % ((a, op, c) if r.random() < 0.5
                                   else (c, op, a)), s)
        elif kind == "matmul":
            a = self.pick(lambda t: len(t) == 2)
            if a is None:
                return
            a, s = a
            n = r.randint(1, 4)
            b = self.pick(lambda t: len(t) == 2 and t[0] == s[1])
            if b is None or r.random() < 0.3:
                b = self.new("parameter %s" % fmt_shape([s[1], n]),
                             [s[1], n])
                t = [s[1], n]
            else:
                b, t = b
            self.new("tanh(%s @ %s)" % (a, b), [s[0], t[1]])
        elif kind == "transpose":
            a = self.pick(lambda t: len(t) == 2)
            if a is not None:
                self.new("transpose(%s)" % a[0], [a[1][1], a[1][0]])
        elif kind == "reduce":
            a, s = self.pick(lambda t: len(t) > 0)
            self.new("tanh(sum(%s))" % a, [])
        elif kind == "along":
            a = self.pick(lambda t: len(t) > 0)
            if a is None:
                return
            a, s = a
            k = r.randrange(len(s))
            f = r.choice(["sum_along", "mean_along", "log_softmax",
                          "softmax", "logsumexp"])
            t = s if f in ("log_softmax", "softmax") else s[:k] + s[k + 1:]
            if f == "sum_along":
                self.new("tanh(sum_along(%s, %d))" % (a, k), t)
            else:
                self.new("%s(%s, %d)" % (f, a, k), t)
        elif kind == "broadcast":
            a = self.pick(lambda t: len(t) == 0)
            if a is not None:
                s = self.shape()
                self.new("broadcast(%s, %s)" % (a[0], fmt_shape(s)), s)
        elif kind == "reshape":
            a, s = self.pick(lambda t: len(t) > 0)
            vol = 1
            for d in s:
                vol *= d
            t = [vol] if r.random() < 0.5 else factor(r, vol)
            self.new("reshape(%s, %s)" % (a, fmt_shape(t)), t)

    def program(self, steps):
        self.new("parameter %s" % fmt_shape([2, 3]), [2, 3])
        self.new("input %s" % fmt_shape([3, 2]), [3, 2])
        self.new("parameter 0.5", [])
        for _ in range(steps):
            self.step()
        # A scalar loss over every value nothing else reads, so the whole
        # program is in the plan.
        used = set()
        for line in self.lines:
            used.update(tok for tok in
                        line.split("=", 1)[1].replace("(", " ").replace(
                            ")", " ").replace(",", " ").split())
        sinks = [(v, s) for v, s in self.vals if v not in used]
        terms = ["sum(%s * %s)" % (v, v) if s else "%s * %s" % (v, v)
                 for v, s in sinks]
        self.new(" + ".join(terms), [])
        return "\n".join(self.lines) + "\n"


def fmt_shape(s):
    return "[" + ", ".join(str(d) for d in s) + "]"


def factor(r, vol):
    """A random shape of volume vol with up to three axes."""
    dims = []
    rest = vol
    for p in (2, 3):
        while rest % p == 0 and r.random() < 0.6:
            dims.append(p)
            rest //= p
    dims.append(rest)
    r.shuffle(dims)
    return dims[:3] if len(dims) <= 3 else [vol]


def corpus(n_random=40):
    out = []
    for name, src in HAND:
        for k, opts in enumerate(VARIANTS.get(name, [[]])):
            out.append(("%s%s" % (name, "" if k == 0 else "/%d" % k), src,
                        opts))
    for seed in range(n_random):
        g = Gen(seed)
        src = g.program(steps=6 + seed % 10)
        names = [v for v, _ in g.vals]
        out.append(("random-%d" % seed, src, []))
        if seed % 3 == 0:
            out.append(("random-%d/observe" % seed, src,
                        ["--observe", names[len(names) // 2]]))
    return out


if __name__ == "__main__":
    want = sys.argv[1] if len(sys.argv) > 1 else None
    for name, src, opts in corpus():
        if want is None or name == want:
            print("# %s %s" % (name, " ".join(opts)))
            print(src)
