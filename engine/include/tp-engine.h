/* tp-engine.h: the seam between the engine and every front end.
 *
 * One session compiles a program plus the reader's choices into every
 * reading at once.  Front ends (the command line, the GTK app, the wasm
 * export) only display what the session returns; strings returned by
 * tp_session_* are borrowed from the session and stay valid until the next
 * tp_session_compile or tp_session_free, except where a function says the
 * caller frees. */
#ifndef TP_ENGINE_H
#define TP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The picture's layout cost budget (nodes + edges + ranks crossed by long
 * edges): a tape whose DOT would cost more is drawn reduced to its forward
 * band.  Front ends that lay the DOT out hand graphviz the same budget. */
#define TP_PICTURE_BUDGET 6000u

typedef enum
{
  TP_READING_SPEC,
  TP_READING_DERIVATIVE,
  TP_READING_PLAN,
  TP_READING_STABLEHLO,
  TP_READING_VALUES,
  TP_READING_DOT,
  TP_READING_SUMMARY,
  TP_N_READINGS
} TpReading;

typedef enum
{
  TP_STATUS_OK,         /* the program reads; every reading is filled */
  TP_STATUS_REFUSED,    /* the program is refused; see the diagnostics */
  TP_STATUS_NO_MEMORY,  /* an allocation failed; a diagnostic says so */
} TpStatus;

typedef struct
{
  uint32_t line;        /* 1-based */
  uint32_t column;      /* 1-based, in characters */
  const char *message;  /* without any position prefix */
} TpDiag;

/* What the reader chose.  Every field may be zero: no target means "the
 * last scalar", no observe means "nothing extra". */
typedef struct
{
  const char *target;
  const char *const *observe;
  size_t n_observe;
  bool exact;
} TpChoices;

/* One entry per statement, in statement order, duplicates included. */
typedef struct
{
  const char *name;
  uint32_t node;
  uint32_t line;        /* the statement's line in the source, 1-based */
  uint32_t rank;
  const uint32_t *dims;
  bool scalar;
  bool parameter;
} TpName;

typedef struct _TpSession TpSession;

TpSession     *tp_session_new        (void);
void           tp_session_free       (TpSession *session);
TpStatus       tp_session_compile    (TpSession *session,
                                      const char *source,
                                      size_t length,
                                      const TpChoices *choices);
/* The text of one reading, "" when it does not apply. Borrowed. */
const char    *tp_session_reading    (const TpSession *session,
                                      TpReading which);
const TpDiag  *tp_session_diags      (const TpSession *session,
                                      size_t *n_diags);
const TpName  *tp_session_names      (const TpSession *session,
                                      size_t *n_names);
/* The nodes the StableHLO module takes as %arg0, %arg1, ... in order
 * (borrowed; NULL with *n_args 0 when the program was refused). */
const uint32_t *tp_session_arguments (const TpSession *session,
                                      size_t *n_args);
/* What the last compile recorded, for tests and benchmarks: statements,
 * nodes on the tape (the gradient's included), their elements together
 * and the interpreter's estimated multiply-adds.  The limits bound each
 * (README, Limits); after a refusal they count what was recorded. */
typedef struct
{
  uint32_t statements;
  uint32_t nodes;
  uint64_t elements;
  uint64_t work;
} TpStats;

void           tp_session_stats      (const TpSession *session,
                                      TpStats *stats);
/* The JSON object with every reading, or NULL when memory runs out; the
 * caller frees it with tp_string_free. */
char          *tp_session_to_json    (const TpSession *session);
void           tp_string_free        (char *text);

const char    *tp_reading_name       (TpReading which);
bool           tp_reading_from_name  (const char *name,
                                      TpReading *which);

/* Allocation hooks, for tests that fail allocation N.  NULL restores the
 * C library's malloc/realloc/free.  Not thread-safe: set before use. */
typedef struct
{
  void *(*malloc_fn) (size_t size);
  void *(*realloc_fn) (void *ptr, size_t size);
  void (*free_fn) (void *ptr);
} TpAllocator;

void           tp_set_allocator      (const TpAllocator *allocator);

#ifdef __cplusplus
}
#endif

#endif /* TP_ENGINE_H */
