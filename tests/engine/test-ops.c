/* Every op through every pass, from the op table (engine/tp-ops.def).
 *
 * For each way the language writes an op (a row's keyword or operator)
 * and for each composite, a program is generated from the row's form:
 *
 *   w = parameter [2, 3]
 *   v = parameter [2, 3]
 *   a = exp(w)
 *   b = exp(v)
 *   y = <the op, written with a and b>
 *   loss = sum(y * y)
 *
 * and compiled.  Then, for every node on its tape (the program's and the
 * gradient's), each pass must have produced something for it:
 * - shape and spec: its spec or derivative line is mapped to it, names
 *   its op and shows a shape; a node the program recorded has a source
 *   span;
 * - the statement y is the written op itself (a composite records its
 *   op somewhere in the spec);
 * - differentiate: the gradient of each parameter the op reads is not a
 *   zero fill, so the op's backward rule recorded something;
 * - run: the values reading has no NaN or infinity;
 * - plan and StableHLO: an evaluated node has a StableHLO line of its
 *   own (an argument or a rank-0 Sum: a token that names it);
 * - DOT: the picture has its node, labelled with its index and op;
 * - the check's non-finite origin: an op whose row's AT column is SAME
 *   has operands of its own volume, one that is FIRST an operand of one
 *   element (the elements operands_at names exist);
 * - explain: a forward node's sentence writes its op's formula, every
 *   node differentiate appended has an origin of its own (the tape's
 *   provenance), and a rule's node its phrase;
 * - the map: each mapped reading has one map line per text line, and
 *   the JSON has the map.
 * Finally every op of the table must have appeared on some tape, and
 * been evaluated by some plan.  Each row's formula names exactly the
 * operands and attributes the op has. */
#include <stdlib.h>

#include "tp-test-util.h"
#include "tp-tape.h"

static const char *const readings_with_map[] = {
  "spec", "derivative", "plan", "stablehlo", "values",
};

typedef struct
{
  char **lines;
  guint n;
} Lines;

static Lines
split_lines (const char *text)
{
  Lines l;

  l.lines = g_strsplit (text, "\n", -1);
  l.n = g_strv_length (l.lines);
  g_assert_cmpuint (l.n, >, 0);
  g_assert_cmpstr (l.lines[l.n - 1], ==, "");
  l.n--;
  return l;
}

/* The text of the first ref of class klass on map line `line`, or NULL. */
static char *
line_token (const TpSession *s, TpReading which, const Lines *l,
            size_t line, TpTokenClass klass)
{
  TpMapLine ml;

  g_assert_true (tp_session_map_line (s, which, line, &ml));
  for (uint32_t k = 0; k < ml.n_refs; k++)
    {
      TpMapRef r;
      g_assert_true (tp_session_map_ref (s, which, ml.first_ref + k, &r));
      if (r.klass == klass)
        return g_strndup (l->lines[line] + r.start, r.end - r.start);
    }
  return NULL;
}

/* The map line of `which` that stands for node, or -1. */
static long
line_of (const TpSession *s, TpReading which, uint32_t node)
{
  size_t n = tp_session_map_n_lines (s, which);

  for (size_t i = 0; i < n; i++)
    {
      TpMapLine ml;
      g_assert_true (tp_session_map_line (s, which, i, &ml));
      if (ml.node == node)
        return (long) i;
    }
  return -1;
}

static bool
some_ref_names (const TpSession *s, TpReading which, uint32_t node)
{
  size_t n = tp_session_map_n_refs (s, which);

  for (size_t i = 0; i < n; i++)
    {
      TpMapRef r;
      g_assert_true (tp_session_map_ref (s, which, i, &r));
      if (r.node == node)
        return true;
    }
  return false;
}

static int
op_named (const char *name)
{
  for (int op = 0; op < TP_N_OPS; op++)
    if (strcmp (tp_op_info[op].name, name) == 0)
      return op;
  return -1;
}

/* The expressions that write `written` in form (and arity), in the order
 * tried: the first one the language accepts is used. */
