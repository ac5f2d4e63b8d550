/* topos-lesson.c: the command line's lessons (docs/lessons.md, The
 * command line).  `topos --lesson LESSON [PROGRAM]` grades a program
 * against a lesson's goals, `--solution` the lesson's own solution, and
 * `topos --lesson-pot LESSON...` writes the lessons' messages as a
 * gettext template.  The grading is the engine's (tp_lesson_grade); this
 * file reads files and prints. */
#define _POSIX_C_SOURCE 200809L

#include "topos-lesson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp-engine.h"

#define MAX_OBSERVE 256
#define MAX_ANSWERS 64

static const char lesson_usage[] =
  "usage: topos --lesson LESSON [--solution] [--answer N]... [--json]\n"
  "             [--target NAME] [--observe NAME]... [--exact] [PROGRAM|-]\n"
  "       topos --lesson-pot LESSON...\n"
  "Grades PROGRAM (by default the lesson's starting program; with\n"
  "--solution the lesson's solution and its right answers) against the\n"
  "lesson's goals, one line per goal, and the hint of a goal not met.\n"
  "The program is compiled with the lesson's choices (its passes and\n"
  "direction) and the target, observed names and exactness given here.\n"
  "--answer N answers the next question with its choice N (from 1).\n"
  "--json prints the lesson and the grade as JSON instead.\n"
  "--lesson-pot prints the lessons' messages as a gettext template.\n"
  "Exit status: 0 every goal met, 1 a goal not met, 2 a usage error or a\n"
  "lesson that is refused.\n";

static int
usage_error (const char *what, const char *arg)
{
  fprintf (stderr, "topos: %s%s%s\n%s", what, arg ? " " : "", arg ? arg : "",
           lesson_usage);
  return 2;
}

/* Reads f, at most limit bytes (and one more, so that a longer file is
 * seen to be longer); NULL on a read or memory error. */
