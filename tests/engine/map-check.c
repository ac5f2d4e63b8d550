/* map-check.c: one program's map checked against its readings' text
 * (what is checked: test-map.c's header). */
#include <stdlib.h>

#include "map-check.h"

/* ---- the readings' text, as lines ---------------------------------- */

typedef struct
{
  char **lines;         /* without their '\n' */
  guint n;
} Lines;

static Lines
split_lines (const char *text)
{
  Lines l;
  char **all = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (all);

  /* Every reading ends with '\n': the last piece is empty. */
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpstr (all[n - 1], ==, "");
  g_free (all[n - 1]);
  all[n - 1] = NULL;
  l.lines = all;
  l.n = n - 1;
  return l;
}

static char *
ref_text (const Lines *l, const TpMapRef *r)
{
  return g_strndup (l->lines[r->line] + r->start, r->end - r->start);
}

/* Index of a listing line, as printed ("  12  Add ..."), or -1. */
static long
listed_index (const char *line)
{
  const char *p = line;
  char *end;
  long v;

  while (*p == ' ')
    p++;
  if (!g_ascii_isdigit (*p))
    return -1;
  v = strtol (p, &end, 10);
  if (end[0] != ' ' || end[1] != ' ')
    return -1;
  return v;
}

/* A listing line taken apart: op, operands, attribute text, shape. */
typedef struct
{
  long index;
  char op[32];
  long operands[2];
  guint n_operands;
  char attr[128];
  char shape[128];
} Listed;

/* One word of a listing: up to a space, bracket groups kept whole. */
static const char *
word_end (const char *p)
{
  int depth = 0;

  while (*p != '\0' && (depth > 0 || *p != ' '))
    {
      depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
      p++;
    }
  return p;
}

/* "{:4}  {op:<14} {operands[  attr]:<18} {shape}[ liveness]" */
static gboolean
parse_node_line (const char *line, Listed *out)
{
  const char *p, *e;
  char *end;

  memset (out, 0, sizeof *out);
  out->index = listed_index (line);
  if (out->index < 0)
    return FALSE;
  p = line + strspn (line, " ");
  p = strchr (p, ' ') + 2;
  e = word_end (p);
  g_assert_cmpuint ((size_t) (e - p), <, sizeof out->op);
  memcpy (out->op, p, (size_t) (e - p));
  for (p = e; *p == ' '; p++)
    ;
  while (g_ascii_isdigit (*p))
    {
      g_assert_cmpuint (out->n_operands, <, 2);
      out->operands[out->n_operands++] = strtol (p, &end, 10);
      p = end;
      if (p[0] == ',' && p[1] == ' ')
        p += 2;
    }
  for (; *p == ' '; p++)
    ;
  while (*p != '[' && *p != '\0')
    {
      e = word_end (p);
      g_assert_nonnull (memchr (p, '=', (size_t) (e - p)));
      if (out->attr[0] != '\0')
        strcat (out->attr, " ");
      g_assert_cmpuint (strlen (out->attr) + (size_t) (e - p), <, sizeof out->attr);
      strncat (out->attr, p, (size_t) (e - p));
      for (p = e; *p == ' '; p++)
        ;
    }
  g_assert_true (*p == '[');
  e = word_end (p);
  g_assert_cmpuint ((size_t) (e - p), <, sizeof out->shape);
  memcpy (out->shape, p, (size_t) (e - p));
  return TRUE;
}

/* ---- one program ------------------------------------------------------ */

typedef struct
{
  const char *what;             /* for messages */
  const char *src;
  TpSession *s;
  Lines text[TP_READING_VALUES + 1];
  /* from the listing's text: per node its op, operand and rank */
  GPtrArray *listed;            /* Listed*, by node */
} Program;

static const Listed *
node_listed (const Program *p, uint32_t node)
{
  g_assert_cmpuint (node, <, p->listed->len);
  g_assert_nonnull (p->listed->pdata[node]);
  return p->listed->pdata[node];
}

/* Each reading's refs: in order, within their lines, not overlapping, and
 * each line's ref range matching the refs' line fields. */
