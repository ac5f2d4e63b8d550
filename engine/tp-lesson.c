/* tp-lesson.c: reading a lesson file (docs/lessons.md): its bounds and
 * characters, its lines, the title and the sections, the two programs
 * and the hints; then what a front end asks of it, and translation.
 * The text's blocks and spans are tp-lesson-text.c's, the choices
 * tp-lesson-choices.c's, the goals tp-lesson-goals.c's.
 *
 * A lesson is untrusted input, so every loop here is bounded by the
 * lesson's size (TP_LESSON_MAX_BYTES, checked before anything else) and
 * the first thing wrong refuses the whole lesson with its line and
 * column; nothing is guessed. */
#include "tp-lesson.h"

#include <string.h>

/* {==== characters ====} */

/* The code point at p (n bytes left) and its length, or 0 for a byte that
 * does not start valid UTF-8 (overlong forms and surrogates included). */
static uint32_t
decode (const unsigned char *p, size_t n, uint32_t *cp)
{
  uint32_t c = p[0], len, min;

  if (c < 0x80)
    {
      *cp = c;
      return 1;
    }
  if (c >= 0xC2 && c <= 0xDF)
    len = 2, min = 0x80, c &= 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3, min = 0x800, c &= 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4, min = 0x10000, c &= 0x07;
  else
    return 0;
  if (n < len)
    return 0;
  for (uint32_t k = 1; k < len; k++)
    {
      if ((p[k] & 0xC0) != 0x80)
        return 0;
      c = c << 6 | (p[k] & 0x3F);
    }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *cp = c;
  return len;
}

uint32_t
tp_lesson_chars (const char *text, uint32_t at)
{
  uint32_t chars = 0;

  for (uint32_t i = 0; i < at; i++)
    chars += ((unsigned char) text[i] & 0xC0) != 0x80;
  return chars;
}

/* Why the character at p may not be in a lesson, or NULL when it may:
 * control characters (a tab only where the caller allows it), text that
 * is not UTF-8, and the direction controls that make text read other
 * than it is. */
const char *
tp_lesson_bad_char (const char *text, size_t n, bool tab, uint32_t *length)
{
  uint32_t cp;
  uint32_t len = decode ((const unsigned char *) text, n, &cp);

  *length = len == 0 ? 1 : len;
  if (len == 0)
    return "this is not UTF-8 text: a lesson is UTF-8";
  if (cp == '\t' && !tab)
    return "a tab: indent and separate with spaces (tabs are kept only in "
           "code blocks and programs)";
  if (cp < 0x20 && cp != '\t')
    return "a control character: a lesson holds text, not control characters";
  if (cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
    return "a control character: a lesson holds text, not control characters";
  if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)
      || cp == 0x200E || cp == 0x200F || cp == 0x061C)
    return "a direction control character: it can make text read other than "
           "it is written";
  return NULL;
}

/* {==== refusals ====} */

bool
tp_lesson_oom (TpLessonReader *r)
{
  r->failed = true;
  r->no_memory = true;
  return false;
}

bool
tp_lesson_refuse (TpLessonReader *r, uint32_t line, uint32_t at,
                  const char *message)
{
  TpLesson *l = r->lesson;
  const char *text = line < r->n_lines ? r->lines[line].text : "";
  uint32_t len = line < r->n_lines ? r->lines[line].len : 0;
  char *copy;

  if (r->failed)
    return false;
  r->failed = true;
  copy = tp_arena_strndup (r->arena, message, strlen (message));
  if (copy == NULL)
    return tp_lesson_oom (r);
  l->refused = true;
  l->diag.line = line + 1;
  l->diag.column = tp_lesson_chars (text, at < len ? at : len) + 1
                   + (at > len ? at - len : 0);
  l->diag.message = copy;
  return false;
}

bool
tp_lesson_refuse_scratch (TpLessonReader *r, uint32_t line, uint32_t at)
{
  if (r->scratch.failed)
    return tp_lesson_oom (r);
  return tp_lesson_refuse (r, line, at, r->scratch.data != NULL
                                        ? r->scratch.data : "");
}

