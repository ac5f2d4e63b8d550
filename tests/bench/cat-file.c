/* cat-file.c: the baseline of bench-cli: a minimal C program that reads a
 * file and prints it, and nothing else. */
#include <stdio.h>

int
main (int argc, char **argv)
{
  char buf[1 << 16];
  size_t n;
  FILE *f;

  if (argc != 2 || (f = fopen (argv[1], "rb")) == NULL)
    return 2;
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    fwrite (buf, 1, n, stdout);
  fclose (f);
  return 0;
}
