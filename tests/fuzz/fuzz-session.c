/* fuzz-session.c: the fuzz target on the session seam.
 *
 * Every input is compiled with fuzzed choices; every reading, the names
 * and the JSON are produced and checked against properties that hold for
 * any program: a refusal carries one short, clean diagnostic and no
 * reading; a program that reads fills every reading; the JSON parses and
 * repeats the readings exactly; everything is valid UTF-8; every block
 * the engine allocates is freed; its peak memory stays under 256 MiB; a
 * failed allocation is reported as out of memory; the reading map fits
 * its readings and the source; and a session reused after another
 * program says exactly what a fresh one says.  A violation aborts, which
 * libFuzzer (or the replay driver) reports as a crash. */
#include "tp-fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"
#include "tp-engine-testing.h"

#define MAX_CANDIDATES 32
#define MAX_NAME 256
#define MAX_MESSAGE 1024
#define PEAK_LIMIT ((size_t) 256 << 20)

const uint8_t tp_fuzz_seed_headers[][TP_FUZZ_HEADER] = {
  { 0x00, 0x00 },       /* no choices */
  { 0x01, 0x00 },       /* exact */
  { 0x0a, 0x03 },       /* a target, one observe */
  { 0x9b, 0x05 },       /* exact, target, three observes, compile twice */
  { 0x1e, 0x11 },       /* an absent target, three observes, --optimize */
  { 0x42, 0x29 },       /* a target, --remat auto, fail allocation 41 */
  { 0x0a, 0x50 },       /* a target, one observe, --optimize, --remat NAME */
};
const size_t tp_fuzz_n_seed_headers =
  sizeof tp_fuzz_seed_headers / sizeof tp_fuzz_seed_headers[0];

static void
violated (const char *what)
{
  fprintf (stderr, "tp-fuzz: property violated: %s\n", what);
  abort ();
}

