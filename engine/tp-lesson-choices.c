/* tp-lesson-choices.c: a lesson's `## choices` section (docs/lessons.md,
 * Choices): the compiler's passes its programs are compiled with
 * (`--optimize`, `--remat auto`, `--remat NAME, ...`) and forward mode's
 * direction (`--direction NAME[i, j]`), one a line, written as the
 * command line writes them.  A front end compiles the student's program
 * with them (tp_lesson_choices); grading checks that it did, since a goal
 * about a pass, the plan or the fusion grades another program without
 * them.  The target and the observed names stay the student's. */
#include "tp-session-private.h"
#include "tp-lesson.h"

#include <string.h>

#include "tp-lex.h"

/* {==== reading ====} */

typedef struct
{
  TpLessonReader *r;
  uint32_t line;
  const char *t;
  uint32_t len;
  uint32_t pos;
} Cursor;

static void
skip_spaces (Cursor *c)
{
  while (c->pos < c->len && c->t[c->pos] == ' ')
    c->pos++;
}

static bool
name_char (char ch, bool first)
{
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'
         || (!first && ch >= '0' && ch <= '9');
}

/* The length of the statement name at c (0 when there is none). */
static uint32_t
name_at (const Cursor *c)
{
  uint32_t n = 0;

  while (c->pos + n < c->len && name_char (c->t[c->pos + n], n == 0))
    n++;
  return n <= TP_LIMIT_NAME ? n : 0;
}

/* "expected WHAT, found `x`" at the cursor, quoting up to the next space,
 * comma or bracket. */
static bool
expected (Cursor *c, const char *what)
{
  TpBuf *m = &c->r->scratch;
  uint32_t end = c->pos;

  while (end < c->len && c->t[end] != ' ' && c->t[end] != ','
         && c->t[end] != ']')
    end++;
  if (end == c->pos && end < c->len)
    end++;
  tp_buf_clear (m);
  tp_buf_puts (m, "expected ");
  tp_buf_puts (m, what);
  if (end == c->pos)
    tp_buf_puts (m, ", found the end of the line");
  else
    {
      tp_buf_puts (m, ", found ");
      tp_lesson_quote (m, c->t + c->pos, end - c->pos);
    }
  return tp_lesson_refuse_scratch (c->r, c->line, c->pos);
}

static char *
copy (Cursor *c, uint32_t at, uint32_t len)
{
  char *s = tp_arena_strndup (c->r->arena, c->t + at, len);

  if (s == NULL)
    tp_lesson_oom (c->r);
  return s;
}

/* `--remat auto`, or names separated by commas (spaces around them
 * allowed), each once.  `auto` is never a name here: it picks the
 * statements itself, so it stands alone. */
static bool
read_remat (Cursor *c, TpLessonChoices *ch)
{
  uint32_t n;

  skip_spaces (c);
  if (name_at (c) == 4 && memcmp (c->t + c->pos, "auto", 4) == 0)
    {
      ch->remat_auto = true;
      c->pos += 4;
      skip_spaces (c);
      if (c->pos < c->len && c->t[c->pos] == ',')
        return tp_lesson_refuse (c->r, c->line, c->pos, "`--remat auto` "
                                 "stands alone: auto picks the statements "
                                 "itself");
      return true;
    }
  ch->remat = tp_arena_calloc (c->r->arena, TP_LESSON_MAX_REMAT,
                               sizeof *ch->remat);
  if (ch->remat == NULL)
    return tp_lesson_oom (c->r);
  for (;;)
    {
      uint32_t at = c->pos;
      if ((n = name_at (c)) == 0)
        return expected (c, ch->n_remat == 0
                            ? "`auto` or a statement's name after `--remat`"
                            : "a statement's name after the `,`");
      if (n == 4 && memcmp (c->t + at, "auto", 4) == 0)
        return tp_lesson_refuse (c->r, c->line, at, "`--remat auto` stands "
                                 "alone: auto picks the statements itself");
      for (uint32_t k = 0; k < ch->n_remat; k++)
        if (strlen (ch->remat[k]) == n && memcmp (ch->remat[k], c->t + at, n) == 0)
          {
            TpBuf *m = &c->r->scratch;
            tp_buf_clear (m);
            tp_buf_puts (m, "`--remat` names ");
            tp_lesson_quote (m, c->t + at, n);
            tp_buf_puts (m, " twice");
            return tp_lesson_refuse_scratch (c->r, c->line, at);
          }
      if (ch->n_remat == TP_LESSON_MAX_REMAT)
        return tp_lesson_refuse (c->r, c->line, at, "`--remat` names at most "
                                 "16 statements");
      if ((ch->remat[ch->n_remat] = copy (c, at, n)) == NULL)
        return false;
      ch->n_remat++;
      c->pos += n;
      skip_spaces (c);
      if (c->pos == c->len || c->t[c->pos] != ',')
        return true;
      c->pos++;
      skip_spaces (c);
    }
}

