/*
 * demangle-oracle: print symbol names the way GNU gprof 2.40 prints them,
 * using libiberty itself. It is the reference the Go demangler in package
 * symtab is tested against.
 *
 * Usage:   demangle-oracle [-raw] [STYLE] < names > printed
 *
 * Reads one raw symbol name per line and writes one line per name: what
 * gprof's print_name_only() prints for it when demangling is on, with
 * --demangle=STYLE (default "auto", gprof's default). That is:
 *
 *   - cplus_demangle_set_style(STYLE), as gprof does for --demangle=STYLE;
 *   - bfd_demangle(name, DMGL_ANSI | DMGL_PARAMS), whose steps are repeated
 *     here: leading '.' and '$' characters are set aside, anything from the
 *     first '@' on is cut off, cplus_demangle() runs on the rest, and the
 *     prefix and suffix are put back around its result (ELF targets have no
 *     symbol leading character, so none is skipped);
 *   - a name cplus_demangle() rejects is printed as it is.
 *
 * With -raw the name goes to cplus_demangle() as it is, without BFD's
 * handling of prefixes and suffixes (the demanglers' fuzz test uses it),
 * and each result ends with a NUL byte instead of a newline (a Java name's
 * "__U0a_" prints a newline; a NUL ends the result, as it ends what gprof
 * prints). Output is flushed after every result, so that a test can hold
 * a conversation with one process.
 *
 * Build (Debian: apt-get install libiberty-dev):
 *
 *   gcc -O2 -I/usr/include/libiberty -o demangle-oracle \
 *       scripts/demangle-oracle.c -liberty
 *
 * The tests in symtab build it themselves when gcc and libiberty.a exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <demangle.h>

/* print_raw prints what cplus_demangle makes of NAME, or NAME. */
static void
print_raw (const char *name)
{
  char *res = cplus_demangle (name, DMGL_ANSI | DMGL_PARAMS);
  fputs (res != NULL ? res : name, stdout);
  free (res);
}

/* print_name prints what gprof prints for the raw symbol name. */
static void
print_name (const char *name)
{
  const char *core = name;
  while (*core == '.' || *core == '$')
    ++core;
  size_t pre_len = (size_t) (core - name);

  const char *suf = strchr (core, '@');
  size_t core_len = suf != NULL ? (size_t) (suf - core) : strlen (core);
  char *bare = malloc (core_len + 1);
  if (bare == NULL)
    {
      perror ("demangle-oracle");
      exit (1);
    }
  memcpy (bare, core, core_len);
  bare[core_len] = '\0';

  char *res = cplus_demangle (bare, DMGL_ANSI | DMGL_PARAMS);
  free (bare);
  if (res == NULL)
    {
      fputs (name, stdout);
      return;
    }
  fwrite (name, 1, pre_len, stdout);
  fputs (res, stdout);
  if (suf != NULL)
    fputs (suf, stdout);
  free (res);
}

int
main (int argc, char **argv)
{
  int raw = argc > 1 && strcmp (argv[1], "-raw") == 0;
  if (raw)
    {
      --argc;
      ++argv;
    }
  const char *style_name = argc > 1 ? argv[1] : "auto";
  enum demangling_styles style = cplus_demangle_name_to_style (style_name);
  if (style == unknown_demangling
      || cplus_demangle_set_style (style) == unknown_demangling)
    {
      fprintf (stderr, "demangle-oracle: unknown demangling style `%s'\n",
	       style_name);
      return 2;
    }

  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline (&line, &cap, stdin)) != -1)
    {
      if (n > 0 && line[n - 1] == '\n')
	line[--n] = '\0';
      if (raw)
	{
	  print_raw (line);
	  putchar ('\0');
	  fflush (stdout);
	  continue;
	}
      print_name (line);
      putchar ('\n');
    }
  free (line);
  return ferror (stdout) ? 1 : 0;
}