static GPtrArray *
candidates (const char *written, TpForm form, unsigned arity)
{
  GPtrArray *c = g_ptr_array_new_with_free_func (g_free);

  switch (form)
    {
    case TP_FORM_SOURCE:
      g_ptr_array_add (c, g_strdup_printf ("%s [2, 3]", written));
      break;
    case TP_FORM_UNARY:
      g_ptr_array_add (c, g_strdup_printf ("%s(a)", written));
      break;
    case TP_FORM_AXIS:
      g_ptr_array_add (c, g_strdup_printf ("%s(a, 1)", written));
      break;
    case TP_FORM_SHAPED:
      g_ptr_array_add (c, g_strdup_printf ("%s(a, [3, 2])", written));
      g_ptr_array_add (c, g_strdup_printf ("%s(sum(a), [3, 2])", written));
      break;
    case TP_FORM_OPERATOR:
      if (arity == 1)
        g_ptr_array_add (c, g_strdup_printf ("%sa", written));
      else
        {
          g_ptr_array_add (c, g_strdup_printf ("a %s b", written));
          g_ptr_array_add (c, g_strdup_printf ("a %s transpose(b)", written));
        }
      break;
    case TP_FORM_NONE:
      break;
    }
  return c;
}

typedef struct
{
  bool on_tape[TP_N_OPS];
  bool evaluated[TP_N_OPS];
  unsigned programs;
} Coverage;

/* The program for one written form; its session compiled, or NULL when no
 * candidate is accepted. */
static TpSession *
compile_written (const char *written, TpForm form, unsigned arity,
                 char **program_out)
{
  GPtrArray *c = candidates (written, form, arity);
  TpSession *s = tp_session_new ();
  const char *obs[1] = { NULL };
  TpChoices choices = { .target = "loss", .observe = obs, .n_observe = 0, .exact = false };

  for (guint k = 0; k < c->len; k++)
    {
      char *src = g_strdup_printf ("w = parameter [2, 3]\n"
                                   "v = parameter [2, 3]\n"
                                   "a = exp(w)\n"
                                   "b = exp(v)\n"
                                   "y = %s\n"
                                   "loss = sum(y * %s)\n",
                                   (char *) c->pdata[k],
                                   form == TP_FORM_SOURCE ? "a" : "y");
      if (tp_session_compile (s, src, strlen (src), &choices) == TP_STATUS_OK)
        {
          *program_out = src;
          g_ptr_array_unref (c);
          return s;
        }
      g_free (src);
    }
  g_ptr_array_unref (c);
  tp_session_free (s);
  return NULL;
}

static uint32_t
statement_node (const TpSession *s, const char *name)
{
  size_t n;
  const TpName *names = tp_session_names (s, &n);

  for (size_t i = 0; i < n; i++)
    if (strcmp (names[i].name, name) == 0)
      return names[i].node;
  g_assert_not_reached ();
}

/* Whether the literal parts of op's formula (between its placeholders)
 * appear in order in text. */
static bool
writes_formula (const char *text, TpOp op)
{
  const char *f = tp_op_info[op].formula;
  const char *at = text;

  while (*f != '\0')
    {
      const char *end = strchr (f, '%');
      size_t n = end == NULL ? strlen (f) : (size_t) (end - f);
      char *part = g_strndup (f, n);
      const char *found = strstr (at, part);
      g_free (part);
      if (found == NULL)
        return false;
      at = found + n;
      f = end == NULL ? f + n : end + 2;
    }
  return true;
}

/* The explain sentence of every node: a forward one writes its formula,
 * an appended one says why differentiate recorded it. */
static void
check_explain (const TpSession *s, const char *program, uint32_t n_nodes)
{
  Lines l = split_lines (tp_session_reading (s, TP_READING_EXPLAIN));
  uint32_t spec_nodes = tp_session_spec_nodes (s);

  g_assert_cmpuint (l.n, ==, n_nodes);
  for (uint32_t n = 0; n < n_nodes; n++)
    {
      char *prefix = g_strdup_printf ("%u ", n);
      const char *colon = strchr (l.lines[n], ':');
      char *name;
      TpOrigin o;
      int op;

      g_assert_true (g_str_has_prefix (l.lines[n], prefix));
      g_assert_nonnull (colon);
      name = g_strndup (l.lines[n] + strlen (prefix),
                        (size_t) (colon - l.lines[n]) - strlen (prefix));
      op = op_named (name);
      g_assert_cmpint (op, >=, 0);
      g_free (name);
      g_free (prefix);
      g_assert_true (tp_session_origin (s, n, &o));
      if (n < spec_nodes)
        {
          g_assert_cmpint (o.role, ==, TP_ORIGIN_FORWARD);
          if (tp_op_info[op].arity > 0
              && (!writes_formula (l.lines[n], (TpOp) op)
                  || strstr (l.lines[n], " gives [") == NULL))
            g_error ("explain line %u does not write %s for:\n%s",
                     n, tp_op_info[op].formula, program);
          continue;
        }
      if (o.role == TP_ORIGIN_APPENDED || o.role == TP_ORIGIN_FORWARD)
        g_error ("node %u has no origin: %s\nin:\n%s", n, l.lines[n],
                 program);
      if (o.role == TP_ORIGIN_RULE && strstr (l.lines[n], ": ;") != NULL)
        g_error ("node %u of a rule has no phrase: %s\nin:\n%s", n,
                 l.lines[n], program);
    }
  g_strfreev (l.lines);
}