/* `--direction NAME` or `--direction NAME[i, j]` (`NAME[]` for a
 * parameter of rank 0), kept as written: the compile resolves it against
 * the program, as it does the command line's. */
static bool
read_direction (Cursor *c, TpLessonChoices *ch)
{
  uint32_t at, n, indices = 0;

  skip_spaces (c);
  at = c->pos;
  if ((n = name_at (c)) == 0)
    return expected (c, "a parameter's name after `--direction`");
  c->pos += n;
  if (c->pos < c->len && c->t[c->pos] == '[')
    {
      c->pos++;
      for (;;)
        {
          uint32_t digits = 0;
          skip_spaces (c);
          if (c->pos < c->len && c->t[c->pos] == ']' && indices == 0)
            break;
          uint32_t start = c->pos;
          while (c->pos < c->len && c->t[c->pos] >= '0'
                 && c->t[c->pos] <= '9' && digits < 10)
            c->pos++, digits++;
          if (digits == 0 || (c->pos < c->len && c->t[c->pos] >= '0'
                              && c->t[c->pos] <= '9'))
            {
              c->pos = start;
              return expected (c, "an index, a whole number of at most 10 "
                                  "digits");
            }
          if (++indices > TP_MAX_RANK)
            return tp_lesson_refuse (c->r, c->line, c->pos - digits, "an "
                                     "element has at most 16 indices");
          skip_spaces (c);
          if (c->pos < c->len && c->t[c->pos] == ']')
            break;
          if (c->pos == c->len || c->t[c->pos] != ',')
            return expected (c, "`,` or `]` after the index");
          c->pos++;
        }
      c->pos++;                         /* the `]` */
    }
  ch->direction = copy (c, at, c->pos - at);
  return ch->direction != NULL;
}

static bool
twice (Cursor *c, uint32_t at, const char *option)
{
  TpBuf *m = &c->r->scratch;

  tp_buf_clear (m);
  tp_buf_puts (m, "a second `");
  tp_buf_puts (m, option);
  tp_buf_puts (m, "`: each choice comes once");
  return tp_lesson_refuse_scratch (c->r, c->line, at);
}

