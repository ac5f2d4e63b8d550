/* tp-engine-testing.h: what tests and benchmarks reach beside the seam.
 *
 * Nothing a front end needs is here: a session's own allocator (to fail
 * allocation N and prove nothing leaks), the counts of what a session has
 * computed (to prove that a reading pays only for itself), what the last
 * compile recorded, the map switch of the benchmarks and the hooks that
 * break one backward rule or one rewrite on purpose.  Include it after tp-engine.h. */
#ifndef TP_ENGINE_TESTING_H
#define TP_ENGINE_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _TpSession TpSession;

/* An allocator: every block a session allocates, the strings it returns
 * and the trainings it makes included, comes from malloc_fn and goes back
 * through realloc_fn and free_fn (tp_string_free and tp_train_free find
 * the allocator a block came from).  The struct must outlive the session
 * and every block it handed out. */
typedef struct
{
  void *(*malloc_fn) (size_t size);
  void *(*realloc_fn) (void *ptr, size_t size);
  void (*free_fn) (void *ptr);
} TpAllocator;

/* A session that allocates with allocator (NULL: the C library's), as
 * lua_newstate takes one; NULL when even the session cannot be
 * allocated. */
TpSession     *tp_session_new_with_allocator (const TpAllocator *allocator);

/* A lesson read with allocator (NULL: the C library's): everything it
 * holds, its translations and JSON included, comes from it. */
typedef struct _TpLesson TpLesson;
TpLesson      *tp_lesson_parse_with_allocator (const char *text,
                                               size_t length,
                                               const TpAllocator *allocator);

/* What a session computes on demand (tp-engine.h: a compile reads, records
 * and differentiates; the rest waits until it is asked for). */
typedef enum
{
  TP_COMPUTED_INTERPRETER,  /* the f32 run of every node (values) */
  TP_COMPUTED_PLAN,         /* lowering to the plan */
  TP_COMPUTED_CHECK,        /* the gradient check's double interpreter */
  TP_COMPUTED_EXPLAIN,      /* the explain reading */
  TP_COMPUTED_MEMORY,       /* the memory reading's buffers */
  TP_COMPUTED_PICTURE,      /* the DOT */
  TP_COMPUTED_OPTIMIZE,     /* the exact rewrites */
  TP_COMPUTED_FUSION,       /* the kernels */
  TP_COMPUTED_REMAT,        /* the rematerialisation's candidates or
                               schedule */
  TP_COMPUTED_FORWARD,      /* forward mode's tangent tape */
  TP_COMPUTED_JAX,          /* the JAX program */
  TP_N_COMPUTATIONS
} TpComputation;

/* How many times the session has done that work since it was made. */
uint64_t       tp_session_computed (const TpSession *session, TpComputation work);

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

/* Makes later compiles skip (false) or produce (true, the default) the
 * reading map: only benchmarks turn it off, to measure what it costs. */
void           tp_session_set_map    (TpSession *session, bool enabled);

/* Breaks the backward rule of one op on purpose, in every later compile
 * of every session (its first cotangent is doubled), so tests can show
 * that the gradient check catches a wrong rule; -1 (the default) breaks
 * none.  Not thread-safe: set it before compiling. */
void           tp_testing_break_rule (int op);

/* Makes the optimiser also rewrite 0 + x into x, which is not exact (for
 * x = -0 it gives -0 where the program gives +0), whenever the rewrites
 * run from then on (a session runs them when something first needs
 * them), so tests can show that the bit-for-bit comparison catches a
 * wrong rewrite; false (the default) keeps 0 + x.  Not thread-safe. */
void           tp_testing_fold_zero_add (bool enabled);

#ifdef __cplusplus
}
#endif

#endif /* TP_ENGINE_TESTING_H */
