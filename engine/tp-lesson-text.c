/* tp-lesson-text.c: a lesson's text (docs/lessons.md, The text): the
 * blocks (paragraphs, fenced code, lists of `- ` or `1. ` items nested
 * by indentation) and, inside a message, the spans (plain text,
 * *emphasis*, `code`, [links](https://...)).
 *
 * The subset is small and strict so that a teacher's slip is refused
 * where it is, not shown in some other way: what is not in it (headings,
 * quotes, images, `**`, a `*` that opens nothing) is refused with a
 * message.  Spans hold the characters written, never markup, so no
 * lesson can put HTML, a script or a `javascript:` address in front of a
 * student.  Every scan is linear in the text: a `[` looks for its `]`
 * once, through a memo, so a line of ten thousand `[` is no slower than
 * one of letters. */
#include "tp-lesson.h"

#include <string.h>

/* {==== spans ====} */

typedef struct
{
  TpArena *arena;
  const char *src;
  size_t len;
  TpSpan *spans;
  size_t n_spans;
  size_t cap;
  TpBuf run;              /* the text span being gathered */
  TpBuf msg;              /* a refusal put together */
  const char *err;        /* the refusal, or NULL */
  size_t err_at;
  bool no_memory;
  size_t close_from;      /* the memo: no `]` in [close_from, close_at) */
  size_t close_at;        /* the first `]` from close_from, or len */
} Inline;

static bool
fail (Inline *c, size_t at, const char *why)
{
  if (c->err == NULL)
    {
      c->err = why;
      c->err_at = at;
    }
  return false;
}

static bool
is_punct (char ch)
{
  return (ch >= '!' && ch <= '/') || (ch >= ':' && ch <= '@')
         || (ch >= '[' && ch <= '`') || (ch >= '{' && ch <= '~');
}

static bool
push_span (Inline *c, TpSpanKind kind, const char *text, size_t len,
           const char *url, size_t url_len)
{
  TpSpan *s;

  if (c->n_spans == c->cap)
    {
      size_t grown = c->cap == 0 ? 4 : c->cap * 2;
      TpSpan *more = tp_arena_grow (c->arena, c->spans, c->cap, grown,
                                    sizeof *more);
      if (more == NULL)
        {
          c->no_memory = true;
          return false;
        }
      c->spans = more;
      c->cap = grown;
    }
  s = &c->spans[c->n_spans];
  s->kind = kind;
  s->text = tp_arena_strndup (c->arena, text, len);
  s->length = len;
  s->url = url != NULL ? tp_arena_strndup (c->arena, url, url_len) : NULL;
  s->url_length = url_len;
  if (s->text == NULL || (url != NULL && s->url == NULL))
    {
      c->no_memory = true;
      return false;
    }
  c->n_spans++;
  return true;
}

static bool
flush_run (Inline *c)
{
  bool ok;

  if (c->run.failed)
    {
      c->no_memory = true;
      return false;
    }
  if (c->run.len == 0)
    return true;
  ok = push_span (c, TP_SPAN_TEXT, c->run.data, c->run.len, NULL, 0);
  c->run.len = 0;
  return ok;
}

/* Plain text with escapes from *at up to the byte stop (exclusive) into
 * out; `*`, `` ` `` and `[` are refused with why (emphasis and link
 * text hold plain characters). */
static bool
plain (Inline *c, size_t from, size_t stop, TpBuf *out, const char *why)
{
  for (size_t i = from; i < stop; i++)
    {
      char ch = c->src[i];
      if (ch == '\\' && i + 1 < stop && is_punct (c->src[i + 1]))
        {
          tp_buf_putc (out, c->src[++i]);
          continue;
        }
      if (ch == '\\')
        return fail (c, i, "`\\` escapes a punctuation character (`\\*`, "
                     "`\\``, `\\[`); write `\\\\` for a backslash");
      if (ch == '*' || ch == '`' || ch == '[')
        return fail (c, i, why);
      tp_buf_putc (out, ch);
    }
  return true;
}

