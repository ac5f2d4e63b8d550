/* map-oracle.c: the desktop's StableHLO tokenizer, kept here as the
 * oracle for the map's StableHLO colours (test-map.c). */
#include "map-check.h"

/* ---- the desktop's StableHLO tokenizer, the colour oracle ------------ */

enum
{
  K_COMMENT, K_OPERATION, K_TYPE, K_VALUE, K_SYMBOL, K_KEYWORD, K_NUMBER
};

static const TpTokenClass kind_class[] = {
  TP_TOKEN_COMMENT, TP_TOKEN_OP, TP_TOKEN_TYPE, TP_TOKEN_SSA, TP_TOKEN_SYMBOL,
  TP_TOKEN_KEYWORD, TP_TOKEN_NUMBER,
};

static const char *const hlo_keywords[] = {
  "module", "return", "dense", "applies", "across", "dimensions", "init",
  "dims", "contracting_dims", "batching_dims",
};

static gboolean
is_word (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
word_is (const char *p, gsize n, const char *w)
{
  return strlen (w) == n && strncmp (p, w, n) == 0;
}

/* The kind of the token at p and its length (at least 1), or -1: the
 * rules ui/tp-text-pane.c colours StableHLO with today. */
static int
hlo_kind (const char *line, const char *p, const char *end, gsize *len)
{
  const char *q = p;
  gboolean after = p > line && (is_word (p[-1]) || p[-1] == '.' || p[-1] == '%');

  *len = 1;
  if (end - p >= 2 && p[0] == '/' && p[1] == '/')
    {
      *len = (gsize) (end - p);
      return K_COMMENT;
    }
  if (*p == '%' || *p == '@')
    {
      for (q = p + 1; q < end && is_word (*q); q++)
        ;
      if (q == p + 1)
        return -1;
      *len = (gsize) (q - p);
      return *p == '%' ? K_VALUE : K_SYMBOL;
    }
  if (g_ascii_isalpha (*p) || *p == '_')
    {
      gsize n;

      while (q < end && is_word (*q))
        q++;
      n = (gsize) (q - p);
      *len = n;
      if (after)
        return -1;
      if (word_is (p, n, "stablehlo") || word_is (p, n, "chlo")
          || word_is (p, n, "func"))
        {
          const char *r = q + 1;
          if (q < end && *q == '.' && r < end
              && (g_ascii_islower (*r) || *r == '_'))
            {
              while (r < end && (g_ascii_islower (*r) || *r == '_'))
                r++;
              if (r == end || !is_word (*r))
                {
                  *len = (gsize) (r - p);
                  return K_OPERATION;
                }
            }
        }
      if (word_is (p, n, "tensor") && q < end && *q == '<')
        {
          const char *close = memchr (q, '>', (gsize) (end - q));
          if (close != NULL)
            {
              *len = (gsize) (close + 1 - p);
              return K_TYPE;
            }
        }
      if (word_is (p, n, "bf16") || word_is (p, n, "f16")
          || word_is (p, n, "f32") || word_is (p, n, "f64")
          || word_is (p, n, "i1") || word_is (p, n, "i8")
          || word_is (p, n, "i16") || word_is (p, n, "i32")
          || word_is (p, n, "i64"))
        return K_TYPE;
      for (guint k = 0; k < G_N_ELEMENTS (hlo_keywords); k++)
        if (word_is (p, n, hlo_keywords[k]))
          return K_KEYWORD;
      return -1;
    }
  if (!after && (g_ascii_isdigit (*p)
                 || (*p == '-' && p + 1 < end && g_ascii_isdigit (p[1]))))
    {
      if (*q == '-')
        q++;
      if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')
          && g_ascii_isxdigit (q[2]))
        for (q += 2; q < end && g_ascii_isxdigit (*q); q++)
          ;
      else
        {
          while (q < end && g_ascii_isdigit (*q))
            q++;
          if (q < end && *q == '.')
            for (q++; q < end && g_ascii_isdigit (*q); q++)
              ;
        }
      if (q < end && (*q == 'e' || *q == 'E'))
        {
          const char *e = q + 1;
          if (e < end && (*e == '+' || *e == '-'))
            e++;
          if (e < end && g_ascii_isdigit (*e))
            for (q = e; q < end && g_ascii_isdigit (*q); q++)
              ;
        }
      *len = (gsize) (q - p);
      return q < end && (is_word (*q) || *q == '.') ? -1 : K_NUMBER;
    }
  return -1;
}

/* "start:end:class;..." of a StableHLO line by the oracle. */
char *
map_oracle_tokens (const char *line)
{
  GString *out = g_string_new (NULL);
  const char *end = line + strlen (line);

  for (const char *p = line; p < end;)
    {
      gsize n;
      int kind = hlo_kind (line, p, end, &n);
      if (kind >= 0)
        g_string_append_printf (out, "%u:%u:%s;", (guint) (p - line),
                                (guint) (p - line) + (guint) n,
                                tp_token_class_name (kind_class[kind]));
      p += n;
    }
  return g_string_free (out, FALSE);
}

