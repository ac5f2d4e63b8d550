/* tp-language-reference.h: the language in brief, in the app.
 *
 * One table holds what the reference window shows and what the editor's
 * hover help says: the sources, operators and functions with their
 * rules, comments and the limits, in docs/language.md's words (the
 * `language-reference` ui test compares them with its tables, so the two
 * cannot drift).  The texts are messages, translated where shown. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The reference's sections, in order. */
typedef enum
{
  TP_LANGUAGE_PROGRAM,
  TP_LANGUAGE_SOURCE,
  TP_LANGUAGE_OPERATOR,
  TP_LANGUAGE_FUNCTION,
  TP_LANGUAGE_COMMENT,
  TP_LANGUAGE_LIMIT,
  TP_N_LANGUAGE_SECTIONS
} TpLanguageKind;

typedef struct
{
  TpLanguageKind kind;
  const char *word;     /* the keyword hover help answers to; NULL for operators */
  const char *form;     /* as written, e.g. "sum_along(a, k)"; not translated */
  const char *rule;     /* untranslated (N_); docs/language.md's second column */
  const char *records;  /* untranslated (N_); its third column, or NULL */
} TpLanguageEntry;

typedef struct
{
  const char *what;     /* untranslated (N_) */
  const char *at_most;  /* not translated */
} TpLanguageLimit;

const TpLanguageEntry *tp_language_get_entries (guint *n_entries);
const TpLanguageLimit *tp_language_get_limits  (guint *n_limits);
typedef struct
{
  TpLanguageKind section;
  const char *text;     /* untranslated (N_); a sentence of docs/language.md */
} TpLanguageProse;

/* The sentences of prose the reference shows. */
const TpLanguageProse *tp_language_get_prose   (guint *n_prose);
/* The entry of the source keyword or function called @word, or NULL. */
const TpLanguageEntry *tp_language_lookup      (const char *word);
/* The entry's one-line rule, translated, as hover help shows it. */
char                  *tp_language_dup_summary (const TpLanguageEntry *entry);
/* The reference window for @parent: made on first use, then presented
 * again. */
GtkWindow             *tp_language_reference_present (GtkWindow *parent);

G_END_DECLS