void
tp_lesson_quote (TpBuf *out, const char *text, size_t len)
{
  size_t i = 0;
  uint32_t chars = 0;

  tp_buf_putc (out, '`');
  while (i < len && chars < 40)
    {
      uint32_t n;
      const char *why = tp_lesson_bad_char (text + i, len - i, false, &n);
      if (why != NULL)
        {
          tp_buf_puts (out, "\\u{");
          tp_buf_u64 (out, (unsigned char) text[i]);
          tp_buf_putc (out, '}');
          i += n;
        }
      else
        {
          tp_buf_append (out, text + i, n);
          i += n;
        }
      chars++;
    }
  if (i < len)
    tp_buf_puts (out, "...");
  tp_buf_putc (out, '`');
}

/* {==== lines ====} */

/* Checks the whole text's characters and cuts it into lines.  Tabs are
 * checked later, by what reads each line, since code may hold them. */
static bool
read_lines (TpLessonReader *r, const char *text, size_t length)
{
  TpLessonLine *lines;
  uint32_t n = 1, k = 0;
  size_t start = 0;

  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    {
      text += 3;          /* a byte-order mark is no character of the text */
      length -= 3;
    }
  for (size_t i = 0; i < length; i++)
    n += text[i] == '\n';
  lines = tp_arena_calloc (r->arena, n, sizeof *lines);
  if (lines == NULL)
    return tp_lesson_oom (r);
  r->lines = lines;
  r->n_lines = n;
  for (size_t i = 0; i <= length; i++)
    {
      if (i < length && text[i] != '\n')
        continue;
      lines[k].text = text + start;
      lines[k].len = (uint32_t) (i - start);
      if (lines[k].len > 0 && text[i - 1] == '\r')
        lines[k].len--;
      k++;
      start = i + 1;
    }
  for (k = 0; k < n; k++)
    {
      const char *t = lines[k].text;
      uint32_t len = lines[k].len;

      if (len > TP_LESSON_MAX_LINE)
        return tp_lesson_refuse (r, k, TP_LESSON_MAX_LINE,
                                 "a line of a lesson has at most 4,096 bytes");
      for (uint32_t i = 0; i < len;)
        {
          uint32_t step;
          const char *why = tp_lesson_bad_char (t + i, len - i, true, &step);
          if (why != NULL)
            return tp_lesson_refuse (r, k, i, why);
          i += step;
        }
    }
  return true;
}

static bool
blank (const TpLessonLine *line)
{
  for (uint32_t i = 0; i < line->len; i++)
    if (line->text[i] != ' ')
      return false;
  return true;
}

/* The line holds exactly word, spaces around it allowed. */
static bool
line_is (const TpLessonLine *line, const char *word)
{
  uint32_t i = 0, j = line->len, n = (uint32_t) strlen (word);

  while (i < j && line->text[i] == ' ')
    i++;
  while (j > i && line->text[j - 1] == ' ')
    j--;
  return j - i == n && memcmp (line->text + i, word, n) == 0;
}

static bool
starts_fence (const TpLessonLine *line)
{
  uint32_t i = 0;

  while (i < line->len && line->text[i] == ' ')
    i++;
  return line->len - i >= 3 && memcmp (line->text + i, "```", 3) == 0;
}

/* {==== sections ====} */

typedef enum
{
  SECTION_TEXT,
  SECTION_START,
  SECTION_SOLUTION,
  SECTION_HINTS,
  SECTION_CHOICES,
  SECTION_GOALS,
  N_SECTIONS
} Section;

static const char *const section_names[N_SECTIONS] = {
  "text", "start", "solution", "hints", "choices", "goals",
};

/* A line `## NAME` naming one of the sections. */
static bool
names_section (const TpLessonLine *h)
{
  for (int s = 0; s < N_SECTIONS; s++)
    if (line_is (&(TpLessonLine) { h->text + 3, h->len - 3 },
                 section_names[s]))
      return true;
  return false;
}

