/* tp-lex.c: the tape language's lexer (docs/language.md, Lexing;
 * docs/decisions.md D7, D9 and D10). */
#include "tp-lex.h"

#include <string.h>

#include "tp-fmt.h"
#include "tp-tape.h"

void
tp_lex_init (TpLexer *lex, const char *src, size_t len)
{
  memset (lex, 0, sizeof *lex);
  lex->src = src;
  lex->len = len;
  lex->line = 1;
  lex->column = 1;
  tp_buf_init (&lex->err);
}

void
tp_lex_clear (TpLexer *lex)
{
  tp_buf_clear (&lex->err);
}

/* The byte length of the UTF-8 sequence at p, or 0 when it is not a valid
 * one (overlong forms and surrogates included). */
static size_t
utf8_valid_len (const unsigned char *p, size_t avail)
{
  unsigned c = p[0];
  size_t n;
  uint32_t cp;

  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (avail < n)
    return 0;
  for (size_t k = 1; k < n; k++)
    {
      if ((p[k] & 0xC0) != 0x80)
        return 0;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
      || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

/* One character's byte length: a valid sequence, or one stray byte. */
static size_t
char_len (const char *text, size_t avail)
{
  size_t n = utf8_valid_len ((const unsigned char *) text, avail);
  return n == 0 ? 1 : n;
}

size_t
tp_lex_put_char (const char *text, size_t len, TpBuf *out)
{
  static const char hex[] = "0123456789abcdef";
  unsigned char c = (unsigned char) text[0];
  size_t n = utf8_valid_len ((const unsigned char *) text, len);

  if (n == 0)
    {
      tp_buf_puts (out, "\xEF\xBF\xBD");
      return 1;
    }
  if (c < 0x20 || c == 0x7F)
    {
      tp_buf_puts (out, "\\u{");
      if (c >= 0x10)
        tp_buf_putc (out, hex[c >> 4]);
      tp_buf_putc (out, hex[c & 15]);
      tp_buf_putc (out, '}');
      return 1;
    }
  tp_buf_append (out, text, n);
  return n;
}

/* Quotes source text in a message, cut after QUOTE_MAX characters so a
 * huge token does not make a huge diagnostic. */
#define QUOTE_MAX 64

void
tp_lex_put_text (TpBuf *out, const char *text, size_t len)
{
  size_t i = 0, chars = 0;

  while (i < len && chars < QUOTE_MAX)
    {
      i += tp_lex_put_char (text + i, len - i, out);
      chars++;
    }
  if (i < len)
    tp_buf_puts (out, "...");
}

static bool
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static bool
is_name_start (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
is_name_char (char c)
{
  return is_name_start (c) || is_digit (c);
}

/* Whether a number starts at s[i]: a digit, or '.' and a digit. */
static bool
number_starts (const char *s, size_t len, size_t i)
{
  return i < len && (is_digit (s[i])
                     || (s[i] == '.' && i + 1 < len && is_digit (s[i + 1])));
}

/* Where the number starting at s[i] ends: it runs on over digits, '.',
 * 'e'/'E', and a sign right after an 'e'/'E'. */
static size_t
number_end (const char *s, size_t len, size_t i)
{
  while (i < len)
    {
      char d = s[i];
      if (is_digit (d) || d == '.')
        i++;
      else if (d == 'e' || d == 'E')
        {
          i++;
          if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        }
      else
        break;
    }
  return i;
}

static bool
fail (TpLexer *lex, uint32_t column)
{
  lex->err_line = lex->line;
  lex->err_column = column;
  return false;
}

/* Parses one axis extent as Rust's usize::from_str on a 32-bit target
 * (the original runs in wasm32): an optional '+', then digits, at most
 * 4294967295. */
static bool
parse_extent (const char *p, size_t n, uint32_t *out)
{
  uint64_t v = 0;
  size_t i = 0;

  if (n > 0 && p[0] == '+')
    i = 1;
  if (i == n)
    return false;
  for (; i < n; i++)
    {
      if (!is_digit (p[i]))
        return false;
      v = v * 10 + (uint64_t) (p[i] - '0');
      if (v > UINT32_MAX)
        return false;
    }
  *out = (uint32_t) v;
  return true;
}

/* A shape token: '[' through the next ']' on the same line. */
static bool
lex_shape (TpLexer *lex, TpToken *tok)
{
  const char *s = lex->src;
  size_t open = lex->pos, close = open + 1;
  TpShape shape;
  size_t start;

  while (close < lex->len && s[close] != ']' && s[close] != '\n')
    close++;
  if (close >= lex->len || s[close] != ']')
    {
      tp_buf_puts (&lex->err, "a shape needs a closing `]`");
      return fail (lex, tok->column);
    }
  memset (&shape, 0, sizeof shape);
  start = open + 1;
  while (start <= close)
    {
      size_t end = start, a, b;
      uint32_t extent;

      while (end < close && s[end] != ',')
        end++;
      a = start;
      b = end;
      while (a < b && is_space (s[a]))
        a++;
      while (b > a && is_space (s[b - 1]))
        b--;
      if (a < b)
        {
          if (!parse_extent (s + a, b - a, &extent))
            {
              tp_buf_putc (&lex->err, '`');
              tp_lex_put_text (&lex->err, s + a, b - a);
              tp_buf_puts (&lex->err, "` is not an axis extent");
              return fail (lex, tok->column);
            }
          if (extent == 0)
            {
              tp_buf_puts (&lex->err, "an axis extent must be at least 1");
              return fail (lex, tok->column);
            }
          if (shape.rank == TP_MAX_RANK)
            {
              tp_buf_puts (&lex->err, "a shape has at most 16 axes");
              return fail (lex, tok->column);
            }
          shape.dims[shape.rank++] = extent;
        }
      start = end + 1;
    }
  tok->kind = TP_TOK_SHAPE;
  tok->shape = shape;
  tok->len = close + 1 - open;
  for (size_t i = open; i <= close;)
    {
      i += char_len (s + i, lex->len - i);
      lex->column++;
    }
  lex->pos = close + 1;
  return true;
}

/* ---- tensor literals (docs/language.md, Sources; docs/decisions.md D21) */

/* "found X" inside a literal: the end of the line, a run of name or
 * number characters, or one character. */
static void
put_found (TpBuf *err, const char *s, size_t len, size_t i)
{
  size_t j = i;

  if (i >= len || s[i] == '\n')
    {
      tp_buf_puts (err, "the end of the line");
      return;
    }
  if (is_name_start (s[i]))
    while (j < len && is_name_char (s[j]))
      j++;
  else if (number_starts (s, len, i))
    j = number_end (s, len, i);
  tp_buf_putc (err, '`');
  if (j > i)
    tp_lex_put_text (err, s + i, j - i);
  else
    tp_lex_put_char (s + i, len - i, err);
  tp_buf_putc (err, '`');
}

static void
put_count (TpBuf *err, uint32_t n)
{
  tp_buf_u64 (err, n);
  tp_buf_puts (err, n == 1 ? " element" : " elements");
}

/* Walks the literal whose outer '[' is s[open]: nested rows of numbers,
 * each with an optional '-' before it, every row at one depth as long as
 * the first one there, every number at the same depth.  Fills *shape and
 * *end (one past the closing ']'), and out when it is not NULL.  On a
 * refusal err holds the message and *at the offset it points at. */
static bool
scan_literal (const char *s, size_t len, size_t open, TpShape *shape,
              size_t *end, float *out, TpBuf *err, size_t *at)
{
  uint32_t count[TP_MAX_RANK], rank = 0, depth = 0;
  size_t opened[TP_MAX_RANK];
  bool known[TP_MAX_RANK] = { false };
  uint64_t elements = 0;
  size_t i = open;

  memset (shape, 0, sizeof *shape);
  for (;;)
    {
      /* an element: a row or a number */
      while (i < len && is_space (s[i]))
        i++;
      *at = i;
      if (i < len && s[i] == '[')
        {
          if (rank != 0 && depth == rank)
            {
              tp_buf_puts (err, "a literal's numbers all sit at the same "
                           "depth: expected a number, found `[`");
              return false;
            }
          if (depth == TP_MAX_RANK)
            {
              tp_buf_puts (err, "a literal has at most 16 axes");
              return false;
            }
          opened[depth] = i;
          count[depth++] = 0;
          i++;
          while (i < len && is_space (s[i]))
            i++;
          if (i < len && s[i] == ']')
            {
              tp_buf_puts (err, "an empty `[]` in a literal: a tensor is "
                           "never empty");
              return false;
            }
          continue;
        }
      if (i < len && s[i] == ']')
        {
          tp_buf_puts (err, "expected an element after `,` in the literal, "
                       "found `]`");
          return false;
        }
      if (depth < rank)
        {
          tp_buf_puts (err, "a literal's numbers all sit at the same depth: "
                       "expected `[`, found ");
          put_found (err, s, len, i);
          return false;
        }
      {
        bool minus = i < len && s[i] == '-';
        size_t j;
        float v;

        if (minus)
          {
            i++;
            while (i < len && is_space (s[i]))
              i++;
          }
        if (!number_starts (s, len, i))
          {
            *at = i;
            tp_buf_puts (err, "expected a number in the literal, found ");
            put_found (err, s, len, i);
            return false;
          }
        j = number_end (s, len, i);
        if (!tp_parse_f32 (s + i, j - i, &v))
          {
            *at = i;
            tp_buf_putc (err, '`');
            tp_lex_put_text (err, s + i, j - i);
            tp_buf_puts (err, "` is not a number");
            return false;
          }
        if (elements == TP_LIMIT_TENSOR)
          {
            tp_buf_puts (err, "a literal holds at most ");
            tp_buf_grouped (err, TP_LIMIT_TENSOR);
            tp_buf_puts (err, " (2^22) elements");
            return false;
          }
        if (out != NULL)
          out[elements] = minus ? -v : v;
        elements++;
        rank = depth;
        i = j;
      }
      /* after an element: ',' or the end of its row (and of the rows
       * that end with it) */
      for (;;)
        {
          uint32_t level = depth - 1;

          count[level]++;
          if (known[level] && count[level] > shape->dims[level])
            {
              tp_buf_puts (err, "ragged literal: a row at this depth has ");
              put_count (err, shape->dims[level]);
              tp_buf_puts (err, ", this one has more");
              return false;
            }
          while (i < len && is_space (s[i]))
            i++;
          *at = i;
          if (i < len && s[i] == ',')
            {
              i++;
              break;
            }
          if (i >= len || s[i] != ']')
            {
              tp_buf_puts (err, "expected `,` or `]` in the literal, found ");
              put_found (err, s, len, i);
              return false;
            }
          i++;
          if (!known[level])
            {
              shape->dims[level] = count[level];
              known[level] = true;
            }
          else if (count[level] != shape->dims[level])
            {
              *at = opened[level];
              tp_buf_puts (err, "ragged literal: a row at this depth has ");
              put_count (err, shape->dims[level]);
              tp_buf_puts (err, ", this one has ");
              put_count (err, count[level]);
              return false;
            }
          depth--;
          if (depth == 0)
            {
              shape->rank = rank;
              *end = i;
              return true;
            }
          /* the row just closed is an element of its parent: after it
           * comes ',' or the parent's ']' */
          *at = opened[level];
        }
    }
}

/* A literal token: '[' '[' ... through its matching ']', on one line. */
static bool
lex_literal (TpLexer *lex, TpToken *tok)
{
  size_t end, at;

  if (!scan_literal (lex->src, lex->len, lex->pos, &tok->shape, &end, NULL,
                     &lex->err, &at))
    /* everything before `at` is ASCII, so bytes are characters */
    return fail (lex, lex->column + (uint32_t) (at - lex->pos));
  tok->kind = TP_TOK_LITERAL;
  tok->len = end - lex->pos;
  lex->column += (uint32_t) tok->len;
  lex->pos = end;
  return true;
}

void
tp_lex_literal_values (const TpToken *tok, float *out)
{
  TpShape shape;
  TpBuf err;
  size_t end, at;

  tp_buf_init (&err);
  scan_literal (tok->text, tok->len, 0, &shape, &end, out, &err, &at);
  tp_buf_clear (&err);
}

bool
tp_lex_next (TpLexer *lex, TpToken *tok)
{
  const char *s = lex->src;

  /* Every field but the shape's 64 bytes of extents, which only a shape
   * or a literal token holds (up to its rank): clearing the whole token
   * per token was a memset call in wasm, and a sixth of a compile
   * natively. */
  tok->kind = TP_TOK_EOF;
  tok->line = 0;
  tok->column = 0;
  tok->text = NULL;
  tok->len = 0;
  tok->number = 0.0f;
  tok->symbol = '\0';
  tok->shape.rank = 0;
  for (;;)
    {
      char c;

      if (lex->pos >= lex->len || s[lex->pos] == '\n')
        {
          tok->line = lex->line;
          tok->text = s + lex->pos;
          if (lex->pos >= lex->len && !lex->at_line_start)
            {
              tok->kind = TP_TOK_EOF;
              tok->column = lex->column;
              return true;
            }
          /* The end of the line sits one past its last character; the
           * '\r' of a "\r\n" is not part of the line. */
          tok->kind = TP_TOK_NEWLINE;
          tok->column = lex->column;
          if (lex->pos < lex->len && lex->pos > 0 && s[lex->pos - 1] == '\r'
              && tok->column > 1)
            tok->column--;
          if (lex->pos < lex->len)
            {
              lex->pos++;
              lex->line++;
              lex->column = 1;
            }
          lex->at_line_start = false;
          return true;
        }
      lex->at_line_start = true;
      c = s[lex->pos];
      if (is_space (c))
        {
          lex->pos++;
          lex->column++;
          continue;
        }
      if (c == '#')
        {
          while (lex->pos < lex->len && s[lex->pos] != '\n')
            {
              lex->pos += char_len (s + lex->pos, lex->len - lex->pos);
              lex->column++;
            }
          continue;
        }
      break;
    }

  tok->line = lex->line;
  tok->column = lex->column;
  tok->text = s + lex->pos;
  {
    char c = s[lex->pos];
    size_t start = lex->pos, i = start;

    if (number_starts (s, lex->len, i))
      {
        i = number_end (s, lex->len, i);
        tok->kind = TP_TOK_NUMBER;
        tok->len = i - start;
        if (!tp_parse_f32 (s + start, i - start, &tok->number))
          {
            tp_buf_putc (&lex->err, '`');
            tp_lex_put_text (&lex->err, s + start, i - start);
            tp_buf_puts (&lex->err, "` is not a number");
            return fail (lex, tok->column);
          }
        lex->column += (uint32_t) (i - start);
        lex->pos = i;
        return true;
      }
    if (is_name_start (c))
      {
        while (i < lex->len && is_name_char (s[i]))
          i++;
        if (i - start > TP_LIMIT_NAME)
          {
            /* A name is copied into several readings and the JSON, so
             * its length bounds their size. */
            tp_buf_putc (&lex->err, '`');
            tp_lex_put_text (&lex->err, s + start, i - start);
            tp_buf_puts (&lex->err, "` is too long: a name has at most ");
            tp_buf_u64 (&lex->err, TP_LIMIT_NAME);
            tp_buf_puts (&lex->err, " characters");
            return fail (lex, tok->column);
          }
        tok->kind = TP_TOK_NAME;
        tok->len = i - start;
        lex->column += (uint32_t) (i - start);
        lex->pos = i;
        return true;
      }
    if (c == '[')
      {
        size_t k = i + 1;
        while (k < lex->len && is_space (s[k]))
          k++;
        if (k < lex->len && s[k] == '[')
          return lex_literal (lex, tok);
        return lex_shape (lex, tok);
      }
    if (strchr ("=+-*/@(),", c) != NULL && c != '\0')
      {
        tok->kind = TP_TOK_SYMBOL;
        tok->symbol = c;
        tok->len = 1;
        lex->column++;
        lex->pos++;
        return true;
      }
    tp_buf_puts (&lex->err, "unexpected `");
    tp_lex_put_char (s + start, lex->len - start, &lex->err);
    tp_buf_putc (&lex->err, '`');
    return fail (lex, tok->column);
  }
}

void
tp_lex_describe_token (const TpToken *tok, TpBuf *out)
{
  switch (tok->kind)
    {
    case TP_TOK_NAME:
      tp_buf_putc (out, '`');
      tp_lex_put_text (out, tok->text, tok->len);
      tp_buf_putc (out, '`');
      break;
    case TP_TOK_NUMBER:
      tp_buf_putc (out, '`');
      tp_buf_f32 (out, tok->number);
      tp_buf_putc (out, '`');
      break;
    case TP_TOK_SHAPE:
      tp_buf_puts (out, "the shape ");
      tp_buf_shape (out, &tok->shape);
      break;
    case TP_TOK_LITERAL:
      tp_buf_puts (out, "a literal of shape ");
      tp_buf_shape (out, &tok->shape);
      break;
    case TP_TOK_SYMBOL:
      tp_buf_putc (out, '`');
      tp_buf_putc (out, tok->symbol);
      tp_buf_putc (out, '`');
      break;
    case TP_TOK_NEWLINE:
    case TP_TOK_EOF:
    default:
      tp_buf_puts (out, "the end of the line");
      break;
    }
}
