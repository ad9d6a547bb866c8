/*
 * examples/c-game-loop — Hearth inside a game's frame loop (C, host-loop mode).
 *
 *   make examples        (builds this and runs it against a fresh hearth-emulator)
 *
 * The game owns a uv_loop_t and hands it to Hearth (hearth_app_options.loop). Hearth then creates no
 * thread at all: its network I/O, timers and callbacks run inside the game's own
 * uv_run(loop, UV_RUN_NOWAIT), called once per frame. Operations return futures at once; the game polls
 * hearth_future_status() each frame, the way Firebase's C++ samples poll Future::status(), or asks for
 * a completion callback, which also runs inside that uv_run, on the game's thread.
 *
 * The "game" is a login screen: it tries to sign the player in; a player who has no account yet gets
 * one; then it fetches an ID token for the game's backend and sets the player's display name. It runs
 * at 60 frames per second for at least two seconds, then shuts Hearth down cleanly.
 *
 * Porting notes: replace frame_sleep() with your engine's frame pacing, and the printf()s with your UI.
 * Everything Hearth needs from the engine is in pump_hearth().
 */
#define _POSIX_C_SOURCE 200809L

#include <hearth.h>
#include <uv.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  FRAMES_PER_SECOND = 60,
  MIN_FRAMES = 2 * FRAMES_PER_SECOND,  /* run at least this long, like a title screen */
  MAX_FRAMES = 15 * FRAMES_PER_SECOND, /* give up (and fail) if the login takes longer */
};

/* What the login screen is waiting for. */
typedef enum login_step {
  STEP_SIGNING_IN,       /* hearth_auth_sign_in_with_email_and_password, polled */
  STEP_CREATING_ACCOUNT, /* hearth_auth_create_user_with_email_and_password, polled */
  STEP_GETTING_TOKEN,    /* hearth_user_get_token, polled */
  STEP_SETTING_NAME,     /* hearth_user_update_user_profile, with a completion callback */
  STEP_PLAYING,          /* logged in: nothing pending */
  STEP_FAILED
} login_step;

typedef struct game {
  hearth_app *app;
  hearth_auth *auth;
  login_step step;
  hearth_future *pending; /* the future the current step polls (we own this reference) */
  char email[96];
  const char *password;
  int frame;
  int auth_state_changes;    /* counted by the auth-state listener */
  int name_set;              /* set by the completion callback */
  int callback_on_game_thread;
  uint64_t longest_pump_ns;  /* the longest uv_run of any frame: Hearth never blocks a frame */
} game;

/* ------------------------------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------------------------------- */

/* Threads of this process (Linux: /proc/self/task). Used to show that Hearth starts none. */
static int thread_count(void) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int count = 0;
  for (struct dirent *entry; (entry = readdir(dir)) != NULL;)
    if (entry->d_name[0] != '.') count++;
  closedir(dir);
  return count;
}

/* Sleeps for what is left of this frame. */
static void frame_sleep(uint64_t frame_start_ns) {
  const uint64_t frame_ns = 1000000000u / FRAMES_PER_SECOND;
  uint64_t spent = uv_hrtime() - frame_start_ns;
  if (spent >= frame_ns) return;
  uint64_t left = frame_ns - spent;
  struct timespec pause = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
  nanosleep(&pause, NULL);
}

static void fail_step(game *g, const char *what, hearth_future *future) {
  int code = hearth_future_error(future);
  fprintf(stderr, "frame %d: %s failed: %s (%d): %s\n", g->frame, what, hearth_error_name(code), code,
          hearth_future_error_message(future));
  g->step = STEP_FAILED;
}

/* Swaps the future the login screen polls. */
static void wait_for(game *g, login_step step, hearth_future *future) {
  hearth_future_release(g->pending);
  g->pending = future;
  g->step = step;
}

/* ------------------------------------------------------------------------------------------------
 * Callbacks: they run inside pump_hearth(), on the game's thread
 * ---------------------------------------------------------------------------------------------- */

static void on_auth_state_changed(hearth_auth *auth, void *user_data) {
  game *g = user_data;
  hearth_user *user = hearth_auth_current_user(auth); /* a snapshot: ours to release */
  printf("frame %3d: auth state: %s\n", g->frame, user ? hearth_user_email(user) : "signed out");
  hearth_user_release(user);
  g->auth_state_changes++;
}