static void
check_structure (const Program *p, TpReading r)
{
  const Lines *l = &p->text[r];
  size_t n_lines = tp_session_map_n_lines (p->s, r);
  size_t n_refs = tp_session_map_n_refs (p->s, r), seen = 0;

  g_assert_cmpuint (n_lines, ==, l->n);
  g_assert_false (tp_session_map_cut (p->s, r));
  for (size_t k = 0; k < n_lines; k++)
    {
      TpMapLine ml;
      uint32_t last_end = 0;

      g_assert_true (tp_session_map_line (p->s, r, k, &ml));
      g_assert_cmpuint (ml.first_ref, ==, seen);
      g_assert_cmpint (ml.role, <, TP_N_ROLES);
      g_assert_true ((ml.role == TP_ROLE_BLANK) == (l->lines[k][0] == '\0'));
      for (uint32_t j = 0; j < ml.n_refs; j++)
        {
          TpMapRef ref;
          g_assert_true (tp_session_map_ref (p->s, r, ml.first_ref + j, &ref));
          g_assert_cmpuint (ref.line, ==, k);
          g_assert_cmpuint (ref.start, >=, last_end);
          g_assert_cmpuint (ref.start, <, ref.end);
          g_assert_cmpuint (ref.end, <=, strlen (l->lines[k]));
          g_assert_cmpint (ref.klass, <, TP_N_TOKENS);
          g_assert_true (ref.node == TP_MAP_NO_NODE
                         || ref.node < p->listed->len);
          last_end = ref.end;
        }
      /* the ref under each byte, by the seam, is the one a scan finds */
      for (uint32_t at = 0; at <= strlen (l->lines[k]); at++)
        {
          TpMapRef under, ref;
          gboolean found = FALSE;
          for (uint32_t j = 0; j < ml.n_refs && !found; j++)
            {
              tp_session_map_ref (p->s, r, ml.first_ref + j, &ref);
              found = ref.start <= at && at < ref.end;
            }
          g_assert_true (tp_session_map_ref_at (p->s, r, k, at, &under) == found);
          if (found)
            g_assert_cmpuint (under.start, ==, ref.start);
        }
      seen += ml.n_refs;
    }
  g_assert_cmpuint (seen, ==, n_refs);
  {
    TpMapLine ml;
    TpMapRef ref;
    g_assert_false (tp_session_map_line (p->s, r, n_lines, &ml));
    g_assert_false (tp_session_map_ref (p->s, r, n_refs, &ref));
  }
}

static gboolean
is_listing_role (TpLineRole role)
{
  return role == TP_ROLE_NODE || role == TP_ROLE_DERIVED
         || role == TP_ROLE_KEPT || role == TP_ROLE_FREED;
}

/* A spec, derivative or plan line starts with its node's index; its
 * index, op and operand refs are what the line says. */
