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
#include "fuzz-check.h"

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

void
fuzz_violated (const char *what)
{
  fprintf (stderr, "tp-fuzz: property violated: %s\n", what);
  abort ();
}

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
        fuzz_violated ("the checker ran out of memory");
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
      size_t n = fuzz_utf8_len ((const unsigned char *) src + i, len - i);
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

          CHECK (text == NULL || (text[0] != '\0' && fuzz_clean_text (text, false)));
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
      CHECK (fuzz_clean_text (text, true));
    }
  if (st != TP_STATUS_OK)
    {
      CHECK (n_diags == 1 && d != NULL);
      CHECK (d->message != NULL && d->message[0] != '\0');
      CHECK (strlen (d->message) <= MAX_MESSAGE);
      CHECK (fuzz_clean_text (d->message, false));
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
      CHECK (fuzz_clean_text (nm->name, false));
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
    fuzz_violated ("the checker ran out of memory");
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
    fuzz_check_json (s, json);
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
