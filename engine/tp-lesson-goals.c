/* tp-lesson-goals.c: reading a lesson's `## goals` section (docs/lessons.md,
 * Goals).  A goal is one line at the margin, its words from the goal
 * table (tp_goal_rows, tp-lesson-grade.c) and then its arguments; the
 * indented lines under it give what the student sees (`say:`), a hint
 * (`hint:`) and, for a question, its choices (`right:`, `wrong:`) and
 * the reading it is about (`about:`).  Numbers are read as the language
 * reads them, so `value loss = 0.1` means the f32 the program's 0.1 is. */
#include "tp-lesson.h"

#include <math.h>
#include <string.h>

#include "tp-lex.h"
#include "tp-tape.h"

typedef struct
{
  TpLessonReader *r;
  uint32_t line;
  const char *t;
  uint32_t len;
  uint32_t pos;
} Cursor;

typedef struct
{
  uint32_t at;
  uint32_t len;
} Word;

static bool
next_word (Cursor *c, Word *w)
{
  uint32_t depth = 0;

  while (c->pos < c->len && c->t[c->pos] == ' ')
    c->pos++;
  w->at = c->pos;
  if (c->pos == c->len)
    {
      w->len = 0;
      return false;
    }
  /* A bracketed list or shape is one word, spaces and all. */
  while (c->pos < c->len && (depth > 0 || c->t[c->pos] != ' '))
    {
      if (c->t[c->pos] == '[')
        depth++;
      else if (c->t[c->pos] == ']' && depth > 0)
        depth--;
      c->pos++;
    }
  w->len = c->pos - w->at;
  return true;
}

static bool
word_is (const Cursor *c, const Word *w, const char *text)
{
  size_t n = strlen (text);

  return w->len == n && memcmp (c->t + w->at, text, n) == 0;
}

/* "expected X, found `y`" (or "found the end of the line") at w. */
static bool
expected (Cursor *c, const Word *w, const char *what)
{
  TpBuf *m = &c->r->scratch;

  tp_buf_clear (m);
  tp_buf_puts (m, "expected ");
  tp_buf_puts (m, what);
  if (w->len == 0)
    tp_buf_puts (m, ", found the end of the line");
  else
    {
      tp_buf_puts (m, ", found ");
      tp_lesson_quote (m, c->t + w->at, w->len);
    }
  return tp_lesson_refuse_scratch (c->r, c->line, w->at);
}

/* A number as the language writes one, a leading `-`, `NaN`, `inf`
 * and `-inf` allowed. */
static bool
read_number (const char *t, uint32_t len, float *out)
{
  TpLexer lex;
  TpToken tok, end;
  bool negative = len > 0 && t[0] == '-', ok;

  if (negative)
    t++, len--;
  if (len == 3 && memcmp (t, "NaN", 3) == 0 && !negative)
    {
      *out = NAN;
      return true;
    }
  if (len == 3 && memcmp (t, "inf", 3) == 0)
    {
      *out = negative ? -INFINITY : INFINITY;
      return true;
    }
  if (len == 0 || !((t[0] >= '0' && t[0] <= '9') || t[0] == '.'))
    return false;
  tp_lex_init (&lex, t, len);
  ok = tp_lex_next (&lex, &tok) && tok.kind == TP_TOK_NUMBER
       && tok.len == len && tp_lex_next (&lex, &end)
       && (end.kind == TP_TOK_EOF || end.kind == TP_TOK_NEWLINE);
  if (ok)
    *out = negative ? -tok.number : tok.number;
  tp_lex_clear (&lex);
  return ok;
}

static bool
read_name (Cursor *c, TpGoalArgs *a)
{
  Word w;
  bool ok;

  next_word (c, &w);
  ok = w.len > 0 && w.len <= TP_LIMIT_NAME
       && ((c->t[w.at] >= 'a' && c->t[w.at] <= 'z')
           || (c->t[w.at] >= 'A' && c->t[w.at] <= 'Z') || c->t[w.at] == '_');
  for (uint32_t i = w.at; ok && i < w.at + w.len; i++)
    {
      char ch = c->t[i];
      ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')
           || (ch >= '0' && ch <= '9') || ch == '_';
    }
  if (!ok)
    return expected (c, &w, "a statement's name");
  a->name = tp_arena_strndup (c->r->arena, c->t + w.at, w.len);
  return a->name != NULL || tp_lesson_oom (c->r);
}