/* The volume a shape token ("[2, 3]", "[]") says. */
static guint64
shape_volume (const char *shape)
{
  guint64 volume = 1;
  const char *p = shape + 1;

  while (*p != ']')
    {
      char *end;
      volume *= g_ascii_strtoull (p, &end, 10);
      g_assert_true (end > p);
      p = end;
      if (*p == ',')
        p += 2;
    }
  return volume;
}

/* The AT column against node n's derivative line: the operands' volumes
 * have the elements it names. */
static void
check_at (const TpSession *s, const char *program, long line, uint32_t n,
          int op, const guint64 *volume)
{
  TpAt at = (TpAt) tp_op_info[op].at;
  TpMapLine ml;
  guint operands = 0;

  g_assert_true (tp_session_map_line (s, TP_READING_DERIVATIVE,
                                      (size_t) line, &ml));
  for (uint32_t k = 0; k < ml.n_refs; k++)
    {
      TpMapRef r;
      g_assert_true (tp_session_map_ref (s, TP_READING_DERIVATIVE,
                                         ml.first_ref + k, &r));
      if (r.klass != TP_TOKEN_OPERAND)
        continue;
      operands++;
      g_assert_cmpuint (r.node, <, n);
      if ((at == TP_AT_SAME && volume[r.node] != volume[n])
          || (at == TP_AT_FIRST && volume[r.node] != 1))
        g_error ("node %u (%s, AT %s) has operand %u of %" G_GUINT64_FORMAT
                 " elements for %" G_GUINT64_FORMAT " in:\n%s", n,
                 tp_op_info[op].name, at == TP_AT_SAME ? "SAME" : "FIRST",
                 r.node, volume[r.node], volume[n], program);
    }
  g_assert_cmpuint (operands, ==, tp_op_info[op].arity);
}