static void
check_listing (const Program *p, TpReading r)
{
  const Lines *l = &p->text[r];
  uint32_t spec_nodes = tp_session_spec_nodes (p->s);
  gboolean after_divider = FALSE;

  for (size_t k = 0; k < l->n; k++)
    {
      const char *line = l->lines[k];
      TpMapLine ml;
      Listed parsed;
      guint operand = 0;

      g_assert_true (tp_session_map_line (p->s, r, k, &ml));
      if (g_str_has_prefix (line, "-- "))
        {
          g_assert_cmpint (r, ==, TP_READING_DERIVATIVE);
          g_assert_cmpint (ml.role, ==, TP_ROLE_DIVIDER);
          after_divider = TRUE;
        }
      if (!parse_node_line (line, &parsed))
        {
          g_assert_false (is_listing_role (ml.role));
          g_assert_cmpuint (ml.node, ==, TP_MAP_NO_NODE);
          if (g_str_has_prefix (line, "tape: ") || g_str_has_prefix (line, "plan: ")
              || g_str_has_prefix (line, "live volume: "))
            g_assert_cmpint (ml.role, ==, TP_ROLE_FOOTER);
          continue;
        }
      g_assert_true (is_listing_role (ml.role));
      g_assert_cmpint (ml.node, ==, parsed.index);
      if (r == TP_READING_SPEC)
        g_assert_cmpint (ml.role, ==, TP_ROLE_NODE);
      else if (r == TP_READING_DERIVATIVE)
        {
          g_assert_cmpint (ml.role, ==, after_divider ? TP_ROLE_DERIVED : TP_ROLE_NODE);
          g_assert_true (after_divider == (ml.node >= spec_nodes));
        }
      else
        g_assert_cmpint (ml.role, ==, g_str_has_suffix (line, " kept")
                                      ? TP_ROLE_KEPT : TP_ROLE_FREED);
      for (uint32_t j = 0; j < ml.n_refs; j++)
        {
          TpMapRef ref;
          char *t;
          tp_session_map_ref (p->s, r, ml.first_ref + j, &ref);
          t = ref_text (l, &ref);
          switch (ref.klass)
            {
            case TP_TOKEN_INDEX:
              g_assert_cmpuint (j, ==, 0);
              g_assert_cmpint (ref.node, ==, parsed.index);
              g_assert_cmpint (atol (t), ==, parsed.index);
              break;
            case TP_TOKEN_OP:
            case TP_TOKEN_SOURCE:
              g_assert_cmpstr (t, ==, parsed.op);
              g_assert_true ((ref.klass == TP_TOKEN_SOURCE)
                             == (strcmp (t, "Leaf") == 0
                                 || strcmp (t, "Parameter") == 0
                                 || strcmp (t, "Input") == 0));
              break;
            case TP_TOKEN_OPERAND:
              g_assert_cmpuint (ref.node, ==, strtoul (t, NULL, 10));
              if (operand < parsed.n_operands)
                g_assert_cmpint (ref.node, ==, parsed.operands[operand]);
              else
                {
                  /* the plan's "freed after J" */
                  g_assert_cmpint (r, ==, TP_READING_PLAN);
                  g_assert_nonnull (strstr (line, "freed after "));
                  g_assert_cmpstr (strstr (line, "freed after ") + 12, ==, t);
                }
              operand++;
              break;
            case TP_TOKEN_SHAPE:
              g_assert_cmpstr (t, ==, parsed.shape);
              break;
            case TP_TOKEN_DETAIL:
              g_assert_nonnull (strstr (parsed.attr, t));
              g_assert_nonnull (strchr (t, '='));
              break;
            case TP_TOKEN_LIVE:
              g_assert_true (strcmp (t, "kept") == 0 || strcmp (t, "freed after") == 0);
              break;
            default:
              g_assert_not_reached ();
            }
          g_free (t);
        }
      g_assert_cmpuint (operand, >=, parsed.n_operands);
    }
}

/* The name the StableHLO writer gives node i: its argument's, or for a
 * Sum of a rank-0 value its operand's, else %v{i}. */
static char *
hlo_name (const Program *p, uint32_t node)
{
  size_t n_args;
  const uint32_t *args = tp_session_arguments (p->s, &n_args);
  const Listed *l = node_listed (p, node);

  for (size_t k = 0; k < n_args; k++)
    if (args[k] == node)
      return g_strdup_printf ("%%arg%u", (guint) k);
  if (strcmp (l->op, "Sum") == 0
      && strcmp (node_listed (p, (uint32_t) l->operands[0])->shape, "[]") == 0)
    return hlo_name (p, (uint32_t) l->operands[0]);
  return g_strdup_printf ("%%v%u", node);
}