static bool
read_equals (Cursor *c)
{
  Word w;

  next_word (c, &w);
  return word_is (c, &w, "=") || expected (c, &w, "`=`");
}

/* The elements of a nested list [[1, 2], [3, 4]] into a->values, its
 * extents into a->shape; *at walks w. */
static bool
read_list (Cursor *c, TpGoalArgs *a, uint32_t *at, uint32_t end,
           uint32_t depth, uint32_t *cap)
{
  const char *t = c->t;
  uint32_t count = 0;
  Word here;

  if (depth >= TP_MAX_RANK)
    return tp_lesson_refuse (c->r, c->line, *at, "a list of values has at "
                             "most 16 levels");
  (*at)++;                              /* the `[` */
  for (;;)
    {
      uint32_t start;
      while (*at < end && t[*at] == ' ')
        (*at)++;
      start = *at;
      if (*at < end && t[*at] == '[')
        {
          if (a->shape.rank != 0 && a->shape.rank <= depth + 1)
            return tp_lesson_refuse (c->r, c->line, *at, "a list's numbers "
                                     "all sit at the same depth");
          if (!read_list (c, a, at, end, depth + 1, cap))
            return false;
        }
      else
        {
          float v;
          while (*at < end && t[*at] != ',' && t[*at] != ']' && t[*at] != ' ')
            (*at)++;
          if (a->shape.rank != 0 && a->shape.rank != depth + 1)
            return tp_lesson_refuse (c->r, c->line, start, "a list's numbers "
                                     "all sit at the same depth");
          if (!read_number (t + start, *at - start, &v))
            {
              here.at = start;
              here.len = *at - start;
              return expected (c, &here, "a number");
            }
          if (a->n_values == TP_LESSON_MAX_VALUES)
            return tp_lesson_refuse (c->r, c->line, start, "a goal writes at "
                                     "most 4,096 values");
          if (a->n_values == *cap)
            {
              uint32_t grown = *cap == 0 ? 16 : *cap * 2;
              float *more = tp_arena_grow (c->r->arena, a->values, *cap,
                                           grown, sizeof *more);
              if (more == NULL)
                return tp_lesson_oom (c->r);
              a->values = more;
              *cap = grown;
            }
          a->values[a->n_values++] = v;
          if (a->shape.rank == 0)
            a->shape.rank = depth + 1;
        }
      count++;
      while (*at < end && t[*at] == ' ')
        (*at)++;
      if (*at < end && t[*at] == ',')
        {
          (*at)++;
          continue;
        }
      if (*at < end && t[*at] == ']')
        break;
      here.at = *at;
      here.len = *at < end ? 1 : 0;
      return expected (c, &here, "`,` or `]` in the list");
    }
  (*at)++;                              /* the `]` */
  if (a->shape.dims[depth] == 0)
    a->shape.dims[depth] = count;
  else if (a->shape.dims[depth] != count)
    return tp_lesson_refuse (c->r, c->line, *at - 1, "ragged list: its rows "
                             "at one depth have as many elements each");
  return true;
}

static bool
read_value (Cursor *c, TpGoalArgs *a, Word *v)
{
  Word w;
  uint32_t cap = 0;

  if (!read_name (c, a) || !read_equals (c))
    return false;
  next_word (c, &w);
  *v = w;
  if (w.len > 0 && c->t[w.at] == '[')
    {
      uint32_t at = w.at;
      memset (&a->shape, 0, sizeof a->shape);
      a->list = true;
      if (!read_list (c, a, &at, w.at + w.len, 0, &cap))
        return false;
      if (at != w.at + w.len)
        {
          Word rest = { at, w.at + w.len - at };
          return expected (c, &rest, "the end of the list");
        }
    }
  else if (!read_number (c->t + w.at, w.len, &a->number))
    return expected (c, &w, "a number or a list of numbers");
  {
    uint32_t mark = c->pos;
    next_word (c, &w);
    if (!word_is (c, &w, "within"))
      {
        c->pos = mark;
        return true;
      }
  }
  next_word (c, &w);
  if (!read_number (c->t + w.at, w.len, &a->tolerance) || !(a->tolerance >= 0))
    return expected (c, &w, "a tolerance, a number at least 0");
  a->within = true;
  v->len = w.at + w.len - v->at;
  return true;
}