/* A program section: blank lines, one code block, blank lines. */
static bool
read_program (TpLessonReader *r, uint32_t first, uint32_t end,
              const char *name, const char **out, size_t *out_len)
{
  uint32_t open = first, close;
  TpBuf *m = &r->scratch;
  size_t size = 0;
  char *code, *w;

  while (open < end && blank (&r->lines[open]))
    open++;
  if (open == end || !starts_fence (&r->lines[open])
      || r->lines[open].text[0] != '`')
    {
      tp_buf_clear (m);
      tp_buf_puts (m, "the `## ");
      tp_buf_puts (m, name);
      tp_buf_puts (m, "` section holds the program as one code block, "
                   "between a line ``` and a line ```");
      return tp_lesson_refuse_scratch (r, open < end ? open : first - 1,
                                       open < end ? 0 : 3 + (uint32_t) strlen (name));
    }
  if (!line_is (&r->lines[open], "```") && !line_is (&r->lines[open], "```tape"))
    return tp_lesson_refuse (r, open, 3, "a program's code block opens with "
                             "``` or ```tape");
  for (close = open + 1; close < end; close++)
    if (line_is (&r->lines[close], "```") && r->lines[close].text[0] == '`')
      break;
  if (close == end)
    return tp_lesson_refuse (r, open, 0, "this code block is not closed: end "
                             "it with a line ```");
  for (uint32_t k = close + 1; k < end; k++)
    if (!blank (&r->lines[k]))
      {
        tp_buf_clear (m);
        tp_buf_puts (m, "the `## ");
        tp_buf_puts (m, name);
        tp_buf_puts (m, "` section holds one code block and nothing after it");
        return tp_lesson_refuse_scratch (r, k, 0);
      }
  for (uint32_t k = open + 1; k < close; k++)
    size += r->lines[k].len + 1u;
  code = tp_arena_alloc (r->arena, size + 1);
  if (code == NULL)
    return tp_lesson_oom (r);
  w = code;
  for (uint32_t k = open + 1; k < close; k++)
    {
      memcpy (w, r->lines[k].text, r->lines[k].len);
      w += r->lines[k].len;
      *w++ = '\n';
    }
  *w = '\0';
  *out = code;
  *out_len = size;
  return true;
}

/* The hints: one list of `- ` items, a paragraph each. */
static bool
read_hints (TpLessonReader *r, uint32_t first, uint32_t end)
{
  TpLesson *l = r->lesson;
  TpLessonView *views;
  TpLessonBlock *blocks;
  size_t n_blocks;
  const TpLessonBlock *list;

  views = tp_arena_calloc (r->arena, end - first + 1u, sizeof *views);
  if (views == NULL)
    return tp_lesson_oom (r);
  for (uint32_t k = first; k < end; k++)
    views[k - first].line = k;
  if (!tp_lesson_read_blocks (r, views, end - first, 0, &blocks, &n_blocks))
    return false;
  if (n_blocks == 0)
    return tp_lesson_refuse (r, first - 1, 0, "the `## hints` section has no "
                             "hint: write each as a list item, `- HINT`");
  for (size_t b = 0; b < n_blocks; b++)
    if (b > 0 || blocks[b].kind != TP_BLOCK_LIST || blocks[b].ordered)
      return tp_lesson_refuse (r, blocks[b].line - 1, 0, "the hints are one "
                               "list, an item per hint: `- HINT`");
  list = &blocks[0];
  if (list->n_items > TP_LESSON_MAX_HINTS)
    return tp_lesson_refuse (r, list->items[TP_LESSON_MAX_HINTS].blocks[0].line - 1,
                             0, "a lesson has at most 32 hints");
  l->hints = tp_arena_calloc (r->arena, list->n_items, sizeof *l->hints);
  if (l->hints == NULL)
    return tp_lesson_oom (r);
  for (size_t k = 0; k < list->n_items; k++)
    {
      const TpLessonItem *item = &list->items[k];
      if (item->n_blocks != 1 || item->blocks[0].kind != TP_BLOCK_PARAGRAPH)
        return tp_lesson_refuse (r, item->blocks[item->n_blocks > 1].line - 1,
                                 0, "a hint is one paragraph: no lists or "
                                 "code blocks inside it");
      l->hints[k] = item->blocks[0].text;
    }
  l->n_hints = list->n_items;
  return true;
}

