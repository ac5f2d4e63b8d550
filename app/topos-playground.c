/* topos-playground.c: the desktop playground's entry point.
 * Usage: topos-playground [--screenshot OUT.png] [FILE...] */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "tp-picture-raster.h"
#include "tp-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TpApplication) app = NULL;
  int status;

  /* Messages in the user's language (po/); GtkBuilder templates use the
   * default domain set here. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = tp_application_new (argv[0]);
  status = g_application_run (G_APPLICATION (app), argc, argv);
  /* no picture may be drawing while the process exits */
  tp_picture_raster_wait_idle ();
  if (status == 0 && tp_application_get_failed (app))
    status = 1;
  return status;
}