/* The first `]` at or after from that no `\` escapes, or len: one scan
 * serves every `[` before it. */
static size_t
find_close (Inline *c, size_t from)
{
  size_t i;

  if (from >= c->close_from && from <= c->close_at)
    return c->close_at;
  i = from;
  while (i < c->len && c->src[i] != ']')
    i += c->src[i] == '\\' && i + 1 < c->len ? 2 : 1;
  c->close_from = from;
  c->close_at = i < c->len ? i : c->len;
  return c->close_at;
}

static bool
url_char (char ch)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
         || (ch >= '0' && ch <= '9')
         || (ch != '\0' && strchr ("-._~:/?#@!$&*+,;=%", ch) != NULL);
}

/* [text](url) from the `[` at open, whose `]` is at close. */
static bool
link (Inline *c, size_t open, size_t close, size_t *next)
{
  size_t u = close + 2, end = u, scheme;
  TpBuf text;
  bool ok;

  while (end < c->len && c->src[end] != ')')
    end++;
  if (end == c->len)
    return fail (c, close + 1, "a link's address ends with `)`: "
                 "[text](https://...)");
  if (end - u >= 8 && memcmp (c->src + u, "https://", 8) == 0)
    scheme = 8;
  else if (end - u >= 7 && memcmp (c->src + u, "http://", 7) == 0)
    scheme = 7;
  else
    scheme = 0;
  ok = scheme > 0 && end - u > scheme && end - u <= TP_LESSON_MAX_URL
       && ((c->src[u + scheme] >= 'a' && c->src[u + scheme] <= 'z')
           || (c->src[u + scheme] >= 'A' && c->src[u + scheme] <= 'Z')
           || (c->src[u + scheme] >= '0' && c->src[u + scheme] <= '9'));
  for (size_t i = u; ok && i < end; i++)
    ok = url_char (c->src[i]);
  if (!ok)
    {
      tp_buf_clear (&c->msg);
      if (end - u > TP_LESSON_MAX_URL)
        tp_buf_puts (&c->msg, "a link's address has at most 2,048 characters");
      else
        {
          tp_buf_puts (&c->msg, "a link goes to an http:// or https:// "
                       "address of letters, digits and -._~:/?#@!$&*+,;=%, "
                       "found ");
          tp_lesson_quote (&c->msg, c->src + u, end - u);
        }
      if (c->msg.failed)
        {
          c->no_memory = true;
          return false;
        }
      return fail (c, u, c->msg.data);
    }
  if (close == open + 1)
    return fail (c, open, "a link has text: [text](https://...)");
  tp_buf_init (&text);
  if (!plain (c, open + 1, close, &text, "a link's text is plain: no "
              "emphasis, code or `[` inside it"))
    {
      tp_buf_clear (&text);
      return false;
    }
  ok = !text.failed && push_span (c, TP_SPAN_LINK, text.data, text.len,
                                  c->src + u, end - u);
  if (text.failed)
    c->no_memory = true;
  tp_buf_clear (&text);
  *next = end + 1;
  return ok;
}

static bool
emphasis (Inline *c, size_t open, size_t *next)
{
  size_t i = open + 1;
  TpBuf text;
  bool ok;

  if (i == c->len || c->src[i] == ' ')
    return fail (c, open, "a `*` that opens no emphasis: write arithmetic as "
                 "code (`w * x`), or `\\*` for the character");
  if (c->src[i] == '*')
    return fail (c, open, "`**` is not part of a lesson's text: emphasis is "
                 "one `*` each side, *like this*");
  while (i < c->len && c->src[i] != '*')
    i += c->src[i] == '\\' && i + 1 < c->len ? 2 : 1;
  if (i >= c->len)
    return fail (c, open, "this `*` opens emphasis that does not close in the "
                 "same paragraph");
  if (c->src[i - 1] == ' ')
    return fail (c, i, "emphasis closes right after its text, not after a "
                 "space");
  tp_buf_init (&text);
  if (!plain (c, open + 1, i, &text, "emphasis holds plain text: close it "
              "before code, a link or a `[`"))
    {
      tp_buf_clear (&text);
      return false;
    }
  ok = !text.failed && push_span (c, TP_SPAN_EMPHASIS, text.data, text.len,
                                  NULL, 0);
  if (text.failed)
    c->no_memory = true;
  tp_buf_clear (&text);
  *next = i + 1;
  return ok;
}