static bool
read_section (TpLessonReader *r, Section which, uint32_t first, uint32_t end)
{
  TpLesson *l = r->lesson;
  TpLessonView *views;

  switch (which)
    {
    case SECTION_TEXT:
      views = tp_arena_calloc (r->arena, end - first + 1u, sizeof *views);
      if (views == NULL)
        return tp_lesson_oom (r);
      for (uint32_t k = first; k < end; k++)
        views[k - first].line = k;
      if (!tp_lesson_read_blocks (r, views, end - first, 0, &l->blocks,
                                  &l->n_blocks))
        return false;
      if (l->n_blocks == 0)
        return tp_lesson_refuse (r, first - 1, 0, "the `## text` section is "
                                 "empty: write what the lesson teaches");
      return true;
    case SECTION_START:
      return read_program (r, first, end, "start", &l->start, &l->start_len);
    case SECTION_SOLUTION:
      return read_program (r, first, end, "solution", &l->solution,
                           &l->solution_len);
    case SECTION_HINTS:
      return read_hints (r, first, end);
    case SECTION_CHOICES:
      return tp_lesson_read_choices (r, first, end);
    case SECTION_GOALS:
      return tp_lesson_read_goals (r, first, end);
    case N_SECTIONS:
      break;
    }
  return false;
}

/* The title, then the sections in the order written, each read as it
 * comes, so the first thing wrong in the file is the one reported. */
static bool
read_lesson (TpLessonReader *r)
{
  TpLesson *l = r->lesson;
  uint32_t k = 0, n = r->n_lines;
  bool seen[N_SECTIONS] = { false };
  TpLessonView title;
  TpBuf *m = &r->scratch;

  while (k < n && blank (&r->lines[k]))
    k++;
  if (k == n || r->lines[k].len < 2 || memcmp (r->lines[k].text, "# ", 2) != 0
      || blank (&(TpLessonLine) { r->lines[k].text + 2, r->lines[k].len - 2 }))
    return tp_lesson_refuse (r, k < n ? k : n - 1, 0,
                             "a lesson starts with its title: `# TITLE`");
  title.line = k;
  title.at = 2;
  while (title.at < r->lines[k].len && r->lines[k].text[title.at] == ' ')
    title.at++;
  if (!tp_lesson_read_text (r, &title, 1, &l->title))
    return false;
  for (k++; k < n && blank (&r->lines[k]); k++)
    ;
  while (k < n)
    {
      const TpLessonLine *h = &r->lines[k];
      uint32_t body, end;
      bool fence = false;
      int which = -1;

      if (h->len < 3 || memcmp (h->text, "## ", 3) != 0)
        return tp_lesson_refuse (r, k, 0, "after the title come the "
                                 "sections, each starting with a line "
                                 "`## text`, `## start`, `## solution`, "
                                 "`## hints`, `## choices` or `## goals`");
      for (int s = 0; s < N_SECTIONS; s++)
        if (line_is (&(TpLessonLine) { h->text + 3, h->len - 3 },
                     section_names[s]))
          which = s;
      if (which < 0)
        {
          uint32_t at = 3;
          while (at < h->len && h->text[at] == ' ')
            at++;
          tp_buf_clear (m);
          tp_buf_puts (m, "no section is called ");
          tp_lesson_quote (m, h->text + at, h->len - at);
          tp_buf_puts (m, ": the sections are text, start, solution, hints, "
                       "choices and goals");
          return tp_lesson_refuse_scratch (r, k, at);
        }
      if (seen[which])
        {
          tp_buf_clear (m);
          tp_buf_puts (m, "a second `## ");
          tp_buf_puts (m, section_names[which]);
          tp_buf_puts (m, "` section: each section comes once");
          return tp_lesson_refuse_scratch (r, k, 0);
        }
      seen[which] = true;
      body = k + 1;
      /* The section runs to the next `## ` line outside a code block,
       * or to the next line naming a section, even inside one (so a
       * code block left open is refused where it opens). */
      for (end = body; end < n; end++)
        {
          const TpLessonLine *e = &r->lines[end];
          if (e->len >= 3 && memcmp (e->text, "## ", 3) == 0
              && (!fence || names_section (e)))
            break;
          if (fence)
            fence = !line_is (e, "```");
          else if (starts_fence (e))
            fence = true;
        }
      if (!read_section (r, (Section) which, body, end))
        return false;
      k = end;
    }
  for (int s = 0; s < N_SECTIONS; s++)
    if (!seen[s] && s != SECTION_HINTS && s != SECTION_CHOICES)
      {
        tp_buf_clear (m);
        tp_buf_puts (m, "the lesson has no `## ");
        tp_buf_puts (m, section_names[s]);
        tp_buf_puts (m, "` section");
        return tp_lesson_refuse_scratch (r, n - 1, r->lines[n - 1].len);
      }
  return tp_lesson_check_choices (r);
}

