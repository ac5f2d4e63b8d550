/* tp-lesson.h: the inside of a lesson (tp-engine.h, lessons), shared by
 * its files: tp-lesson.c (the file's lines and sections, the getters,
 * translation), tp-lesson-text.c (the Markdown subset: blocks and
 * spans), tp-lesson-choices.c (the `## choices` section, and whether a
 * session was compiled with them), tp-lesson-goals.c (reading the
 * goals), tp-lesson-grade.c (the goal table and grading) and
 * tp-lesson-json.c (the lesson and a grade as JSON). */
#ifndef TP_LESSON_H
#define TP_LESSON_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-lesson.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp-engine.h"

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-shape.h"

/* A line of the lesson: its bytes (without the '\n' and a '\r' before
 * it). */
typedef struct
{
  const char *text;
  uint32_t len;
} TpLessonLine;

/* A piece of a line a block or a message is read from: line `line`
 * (0-based) from byte `at` on. */
typedef struct
{
  uint32_t line;
  uint32_t at;
} TpLessonView;

/* How a goal compares a count: exactly, at most, at least. */
typedef enum
{
  TP_COUNT_EXACTLY,
  TP_COUNT_AT_MOST,
  TP_COUNT_AT_LEAST,
} TpCountRelation;

/* What a goal line says beyond its kind. */
typedef struct
{
  const char *name;         /* NAME, NUL-terminated */
  uint8_t op;               /* OP: a TpOp */
  float number;             /* trains below L; value's tolerance below */
  float tolerance;
  bool within;
  float *values;            /* value NAME = V: its elements, row-major ... */
  uint32_t n_values;
  TpShape shape;            /* ... and the nesting they were written with;
                               shape NAME = S */
  bool list;                /* V was a list, not one number */
  TpCountRelation relation;
  uint64_t count;
  uint32_t right;           /* a question's right choice */
} TpGoalArgs;

/* The most numbers a `value NAME = [...]` goal writes. */
#define TP_LESSON_MAX_VALUES 4096u

/* What a goal's line takes after its words (docs/lessons.md, Goals). */
typedef enum
{
  TP_ARGS_NONE,
  TP_ARGS_NAME,             /* NAME */
  TP_ARGS_VALUE,            /* NAME = V [within T] */
  TP_ARGS_SHAPE,            /* NAME = [2, 3] */
  TP_ARGS_COUNT,            /* N | at most N | at least N */
  TP_ARGS_OP,               /* an op as the spec prints it */
  TP_ARGS_NUMBER,           /* L */
  TP_ARGS_QUESTION,         /* : TEXT, then its choices */
} TpGoalArgsKind;

typedef struct _TpGrader TpGrader;

/* Grades one goal: met or unmet (or ungraded), with what was found
 * written into found. */
typedef TpGoalState (*TpGoalGrade) (TpGrader *g, const TpLessonGoal *goal,
                                    const TpGoalArgs *args, TpBuf *found);

/* The goal table: one row per TpGoalKind (tp-lesson-grade.c). */
typedef struct
{
  const char *words;        /* how its line starts: "plan keeps" */
  TpGoalArgsKind args;
  /* The engine's sentence, for a goal without `say:`: %n its name, %o
   * its op, %v what follows its words or its `=`, as written. */
  const char *sentence;
  TpGoalGrade grade;
} TpGoalRow;

extern const TpGoalRow tp_goal_rows[TP_N_GOAL_KINDS];

/* The most names a lesson's `--remat` choice gives. */
#define TP_LESSON_MAX_REMAT 16u

/* What a lesson's `## choices` section sets (docs/lessons.md, Choices):
 * the passes its programs are compiled with, and forward mode's
 * direction.  All off, and no direction, without the section. */
typedef struct
{
  bool optimize;
  bool remat_auto;
  const char **remat;       /* --remat NAME, ...: the names, NUL-terminated */
  uint32_t n_remat;
  const char *direction;    /* --direction D: D as written, or NULL */
} TpLessonChoices;

