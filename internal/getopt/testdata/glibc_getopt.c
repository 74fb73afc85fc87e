/* Reference driver for getopt's differential test: runs glibc's real
   getopt_long on test cases read from stdin and prints what it returns.

   Input, one case per line, every string hex-encoded ("-" for empty):
     SHORTS NLONG {NAME HASARG VAL}... POSIXLY NARGS {ARG}...
   Output, one line per case, space-separated:
     o:VAL:LONGINDEX:HASARG:ARG   for each option (LONGINDEX -1 if short)
     e:MESSAGE                    the diagnostic, without "P: " and "\n"
     x:OPERAND                    for each operand (only if no error)  */

#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined __GLIBC__ || __GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 26)
#error "needs glibc 2.26 or later"
#endif

static char *
unhex (const char *s)
{
  if (strcmp (s, "-") == 0)
    return strdup ("");
  size_t n = strlen (s) / 2;
  char *r = malloc (n + 1);
  for (size_t i = 0; i < n; i++)
    sscanf (s + 2 * i, "%2hhx", (unsigned char *) &r[i]);
  r[n] = 0;
  return r;
}

static void
puthex (const char *s)
{
  if (*s == 0)
    putchar ('-');
  for (; *s; s++)
    printf ("%02x", (unsigned char) *s);
}

static char *
next (char **save)
{
  char *t = strtok_r (NULL, " \n", save);
  if (t == NULL)
    {
      fprintf (stdout, "bad input\n");
      exit (2);
    }
  return t;
}

int
main (void)
{
  static char line[1 << 20];
  FILE *out = stdout;

  while (fgets (line, sizeof line, stdin))
    {
      char *save;
      char *shorts = unhex (strtok_r (line, " \n", &save));
      int nlong = atoi (next (&save));
      struct option *longs = calloc (nlong + 1, sizeof *longs);
      for (int i = 0; i < nlong; i++)
	{
	  longs[i].name = unhex (next (&save));
	  longs[i].has_arg = atoi (next (&save));
	  longs[i].val = atoi (next (&save));
	}
      int posixly = atoi (next (&save));
      int argc = atoi (next (&save)) + 1;
      char **argv = calloc (argc + 1, sizeof *argv);
      argv[0] = strdup ("P");
      for (int i = 1; i < argc; i++)
	argv[i] = unhex (next (&save));

      if (posixly)
	setenv ("POSIXLY_CORRECT", "1", 1);
      else
	unsetenv ("POSIXLY_CORRECT");

      char *msg = NULL;
      size_t msglen = 0;
      FILE *saved = stderr;
      stderr = open_memstream (&msg, &msglen);
      optind = 0;
      opterr = 1;
      int failed = 0;
      for (;;)
	{
	  int li = -1;
	  int c = getopt_long (argc, argv, shorts, longs, &li);
	  if (c == -1)
	    break;
	  if (c == '?')
	    {
	      failed = 1;
	      break;
	    }
	  fprintf (out, "o:%d:%d:%d:", c, li, optarg != NULL);
	  puthex (optarg ? optarg : "");
	  putc (' ', out);
	}
      fclose (stderr);
      stderr = saved;
      if (failed)
	{
	  size_t n = strlen (msg);
	  if (n > 0 && msg[n - 1] == '\n')
	    msg[n - 1] = 0;
	  fputs ("e:", out);
	  puthex (strncmp (msg, "P: ", 3) == 0 ? msg + 3 : msg);
	}
      else
	for (int i = optind; i < argc; i++)
	  {
	    fputs ("x:", out);
	    puthex (argv[i]);
	    putc (' ', out);
	  }
      putc ('\n', out);
      fflush (out);
      free (msg);
    }
  return 0;
}
