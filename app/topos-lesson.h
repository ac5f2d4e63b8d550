/* topos-lesson.h: the command line's --lesson and --lesson-pot
 * (topos-lesson.c). */
#ifndef TOPOS_LESSON_H
#define TOPOS_LESSON_H

/* Runs the command line when its arguments hold --lesson (or start with
 * --lesson-pot); returns the exit status. */
int topos_lesson_main (int argc, char **argv);

#endif /* TOPOS_LESSON_H */