#define CHECK(cond) \
  do { if (!(cond)) violated (#cond); } while (0)

/* ---- the counting allocator ------------------------------------------- */

/* Every block carries its size in front, so live and peak bytes are
 * exact. */
typedef union
{
  size_t size;
  long double align_ld;
  void *align_p;
  long long align_ll;
} Head;

static struct
{
  long live_blocks;
  size_t live_bytes;
  size_t peak_bytes;
  long countdown;      /* fail when it reaches 0; < 0 never fails */
  long failures;
} mem;

static bool
should_fail (void)
{
  if (mem.countdown == 0)
    {
      mem.failures++;
      mem.countdown = -1;   /* one failure per input */
      return true;
    }
  if (mem.countdown > 0)
    mem.countdown--;
  return false;
}

static void
note_alloc (size_t size)
{
  mem.live_blocks++;
  mem.live_bytes += size;
  if (mem.live_bytes > mem.peak_bytes)
    mem.peak_bytes = mem.live_bytes;
}

static void *
fuzz_malloc (size_t size)
{
  Head *h;

  if (should_fail () || size > SIZE_MAX - sizeof *h)
    return NULL;
  h = malloc (sizeof *h + size);
  if (h == NULL)
    return NULL;
  h->size = size;
  note_alloc (size);
  return h + 1;
}

static void *
fuzz_realloc (void *ptr, size_t size)
{
  Head *h, *fresh;
  size_t old;

  if (ptr == NULL)
    return fuzz_malloc (size);
  if (should_fail () || size > SIZE_MAX - sizeof *h)
    return NULL;
  h = (Head *) ptr - 1;
  old = h->size;
  fresh = realloc (h, sizeof *fresh + size);
  if (fresh == NULL)
    return NULL;
  fresh->size = size;
  mem.live_bytes -= old;
  mem.live_blocks--;
  note_alloc (size);
  return fresh + 1;
}

static void
fuzz_free (void *ptr)
{
  Head *h;

  if (ptr == NULL)
    return;
  h = (Head *) ptr - 1;
  CHECK (mem.live_blocks > 0 && mem.live_bytes >= h->size);
  mem.live_blocks--;
  mem.live_bytes -= h->size;
  free (h);
}

static const TpAllocator counting = { fuzz_malloc, fuzz_realloc, fuzz_free };

/* ---- text properties -------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (at most avail bytes), or 0. */
static size_t
utf8_len (const unsigned char *p, size_t avail)
{
  unsigned c = p[0];
  size_t n;
  unsigned long cp;

  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (avail < n)
    return 0;
  for (size_t k = 1; k < n; k++)
    {
      if ((p[k] & 0xC0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
      || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

/* Valid UTF-8 without control characters (a newline allowed when
 * lines is set). */
static bool
clean_text (const char *text, bool lines)
{
  const unsigned char *p = (const unsigned char *) text;
  size_t len = strlen (text);

  for (size_t i = 0; i < len;)
    {
      size_t n = utf8_len (p + i, len - i);
      if (n == 0)
        return false;
      if (p[i] == 0x7F || (p[i] < 0x20 && !(lines && p[i] == '\n')))
        return false;
      i += n;
    }
  return true;
}

/* ---- JSON ------------------------------------------------------------- */

typedef struct
{
  const char *p;
  const char *end;
  int depth;
} Json;

static void
json_ws (Json *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t'
                           || *j->p == '\r'))
    j->p++;
}

static bool
json_lit (Json *j, const char *lit)
{
  size_t n = strlen (lit);

  if ((size_t) (j->end - j->p) < n || memcmp (j->p, lit, n) != 0)
    return false;
  j->p += n;
  return true;
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Appends code point cp to out as UTF-8. */
static void
put_utf8 (char *out, size_t *n, unsigned long cp)
{
  if (cp < 0x80)
    out[(*n)++] = (char) cp;
  else if (cp < 0x800)
    {
      out[(*n)++] = (char) (0xC0 | (cp >> 6));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
  else if (cp < 0x10000)
    {
      out[(*n)++] = (char) (0xE0 | (cp >> 12));
      out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
  else
    {
      out[(*n)++] = (char) (0xF0 | (cp >> 18));
      out[(*n)++] = (char) (0x80 | ((cp >> 12) & 0x3F));
      out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
}

/* A string; when decoded is given it receives a malloc'd copy of the
 * value (the caller frees it). */
static bool
json_string (Json *j, char **decoded)
{
  const char *start;
  char *out = NULL;
  size_t n = 0;

  if (j->p >= j->end || *j->p != '"')
    return false;
  start = ++j->p;
  if (decoded != NULL)
    {
      const char *q = start;
      while (q < j->end && *q != '"')
        q += *q == '\\' && q + 1 < j->end ? 2 : 1;
      out = malloc ((size_t) (q - start) + 1);
      if (out == NULL)
        violated ("the checker ran out of memory");
    }
  while (j->p < j->end && *j->p != '"')
    {
      const unsigned char *c = (const unsigned char *) j->p;
      if (*c < 0x20)
        goto bad;
      if (*c == '\\')
        {
          unsigned long cp = 0;
          if (j->end - j->p < 2)
            goto bad;
          switch (j->p[1])
            {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
              if (j->end - j->p < 6)
                goto bad;
              for (int k = 2; k < 6; k++)
                {
                  int d = hex_digit (j->p[k]);
                  if (d < 0)
                    goto bad;
                  cp = cp * 16 + (unsigned long) d;
                }
              /* The engine escapes only control characters. */
              if (cp >= 0xD800 && cp <= 0xDFFF)
                goto bad;
              j->p += 4;
              break;
            default:
              goto bad;
            }
          j->p += 2;
          if (out != NULL)
            put_utf8 (out, &n, cp);
          continue;
        }
      {
        size_t len = utf8_len (c, (size_t) (j->end - j->p));
        if (len == 0)
          goto bad;
        if (out != NULL)
          {
            memcpy (out + n, j->p, len);
            n += len;
          }
        j->p += len;
      }
    }
  if (j->p >= j->end)
    goto bad;
  j->p++;
  if (out != NULL)
    {
      out[n] = '\0';
      *decoded = out;
    }
  return true;
bad:
  free (out);
  return false;
}

static bool
json_number (Json *j)
{
  const char *p = j->p;

  if (p < j->end && *p == '-')
    p++;
  if (p >= j->end)
    return false;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (p < j->end && *p >= '0' && *p <= '9')
      p++;
  else
    return false;
  if (p < j->end && *p == '.')
    {
      p++;
      if (p >= j->end || *p < '0' || *p > '9')
        return false;
      while (p < j->end && *p >= '0' && *p <= '9')
        p++;
    }
  if (p < j->end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < j->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= j->end || *p < '0' || *p > '9')
        return false;
      while (p < j->end && *p >= '0' && *p <= '9')
        p++;
    }
  j->p = p;
  return true;
}

static bool json_value (Json *j);

static bool
json_container (Json *j, char close)
{
  if (++j->depth > 64)
    return false;
  j->p++;
  json_ws (j);
  if (j->p < j->end && *j->p == close)
    {
      j->p++;
      j->depth--;
      return true;
    }
  for (;;)
    {
      json_ws (j);
      if (close == '}')
        {
          if (!json_string (j, NULL))
            return false;
          json_ws (j);
          if (j->p >= j->end || *j->p != ':')
            return false;
          j->p++;
          json_ws (j);
        }
      if (!json_value (j))
        return false;
      json_ws (j);
      if (j->p < j->end && *j->p == ',')
        {
          j->p++;
          continue;
        }
      if (j->p < j->end && *j->p == close)
        {
          j->p++;
          j->depth--;
          return true;
        }
      return false;
    }
}

static bool
json_value (Json *j)
{
  json_ws (j);
  if (j->p >= j->end)
    return false;
  switch (*j->p)
    {
    case '{':
      return json_container (j, '}');
    case '[':
      return json_container (j, ']');
    case '"':
      return json_string (j, NULL);
    case 't':
      return json_lit (j, "true");
    case 'f':
      return json_lit (j, "false");
    case 'n':
      return json_lit (j, "null");
    default:
      return json_number (j);
    }
}

static const char *const json_keys[] = {
  "names", "spec", "derivative", "plan", "stablehlo", "values", "dot",
  "summary", "target", "observe", "tensors", "arguments", "results",
  "diagnostics", "map", "spec_nodes", "gradient_nodes", "sources", "picture",
  "check", "explain", "memory", "memory_svg",
};
#define N_JSON_KEYS (sizeof json_keys / sizeof json_keys[0])

/* "explain": a list of strings, the reading's lines. */
static void
check_explain_json (Json *j, const char *reading)
{
  const char *at = reading;

  CHECK (j->p < j->end && *j->p == '[');
  j->p++;
  json_ws (j);
  if (j->p < j->end && *j->p == ']')
    {
      j->p++;
      CHECK (*reading == '\0');
      return;
    }
  for (;;)
    {
      char *line = NULL;
      size_t n;
      json_ws (j);
      CHECK (json_string (j, &line));
      n = strlen (line);
      CHECK (strncmp (at, line, n) == 0 && at[n] == '\n');
      at += n + 1;
      free (line);
      json_ws (j);
      CHECK (j->p < j->end);
      if (*j->p == ',')
        {
          j->p++;
          continue;
        }
      CHECK (*j->p == ']');
      j->p++;
      break;
    }
  CHECK (*at == '\0');
}

/* The whole JSON text: one object whose keys include every expected
 * one, whose reading strings equal the session's readings, and nothing
 * after it but a newline. */
static void
check_json (const TpSession *s, const char *text)
{
  Json j = { text, text + strlen (text), 0 };
  bool seen[N_JSON_KEYS] = { false };

  json_ws (&j);
  CHECK (j.p < j.end && *j.p == '{');
  j.p++;
  for (;;)
    {
      char *key = NULL;
      TpReading r;

      json_ws (&j);
      CHECK (json_string (&j, &key));
      json_ws (&j);
      CHECK (j.p < j.end && *j.p == ':');
      j.p++;
      json_ws (&j);
      for (size_t k = 0; k < N_JSON_KEYS; k++)
        if (strcmp (key, json_keys[k]) == 0)
          {
            CHECK (!seen[k]);
            seen[k] = true;
          }
      if (tp_reading_from_name (key, &r) && r == TP_READING_EXPLAIN)
        check_explain_json (&j, tp_session_reading (s, r));
      else if (strcmp (key, "memory_svg") == 0)
        {
          char *value = NULL;
          CHECK (json_string (&j, &value));
          CHECK (strcmp (value, tp_session_memory_svg (s)) == 0);
          free (value);
        }
      else if (tp_reading_from_name (key, &r) && r < TP_READING_CHECK)
        {
          char *value = NULL;
          CHECK (json_string (&j, &value));
          CHECK (strcmp (value, tp_session_reading (s, r)) == 0);
          free (value);
        }
      else
        CHECK (json_value (&j));
      free (key);
      json_ws (&j);
      CHECK (j.p < j.end);
      if (*j.p == ',')
        {
          j.p++;
          continue;
        }
      CHECK (*j.p == '}');
      j.p++;
      break;
    }
  json_ws (&j);
  CHECK (j.p == j.end);
  for (size_t k = 0; k < N_JSON_KEYS; k++)
    CHECK (seen[k]);
}

/* ---- choices ---------------------------------------------------------- */

typedef struct
{
  char *names[MAX_CANDIDATES];
  size_t n;
} Candidates;

/* The identifiers in the program's text, each once: statement names,
 * keywords and names that are never assigned. */
static void
collect_candidates (const char *src, size_t len, Candidates *c)
{
  c->n = 0;
  for (size_t i = 0; i < len && c->n < MAX_CANDIDATES;)
    {
      char ch = src[i];
      size_t start = i, n;
      bool dup = false;

      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'))
        {
          i++;
          continue;
        }
      while (i < len && ((src[i] >= 'a' && src[i] <= 'z')
                         || (src[i] >= 'A' && src[i] <= 'Z')
                         || (src[i] >= '0' && src[i] <= '9') || src[i] == '_'))
        i++;
      n = i - start < MAX_NAME ? i - start : MAX_NAME;
      for (size_t k = 0; k < c->n && !dup; k++)
        dup = strlen (c->names[k]) == n
              && memcmp (c->names[k], src + start, n) == 0;
      if (dup)
        continue;
      c->names[c->n] = malloc (n + 1);
      if (c->names[c->n] == NULL)
        violated ("the checker ran out of memory");
      memcpy (c->names[c->n], src + start, n);
      c->names[c->n][n] = '\0';
      c->n++;
    }
}

static void
free_candidates (Candidates *c)
{
  for (size_t k = 0; k < c->n; k++)
    free (c->names[k]);
  c->n = 0;
}

static uint32_t
next_pick (uint32_t *state)
{
  uint32_t x = *state;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* One name by mode: 1 a candidate, 2 "", 3 absent. */
static const char *
pick_name (unsigned mode, const Candidates *c, uint32_t *state)
{
  uint32_t r = next_pick (state);

  if (mode == 1 && c->n > 0)
    return c->names[r % c->n];
  if (mode == 2)
    return "";
  return "no_such_name_here";
}

/* ---- the properties of one compile ------------------------------------ */

static size_t
count_lines (const char *src, size_t len)
{
  size_t lines = 1;

  for (size_t i = 0; i < len; i++)
    lines += src[i] == '\n';
  return lines;
}

/* Characters on 1-based line `line` (an invalid byte counts as one). */
static size_t
line_chars (const char *src, size_t len, size_t line)
{
  size_t i = 0, chars = 0;

  for (size_t l = 1; l < line && i < len; i++)
    if (src[i] == '\n')
      l++;
  while (i < len && src[i] != '\n')
    {
      size_t n = utf8_len ((const unsigned char *) src + i, len - i);
      i += n == 0 ? 1 : n;
      chars++;
    }
  return chars;
}

/* The reading map fits its readings: a map line per line, refs within
 * their lines and in order, nodes on the tape, and a source span on the
 * program's lines for every node the program recorded. */
static void
check_map (const TpSession *s, const char *src, size_t len)
{
  TpStats stats;
  uint32_t spec_nodes = tp_session_spec_nodes (s);
  size_t n_grads;
  const TpGradient *grads = tp_session_gradients (s, &n_grads);

  tp_session_stats (s, &stats);
  CHECK (spec_nodes >= 1 && spec_nodes <= stats.nodes);
  for (int r = 0; r <= TP_READING_VALUES; r++)
    {
      const char *text = tp_session_reading (s, (TpReading) r);
      size_t n_lines = tp_session_map_n_lines (s, (TpReading) r);
      size_t n_refs = tp_session_map_n_refs (s, (TpReading) r), seen = 0;
      const char *line = text;

      CHECK (n_refs <= TP_MAP_REFS);
      for (size_t k = 0; k < n_lines; k++)
        {
          TpMapLine ml;
          const char *nl = strchr (line, '\n');
          uint32_t last_end = 0;

          CHECK (nl != NULL);
          CHECK (tp_session_map_line (s, (TpReading) r, k, &ml));
          CHECK ((unsigned) ml.role < TP_N_ROLES);
          CHECK (ml.node == TP_MAP_NO_NODE || ml.node < stats.nodes);
          CHECK (ml.first_ref == seen);
          for (uint32_t j = 0; j < ml.n_refs; j++)
            {
              TpMapRef ref;
              CHECK (tp_session_map_ref (s, (TpReading) r, ml.first_ref + j, &ref));
              CHECK (ref.line == k);
              CHECK (ref.start >= last_end && ref.start < ref.end);
              CHECK (ref.end <= (size_t) (nl - line));
              CHECK ((unsigned) ref.klass < TP_N_TOKENS);
              CHECK (ref.node == TP_MAP_NO_NODE || ref.node < stats.nodes);
              last_end = ref.end;
            }
          seen += ml.n_refs;
          line = nl + 1;
        }
      CHECK (*line == '\0');
      CHECK (seen == n_refs);
    }
  for (uint32_t i = 0; i < stats.nodes; i++)
    {
      TpSourceSpan span;
      bool has = tp_session_source (s, i, &span);
      CHECK (has == (i < spec_nodes));
      if (!has)
        continue;
      CHECK (span.line >= 1 && span.line <= count_lines (src, len));
      CHECK (span.first >= 1 && span.first <= span.last);
      CHECK (span.last <= line_chars (src, len, span.line));
    }
  for (size_t k = 0; k < n_grads; k++)
    {
      CHECK (grads[k].parameter < spec_nodes);
      CHECK (grads[k].gradient < stats.nodes);
      CHECK (grads[k].name != NULL && grads[k].name[0] != '\0');
    }
}

/* The step-through seam: steps in tape order (a node computed again by
 * --remat has a second step, later than its first), states consistent
 * with them, origins naming earlier nodes. */
static void
check_steps (const TpSession *s)
{
  TpStats stats;
  size_t n = tp_session_n_steps (s), at;
  uint32_t prev = 0;
  TpStep st;
  TpOrigin o;

  tp_session_stats (s, &stats);
  for (size_t k = 0; k < n; k++)
    {
      CHECK (tp_session_step (s, k, &st));
      CHECK (st.last >= k && st.last < n);
      CHECK (!st.kept || st.last == n - 1);
      CHECK (tp_session_node_state (s, k, st.node) == TP_NODE_LIVE);
      if (st.again)
        {
          CHECK (st.node < stats.nodes && !st.kept);
          CHECK (tp_session_node_step (s, st.node, &at) && at < k);
          continue;
        }
      CHECK (st.node < stats.nodes && (k == 0 || st.node > prev));
      CHECK (tp_session_node_step (s, st.node, &at) && at == k);
      CHECK (k == 0 || tp_session_node_state (s, k - 1, st.node)
                       == TP_NODE_PENDING);
      CHECK (st.last + 1 >= n || tp_session_rematerialised (s, st.node)
             || tp_session_node_state (s, st.last + 1, st.node)
                == TP_NODE_FREED);
      prev = st.node;
    }
  CHECK (!tp_session_step (s, n, &st));
  for (uint32_t i = 0; i < stats.nodes && i < 4096; i++)
    {
      size_t len;
      if (!tp_session_origin (s, i, &o))
        break;
      CHECK ((unsigned) o.role <= TP_ORIGIN_APPENDED);
      CHECK (o.of == TP_MAP_NO_NODE || o.of < i);
      CHECK (o.role != TP_ORIGIN_SHARE || (o.share < i && o.sum < i));
      CHECK (tp_session_explanation (s, i, &len) != NULL);
      /* a node's value as text (NULL only when memory runs out) */
      if (i < 64)
        {
          char *text = tp_session_node_value_text (s, i, 16);

          CHECK (text == NULL || (text[0] != '\0' && clean_text (text, false)));
          tp_string_free (text);
        }
    }
}

static void
check_compile (const TpSession *s, TpStatus st, const char *src, size_t len,
               bool failed)
{
  size_t n_diags, n_names;
  const TpDiag *d = tp_session_diags (s, &n_diags);
  const TpName *names = tp_session_names (s, &n_names);

  CHECK (st == TP_STATUS_OK || st == TP_STATUS_REFUSED
         || st == TP_STATUS_NO_MEMORY);
  /* A failed allocation is reported as out of memory, never as anything
   * else; out of memory is reported only after a failure. */
  CHECK (failed == (st == TP_STATUS_NO_MEMORY));
  for (int r = 0; r < TP_N_READINGS; r++)
    {
      const char *text = tp_session_reading (s, (TpReading) r);
      CHECK (text != NULL);
      CHECK (st == TP_STATUS_OK || text[0] == '\0');
      CHECK (clean_text (text, true));
    }
  if (st != TP_STATUS_OK)
    {
      CHECK (n_diags == 1 && d != NULL);
      CHECK (d->message != NULL && d->message[0] != '\0');
      CHECK (strlen (d->message) <= MAX_MESSAGE);
      CHECK (clean_text (d->message, false));
      CHECK (d->line >= 1 && d->line <= count_lines (src, len));
      CHECK (d->column >= 1);
      CHECK (d->column <= line_chars (src, len, d->line) + 1);
      CHECK (st != TP_STATUS_NO_MEMORY
             || strcmp (d->message, "out of memory") == 0);
      CHECK (n_names == 0);
      for (int r = 0; r < TP_N_READINGS; r++)
        CHECK (tp_session_map_n_lines (s, (TpReading) r) == 0);
      return;
    }
  CHECK (n_diags == 0);
  CHECK (tp_session_reading (s, TP_READING_SPEC)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_DERIVATIVE)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_PLAN)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_VALUES)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_SUMMARY)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_CHECK)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_EXPLAIN)[0] != '\0');
  CHECK (tp_session_reading (s, TP_READING_MEMORY)[0] != '\0');
  CHECK (strncmp (tp_session_memory_svg (s), "<svg ", 5) == 0);
  /* explain's replay of differentiate always matches the tape. */
  CHECK (strstr (tp_session_reading (s, TP_READING_EXPLAIN),
                 ": appended by differentiate, ") == NULL);
  /* The memory chart's totals are the plan's: both have the same
   * "live volume: ..." line, the memory reading's last (the plan's is
   * followed by the remat line with --remat). */
  {
    const char *plan = tp_session_reading (s, TP_READING_PLAN);
    const char *memory = tp_session_reading (s, TP_READING_MEMORY);
    const char *a = strstr (plan, "\nlive volume: ");
    const char *b = strstr (memory, "\nlive volume: ");
    CHECK (a != NULL && b != NULL && strchr (b + 1, '\n') != NULL
           && strncmp (a, b, (size_t) (strchr (b + 1, '\n') - b) + 1) == 0
           && strchr (b + 1, '\n')[1] == '\0');
  }
  CHECK (n_names >= 1 && names != NULL);
  check_map (s, src, len);
  check_steps (s);
  for (size_t k = 0; k < n_names; k++)
    {
      const TpName *nm = &names[k];
      uint64_t volume = 1;
      CHECK (nm->name != NULL && nm->name[0] != '\0');
      CHECK (clean_text (nm->name, false));
      CHECK (nm->rank <= 16);
      CHECK (nm->scalar == (nm->rank == 0));
      CHECK (nm->rank == 0 || nm->dims != NULL);
      for (uint32_t a = 0; a < nm->rank; a++)
        {
          CHECK (nm->dims[a] >= 1);
          volume *= nm->dims[a];
          CHECK (volume <= (UINT64_C (1) << 22));
        }
    }
}

/* Everything a session says, as one comparable text (malloc'd). */
static char *
snapshot (const TpSession *s, TpStatus st)
{
  size_t n_diags, n_names, cap = 64, n = 0;
  const TpDiag *d = tp_session_diags (s, &n_diags);
  const TpName *names = tp_session_names (s, &n_names);
  char *json, *out;

  for (int r = 0; r < TP_N_READINGS; r++)
    cap += strlen (tp_session_reading (s, (TpReading) r)) + 1;
  for (size_t k = 0; k < n_diags; k++)
    cap += strlen (d[k].message) + 32;
  for (size_t k = 0; k < n_names; k++)
    cap += strlen (names[k].name) + 32 + 12 * names[k].rank;
  json = tp_session_to_json (s);
  if (json == NULL)
    return NULL;
  cap += strlen (json);
  out = malloc (cap);
  if (out == NULL)
    violated ("the checker ran out of memory");
  n += (size_t) sprintf (out + n, "%d\n", (int) st);
  for (int r = 0; r < TP_N_READINGS; r++)
    n += (size_t) sprintf (out + n, "%s\x01", tp_session_reading (s, (TpReading) r));
  for (size_t k = 0; k < n_diags; k++)
    n += (size_t) sprintf (out + n, "%u:%u:%s\x01", d[k].line, d[k].column,
                           d[k].message);
  for (size_t k = 0; k < n_names; k++)
    {
      n += (size_t) sprintf (out + n, "%s %u %d %d", names[k].name,
                             names[k].node, names[k].scalar,
                             names[k].parameter);
      for (uint32_t a = 0; a < names[k].rank; a++)
        n += (size_t) sprintf (out + n, ",%u", names[k].dims[a]);
      out[n++] = '\x01';
    }
  memcpy (out + n, json, strlen (json) + 1);
  tp_string_free (json);
  return out;
}

/* ---- the target ------------------------------------------------------- */

void
tp_fuzz_one (const uint8_t *data, size_t size)
{
  uint8_t flags = 0, seed = 0;
  const char *src;
  size_t len;
  Candidates cand;
  const char *observe[8];
  const char *remat[1];
  TpChoices choices;
  uint32_t state;
  TpSession *s;
  TpStatus st;
  char *json;

  if (size >= TP_FUZZ_HEADER)
    {
      flags = data[0];
      seed = data[1];
      data += TP_FUZZ_HEADER;
      size -= TP_FUZZ_HEADER;
    }
  src = (const char *) data;
  len = size;
  state = 0x9E3779B9u ^ (uint32_t) seed * 0x01000193u;

  collect_candidates (src, len, &cand);
  memset (&choices, 0, sizeof choices);
  choices.exact = (flags & 1) != 0;
  if ((flags >> 1 & 3) != 0)
    choices.target = pick_name (flags >> 1 & 3, &cand, &state);
  choices.n_observe = flags >> 3 & 7;
  for (size_t k = 0; k < choices.n_observe; k++)
    {
      uint32_t r = next_pick (&state);
      observe[k] = pick_name (r % 8 == 0 ? 3 : r % 8 == 1 ? 2 : 1, &cand,
                              &state);
    }
  choices.observe = observe;
  /* The passes, from the seed's high bits: the rewrites, and a
   * rematerialisation by auto or of a name. */
  choices.optimize = (seed & 0x10) != 0;
  choices.remat_auto = (seed & 0x60) == 0x20;
  if ((seed & 0x60) == 0x40)
    {
      remat[0] = pick_name (1, &cand, &state);
      choices.remat = remat;
      choices.n_remat = remat[0] != NULL ? 1 : 0;
    }

  memset (&mem, 0, sizeof mem);
  mem.countdown = -1;
  if (flags & 0x40)
    mem.countdown = seed < 128 ? seed : (long) (seed - 128) * 32;
  s = tp_session_new_with_allocator (&counting);
  if (s == NULL)
    {
      CHECK (mem.failures == 1 && mem.live_blocks == 0);
      goto out;
    }
  if (flags & 0x80)
    {
      /* As in an editor: an earlier state of the text first. */
      size_t cut = len / 2 + (seed % 7);
      TpStatus early = tp_session_compile (s, src, cut < len ? cut : len,
                                           &choices);
      if (early == TP_STATUS_OK)
        {
          json = tp_session_to_json (s);
          tp_string_free (json);
        }
    }
  {
    long before = mem.failures;
    st = tp_session_compile (s, src, len, &choices);
    /* A failed allocation is reported as out of memory, never as
     * anything else; out of memory is reported only after a failure. */
    CHECK ((mem.failures > before) == (st == TP_STATUS_NO_MEMORY));
    /* Every reading asked for, as a front end asks: one made on demand
     * that runs out of memory leaves the session saying so. */
    before = mem.failures;
    for (int r = 0; r < TP_N_READINGS; r++)
      tp_session_reading (s, (TpReading) r);
    tp_session_memory_svg (s);
    CHECK ((tp_session_status (s) == TP_STATUS_NO_MEMORY)
           == (st == TP_STATUS_NO_MEMORY || mem.failures > before));
    st = tp_session_status (s);
    check_compile (s, st, src, len, st == TP_STATUS_NO_MEMORY);
    before = mem.failures;
    json = tp_session_to_json (s);
    /* NULL only when an allocation failed while writing it. */
    CHECK (json != NULL || mem.failures > before);
  }
  if (json != NULL)
    check_json (s, json);
  tp_string_free (json);

  mem.countdown = -1;    /* the failure, if any, was meant for the above */
  if ((flags & 0x80) && mem.failures == 0)
    {
      /* The reused session says exactly what a fresh one says. */
      TpSession *fresh = tp_session_new_with_allocator (&counting);
      char *a, *b;
      CHECK (fresh != NULL);
      CHECK (tp_session_compile (fresh, src, len, &choices) == st);
      a = snapshot (s, st);
      b = snapshot (fresh, st);
      CHECK (a != NULL && b != NULL);
      CHECK (strcmp (a, b) == 0);
      free (a);
      free (b);
      tp_session_free (fresh);
    }
  tp_session_free (s);
out:
  CHECK (mem.live_blocks == 0);
  CHECK (mem.live_bytes == 0);
  CHECK (mem.peak_bytes <= PEAK_LIMIT);
  free_candidates (&cand);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  tp_fuzz_one (data, size);
  return 0;
}