static bool
read_choice (TpLessonReader *r, uint32_t line, bool seen[3])
{
  static const char *const options[] = { "--optimize", "--remat",
                                         "--direction" };
  static const char *const students[] = { "--target", "--observe", "--exact" };
  const TpLessonLine *l = &r->lines[line];
  Cursor c = { r, line, l->text, l->len, 0 };
  TpLessonChoices *ch = &r->lesson->choices;
  TpBuf *m = &r->scratch;
  uint32_t end = 0;
  int which = -1;
  bool ok;

  while (end < l->len && l->text[end] != ' ')
    end++;
  for (int k = 0; k < 3; k++)
    if (end == strlen (options[k]) && memcmp (l->text, options[k], end) == 0)
      which = k;
  if (which < 0)
    {
      tp_buf_clear (m);
      for (int k = 0; k < 3; k++)
        if (end == strlen (students[k]) && memcmp (l->text, students[k], end) == 0)
          {
            tp_buf_puts (m, "`");
            tp_buf_puts (m, students[k]);
            tp_buf_puts (m, "` is the student's choice, not the lesson's: a "
                            "lesson sets `--optimize`, `--remat` and "
                            "`--direction`");
            return tp_lesson_refuse_scratch (r, line, 0);
          }
      tp_buf_puts (m, "no choice is written ");
      tp_lesson_quote (m, l->text, end);
      tp_buf_puts (m, "; the choices are `--optimize`, `--remat auto`, "
                      "`--remat NAME, ...` and `--direction NAME` (or "
                      "`NAME[i, j]`), one a line");
      return tp_lesson_refuse_scratch (r, line, 0);
    }
  if (seen[which])
    return twice (&c, 0, options[which]);
  seen[which] = true;
  c.pos = end;
  if (which == 0)
    {
      ch->optimize = true;
      ok = true;
    }
  else if (which == 1)
    ok = read_remat (&c, ch);
  else
    ok = read_direction (&c, ch);
  if (!ok)
    return false;
  skip_spaces (&c);
  if (c.pos < c.len)
    {
      uint32_t stop = c.pos;
      while (stop < c.len && c.t[stop] != ' ')
        stop++;
      tp_buf_clear (m);
      tp_buf_puts (m, "unexpected ");
      tp_lesson_quote (m, c.t + c.pos, stop - c.pos);
      tp_buf_puts (m, " after the choice");
      return tp_lesson_refuse_scratch (r, line, c.pos);
    }
  return true;
}

bool
tp_lesson_read_choices (TpLessonReader *r, uint32_t first, uint32_t end)
{
  bool seen[3] = { false, false, false }, any = false;

  for (uint32_t k = first; k < end; k++)
    {
      const TpLessonLine *line = &r->lines[k];
      uint32_t lead = 0;

      for (uint32_t i = 0; i < line->len; i++)
        if (line->text[i] == '\t')
          {
            uint32_t step;
            return tp_lesson_refuse (r, k, i, tp_lesson_bad_char ("\t", 1,
                                                                  false, &step));
          }
      while (lead < line->len && line->text[lead] == ' ')
        lead++;
      if (lead == line->len)
        continue;
      if (lead > 0)
        return tp_lesson_refuse (r, k, lead, "a choice is written at the "
                                 "margin, one a line");
      if (!read_choice (r, k, seen))
        return false;
      any = true;
    }
  if (!any)
    return tp_lesson_refuse (r, first - 1, 0, "the `## choices` section has "
                             "no choice: write one a line, such as "
                             "`--optimize`");
  return true;
}

bool
tp_lesson_check_choices (TpLessonReader *r)
{
  const TpLesson *l = r->lesson;
  bool remat = l->choices.remat_auto || l->choices.n_remat > 0;

  for (size_t g = 0; g < l->n_goals; g++)
    if (l->goals[g].kind == TP_GOAL_SAVES && !remat)
      return tp_lesson_refuse (r, l->goals[g].line - 1, 0, "the goal `remat "
                               "saves` grades a rematerialisation: ask for "
                               "one in the `## choices` section, "
                               "`--remat auto` or `--remat NAME`");
  return true;
}

/* {==== the seam, and grading ====} */

void
tp_lesson_choices (const TpLesson *l, TpChoices *out)
{
  const TpLessonChoices *ch = &l->choices;

  out->optimize = ch->optimize;
  out->remat_auto = ch->remat_auto;
  out->remat = (const char *const *) ch->remat;
  out->n_remat = ch->n_remat;
  if (ch->direction != NULL)
    out->direction = ch->direction;
}

/* Choices as the lesson writes them: "`--optimize`, `--remat auto`",
 * or "no pass". */