struct _TpLesson
{
  const TpAllocator *allocator; /* NULL: the C library's */
  TpArena arena;
  bool refused;
  TpDiag diag;

  TpLessonText title;
  TpLessonBlock *blocks;
  size_t n_blocks;
  const char *start;
  size_t start_len;
  const char *solution;
  size_t solution_len;
  TpLessonText *hints;
  size_t n_hints;
  TpLessonChoices choices;
  TpLessonGoal *goals;
  TpGoalArgs *args;         /* per goal */
  size_t n_goals;
  size_t n_questions;
  TpLessonText **messages;  /* every message, in lesson order */
  size_t n_messages;
};

/* What reading a lesson needs while it reads: the lines, the arena, the
 * first refusal, and the counts the bounds limit. */
typedef struct
{
  TpLesson *lesson;
  TpArena *arena;
  const TpLessonLine *lines;
  uint32_t n_lines;
  bool failed;              /* a refusal or no memory: stop */
  bool no_memory;
  TpBuf scratch;            /* a message being put together */
  uint32_t blocks;          /* blocks read so far, all depths */
} TpLessonReader;

/* Refuses the lesson at byte `at` of line `line` (0-based) with message,
 * unless it was refused already.  Returns false, for `return
 * tp_lesson_refuse (...)`. */
bool  tp_lesson_refuse    (TpLessonReader *r, uint32_t line, uint32_t at,
                           const char *message);
/* The same with the message in r->scratch (a message put together). */
bool  tp_lesson_refuse_scratch (TpLessonReader *r, uint32_t line,
                                uint32_t at);
/* Quotes up to 40 characters of text in a message, `like this` (cut with
 * "..."), control characters escaped. */
void  tp_lesson_quote     (TpBuf *out, const char *text, size_t len);
/* Memory ran out: the lesson is dropped.  Returns false. */
bool  tp_lesson_oom       (TpLessonReader *r);

/* Reads the message on views[0 .. n) (each to the end of its line; the
 * lines joined by one space) into out: its source and spans.  False
 * when refused. */
bool  tp_lesson_read_text (TpLessonReader *r, const TpLessonView *views,
                           uint32_t n, TpLessonText *out);
/* The same for a message that is not in the lesson's lines (a
 * translation): false when it would be refused or memory runs out
 * (*no_memory then says which). */
bool  tp_lesson_read_message (TpArena *arena, const char *source,
                              size_t len, uint32_t line, TpLessonText *out,
                              bool *no_memory);
/* Reads the blocks on views[0 .. n) (each line from its view's byte on)
 * at list depth `depth`. */
bool  tp_lesson_read_blocks (TpLessonReader *r, const TpLessonView *views,
                             uint32_t n, uint32_t depth,
                             TpLessonBlock **blocks, size_t *n_blocks);
/* Reads the `## goals` section, lines [first, end). */
bool  tp_lesson_read_goals (TpLessonReader *r, uint32_t first, uint32_t end);
/* Reads the `## choices` section, lines [first, end), whose heading is
 * line first - 1 (tp-lesson-choices.c). */
bool  tp_lesson_read_choices (TpLessonReader *r, uint32_t first,
                              uint32_t end);
/* Once every section is read: refuses a goal that grades a pass the
 * choices do not ask for (`remat saves` without `--remat`). */
bool  tp_lesson_check_choices (TpLessonReader *r);

/* Whether session s was compiled with the lesson's passes (and its
 * direction, when it sets one); when not, found says how they differ. */
bool  tp_lesson_choices_match (const TpLesson *l, TpSession *s, TpBuf *found);

/* Why the character at text (n bytes left) may not be in a lesson (a
 * tab only where tab allows it), or NULL; *length is its bytes. */
const char *tp_lesson_bad_char (const char *text, size_t n, bool tab,
                                uint32_t *length);

/* The characters in line[0 .. at): the 0-based column of byte at. */
uint32_t tp_lesson_chars  (const char *text, uint32_t at);

#endif /* TP_LESSON_H */