static void on_name_set(hearth_future *future, void *user_data) {
  game *g = user_data;
  g->callback_on_game_thread = hearth_app_is_loop_thread(g->app);
  if (hearth_future_error(future) != 0) {
    fail_step(g, "setting the display name", future);
    return;
  }
  const hearth_user *user = hearth_future_user(future); /* borrowed from the future */
  printf("frame %3d: display name is now \"%s\" (completion callback)\n", g->frame, hearth_user_display_name(user));
  g->name_set = 1;
  g->step = STEP_PLAYING;
}

/* ------------------------------------------------------------------------------------------------
 * The login screen's per-frame update: look at the pending future, never wait for it
 * ---------------------------------------------------------------------------------------------- */

/* Signed in: ask for the ID token the game server wants. */
static void request_token(game *g) {
  hearth_user *user = hearth_auth_current_user(g->auth); /* a snapshot: ours to release */
  if (!user) {
    fprintf(stderr, "frame %d: signed in, but no current user\n", g->frame);
    g->step = STEP_FAILED;
    return;
  }
  printf("frame %3d: signed in as %s (uid %s)\n", g->frame, hearth_user_email(user), hearth_user_uid(user));
  wait_for(g, STEP_GETTING_TOKEN, hearth_user_get_token(user, 0));
  hearth_user_release(user);
}

/* The last step reports through a completion callback instead of being polled. */
static void request_display_name(game *g) {
  hearth_user *user = hearth_auth_current_user(g->auth);
  hearth_future *update = hearth_user_update_user_profile(user, "Player One", NULL); /* NULL keeps the photo */
  hearth_user_release(user);
  if (hearth_future_add_callback(update, on_name_set, g) != 0) {
    fail_step(g, "registering the completion callback", update);
    hearth_future_release(update);
    return;
  }
  wait_for(g, STEP_SETTING_NAME, update); /* on_name_set moves on to STEP_PLAYING */
}

static void update_login(game *g) {
  if (g->step != STEP_SIGNING_IN && g->step != STEP_CREATING_ACCOUNT && g->step != STEP_GETTING_TOKEN) return;
  if (hearth_future_status(g->pending) == HEARTH_FUTURE_PENDING) return; /* try again next frame */

  hearth_future *done = g->pending;
  int error = hearth_future_error(done);
  switch (g->step) {
  case STEP_SIGNING_IN:
    if (error == HEARTH_ERROR_NONE) {
      request_token(g);
    } else if (error == HEARTH_ERROR_USER_NOT_FOUND || error == HEARTH_ERROR_INVALID_CREDENTIAL) {
      /* No such player (INVALID_CREDENTIAL is what projects with email enumeration protection
       * answer): register them. A wrong password would then fail with EMAIL_ALREADY_IN_USE. */
      printf("frame %3d: no account for %s (%s): creating one\n", g->frame, g->email, hearth_error_name(error));
      wait_for(g, STEP_CREATING_ACCOUNT,
               hearth_auth_create_user_with_email_and_password(g->auth, g->email, g->password));
    } else {
      fail_step(g, "signing in", done);
    }
    break;
  case STEP_CREATING_ACCOUNT:
    if (error != HEARTH_ERROR_NONE) {
      fail_step(g, "creating the account", done);
      break;
    }
    printf("frame %3d: account created (new user: %s)\n", g->frame,
           hearth_auth_result_is_new_user(hearth_future_auth_result(done)) ? "yes" : "no");
    request_token(g);
    break;
  case STEP_GETTING_TOKEN:
    if (error != HEARTH_ERROR_NONE) {
      fail_step(g, "getting the ID token", done);
      break;
    }
    /* Send the token to your game server (e.g. an Authorization header); never log it. */
    printf("frame %3d: got an ID token (%zu characters) for the game server\n", g->frame,
           strlen(hearth_future_string(done)));
    request_display_name(g);
    break;
  default:
    break;
  }
}