static bool
read_shape (Cursor *c, TpGoalArgs *a, Word *v)
{
  Word w;
  uint32_t i;

  if (!read_name (c, a) || !read_equals (c))
    return false;
  next_word (c, &w);
  *v = w;
  if (w.len < 2 || c->t[w.at] != '[' || c->t[w.at + w.len - 1] != ']')
    return expected (c, &w, "a shape such as [2, 3], or [] for one number");
  memset (&a->shape, 0, sizeof a->shape);
  i = w.at + 1;
  for (;;)
    {
      uint64_t extent = 0;
      uint32_t digits = 0;
      while (c->t[i] == ' ')
        i++;
      if (c->t[i] == ']' && a->shape.rank == 0)
        break;
      while (c->t[i] >= '0' && c->t[i] <= '9' && digits < 11)
        extent = extent * 10 + (uint64_t) (c->t[i++] - '0'), digits++;
      if (digits == 0 || extent == 0 || extent > UINT32_MAX)
        return tp_lesson_refuse (c->r, c->line, i, "an extent is a whole "
                                 "number from 1 to 4294967295");
      if (a->shape.rank == TP_MAX_RANK)
        return tp_lesson_refuse (c->r, c->line, i, "a shape has at most 16 "
                                 "axes");
      a->shape.dims[a->shape.rank++] = (uint32_t) extent;
      while (c->t[i] == ' ')
        i++;
      if (c->t[i] == ',')
        {
          i++;
          continue;
        }
      if (c->t[i] == ']')
        break;
      return tp_lesson_refuse (c->r, c->line, i, "expected `,` or `]` in the "
                               "shape");
    }
  if (i != w.at + w.len - 1)
    return tp_lesson_refuse (c->r, c->line, i + 1, "expected the end of the "
                             "shape");
  return true;
}

static bool
read_count (Cursor *c, TpGoalArgs *a, Word *v)
{
  Word w;
  uint64_t n = 0;

  next_word (c, &w);
  *v = w;
  a->relation = TP_COUNT_EXACTLY;
  if (word_is (c, &w, "at"))
    {
      next_word (c, &w);
      if (word_is (c, &w, "most"))
        a->relation = TP_COUNT_AT_MOST;
      else if (word_is (c, &w, "least"))
        a->relation = TP_COUNT_AT_LEAST;
      else
        return expected (c, &w, "`most` or `least`");
      next_word (c, &w);
    }
  if (w.len == 0 || w.len > 12)
    return expected (c, &w, "a whole number");
  for (uint32_t i = w.at; i < w.at + w.len; i++)
    {
      if (c->t[i] < '0' || c->t[i] > '9')
        return expected (c, &w, "a whole number");
      n = n * 10 + (uint64_t) (c->t[i] - '0');
    }
  a->count = n;
  v->len = w.at + w.len - v->at;
  return true;
}

static bool
read_op (Cursor *c, TpGoalArgs *a, Word *v)
{
  Word w;
  TpBuf *m = &c->r->scratch;

  next_word (c, &w);
  *v = w;
  for (int op = 0; op < TP_N_OPS; op++)
    if (word_is (c, &w, tp_op_info[op].name))
      {
        a->op = (uint8_t) op;
        return true;
      }
  tp_buf_clear (m);
  tp_buf_puts (m, "expected an op as the spec prints it (");
  for (int op = 0; op < TP_N_OPS; op++)
    {
      tp_buf_puts (m, op == 0 ? "" : op == TP_N_OPS - 1 ? " or " : ", ");
      tp_buf_puts (m, tp_op_info[op].name);
    }
  tp_buf_puts (m, "), found ");
  if (w.len == 0)
    tp_buf_puts (m, "the end of the line");
  else
    tp_lesson_quote (m, c->t + w.at, w.len);
  return tp_lesson_refuse_scratch (c->r, c->line, w.at);
}

