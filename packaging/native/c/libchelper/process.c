/*
 * Small process and thread helpers the image calls instead of inlining system specifics:
 * the environment, the current thread's kernel id, a thread's user CPU time when the fast clock
 * is unavailable, the default time zone (the JDK's own lookup in libjava), and instruction-cache
 * maintenance (nothing to do on x86: its caches are coherent with stores).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* libjava's TimeZone_md.c: the zone id from TZ, /etc/timezone or /etc/localtime, malloc'd. */
char *findJavaTZ_md(const char *java_home_dir);

char **getEnviron(void) { return environ; }

int getThreadId(void) { return (int)syscall(SYS_gettid); }

/* utime of /proc/self/task/<tid>/stat, field 14, in clock ticks; -1 when unreadable. */
long getThreadUserTimeSlow(int tid) {
  char path[64];
  char line[2048];
  snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return -1;
  }
  size_t n = fread(line, 1, sizeof(line) - 1, f);
  fclose(f);
  line[n] = '\0';
  /* the command name (field 2) may contain spaces and parentheses: skip to its last ')' */
  char *p = strrchr(line, ')');
  if (p == NULL) {
    return -1;
  }
  p++;
  unsigned long utime = 0;
  /* fields 3..13 are skipped, field 14 is utime */
  if (sscanf(p, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) {
    return -1;
  }
  long ticks = sysconf(_SC_CLK_TCK);
  return (long)utime * (1000000000L / (ticks > 0 ? ticks : 100));
}

/* On Linux the mapping file (Windows zone names) is not used; libjava finds the zone itself. */
char *SVM_FindJavaTZmd(const char *tzMappings, int length) {
  (void)tzMappings;
  (void)length;
  return findJavaTZ_md(NULL);
}

void codeSynchronization_clearCache(long codeStart, long codeSize) {
  (void)codeStart;
  (void)codeSize;
}

/* mremap(2) with the new address passed through (MREMAP_FIXED), as the image's heap grows chunks. */
void *mremapP(void *oldAddress, size_t oldSize, size_t newSize, int flags, void *newAddress) {
  return (void *)syscall(SYS_mremap, oldAddress, oldSize, newSize, flags, newAddress);
}
