#include "hearth_wake.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/eventfd.h>
#endif

int hearth_wake_open(int fds[2]) {
#if defined(__linux__)
  int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) return -errno;
  fds[0] = fds[1] = fd;
  return 0;
#else
  if (pipe(fds) != 0) return -errno;
  for (int i = 0; i < 2; i++) {
    if (fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0 ||
        fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
      int error = errno;
      close(fds[0]);
      close(fds[1]);
      return -error;
    }
  }
  return 0;
#endif
}

void hearth_wake_signal(int write_fd) {
#if defined(__linux__)
  uint64_t one = 1;
  ssize_t written;
  do {
    written = write(write_fd, &one, sizeof one);
  } while (written < 0 && errno == EINTR);
#else
  char byte = 1;
  ssize_t written;
  do {
    written = write(write_fd, &byte, 1);
  } while (written < 0 && errno == EINTR);
#endif
  /* EAGAIN: the counter or the pipe is full, so the reader is woken already. */
}

void hearth_wake_drain(int read_fd) {
  char buffer[64];
  for (;;) {
    ssize_t got = read(read_fd, buffer, sizeof buffer);
    if (got > 0) continue;
    if (got < 0 && errno == EINTR) continue;
    return; /* EAGAIN: empty (an eventfd reads its whole counter at once) */
  }
}

void hearth_wake_close(int fds[2]) {
  close(fds[0]);
  if (fds[1] != fds[0]) close(fds[1]);
}