static bool
spans (Inline *c)
{
  size_t i = 0;

  size_t bang = SIZE_MAX;   /* where the last plain `!` is */

  c->close_from = c->close_at = 0;
  while (i < c->len)
    {
      char ch = c->src[i];
      size_t next = i + 1, close;

      if (ch == '\\')
        {
          if (i + 1 == c->len || !is_punct (c->src[i + 1]))
            return fail (c, i, "`\\` escapes a punctuation character (`\\*`, "
                         "`\\``, `\\[`); write `\\\\` for a backslash");
          tp_buf_putc (&c->run, c->src[i + 1]);
          next = i + 2;
        }
      else if (ch == '`')
        {
          close = i + 1;
          while (close < c->len && c->src[close] != '`')
            close++;
          if (close == c->len)
            return fail (c, i, "this backtick opens code that does not close "
                         "in the same paragraph");
          if (close == i + 1)
            return fail (c, i, "empty code: nothing between two backticks");
          if (!flush_run (c)
              || !push_span (c, TP_SPAN_CODE, c->src + i + 1, close - i - 1,
                             NULL, 0))
            return false;
          next = close + 1;
        }
      else if (ch == '*')
        {
          if (!flush_run (c) || !emphasis (c, i, &next))
            return false;
        }
      else if (ch == '[' && (close = find_close (c, i + 1)) < c->len
               && close + 1 < c->len && c->src[close + 1] == '(')
        {
          if (bang != SIZE_MAX && bang + 1 == i)
            return fail (c, i - 1, "images are not part of a lesson");
          if (!flush_run (c) || !link (c, i, close, &next))
            return false;
        }
      else
        {
          tp_buf_putc (&c->run, ch);
          if (ch == '!')
            bang = i;
        }
      i = next;
    }
  return flush_run (c);
}

/* Reads src into out; on a refusal c->err and c->err_at say why and
 * where. */
static bool
read_spans (Inline *c, TpArena *arena, const char *src, size_t len,
            TpLessonText *out)
{
  bool ok;

  memset (c, 0, sizeof *c);
  c->arena = arena;
  c->src = src;
  c->len = len;
  tp_buf_init (&c->run);
  tp_buf_init (&c->msg);
  ok = spans (c);
  if (c->run.failed)
    c->no_memory = true;
  tp_buf_clear (&c->run);
  if (ok && !c->no_memory)
    {
      out->source = src;
      out->source_length = len;
      out->spans = c->spans;
      out->n_spans = c->n_spans;
    }
  return ok && !c->no_memory;
}