/* The engine's sentence for a goal without `say:`, from its row. */
static bool
engine_sentence (TpLessonReader *r, TpLessonGoal *goal, const TpGoalArgs *a,
                 const char *v, uint32_t v_len)
{
  const char *s = tp_goal_rows[goal->kind].sentence;
  TpBuf text;
  bool no_memory = false, ok;

  tp_buf_init (&text);
  for (; *s != '\0'; s++)
    {
      if (*s != '%')
        tp_buf_putc (&text, *s);
      else if (*++s == 'n')
        tp_buf_puts (&text, a->name);
      else if (*s == 'o')
        tp_buf_puts (&text, tp_op_info[a->op].name);
      else
        tp_buf_append (&text, v, v_len);
    }
  if (text.failed)
    return tp_lesson_oom (r);
  ok = tp_lesson_read_message (r->arena, text.data, text.len, goal->line,
                               &goal->sentence, &no_memory);
  tp_buf_clear (&text);
  if (no_memory)
    return tp_lesson_oom (r);
  /* Made of a name, an op and numbers, it always reads. */
  goal->engine_sentence = ok;
  return ok || tp_lesson_refuse (r, goal->line - 1, 0, "this goal's sentence "
                                 "cannot be written: give it a `say:` line");
}

/* A goal's line: its row's words, then its arguments. */
static bool
read_goal_line (TpLessonReader *r, uint32_t line, TpLessonGoal *goal,
                TpGoalArgs *a)
{
  const TpLessonLine *l = &r->lines[line];
  Cursor c = { r, line, l->text, l->len, 0 };
  Word first, w, v = { 0, 0 };
  int kind = -1;
  TpBuf *m = &r->scratch;

  next_word (&c, &first);
  for (int k = 0; k < TP_N_GOAL_KINDS && kind < 0; k++)
    {
      const char *words = tp_goal_rows[k].words;
      size_t n = strcspn (words, " ");
      Cursor d = c;

      if (first.len != n || memcmp (c.t + first.at, words, n) != 0)
        continue;
      if (words[n] == '\0')
        kind = k;
      else
        {
          next_word (&d, &w);
          if (word_is (&d, &w, words + n + 1))
            {
              kind = k;
              c = d;
            }
        }
    }
  if (kind < 0)
    {
      bool known = false;
      tp_buf_clear (m);
      for (int k = 0; k < TP_N_GOAL_KINDS && !known; k++)
        known = first.len == strcspn (tp_goal_rows[k].words, " ")
                && memcmp (c.t + first.at, tp_goal_rows[k].words, first.len) == 0;
      if (known)
        {
          Cursor d = c;
          next_word (&d, &w);
          tp_buf_puts (m, "no goal is written ");
          tp_lesson_quote (m, c.t + first.at, w.at + w.len - first.at);
          tp_buf_puts (m, "; the goals are written");
        }
      else
        {
          tp_buf_puts (m, "no goal starts with ");
          tp_lesson_quote (m, c.t + first.at, first.len);
          tp_buf_puts (m, "; the goals are written");
        }
      for (int k = 0; k < TP_N_GOAL_KINDS; k++)
        {
          tp_buf_puts (m, k == 0 ? " `" : k == TP_N_GOAL_KINDS - 1 ? " and `"
                                                                    : ", `");
          tp_buf_puts (m, tp_goal_rows[k].words);
          tp_buf_putc (m, '`');
        }
      return tp_lesson_refuse_scratch (r, line, first.at);
    }
  goal->kind = (TpGoalKind) kind;
  goal->line = line + 1;
  goal->about = TP_N_READINGS;
  switch (tp_goal_rows[kind].args)
    {
    case TP_ARGS_NONE:
      break;
    case TP_ARGS_NAME:
      if (!read_name (&c, a))
        return false;
      v.at = c.pos;
      break;
    case TP_ARGS_VALUE:
      if (!read_value (&c, a, &v))
        return false;
      break;
    case TP_ARGS_SHAPE:
      if (!read_shape (&c, a, &v))
        return false;
      break;
    case TP_ARGS_COUNT:
      if (!read_count (&c, a, &v))
        return false;
      break;
    case TP_ARGS_OP:
      if (!read_op (&c, a, &v))
        return false;
      break;
    case TP_ARGS_NUMBER:
      next_word (&c, &v);
      if (!read_number (c.t + v.at, v.len, &a->number))
        return expected (&c, &v, "a number");
      break;
    case TP_ARGS_QUESTION:
      {
        TpLessonView view = { line, c.pos };
        while (view.at < l->len && l->text[view.at] == ' ')
          view.at++;
        if (view.at == l->len)
          return tp_lesson_refuse (r, line, view.at, "a question is written "
                                   "`question: TEXT`");
        if (!tp_lesson_read_text (r, &view, 1, &goal->sentence))
          return false;
        c.pos = l->len;
      }
      break;
    }
  if (next_word (&c, &w))
    {
      tp_buf_clear (m);
      tp_buf_puts (m, "unexpected ");
      tp_lesson_quote (m, c.t + w.at, w.len);
      tp_buf_puts (m, " after the goal");
      return tp_lesson_refuse_scratch (r, line, w.at);
    }
  {
    uint32_t b = l->len;
    while (b > 0 && l->text[b - 1] == ' ')
      b--;
    goal->written = tp_arena_strndup (r->arena, l->text, b);
    goal->written_length = b;
    if (goal->written == NULL)
      return tp_lesson_oom (r);
  }
  if (tp_goal_rows[kind].args != TP_ARGS_QUESTION)
    return engine_sentence (r, goal, a, c.t + v.at, v.len);
  return true;
}