/* {==== messages ====} */

static bool
add_message (TpLesson *l, TpLessonText *text, size_t *cap)
{
  if (l->n_messages == *cap)
    {
      size_t grown = *cap == 0 ? 64 : *cap * 2;
      TpLessonText **more = tp_arena_grow (&l->arena, l->messages, *cap,
                                           grown, sizeof *more);
      if (more == NULL)
        return false;
      l->messages = more;
      *cap = grown;
    }
  l->messages[l->n_messages++] = text;
  return true;
}

static bool
add_block_messages (TpLesson *l, TpLessonBlock *blocks, size_t n, size_t *cap)
{
  for (size_t b = 0; b < n; b++)
    {
      if (blocks[b].kind == TP_BLOCK_PARAGRAPH
          && !add_message (l, &blocks[b].text, cap))
        return false;
      for (size_t i = 0; i < blocks[b].n_items; i++)
        {
          const TpLessonItem *item = &blocks[b].items[i];
          if (!add_block_messages (l, (TpLessonBlock *) item->blocks,
                                   item->n_blocks, cap))
            return false;
        }
    }
  return true;
}

static bool
collect_messages (TpLesson *l)
{
  size_t cap = 0;

  if (!add_message (l, &l->title, &cap)
      || !add_block_messages (l, l->blocks, l->n_blocks, &cap))
    return false;
  for (size_t k = 0; k < l->n_hints; k++)
    if (!add_message (l, &l->hints[k], &cap))
      return false;
  for (size_t g = 0; g < l->n_goals; g++)
    {
      TpLessonGoal *goal = &l->goals[g];
      if (!goal->engine_sentence && !add_message (l, &goal->sentence, &cap))
        return false;
      if (goal->hint != NULL
          && !add_message (l, (TpLessonText *) goal->hint, &cap))
        return false;
      for (size_t c = 0; c < goal->n_choices; c++)
        if (!add_message (l, (TpLessonText *) &goal->choices[c], &cap))
          return false;
    }
  return true;
}

/* {==== the seam ====} */

static TpLesson *
parse (const char *text, size_t length, const TpAllocator *allocator)
{
  TpLesson *l = tp_malloc (sizeof *l);
  TpLessonReader r;

  if (l == NULL)
    return NULL;
  memset (l, 0, sizeof *l);
  l->allocator = allocator;
  tp_arena_init (&l->arena);
  memset (&r, 0, sizeof r);
  r.lesson = l;
  r.arena = &l->arena;
  tp_buf_init (&r.scratch);
  if (text == NULL)
    length = 0;
  if (length > TP_LESSON_MAX_BYTES)
    {
      /* Only the bounded prefix is looked at: where the limit falls. */
      TpLessonLine at = { text, 0 };
      uint32_t line = 0;
      for (size_t i = 0; i < TP_LESSON_MAX_BYTES; i++)
        if (text[i] == '\n')
          {
            line++;
            at.text = text + i + 1;
          }
      at.len = (uint32_t) (text + TP_LESSON_MAX_BYTES - at.text);
      l->refused = true;
      l->diag.line = line + 1;
      l->diag.column = tp_lesson_chars (at.text, at.len) + 1;
      l->diag.message = "a lesson has at most 262,144 bytes";
      tp_buf_clear (&r.scratch);
      return l;
    }
  if (read_lines (&r, text != NULL ? text : "", length))
    read_lesson (&r);
  if (!r.no_memory && !l->refused && !collect_messages (l))
    r.no_memory = true;
  tp_buf_clear (&r.scratch);
  if (r.no_memory)
    {
      tp_arena_reset (&l->arena);
      tp_free (l);
      return NULL;
    }
  if (l->refused)
    {
      /* Nothing of a refused lesson is given out but its refusal. */
      l->n_blocks = l->n_hints = l->n_goals = l->n_questions = 0;
      l->n_messages = 0;
      l->start = l->solution = NULL;
    }
  return l;
}