bool
tp_lesson_read_text (TpLessonReader *r, const TpLessonView *views,
                     uint32_t n, TpLessonText *out)
{
  size_t size = 0;
  size_t *offset;
  uint32_t *first;
  char *src, *w;
  Inline c;

  offset = tp_arena_alloc (r->arena, n * sizeof *offset);
  first = tp_arena_alloc (r->arena, n * sizeof *first);
  if (offset == NULL || first == NULL)
    return tp_lesson_oom (r);
  for (uint32_t k = 0; k < n; k++)
    {
      const TpLessonLine *line = &r->lines[views[k].line];
      uint32_t a = views[k].at, b = line->len;

      while (a < b && line->text[a] == ' ')
        a++;
      while (b > a && line->text[b - 1] == ' ')
        b--;
      for (uint32_t i = a; i < b; i++)
        if (line->text[i] == '\t')
          {
            uint32_t step;
            return tp_lesson_refuse (r, views[k].line, i,
                                     tp_lesson_bad_char ("\t", 1, false, &step));
          }
      first[k] = a;
      size += b - a + (k > 0);
    }
  src = tp_arena_alloc (r->arena, size + 1);
  if (src == NULL)
    return tp_lesson_oom (r);
  w = src;
  for (uint32_t k = 0; k < n; k++)
    {
      const TpLessonLine *line = &r->lines[views[k].line];
      uint32_t b = line->len;

      while (b > first[k] && line->text[b - 1] == ' ')
        b--;
      if (k > 0)
        *w++ = ' ';
      offset[k] = (size_t) (w - src);
      memcpy (w, line->text + first[k], b - first[k]);
      w += b - first[k];
    }
  *w = '\0';
  out->line = views[0].line + 1;
  if (read_spans (&c, r->arena, src, size, out))
    {
      tp_buf_clear (&c.msg);
      return true;
    }
  if (c.no_memory)
    {
      tp_buf_clear (&c.msg);
      return tp_lesson_oom (r);
    }
  {
    uint32_t k = n - 1;
    bool ok;
    while (k > 0 && offset[k] > c.err_at)
      k--;
    ok = tp_lesson_refuse (r, views[k].line,
                           first[k] + (uint32_t) (c.err_at - offset[k]), c.err);
    tp_buf_clear (&c.msg);
    return ok;
  }
}

bool
tp_lesson_read_message (TpArena *arena, const char *source, size_t len,
                        uint32_t line, TpLessonText *out, bool *no_memory)
{
  char *src;
  Inline c;
  bool ok;

  *no_memory = false;
  if (len > TP_LESSON_MAX_BYTES)
    return false;
  for (size_t i = 0; i < len;)
    {
      uint32_t step;
      if (source[i] != '\n'
          && tp_lesson_bad_char (source + i, len - i, false, &step) != NULL)
        return false;
      i += source[i] == '\n' ? 1 : step;
    }
  src = tp_arena_strndup (arena, source, len);
  if (src == NULL)
    {
      *no_memory = true;
      return false;
    }
  for (size_t i = 0; i < len; i++)
    if (src[i] == '\n')
      src[i] = ' ';
  out->line = line;
  ok = read_spans (&c, arena, src, len, out);
  tp_buf_clear (&c.msg);
  *no_memory = c.no_memory;
  return ok;
}

/* {==== blocks ====} */

typedef struct
{
  const char *text;       /* the line from its view on */
  uint32_t len;
  uint32_t at;            /* the view's byte in the line */
  uint32_t indent;        /* spaces before the first other character */
} Piece;

static void
piece (const TpLessonReader *r, TpLessonView v, Piece *p)
{
  const TpLessonLine *line = &r->lines[v.line];

  p->at = v.at;
  p->text = v.at < line->len ? line->text + v.at : "";
  p->len = v.at < line->len ? line->len - v.at : 0;
  p->indent = 0;
  while (p->indent < p->len && p->text[p->indent] == ' ')
    p->indent++;
}

static bool
is_blank (const Piece *p)
{
  return p->indent == p->len;
}

/* Only spaces from byte `from` of the piece to its end. */
static bool
blank_from (const Piece *p, uint32_t from)
{
  for (uint32_t i = from; i < p->len; i++)
    if (p->text[i] != ' ')
      return false;
  return true;
}

/* The width of the item marker a piece starts with (`- ` is 2, `12. `
 * is 4), or 0; a marker ending the line counts (an empty item). */