static void
put_lesson_choices (TpBuf *out, const TpLessonChoices *ch)
{
  bool any = ch->optimize;

  if (ch->optimize)
    tp_buf_puts (out, "`--optimize`");
  if (ch->remat_auto || ch->n_remat > 0)
    {
      tp_buf_puts (out, any ? ", `--remat " : "`--remat ");
      if (ch->remat_auto)
        tp_buf_puts (out, "auto");
      for (uint32_t k = 0; !ch->remat_auto && k < ch->n_remat; k++)
        {
          tp_buf_puts (out, k > 0 ? ", " : "");
          tp_buf_puts (out, ch->remat[k]);
        }
      tp_buf_putc (out, '`');
      any = true;
    }
  if (ch->direction != NULL)
    {
      tp_buf_puts (out, any ? ", `--direction " : "`--direction ");
      tp_buf_puts (out, ch->direction);
      tp_buf_putc (out, '`');
      any = true;
    }
  if (!any)
    tp_buf_puts (out, "no pass");
}

/* The same for what a session was compiled with: its rematerialised
 * statements by their display names, its direction when the lesson sets
 * one (the only case where it matters). */
static void
put_session_choices (TpBuf *out, TpSession *s, bool direction)
{
  bool any = s->optimize;

  if (s->optimize)
    tp_buf_puts (out, "`--optimize`");
  if (s->remat_on)
    {
      tp_buf_puts (out, any ? ", `--remat " : "`--remat ");
      if (s->remat_auto)
        tp_buf_puts (out, "auto");
      for (uint32_t k = 0; !s->remat_auto && k < s->n_remat_nodes; k++)
        {
          tp_buf_puts (out, k > 0 ? ", " : "");
          tp_session_put_display_name (s, s->remat_nodes[k], out);
        }
      tp_buf_putc (out, '`');
      any = true;
    }
  if (direction && s->fwd.asked != NULL && s->fwd.asked[0] != '\0')
    {
      tp_buf_puts (out, any ? ", `--direction " : "`--direction ");
      tp_buf_puts (out, s->fwd.asked);
      tp_buf_putc (out, '`');
      any = true;
    }
  if (!any)
    tp_buf_puts (out, "no pass");
}

/* Whether the session rematerialises exactly what the lesson asks: auto
 * alike, as many names asked, each one that is a statement among the
 * nodes resolved. */
static bool
same_remat (const TpLessonChoices *ch, TpSession *s)
{
  uint32_t found = 0;

  if (s->remat_auto != ch->remat_auto || s->n_remat_asked != ch->n_remat)
    return false;
  for (uint32_t k = 0; k < ch->n_remat; k++)
    {
      TpNode node = tp_program_lookup (&s->prog, ch->remat[k],
                                       strlen (ch->remat[k]));
      bool in = false, again = false;
      for (uint32_t j = 0; j < k && !again; j++)
        again = tp_program_lookup (&s->prog, ch->remat[j],
                                   strlen (ch->remat[j])) == node;
      if (node == TP_NO_NODE || again)
        continue;
      for (uint32_t j = 0; j < s->n_remat_nodes && !in; j++)
        in = s->remat_nodes[j] == node;
      if (!in)
        return false;
      found++;
    }
  return found == s->n_remat_nodes;
}

bool
tp_lesson_choices_match (const TpLesson *l, TpSession *s, TpBuf *found)
{
  const TpLessonChoices *ch = &l->choices;
  bool same = s->optimize == ch->optimize && same_remat (ch, s);

  if (ch->direction != NULL)
    same = same && s->fwd.asked != NULL
           && strcmp (s->fwd.asked, ch->direction) == 0;
  if (same)
    return true;
  tp_buf_puts (found, "the lesson grades its programs compiled with ");
  put_lesson_choices (found, ch);
  tp_buf_puts (found, "; this one was compiled with ");
  put_session_choices (found, s, ch->direction != NULL);
  return false;
}