/* The lines under a goal: `say:`, `hint:`, and a question's `right:`,
 * `wrong:` and `about:`. */
static bool
read_attribute (TpLessonReader *r, uint32_t line, TpLessonGoal *goal,
                TpGoalArgs *a, bool *said, size_t *cap)
{
  static const char *const keys[] = { "say", "hint", "right", "wrong", "about" };
  const TpLessonLine *l = &r->lines[line];
  uint32_t at = 0, colon;
  int key = -1;
  bool question = goal->kind == TP_GOAL_QUESTION;
  TpLessonView view;
  TpLessonText *text;

  while (at < l->len && l->text[at] == ' ')
    at++;
  for (colon = at; colon < l->len && l->text[colon] != ':'
                   && l->text[colon] != ' '; colon++)
    ;
  for (int k = 0; k < 5; k++)
    if (colon - at == strlen (keys[k])
        && memcmp (l->text + at, keys[k], colon - at) == 0)
      key = k;
  if (key < 0 || colon == l->len || l->text[colon] != ':')
    return tp_lesson_refuse (r, line, at, question
                             ? "under a question come its `right:` and "
                               "`wrong:` choices, and `hint:` and `about:`"
                             : "under a goal come `say:` (what the student "
                               "sees) and `hint:`");
  view.line = line;
  view.at = colon + 1;
  while (view.at < l->len && l->text[view.at] == ' ')
    view.at++;
  if (view.at == l->len)
    return tp_lesson_refuse (r, line, view.at, "expected text after the `:`");
  switch (key)
    {
    case 0:                                   /* say */
      if (question)
        return tp_lesson_refuse (r, line, at, "a question's sentence is the "
                                 "question itself: `question: TEXT`");
      if (*said)
        return tp_lesson_refuse (r, line, at, "a goal has one `say:` line");
      *said = true;
      goal->engine_sentence = false;
      return tp_lesson_read_text (r, &view, 1, &goal->sentence);
    case 1:                                   /* hint */
      if (goal->hint != NULL)
        return tp_lesson_refuse (r, line, at, "a goal has one `hint:` line");
      text = tp_arena_calloc (r->arena, 1, sizeof *text);
      if (text == NULL)
        return tp_lesson_oom (r);
      goal->hint = text;
      return tp_lesson_read_text (r, &view, 1, text);
    case 2:                                   /* right */
    case 3:                                   /* wrong */
      if (!question)
        return tp_lesson_refuse (r, line, at, "only a question has choices");
      if (goal->n_choices == TP_LESSON_MAX_CHOICES)
        return tp_lesson_refuse (r, line, at, "a question has at most 8 "
                                 "choices");
      if (goal->n_choices == *cap)
        {
          size_t grown = *cap == 0 ? 4 : *cap * 2;
          TpLessonText *more = tp_arena_grow (r->arena,
                                              (void *) goal->choices, *cap,
                                              grown, sizeof *more);
          if (more == NULL)
            return tp_lesson_oom (r);
          goal->choices = more;
          *cap = grown;
        }
      if (key == 2)
        a->right = a->right == UINT32_MAX ? (uint32_t) goal->n_choices
                                          : UINT32_MAX - 1;
      text = (TpLessonText *) &goal->choices[goal->n_choices++];
      return tp_lesson_read_text (r, &view, 1, text);
    default:                                  /* about */
      if (!question)
        return tp_lesson_refuse (r, line, at, "only a question is `about:` a "
                                 "reading");
      if (goal->about != TP_N_READINGS)
        return tp_lesson_refuse (r, line, at, "a question has one `about:` "
                                 "line");
      {
        char name[16];
        uint32_t end = l->len;
        while (end > view.at && l->text[end - 1] == ' ')
          end--;
        if (end - view.at < sizeof name)
          {
            memcpy (name, l->text + view.at, end - view.at);
            name[end - view.at] = '\0';
            if (tp_reading_from_name (name, &goal->about))
              return true;
          }
        goal->about = TP_N_READINGS;
        return tp_lesson_refuse (r, line, view.at, "expected a reading: spec, "
                                 "derivative, plan, stablehlo, values, dot, "
                                 "summary, check, explain, memory, "
                                 "optimized, fusion, forward or jax");
      }
    }
}

