/*
 * Container (cgroup) limits for the image's heap sizing and processor count, the C side of the
 * image's ContainerLibrary. cgroup v2 (the unified hierarchy Kubernetes uses since 1.25) is read
 * from the process's own cgroup and its ancestors, the lowest limit winning; cgroup v1 from the
 * memory and cpu controllers' directories.
 *
 * Values follow the JDK's conventions: bytes, -1 for "no limit", -2 for "not available".
 * "Containerized" means a memory or CPU limit applies to us: that is what changes sizing.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBCONTAINER_VERSION 240100
#define SUCCESS_IS_NOT_CONTAINERIZED 0
#define SUCCESS_IS_CONTAINERIZED 1
#define ERROR_LIBCONTAINER_TOO_OLD 2
#define ERROR_LIBCONTAINER_TOO_NEW 3

#define UNLIMITED (-1L)
#define UNAVAILABLE (-2L)
/* cgroup v1 writes "no limit" as a page-rounded LONG_MAX */
#define V1_UNLIMITED_THRESHOLD (LONG_MAX / 2)

static int v2 = 0;
static char v2_dir[PATH_MAX];     /* our own cgroup directory (v2) */
static char v1_memory[PATH_MAX];  /* memory controller directory (v1) */
static char v1_cpu[PATH_MAX];     /* cpu controller directory (v1) */

static int read_line(const char *dir, const char *file, char *buf, size_t size) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path)) {
    return -1;
  }
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return -1;
  }
  char *ok = fgets(buf, (int)size, f);
  fclose(f);
  if (ok == NULL) {
    return -1;
  }
  buf[strcspn(buf, "\n")] = '\0';
  return 0;
}

/* A number, "max" (UNLIMITED) or UNAVAILABLE when the file is missing or unreadable. */
static long read_value(const char *dir, const char *file) {
  char buf[128];
  if (read_line(dir, file, buf, sizeof(buf)) != 0) {
    return UNAVAILABLE;
  }
  if (strncmp(buf, "max", 3) == 0) {
    return UNLIMITED;
  }
  char *end;
  long value = strtol(buf, &end, 10);
  if (end == buf) {
    return UNAVAILABLE;
  }
  if (!v2 && value >= V1_UNLIMITED_THRESHOLD) {
    return UNLIMITED;
  }
  return value;
}

/* The value of key in a "key value" file such as memory.stat. */
static long read_keyed(const char *dir, const char *file, const char *key) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    return UNAVAILABLE;
  }
  char name[128];
  long value;
  long result = UNAVAILABLE;
  while (fscanf(f, "%127s %ld", name, &value) == 2) {
    if (strcmp(name, key) == 0) {
      result = value;
      break;
    }
  }
  fclose(f);
  return result;
}

/* The smallest limit set on our cgroup or any ancestor (v2), UNLIMITED if none. */
static long lowest_v2_limit(const char *file) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s", v2_dir);
  long lowest = UNLIMITED;
  for (;;) {
    long value = read_value(dir, file);
    if (value >= 0 && (lowest == UNLIMITED || value < lowest)) {
      lowest = value;
    }
    if (strcmp(dir, "/sys/fs/cgroup") == 0) {
      break;
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir) {
      break;
    }
    *slash = '\0';
  }
  return lowest;
}

/* cgroup path of a controller ("" selects the v2 line "0::") from /proc/self/cgroup. */
static int own_cgroup_path(const char *controller, char *out, size_t size) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (f == NULL) {
    return -1;
  }
  char line[1024];
  int found = -1;
  while (fgets(line, sizeof(line), f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    char *controllers = strchr(line, ':');
    char *path = controllers ? strchr(controllers + 1, ':') : NULL;
    if (path == NULL) {
      continue;
    }
    *path++ = '\0';
    controllers++;
    int match = controller[0] == '\0' ? controllers[0] == '\0' : strstr(controllers, controller) != NULL;
    if (match) {
      snprintf(out, size, "%s", path);
      found = 0;
      break;
    }
  }
  fclose(f);
  return found;
}

/* v1 controller directory: the mount point plus our path when it exists there (not namespaced). */
static void v1_dir(const char *mount, const char *controller, char *out, size_t size) {
  char path[PATH_MAX - 64];
  snprintf(out, size, "%s", mount);
  if (own_cgroup_path(controller, path, sizeof(path)) == 0 && strcmp(path, "/") != 0) {
    char candidate[PATH_MAX];
    if (snprintf(candidate, sizeof(candidate), "%s%s", mount, path) < (int)sizeof(candidate) &&
        access(candidate, R_OK) == 0) {
      snprintf(out, size, "%s", candidate);
    }
  }
}

