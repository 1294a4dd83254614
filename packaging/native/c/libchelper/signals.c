/*
 * The bridge between POSIX signal handlers and the image's "Signal Dispatcher" thread
 * (CSunMiscSignal): the handler only counts the signal and posts a semaphore, both async-signal
 * safe; the dispatcher thread waits on the semaphore and takes one pending signal per wake-up.
 * One isolate at a time may own the mechanism.
 */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>

#define SIGNAL_COUNT 65 /* Linux signal numbers 1..64 */

static volatile int owned = 0;
static sem_t semaphore;
static volatile int pending[SIGNAL_COUNT];

int cSunMiscSignal_open(void) {
  if (!__sync_bool_compare_and_swap(&owned, 0, 1)) {
    return 1;
  }
  for (int i = 0; i < SIGNAL_COUNT; i++) {
    pending[i] = 0;
  }
  if (sem_init(&semaphore, 0, 0) != 0) {
    owned = 0;
    return -1;
  }
  return 0;
}

int cSunMiscSignal_close(void) {
  if (!owned) {
    return 0;
  }
  int result = sem_destroy(&semaphore);
  __sync_synchronize();
  owned = 0;
  return result;
}

int cSunMiscSignal_awaitSemaphore(void) {
  int result;
  do {
    result = sem_wait(&semaphore);
  } while (result != 0 && errno == EINTR);
  return result;
}

int cSunMiscSignal_signalSemaphore(void) { return sem_post(&semaphore); }

bool cSunMiscSignal_signalRangeCheck(int signal) { return signal > 0 && signal < SIGNAL_COUNT; }

int cSunMiscSignal_checkPendingSignal(void) {
  for (int sig = 1; sig < SIGNAL_COUNT; sig++) {
    int count = pending[sig];
    while (count > 0) {
      if (__sync_bool_compare_and_swap(&pending[sig], count, count - 1)) {
        return sig;
      }
      count = pending[sig];
    }
  }
  return -1;
}

static void count_signal(int sig) {
  if (sig > 0 && sig < SIGNAL_COUNT) {
    int saved = errno;
    __sync_fetch_and_add(&pending[sig], 1);
    sem_post(&semaphore);
    errno = saved;
  }
}

void *cSunMiscSignal_signalHandlerFunctionPointer(void) { return (void *)count_signal; }