static uint32_t
marker (const Piece *p, bool *ordered, uint32_t *number)
{
  uint32_t i = 0;
  uint64_t value = 0;

  if (p->len >= 1 && p->text[0] == '-' && (p->len == 1 || p->text[1] == ' '))
    {
      *ordered = false;
      return 2;
    }
  while (i < p->len && i < 9 && p->text[i] >= '0' && p->text[i] <= '9')
    value = value * 10 + (uint64_t) (p->text[i++] - '0');
  if (i == 0 || i >= p->len || p->text[i] != '.'
      || (i + 1 < p->len && p->text[i + 1] != ' '))
    return 0;
  *ordered = true;
  *number = (uint32_t) value;
  return i + 2;
}

/* Whether a piece at the block's margin ends the paragraph above it. */
static bool
interrupts (const Piece *p)
{
  bool ordered;
  uint32_t number;

  return is_blank (p) || (p->len >= 3 && memcmp (p->text, "```", 3) == 0)
         || p->text[0] == '#' || p->text[0] == '>'
         || marker (p, &ordered, &number) > 0;
}

static TpLessonBlock *
new_block (TpLessonReader *r, TpLessonBlock **blocks, size_t *n, size_t *cap,
           uint32_t line)
{
  TpLessonBlock *b;

  if (++r->blocks > TP_LESSON_MAX_BLOCKS)
    {
      tp_lesson_refuse (r, line, 0, "a lesson has at most 4,096 blocks "
                        "(paragraphs, code blocks, lists and items)");
      return NULL;
    }
  if (*n == *cap)
    {
      size_t grown = *cap == 0 ? 4 : *cap * 2;
      TpLessonBlock *more = tp_arena_grow (r->arena, *blocks, *cap, grown,
                                           sizeof *more);
      if (more == NULL)
        {
          tp_lesson_oom (r);
          return NULL;
        }
      *blocks = more;
      *cap = grown;
    }
  b = &(*blocks)[(*n)++];
  memset (b, 0, sizeof *b);
  b->line = line + 1;
  b->info = "";
  return b;
}

/* A fenced code block opening at views[k]; *k ends past its closing
 * fence. */
static bool
code_block (TpLessonReader *r, const TpLessonView *views, uint32_t n,
            uint32_t *k, TpLessonBlock *b)
{
  Piece p, q;
  uint32_t open = *k, close, info_end;
  size_t size = 0;
  char *code, *w, *info;

  piece (r, views[open], &p);
  info_end = p.len;
  while (info_end > 3 && p.text[info_end - 1] == ' ')
    info_end--;
  for (uint32_t i = 3; i < info_end; i++)
    {
      char ch = p.text[i];
      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
            || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_')
          || i >= 3 + 32)
        return tp_lesson_refuse (r, views[open].line, p.at + i, "a code "
                                 "block opens with ``` and at most one word, "
                                 "such as ```tape");
    }
  for (close = open + 1; close < n; close++)
    {
      piece (r, views[close], &q);
      if (q.len >= 3 && memcmp (q.text, "```", 3) == 0 && blank_from (&q, 3))
        break;
    }
  if (close >= n)
    return tp_lesson_refuse (r, views[open].line, p.at, "this code block is "
                             "not closed: end it with a line ``` at its "
                             "opening's margin");
  for (uint32_t j = open + 1; j < close; j++)
    {
      piece (r, views[j], &q);
      size += q.len + 1u;
    }
  code = tp_arena_alloc (r->arena, size + 1);
  info = tp_arena_strndup (r->arena, p.text + 3, info_end - 3);
  if (code == NULL || info == NULL)
    return tp_lesson_oom (r);
  w = code;
  for (uint32_t j = open + 1; j < close; j++)
    {
      piece (r, views[j], &q);
      memcpy (w, q.text, q.len);
      w += q.len;
      *w++ = '\n';
    }
  *w = '\0';
  b->kind = TP_BLOCK_CODE;
  b->code = code;
  b->code_length = size;
  b->info = info;
  *k = close + 1;
  return true;
}

static bool read_list (TpLessonReader *r, const TpLessonView *views,
                       uint32_t n, uint32_t *k, uint32_t depth,
                       TpLessonBlock *b);

