/*
 * The static JDK libraries come from a Debian build against glibc 2.41, whose headers redirect
 * strtol/sscanf/fscanf to their C23 variants (__isoc23_*, glibc 2.38+). On an older glibc those
 * symbols do not exist; these weak forwarders give the pre-C23 behaviour, which differs only in
 * accepting a "0b" binary prefix that none of the JDK's call sites parse. On a newer glibc the
 * weak definitions forward to the same functions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((weak)) long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
__attribute__((weak)) unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
__attribute__((weak)) long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
__attribute__((weak)) unsigned long long __isoc23_strtoull(const char *s, char **end, int base) {
  return strtoull(s, end, base);
}

__attribute__((weak)) int __isoc23_vsscanf(const char *s, const char *fmt, va_list args) { return vsscanf(s, fmt, args); }

__attribute__((weak)) int __isoc23_sscanf(const char *s, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = vsscanf(s, fmt, args);
  va_end(args);
  return result;
}

__attribute__((weak)) int __isoc23_fscanf(FILE *f, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = vfscanf(f, fmt, args);
  va_end(args);
  return result;
}
