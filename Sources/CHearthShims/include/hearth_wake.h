/* A descriptor other threads write to wake an event loop that watches it (a uv_poll_t). Used instead
 * of uv_async_t: uv_async_send marks the handle busy around its write, and the woken loop thread
 * busy-waits (997 spins, then sched_yield) until the sender clears that mark, which on a loaded or
 * single core means spinning until the scheduler runs the sender again (bench, issue 19). A plain
 * write has no such window, and the descriptor can stay open for as long as anyone may write. */
#ifndef HEARTH_WAKE_H
#define HEARTH_WAKE_H

#pragma GCC visibility push(hidden)

/* Opens the channel: fds[0] is read (watched by the loop), fds[1] written (the same descriptor where
 * the system has eventfd). Both non-blocking and close-on-exec. 0, or -errno. */
int hearth_wake_open(int fds[2]);

/* Any thread: makes fds[0] readable. A channel that is full is readable already. */
void hearth_wake_signal(int write_fd);

/* The loop thread, when fds[0] is readable: reads everything written so far. */
void hearth_wake_drain(int read_fd);

/* Closes both descriptors (once nobody can signal any more). */
void hearth_wake_close(int fds[2]);

#pragma GCC visibility pop

#endif
