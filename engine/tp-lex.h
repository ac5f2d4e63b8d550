/* tp-lex.h: the tape language's lexer.
 *
 * It works line by line (only '\n' ends a line) and hands out one token at
 * a time, so memory does not grow with the program.  The parser first runs
 * it over the whole program (tp_parse, through tp_lex_next) so that the
 * first lexical error wins, then lexes again while parsing. */
#ifndef TP_LEX_H
#define TP_LEX_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-lex.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tp-buf.h"
#include "tp-shape.h"

/* The longest name, in characters (names are ASCII). */
#define TP_LIMIT_NAME 64u

typedef enum
{
  TP_TOK_NUMBER,
  TP_TOK_NAME,
  TP_TOK_SHAPE,
  TP_TOK_LITERAL,    /* [[0, 1], [1, 0]]: a tensor literal, rank >= 2 */
  TP_TOK_SYMBOL,     /* = + - * / @ ( ) , */
  TP_TOK_NEWLINE,
  TP_TOK_EOF,
} TpTokKind;

typedef struct
{
  TpTokKind kind;
  uint32_t line;
  uint32_t column;     /* characters, 1-based */
  const char *text;    /* into the source */
  size_t len;
  float number;        /* TP_TOK_NUMBER */
  char symbol;         /* TP_TOK_SYMBOL */
  TpShape shape;       /* TP_TOK_SHAPE, TP_TOK_LITERAL */
} TpToken;

typedef struct
{
  const char *src;
  size_t len;
  size_t pos;
  uint32_t line;
  uint32_t column;     /* of src[pos] */
  bool at_line_start;  /* a line is open that has not been ended */
  bool done;
  /* the error, when tp_lex_next returns false */
  uint32_t err_line;
  uint32_t err_column;
  TpBuf err;
} TpLexer;

void tp_lex_init  (TpLexer *lex, const char *src, size_t len);
void tp_lex_clear (TpLexer *lex);
/* The next token; false on a lexical error (lex->err holds the message,
 * or has failed when memory ran out). */
bool tp_lex_next  (TpLexer *lex, TpToken *tok);

/* Reads the elements of a TP_TOK_LITERAL token into out (its shape's
 * volume of floats, row-major).  The lexer has checked the token, so this
 * cannot fail. */
void tp_lex_literal_values (const TpToken *tok, float *out);

/* Source text quoted in a diagnostic: cut after 64 characters, with
 * "..." after the cut, so a huge token makes a short message. */
void tp_lex_put_text (TpBuf *out, const char *text, size_t len);

/* Appends how a "found X" message renders the token: `name`, `2`,
 * the shape [2, 2], `+`, the end of the line. */
void tp_lex_describe_token (const TpToken *tok, TpBuf *out);

/* Appends one character of text (valid UTF-8 as is, control characters as
 * \u{..}, an invalid byte as U+FFFD); returns the bytes consumed. */
size_t tp_lex_put_char (const char *text, size_t len, TpBuf *out);

#endif /* TP_LEX_H */