long svm_container_memory_limit_in_bytes(void);
static int cpu_limit(void);

int svm_container_initialize(int version) {
  if (version < LIBCONTAINER_VERSION) {
    return ERROR_LIBCONTAINER_TOO_NEW;
  }
  if (version > LIBCONTAINER_VERSION) {
    return ERROR_LIBCONTAINER_TOO_OLD;
  }
  char path[PATH_MAX - 64]; /* room for the mount point in front of it */
  if (access("/sys/fs/cgroup/cgroup.controllers", R_OK) == 0 && own_cgroup_path("", path, sizeof(path)) == 0) {
    v2 = 1;
    snprintf(v2_dir, sizeof(v2_dir), "/sys/fs/cgroup%s", strcmp(path, "/") == 0 ? "" : path);
  } else if (access("/sys/fs/cgroup/memory", R_OK) == 0) {
    v2 = 0;
    v1_dir("/sys/fs/cgroup/memory", "memory", v1_memory, sizeof(v1_memory));
    v1_dir(access("/sys/fs/cgroup/cpu,cpuacct", R_OK) == 0 ? "/sys/fs/cgroup/cpu,cpuacct" : "/sys/fs/cgroup/cpu", "cpu",
           v1_cpu, sizeof(v1_cpu));
  } else {
    return SUCCESS_IS_NOT_CONTAINERIZED;
  }
  return svm_container_memory_limit_in_bytes() > 0 || cpu_limit() > 0 ? SUCCESS_IS_CONTAINERIZED
                                                                       : SUCCESS_IS_NOT_CONTAINERIZED;
}

unsigned long svm_container_physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? (unsigned long)pages * (unsigned long)page_size : 0;
}

long svm_container_memory_limit_in_bytes(void) {
  long limit = v2 ? lowest_v2_limit("memory.max") : read_value(v1_memory, "memory.limit_in_bytes");
  long physical = (long)svm_container_physical_memory();
  if (limit > 0 && physical > 0 && limit >= physical) {
    return UNLIMITED; /* a limit above the machine's memory limits nothing */
  }
  return limit;
}

long svm_container_memory_and_swap_limit_in_bytes(void) {
  if (v2) {
    long memory = svm_container_memory_limit_in_bytes();
    long swap = lowest_v2_limit("memory.swap.max");
    if (memory < 0 || swap < 0) {
      return memory < 0 ? memory : UNLIMITED;
    }
    return memory + swap;
  }
  return read_value(v1_memory, "memory.memsw.limit_in_bytes");
}

long svm_container_memory_soft_limit_in_bytes(void) {
  return v2 ? read_value(v2_dir, "memory.low") : read_value(v1_memory, "memory.soft_limit_in_bytes");
}

long svm_container_memory_usage_in_bytes(void) {
  return v2 ? read_value(v2_dir, "memory.current") : read_value(v1_memory, "memory.usage_in_bytes");
}

long svm_container_memory_max_usage_in_bytes(void) {
  return v2 ? read_value(v2_dir, "memory.peak") : read_value(v1_memory, "memory.max_usage_in_bytes");
}

long svm_container_rss_usage_in_bytes(void) {
  return v2 ? read_keyed(v2_dir, "memory.stat", "anon") : read_keyed(v1_memory, "memory.stat", "rss");
}

long svm_container_cache_usage_in_bytes(void) {
  return v2 ? read_keyed(v2_dir, "memory.stat", "file") : read_keyed(v1_memory, "memory.stat", "cache");
}

/* Processors the CPU quota allows, rounded up; 0 when no quota applies. */
static int cpu_limit(void) {
  long quota;
  long period;
  if (v2) {
    char buf[128];
    if (read_line(v2_dir, "cpu.max", buf, sizeof(buf)) != 0 || strncmp(buf, "max", 3) == 0) {
      return 0;
    }
    if (sscanf(buf, "%ld %ld", &quota, &period) != 2) {
      return 0;
    }
  } else {
    quota = read_value(v1_cpu, "cpu.cfs_quota_us");
    period = read_value(v1_cpu, "cpu.cfs_period_us");
  }
  if (quota <= 0 || period <= 0) {
    return 0;
  }
  return (int)((quota + period - 1) / period);
}

int svm_container_active_processor_count(void) {
  cpu_set_t set;
  int available = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (available < 1) {
    available = 1;
  }
  int limit = cpu_limit();
  return limit > 0 && limit < available ? limit : available;
}
