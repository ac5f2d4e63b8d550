/* tp-engine-lesson.h: lessons, the part of the seam tp-engine.h includes
 * for them (docs/lessons.md): reading a lesson a teacher wrote, and
 * grading a compiled session against its goals.  Include tp-engine.h,
 * not this file. */
#ifndef TP_ENGINE_LESSON_H
#define TP_ENGINE_LESSON_H

#ifndef TP_ENGINE_H
#error "include tp-engine.h, which includes tp-engine-lesson.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* {==== lessons ====}
 *
 * A lesson (docs/lessons.md) is a text file a teacher writes: a title,
 * its text in a small Markdown subset, a starting program, a solution,
 * hints, and goals the engine checks against the readings of the
 * student's program.  Lessons are untrusted input (they arrive by a link
 * or a file): everything is bounded, a malformed or hostile lesson is
 * refused with a line, a column and a message, and the text is given as
 * spans of plain characters with a kind, never as markup, so a front end
 * that shows them as text cannot be made to run or show anything else. */

#define TP_LESSON_MAX_BYTES (UINT32_C (1) << 18)  /* the whole lesson */
#define TP_LESSON_MAX_LINE 4096u      /* bytes in one line */
#define TP_LESSON_MAX_GOALS 64u
#define TP_LESSON_MAX_HINTS 32u
#define TP_LESSON_MAX_CHOICES 8u      /* a question's choices */
#define TP_LESSON_MAX_DEPTH 4u        /* lists inside lists */
#define TP_LESSON_MAX_BLOCKS 4096u    /* paragraphs, code blocks, lists, items */
#define TP_LESSON_MAX_URL 2048u       /* bytes in a link's address */

typedef enum
{
  TP_SPAN_TEXT,         /* plain characters */
  TP_SPAN_EMPHASIS,     /* *emphasis*: plain characters, shown emphasised */
  TP_SPAN_CODE,         /* `code`: shown in the code font */
  TP_SPAN_LINK,         /* [text](https://...): the text, and its url */
} TpSpanKind;

/* text is exactly the characters the lesson wrote (an escape such as
 * `\*` gives its character; a line break inside a paragraph is one
 * space), NUL-terminated, valid UTF-8 without control characters.  url
 * is NULL but for a link, whose address starts with http:// or https://
 * and holds only printable ASCII without spaces, quotes, `<`, `>` or
 * backslashes. */
typedef struct
{
  TpSpanKind kind;
  const char *text;
  size_t length;
  const char *url;
  size_t url_length;
} TpSpan;

/* One message of a lesson (its title, a paragraph, a list item's first
 * paragraph, a hint, a goal's sentence or hint, a question, a choice):
 * its source as written, with its line breaks made spaces (the message
 * translators see, tp_lesson_translate), and its spans. */
typedef struct
{
  const char *source;
  size_t source_length;
  const TpSpan *spans;
  size_t n_spans;
  uint32_t line;        /* where it starts in the lesson, 1-based */
} TpLessonText;

typedef enum
{
  TP_BLOCK_PARAGRAPH,   /* text */
  TP_BLOCK_CODE,        /* code, code_length, info */
  TP_BLOCK_LIST,        /* items, n_items, ordered, first */
} TpLessonBlockKind;

typedef struct _TpLessonBlock TpLessonBlock;

/* A list item: the blocks inside it (paragraphs, code, lists). */
typedef struct
{
  const TpLessonBlock *blocks;
  size_t n_blocks;
} TpLessonItem;

struct _TpLessonBlock
{
  TpLessonBlockKind kind;
  uint32_t line;            /* where it starts in the lesson, 1-based */
  TpLessonText text;        /* a paragraph */
  const char *code;         /* a code block's lines, each ending in '\n' */
  size_t code_length;
  const char *info;         /* the word after its opening ```, or "" */
  const TpLessonItem *items;  /* a list */
  size_t n_items;
  bool ordered;             /* 1. 2. 3. rather than - - - */
  uint32_t first;           /* an ordered list's first number */
};