static void
check_stablehlo (const Program *p)
{
  const Lines *l = &p->text[TP_READING_STABLEHLO];
  size_t n_args;
  const uint32_t *args = tp_session_arguments (p->s, &n_args);

  for (size_t k = 0; k < l->n; k++)
    {
      const char *line = l->lines[k];
      TpMapLine ml;
      GString *mapped = g_string_new (NULL);
      char *oracle = map_oracle_tokens (line);
      guint percents = 0, ssa = 0;

      tp_session_map_line (p->s, TP_READING_STABLEHLO, k, &ml);
      for (const char *q = line; (q = strchr (q, '%')) != NULL; q++)
        percents++;
      if (g_str_has_prefix (line, "    %"))
        {
          /* a line that defines a value stands for its node */
          TpMapRef first;
          g_assert_cmpint (ml.role, ==, TP_ROLE_NODE);
          g_assert_cmpuint (ml.n_refs, >, 0);
          tp_session_map_ref (p->s, TP_READING_STABLEHLO, ml.first_ref, &first);
          g_assert_cmpint (first.klass, ==, TP_TOKEN_SSA);
          g_assert_cmpuint (first.start, ==, 4);
          g_assert_cmpuint (first.node, ==, ml.node);
        }
      else if (g_str_has_prefix (line, "    return "))
        g_assert_cmpint (ml.role, ==, TP_ROLE_RESULT);
      else
        {
          g_assert_cmpint (ml.role, ==, TP_ROLE_FRAME);
          g_assert_cmpuint (ml.node, ==, TP_MAP_NO_NODE);
        }
      for (uint32_t j = 0; j < ml.n_refs; j++)
        {
          TpMapRef ref;
          char *t;
          tp_session_map_ref (p->s, TP_READING_STABLEHLO, ml.first_ref + j, &ref);
          t = ref_text (l, &ref);
          if (ref.klass == TP_TOKEN_SSA)
            {
              ssa++;
              if (g_str_has_prefix (t, "%arg"))
                {
                  /* the K-th argument, or a Sum of it (a rank-0 Sum
                   * carries its operand's name) */
                  guint64 a = g_ascii_strtoull (t + 4, NULL, 10);
                  char *name = hlo_name (p, ref.node);
                  g_assert_cmpuint (a, <, n_args);
                  g_assert_true (ref.node == args[a]
                                 || strcmp (node_listed (p, ref.node)->op, "Sum") == 0);
                  g_assert_cmpstr (name, ==, t);
                  g_free (name);
                }
              else
                {
                  char *end;
                  guint64 v;
                  g_assert_true (g_str_has_prefix (t, "%v"));
                  v = g_ascii_strtoull (t + 2, &end, 10);
                  if (*end == '_')
                    g_assert_cmpuint (ref.node, ==, v); /* a helper */
                  else
                    {
                      char *name = hlo_name (p, ref.node);
                      g_assert_cmpstr (name, ==, t);
                      g_free (name);
                    }
                }
            }
          if (ref.klass != TP_TOKEN_ATTRIBUTE)
            g_string_append_printf (mapped, "%u:%u:%s;", ref.start, ref.end,
                                    tp_token_class_name (ref.klass));
          else
            g_assert_true (strcmp (t, "GE") == 0 || strcmp (t, "FLOAT") == 0
                           || strcmp (t, "dense_resource<__elided__>") == 0);
          g_free (t);
        }
      /* every %name is mapped, and the colours are the desktop's */
      g_assert_cmpuint (ssa, ==, percents);
      if (strcmp (mapped->str, oracle) != 0)
        g_printerr ("%s: StableHLO line %u: %s\n  map    %s\n  oracle %s\n",
                    p->what, (guint) k, line, mapped->str, oracle);
      g_assert_cmpstr (mapped->str, ==, oracle);
      g_string_free (mapped, TRUE);
      g_free (oracle);
    }
}

static const TpName *
names_of (const Program *p, size_t *n)
{
  return tp_session_names (p->s, n);
}

/* The node a name's last assignment is. */
static uint32_t
last_assignment (const Program *p, const char *name)
{
  size_t n;
  const TpName *names = names_of (p, &n);
  uint32_t node = TP_MAP_NO_NODE;

  for (size_t k = 0; k < n; k++)
    if (strcmp (names[k].name, name) == 0)
      node = names[k].node;
  return node;
}

