/* tp-priority.c: see tp-priority.h. */
#define _GNU_SOURCE 1           /* syscall, SYS_gettid */
#include "tp-picture-config.h"

#include "tp-priority.h"

#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define BACKGROUND_NICE 10

#ifdef __linux__
/* On Linux a thread has a nice value of its own (setpriority with a
 * thread id); POSIX would have it per process. */
static id_t
current_thread (void)
{
  return (id_t) syscall (SYS_gettid);
}
#endif

int
tp_priority_lower_thread (void)
{
#ifdef __linux__
  int previous;

  errno = 0;
  previous = getpriority (PRIO_PROCESS, current_thread ());
  if (errno != 0)
    previous = 0;
  if (previous < BACKGROUND_NICE)
    (void) setpriority (PRIO_PROCESS, current_thread (), BACKGROUND_NICE);
  return previous;
#else
  return 0;
#endif
}

void
tp_priority_restore_thread (int previous)
{
#ifdef __linux__
  /* raising it again is allowed only up to where it was (RLIMIT_NICE):
   * a thread that cannot go back stays low, which only costs it time */
  (void) setpriority (PRIO_PROCESS, current_thread (), previous);
#else
  (void) previous;
#endif
}

void
tp_priority_lower_process (void)
{
#ifdef __linux__
  (void) setpriority (PRIO_PROCESS, 0, BACKGROUND_NICE);
#endif
}
