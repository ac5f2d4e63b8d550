/* fuzz-lesson.c: the fuzz target on the lesson reader and the grader
 * (docs/lessons.md), with the interface of tp-fuzz.h, so tp-fuzz-replay
 * runs its seeds (built with TP_FUZZ_SEED_SUFFIX ".lesson") and
 * libFuzzer its mutations.
 *
 * An input is a two-byte header and the lesson's bytes:
 *
 *   byte 0  bit 0  fail one allocation (which one: byte 1)
 *           bit 1  translate every message (a mangling that keeps some
 *                  markup and breaks other)
 *           bit 2  compile the lesson's starting program (bit 3: its
 *                  solution) and grade it, trainings left ungraded
 *           bit 4  compile it without the lesson's choices
 *   byte 1  seeds the picks
 *
 * Properties, for any input: nothing crashes; a refusal has a line and a
 * column inside the text and one short, clean message; a lesson that
 * reads keeps every bound (goals, hints, choices, list depth), every
 * span is valid UTF-8 without control characters and every link's
 * address is http(s) of the allowed characters; the JSON parses; a
 * translation keeps all of that; a grade has a result per goal whose
 * found text is clean, and a program compiled with other choices than
 * the lesson's meets no goal about it (and one compiled with them is
 * never told so); every block allocated is freed; and a failed
 * allocation gives NULL (or -1 from a translation), never anything
 * half made.  A violation aborts. */
#include "tp-fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"
#include "tp-engine-testing.h"

const uint8_t tp_fuzz_seed_headers[][TP_FUZZ_HEADER] = {
  { 0x00, 0x00 },       /* read it */
  { 0x02, 0x00 },       /* translate */
  { 0x04, 0x05 },       /* grade the start */
  { 0x0e, 0x01 },       /* translate, grade the solution */
  { 0x14, 0x03 },       /* grade the start without the lesson's choices */
  { 0x01, 0x07 },       /* fail allocation 7 */
  { 0x05, 0x40 },       /* grade, fail allocation 64 */
};
const size_t tp_fuzz_n_seed_headers =
  sizeof tp_fuzz_seed_headers / sizeof tp_fuzz_seed_headers[0];

static void
violated (const char *what)
{
  fprintf (stderr, "tp-fuzz-lesson: property violated: %s\n", what);
  abort ();
}

