/* tp-priority.h: background work yields to the main thread.
 *
 * The app's background work (the engine's worker thread, the picture's
 * raster threads, graphviz's worker process) can keep both cores of a
 * small machine busy for a few hundred milliseconds after an edit.  The
 * main thread, and the display server it waits on for every frame, must
 * not queue behind it: the background runs at a lower priority (nice
 * +10 on Linux; elsewhere nothing changes). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Lowers the calling thread's priority; returns what it was, for
 * tp_priority_restore (a thread borrowed from a shared pool). */
int     tp_priority_lower_thread    (void);
void    tp_priority_restore_thread  (int  previous);
/* Lowers the whole process's priority (the picture's worker process). */
void    tp_priority_lower_process   (void);

G_END_DECLS
