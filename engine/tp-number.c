/* tp-number.c: the short number format of everything a front end shows
 * outside the readings (tp-engine.h, tp_short_number), and grouped
 * counts for messages.
 *
 * The digits come from the readings' own formatter (tp-fmt.c: the
 * shortest decimal that reads back as the f32), rounded half up in
 * decimal, so the text is the same on every build and never depends on
 * the C library's printf. */
#include "tp-engine.h"

#include <string.h>

#include "tp-fmt.h"

/* Significant digits: plain numbers, numbers with an exponent. */
#define PLAIN_DIGITS 3
#define EXP_DIGITS 2

/* value's decimal digits (no leading zeros) and the exponent of the
 * first: value = 0.d1 d2 d3 ... * 10^(point).  Returns the digit count
 * (0 for zero). */
static size_t
decimal_digits (float value, char digits[TP_FMT_F32_MAX], int *point)
{
  char text[TP_FMT_F32_MAX];
  size_t len = tp_fmt_f32_display (value < 0 ? -value : value, text);
  size_t n = 0;
  int before = 0;               /* digits before the '.' */
  bool seen_point = false, leading = true;

  *point = 0;
  for (size_t i = 0; i < len; i++)
    {
      char c = text[i];
      if (c == '.')
        {
          seen_point = true;
          continue;
        }
      if (!seen_point)
        before++;
      if (leading && c == '0')
        {
          if (seen_point)
            (*point)--;
          continue;
        }
      leading = false;
      digits[n++] = c;
    }
  if (n == 0)
    return 0;
  /* "0.00123": before = 1 (the zero), point counted -2 for the zeros
   * after the '.'; "123.4": before = 3. */
  if (before == 1 && text[0] == '0')
    ; /* *point already holds minus the zeros after the '.' */
  else
    *point = before;
  /* strip trailing zeros of the integer part ("100" -> "1", point 3) */
  while (n > 1 && digits[n - 1] == '0')
    n--;
  return n;
}

/* Rounds digits[0 .. n) to keep digits, half up; may carry into a new
 * first digit (point then grows).  Returns the new count. */
static size_t
round_digits (char *digits, size_t n, size_t keep, int *point)
{
  if (n <= keep)
    return n;
  if (digits[keep] >= '5')
    {
      size_t i = keep;
      while (i > 0)
        {
          i--;
          if (digits[i] != '9')
            {
              digits[i]++;
              break;
            }
          digits[i] = '0';
          if (i == 0)
            {
              memmove (digits + 1, digits, keep);
              digits[0] = '1';
              (*point)++;
            }
        }
    }
  n = keep;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  return n;
}

static size_t
put_int (char *out, int value)
{
  char tmp[12];
  size_t n = 0, len = 0;
  unsigned v = value < 0 ? (unsigned) -value : (unsigned) value;

  if (value < 0)
    out[len++] = '-';
  do
    {
      tmp[n++] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  while (n > 0)
    out[len++] = tmp[--n];
  return len;
}

size_t
tp_short_number (double value, char out[TP_SHORT_NUMBER_MAX])
{
  char digits[TP_FMT_F32_MAX];
  float f;
  size_t n, len = 0;
  int point, shift = 0;

  if (value != value)
    return (size_t) (memcpy (out, "NaN", 4), 3);
  if (value - value != 0.0)
    return value > 0 ? (size_t) (memcpy (out, "inf", 4), 3)
                     : (size_t) (memcpy (out, "-inf", 5), 4);
  if (value == 0.0)
    {
      if (1.0 / value < 0.0)
        return (size_t) (memcpy (out, "-0", 3), 2);
      return (size_t) (memcpy (out, "0", 2), 1);
    }
  if (value < 0.0)
    {
      out[len++] = '-';
      value = -value;
    }
  /* A double beyond what an f32 holds (a chart's range over a diverging
   * run) is brought into [1, 10) by powers of ten: three digits do not
   * need more. */
  if (value > 3.4e38 || value < 1.2e-38)
    while (value >= 10.0 || value < 1.0)
      {
        if (value >= 10.0)
          {
            value /= 10.0;
            shift++;
          }
        else
          {
            value *= 10.0;
            shift--;
          }
      }
  f = (float) value;
  n = decimal_digits (f, digits, &point);
  point += shift;
  /* A whole number below 100000 is written whole. */
  if (point >= 1 && point <= 5 && (int) n <= point)
    {
      for (int i = 0; i < point; i++)
        out[len++] = i < (int) n ? digits[i] : '0';
      out[len] = '\0';
      return len;
    }
  {
    char plain[TP_FMT_F32_MAX];
    int p = point;
    size_t m;

    memcpy (plain, digits, n);
    /* three significant digits, but every digit before the point */
    m = round_digits (plain, n, p > PLAIN_DIGITS ? (size_t) p : PLAIN_DIGITS,
                      &p);
    /* 0.001 <= |value| < 100000: plain decimal */
    if (p >= -2 && p <= 5)
      {
        if (p <= 0)
          {
            out[len++] = '0';
            out[len++] = '.';
            for (int i = p; i < 0; i++)
              out[len++] = '0';
            memcpy (out + len, plain, m);
            len += m;
          }
        else
          {
            for (int i = 0; i < p || i < (int) m; i++)
              {
                if (i == p)
                  out[len++] = '.';
                out[len++] = i < (int) m ? plain[i] : '0';
              }
          }
        out[len] = '\0';
        return len;
      }
  }
  n = round_digits (digits, n, EXP_DIGITS, &point);
  out[len++] = digits[0];
  if (n > 1)
    {
      out[len++] = '.';
      memcpy (out + len, digits + 1, n - 1);
      len += n - 1;
    }
  out[len++] = 'e';
  len += put_int (out + len, point - 1);
  out[len] = '\0';
  return len;
}

size_t
tp_grouped_number (uint64_t value, char out[27])
{
  char tmp[20];
  size_t n = 0, len = 0;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  while (n > 0)
    {
      out[len++] = tmp[--n];
      if (n > 0 && n % 3 == 0)
        out[len++] = ',';
    }
  out[len] = '\0';
  return len;
}