static void
check_gradients_and_values (const Program *p)
{
  size_t n_grads, n_names;
  const TpGradient *grads = tp_session_gradients (p->s, &n_grads);
  const TpName *names = names_of (p, &n_names);
  const Lines *values = &p->text[TP_READING_VALUES];
  const Lines *deriv = &p->text[TP_READING_DERIVATIVE];
  const char *divider = NULL;
  size_t divider_line = 0;

  for (size_t k = 0; k < deriv->n; k++)
    if (g_str_has_prefix (deriv->lines[k], "-- "))
      {
        divider = deriv->lines[k];
        divider_line = k;
      }
  g_assert_true ((divider != NULL) == (n_grads > 0));
  g_assert_true ((grads != NULL) == (n_grads > 0));

  /* The divider: each "d T / d W is node G" pair's refs. */
  if (divider != NULL)
    {
      TpMapLine ml;
      guint pair = 0;
      tp_session_map_line (p->s, TP_READING_DERIVATIVE, divider_line, &ml);
      for (uint32_t j = 0; j < ml.n_refs; j++)
        {
          TpMapRef ref;
          char *t;
          tp_session_map_ref (p->s, TP_READING_DERIVATIVE, ml.first_ref + j, &ref);
          t = ref_text (deriv, &ref);
          if (ref.klass == TP_TOKEN_OPERAND)
            {
              g_assert_cmpuint (ref.node, ==, grads[pair].gradient);
              g_assert_cmpuint (strtoul (t, NULL, 10), ==, grads[pair].gradient);
              g_assert_true (g_str_has_prefix (divider + ref.start - 9, " is node "));
              pair++;
            }
          else if (ref.klass == TP_TOKEN_NAME && pair < n_grads
                   && g_str_has_prefix (divider + ref.end, " is node "))
            {
              g_assert_cmpstr (t, ==, grads[pair].name);
              g_assert_cmpuint (ref.node, ==, grads[pair].parameter);
            }
          g_free (t);
        }
      g_assert_cmpuint (pair, ==, n_grads);
    }

  /* Values: statement k on line k, then a blank, then the gradients. */
  g_assert_cmpuint (values->n, ==, n_names + (n_grads > 0 ? 1 + n_grads : 0));
  for (size_t k = 0; k < values->n; k++)
    {
      TpMapLine ml;
      tp_session_map_line (p->s, TP_READING_VALUES, k, &ml);
      if (k < n_names)
        {
          g_assert_cmpint (ml.role, ==, TP_ROLE_NODE);
          g_assert_cmpuint (ml.node, ==, names[k].node);
        }
      else if (k == n_names)
        g_assert_cmpint (ml.role, ==, TP_ROLE_BLANK);
      else
        {
          const TpGradient *g = &grads[k - n_names - 1];
          g_assert_cmpint (ml.role, ==, TP_ROLE_GRADIENT);
          g_assert_cmpuint (ml.node, ==, g->gradient);
          g_assert_true (g_str_has_prefix (values->lines[k], "d "));
        }
      for (uint32_t j = 0; j < ml.n_refs; j++)
        {
          TpMapRef ref;
          char *t;
          tp_session_map_ref (p->s, TP_READING_VALUES, ml.first_ref + j, &ref);
          t = ref_text (values, &ref);
          if (k < n_names)
            {
              if (ref.klass == TP_TOKEN_NAME)
                {
                  g_assert_cmpuint (j, ==, 0);
                  g_assert_cmpstr (t, ==, names[k].name);
                  g_assert_cmpuint (ref.node, ==, names[k].node);
                }
              else if (ref.klass == TP_TOKEN_NUMBER)
                {
                  /* the value is the name's last assignment's, and runs to
                   * the end of the line */
                  g_assert_cmpuint (ref.node, ==, last_assignment (p, names[k].name));
                  g_assert_cmpuint (ref.end, ==, strlen (values->lines[k]));
                }
              else
                g_assert_cmpint (ref.klass, ==, TP_TOKEN_SHAPE);
            }
          else
            {
              const TpGradient *g = &grads[k - n_names - 1];
              if (ref.klass == TP_TOKEN_NUMBER)
                g_assert_cmpuint (ref.node, ==, g->gradient);
              else if (ref.klass == TP_TOKEN_NAME && j == 1)
                {
                  g_assert_cmpstr (t, ==, g->name);
                  g_assert_cmpuint (ref.node, ==, g->parameter);
                  g_assert_true (g_str_has_prefix (values->lines[k] + ref.start - 4, "/ d "));
                }
              else
                g_assert_cmpint (ref.klass, ==, TP_TOKEN_NAME);
            }
          g_free (t);
        }
    }
}