/* Every pass for every node of the session's tape. */
static void
check_passes (const TpSession *s, const char *program, Coverage *cov)
{
  const char *dot = tp_session_reading (s, TP_READING_DOT);
  const char *values = tp_session_reading (s, TP_READING_VALUES);
  Lines deriv = split_lines (tp_session_reading (s, TP_READING_DERIVATIVE));
  uint32_t spec_nodes = tp_session_spec_nodes (s);
  TpStats stats;
  guint64 *volume;
  char *json;

  tp_session_stats (s, &stats);
  volume = g_new0 (guint64, stats.nodes);
  g_assert_cmpuint (spec_nodes, >, 0);
  g_assert_cmpuint (stats.nodes, >, spec_nodes);

  /* The map: one map line per line of text, for every mapped reading. */
  for (guint r = 0; r < G_N_ELEMENTS (readings_with_map); r++)
    {
      TpReading which;
      Lines l;
      g_assert_true (tp_reading_from_name (readings_with_map[r], &which));
      l = split_lines (tp_session_reading (s, which));
      g_assert_cmpuint (tp_session_map_n_lines (s, which), ==, l.n);
      g_strfreev (l.lines);
    }
  json = tp_session_to_json (s);
  g_assert_nonnull (json);
  g_assert_nonnull (strstr (json, "\"map\":{\"spec\":{\"lines\":[{"));
  tp_string_free (json);

  /* Run: every value the values reading shows is finite. */
  g_assert_null (strstr (values, "NaN"));
  g_assert_null (strstr (values, "inf"));
  g_assert_false (tp_session_picture_reduced (s));

  for (uint32_t n = 0; n < stats.nodes; n++)
    {
      long line = line_of (s, TP_READING_DERIVATIVE, n);
      char *name, *shape, *want;
      int op;
      TpSourceSpan span;

      if (line < 0)
        g_error ("node %u has no derivative line in:\n%s", n, program);
      name = line_token (s, TP_READING_DERIVATIVE, &deriv, (size_t) line,
                         TP_TOKEN_OP);
      if (name == NULL)
        name = line_token (s, TP_READING_DERIVATIVE, &deriv, (size_t) line,
                           TP_TOKEN_SOURCE);
      g_assert_nonnull (name);
      op = op_named (name);
      g_assert_cmpint (op, >=, 0);
      cov->on_tape[op] = true;
      shape = line_token (s, TP_READING_DERIVATIVE, &deriv, (size_t) line,
                          TP_TOKEN_SHAPE);
      g_assert_nonnull (shape);
      g_assert_cmpint (shape[0], ==, '[');
      volume[n] = shape_volume (shape);
      check_at (s, program, line, n, op, volume);

      /* The spec lists the program's own nodes, the same way. */
      if (n < spec_nodes)
        {
          g_assert_cmpint (line_of (s, TP_READING_SPEC, n), >=, 0);
          g_assert_true (tp_session_source (s, n, &span));
        }

      /* DOT: the node and its label. */
      want = g_strdup_printf ("  n%u [id=\"n%u\"", n, n);
      if (strstr (dot, want) == NULL)
        g_error ("no %s in the DOT of:\n%s", want, program);
      g_free (want);
      want = g_strdup_printf ("<B>%u %s</B>", n, name);
      g_assert_nonnull (strstr (dot, want));
      g_free (want);

      /* Plan and StableHLO: an evaluated node is lowered. */
      if (line_of (s, TP_READING_PLAN, n) >= 0)
        {
          long hlo = line_of (s, TP_READING_STABLEHLO, n);
          if (op == TP_OP_PARAMETER || op == TP_OP_INPUT
              || op == TP_OP_SUM)
            g_assert_true (hlo >= 0
                           || some_ref_names (s, TP_READING_STABLEHLO, n));
          else if (hlo < 0)
            g_error ("node %u (%s) has no StableHLO line in:\n%s", n, name,
                     program);
          cov->evaluated[op] = true;
        }
      g_free (name);
      g_free (shape);
    }
  g_strfreev (deriv.lines);
  g_free (volume);
  check_explain (s, program, stats.nodes);
  cov->programs++;
}

/* Differentiate: the gradient of the first `flowing` parameters (w, and
 * v when the op reads b) flows through the op: a missing backward rule
 * leaves the zero fill, a Leaf. */
static void
check_gradients (const TpSession *s, const char *program, size_t flowing)
{
  size_t n;
  const TpGradient *g = tp_session_gradients (s, &n);
  Lines deriv = split_lines (tp_session_reading (s, TP_READING_DERIVATIVE));

  g_assert_cmpuint (n, ==, 2);
  for (size_t k = 0; k < flowing; k++)
    {
      long line = line_of (s, TP_READING_DERIVATIVE, g[k].gradient);
      char *op;

      g_assert_cmpint (line, >=, 0);
      op = line_token (s, TP_READING_DERIVATIVE, &deriv, (size_t) line,
                       TP_TOKEN_OP);
      if (op == NULL)
        g_error ("d loss / d %s is a fill: no rule recorded for:\n%s",
                 g[k].name, program);
      g_free (op);
    }
  g_strfreev (deriv.lines);
}

/* Whether statement y reads v (binary ops) as well as w. */
static bool
reads_both (TpForm form, unsigned arity)
{
  return form == TP_FORM_OPERATOR && arity == 2;
}

