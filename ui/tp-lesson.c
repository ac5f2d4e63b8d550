/* tp-lesson.c: lessons read by the engine, shared by reference, the
 * built-in course and a message's markup (see tp-lesson.h). */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-lesson.h"

#define COURSE_PATH "/org/topos/Playground/lessons"
#define LESSON_SUFFIX ".lesson"

struct _TpLessonRef
{
  TpLesson *lesson;
};

static void
tp_lesson_ref_clear (TpLessonRef *self)
{
  g_clear_pointer (&self->lesson, tp_lesson_free);
}

static const char *
translate_cb (const char *msgid,
              void       *data)
{
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

TpLessonRef *
tp_lesson_ref_new (GBytes    *bytes,
                   gboolean   translate,
                   char     **error)
{
  gsize length = 0;
  const char *text = g_bytes_get_data (bytes, &length);
  TpLesson *lesson = tp_lesson_parse (text != NULL ? text : "", length);
  const TpDiag *diag;
  TpLessonRef *self;

  if (lesson == NULL)
    {
      *error = g_strdup_printf ("1:1: %s", _("out of memory"));
      return NULL;
    }
  if ((diag = tp_lesson_error (lesson)) != NULL)
    {
      *error = g_strdup_printf ("%u:%u: %s", diag->line, diag->column, diag->message);
      tp_lesson_free (lesson);
      return NULL;
    }
  if (translate)
    tp_lesson_translate (lesson, translate_cb, NULL);
  self = g_atomic_rc_box_new0 (TpLessonRef);
  self->lesson = lesson;
  return self;
}

TpLessonRef *
tp_lesson_ref_ref (TpLessonRef *self)
{
  return self != NULL ? g_atomic_rc_box_acquire (self) : NULL;
}

void
tp_lesson_ref_unref (TpLessonRef *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, (GDestroyNotify) tp_lesson_ref_clear);
}

const TpLesson *
tp_lesson_ref_get (TpLessonRef *self)
{
  return self->lesson;
}

/* {==== the course ====} */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char **) a, *(char **) b);
}

/* The course's ids, read once from the resources. */
static GPtrArray *
course_ids (void)
{
  static GPtrArray *ids;

  if (g_once_init_enter (&ids))
    {
      GPtrArray *list = g_ptr_array_new ();
      g_auto(GStrv) names = g_resources_enumerate_children (COURSE_PATH, 0, NULL);

      for (guint i = 0; names != NULL && names[i] != NULL; i++)
        if (g_str_has_suffix (names[i], LESSON_SUFFIX))
          g_ptr_array_add (list, g_strndup (names[i], strlen (names[i]) - strlen (LESSON_SUFFIX)));
      g_ptr_array_sort (list, compare_names);
      g_once_init_leave (&ids, list);
    }
  return ids;
}

guint
tp_course_n_lessons (void)
{
  return course_ids ()->len;
}

const char *
tp_course_id (guint k)
{
  GPtrArray *ids = course_ids ();

  return k < ids->len ? g_ptr_array_index (ids, k) : NULL;
}

int
tp_course_find (const char *id)
{
  GPtrArray *ids = course_ids ();

  for (guint k = 0; id != NULL && k < ids->len; k++)
    if (g_str_equal (g_ptr_array_index (ids, k), id))
      return (int) k;
  return -1;
}

TpLessonRef *
tp_course_load (guint   k,
                char  **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;

  if (tp_course_id (k) == NULL)
    {
      *error = g_strdup ("1:1: no such lesson");
      return NULL;
    }
  path = g_strconcat (COURSE_PATH "/", tp_course_id (k), LESSON_SUFFIX, NULL);
  bytes = g_resources_lookup_data (path, 0, &local);
  if (bytes == NULL)
    {
      *error = g_strdup_printf ("1:1: %s", local->message);
      return NULL;
    }
  return tp_lesson_ref_new (bytes, TRUE, error);
}

/* {==== markup ====} */

char *
tp_lesson_markup (const TpLessonText *text)
{
  GString *out = g_string_new (NULL);

  for (size_t i = 0; text != NULL && i < text->n_spans; i++)
    {
      const TpSpan *span = &text->spans[i];
      g_autofree char *escaped = g_markup_escape_text (span->text, (gssize) span->length);
      static const char *const open[] = { "", "<i>", "<tt>", "<u>" };
      static const char *const close[] = { "", "</i>", "</tt>", "</u>" };

      g_string_append (out, open[span->kind]);
      g_string_append (out, escaped);
      g_string_append (out, close[span->kind]);
    }
  return g_string_free (out, FALSE);
}

/* {==== grades ====} */

TpLessonGrade *
tp_lesson_grade_new (TpLessonRef *lesson,
                     TpGrade     *grade)
{
  TpLessonGrade *self = g_new0 (TpLessonGrade, 1);

  self->lesson = tp_lesson_ref_ref (lesson);
  self->grade = grade;
  return self;
}

void
tp_lesson_grade_free (TpLessonGrade *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->grade, tp_grade_free);
  tp_lesson_ref_unref (self->lesson);
  g_free (self);
}