static char *
read_all (FILE *f, size_t limit, size_t *len)
{
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc (cap + 1);

  if (buf == NULL)
    return NULL;
  for (;;)
    {
      size_t got;
      if (n == cap)
        {
          char *p;
          if (cap > limit)
            break;
          cap *= 2;
          p = realloc (buf, cap + 1);
          if (p == NULL)
            {
              free (buf);
              return NULL;
            }
          buf = p;
        }
      got = fread (buf + n, 1, cap - n, f);
      n += got;
      if (got == 0)
        break;
    }
  if (ferror (f))
    {
      free (buf);
      return NULL;
    }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static char *
read_path (const char *path, size_t limit, size_t *len)
{
  FILE *f = strcmp (path, "-") == 0 ? stdin : fopen (path, "rb");
  char *text;

  if (f == NULL)
    {
      fprintf (stderr, "topos: cannot open %s: %s\n", path, strerror (errno));
      return NULL;
    }
  text = read_all (f, limit, len);
  if (f != stdin)
    fclose (f);
  if (text == NULL)
    fprintf (stderr, "topos: cannot read %s\n", path);
  return text;
}

/* A lesson read, or NULL with its refusal printed. */
static TpLesson *
open_lesson (const char *path)
{
  size_t len;
  char *text = read_path (path, TP_LESSON_MAX_BYTES, &len);
  TpLesson *lesson;
  const TpDiag *d;

  if (text == NULL)
    return NULL;
  lesson = tp_lesson_parse (text, len);
  free (text);
  if (lesson == NULL)
    {
      fputs ("topos: out of memory\n", stderr);
      return NULL;
    }
  if ((d = tp_lesson_error (lesson)) != NULL)
    {
      fprintf (stderr, "%s:%u:%u: error: %s\n", path, d->line, d->column,
               d->message);
      tp_lesson_free (lesson);
      return NULL;
    }
  return lesson;
}

static void
put_text (const TpLessonText *t)
{
  fwrite (t->source, 1, t->source_length, stdout);
}

static void
print_grade (const TpLesson *lesson, const TpGrade *grade)
{
  size_t n;
  const TpLessonGoal *goals = tp_lesson_goals (lesson, &n);

  fputs ("lesson: ", stdout);
  put_text (tp_lesson_title (lesson));
  putchar ('\n');
  for (size_t k = 0; k < n; k++)
    {
      TpGoalResult r;
      static const char *const marks[] = { "[met]     ", "[not met] ",
                                           "[skipped] " };
      tp_grade_goal (grade, k, &r);
      fputs (marks[r.state], stdout);
      put_text (r.sentence);
      putchar ('\n');
      if (goals[k].kind == TP_GOAL_QUESTION && r.state != TP_GOAL_MET)
        for (size_t c = 0; c < goals[k].n_choices; c++)
          {
            printf ("          %zu. ", c + 1);
            put_text (&goals[k].choices[c]);
            putchar ('\n');
          }
      if (r.state != TP_GOAL_MET && r.found_length > 0)
        printf ("          found: %s\n", r.found);
      if (r.hint != NULL)
        {
          fputs ("          hint: ", stdout);
          put_text (r.hint);
          putchar ('\n');
        }
    }
  printf ("%zu of %zu goal%s met\n", tp_grade_met (grade), n,
          n == 1 ? "" : "s");
}

/* One msgid or msgstr string, escaped for a PO file. */
static void
put_po_string (const char *text, size_t len)
{
  putchar ('"');
  for (size_t i = 0; i < len; i++)
    {
      if (text[i] == '"' || text[i] == '\\')
        putchar ('\\');
      putchar (text[i]);
    }
  puts ("\"");
}

typedef struct
{
  const TpLessonText *text;
  const char *path;
} Message;

/* The messages of every lesson, once each, with every place it comes
 * from, in the order first met. */
static int
write_pot (int n_paths, char **paths)
{
  TpLesson **lessons = calloc ((size_t) n_paths, sizeof *lessons);
  Message *all = NULL;
  size_t n = 0, cap = 0;
  int status = 0;

  if (lessons == NULL)
    return usage_error ("out of memory", NULL);
  for (int p = 0; p < n_paths && status == 0; p++)
    {
      lessons[p] = open_lesson (paths[p]);
      if (lessons[p] == NULL)
        {
          status = 2;
          break;
        }
      for (size_t k = 0; k < tp_lesson_n_messages (lessons[p]); k++)
        {
          if (n == cap)
            {
              Message *more;
              cap = cap ? cap * 2 : 256;
              more = realloc (all, cap * sizeof *all);
              if (more == NULL)
                {
                  status = 2;
                  break;
                }
              all = more;
            }
          all[n].text = tp_lesson_message (lessons[p], k);
          all[n++].path = paths[p];
        }
    }
  if (status == 0)
    {
      puts ("# The lessons' messages (docs/lessons.md, Translating).\n"
            "msgid \"\"\nmsgstr \"\"\n"
            "\"Project-Id-Version: topos-playground lessons\\n\"\n"
            "\"MIME-Version: 1.0\\n\"\n"
            "\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
            "\"Content-Transfer-Encoding: 8bit\\n\"\n");
      for (size_t k = 0; k < n; k++)
        {
          const TpLessonText *t = all[k].text;
          bool seen = false;
          for (size_t j = 0; j < k && !seen; j++)
            seen = all[j].text->source_length == t->source_length
                   && memcmp (all[j].text->source, t->source,
                              t->source_length) == 0;
          if (seen)
            continue;
          puts ("#. Lesson text: keep its marks as they are: *emphasis*, "
                "`code` (never translated inside), [text](address), and "
                "\\ before a mark that stands for itself.");
          for (size_t j = k; j < n; j++)
            if (all[j].text->source_length == t->source_length
                && memcmp (all[j].text->source, t->source,
                           t->source_length) == 0)
              printf ("#: %s:%u\n", all[j].path, all[j].text->line);
          fputs ("msgid ", stdout);
          put_po_string (t->source, t->source_length);
          puts ("msgstr \"\"\n");
        }
    }
  for (int p = 0; p < n_paths; p++)
    tp_lesson_free (lessons[p]);
  free (lessons);
  free (all);
  if (fflush (stdout) != 0)
    return 2;
  return status;
}

int
topos_lesson_main (int argc, char **argv)
{
  const char *observe[MAX_OBSERVE];
  TpChoices choices = { .observe = observe };
  int32_t answers[MAX_ANSWERS];
  size_t n_answers = 0;
  const char *lesson_path = NULL, *program_path = NULL;
  bool solution = false, json = false;
  TpLesson *lesson;
  TpSession *session;
  TpGrade *grade;
  char *program = NULL;
  const char *source;
  size_t len;
  int status;

  if (argc >= 2 && strcmp (argv[1], "--lesson-pot") == 0)
    {
      if (argc < 3)
        return usage_error ("--lesson-pot takes one LESSON or more", NULL);
      return write_pot (argc - 2, argv + 2);
    }
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      bool value = strcmp (a, "--lesson") == 0 || strcmp (a, "--answer") == 0
                   || strcmp (a, "--target") == 0
                   || strcmp (a, "--observe") == 0;

      if (value && i + 1 >= argc)
        return usage_error ("missing value after", a);
      if (strcmp (a, "--lesson") == 0)
        {
          if (lesson_path != NULL)
            return usage_error ("more than one --lesson", NULL);
          lesson_path = argv[++i];
        }
      else if (strcmp (a, "--answer") == 0)
        {
          const char *n = argv[++i];
          if (n_answers == MAX_ANSWERS || n[0] == '\0' || strlen (n) > 2
              || strspn (n, "0123456789") != strlen (n))
            return usage_error ("--answer takes a choice's number, from 1; got",
                                n);
          answers[n_answers++] = (int32_t) strtol (n, NULL, 10) - 1;
        }
      else if (strcmp (a, "--target") == 0)
        choices.target = argv[++i];
      else if (strcmp (a, "--observe") == 0)
        {
          if (choices.n_observe == MAX_OBSERVE)
            return usage_error ("too many --observe options", NULL);
          observe[choices.n_observe++] = argv[++i];
        }
      else if (strcmp (a, "--solution") == 0)
        solution = true;
      else if (strcmp (a, "--json") == 0)
        json = true;
      else if (strcmp (a, "--exact") == 0)
        choices.exact = true;
      else if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          fputs (lesson_usage, stdout);
          return 0;
        }
      else if (a[0] == '-' && strcmp (a, "-") != 0)
        return usage_error ("unknown option with --lesson:", a);
      else if (program_path != NULL)
        return usage_error ("more than one PROGRAM:", a);
      else
        program_path = a;
    }
  if (lesson_path == NULL)
    return usage_error ("--lesson needs a LESSON", NULL);
  if (solution && (program_path != NULL || n_answers > 0))
    return usage_error ("--solution grades the lesson's own program and "
                        "answers: give no PROGRAM and no --answer", NULL);
  lesson = open_lesson (lesson_path);
  if (lesson == NULL)
    return 2;
  tp_lesson_choices (lesson, &choices);
  if (solution)
    n_answers = tp_lesson_right_answers (lesson, answers, MAX_ANSWERS);
  if (program_path != NULL)
    {
      program = read_path (program_path, SIZE_MAX / 4, &len);
      if (program == NULL)
        {
          tp_lesson_free (lesson);
          return 2;
        }
      source = program;
    }
  else
    source = solution ? tp_lesson_solution (lesson, &len)
                      : tp_lesson_start (lesson, &len);
  session = tp_session_new ();
  if (session == NULL)
    {
      fputs ("topos: out of memory\n", stderr);
      tp_lesson_free (lesson);
      free (program);
      return 2;
    }
  tp_session_compile (session, source, len, &choices);
  grade = tp_lesson_grade (lesson, session, answers, n_answers, 0);
  if (grade == NULL)
    {
      fputs ("topos: out of memory\n", stderr);
      status = 2;
    }
  else if (json)
    {
      char *a = tp_lesson_to_json (lesson), *b = tp_grade_to_json (grade);
      if (a == NULL || b == NULL)
        {
          fputs ("topos: out of memory\n", stderr);
          status = 2;
        }
      else
        {
          /* both end in a newline: join them as one object */
          printf ("{\"lesson\":%.*s,\"grade\":%.*s}\n", (int) (strlen (a) - 1),
                  a, (int) (strlen (b) - 1), b);
          status = tp_grade_all_met (grade) ? 0 : 1;
        }
      tp_string_free (a);
      tp_string_free (b);
    }
  else
    {
      print_grade (lesson, grade);
      status = tp_grade_all_met (grade) ? 0 : 1;
    }
  tp_grade_free (grade);
  tp_session_free (session);
  tp_lesson_free (lesson);
  free (program);
  if (fflush (stdout) != 0)
    return 2;
  return status;
}