/* The span's characters, or NULL when it is not within its line. */
static char *
span_text (const char *src, const TpSourceSpan *span, char **prefix)
{
  char **lines = g_strsplit (src, "\n", -1);
  guint n = g_strv_length (lines);
  GString *before = g_string_new (NULL);
  char *text = NULL;

  if (span->line >= 1 && span->line <= n)
    {
      const char *line = lines[span->line - 1];
      glong chars = g_utf8_strlen (line, -1);
      if (span->first >= 1 && span->first <= span->last
          && (glong) span->last <= chars)
        {
          const char *a = g_utf8_offset_to_pointer (line, span->first - 1);
          const char *b = g_utf8_offset_to_pointer (line, span->last);
          text = g_strndup (a, (gsize) (b - a));
        }
      for (guint k = 0; k + 1 < span->line; k++)
        {
          g_string_append (before, lines[k]);
          g_string_append_c (before, '\n');
        }
    }
  g_strfreev (lines);
  *prefix = g_string_free (before, FALSE);
  return text;
}

/* Nodes a program records (before differentiate), 0 when it records
 * none. */
static uint32_t
count_nodes (const char *src)
{
  TpSession *s = tp_session_new ();
  uint32_t n;

  tp_session_compile (s, src, strlen (src), NULL);
  n = tp_session_spec_nodes (s);
  tp_session_free (s);
  return n;
}

static gboolean
span_within (const TpSourceSpan *inner, const TpSourceSpan *outer)
{
  return inner->line == outer->line && inner->first >= outer->first
         && inner->last <= outer->last;
}

static gboolean
starts_with_any (const char *text, const char *const *prefixes)
{
  for (; *prefixes != NULL; prefixes++)
    if (g_str_has_prefix (text, *prefixes))
      return TRUE;
  return FALSE;
}

/* What the text of the expression that records an op looks like: a
 * number literal records a Leaf, `tanh(...)` a Tanh, `a @ b` a MatMul,
 * and the composites their parts (relu a Leaf and a Maximum, softmax a
 * LogSoftmax and an Exp, mean_along a SumAlong, a Leaf and a Div); a
 * rank-0 operand of + - * / is broadcast by the operator's expression. */