TpLesson *
tp_lesson_parse_with_allocator (const char *text, size_t length,
                                const TpAllocator *allocator)
{
  const TpAllocator *saved = tp_alloc_enter (allocator);
  TpLesson *l = parse (text, length, allocator);

  tp_alloc_leave (saved);
  return l;
}

TpLesson *
tp_lesson_parse (const char *text, size_t length)
{
  return tp_lesson_parse_with_allocator (text, length, NULL);
}

const TpDiag *
tp_lesson_error (const TpLesson *l)
{
  return l != NULL && l->refused ? &l->diag : NULL;
}

const TpLessonText *
tp_lesson_title (const TpLesson *l)
{
  return l->refused ? NULL : &l->title;
}

const TpLessonBlock *
tp_lesson_text (const TpLesson *l, size_t *n_blocks)
{
  *n_blocks = l->n_blocks;
  return l->n_blocks > 0 ? l->blocks : NULL;
}

const char *
tp_lesson_start (const TpLesson *l, size_t *length)
{
  *length = l->start_len;
  return l->start;
}

const char *
tp_lesson_solution (const TpLesson *l, size_t *length)
{
  *length = l->solution_len;
  return l->solution;
}

const TpLessonText *
tp_lesson_hints (const TpLesson *l, size_t *n_hints)
{
  *n_hints = l->n_hints;
  return l->n_hints > 0 ? l->hints : NULL;
}

const TpLessonGoal *
tp_lesson_goals (const TpLesson *l, size_t *n_goals)
{
  *n_goals = l->n_goals;
  return l->n_goals > 0 ? l->goals : NULL;
}

size_t
tp_lesson_n_questions (const TpLesson *l)
{
  return l->n_questions;
}

size_t
tp_lesson_right_answers (const TpLesson *l, int32_t *answers, size_t n)
{
  for (size_t g = 0; g < l->n_goals; g++)
    if (l->goals[g].kind == TP_GOAL_QUESTION && l->goals[g].question < n)
      answers[l->goals[g].question] = (int32_t) l->args[g].right;
  return l->n_questions;
}

size_t
tp_lesson_n_messages (const TpLesson *l)
{
  return l->n_messages;
}

const TpLessonText *
tp_lesson_message (const TpLesson *l, size_t k)
{
  return k < l->n_messages ? l->messages[k] : NULL;
}

/* Every translation is read first; only when all are, are they put in,
 * so running out of memory halfway leaves the lesson as it was. */
static long
translate_messages (TpLesson *l,
                    const char *(*translate) (const char *msgid, void *data),
                    void *data)
{
  TpLessonText *fresh;
  uint8_t *changed;
  long kept = 0;

  if (l->refused || l->n_messages == 0 || translate == NULL)
    return 0;
  fresh = tp_malloc (l->n_messages * sizeof *fresh);
  changed = tp_malloc (l->n_messages);
  if (fresh == NULL || changed == NULL)
    {
      tp_free (fresh);
      tp_free (changed);
      return -1;
    }
  for (size_t k = 0; k < l->n_messages; k++)
    {
      const TpLessonText *old = l->messages[k];
      const char *t = translate (old->source, data);
      bool no_memory = false;

      changed[k] = 0;
      if (t == NULL || t == old->source || strcmp (t, old->source) == 0)
        continue;
      if (tp_lesson_read_message (&l->arena, t, strlen (t), old->line,
                                  &fresh[k], &no_memory))
        changed[k] = 1;
      else if (no_memory)
        {
          tp_free (fresh);
          tp_free (changed);
          return -1;
        }
      else
        kept++;
    }
  for (size_t k = 0; k < l->n_messages; k++)
    if (changed[k])
      *l->messages[k] = fresh[k];
  tp_free (fresh);
  tp_free (changed);
  return kept;
}

long
tp_lesson_translate (TpLesson *l,
                     const char *(*translate) (const char *msgid, void *data),
                     void *data)
{
  const TpAllocator *saved = tp_alloc_enter (l->allocator);
  long kept = translate_messages (l, translate, data);

  tp_alloc_leave (saved);
  return kept;
}

void
tp_lesson_free (TpLesson *l)
{
  if (l == NULL)
    return;
  tp_arena_reset (&l->arena);
  tp_free (l);
}
