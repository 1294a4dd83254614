/*
 * Fixed-arity wrappers for variadic C functions: the image calls C through plain signatures, so
 * open(2), openat(2) and fprintf(3) are reached through these (the suffix spells the argument
 * types: S string, I int, D decimal int).
 */
#include <fcntl.h>
#include <stdio.h>

int openSII(const char *pathname, int flags, int mode) { return open(pathname, flags, mode); }

int openatISII(int dirfd, const char *pathname, int flags, int mode) { return openat(dirfd, pathname, flags, mode); }

int fprintfSD(FILE *stream, const char *format, const char *arg0, int arg1) { return fprintf(stream, format, arg0, arg1); }
