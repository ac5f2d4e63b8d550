/* fuzz-check.c: the fuzz target's checkers: clean text, and the JSON
 * parsed and compared with the readings (fuzz-session.c). */
#include "fuzz-check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text properties -------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (at most avail bytes), or 0. */
size_t
fuzz_utf8_len (const unsigned char *p, size_t avail)
{
  unsigned c = p[0];
  size_t n;
  unsigned long cp;

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

/* Valid UTF-8 without control characters (a newline allowed when
 * lines is set). */
bool
fuzz_clean_text (const char *text, bool lines)
{
  const unsigned char *p = (const unsigned char *) text;
  size_t len = strlen (text);

  for (size_t i = 0; i < len;)
    {
      size_t n = fuzz_utf8_len (p + i, len - i);
      if (n == 0)
        return false;
      if (p[i] == 0x7F || (p[i] < 0x20 && !(lines && p[i] == '\n')))
        return false;
      i += n;
    }
  return true;
}

/* ---- JSON ------------------------------------------------------------- */

typedef struct
{
  const char *p;
  const char *end;
  int depth;
} Json;

static void
json_ws (Json *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t'
                           || *j->p == '\r'))
    j->p++;
}

static bool
json_lit (Json *j, const char *lit)
{
  size_t n = strlen (lit);

  if ((size_t) (j->end - j->p) < n || memcmp (j->p, lit, n) != 0)
    return false;
  j->p += n;
  return true;
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Appends code point cp to out as UTF-8. */
static void
put_utf8 (char *out, size_t *n, unsigned long cp)
{
  if (cp < 0x80)
    out[(*n)++] = (char) cp;
  else if (cp < 0x800)
    {
      out[(*n)++] = (char) (0xC0 | (cp >> 6));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
  else if (cp < 0x10000)
    {
      out[(*n)++] = (char) (0xE0 | (cp >> 12));
      out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
  else
    {
      out[(*n)++] = (char) (0xF0 | (cp >> 18));
      out[(*n)++] = (char) (0x80 | ((cp >> 12) & 0x3F));
      out[(*n)++] = (char) (0x80 | ((cp >> 6) & 0x3F));
      out[(*n)++] = (char) (0x80 | (cp & 0x3F));
    }
}

/* A string; when decoded is given it receives a malloc'd copy of the
 * value (the caller frees it). */
static bool
json_string (Json *j, char **decoded)
{
  const char *start;
  char *out = NULL;
  size_t n = 0;

  if (j->p >= j->end || *j->p != '"')
    return false;
  start = ++j->p;
  if (decoded != NULL)
    {
      const char *q = start;
      while (q < j->end && *q != '"')
        q += *q == '\\' && q + 1 < j->end ? 2 : 1;
      out = malloc ((size_t) (q - start) + 1);
      if (out == NULL)
        fuzz_violated ("the checker ran out of memory");
    }
  while (j->p < j->end && *j->p != '"')
    {
      const unsigned char *c = (const unsigned char *) j->p;
      if (*c < 0x20)
        goto bad;
      if (*c == '\\')
        {
          unsigned long cp = 0;
          if (j->end - j->p < 2)
            goto bad;
          switch (j->p[1])
            {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
              if (j->end - j->p < 6)
                goto bad;
              for (int k = 2; k < 6; k++)
                {
                  int d = hex_digit (j->p[k]);
                  if (d < 0)
                    goto bad;
                  cp = cp * 16 + (unsigned long) d;
                }
              /* The engine escapes only control characters. */
              if (cp >= 0xD800 && cp <= 0xDFFF)
                goto bad;
              j->p += 4;
              break;
            default:
              goto bad;
            }
          j->p += 2;
          if (out != NULL)
            put_utf8 (out, &n, cp);
          continue;
        }
      {
        size_t len = fuzz_utf8_len (c, (size_t) (j->end - j->p));
        if (len == 0)
          goto bad;
        if (out != NULL)
          {
            memcpy (out + n, j->p, len);
            n += len;
          }
        j->p += len;
      }
    }
  if (j->p >= j->end)
    goto bad;
  j->p++;
  if (out != NULL)
    {
      out[n] = '\0';
      *decoded = out;
    }
  return true;
bad:
  free (out);
  return false;
}

static bool
json_number (Json *j)
{
  const char *p = j->p;

  if (p < j->end && *p == '-')
    p++;
  if (p >= j->end)
    return false;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (p < j->end && *p >= '0' && *p <= '9')
      p++;
  else
    return false;
  if (p < j->end && *p == '.')
    {
      p++;
      if (p >= j->end || *p < '0' || *p > '9')
        return false;
      while (p < j->end && *p >= '0' && *p <= '9')
        p++;
    }
  if (p < j->end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < j->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= j->end || *p < '0' || *p > '9')
        return false;
      while (p < j->end && *p >= '0' && *p <= '9')
        p++;
    }
  j->p = p;
  return true;
}

static bool json_value (Json *j);

static bool
json_container (Json *j, char close)
{
  if (++j->depth > 64)
    return false;
  j->p++;
  json_ws (j);
  if (j->p < j->end && *j->p == close)
    {
      j->p++;
      j->depth--;
      return true;
    }
  for (;;)
    {
      json_ws (j);
      if (close == '}')
        {
          if (!json_string (j, NULL))
            return false;
          json_ws (j);
          if (j->p >= j->end || *j->p != ':')
            return false;
          j->p++;
          json_ws (j);
        }
      if (!json_value (j))
        return false;
      json_ws (j);
      if (j->p < j->end && *j->p == ',')
        {
          j->p++;
          continue;
        }
      if (j->p < j->end && *j->p == close)
        {
          j->p++;
          j->depth--;
          return true;
        }
      return false;
    }
}

static bool
json_value (Json *j)
{
  json_ws (j);
  if (j->p >= j->end)
    return false;
  switch (*j->p)
    {
    case '{':
      return json_container (j, '}');
    case '[':
      return json_container (j, ']');
    case '"':
      return json_string (j, NULL);
    case 't':
      return json_lit (j, "true");
    case 'f':
      return json_lit (j, "false");
    case 'n':
      return json_lit (j, "null");
    default:
      return json_number (j);
    }
}

static const char *const json_keys[] = {
  "names", "spec", "derivative", "plan", "stablehlo", "values", "dot",
  "summary", "target", "observe", "tensors", "arguments", "results",
  "diagnostics", "map", "spec_nodes", "gradient_nodes", "sources", "picture",
  "check", "explain", "memory", "memory_svg",
};
#define N_JSON_KEYS (sizeof json_keys / sizeof json_keys[0])

/* "explain": a list of strings, the reading's lines. */
static void
check_explain_json (Json *j, const char *reading)
{
  const char *at = reading;

  CHECK (j->p < j->end && *j->p == '[');
  j->p++;
  json_ws (j);
  if (j->p < j->end && *j->p == ']')
    {
      j->p++;
      CHECK (*reading == '\0');
      return;
    }
  for (;;)
    {
      char *line = NULL;
      size_t n;
      json_ws (j);
      CHECK (json_string (j, &line));
      n = strlen (line);
      CHECK (strncmp (at, line, n) == 0 && at[n] == '\n');
      at += n + 1;
      free (line);
      json_ws (j);
      CHECK (j->p < j->end);
      if (*j->p == ',')
        {
          j->p++;
          continue;
        }
      CHECK (*j->p == ']');
      j->p++;
      break;
    }
  CHECK (*at == '\0');
}

/* The whole JSON text: one object whose keys include every expected
 * one, whose reading strings equal the session's readings, and nothing
 * after it but a newline. */
void
fuzz_check_json (const TpSession *s, const char *text)
{
  Json j = { text, text + strlen (text), 0 };
  bool seen[N_JSON_KEYS] = { false };

  json_ws (&j);
  CHECK (j.p < j.end && *j.p == '{');
  j.p++;
  for (;;)
    {
      char *key = NULL;
      TpReading r;

      json_ws (&j);
      CHECK (json_string (&j, &key));
      json_ws (&j);
      CHECK (j.p < j.end && *j.p == ':');
      j.p++;
      json_ws (&j);
      for (size_t k = 0; k < N_JSON_KEYS; k++)
        if (strcmp (key, json_keys[k]) == 0)
          {
            CHECK (!seen[k]);
            seen[k] = true;
          }
      if (tp_reading_from_name (key, &r) && r == TP_READING_EXPLAIN)
        check_explain_json (&j, tp_session_reading (s, r));
      else if (strcmp (key, "memory_svg") == 0)
        {
          char *value = NULL;
          CHECK (json_string (&j, &value));
          CHECK (strcmp (value, tp_session_memory_svg (s)) == 0);
          free (value);
        }
      else if (tp_reading_from_name (key, &r) && r < TP_READING_CHECK)
        {
          char *value = NULL;
          CHECK (json_string (&j, &value));
          CHECK (strcmp (value, tp_session_reading (s, r)) == 0);
          free (value);
        }
      else
        CHECK (json_value (&j));
      free (key);
      json_ws (&j);
      CHECK (j.p < j.end);
      if (*j.p == ',')
        {
          j.p++;
          continue;
        }
      CHECK (*j.p == '}');
      j.p++;
      break;
    }
  json_ws (&j);
  CHECK (j.p == j.end);
  for (size_t k = 0; k < N_JSON_KEYS; k++)
    CHECK (seen[k]);
}