bool
tp_lesson_read_blocks (TpLessonReader *r, const TpLessonView *views,
                       uint32_t n, uint32_t depth, TpLessonBlock **blocks,
                       size_t *n_blocks)
{
  size_t cap = 0;
  uint32_t k = 0;
  TpBuf *m = &r->scratch;

  *blocks = NULL;
  *n_blocks = 0;
  while (k < n)
    {
      Piece p;
      TpLessonBlock *b;
      bool ordered;
      uint32_t number, start = k;

      piece (r, views[k], &p);
      if (is_blank (&p))
        {
          k++;
          continue;
        }
      if (p.indent > 0)
        {
          tp_buf_clear (m);
          tp_buf_puts (m, "an indented line outside a list item: start it at "
                       "column ");
          tp_buf_u64 (m, tp_lesson_chars (r->lines[views[k].line].text, p.at) + 1u);
          tp_buf_puts (m, ", or indent it to the text of the item above");
          return tp_lesson_refuse_scratch (r, views[k].line, p.at + p.indent);
        }
      if (p.text[0] == '#')
        return tp_lesson_refuse (r, views[k].line, p.at, "headings are not "
                                 "part of a lesson's text (a line `## NAME` "
                                 "at the margin starts a section); write "
                                 "`\\#` for the character");
      if (p.text[0] == '>')
        return tp_lesson_refuse (r, views[k].line, p.at, "quotes are not part "
                                 "of a lesson's text; write `\\>` for the "
                                 "character");
      if (p.len >= 2 && (p.text[0] == '+' || p.text[0] == '*')
          && p.text[1] == ' ')
        return tp_lesson_refuse (r, views[k].line, p.at, "a list item starts "
                                 "with `- ` (or `1. `)");
      b = new_block (r, blocks, n_blocks, &cap, views[k].line);
      if (b == NULL)
        return false;
      if (p.len >= 3 && memcmp (p.text, "```", 3) == 0)
        {
          if (!code_block (r, views, n, &k, b))
            return false;
          continue;
        }
      if (marker (&p, &ordered, &number) > 0)
        {
          if (depth >= TP_LESSON_MAX_DEPTH)
            return tp_lesson_refuse (r, views[k].line, p.at, "lists nest at "
                                     "most 4 deep");
          if (!read_list (r, views, n, &k, depth, b))
            return false;
          continue;
        }
      /* a paragraph: up to a blank line or a line that starts a block */
      for (k++; k < n; k++)
        {
          Piece q;
          piece (r, views[k], &q);
          if (q.indent > 0 && !is_blank (&q))
            {
              tp_buf_clear (m);
              tp_buf_puts (m, "an indented line in a paragraph: start it at "
                           "column ");
              tp_buf_u64 (m, tp_lesson_chars (r->lines[views[k].line].text,
                                              q.at) + 1u);
              return tp_lesson_refuse_scratch (r, views[k].line,
                                               q.at + q.indent);
            }
          if (interrupts (&q))
            break;
        }
      b->kind = TP_BLOCK_PARAGRAPH;
      if (!tp_lesson_read_text (r, views + start, k - start, &b->text))
        return false;
    }
  return true;
}

/* A list from views[*k]: its items, each the lines indented to its text
 * (and blank lines between them), read as blocks one level deeper. */
