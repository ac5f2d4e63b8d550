/* fuzz-check.h: the fuzz target's checkers of text and of the JSON
 * (fuzz-check.c), and how a violated property is reported. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "tp-engine.h"

/* Reports a violated property and aborts (libFuzzer, or the replay
 * driver, reports it as a crash). */
void fuzz_violated   (const char *what);

#define CHECK(cond) \
  do { if (!(cond)) fuzz_violated (#cond); } while (0)

/* The length of the valid UTF-8 sequence at p (at most avail bytes), or
 * 0. */
size_t fuzz_utf8_len (const unsigned char *p, size_t avail);
/* Whether text is valid UTF-8 with no control character (but '\n' when
 * lines). */
bool fuzz_clean_text (const char *text, bool lines);
/* Checks that text is the JSON of s: it parses, has every member, and
 * repeats the readings exactly. */
void fuzz_check_json (const TpSession *s, const char *text);

#endif /* FUZZ_CHECK_H */