/* What a goal asks of the student's program (docs/lessons.md, Goals). */
typedef enum
{
  TP_GOAL_READS,            /* reads */
  TP_GOAL_VALUE,            /* value NAME = V [within T] */
  TP_GOAL_SHAPE,            /* shape NAME = S */
  TP_GOAL_KEEPS,            /* plan keeps NAME */
  TP_GOAL_FREES,            /* plan frees NAME */
  TP_GOAL_SKIPS,            /* plan skips NAME */
  TP_GOAL_APPENDS,          /* derivative appends COUNT */
  TP_GOAL_DERIVATIVE_USES,  /* derivative uses OP */
  TP_GOAL_PROGRAM_USES,     /* program uses OP */
  TP_GOAL_RECORDS,          /* program records COUNT */
  TP_GOAL_AGREES,           /* check agrees */
  TP_GOAL_FINITE,           /* finite */
  TP_GOAL_BORN,             /* nonfinite at NAME */
  TP_GOAL_TRAINS,           /* trains below L */
  TP_GOAL_PEAK,             /* peak COUNT */
  TP_GOAL_QUESTION,         /* question: TEXT, its choices */
  TP_GOAL_REMOVES,          /* optimized removes COUNT */
  TP_GOAL_KERNELS,          /* fusion kernels COUNT */
  TP_GOAL_FORWARD,          /* forward agrees */
  TP_GOAL_BYTES,            /* fusion bytes COUNT */
  TP_GOAL_FORWARD_CHEAPER,  /* forward cheaper */
  TP_GOAL_REVERSE_CHEAPER,  /* reverse cheaper */
  TP_GOAL_SAVES,            /* remat saves COUNT */
  TP_N_GOAL_KINDS
} TpGoalKind;

typedef struct
{
  TpGoalKind kind;
  uint32_t line;            /* the goal's line in the lesson */
  const char *written;      /* the goal as written: "value loss = 0" */
  size_t written_length;
  /* What the student sees: the `say:` line, or for a question the
   * question; without one the engine's own sentence (then
   * engine_sentence, and it is no message to translate). */
  TpLessonText sentence;
  bool engine_sentence;
  const TpLessonText *hint;   /* the `hint:` line, or NULL */
  /* A question: its number among the lesson's questions (the index of
   * its answer), its choices, and the reading it is about
   * (TP_N_READINGS for none).  Which choice is right is only the
   * engine's, for grading. */
  uint32_t question;
  const TpLessonText *choices;
  size_t n_choices;
  TpReading about;
} TpLessonGoal;

typedef struct _TpLesson TpLesson;

/* Reads a lesson.  NULL only when memory runs out; else check
 * tp_lesson_error.  Nothing is borrowed from text. */
TpLesson      *tp_lesson_parse       (const char *text, size_t length);
/* The refusal (line and column 1-based, the column in characters), or
 * NULL when the lesson was read.  Every other getter gives nothing for a
 * refused lesson. */
const TpDiag  *tp_lesson_error       (const TpLesson *lesson);
const TpLessonText *tp_lesson_title  (const TpLesson *lesson);
const TpLessonBlock *tp_lesson_text  (const TpLesson *lesson,
                                      size_t *n_blocks);
/* The starting program and the solution (the text between their fences,
 * each line ending in '\n'; NUL-terminated). */
const char    *tp_lesson_start       (const TpLesson *lesson, size_t *length);
const char    *tp_lesson_solution    (const TpLesson *lesson, size_t *length);
const TpLessonText *tp_lesson_hints  (const TpLesson *lesson, size_t *n_hints);
const TpLessonGoal *tp_lesson_goals  (const TpLesson *lesson, size_t *n_goals);
size_t         tp_lesson_n_questions (const TpLesson *lesson);
/* The right choice of each question into answers[0 .. n) (with the
 * grader's numbering: 0 is the first choice), for grading the lesson's
 * own solution or showing it; returns the number of questions. */
size_t         tp_lesson_right_answers (const TpLesson *lesson,
                                        int32_t *answers, size_t n);