/* Everything Hearth needs from the engine: one non-blocking turn of the loop per frame. */
static void pump_hearth(game *g, uv_loop_t *loop) {
  uint64_t start = uv_hrtime();
  uv_run(loop, UV_RUN_NOWAIT);
  uint64_t spent = uv_hrtime() - start;
  if (spent > g->longest_pump_ns) g->longest_pump_ns = spent;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!getenv("FIREBASE_AUTH_EMULATOR_HOST")) {
    fprintf(stderr, "Set FIREBASE_AUTH_EMULATOR_HOST (or run `make examples`, which starts hearth-emulator).\n");
    return 1;
  }

  /* The engine's loop. Any libuv loop works: the engine may already have one for its own I/O. */
  uv_loop_t loop;
  if (uv_loop_init(&loop) != 0) return 1;
  const int threads_before = thread_count();

  hearth_app_options options;
  hearth_app_options_init(&options); /* always first: defaults and struct_size */
  options.api_key = "example-api-key";
  options.project_id = "demo-hearth";
  options.loop = &loop;                           /* host-loop mode: Hearth creates no threads */
  options.persistence = HEARTH_PERSISTENCE_NONE;  /* a real game keeps the default (a 0600 file) */

  game g = {.step = STEP_SIGNING_IN, .password = "correct horse battery"};
  snprintf(g.email, sizeof g.email, "player-%ld-%ld@example.com", (long)time(NULL), (long)uv_os_getpid());

  int rc = hearth_app_create(&options, &g.app); /* FIREBASE_AUTH_EMULATOR_HOST routes it to the emulator */
  if (rc != 0) {
    fprintf(stderr, "hearth_app_create: %s\n", hearth_error_name(rc));
    return 1;
  }
  g.auth = hearth_auth_get(g.app);
  if (hearth_auth_add_auth_state_listener(g.auth, on_auth_state_changed, NULL, &g) == 0) {
    fprintf(stderr, "could not add the auth-state listener\n");
    return 1;
  }

  /* The player pressed "Play". Called on the loop thread (this one), so the request keeps the loop
   * alive until it is done; the future is ours to poll. */
  g.pending = hearth_auth_sign_in_with_email_and_password(g.auth, g.email, g.password);

  int max_threads = threads_before;
  for (g.frame = 0; g.frame < MAX_FRAMES; g.frame++) {
    uint64_t frame_start = uv_hrtime();
    pump_hearth(&g, &loop);   /* network, timers and Hearth callbacks, without blocking */
    update_login(&g);         /* game logic: poll the pending future */
    /* ... render the frame ... */
    int threads = thread_count();
    if (threads > max_threads) max_threads = threads;
    if (g.step == STEP_FAILED) break;
    if (g.step == STEP_PLAYING && g.frame + 1 >= MIN_FRAMES) {
      g.frame++;
      break;
    }
    frame_sleep(frame_start);
  }

  /* Shutdown: destroy the app (cancels anything in flight, no callback runs after it), let libuv
   * finish closing Hearth's handles with one more turn, then close the loop. */
  int ok = g.step == STEP_PLAYING && g.name_set && g.callback_on_game_thread && g.auth_state_changes >= 2;
  hearth_future_release(g.pending);
  hearth_app_destroy(g.app);
  uv_run(&loop, UV_RUN_NOWAIT);
  int close_rc = uv_loop_close(&loop);

  printf("\n%d frames; longest uv_run in a frame: %.2f ms\n", g.frame, (double)g.longest_pump_ns / 1e6);
  printf("threads: %d before Hearth, at most %d while running (Hearth started %d)\n", threads_before, max_threads,
         max_threads - threads_before);
  printf("auth-state listener calls: %d; completion callback on the game thread: %s\n", g.auth_state_changes,
         g.callback_on_game_thread ? "yes" : "no");
  printf("uv_loop_close: %d (%s)\n", close_rc, close_rc == 0 ? "clean" : uv_err_name(close_rc));

  if (g.step == STEP_SIGNING_IN || g.step == STEP_CREATING_ACCOUNT || g.step == STEP_GETTING_TOKEN ||
      g.step == STEP_SETTING_NAME) {
    fprintf(stderr, "FAILED: the login did not finish within %d frames\n", MAX_FRAMES);
    ok = 0;
  }
  if (max_threads != threads_before) {
    fprintf(stderr, "FAILED: Hearth started a thread on a host loop\n");
    ok = 0;
  }
  if (close_rc != 0) {
    fprintf(stderr, "FAILED: uv_loop_close returned %s\n", uv_err_name(close_rc));
    ok = 0;
  }
  if (!ok) {
    fprintf(stderr, "FAILED\n");
    return 1;
  }
  printf("OK\n");
  return 0;
}