static void
test_every_op (void)
{
  Coverage cov;

  memset (&cov, 0, sizeof cov);
  for (int op = 0; op < TP_N_OPS; op++)
    {
      const TpOpInfo *info = &tp_op_info[op];
      char *program = NULL;
      TpSession *s;
      uint32_t y;
      long line;
      char *name;
      Lines spec;

      if (info->form == TP_FORM_NONE)
        continue;
      g_assert_nonnull (info->written);
      s = compile_written (info->written, (TpForm) info->form, info->arity,
                           &program);
      if (s == NULL)
        g_error ("no program accepted for op %s (written %s)", info->name,
                 info->written);
      g_test_message ("%s: y = %s", info->name, strstr (program, "y = ") + 4);

      /* The statement y is this op: its spec line names it. */
      y = statement_node (s, "y");
      spec = split_lines (tp_session_reading (s, TP_READING_SPEC));
      line = line_of (s, TP_READING_SPEC, y);
      g_assert_cmpint (line, >=, 0);
      name = line_token (s, TP_READING_SPEC, &spec, (size_t) line,
                         info->arity == 0 ? TP_TOKEN_SOURCE : TP_TOKEN_OP);
      g_assert_cmpstr (name, ==, info->name);
      g_free (name);
      g_strfreev (spec.lines);

      check_passes (s, program, &cov);
      if (info->arity > 0)
        check_gradients (s, program,
                         reads_both ((TpForm) info->form, info->arity) ? 2 : 1);
      tp_session_free (s);
      g_free (program);
    }

  for (int k = 0; k < TP_N_COMPOSITES; k++)
    {
      const TpCompositeInfo *info = &tp_composite_info[k];
      const char *records = tp_op_info[info->records].name;
      char *program = NULL;
      TpSession *s = compile_written (info->written, (TpForm) info->form, 1,
                                      &program);
      char *want;

      if (s == NULL)
        g_error ("no program accepted for %s", info->written);
      g_test_message ("%s: y = %s", info->written,
                      strstr (program, "y = ") + 4);
      want = g_strdup_printf ("  %s ", records);
      if (strstr (tp_session_reading (s, TP_READING_SPEC), want) == NULL)
        g_error ("the spec of `%s` has no %s:\n%s", info->written, records,
                 tp_session_reading (s, TP_READING_SPEC));
      g_free (want);
      check_passes (s, program, &cov);
      check_gradients (s, program, 1);
      tp_session_free (s);
      g_free (program);
    }

  /* Every op of the table went through every pass somewhere. */
  for (int op = 0; op < TP_N_OPS; op++)
    {
      if (!cov.on_tape[op])
        g_error ("op %s is on no generated program's tape",
                 tp_op_info[op].name);
      if (!cov.evaluated[op])
        g_error ("op %s is evaluated by no generated program's plan",
                 tp_op_info[op].name);
    }
  g_test_message ("%u programs, %d ops", cov.programs, TP_N_OPS);
}

/* How often placeholder %c occurs in formula. */
static guint
placeholders (const char *formula, char c)
{
  guint n = 0;

  for (const char *p = formula; (p = strchr (p, '%')) != NULL; p++)
    if (p[1] == c)
      n++;
  return n;
}

/* A formula names each operand once, and the attributes the op has; a
 * source has none.  A row with a plain StableHLO spelling has operands. */
static void
test_formulas (void)
{
  for (int op = 0; op < TP_N_OPS; op++)
    {
      const TpOpInfo *info = &tp_op_info[op];
      const char *f = info->formula;
      TpAttrKind attr = (TpAttrKind) info->attr;
      guint all = 0;

      if (info->hlo != NULL)
        g_assert_cmpuint (info->arity, >, 0);
      if (info->arity == 0)
        {
          g_assert_null (f);
          continue;
        }
      g_assert_nonnull (f);
      for (const char *p = f; (p = strchr (p, '%')) != NULL; p++)
        all++;
      g_test_message ("%s: %s", info->name, f);
      g_assert_cmpuint (placeholders (f, 'a'), ==, 1);
      g_assert_cmpuint (placeholders (f, 'b'), ==, info->arity == 2);
      g_assert_cmpuint (placeholders (f, 'x'), ==,
                        attr == TP_ATTR_AXIS || attr == TP_ATTR_AXIS_EXTENT);
      g_assert_cmpuint (placeholders (f, 'n'), ==,
                        attr == TP_ATTR_AXIS_EXTENT);
      g_assert_cmpuint (placeholders (f, 'o'), ==, attr == TP_ATTR_ORDER);
      g_assert_cmpuint (all, ==, placeholders (f, 'a') + placeholders (f, 'b')
                                 + placeholders (f, 'x')
                                 + placeholders (f, 'n')
                                 + placeholders (f, 'o'));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ops/formulas", test_formulas);
  g_test_add_func ("/ops/every-op-every-pass", test_every_op);
  return g_test_run ();
}