/* A question is complete: at least two choices, one of them right. */
static bool
close_goal (TpLessonReader *r, TpLessonGoal *goal, const TpGoalArgs *a)
{
  if (goal->kind != TP_GOAL_QUESTION)
    return true;
  if (goal->n_choices < 2)
    return tp_lesson_refuse (r, goal->line - 1, 0, "a question has at least "
                             "two choices: `right:` and `wrong:` lines under "
                             "it");
  if (a->right >= goal->n_choices)
    return tp_lesson_refuse (r, goal->line - 1, 0, "a question has one "
                             "`right:` choice");
  return true;
}

bool
tp_lesson_read_goals (TpLessonReader *r, uint32_t first, uint32_t end)
{
  TpLesson *l = r->lesson;
  TpLessonGoal *goal = NULL;
  TpGoalArgs *a = NULL;
  bool said = false;
  size_t cap = 0;

  l->goals = tp_arena_calloc (r->arena, TP_LESSON_MAX_GOALS, sizeof *l->goals);
  l->args = tp_arena_calloc (r->arena, TP_LESSON_MAX_GOALS, sizeof *l->args);
  if (l->goals == NULL || l->args == NULL)
    return tp_lesson_oom (r);
  for (uint32_t k = first; k < end; k++)
    {
      const TpLessonLine *line = &r->lines[k];
      uint32_t lead = 0;

      while (lead < line->len && line->text[lead] == ' ')
        lead++;
      for (uint32_t i = 0; i < line->len; i++)
        if (line->text[i] == '\t')
          {
            uint32_t step;
            return tp_lesson_refuse (r, k, i, tp_lesson_bad_char ("\t", 1,
                                                                  false, &step));
          }
      if (lead == line->len)
        continue;
      if (lead > 0)
        {
          if (goal == NULL)
            return tp_lesson_refuse (r, k, lead, "an indented line belongs to "
                                     "the goal above it, and there is none");
          if (!read_attribute (r, k, goal, a, &said, &cap))
            return false;
          continue;
        }
      if (goal != NULL && !close_goal (r, goal, a))
        return false;
      if (l->n_goals == TP_LESSON_MAX_GOALS)
        return tp_lesson_refuse (r, k, 0, "a lesson has at most 64 goals");
      goal = &l->goals[l->n_goals];
      a = &l->args[l->n_goals];
      l->n_goals++;
      said = false;
      cap = 0;
      a->right = UINT32_MAX;
      if (!read_goal_line (r, k, goal, a))
        return false;
      if (goal->kind == TP_GOAL_QUESTION)
        goal->question = (uint32_t) l->n_questions++;
    }
  if (goal != NULL && !close_goal (r, goal, a))
    return false;
  if (l->n_goals == 0)
    return tp_lesson_refuse (r, first - 1, 0, "the `## goals` section has no "
                             "goal");
  return true;
}
