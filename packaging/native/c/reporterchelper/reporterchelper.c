/*
 * JNI helper the image builder's progress reporter loads (com.oracle.svm.hosted.ProgressReporterCHelper):
 * the terminal's width for its progress bars and the builder's peak resident set size for its
 * closing summary.
 */
#include <jni.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

JNIEXPORT jint JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  struct winsize w;
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) {
    return w.ws_col;
  }
  return 80;
}

JNIEXPORT jlong JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) {
    return -1;
  }
  return (jlong)usage.ru_maxrss * 1024; /* Linux reports kilobytes */
}