/* Every message a translator sees, in lesson order (the title, the
 * text's paragraphs, the hints, each goal's sentence, hint, question and
 * choices; not code, programs or the engine's own sentences). */
size_t         tp_lesson_n_messages  (const TpLesson *lesson);
const TpLessonText *tp_lesson_message (const TpLesson *lesson, size_t k);
/* Replaces each message with translate (msgid, data) (NULL, or the msgid
 * itself, keeps it), read again by the same rules: a translation that
 * would be refused keeps the original.  Returns how many translations
 * were kept out so, or -1 when memory runs out (the lesson is then as it
 * was).  Pointers got from the lesson before stay valid. */
long           tp_lesson_translate   (TpLesson *lesson,
                                      const char *(*translate) (const char *msgid,
                                                                void *data),
                                      void *data);
/* Writes the lesson's passes (`## choices`: optimize, remat_auto, remat,
 * n_remat; off when it sets none) and its direction (when it sets one)
 * into choices, strings borrowed; the rest stays the caller's.  Compile
 * the student's program with them: grading checks it was. */
void           tp_lesson_choices     (const TpLesson *lesson,
                                      TpChoices *choices);
/* The lesson as JSON (docs/lessons.md), or {"error": {...}} for a
 * refused one; NULL when memory runs out.  Free with tp_string_free. */
char          *tp_lesson_to_json     (const TpLesson *lesson);
void           tp_lesson_free        (TpLesson *lesson);

/* {==== grading a lesson ====}
 *
 * Grading reads the session the front end compiled (the student's
 * program, with the lesson's choices, tp_lesson_choices, and the
 * student's target and observed names): each goal asks only for the
 * readings it needs, which the session keeps, so grading after every
 * edit costs no compile.  A training goal trains (bounded by TP_TRAIN_WORK); the check
 * goal runs the gradient check, which the session's interrupt can stop. */
typedef enum
{
  TP_GOAL_MET,
  TP_GOAL_UNMET,
  TP_GOAL_UNGRADED,     /* skipped (TP_GRADE_NO_TRAINING) or interrupted */
} TpGoalState;

typedef struct
{
  TpGoalState state;
  const TpLessonText *sentence;   /* the goal's, borrowed from the lesson */
  const TpLessonText *hint;       /* its hint when unmet, else NULL */
  /* What the engine found, in its own words ("`loss` is 16", the check's
   * verdict, the training's summary); "" when there is nothing to say.
   * Borrowed from the grade. */
  const char *found;
  size_t found_length;
} TpGoalResult;

/* Leave the goals that train ungraded (a front end grading as the
 * student types trains on request). */
#define TP_GRADE_NO_TRAINING 1u

typedef struct _TpGrade TpGrade;

/* Grades session's last compile against lesson (one that was read; it
 * must outlive the grade).  answers[q] is the choice given to question q
 * (0 the first; negative: not answered); answers past n_answers are not
 * answered, and answers may be NULL.  NULL when memory runs out. */
TpGrade       *tp_lesson_grade       (const TpLesson *lesson,
                                      const TpSession *session,
                                      const int32_t *answers,
                                      size_t n_answers, uint32_t flags);
size_t         tp_grade_n_goals      (const TpGrade *grade);
bool           tp_grade_goal         (const TpGrade *grade, size_t k,
                                      TpGoalResult *out);
size_t         tp_grade_met          (const TpGrade *grade);
/* Every goal met (never for a lesson with no goals: a refused one). */
bool           tp_grade_all_met      (const TpGrade *grade);
/* Whether the session's interrupt stopped a goal (it is ungraded). */
bool           tp_grade_interrupted  (const TpGrade *grade);
/* {"all_met", "met", "interrupted", "goals": [{"state", "found"}]};
 * free with tp_string_free, NULL when memory runs out. */
char          *tp_grade_to_json      (const TpGrade *grade);
void           tp_grade_free         (TpGrade *grade);
const char    *tp_goal_kind_name     (TpGoalKind kind);

#ifdef __cplusplus
}
#endif

#endif /* TP_ENGINE_LESSON_H */
