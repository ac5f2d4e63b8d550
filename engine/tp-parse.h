/* tp-parse.h: the tape language's parser.  It records the program on a
 * tape as it reads (docs/language.md; docs/decisions.md D2, D7-D10). */
#ifndef TP_PARSE_H
#define TP_PARSE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-parse.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-tape.h"

/* The most statements a program may have: a statement that only names
 * an existing value records no node, yet adds a line to the values
 * reading and an entry to the names, so this bounds them. */
#define TP_LIMIT_STATEMENTS 100000u

typedef struct
{
  const char *name;    /* NUL-terminated, in the arena */
  TpNode node;
  uint32_t line;
} TpStatement;

typedef struct
{
  const char *name;
  TpNode node;         /* the last assignment */
} TpSymbol;

typedef struct
{
  TpArena *arena;
  TpTape tape;
  TpStatement *stmts;
  uint32_t n_stmts;
  uint32_t cap_stmts;
  TpSymbol *symbols;   /* open addressing; name NULL = empty */
  uint32_t n_symbols;
  uint32_t cap_symbols;
  /* per node, the expression that recorded it; kept only when want_spans
   * is set before tp_parse */
  bool want_spans;
  TpSourceSpan *spans;
  uint32_t n_spans;
  uint32_t cap_spans;
  /* the diagnostic, when tp_parse returns false */
  bool no_memory;
  uint32_t line;
  uint32_t column;
  TpBuf message;
} TpProgram;

void   tp_program_init   (TpProgram *prog, TpArena *arena);
void   tp_program_clear  (TpProgram *prog);
bool   tp_parse          (TpProgram *prog, const char *src, size_t len);
/* The node a name refers to (its last assignment), or TP_NO_NODE. */
TpNode tp_program_lookup (const TpProgram *prog, const char *name,
                          size_t len);
/* Sets the diagnostic for a refused tape record at line:column. */
void   tp_program_tape_error (TpProgram *prog, uint32_t line,
                              uint32_t column);

/* The seeded default payload: uniform(seed, 1.0) over n elements. */
void   tp_uniform_fill   (uint64_t seed, float *out, uint64_t n);

#endif /* TP_PARSE_H */
