/* topos-playground.c: the desktop playground's entry point.
 * Usage: topos-playground [--screenshot OUT.png] [FILE...] */
#include "config.h"

#include "tp-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TpApplication) app = NULL;
  int status;

  app = tp_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  if (status == 0 && tp_application_get_failed (app))
    status = 1;
  return status;
}