static void
check_op_text (const char *what, const char *op, const char *text)
{
  gboolean ok;
  char *end;

  if (strcmp (op, "Leaf") == 0)
    {
      g_ascii_strtod (text, &end);
      ok = (g_ascii_isdigit (text[0]) || text[0] == '.') && *end == '\0';
      ok = ok || starts_with_any (text, (const char *const[]) { "leaf ", "relu(", "mean_along(", NULL });
    }
  else if (strcmp (op, "Parameter") == 0)
    ok = g_str_has_prefix (text, "parameter ");
  else if (strcmp (op, "Input") == 0)
    ok = g_str_has_prefix (text, "input ");
  else if (strcmp (op, "Broadcast") == 0)
    ok = g_str_has_prefix (text, "broadcast(") || strpbrk (text, "+-*/") != NULL;
  else if (strcmp (op, "Add") == 0)
    ok = strchr (text, '+') != NULL;
  else if (strcmp (op, "Sub") == 0)
    ok = strchr (text, '-') != NULL;
  else if (strcmp (op, "Mul") == 0)
    ok = strchr (text, '*') != NULL;
  else if (strcmp (op, "Div") == 0)
    ok = strchr (text, '/') != NULL || g_str_has_prefix (text, "mean_along(");
  else if (strcmp (op, "MatMul") == 0)
    ok = strchr (text, '@') != NULL;
  else if (strcmp (op, "Neg") == 0)
    ok = text[0] == '-';
  else if (strcmp (op, "Maximum") == 0)
    ok = g_str_has_prefix (text, "relu(");
  else if (strcmp (op, "Permute") == 0)
    ok = g_str_has_prefix (text, "transpose(");
  else if (strcmp (op, "Sum") == 0)
    ok = g_str_has_prefix (text, "sum(");
  else if (strcmp (op, "SumAlong") == 0)
    ok = starts_with_any (text, (const char *const[]) { "sum_along(", "mean_along(", NULL });
  else if (strcmp (op, "LogSoftmax") == 0)
    ok = starts_with_any (text, (const char *const[]) { "log_softmax(", "softmax(", NULL });
  else if (strcmp (op, "LogSumExp") == 0)
    ok = g_str_has_prefix (text, "logsumexp(");
  else if (strcmp (op, "Exp") == 0)
    ok = starts_with_any (text, (const char *const[]) { "exp(", "softmax(", NULL });
  else
    {
      char *call = g_strdup_printf ("%c%s(", g_ascii_tolower (op[0]), op + 1);
      ok = g_str_has_prefix (text, call);
      g_free (call);
    }
  /* a call's expression ends with its closing parenthesis */
  if (ok && g_ascii_isalpha (text[0]) && strchr (text, '(') != NULL
      && strpbrk (text, "+-*/@") == NULL)
    ok = g_str_has_suffix (text, ")");
  if (!ok)
    g_printerr ("%s: a %s node's span is `%s`\n", what, op, text);
  g_assert_true (ok);
}

/* Every spec node's span is tight and covers exactly an expression: the
 * span's text on a line of its own after the lines before it records the
 * nodes the map puts inside the span, op by op, with the same operands,
 * attributes and shapes. */
static void
check_sources (const Program *p)
{
  uint32_t spec_nodes = tp_session_spec_nodes (p->s);
  GHashTable *done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  TpStats stats;

  tp_session_stats (p->s, &stats);
  for (uint32_t i = stats.nodes; i-- > spec_nodes;)
    {
      TpSourceSpan none;
      g_assert_false (tp_session_source (p->s, i, &none));
    }
  for (uint32_t i = 0; i < spec_nodes; i++)
    {
      TpSourceSpan span, other;
      char *prefix, *text, *probe, *key;
      uint32_t lo = UINT32_MAX, hi = 0, base;
      TpSession *s;
      const char *spec;
      Lines probe_lines;

      g_assert_true (tp_session_source (p->s, i, &span));
      text = span_text (p->src, &span, &prefix);
      g_assert_nonnull (text);
      g_assert_false (g_ascii_isspace (text[0]));
      g_assert_false (g_ascii_isspace (text[strlen (text) - 1]));
      check_op_text (p->what, node_listed (p, i)->op, text);
      /* the nodes inside the span are one run that includes i */
      for (uint32_t j = 0; j < spec_nodes; j++)
        {
          g_assert_true (tp_session_source (p->s, j, &other));
          if (span_within (&other, &span))
            {
              if (lo == UINT32_MAX)
                lo = j;
              g_assert_cmpuint (j, ==, hi + (lo == j ? j - hi : 1));
              hi = j;
            }
        }
      g_assert_true (lo <= i && i <= hi);
      key = g_strdup_printf ("%u:%u:%u", span.line, span.first, span.last);
      if (g_hash_table_contains (done, key))
        {
          g_free (key);
          g_free (text);
          g_free (prefix);
          continue;
        }
      g_hash_table_add (done, key);

      base = count_nodes (prefix);
      g_assert_cmpuint (base, <=, lo);
      probe = g_strdup_printf ("%s__probe = %s\n", prefix, text);
      s = tp_session_new ();
      if (tp_session_compile (s, probe, strlen (probe), NULL) != TP_STATUS_OK)
        {
          size_t nd;
          const TpDiag *d = tp_session_diags (s, &nd);
          g_printerr ("%s: node %u's span `%s` does not read: %s\n", p->what,
                      i, text, nd ? d->message : "");
          g_assert_not_reached ();
        }
      g_assert_cmpuint (tp_session_spec_nodes (s), ==, base + (hi - lo + 1));
      spec = tp_session_reading (s, TP_READING_SPEC);
      probe_lines = split_lines (spec);
      for (uint32_t j = lo; j <= hi; j++)
        {
          const Listed *want = node_listed (p, j);
          Listed got;
          g_assert_true (parse_node_line (probe_lines.lines[base + j - lo], &got));
          g_assert_cmpint (got.index, ==, base + j - lo);
          g_assert_cmpstr (got.op, ==, want->op);
          g_assert_cmpstr (got.shape, ==, want->shape);
          g_assert_cmpstr (got.attr, ==, want->attr);
          g_assert_cmpuint (got.n_operands, ==, want->n_operands);
          for (guint k = 0; k < want->n_operands; k++)
            {
              long a = want->operands[k];
              g_assert_cmpint (got.operands[k], ==, a >= (long) lo ? a - lo + base : a);
            }
        }
      g_strfreev (probe_lines.lines);
      tp_session_free (s);
      g_free (probe);
      g_free (text);
      g_free (prefix);
    }
  g_hash_table_unref (done);
}