static bool
read_list (TpLessonReader *r, const TpLessonView *views, uint32_t n,
           uint32_t *k, uint32_t depth, TpLessonBlock *b)
{
  TpLessonItem *items = NULL;
  size_t cap = 0;
  bool ordered;
  uint32_t number, expect = 0;
  TpBuf *m = &r->scratch;
  Piece p;

  piece (r, views[*k], &p);
  marker (&p, &ordered, &number);
  b->kind = TP_BLOCK_LIST;
  b->ordered = ordered;
  b->first = ordered ? number : 0;
  expect = number;
  while (*k < n)
    {
      uint32_t width, at = *k, end, last;
      bool o;
      TpLessonView *inner;
      TpLessonItem *item;

      piece (r, views[at], &p);
      width = marker (&p, &o, &number);
      if (ordered && number != expect)
        {
          tp_buf_clear (m);
          tp_buf_puts (m, "this item is numbered ");
          tp_buf_u64 (m, number);
          tp_buf_puts (m, ": the list's items count on from ");
          tp_buf_u64 (m, b->first);
          tp_buf_puts (m, ", so it is ");
          tp_buf_u64 (m, expect);
          return tp_lesson_refuse_scratch (r, views[at].line, p.at);
        }
      expect++;
      if (width >= p.len || blank_from (&p, width))
        return tp_lesson_refuse (r, views[at].line, p.at, "an empty list item");
      if (p.text[width] == ' ')
        return tp_lesson_refuse (r, views[at].line, p.at + width, "one space "
                                 "between an item's marker and its text");
      /* the item's lines: indented to its text, or blank between them */
      last = at + 1;
      for (end = at + 1; end < n; end++)
        {
          Piece q;
          piece (r, views[end], &q);
          if (is_blank (&q))
            continue;
          if (q.indent >= width)
            {
              last = end + 1;
              continue;
            }
          if (q.indent > 0)
            {
              tp_buf_clear (m);
              tp_buf_puts (m, "indent this line to column ");
              tp_buf_u64 (m, tp_lesson_chars (r->lines[views[end].line].text,
                                              q.at) + width + 1u);
              tp_buf_puts (m, " to go on with the item, or start it at "
                           "column ");
              tp_buf_u64 (m, tp_lesson_chars (r->lines[views[end].line].text,
                                              q.at) + 1u);
              return tp_lesson_refuse_scratch (r, views[end].line,
                                               q.at + q.indent);
            }
          if (!interrupts (&q) && last == end)
            {
              tp_buf_clear (m);
              tp_buf_puts (m, "indent this line to column ");
              tp_buf_u64 (m, tp_lesson_chars (r->lines[views[end].line].text,
                                              q.at) + width + 1u);
              tp_buf_puts (m, " to go on with the item, or leave a blank line "
                           "before a new paragraph");
              return tp_lesson_refuse_scratch (r, views[end].line, q.at);
            }
          break;
        }
      inner = tp_arena_alloc (r->arena, (last - at) * sizeof *inner);
      if (inner == NULL)
        return tp_lesson_oom (r);
      for (uint32_t j = at; j < last; j++)
        {
          inner[j - at].line = views[j].line;
          inner[j - at].at = views[j].at + width;
        }
      if (cap == b->n_items)
        {
          size_t grown = cap == 0 ? 4 : cap * 2;
          TpLessonItem *more = tp_arena_grow (r->arena, items, cap, grown,
                                              sizeof *more);
          if (more == NULL)
            return tp_lesson_oom (r);
          items = more;
          cap = grown;
          b->items = items;
        }
      item = &items[b->n_items++];
      if (++r->blocks > TP_LESSON_MAX_BLOCKS)
        return tp_lesson_refuse (r, views[at].line, 0, "a lesson has at most "
                                 "4,096 blocks (paragraphs, code blocks, "
                                 "lists and items)");
      {
        TpLessonBlock *inside;
        size_t n_inside;
        if (!tp_lesson_read_blocks (r, inner, last - at, depth + 1, &inside,
                                    &n_inside))
          return false;
        item->blocks = inside;
        item->n_blocks = n_inside;
      }
      /* the next item, or the end of the list */
      *k = last;
      while (*k < n)
        {
          piece (r, views[*k], &p);
          if (!is_blank (&p))
            break;
          (*k)++;
        }
      /* a marker of the other kind starts another list */
      if (*k >= n || p.indent > 0 || marker (&p, &o, &number) == 0
          || o != ordered)
        {
          *k = last;
          break;
        }
    }
  return true;
}