#define CHECK(cond) \
  do { if (!(cond)) violated (#cond); } while (0)

/* ---- the counting allocator ------------------------------------------- */

typedef union
{
  size_t size;
  long double align_ld;
  void *align_p;
} Head;

static struct
{
  long live;
  long countdown;       /* fail when it reaches 0; < 0 never fails */
  long failures;
} mem;

static bool
should_fail (void)
{
  if (mem.countdown == 0)
    {
      mem.failures++;
      mem.countdown = -1;
      return true;
    }
  if (mem.countdown > 0)
    mem.countdown--;
  return false;
}

static void *
counted_malloc (size_t size)
{
  Head *h;

  if (should_fail () || size > SIZE_MAX - sizeof *h)
    return NULL;
  h = malloc (sizeof *h + size);
  if (h == NULL)
    return NULL;
  h->size = size;
  mem.live++;
  return h + 1;
}

static void *
counted_realloc (void *ptr, size_t size)
{
  Head *h;

  if (ptr == NULL)
    return counted_malloc (size);
  if (should_fail () || size > SIZE_MAX - sizeof *h)
    return NULL;
  h = realloc ((Head *) ptr - 1, sizeof *h + size);
  if (h == NULL)
    return NULL;
  h->size = size;
  return h + 1;
}

static void
counted_free (void *ptr)
{
  if (ptr == NULL)
    return;
  CHECK (mem.live > 0);
  mem.live--;
  free ((Head *) ptr - 1);
}

static const TpAllocator counting = { counted_malloc, counted_realloc,
                                      counted_free };

/* ---- text ------------------------------------------------------------- */

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

/* len bytes of valid UTF-8 without control characters (in code, a tab
 * and a newline allowed). */
static bool
clean (const char *text, size_t len, bool code)
{
  const unsigned char *p = (const unsigned char *) text;

  for (size_t i = 0; i < len;)
    {
      size_t n = utf8_len (p + i, len - i);
      if (n == 0 || p[i] == 0x7F
          || (p[i] < 0x20 && !(code && (p[i] == '\t' || p[i] == '\n'))))
        return false;
      i += n;
    }
  return true;
}

static void
check_text (const TpLessonText *t)
{
  CHECK (t->source != NULL && strlen (t->source) == t->source_length);
  CHECK (clean (t->source, t->source_length, false));
  CHECK (t->line >= 1);
  for (size_t k = 0; k < t->n_spans; k++)
    {
      const TpSpan *s = &t->spans[k];
      CHECK ((unsigned) s->kind <= TP_SPAN_LINK);
      CHECK (s->text != NULL && strlen (s->text) == s->length);
      CHECK (clean (s->text, s->length, false));
      CHECK (s->length > 0 || s->kind == TP_SPAN_TEXT);
      CHECK ((s->url != NULL) == (s->kind == TP_SPAN_LINK));
      if (s->url == NULL)
        continue;
      CHECK (strlen (s->url) == s->url_length);
      CHECK (s->url_length <= TP_LESSON_MAX_URL);
      CHECK (strncmp (s->url, "https://", 8) == 0
             || strncmp (s->url, "http://", 7) == 0);
      for (size_t i = 0; i < s->url_length; i++)
        CHECK (s->url[i] > ' ' && s->url[i] < 0x7F
               && strchr ("\"'<>\\`()[]{}|^", s->url[i]) == NULL);
    }
}

static void
check_blocks (const TpLessonBlock *b, size_t n, unsigned depth)
{
  CHECK (depth <= TP_LESSON_MAX_DEPTH);
  for (size_t k = 0; k < n; k++)
    {
      CHECK (b[k].line >= 1);
      switch (b[k].kind)
        {
        case TP_BLOCK_PARAGRAPH:
          check_text (&b[k].text);
          break;
        case TP_BLOCK_CODE:
          CHECK (strlen (b[k].code) == b[k].code_length);
          CHECK (clean (b[k].code, b[k].code_length, true));
          CHECK (strlen (b[k].info) <= 32);
          break;
        case TP_BLOCK_LIST:
          CHECK (b[k].n_items >= 1 && depth < TP_LESSON_MAX_DEPTH);
          for (size_t i = 0; i < b[k].n_items; i++)
            check_blocks (b[k].items[i].blocks, b[k].items[i].n_blocks,
                          depth + 1);
          break;
        default:
          violated ("a block of no known kind");
        }
    }
}

/* ---- JSON: it parses ---------------------------------------------------- */

typedef struct
{
  const char *p;
  const char *end;
  int depth;
} Json;

static void
ws (Json *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n'))
    j->p++;
}

static bool value (Json *j);

static bool
string (Json *j)
{
  if (j->p >= j->end || *j->p != '"')
    return false;
  for (j->p++; j->p < j->end && *j->p != '"'; j->p++)
    {
      if ((unsigned char) *j->p < 0x20)
        return false;
      if (*j->p == '\\')
        {
          j->p++;
          if (j->p >= j->end || strchr ("\"\\/bfnrtu", *j->p) == NULL)
            return false;
        }
    }
  if (j->p >= j->end)
    return false;
  j->p++;
  return true;
}

static bool
container (Json *j, char close)
{
  bool object = close == '}';

  if (++j->depth > 64)
    return false;
  j->p++;
  ws (j);
  if (j->p < j->end && *j->p == close)
    {
      j->p++;
      j->depth--;
      return true;
    }
  for (;;)
    {
      ws (j);
      if (object)
        {
          if (!string (j))
            return false;
          ws (j);
          if (j->p >= j->end || *j->p++ != ':')
            return false;
        }
      if (!value (j))
        return false;
      ws (j);
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
value (Json *j)
{
  ws (j);
  if (j->p >= j->end)
    return false;
  if (*j->p == '{')
    return container (j, '}');
  if (*j->p == '[')
    return container (j, ']');
  if (*j->p == '"')
    return string (j);
  if (strncmp (j->p, "true", 4) == 0 || strncmp (j->p, "null", 4) == 0)
    {
      j->p += 4;
      return true;
    }
  if (strncmp (j->p, "false", 5) == 0)
    {
      j->p += 5;
      return true;
    }
  if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
    {
      j->p++;
      while (j->p < j->end && ((*j->p >= '0' && *j->p <= '9')
                               || strchr (".eE+-", *j->p) != NULL))
        j->p++;
      return true;
    }
  return false;
}

static void
check_json (const char *text)
{
  Json j = { text, text + strlen (text), 0 };

  CHECK (value (&j));
  ws (&j);
  CHECK (j.p == j.end);
}

/* ---- the target ------------------------------------------------------- */

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

/* A translation that keeps a message's marks but moves its words
 * around, every third one broken (an open `*`), and now and then text
 * with markup characters in it. */
static char translated[4096];

static const char *
mangle (const char *msgid, void *data)
{
  uint32_t *state = data;
  uint32_t r = next_pick (state);
  size_t n = strlen (msgid);

  if (r % 5 == 0)
    return NULL;
  if (r % 5 == 1)
    return "<b>*\xc3\xa9t\xc3\xa9*</b> `x` [a](https://a.org/)";
  if (n + 2 >= sizeof translated)
    return msgid;
  for (size_t i = 0; i < n; i++)
    translated[i] = msgid[n - 1 - i] == '\n' ? ' ' : msgid[n - 1 - i];
  translated[n] = r % 3 == 0 ? '*' : '.';
  translated[n + 1] = '\0';
  return translated;
}

static size_t
count_lines (const char *text, size_t len)
{
  size_t lines = 1;

  for (size_t i = 0; i < len; i++)
    lines += text[i] == '\n';
  return lines;
}

/* The characters of 1-based line `line`, as the reader counts them (the
 * bytes that are not UTF-8 continuation bytes). */
static size_t
line_chars (const char *text, size_t len, size_t line)
{
  size_t i = 0, chars = 0;

  for (size_t l = 1; l < line && i < len; i++)
    if (text[i] == '\n')
      l++;
  for (; i < len && text[i] != '\n'; i++)
    chars += ((unsigned char) text[i] & 0xC0) != 0x80;
  return chars;
}

static bool
has_choices (const TpChoices *c)
{
  return c->optimize || c->remat_auto || c->n_remat > 0 || c->direction != NULL;
}

static void
grade (const TpLesson *l, bool solution, bool plain, uint32_t *state)
{
  size_t len, n_goals;
  const char *program = solution ? tp_lesson_solution (l, &len)
                                 : tp_lesson_start (l, &len);
  const TpLessonGoal *goals = tp_lesson_goals (l, &n_goals);
  TpSession *s = tp_session_new_with_allocator (&counting);
  int32_t answers[TP_LESSON_MAX_GOALS];
  size_t n_answers = next_pick (state) % (TP_LESSON_MAX_GOALS + 1);
  TpGrade *g;
  TpChoices choices = { 0 };
  const char *other = "the lesson grades its programs compiled with ";

  if (s == NULL)
    return;
  for (size_t k = 0; k < n_answers; k++)
    answers[k] = (int32_t) (next_pick (state) % 11) - 2;
  if (!plain)
    tp_lesson_choices (l, &choices);
  tp_session_compile (s, program, len, &choices);
  g = tp_lesson_grade (l, s, answers, n_answers, TP_GRADE_NO_TRAINING);
  if (g != NULL)
    {
      size_t met = 0;
      char *json;
      CHECK (tp_grade_n_goals (g) == n_goals);
      for (size_t k = 0; k < n_goals; k++)
        {
          TpGoalResult r;
          CHECK (tp_grade_goal (g, k, &r));
          CHECK ((unsigned) r.state <= TP_GOAL_UNGRADED);
          CHECK (r.sentence == &goals[k].sentence);
          CHECK (r.hint == NULL || (r.state == TP_GOAL_UNMET
                                    && r.hint == goals[k].hint));
          CHECK (strlen (r.found) == r.found_length);
          CHECK (clean (r.found, r.found_length, false));
          /* compiled with the lesson's choices, never told otherwise;
           * without them, nothing about the program is met */
          if (!plain)
            CHECK (strncmp (r.found, other, strlen (other)) != 0);
          else
            {
              TpChoices mine = { 0 };
              tp_lesson_choices (l, &mine);
              CHECK (!has_choices (&mine) || goals[k].kind == TP_GOAL_READS
                     || goals[k].kind == TP_GOAL_QUESTION
                     || r.state == TP_GOAL_UNMET);
            }
          /* trainings are left ungraded, but on a program that does
           * not read, where every goal on the program is unmet */
          CHECK (goals[k].kind != TP_GOAL_TRAINS
                 || r.state == TP_GOAL_UNGRADED
                 || strcmp (r.found, "the program does not read") == 0);
          met += r.state == TP_GOAL_MET;
        }
      CHECK (tp_grade_met (g) == met);
      CHECK (tp_grade_all_met (g) == (met == n_goals));
      json = tp_grade_to_json (g);
      if (json != NULL)
        check_json (json);
      tp_string_free (json);
      tp_grade_free (g);
    }
  else
    CHECK (mem.failures > 0);
  tp_session_free (s);
}

void
tp_fuzz_one (const uint8_t *data, size_t size)
{
  uint8_t flags = 0, seed = 0;
  const char *text;
  uint32_t state;
  TpLesson *l;
  const TpDiag *d;

  if (size >= TP_FUZZ_HEADER)
    {
      flags = data[0];
      seed = data[1];
      data += TP_FUZZ_HEADER;
      size -= TP_FUZZ_HEADER;
    }
  text = (const char *) data;
  state = 0x9E3779B9u ^ (uint32_t) seed * 0x01000193u;
  memset (&mem, 0, sizeof mem);
  mem.countdown = (flags & 1) ? (long) seed : -1;

  l = tp_lesson_parse_with_allocator (text, size, &counting);
  if (l == NULL)
    {
      CHECK (mem.failures == 1);
      CHECK (mem.live == 0);
      return;
    }
  d = tp_lesson_error (l);
  if (d != NULL)
    {
      CHECK (d->message != NULL && d->message[0] != '\0');
      CHECK (strlen (d->message) <= 1024);
      CHECK (clean (d->message, strlen (d->message), false));
      CHECK (d->line >= 1 && d->line <= count_lines (text, size));
      CHECK (d->column >= 1);
      CHECK (d->column <= line_chars (text, size, d->line) + 1);
      CHECK (tp_lesson_title (l) == NULL && tp_lesson_n_messages (l) == 0);
    }
  else
    {
      size_t n, len;
      const TpLessonBlock *blocks = tp_lesson_text (l, &n);
      const TpLessonGoal *goals;
      size_t questions = 0;

      CHECK (size <= TP_LESSON_MAX_BYTES);
      check_text (tp_lesson_title (l));
      check_blocks (blocks, n, 0);
      tp_lesson_hints (l, &n);
      CHECK (n <= TP_LESSON_MAX_HINTS);
      CHECK (tp_lesson_start (l, &len) != NULL && strlen (tp_lesson_start (l, &len)) == len);
      CHECK (tp_lesson_solution (l, &len) != NULL);
      goals = tp_lesson_goals (l, &n);
      CHECK (n >= 1 && n <= TP_LESSON_MAX_GOALS);
      for (size_t k = 0; k < n; k++)
        {
          CHECK ((unsigned) goals[k].kind < TP_N_GOAL_KINDS);
          CHECK (tp_goal_kind_name (goals[k].kind) != NULL);
          CHECK (goals[k].line >= 1 && goals[k].line <= count_lines (text, size));
          check_text (&goals[k].sentence);
          if (goals[k].hint != NULL)
            check_text (goals[k].hint);
          if (goals[k].kind == TP_GOAL_QUESTION)
            {
              CHECK (goals[k].question == questions++);
              CHECK (goals[k].n_choices >= 2
                     && goals[k].n_choices <= TP_LESSON_MAX_CHOICES);
              for (size_t c = 0; c < goals[k].n_choices; c++)
                check_text (&goals[k].choices[c]);
            }
          else
            CHECK (goals[k].n_choices == 0);
        }
      CHECK (questions == tp_lesson_n_questions (l));
      for (size_t k = 0; k < tp_lesson_n_messages (l); k++)
        check_text (tp_lesson_message (l, k));
      if (flags & 2)
        {
          long kept = tp_lesson_translate (l, mangle, &state);
          CHECK (kept >= -1 && kept <= (long) tp_lesson_n_messages (l));
          CHECK (kept >= 0 || mem.failures > 0);
          check_text (tp_lesson_title (l));
          for (size_t k = 0; k < tp_lesson_n_messages (l); k++)
            check_text (tp_lesson_message (l, k));
        }
      if (flags & 4)
        grade (l, (flags & 8) != 0, (flags & 16) != 0, &state);
    }
  {
    long before = mem.failures;
    char *json = tp_lesson_to_json (l);
    CHECK (json != NULL || mem.failures > before);
    if (json != NULL)
      check_json (json);
    tp_string_free (json);
  }
  tp_lesson_free (l);
  CHECK (mem.live == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  tp_fuzz_one (data, size);
  return 0;
}