void
map_check_program (const char *what, const char *src, const TpChoices *choices)
{
  Program p;
  TpStatus st;
  const char *listing;
  Lines all;

  memset (&p, 0, sizeof p);
  p.what = what;
  p.src = src;
  p.s = tp_session_new ();
  st = tp_session_compile (p.s, src, strlen (src), choices);
  if (st != TP_STATUS_OK)
    g_printerr ("%s does not read\n", what);
  g_assert_cmpint (st, ==, TP_STATUS_OK);
  for (int r = 0; r <= TP_READING_VALUES; r++)
    p.text[r] = split_lines (tp_session_reading (p.s, (TpReading) r));

  /* Every node's listing line: the derivative lists them all when there
   * is one, else the spec does. */
  listing = tp_session_spec_nodes (p.s) < (uint32_t) p.text[TP_READING_SPEC].n
            && tp_session_gradients (p.s, NULL) != NULL
            ? tp_session_reading (p.s, TP_READING_DERIVATIVE)
            : tp_session_reading (p.s, TP_READING_SPEC);
  all = split_lines (listing);
  p.listed = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; k < all.n; k++)
    {
      Listed *l = g_new0 (Listed, 1);
      if (!parse_node_line (all.lines[k], l))
        {
          g_free (l);
          continue;
        }
      g_assert_cmpint (l->index, ==, p.listed->len);
      g_ptr_array_add (p.listed, l);
    }
  g_strfreev (all.lines);
  {
    TpStats stats;
    tp_session_stats (p.s, &stats);
    g_assert_cmpuint (p.listed->len, ==, stats.nodes);
  }

  /* Without the map every reading is the same text. */
  {
    TpSession *off = tp_session_new ();
    tp_session_set_map (off, FALSE);
    g_assert_cmpint (tp_session_compile (off, src, strlen (src), choices), ==,
                     TP_STATUS_OK);
    for (int r = 0; r < TP_N_READINGS; r++)
      g_assert_cmpstr (tp_session_reading (off, (TpReading) r), ==,
                       tp_session_reading (p.s, (TpReading) r));
    tp_session_free (off);
  }
  for (int r = 0; r <= TP_READING_VALUES; r++)
    check_structure (&p, (TpReading) r);
  check_listing (&p, TP_READING_SPEC);
  check_listing (&p, TP_READING_DERIVATIVE);
  check_listing (&p, TP_READING_PLAN);
  check_stablehlo (&p);
  check_gradients_and_values (&p);
  check_sources (&p);

  for (int r = 0; r <= TP_READING_VALUES; r++)
    g_strfreev (p.text[r].lines);
  g_ptr_array_unref (p.listed);
  tp_session_free (p.s);
}

