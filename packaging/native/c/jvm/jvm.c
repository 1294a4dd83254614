/*
 * The HotSpot entry points (JVM_* and jio_*) that the static JDK libraries call and that a native
 * image really reaches: time, processors, dynamic libraries, raw monitors, formatted output.
 * Every other JVM_* symbol those libraries reference belongs to code the image replaces with its
 * own (class loading, reflection, threads, stack walking); the toolchain generates a stub for each
 * that names the function and aborts (jvm_unsupported.c, generated from the archives themselves).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Called once by the image at start-up (com.oracle.svm.core.jdk.Jvm); nothing to prepare. */
void initialize(void) {}

jint JVM_ActiveProcessorCount(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return CPU_COUNT(&set);
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (jint)online : 1;
}

/* java.lang.Shutdown: the hooks have run; nothing is left for a VM to do before it halts. */
void JVM_BeforeHalt(void) {}

/* java.lang.Shutdown.halt0, after the shutdown hooks: end the process with the code Java chose. */
void JVM_Halt(jint code) { exit(code); }

jlong JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
  (void)env;
  (void)ignored;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (jlong)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

jlong JVM_NanoTime(JNIEnv *env, jclass ignored) {
  (void)env;
  (void)ignored;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (jlong)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Nanoseconds of the wall clock relative to offset_secs; -1 when it does not fit (JDK contract). */
jlong JVM_GetNanoTimeAdjustment(JNIEnv *env, jclass ignored, jlong offset_secs) {
  (void)env;
  (void)ignored;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  jlong diff = (jlong)ts.tv_sec - offset_secs;
  if (diff >= 0x100000000L || diff <= -0x100000000L) {
    return -1;
  }
  return diff * 1000000000L + ts.tv_nsec;
}

void *JVM_LoadLibrary(const char *name, jboolean throwException) {
  (void)throwException;
  return dlopen(name, RTLD_LAZY);
}

void JVM_UnloadLibrary(void *handle) { dlclose(handle); }

void *JVM_FindLibraryEntry(void *handle, const char *name) { return dlsym(handle, name); }

char *JVM_NativePath(char *path) { return path; }

jboolean JVM_IsUseContainerSupport(void) { return JNI_FALSE; }

jboolean JVM_IsContainerized(void) { return JNI_FALSE; }

void *JVM_RawMonitorCreate(void) {
  pthread_mutex_t *mutex = malloc(sizeof(pthread_mutex_t));
  if (mutex == NULL) {
    return NULL;
  }
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(mutex, &attr);
  pthread_mutexattr_destroy(&attr);
  return mutex;
}

void JVM_RawMonitorDestroy(void *monitor) {
  pthread_mutex_destroy(monitor);
  free(monitor);
}

jint JVM_RawMonitorEnter(void *monitor) { return pthread_mutex_lock(monitor) == 0 ? 0 : -1; }

void JVM_RawMonitorExit(void *monitor) { pthread_mutex_unlock(monitor); }

int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args) {
  if ((ptrdiff_t)count <= 0) {
    return -1;
  }
  int result = vsnprintf(str, count, fmt, args);
  return result >= 0 && (size_t)result < count ? result : -1;
}

int jio_snprintf(char *str, size_t count, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = jio_vsnprintf(str, count, fmt, args);
  va_end(args);
  return result;
}

int jio_vfprintf(FILE *f, const char *fmt, va_list args) { return vfprintf(f, fmt, args); }

int jio_fprintf(FILE *f, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = vfprintf(f, fmt, args);
  va_end(args);
  return result;
}

/* JDK 25.0.3's java.io.Console asks for this; the 25.0.2 static libjava has only istty. */
jint Java_java_io_Console_ttyStatus(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (isatty(STDIN_FILENO) ? 1 : 0) | (isatty(STDOUT_FILENO) ? 2 : 0) | (isatty(STDERR_FILENO) ? 4 : 0);
}
