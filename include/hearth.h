/*
 * hearth.h — Firebase-compatible authentication for native hosts.
 *
 * One header, one prefix (hearth_), opaque handles, explicit ownership.
 *
 * Names
 * -----
 * Functions are hearth_<object>_<verb or attribute>: the object they act on (app, auth, user, future,
 * credential, oauth_provider, multi_factor_resolver, totp_secret, ...), then what they do
 * (hearth_user_link_with_credential, hearth_future_release) or what they read (hearth_user_email).
 * Constructors are hearth_<object>_create[_<kind>] (hearth_app_create, hearth_credential_create_google),
 * references are taken with hearth_<object>_retain and given back with hearth_<object>_release, options
 * structs are filled with hearth_<struct>_init. Library-wide functions have the library as their object:
 * hearth_version, hearth_free, hearth_last_error_message. Types are hearth_<name>, callback types
 * hearth_<purpose>_cb, enum values HEARTH_<ENUM>_<NAME>.
 *
 * Threads and the loop
 * --------------------
 * - Every app runs on one libuv loop. Pass your own loop in hearth_app_options.loop (Hearth then creates
 *   no threads; you drive it with uv_run, e.g. uv_run(loop, UV_RUN_NOWAIT) once per frame) or pass NULL
 *   and Hearth runs one loop thread of its own.
 * - Every function may be called from any thread.
 * - Every callback runs on the loop thread, from inside uv_run, and never inside the Hearth call that
 *   registered it. Callbacks may call any Hearth function, including on the same future, and may destroy
 *   the app. While a callback runs, a call from ANOTHER thread that must guarantee "not called after this
 *   returns" (listener removal, hearth_app_destroy) waits for that callback to return; nothing else waits
 *   on callbacks.
 * - Idle Hearth handles are unref'd: an idle Hearth never keeps uv_run(UV_RUN_DEFAULT) alive. Calls made
 *   on the loop thread and requests in flight keep the loop alive until they are done. Work posted from
 *   ANOTHER thread (an operation, or hearth_app_destroy) wakes the loop but cannot ref it (libuv's
 *   uv_ref is not thread-safe): it runs during the host's next uv_run while the loop is alive — because
 *   of the host's own ref'd handles (a game engine's loop usually has some), or Hearth's requests in
 *   flight. On a loop that holds nothing else, call Hearth from the loop thread.
 *
 * Callbacks and user_data: every registration ends in exactly one final call
 * ---------------------------------------------------------------------------
 * Like libuv (a closed handle's requests still get their callback, with UV_ECANCELED), Hearth hands every
 * user_data it was given with a callback back exactly once, in a final call after which it never uses
 * that user_data again: free it there. A registering call that fails (returns an error code, 0 or NULL)
 * keeps nothing: none of its callbacks ever runs.
 * - hearth_future_add_callback: the callback is its own final call. It runs once the operation
 *   completes, also when the future reference was released meanwhile.
 * - hearth_app_post: the posted function is its own final call, with status HEARTH_ERROR_NONE, or
 *   HEARTH_ERROR_CANCELLED when the app was destroyed before its turn came.
 * - Callbacks called any number of times — auth-state and ID-token listeners, the phone listener, the
 *   provider-flow UI delegate — come with a `release` callback (NULL: none wanted), which is the final
 *   call: it runs after the last call of the others, once the registration ends (the listener was
 *   removed; the verification ended; the UI delegate was replaced and no flow needs it any more) or the
 *   app is destroyed.
 * - Storage callbacks are part of the app's options, not registrations: none starts once
 *   hearth_app_destroy has been called (a save already running on the loop thread finishes), so their
 *   user_data is the host's again when the destroy's final calls have run. The log callback belongs to
 *   the process: hearth_log_set_callback says when it stops.
 *
 * Destroying the app (hearth_app_destroy) ends every registration of that app, on its loop thread, in this
 * order:
 *   1. every operation still pending completes with HEARTH_ERROR_CANCELLED, in the order they started;
 *   2. every final call due runs, in the order it became due: completion callbacks (those of the
 *      operations just cancelled come after any already due), posted functions whose turn had not come
 *      (with HEARTH_ERROR_CANCELLED), releases of listeners removed earlier. Calls of listeners, of the
 *      phone listener and of the UI delegate that were due but had not run are dropped;
 *   3. the release of every registration still in place (listeners, a phone listener whose verification
 *      has not ended, UI delegates), in the order they were registered.
 * With Hearth's own loop this happens before hearth_app_destroy returns, or, when it is called from a
 * Hearth callback, right after that callback returns. With a host loop it happens during the host's
 * next uv_run (the turn that closes Hearth's handles, which the host runs before uv_loop_close anyway).
 * After that no callback of the app ever runs.
 *
 * Ownership
 * ---------
 * - "Returns a new reference": the caller owns it and frees it with the matching *_release.
 * - "Borrowed": valid as long as the handle it came from; never freed by the caller.
 * - Strings passed in are UTF-8, NUL-terminated, copied during the call. NULL where optional.
 * - Invalid UTF-8, NULL where required, or a released handle give an error, never a crash.
 *
 * Errors
 * ------
 * Error codes are hearth_error values: the Firebase C++ SDK's firebase::auth::AuthError values (-1..78)
 * and Hearth's own codes from 1000 up. An operation that returns a future reports its outcome there
 * (hearth_future_error, and a message: the server's detail text where there is one). A call that fails at
 * once — a function returning a hearth_error other than HEARTH_ERROR_NONE, a function documented to
 * return NULL (or a listener id of 0) on failure — also stores that code and a precise English sentence
 * naming the cause in the calling thread's last error (hearth_last_error_code, hearth_last_error_message),
 * the way errno and dlerror work: the next failing call on the same thread overwrites it, calls that
 * succeed leave it as it is, and other threads have their own. Accessors (hearth_future_status,
 * hearth_future_error, hearth_user_email, counts, ...) never touch it: they answer an invalid handle
 * with their documented value.
 */
#ifndef HEARTH_H
#define HEARTH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HEARTH_API marks the library's functions. Windows: dllexport while building the DLL (the build defines
 * HEARTH_BUILDING_DLL), nothing for a static library (define HEARTH_STATIC), dllimport for hosts using
 * the DLL. ELF and Mach-O: default visibility, so the functions stay exported when the library (or a
 * host embedding it statically) is built with -fvisibility=hidden. */
#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(HEARTH_STATIC)
#    define HEARTH_API
#  elif defined(HEARTH_BUILDING_DLL)
#    define HEARTH_API __declspec(dllexport)
#  else
#    define HEARTH_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define HEARTH_API __attribute__((visibility("default")))
#else
#  define HEARTH_API
#endif

/* The version of this header. The numbers are the one source of Hearth's version: the library, the
 * Python package and the build derive theirs from them (tests check that they agree). */
#define HEARTH_VERSION_MAJOR 0
#define HEARTH_VERSION_MINOR 1
#define HEARTH_VERSION_PATCH 0
#define HEARTH_VERSION_STRINGIFY_(x) #x
#define HEARTH_VERSION_STRINGIFY(x) HEARTH_VERSION_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH" */
#define HEARTH_VERSION_STRING                                                                              \
  HEARTH_VERSION_STRINGIFY(HEARTH_VERSION_MAJOR) "." HEARTH_VERSION_STRINGIFY(HEARTH_VERSION_MINOR) "."    \
  HEARTH_VERSION_STRINGIFY(HEARTH_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH (1.2.3 is 10203), for #if checks; as SQLITE_VERSION_NUMBER. */
#define HEARTH_VERSION_NUMBER (HEARTH_VERSION_MAJOR * 10000 + HEARTH_VERSION_MINOR * 100 + HEARTH_VERSION_PATCH)

/* libuv's loop type; include <uv.h> to create one. */
struct uv_loop_s;

/* ---------------------------------------------------------------------------------------------------
 * Handles
 * ------------------------------------------------------------------------------------------------- */
typedef struct hearth_app hearth_app;                 /* one configured Firebase app */
typedef struct hearth_auth hearth_auth;               /* the app's Auth; borrowed from the app */
typedef struct hearth_user hearth_user;               /* immutable snapshot of a user */
typedef struct hearth_user_info hearth_user_info;     /* one linked provider of a user (borrowed) */
typedef struct hearth_credential hearth_credential;   /* a credential to sign in / link with */
typedef struct hearth_future hearth_future;           /* the pending or finished result of an operation */
typedef struct hearth_auth_result hearth_auth_result; /* user + additional user info (borrowed) */
typedef struct hearth_storage_reply hearth_storage_reply; /* reply slot for a storage load callback */
typedef struct hearth_oauth_provider hearth_oauth_provider; /* provider id, scopes, custom parameters */
typedef struct hearth_multi_factor_resolver hearth_multi_factor_resolver; /* finishes a sign-in that needs a second factor */
typedef struct hearth_multi_factor_info hearth_multi_factor_info;         /* one enrolled second factor (or a hint) */
typedef struct hearth_multi_factor_session hearth_multi_factor_session;   /* proof of the first factor */
typedef struct hearth_multi_factor_assertion hearth_multi_factor_assertion; /* a second factor, proven */
typedef struct hearth_totp_secret hearth_totp_secret;                     /* a TOTP secret being enrolled */
typedef struct hearth_action_code_info hearth_action_code_info; /* what an email action code is for (borrowed) */

/* ---------------------------------------------------------------------------------------------------
 * Error codes
 * ------------------------------------------------------------------------------------------------- */
typedef enum hearth_error {
  HEARTH_ERROR_NONE = 0,
  HEARTH_ERROR_UNIMPLEMENTED = -1,
  HEARTH_ERROR_FAILURE = 1,
  HEARTH_ERROR_INVALID_CUSTOM_TOKEN = 2,
  HEARTH_ERROR_CUSTOM_TOKEN_MISMATCH = 3,
  HEARTH_ERROR_INVALID_CREDENTIAL = 4,
  HEARTH_ERROR_USER_DISABLED = 5,
  HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS = 6,
  HEARTH_ERROR_OPERATION_NOT_ALLOWED = 7,
  HEARTH_ERROR_EMAIL_ALREADY_IN_USE = 8,
  HEARTH_ERROR_REQUIRES_RECENT_LOGIN = 9,
  HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE = 10,
  HEARTH_ERROR_INVALID_EMAIL = 11,
  HEARTH_ERROR_WRONG_PASSWORD = 12,
  HEARTH_ERROR_TOO_MANY_REQUESTS = 13,
  HEARTH_ERROR_USER_NOT_FOUND = 14,
  HEARTH_ERROR_PROVIDER_ALREADY_LINKED = 15,
  HEARTH_ERROR_NO_SUCH_PROVIDER = 16,
  HEARTH_ERROR_INVALID_USER_TOKEN = 17,
  HEARTH_ERROR_USER_TOKEN_EXPIRED = 18,
  HEARTH_ERROR_NETWORK_REQUEST_FAILED = 19,
  HEARTH_ERROR_INVALID_API_KEY = 20,
  HEARTH_ERROR_APP_NOT_AUTHORIZED = 21,
  HEARTH_ERROR_USER_MISMATCH = 22,
  HEARTH_ERROR_WEAK_PASSWORD = 23,
  HEARTH_ERROR_NO_SIGNED_IN_USER = 24,
  HEARTH_ERROR_API_NOT_AVAILABLE = 25,
  HEARTH_ERROR_EXPIRED_ACTION_CODE = 26,
  HEARTH_ERROR_INVALID_ACTION_CODE = 27,
  HEARTH_ERROR_INVALID_MESSAGE_PAYLOAD = 28,
  HEARTH_ERROR_INVALID_PHONE_NUMBER = 29,
  HEARTH_ERROR_MISSING_PHONE_NUMBER = 30,
  HEARTH_ERROR_INVALID_RECIPIENT_EMAIL = 31,
  HEARTH_ERROR_INVALID_SENDER = 32,
  HEARTH_ERROR_INVALID_VERIFICATION_CODE = 33,
  HEARTH_ERROR_INVALID_VERIFICATION_ID = 34,
  HEARTH_ERROR_MISSING_VERIFICATION_CODE = 35,
  HEARTH_ERROR_MISSING_VERIFICATION_ID = 36,
  HEARTH_ERROR_MISSING_EMAIL = 37,
  HEARTH_ERROR_MISSING_PASSWORD = 38,
  HEARTH_ERROR_QUOTA_EXCEEDED = 39,
  HEARTH_ERROR_RETRY_PHONE_AUTH = 40,
  HEARTH_ERROR_SESSION_EXPIRED = 41,
  HEARTH_ERROR_APP_NOT_VERIFIED = 42,
  HEARTH_ERROR_APP_VERIFICATION_FAILED = 43,
  HEARTH_ERROR_CAPTCHA_CHECK_FAILED = 44,
  HEARTH_ERROR_INVALID_APP_CREDENTIAL = 45,
  HEARTH_ERROR_MISSING_APP_CREDENTIAL = 46,
  HEARTH_ERROR_INVALID_CLIENT_ID = 47,
  HEARTH_ERROR_INVALID_CONTINUE_URI = 48,
  HEARTH_ERROR_MISSING_CONTINUE_URI = 49,
  HEARTH_ERROR_KEYCHAIN_ERROR = 50,
  HEARTH_ERROR_MISSING_APP_TOKEN = 51,
  HEARTH_ERROR_MISSING_IOS_BUNDLE_ID = 52,
  HEARTH_ERROR_NOTIFICATION_NOT_FORWARDED = 53,
  HEARTH_ERROR_UNAUTHORIZED_DOMAIN = 54,
  HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED = 55,
  HEARTH_ERROR_WEB_CONTEXT_CANCELLED = 56,
  HEARTH_ERROR_DYNAMIC_LINK_NOT_ACTIVATED = 57,
  HEARTH_ERROR_CANCELLED = 58,
  HEARTH_ERROR_INVALID_PROVIDER_ID = 59,
  HEARTH_ERROR_WEB_INTERNAL_ERROR = 60,
  HEARTH_ERROR_WEB_STORAGE_UNSUPPORTED = 61,
  HEARTH_ERROR_TENANT_ID_MISMATCH = 62,
  HEARTH_ERROR_UNSUPPORTED_TENANT_OPERATION = 63,
  HEARTH_ERROR_INVALID_LINK_DOMAIN = 64,
  HEARTH_ERROR_REJECTED_CREDENTIAL = 65,
  HEARTH_ERROR_PHONE_NUMBER_NOT_FOUND = 66,
  HEARTH_ERROR_INVALID_TENANT_ID = 67,
  HEARTH_ERROR_MISSING_CLIENT_IDENTIFIER = 68,
  HEARTH_ERROR_MISSING_MULTI_FACTOR_SESSION = 69,
  HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO = 70,
  HEARTH_ERROR_INVALID_MULTI_FACTOR_SESSION = 71,
  HEARTH_ERROR_MULTI_FACTOR_INFO_NOT_FOUND = 72,
  HEARTH_ERROR_ADMIN_RESTRICTED_OPERATION = 73,
  HEARTH_ERROR_UNVERIFIED_EMAIL = 74,
  HEARTH_ERROR_SECOND_FACTOR_ALREADY_ENROLLED = 75,
  HEARTH_ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED = 76,
  HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR = 77,
  HEARTH_ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION = 78,

  /* Hearth's own codes: what the C++ SDK's enum lacks. */
  HEARTH_ERROR_INVALID_ARGUMENT = 1000,       /* NULL / empty / invalid UTF-8 / out-of-range argument */
  HEARTH_ERROR_INVALID_HANDLE = 1001,         /* a released or foreign handle */
  HEARTH_ERROR_SECOND_FACTOR_REQUIRED = 1002, /* the account needs a second factor to finish signing in */
  HEARTH_ERROR_TIMED_OUT = 1003,              /* hearth_future_wait: the timeout passed first */
  HEARTH_ERROR_WOULD_DEADLOCK = 1004,         /* blocking call on the loop thread of a host loop */
  HEARTH_ERROR_APP_DESTROYED = 1005,          /* the app that owns this object is gone */
  HEARTH_ERROR_LOOP_FAILURE = 1006,           /* libuv or libcurl could not be set up */
  HEARTH_ERROR_PERSISTENCE_FAILURE = 1007     /* the session could not be saved or erased */
} hearth_error;

/* Name of an error code, e.g. "HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE". Static string; never NULL
 * ("HEARTH_ERROR_UNKNOWN" for values not in the enum). Takes an int: any value may be asked about. */
HEARTH_API const char *hearth_error_name(int code);

/* A generic English sentence describing an error code. Static string; never NULL. A failed future's
 * own hearth_future_error_message() and hearth_last_error_message() are more specific. */
HEARTH_API const char *hearth_error_message(int code);

/* The code of the last call on this thread that failed at once (see "Errors" at the top of this file);
 * HEARTH_ERROR_NONE when none has on this thread. */
HEARTH_API hearth_error hearth_last_error_code(void);

/* What went wrong in that call, as one English sentence naming the cause ("hearth_app_create:
 * options.api_key is empty."); "" when no call has failed on this thread. Borrowed: valid on this
 * thread until the next failing Hearth call on it. Never NULL. */
HEARTH_API const char *hearth_last_error_message(void);

/* The library's version as "MAJOR.MINOR.PATCH". Static string. Compare it with HEARTH_VERSION_STRING
 * to see whether the library a host loaded is the one it was compiled against. */
HEARTH_API const char *hearth_version(void);

/* The library's version as MAJOR * 10000 + MINOR * 100 + PATCH (HEARTH_VERSION_NUMBER of the header it
 * was built from). */
HEARTH_API int hearth_version_number(void);

/* Frees memory that Hearth allocated and handed to the caller (documented per function). NULL is a
 * no-op. */
HEARTH_API void hearth_free(void *ptr);

/* ---------------------------------------------------------------------------------------------------
 * Logging
 * ------------------------------------------------------------------------------------------------- */

/* Levels of hearth_log_set_callback, least to most severe. */
typedef enum hearth_log_level {
  HEARTH_LOG_DEBUG = 0,   /* every HTTP request: method, URL without its query values, outcome, time */
  HEARTH_LOG_INFO = 1,    /* apps created and destroyed, sign-ins and sign-outs, operations that succeeded */
  HEARTH_LOG_WARNING = 2, /* failed operations, sessions the server ended, saved sessions that could not be read */
  HEARTH_LOG_ERROR = 3,   /* Hearth could not do its own work (a session could not be saved or erased) */
  HEARTH_LOG_OFF = 4      /* no messages */
} hearth_log_level;

/* One log message: a hearth_log_level and one line of UTF-8 text, NUL-terminated, without a trailing
 * newline, borrowed for the duration of the call. Messages start with the app's name in brackets when
 * they concern one app ("[DEFAULT] signInAnonymously succeeded"). */
typedef void (*hearth_log_cb)(void *user_data, hearth_log_level level, const char *message);

/* Sends every message of `level` and above, from every app, to `callback` (one callback per process;
 * a later call replaces an earlier one). Logging is off until this is called: Hearth writes nothing to
 * stdout, stderr or anywhere else by itself. HEARTH_LOG_OFF or a NULL callback turns it off again.
 * Messages never contain passwords, tokens, verification or action codes, API keys or URL query values.
 * The callback runs on the thread that logs (an app's loop thread, or the thread calling Hearth), on
 * several threads at once when several apps are busy: it must be thread-safe. Hearth calls made from
 * inside the callback log nothing. After this returns, the previous callback is no longer running on
 * another thread and is never called again: its user_data is the host's again. Returns 0, or
 * HEARTH_ERROR_INVALID_ARGUMENT for a level outside hearth_log_level (the previous setting stays). */
HEARTH_API hearth_error hearth_log_set_callback(hearth_log_level level, hearth_log_cb callback, void *user_data);

/* ---------------------------------------------------------------------------------------------------
 * App
 * ------------------------------------------------------------------------------------------------- */

/* Where the signed-in session is kept between runs. */
typedef enum hearth_persistence {
  HEARTH_PERSISTENCE_FILE = 0,     /* default: a 0600 JSON file, written atomically */
  HEARTH_PERSISTENCE_NONE = 1,     /* memory only: the session ends with the app */
  HEARTH_PERSISTENCE_CALLBACKS = 2 /* the host's storage callbacks below */
} hearth_persistence;

/* Storage callbacks for HEARTH_PERSISTENCE_CALLBACKS. `key` identifies the app's session (stable across
 * runs for the same app name and API key). `load` runs synchronously on the thread that calls
 * hearth_app_create; it answers with hearth_storage_reply_set() (or not at all when nothing is stored)
 * and returns 0, or non-zero on failure (treated as signed out). `save` and `erase` return 0 on success;
 * they run on the loop thread, except that hearth_auth_sign_out erases on the thread that calls it (so
 * a sign-out is stored before that call returns). Calls never overlap. */
typedef int (*hearth_storage_load_cb)(void *user_data, const char *key, hearth_storage_reply *reply);
typedef int (*hearth_storage_save_cb)(void *user_data, const char *key, const char *data, size_t length);
typedef int (*hearth_storage_erase_cb)(void *user_data, const char *key);

/* Inside a load callback: hands the stored bytes to Hearth (copied). Returns 0 or an error code. */
HEARTH_API hearth_error hearth_storage_reply_set(hearth_storage_reply *reply, const char *data, size_t length);

typedef struct hearth_app_options {
  uint32_t struct_size;          /* sizeof(hearth_app_options); set by hearth_app_options_init */
  const char *api_key;           /* required: the Web API key */
  const char *project_id;        /* optional */
  const char *app_id;            /* optional: sent as X-Firebase-GMPID */
  const char *auth_domain;       /* optional */
  const char *app_name;          /* optional, not "": default "[DEFAULT]" */
  struct uv_loop_s *loop;        /* NULL: Hearth runs its own loop thread */
  hearth_persistence persistence; /* HEARTH_PERSISTENCE_FILE unless set */
  const char *persistence_dir;   /* FILE: directory; NULL = $XDG_DATA_HOME/hearth or ~/.local/share/hearth */
  hearth_storage_load_cb storage_load;   /* CALLBACKS only */
  hearth_storage_save_cb storage_save;   /* CALLBACKS only */
  hearth_storage_erase_cb storage_erase; /* CALLBACKS only */
  void *storage_user_data;
  int64_t request_timeout_ms;    /* per HTTP request; 0 = 30000 */
  const char *ca_bundle_path;    /* optional PEM file of CAs to trust for TLS, besides libcurl's CA
                                    directory (the system store); must be a readable regular file, else
                                    hearth_app_create fails with INVALID_ARGUMENT. NULL: system store only.
                                    Peer and host name verification are always on. */
} hearth_app_options;

/* Fills `options` with defaults and sets struct_size. Always call it first, then set fields. */
HEARTH_API void hearth_app_options_init(hearth_app_options *options);

/* Creates an app and its Auth (the persisted session, if any, is loaded before this returns, so
 * hearth_auth_current_user is right from the first call). On success stores a new app in *out and
 * returns 0; otherwise returns an error code, stores NULL (when `out` is not NULL) and says which
 * option was wrong in hearth_last_error_message. HEARTH_ERROR_INVALID_ARGUMENT: `options` or `out` is
 * NULL; struct_size is smaller than the first hearth_app_options (not initialized with
 * hearth_app_options_init); api_key is NULL or ""; a string option is not valid UTF-8; app_name is "";
 * persistence is not a hearth_persistence value; CALLBACKS without all three storage callbacks;
 * request_timeout_ms is negative or above INT32_MAX; ca_bundle_path is not a readable regular file.
 * HEARTH_ERROR_LOOP_FAILURE: libuv could not set up the loop (or its thread). Destroy with
 * hearth_app_destroy. */
HEARTH_API hearth_error hearth_app_create(const hearth_app_options *options, hearth_app **out);

/* Destroys the app: cancels in-flight requests, ends every registration of the app in the documented
 * order (see "Callbacks and user_data" at the top of this file: pending futures complete with
 * HEARTH_ERROR_CANCELLED and their completion callbacks run, posted functions get
 * HEARTH_ERROR_CANCELLED, release callbacks run), stops the owned loop thread if any, and returns without
 * waiting on the network.
 * - Hearth's own loop, called from another thread: when it returns, every final call has run and no
 *   callback of the app runs any more. Called from a Hearth callback: the final calls run right after
 *   that callback returns.
 * - Host loop: the final calls run during the host's next uv_run, which the host must run before
 *   uv_loop_close anyway (libuv closes handles asynchronously; that turn also frees the app's
 *   connections). After that turn no callback of the app runs.
 * The app handle (and its Auth) is invalid as soon as this is called. Futures, users and credentials
 * obtained from the app stay valid (release them as usual). With Hearth's own loop, its thread frees the
 * connections after this returns, then exits; the process may exit right after this returns (an exit
 * handler waits, up to 2 s, for that thread to finish). May be called from any thread, including from
 * inside a Hearth callback. NULL is a no-op. */
HEARTH_API void hearth_app_destroy(hearth_app *app);

/* The app's name (borrowed). NULL for an invalid handle. */
HEARTH_API const char *hearth_app_name(const hearth_app *app);

/* Host data attached to the app. */
HEARTH_API void hearth_app_set_user_data(hearth_app *app, void *user_data);
HEARTH_API void *hearth_app_get_user_data(const hearth_app *app);

/* A function posted with hearth_app_post: status is HEARTH_ERROR_NONE when it runs in its turn, or
 * HEARTH_ERROR_CANCELLED when the app was destroyed first (then it runs during the destroy; see the top
 * of this file). It is called exactly once either way. */
typedef void (*hearth_post_cb)(void *user_data, hearth_error status);

/* The final call of a registration whose other callbacks run any number of times (listeners, the
 * phone listener, the provider-flow UI delegate): it runs once, on the loop thread, after the last of
 * them, with the user_data given at registration. See "Callbacks and user_data" at the top. */
typedef void (*hearth_release_cb)(void *user_data);

/* Runs `fn(user_data, status)` on the app's loop thread, on a later loop turn (even when called from the
 * loop thread), in the order posted. Returns 0; HEARTH_ERROR_INVALID_HANDLE for an invalid app;
 * HEARTH_ERROR_INVALID_ARGUMENT for a NULL fn; HEARTH_ERROR_APP_DESTROYED when the app's destroy has
 * already ended its registrations. On an error fn never runs. */
HEARTH_API hearth_error hearth_app_post(hearth_app *app, hearth_post_cb fn, void *user_data);

/* 1 if the calling thread is the app's loop thread, else 0. */
HEARTH_API int hearth_app_is_loop_thread(const hearth_app *app);

/* ---------------------------------------------------------------------------------------------------
 * Futures (mirror firebase::Future)
 * ------------------------------------------------------------------------------------------------- */
/* What hearth_future_status() answers (firebase::FutureStatus's values). */
typedef enum hearth_future_state {
  HEARTH_FUTURE_COMPLETE = 0,
  HEARTH_FUTURE_PENDING = 1,
  HEARTH_FUTURE_INVALID = 2
} hearth_future_state;

/* A completion callback: `future` is the reference it was added to, valid until the callback returns
 * (also when the host released it meanwhile). */
typedef void (*hearth_completion_cb)(hearth_future *future, void *user_data);

/* HEARTH_FUTURE_COMPLETE, _PENDING, or _INVALID (NULL / released handle). */
HEARTH_API hearth_future_state hearth_future_status(const hearth_future *future);

/* The error code of a complete future (HEARTH_ERROR_NONE on success and while pending);
 * HEARTH_ERROR_INVALID_HANDLE for NULL or a released handle (a code no operation fails with: the
 * C++ SDK's -1 is HEARTH_ERROR_UNIMPLEMENTED, which an operation may answer). */
HEARTH_API hearth_error hearth_future_error(const hearth_future *future);

/* The error message of a failed future: the server's detail where there is one. Borrowed (lives as long
 * as this future handle); "" on success or while pending; NULL for an invalid future. */
HEARTH_API const char *hearth_future_error_message(const hearth_future *future);

/* Adds a completion callback to this reference. It runs exactly once, on the loop thread, after the
 * operation completes — on a later loop turn if it is already complete — never inside this call; also
 * when the reference is released first (see hearth_future_release), and when the app is destroyed first
 * (the operation then completes with HEARTH_ERROR_CANCELLED). Any number may be added; they run in the
 * order they were added. Returns 0; HEARTH_ERROR_INVALID_HANDLE for NULL or a released future;
 * HEARTH_ERROR_INVALID_ARGUMENT for a NULL callback; HEARTH_ERROR_APP_DESTROYED once the destroy of the
 * future's app has begun. On an error the callback never runs. */
HEARTH_API hearth_error hearth_future_add_callback(hearth_future *future, hearth_completion_cb callback,
                                                   void *user_data);

/* Blocks the calling thread until the future completes or `timeout_ms` passes (< 0 = forever).
 * Returns 0 when complete, HEARTH_ERROR_TIMED_OUT, HEARTH_ERROR_WOULD_DEADLOCK (called on the loop
 * thread of a host loop, or on the owned loop thread: it returns at once), or
 * HEARTH_ERROR_INVALID_HANDLE. */
HEARTH_API hearth_error hearth_future_wait(hearth_future *future, int64_t timeout_ms);

/* Releases this reference. The operation itself goes on; other references (e.g. from
 * hearth_auth_last_result) stay valid. Completion callbacks added to this reference still run when the
 * operation completes: they receive this handle, which stays valid until the last of them returns and
 * is freed then; do not use it anywhere else after this call. NULL is a no-op. */
HEARTH_API void hearth_future_release(hearth_future *future);

/* A new reference to the same operation (same status, error and results). Release with
 * hearth_future_release. NULL for an invalid handle (sets the last error). */
HEARTH_API hearth_future *hearth_future_retain(const hearth_future *future);

/* Typed results. All borrowed (valid as long as this future handle) and NULL when the future is not
 * complete, failed, or of another kind. */
/* sign_in_*_and_retrieve_data, create_user, sign_in_anonymously, sign_in_with_email_and_password,
 * sign_in_with_custom_token: */
HEARTH_API const hearth_auth_result *hearth_future_auth_result(const hearth_future *future);
/* sign_in_with_credential, and any future with an auth result (its user): */
HEARTH_API const hearth_user *hearth_future_user(const hearth_future *future);
/* hearth_user_get_token: the ID token; hearth_auth_verify_password_reset_code: the email address. */
HEARTH_API const char *hearth_future_string(const hearth_future *future);
/* hearth_auth_fetch_providers_for_email: the provider ids. Count is 0 when not available. */
HEARTH_API size_t hearth_future_string_count(const hearth_future *future);
HEARTH_API const char *hearth_future_string_at(const hearth_future *future, size_t index);

/* ---------------------------------------------------------------------------------------------------
 * Credentials
 * ------------------------------------------------------------------------------------------------- */

/* An email/password credential (provider "password"). Returns a new reference; NULL if either argument
 * is NULL or not valid UTF-8 (hearth_last_error_message names it). Release with
 * hearth_credential_release. */
HEARTH_API hearth_credential *hearth_credential_create_email(const char *email, const char *password);

/* Identity-provider credentials. Each returns a new reference (release with hearth_credential_release),
 * or NULL when a required argument is NULL or an argument is not valid UTF-8 (hearth_last_error_message
 * names the argument). Empty tokens are accepted here and refused when the credential is used
 * (HEARTH_ERROR_INVALID_CREDENTIAL). */

/* Google ("google.com"): an ID token and/or an access token (NULL for the one you do not have). */
HEARTH_API hearth_credential *hearth_credential_create_google(const char *id_token, const char *access_token);
/* Facebook ("facebook.com") with a classic access token. */
HEARTH_API hearth_credential *hearth_credential_create_facebook(const char *access_token);
/* Facebook Limited Login: the authentication token (an OIDC ID token) and the raw nonce it was made for. */
HEARTH_API hearth_credential *hearth_credential_create_facebook_limited_login(const char *id_token,
                                                                              const char *raw_nonce);
/* Twitter ("twitter.com"): OAuth 1.0a token and secret. */
HEARTH_API hearth_credential *hearth_credential_create_twitter(const char *token, const char *secret);
/* GitHub ("github.com"): an OAuth access token. */
HEARTH_API hearth_credential *hearth_credential_create_github(const char *token);
/* Play Games ("playgames.google.com"): a server auth code. */
HEARTH_API hearth_credential *hearth_credential_create_play_games(const char *server_auth_code);
/* Any OAuth / OIDC provider ("microsoft.com", "yahoo.com", "oidc.<name>", ...): provider_id required,
 * id_token and/or access_token. */
HEARTH_API hearth_credential *hearth_credential_create_oauth(const char *provider_id, const char *id_token,
                                                             const char *access_token);
/* The same with the RAW nonce the ID token was requested with (the token carries its SHA-256). As the
 * C++ SDK's OAuthProvider::GetCredential(provider_id, id_token, raw_nonce, access_token); for
 * "apple.com" this is Sign in with Apple (access_token: Apple's authorization code, or NULL). */
HEARTH_API hearth_credential *hearth_credential_create_oauth_with_nonce(const char *provider_id, const char *id_token,
                                                                        const char *raw_nonce,
                                                                        const char *access_token);
/* Sign in with Apple ("apple.com"): Apple's ID token, the RAW nonce (Apple got its SHA-256), and
 * optionally the authorization code and the user's name (Apple sends the name only on the first
 * authorization; Firebase stores it). */
HEARTH_API hearth_credential *hearth_credential_create_apple(const char *id_token, const char *raw_nonce,
                                                             const char *authorization_code,
                                                             const char *given_name, const char *family_name);

/* The provider id ("password", "google.com", ...). Borrowed; NULL for an invalid handle. */
HEARTH_API const char *hearth_credential_provider(const hearth_credential *credential);
/* The identity provider's tokens the credential carries (e.g. the access token the server returned in
 * an auth result). Borrowed; "" when absent; NULL for an invalid handle. */
HEARTH_API const char *hearth_credential_id_token(const hearth_credential *credential);
HEARTH_API const char *hearth_credential_access_token(const hearth_credential *credential);
HEARTH_API const char *hearth_credential_secret(const hearth_credential *credential);

/* Nonces for providers that bind an ID token to a request (Apple, Facebook Limited Login, OIDC).
 * Writes a fresh cryptographically random raw nonce (32 characters of [0-9A-Za-z-._], NUL-terminated)
 * to raw_nonce and its SHA-256 as 64 lowercase hex digits to sha256_hex. Send sha256_hex to the
 * provider and raw_nonce to Hearth. Returns 0 or an error code. */
#define HEARTH_NONCE_SIZE 33      /* 32 characters + NUL */
#define HEARTH_SHA256_HEX_SIZE 65 /* 64 hex digits + NUL */
HEARTH_API hearth_error hearth_nonce_generate(char raw_nonce[HEARTH_NONCE_SIZE],
                                              char sha256_hex[HEARTH_SHA256_HEX_SIZE]);
/* SHA-256 of a NUL-terminated string (a raw nonce, or any text) as 64 lowercase hex digits: what to send
 * the provider for a raw nonce. Returns 0 or an error code. */
HEARTH_API hearth_error hearth_nonce_hash(const char *input, char sha256_hex[HEARTH_SHA256_HEX_SIZE]);

/* 1 if the handle is a live credential, else 0. */
HEARTH_API int hearth_credential_is_valid(const hearth_credential *credential);

/* A new reference to the same credential. NULL for an invalid handle (sets the last error). */
HEARTH_API hearth_credential *hearth_credential_retain(const hearth_credential *credential);

/* Releases a credential reference. NULL is a no-op. */
HEARTH_API void hearth_credential_release(hearth_credential *credential);

/* ---------------------------------------------------------------------------------------------------
 * Email actions: sign-in links and the other out-of-band codes
 *
 * Firebase mails links for four purposes: signing in without a password (sign-in links), resetting a
 * password, verifying an address, and changing an address (verify the new one first, or take a changed
 * one back). Each link carries an out-of-band code, its `oobCode` parameter. Without action code
 * settings the link opens Firebase's own action page, which uses the code. With settings, the page
 * continues to the app's URL afterwards; with handle_code_in_app the app receives the code and uses it
 * itself, through the functions below. Codes are secrets: Hearth never logs them.
 *
 * Signing in with a link on a desktop:
 *   1. hearth_auth_send_sign_in_link_to_email(auth, email, &settings), where settings.url is a URL that
 *      reaches the app and settings.handle_code_in_app is 1. In production Firebase takes only URLs on
 *      the project's authorized domains: a web page of the app's, which passes the link on to the app's
 *      custom URL scheme (same query) or shows it to copy; the emulator also takes the custom-scheme URL
 *      itself ("com.example.game:/finishSignIn"). Keep `email` until the link comes back (with the
 *      app's saved data): Firebase asks apps to, so that a link opened by someone else signs nobody
 *      in, and step 3 needs it.
 *   2. The user opens the link from the mail. The action page (Firebase Hosting's, or the emulator's
 *      /emulator/action) sends the browser on to settings.url with the link's parameters (mode=signIn,
 *      oobCode, apiKey, lang, ...); for a custom scheme the OS hands that URL to the app (on its
 *      command line, or to the running instance). Or the user copies the link and pastes it.
 *   3. The app offers every URL it is opened with to hearth_auth_handle_url first, which takes only the
 *      redirect of a pending provider flow and never an email link (it answers 0 for those), then asks
 *      hearth_auth_is_sign_in_with_email_link and signs in with
 *      hearth_auth_sign_in_with_email_link(auth, kept_email, url). A link opened on another device
 *      comes without a kept email: ask the user for it. Forget the kept email once signed in.
 * The same link gives a credential (hearth_credential_create_email_link) that links the address to the
 * signed-in user (hearth_user_link_with_credential, e.g. to keep an anonymous user's data) or
 * reauthenticates it (hearth_user_reauthenticate).
 *
 * The other codes reach the app the same way when it handles them itself: read the code from the
 * link's oobCode parameter, then hearth_auth_check_action_code (what is it for?),
 * hearth_auth_apply_action_code (verify the address, change it, take it back), or
 * hearth_auth_verify_password_reset_code and hearth_auth_confirm_password_reset (reset a password).
 * ------------------------------------------------------------------------------------------------- */

/* Where an action link leads and which apps may open it (Firebase's ActionCodeSettings). NULL strings
 * are left out of the request. Checked before any request, as Firebase's SDKs check them: the operation's
 * future fails with INVALID_ARGUMENT for a struct_size too small for `url` (not initialized with
 * hearth_action_code_settings_init) or a string that is not valid UTF-8; INVALID_CONTINUE_URI for a
 * NULL or "" url; INVALID_LINK_DOMAIN for a "" link_domain or dynamic_link_domain; MISSING_IOS_BUNDLE_ID
 * for a "" ios_bundle_id; INVALID_ARGUMENT for Android settings without android_package_name. The
 * server then answers INVALID_CONTINUE_URI, UNAUTHORIZED_DOMAIN (the continue URL's domain is not
 * authorized in the project), INVALID_LINK_DOMAIN, ... */
typedef struct hearth_action_code_settings {
  uint32_t struct_size;                /* set by hearth_action_code_settings_init */
  const char *url;                     /* required: the continue URL (continueUrl): where the action page
                                          sends the browser afterwards; for a sign-in link, the URL the
                                          link is handed to, with the link's parameters added */
  int handle_code_in_app;              /* 1: the app completes the action itself (canHandleCodeInApp);
                                          required for sign-in links. Default 0 */
  const char *ios_bundle_id;           /* the iOS app that may open the link; NULL: none */
  const char *android_package_name;    /* the Android app that may open the link; NULL: none */
  int android_install_app;             /* 1: offer to install the Android app where it is missing */
  const char *android_minimum_version; /* the lowest Android app version that may open it; NULL: any */
  const char *link_domain;             /* the Firebase Hosting domain of the link; NULL: the project's
                                          default */
  const char *dynamic_link_domain;     /* deprecated with Firebase Dynamic Links: the Dynamic Links
                                          domain; NULL: none */
} hearth_action_code_settings;

/* Fills `settings` with defaults (every string NULL, every flag 0) and sets struct_size. Always call
 * it first, then set fields. */
HEARTH_API void hearth_action_code_settings_init(hearth_action_code_settings *settings);

/* Mails `email` a link that signs in to its account (Firebase creates the account on first use).
 * `settings` is required, with url and handle_code_in_app set (INVALID_ARGUMENT otherwise, as in
 * Firebase). Result: none. Errors: MISSING_EMAIL (""), INVALID_EMAIL, OPERATION_NOT_ALLOWED (email-link
 * sign-in is disabled in the project), and those of the settings (see hearth_action_code_settings). */
HEARTH_API hearth_future *hearth_auth_send_sign_in_link_to_email(hearth_auth *auth, const char *email,
                                                                  const hearth_action_code_settings *settings);

/* 1 if `link` is an email sign-in link, else 0 (Firebase's isSignInWithEmailLink): its query carries
 * mode=signIn, an oobCode and an apiKey; a link that wraps the action link in its `link` or
 * `deep_link_id` parameter (Firebase Dynamic Links, Firebase Hosting links, iOS custom-scheme hand-offs)
 * counts too, and whitespace around a pasted link is ignored. 0 also for a NULL or invalid UTF-8 link
 * and an invalid auth. Answers from the text alone; it never sets the last error. */
HEARTH_API int hearth_auth_is_sign_in_with_email_link(hearth_auth *auth, const char *link);

/* Signs in with the address a sign-in link was sent to and the link (as received, or pasted). The
 * account of the address signs in, or is created (hearth_auth_result_is_new_user); its email is then
 * verified. Result: auth result (provider "password", as in Firebase). Errors: INVALID_ARGUMENT (not an
 * email action link), MISSING_EMAIL (""), INVALID_EMAIL (not the address the link was sent to),
 * INVALID_ACTION_CODE (used, unknown, or not a sign-in code), EXPIRED_ACTION_CODE, USER_DISABLED,
 * OPERATION_NOT_ALLOWED, SECOND_FACTOR_REQUIRED (with a resolver, see multi-factor), TENANT_ID_MISMATCH
 * (the link names another tenant, its tenantId, than hearth_auth_tenant_id: refused before any request,
 * as Firebase's signInWithEmailLink does). */
HEARTH_API hearth_future *hearth_auth_sign_in_with_email_link(hearth_auth *auth, const char *email,
                                                               const char *link);

/* A credential from a sign-in link (Firebase's EmailAuthProvider.credentialWithLink): provider
 * "password". Sign in (hearth_auth_sign_in_with_credential, ..._and_retrieve_data_...), link it to the
 * signed-in user (hearth_user_link_with_credential: PROVIDER_ALREADY_LINKED when the user has an email
 * provider already, EMAIL_ALREADY_IN_USE when the address belongs to another account) or reauthenticate
 * (hearth_user_reauthenticate: USER_MISMATCH when the address is another account's); errors otherwise
 * as for hearth_auth_sign_in_with_email_link. The code is used up by the first of these that reaches the
 * server. Returns a new reference; NULL when an argument is NULL or not valid UTF-8, or `link` is not
 * an email action link (sets the last error: INVALID_ARGUMENT). An empty email is refused when the
 * credential is used (MISSING_EMAIL). */
HEARTH_API hearth_credential *hearth_credential_create_email_link(const char *email, const char *link);

/* Uses a code that verifies an address, changes it to the one a verify-before-update link names, or
 * takes a changed address back (Firebase's applyActionCode); no user need be signed in. A signed-in
 * user's snapshot shows the change after hearth_user_reload. Result: none. Errors: INVALID_ACTION_CODE ("", used, unknown, or a code of another
 * kind), EXPIRED_ACTION_CODE, USER_DISABLED, EMAIL_ALREADY_IN_USE (the address went to another account
 * meanwhile). */
HEARTH_API hearth_future *hearth_auth_apply_action_code(hearth_auth *auth, const char *code);

/* What an out-of-band code does (Firebase's ActionCodeOperation; the values of its iOS SDK). */
typedef enum hearth_action_code_operation {
  HEARTH_ACTION_CODE_OPERATION_UNKNOWN = 0,
  HEARTH_ACTION_CODE_OPERATION_PASSWORD_RESET = 1,
  HEARTH_ACTION_CODE_OPERATION_VERIFY_EMAIL = 2,
  HEARTH_ACTION_CODE_OPERATION_RECOVER_EMAIL = 3,
  HEARTH_ACTION_CODE_OPERATION_EMAIL_SIGN_IN = 4,
  HEARTH_ACTION_CODE_OPERATION_VERIFY_AND_CHANGE_EMAIL = 5,
  HEARTH_ACTION_CODE_OPERATION_REVERT_SECOND_FACTOR_ADDITION = 6
} hearth_action_code_operation;

/* Tells what a code is for and which addresses it concerns, without using it (Firebase's
 * checkActionCode). Result: hearth_future_action_code_info. Errors: INVALID_ACTION_CODE ("", used or
 * unknown), EXPIRED_ACTION_CODE, OPERATION_NOT_ALLOWED (password sign-in disabled in the project). */
HEARTH_API hearth_future *hearth_auth_check_action_code(hearth_auth *auth, const char *code);
/* The answer of a completed hearth_auth_check_action_code (Firebase's ActionCodeInfo). Borrowed (valid as
 * long as this future handle); NULL otherwise. */
HEARTH_API const hearth_action_code_info *hearth_future_action_code_info(const hearth_future *future);
/* HEARTH_ACTION_CODE_OPERATION_UNKNOWN for an invalid handle (or a kind of code Hearth does not know). */
HEARTH_API hearth_action_code_operation hearth_action_code_info_operation(const hearth_action_code_info *info);
/* The account's address; for a verify-before-update code the new address. "" when the server does
 * not say (a sign-in code does not reveal its address). Borrowed; NULL for an invalid handle. */
HEARTH_API const char *hearth_action_code_info_email(const hearth_action_code_info *info);
/* For a verify-before-update code the address being replaced; for a recover-email code the address the
 * account had changed to. "" otherwise. Borrowed; NULL for an invalid handle. */
HEARTH_API const char *hearth_action_code_info_previous_email(const hearth_action_code_info *info);

/* The address a password reset code was sent to, without using the code (Firebase's
 * verifyPasswordResetCode). Result: hearth_future_string. Errors as for hearth_auth_check_action_code. */
HEARTH_API hearth_future *hearth_auth_verify_password_reset_code(hearth_auth *auth, const char *code);

/* Sets the password of the account a password reset code was sent to, and uses the code up (Firebase's
 * confirmPasswordReset). The account's email counts as verified from then on. Result: none. Errors: INVALID_ACTION_CODE ("", used, unknown, or not a password reset code),
 * EXPIRED_ACTION_CODE, MISSING_PASSWORD (""), WEAK_PASSWORD, USER_DISABLED, OPERATION_NOT_ALLOWED. */
HEARTH_API hearth_future *hearth_auth_confirm_password_reset(hearth_auth *auth, const char *code,
                                                             const char *new_password);

/* ---------------------------------------------------------------------------------------------------
 * Auth
 * ------------------------------------------------------------------------------------------------- */

/* The app's Auth. Borrowed: lives as long as the app. NULL for an invalid app. */
HEARTH_API hearth_auth *hearth_auth_get(hearth_app *app);

/* The app that owns this Auth (borrowed). */
HEARTH_API hearth_app *hearth_auth_app(hearth_auth *auth);

/* Routes every endpoint (Identity Toolkit v1/v2 and Secure Token) to the emulator at
 * http://host:port/<production host>/<path>. The FIREBASE_AUTH_EMULATOR_HOST environment variable
 * ("host:port") does the same when the app is created. Returns 0 or an error code. */
HEARTH_API hearth_error hearth_auth_use_emulator(hearth_auth *auth, const char *host, uint16_t port);

/* Sets the language code sent as X-Firebase-Locale (localizes emails and SMS); NULL or "" clears it.
 * Returns 0 or an error code. */
HEARTH_API hearth_error hearth_auth_set_language_code(hearth_auth *auth, const char *language_code);

/* The language code, as a new string the caller frees with hearth_free; NULL when none is set. */
HEARTH_API char *hearth_auth_language_code(hearth_auth *auth);

/* The signed-in user as a new snapshot reference (release with hearth_user_release), or NULL when
 * signed out. */
HEARTH_API hearth_user *hearth_auth_current_user(hearth_auth *auth);

/* Signs the current user out (listeners are told on the loop thread) and erases the persisted session.
 * Synchronous. Returns 0 or an error code. */
HEARTH_API hearth_error hearth_auth_sign_out(hearth_auth *auth);

/* Operations. Each returns a new future reference (release with hearth_future_release), never NULL
 * except for an invalid auth handle (which sets the last error); bad arguments give a future failed
 * with HEARTH_ERROR_INVALID_ARGUMENT (or the C++ SDK's code, e.g. MISSING_EMAIL). */

/* Signs in a new anonymous user; completes with the current user if it is already anonymous.
 * Result: hearth_future_auth_result. */
HEARTH_API hearth_future *hearth_auth_sign_in_anonymously(hearth_auth *auth);
/* Creates an email/password user and signs it in. Result: auth result. */
HEARTH_API hearth_future *hearth_auth_create_user_with_email_and_password(hearth_auth *auth,
                                                                          const char *email,
                                                                          const char *password);
/* Result: auth result. */
HEARTH_API hearth_future *hearth_auth_sign_in_with_email_and_password(hearth_auth *auth,
                                                                      const char *email,
                                                                      const char *password);
/* Result: auth result. */
HEARTH_API hearth_future *hearth_auth_sign_in_with_custom_token(hearth_auth *auth, const char *token);
/* Result: hearth_future_user. */
HEARTH_API hearth_future *hearth_auth_sign_in_with_credential(hearth_auth *auth,
                                                              const hearth_credential *credential);
/* Result: auth result. */
HEARTH_API hearth_future *hearth_auth_sign_in_and_retrieve_data_with_credential(
    hearth_auth *auth, const hearth_credential *credential);
/* Mails a password reset link to `email`. `settings` (NULL: none) makes the action page continue to
 * the app, or hands the code to the app (see "Email actions"). Result: none. Errors: MISSING_EMAIL (""),
 * INVALID_EMAIL, USER_NOT_FOUND (not under email enumeration protection, which answers success), and
 * those of the settings. */
HEARTH_API hearth_future *hearth_auth_send_password_reset_email(hearth_auth *auth, const char *email,
                                                                const hearth_action_code_settings *settings);
/* Result: hearth_future_string_count / _string_at (sign-in methods; empty when the project has email
 * enumeration protection). */
HEARTH_API hearth_future *hearth_auth_fetch_providers_for_email(hearth_auth *auth, const char *email);

/* The operations that remember their most recent future, for hearth_auth_last_result (the C++ SDK's
 * *LastResult). Each is named after its function: HEARTH_OP_ and the function's name without
 * "hearth_", in capitals. */
typedef enum hearth_operation {
  HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY = 0,
  HEARTH_OP_AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD = 1,
  HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD = 2,
  HEARTH_OP_AUTH_SIGN_IN_WITH_CUSTOM_TOKEN = 3,
  HEARTH_OP_AUTH_SIGN_IN_WITH_CREDENTIAL = 4,
  HEARTH_OP_AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL = 5,
  HEARTH_OP_AUTH_SEND_PASSWORD_RESET_EMAIL = 6,
  HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL = 7,
  HEARTH_OP_USER_GET_TOKEN = 8,
  HEARTH_OP_USER_RELOAD = 9,
  HEARTH_OP_USER_UPDATE_USER_PROFILE = 10,
  HEARTH_OP_USER_UPDATE_PASSWORD = 11,
  HEARTH_OP_USER_SEND_EMAIL_VERIFICATION = 12,
  HEARTH_OP_USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL = 13,
  HEARTH_OP_USER_DELETE = 14,
  HEARTH_OP_USER_LINK_WITH_CREDENTIAL = 15,
  HEARTH_OP_USER_UNLINK = 16,
  HEARTH_OP_USER_REAUTHENTICATE = 17,
  HEARTH_OP_USER_REAUTHENTICATE_AND_RETRIEVE_DATA = 18,
  HEARTH_OP_AUTH_SIGN_IN_WITH_PROVIDER = 19,
  HEARTH_OP_USER_LINK_WITH_PROVIDER = 20,
  HEARTH_OP_USER_REAUTHENTICATE_WITH_PROVIDER = 21,
  HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER = 22, /* the future form; the listener form keeps no future */
  HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL = 23,
  HEARTH_OP_USER_MULTI_FACTOR_GET_SESSION = 24,
  HEARTH_OP_USER_MULTI_FACTOR_ENROLL = 25,
  HEARTH_OP_USER_MULTI_FACTOR_UNENROLL = 26,
  HEARTH_OP_TOTP_SECRET_GENERATE = 27,
  HEARTH_OP_MULTI_FACTOR_RESOLVER_RESOLVE_SIGN_IN = 28,
  HEARTH_OP_AUTH_GET_CREDENTIAL_WITH_PROVIDER = 29,
  HEARTH_OP_USER_UPDATE_EMAIL = 30,
  HEARTH_OP_AUTH_SEND_SIGN_IN_LINK_TO_EMAIL = 31,
  HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_LINK = 32,
  HEARTH_OP_AUTH_APPLY_ACTION_CODE = 33,
  HEARTH_OP_AUTH_CHECK_ACTION_CODE = 34,
  HEARTH_OP_AUTH_VERIFY_PASSWORD_RESET_CODE = 35,
  HEARTH_OP_AUTH_CONFIRM_PASSWORD_RESET = 36,
  HEARTH_OP_AUTH_UPDATE_CURRENT_USER = 37
} hearth_operation;

/* The most recent future of `operation` on this Auth (user operations count for the Auth of their
 * user), as a new reference; NULL when it never ran. NULL also for an
 * invalid auth handle or an operation outside hearth_operation, which set the last error
 * (HEARTH_ERROR_INVALID_HANDLE, HEARTH_ERROR_INVALID_ARGUMENT). */
HEARTH_API hearth_future *hearth_auth_last_result(hearth_auth *auth, hearth_operation operation);

/* Listeners. Called on the loop thread; an auth-state listener when the signed-in uid changes, an
 * ID-token listener when the ID token changes (both also once, on the next loop turn, after they are
 * added). add returns a listener id > 0, or 0 on error (which sets the last error: a NULL callback,
 * an invalid auth, or HEARTH_ERROR_APP_DESTROYED once the app's destroy has begun; then neither
 * callback runs). `release` (NULL: none) runs once after the listener's last call: after remove, or
 * when the app is destroyed with the listener still added. After remove returns, the listener is never
 * called again (unless remove runs inside another callback on the loop thread, where that holds at once
 * too); its release follows on a later loop turn. */
typedef void (*hearth_auth_state_cb)(hearth_auth *auth, void *user_data);
typedef void (*hearth_id_token_cb)(hearth_auth *auth, void *user_data);
HEARTH_API uint64_t hearth_auth_add_auth_state_listener(hearth_auth *auth, hearth_auth_state_cb callback,
                                                        hearth_release_cb release, void *user_data);
HEARTH_API hearth_error hearth_auth_remove_auth_state_listener(hearth_auth *auth, uint64_t listener_id);
HEARTH_API uint64_t hearth_auth_add_id_token_listener(hearth_auth *auth, hearth_id_token_cb callback,
                                                      hearth_release_cb release, void *user_data);
HEARTH_API hearth_error hearth_auth_remove_id_token_listener(hearth_auth *auth, uint64_t listener_id);

/* ---------------------------------------------------------------------------------------------------
 * Tenants (Identity Platform multi-tenancy; Firebase's Auth.tenantId)
 *
 * A project with Identity Platform can keep its users in tenants: each tenant has users of its own
 * (the same email may sign up in several, as different users) and settings of its own (which sign-in
 * methods it allows). An Auth with a tenant id signs users in to that tenant: sign-up, every sign-in,
 * the email actions, hearth_auth_fetch_providers_for_email, phone codes and second factors name it, as
 * Firebase's SDKs send them; operations on a signed-in user act in the user's own tenant (its ID token
 * says which). A user belongs to one tenant (hearth_user_tenant_id): a sign-in that yields a user of
 * another tenant than the Auth's, or hearth_auth_update_current_user with one, fails with
 * HEARTH_ERROR_TENANT_ID_MISMATCH and the current user stays. The server answers TENANT_ID_MISMATCH
 * (HEARTH_ERROR_TENANT_ID_MISMATCH) when a request names a tenant its user is not in,
 * INVALID_TENANT_ID (HEARTH_ERROR_INVALID_TENANT_ID) for a tenant the project does not have, and
 * UNSUPPORTED_TENANT_OPERATION (HEARTH_ERROR_UNSUPPORTED_TENANT_OPERATION) for what tenants do not
 * offer (phone-number sign-in); a sign-in method a tenant has turned off fails as it does for a project
 * (HEARTH_ERROR_OPERATION_NOT_ALLOWED, or HEARTH_ERROR_ADMIN_RESTRICTED_OPERATION for anonymous users).
 * A persisted session remembers its user's tenant: when the app is created with one, the Auth's tenant
 * id is that tenant (as in Firebase's Apple SDK).
 * ------------------------------------------------------------------------------------------------- */

/* Sets the tenant users sign in to from now on (copied); NULL: none, the project's own users (the
 * default). Requests sent afterwards name it. Set it while no sign-in is running: a sign-in must end
 * with a user of the Auth's tenant as it is when the sign-in completes, so one that started before a
 * change fails with HEARTH_ERROR_TENANT_ID_MISMATCH. The signed-in user stays signed in (a user of
 * another tenant then fails the operations that name the tenant with HEARTH_ERROR_TENANT_ID_MISMATCH).
 * Returns 0; HEARTH_ERROR_INVALID_HANDLE for an invalid auth;
 * HEARTH_ERROR_INVALID_ARGUMENT for "" (no tenant is NULL) or a tenant id that is not valid UTF-8 (the
 * tenant id stays as it was). The server decides whether a tenant exists (HEARTH_ERROR_INVALID_TENANT_ID
 * when a request names one the project does not have). */
HEARTH_API hearth_error hearth_auth_set_tenant_id(hearth_auth *auth, const char *tenant_id);

/* The tenant id, as a new string the caller frees with hearth_free; NULL when the Auth has none (the
 * project's own users), and for an invalid auth. */
HEARTH_API char *hearth_auth_tenant_id(hearth_auth *auth);

/* Makes `user`, signed in to another Auth of the same project (an app with the same API key), this
 * Auth's current user too (Firebase's updateCurrentUser): it takes over the user's session (its tokens),
 * persists it and tells the listeners; the other Auth keeps the user. Result: none. Errors:
 * HEARTH_ERROR_TENANT_ID_MISMATCH (the user's tenant is not this Auth's tenant id),
 * HEARTH_ERROR_INVALID_USER_TOKEN (the user's app has another API key), HEARTH_ERROR_NO_SIGNED_IN_USER
 * (the user is no longer signed in to its own Auth: a snapshot holds no tokens); on an error the
 * current user stays. The current user itself changes nothing. A NULL user fails the future with
 * HEARTH_ERROR_INVALID_ARGUMENT, a released one with HEARTH_ERROR_INVALID_HANDLE. NULL only for an
 * invalid auth (sets the last error). */
HEARTH_API hearth_future *hearth_auth_update_current_user(hearth_auth *auth, const hearth_user *user);

/* ---------------------------------------------------------------------------------------------------
 * Provider sign-in on a desktop (Twitter, Microsoft, Apple, Google, GitHub, Yahoo, any OIDC provider)
 *
 * Hearth opens the provider's page through the host's UI delegate (system browser, in-engine web
 * view) and receives the redirect either on a one-shot loopback receiver on 127.0.0.1 (RFC 8252; the
 * default) or through hearth_auth_handle_url for hosts that registered a custom URL scheme. Against
 * the emulator the page is its fake identity provider; in production Hearth asks Firebase
 * (accounts:createAuthUri) for the provider's page and completes with accounts:signInWithIdp.
 * ------------------------------------------------------------------------------------------------- */

/* A provider to sign in with: "microsoft.com", "apple.com", "twitter.com", "oidc.example", ...
 * Returns a new reference (release with hearth_oauth_provider_release); NULL when provider_id is NULL
 * or not valid UTF-8 (sets the last error). An unknown provider fails when used
 * (HEARTH_ERROR_INVALID_PROVIDER_ID). */
HEARTH_API hearth_oauth_provider *hearth_oauth_provider_create(const char *provider_id);
HEARTH_API void hearth_oauth_provider_release(hearth_oauth_provider *provider);
/* The provider id (borrowed). */
HEARTH_API const char *hearth_oauth_provider_id(const hearth_oauth_provider *provider);
/* Adds an OAuth scope ("email", "mail.read", ...). Returns 0 or an error code. */
HEARTH_API hearth_error hearth_oauth_provider_add_scope(hearth_oauth_provider *provider, const char *scope);
/* Sets a custom parameter passed to the provider (Microsoft "tenant", "prompt", "login_hint"; Twitter
 * "lang"; Apple "locale"; ...). Parameters Firebase sets itself (client_id, redirect_uri,
 * response_type, scope, state, response_mode) are refused with HEARTH_ERROR_INVALID_ARGUMENT. Returns 0
 * or an error code. */
HEARTH_API hearth_error hearth_oauth_provider_set_custom_parameter(hearth_oauth_provider *provider, const char *key,
                                                                   const char *value);

/* Shows `url` to the user (open the system browser, an in-engine web view, ...). Runs on the loop
 * thread. Return 0 when the URL is being shown; non-zero fails the flow with
 * HEARTH_ERROR_WEB_CONTEXT_CANCELLED. */
typedef int (*hearth_open_url_cb)(void *user_data, const char *url);

typedef struct hearth_provider_flow_options {
  uint32_t struct_size;          /* set by hearth_provider_flow_options_init */
  hearth_open_url_cb open_url;   /* required */
  void *user_data;               /* passed to open_url and release */
  const char *redirect_uri;      /* NULL: Hearth's loopback receiver. Else a URI of a custom scheme the
                                    host registered (e.g. "com.example.game:/oauth"); the host hands every
                                    URL it is opened with to hearth_auth_handle_url. */
  uint16_t loopback_port;        /* loopback receiver port; 0 = a random free port */
  int64_t timeout_ms;            /* the whole flow; 0 = 5 minutes */
  int use_create_auth_uri;       /* 1: always take the production path (accounts:createAuthUri, the
                                    provider's page), also against the emulator, whose createAuthUri
                                    serves a fake consent page; 0: the emulator's own handler page when
                                    using the emulator */
  hearth_release_cb release;     /* optional: called with user_data once Hearth no longer uses this UI
                                    delegate — a later hearth_auth_set_provider_flow_options replaced it
                                    and no flow started with it still has a page to show, or the app was
                                    destroyed */
} hearth_provider_flow_options;

HEARTH_API void hearth_provider_flow_options_init(hearth_provider_flow_options *options);
/* Sets the UI delegate and redirect target for provider flows (copied); flows already started keep the
 * delegate they started with until they have shown their page. Returns 0 or an error code (then
 * `release` never runs). */
HEARTH_API hearth_error hearth_auth_set_provider_flow_options(hearth_auth *auth,
                                                              const hearth_provider_flow_options *options);

/* Signs in through the provider's page. Result: auth result (with the provider's credential). One
 * provider flow at a time per auth: a second fails with HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED.
 * hearth_auth_cancel_provider_flow, the timeout, the user cancelling on the provider's page, or the UI
 * delegate refusing the URL complete the future with HEARTH_ERROR_WEB_CONTEXT_CANCELLED; destroying the
 * app completes it with HEARTH_ERROR_CANCELLED, like every pending operation. Without flow options:
 * HEARTH_ERROR_INVALID_ARGUMENT. */
HEARTH_API hearth_future *hearth_auth_sign_in_with_provider(hearth_auth *auth,
                                                            const hearth_oauth_provider *provider);
/* Runs the provider's page and hands back the credential it yields, without signing anybody in (the
 * Apple SDK's getCredentialWith): sign in, link or reauthenticate with it afterwards
 * (hearth_auth_sign_in_and_retrieve_data_with_credential, hearth_user_link_with_credential,
 * hearth_user_reauthenticate_and_retrieve_data, ...), as with any credential. Result:
 * hearth_future_credential; its provider is the provider's id, and it carries the provider's answer
 * (which Firebase verifies when the credential is used), not its tokens. Errors and limits as for
 * hearth_auth_sign_in_with_provider: one provider flow at a time (WEB_CONTEXT_ALREADY_PRESENTED),
 * WEB_CONTEXT_CANCELLED for a cancel, the timeout, the user cancelling or the UI delegate refusing,
 * INVALID_PROVIDER_ID, INVALID_ARGUMENT without flow options, CANCELLED when the app is destroyed.
 * NULL for an invalid auth (sets the last error). */
HEARTH_API hearth_future *hearth_auth_get_credential_with_provider(hearth_auth *auth,
                                                                   const hearth_oauth_provider *provider);
/* The credential of a completed hearth_auth_get_credential_with_provider. Borrowed (valid as long as
 * this future handle; hearth_credential_retain keeps it longer); NULL otherwise. */
HEARTH_API const hearth_credential *hearth_future_credential(const hearth_future *future);
/* Links the provider to the user through its page. Result: auth result; errors as for
 * hearth_user_link_with_credential. */
HEARTH_API hearth_future *hearth_user_link_with_provider(const hearth_user *user,
                                                         const hearth_oauth_provider *provider);
/* Reauthenticates the user through the provider's page. Result: auth result; USER_MISMATCH when
 * another account signs in. */
HEARTH_API hearth_future *hearth_user_reauthenticate_with_provider(const hearth_user *user,
                                                                   const hearth_oauth_provider *provider);
/* For hosts with a custom URL scheme: offers a URL the host was opened with. Returns 1 when it was the
 * redirect of the pending provider flow (Hearth consumed it), else 0 (not ours: handle it yourself).
 * An email sign-in link is never a provider flow's redirect, also when it arrives on the flow's
 * scheme and path: it answers 0 and leaves any pending flow alone; complete it with
 * hearth_auth_sign_in_with_email_link (see "Email actions"). */
HEARTH_API int hearth_auth_handle_url(hearth_auth *auth, const char *url);
/* Cancels the pending provider flow, if any (its future fails with WEB_CONTEXT_CANCELLED). Returns 0. */
HEARTH_API hearth_error hearth_auth_cancel_provider_flow(hearth_auth *auth);


/* ---------------------------------------------------------------------------------------------------
 * Phone number sign-in
 *
 * 1. hearth_auth_verify_phone_number (or the listener form) sends an SMS code and yields a verification id.
 * 2. The user types the code: hearth_credential_create_phone(verification_id, code).
 * 3. Sign in, link, reauthenticate or update the phone number with that credential.
 * App verification: Firebase wants proof that a real app asks (reCAPTCHA on a desktop). Hearth runs the
 * reCAPTCHA page through the provider-flow UI delegate (hearth_auth_set_provider_flow_options) and
 * sends the token. With app verification disabled for testing (the default against the emulator, as
 * in Firebase's SDKs), no reCAPTCHA is shown; Firebase then accepts only its fictional test numbers.
 * ------------------------------------------------------------------------------------------------- */

typedef struct hearth_phone_auth_options {
  uint32_t struct_size;            /* set by hearth_phone_auth_options_init */
  const char *phone_number;        /* E.164 ("+16505554567"); spaces, dashes and parentheses are ignored.
                                      Not needed to sign in with a second factor (multi_factor_hint). */
  int64_t timeout_ms;              /* 0 = 60000: while a code sent to this number is this fresh, verifying
                                      it again sends no new SMS and yields the same verification id */
  const char *force_resending_token; /* from an earlier verification of the number: send a new SMS now */
  const hearth_multi_factor_session *multi_factor_session; /* enrolling (with phone_number) or signing in
                                                              with a second factor (with multi_factor_hint) */
  const hearth_multi_factor_info *multi_factor_hint;       /* signing in: which enrolled phone to text */
} hearth_phone_auth_options;

HEARTH_API void hearth_phone_auth_options_init(hearth_phone_auth_options *options);

/* Sends a verification code. Result: hearth_future_string is the verification id (store it: it stays
 * valid if the app is killed while the user reads the SMS) and hearth_future_phone_resend_token the
 * token that forces a new SMS. Errors: INVALID_PHONE_NUMBER / MISSING_PHONE_NUMBER (checked before any
 * request), TOO_MANY_REQUESTS, QUOTA_EXCEEDED, CAPTCHA_CHECK_FAILED, MISSING_APP_CREDENTIAL,
 * WEB_CONTEXT_CANCELLED (the reCAPTCHA page was cancelled). */
HEARTH_API hearth_future *hearth_auth_verify_phone_number(hearth_auth *auth, const hearth_phone_auth_options *options);
/* The force-resending token of a completed verification (borrowed); NULL otherwise. */
HEARTH_API const char *hearth_future_phone_resend_token(const hearth_future *future);

/* The C++ SDK's PhoneAuthProvider::Listener, as C callbacks (all on the loop thread; user_data passed
 * through). Exactly one of on_code_sent / on_verification_failed runs; on_code_auto_retrieval_timeout
 * runs when timeout_ms has passed after a code was sent (a desktop never reads SMS itself). `release`
 * runs once after the last of them (after on_verification_failed or on_code_auto_retrieval_timeout), or
 * when the app is destroyed first: a verification still pending then ends with on_verification_failed
 * (HEARTH_ERROR_CANCELLED) before it, a timeout still to come is dropped. Every callback may be NULL. */
typedef struct hearth_phone_listener {
  uint32_t struct_size; /* sizeof(hearth_phone_listener) */
  void (*on_code_sent)(void *user_data, const char *verification_id, const char *force_resending_token);
  void (*on_verification_failed)(void *user_data, hearth_error error, const char *message);
  void (*on_code_auto_retrieval_timeout)(void *user_data, const char *verification_id);
  void *user_data;
  hearth_release_cb release; /* added after the first version: a struct_size without it means none */
} hearth_phone_listener;
/* The listener form of hearth_auth_verify_phone_number. Returns 0 or an error code (then no callback
 * runs, release included): HEARTH_ERROR_INVALID_ARGUMENT for a NULL listener, a struct_size smaller than
 * the first hearth_phone_listener, or bad options; HEARTH_ERROR_APP_DESTROYED once the app's destroy has
 * begun. */
HEARTH_API hearth_error hearth_auth_verify_phone_number_with_listener(hearth_auth *auth,
                                                                     const hearth_phone_auth_options *options,
                                                                     const hearth_phone_listener *listener);

/* A phone credential (provider "phone") from a verification id and the code the user typed. New
 * reference; NULL when an argument is NULL or not valid UTF-8 (sets the last error). */
HEARTH_API hearth_credential *hearth_credential_create_phone(const char *verification_id, const char *code);

/* Replaces the user's phone number with the one the credential proves. Result: hearth_future_user.
 * A number of another account fails with CREDENTIAL_ALREADY_IN_USE (with an updated credential). */
HEARTH_API hearth_future *hearth_user_update_phone_number_credential(const hearth_user *user,
                                                                     const hearth_credential *credential);

/* 1: send no app verification (Firebase then accepts only its fictional test numbers); 0: run the
 * reCAPTCHA flow. Default: 1 against the emulator, else 0. Returns 0 or an error code. */
HEARTH_API hearth_error hearth_auth_set_app_verification_disabled_for_testing(hearth_auth *auth, int disabled);

/* ---------------------------------------------------------------------------------------------------
 * Multi-factor authentication (SMS and TOTP second factors)
 * ------------------------------------------------------------------------------------------------- */

/* A sign-in that needs a second factor fails with HEARTH_ERROR_SECOND_FACTOR_REQUIRED; its resolver
 * (borrowed from the future) lists the user's factors and finishes the sign-in. NULL otherwise. */
HEARTH_API const hearth_multi_factor_resolver *hearth_future_multi_factor_resolver(const hearth_future *future);
HEARTH_API size_t hearth_multi_factor_resolver_hint_count(const hearth_multi_factor_resolver *resolver);
HEARTH_API const hearth_multi_factor_info *hearth_multi_factor_resolver_hint_at(
    const hearth_multi_factor_resolver *resolver, size_t index);
/* The session to verify a phone hint with (hearth_phone_auth_options.multi_factor_session). Borrowed. */
HEARTH_API const hearth_multi_factor_session *hearth_multi_factor_resolver_session(
    const hearth_multi_factor_resolver *resolver);
/* Finishes the sign-in with a proven second factor. Result: auth result; auth-state listeners are told
 * once. Errors: INVALID_VERIFICATION_CODE, SESSION_EXPIRED, INVALID_MULTI_FACTOR_SESSION,
 * MULTI_FACTOR_INFO_NOT_FOUND, ... NULL for an invalid resolver, or when its app is gone (sets the last
 * error). */
HEARTH_API hearth_future *hearth_multi_factor_resolver_resolve_sign_in(const hearth_multi_factor_resolver *resolver,
                                                                       const hearth_multi_factor_assertion *assertion);

/* One second factor (borrowed). factor_id: "phone" or "totp"; uid: the enrollment id; phone number:
 * masked ("+*******4567") in sign-in hints; enrollment time in ms since the epoch (0 if unknown). */
HEARTH_API const char *hearth_multi_factor_info_factor_id(const hearth_multi_factor_info *info);
HEARTH_API const char *hearth_multi_factor_info_uid(const hearth_multi_factor_info *info);
HEARTH_API const char *hearth_multi_factor_info_display_name(const hearth_multi_factor_info *info);
HEARTH_API const char *hearth_multi_factor_info_phone_number(const hearth_multi_factor_info *info);
HEARTH_API uint64_t hearth_multi_factor_info_enrollment_timestamp(const hearth_multi_factor_info *info);

/* The user's enrolled second factors (from the snapshot). */
HEARTH_API size_t hearth_user_multi_factor_count(const hearth_user *user);
HEARTH_API const hearth_multi_factor_info *hearth_user_multi_factor_at(const hearth_user *user, size_t index);

/* A session for enrolling a second factor (proves the first). Result: hearth_future_multi_factor_session. */
HEARTH_API hearth_future *hearth_user_multi_factor_get_session(const hearth_user *user);
/* Borrowed from a completed future; NULL otherwise. */
HEARTH_API const hearth_multi_factor_session *hearth_future_multi_factor_session(const hearth_future *future);
/* Enrolls a proven second factor under display_name (NULL: none). Result: hearth_future_user. Errors:
 * SECOND_FACTOR_ALREADY_ENROLLED, MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED, UNVERIFIED_EMAIL,
 * UNSUPPORTED_FIRST_FACTOR, INVALID_VERIFICATION_CODE, ... */
HEARTH_API hearth_future *hearth_user_multi_factor_enroll(const hearth_user *user,
                                                          const hearth_multi_factor_assertion *assertion,
                                                          const char *display_name);
/* Removes an enrolled factor by enrollment id. Result: hearth_future_user. MULTI_FACTOR_INFO_NOT_FOUND. */
HEARTH_API hearth_future *hearth_user_multi_factor_unenroll(const hearth_user *user, const char *enrollment_id);

/* Second-factor assertions: new references, release with hearth_multi_factor_assertion_release; NULL
 * for NULL / invalid arguments (sets the last error). */
/* From a phone credential whose verification used a multi-factor session. */
HEARTH_API hearth_multi_factor_assertion *hearth_multi_factor_assertion_create_phone(
    const hearth_credential *credential);
/* Enrolling TOTP: the secret being enrolled and a code the user's authenticator shows. */
HEARTH_API hearth_multi_factor_assertion *hearth_multi_factor_assertion_create_totp_enrollment(
    const hearth_totp_secret *secret, const char *code);
/* Signing in with TOTP: the hint's enrollment id and a code. */
HEARTH_API hearth_multi_factor_assertion *hearth_multi_factor_assertion_create_totp_sign_in(const char *enrollment_id,
                                                                                            const char *code);
HEARTH_API void hearth_multi_factor_assertion_release(hearth_multi_factor_assertion *assertion);

/* Starts a TOTP enrollment. Result: hearth_future_totp_secret. NULL for an invalid session, or when
 * its app is gone (sets the last error). */
HEARTH_API hearth_future *hearth_totp_secret_generate(const hearth_multi_factor_session *session);
/* Borrowed from a completed future; NULL otherwise. */
HEARTH_API const hearth_totp_secret *hearth_future_totp_secret(const hearth_future *future);
/* The base32 shared secret, code length, period and hashing algorithm ("SHA1", ...). */
HEARTH_API const char *hearth_totp_secret_shared_secret_key(const hearth_totp_secret *secret);
HEARTH_API int hearth_totp_secret_code_length(const hearth_totp_secret *secret);
HEARTH_API int hearth_totp_secret_period_seconds(const hearth_totp_secret *secret);
HEARTH_API const char *hearth_totp_secret_algorithm(const hearth_totp_secret *secret);
/* The otpauth:// URI for a QR code (new string, free with hearth_free); NULL on bad arguments (sets
 * the last error). */
HEARTH_API char *hearth_totp_secret_qr_code_url(const hearth_totp_secret *secret, const char *account_name,
                                                const char *issuer);
/* RFC 6238: the code for `unix_time` from a base32 secret (what an authenticator app shows); algorithm
 * "SHA1", "SHA256" or "SHA512" (NULL: "SHA1", the default of authenticator apps). Writes
 * `digits` digits and a NUL to `out` (out_size > digits). Returns 0 or HEARTH_ERROR_INVALID_ARGUMENT. */
HEARTH_API hearth_error hearth_totp_code_generate(const char *base32_secret, const char *algorithm, int digits,
                                                  int period_seconds, int64_t unix_time, char *out, size_t out_size);

/* ---------------------------------------------------------------------------------------------------
 * Auth results
 * ------------------------------------------------------------------------------------------------- */

/* The signed-in user (borrowed); NULL for the conflict details of a failed operation (see below). */
HEARTH_API const hearth_user *hearth_auth_result_user(const hearth_auth_result *result);
/* Additional user info: provider id of the sign-in ("password", "anonymous", "custom", ...), borrowed. */
HEARTH_API const char *hearth_auth_result_provider_id(const hearth_auth_result *result);
/* The IdP user name (GitHub login, Twitter screen name), borrowed; "" when none. */
HEARTH_API const char *hearth_auth_result_user_name(const hearth_auth_result *result);
/* The IdP profile (parsed rawUserInfo) as a JSON object text, borrowed; "{}" when none. */
HEARTH_API const char *hearth_auth_result_profile_json(const hearth_auth_result *result);
/* 1 if this sign-in created the user, else 0. */
HEARTH_API int hearth_auth_result_is_new_user(const hearth_auth_result *result);
/* The identity provider's credential the server returned with a sign-in, link or reauthentication
 * (access token, ID token, secret), borrowed; NULL when there is none. */
HEARTH_API const hearth_credential *hearth_auth_result_credential(const hearth_auth_result *result);
/* For a FAILED sign-in or link whose server answer names another account
 * (HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE, HEARTH_ERROR_EMAIL_ALREADY_IN_USE,
 * HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS): hearth_future_auth_result still returns a
 * result, whose user is NULL and whose updated credential signs in to that other account (the C++
 * SDK's additional_user_info.updated_credential). Borrowed; NULL when there is none. */
HEARTH_API const hearth_credential *hearth_auth_result_updated_credential(const hearth_auth_result *result);
/* The email the server reported with such a conflict, borrowed; "" when none. */
HEARTH_API const char *hearth_auth_result_email(const hearth_auth_result *result);

/* ---------------------------------------------------------------------------------------------------
 * Users: immutable snapshots + operations on the signed-in user with that uid
 * ------------------------------------------------------------------------------------------------- */

/* A new reference to the same snapshot (e.g. to keep a future's user after releasing the future).
 * NULL for an invalid handle (sets the last error). */
HEARTH_API hearth_user *hearth_user_retain(const hearth_user *user);
/* Releases a snapshot reference. NULL is a no-op. */
HEARTH_API void hearth_user_release(hearth_user *user);

/* Profile. Borrowed strings (live as long as the snapshot); "" when unset; NULL for an invalid handle. */
HEARTH_API const char *hearth_user_uid(const hearth_user *user);
HEARTH_API const char *hearth_user_email(const hearth_user *user);
HEARTH_API const char *hearth_user_display_name(const hearth_user *user);
HEARTH_API const char *hearth_user_photo_url(const hearth_user *user);
HEARTH_API const char *hearth_user_phone_number(const hearth_user *user);
/* "Firebase", as in the C++ SDK. */
HEARTH_API const char *hearth_user_provider_id(const hearth_user *user);
HEARTH_API int hearth_user_is_anonymous(const hearth_user *user);
HEARTH_API int hearth_user_is_email_verified(const hearth_user *user);
/* Milliseconds since the Unix epoch (UTC); 0 when unknown. */
HEARTH_API uint64_t hearth_user_creation_timestamp(const hearth_user *user);
HEARTH_API uint64_t hearth_user_last_sign_in_timestamp(const hearth_user *user);
/* The Identity Platform tenant the user belongs to (Firebase's User.tenantId); "" for the project's own
 * users; NULL for an invalid handle. Borrowed. */
HEARTH_API const char *hearth_user_tenant_id(const hearth_user *user);

/* Linked providers. */
HEARTH_API size_t hearth_user_provider_data_count(const hearth_user *user);
/* Borrowed; NULL when out of range. */
HEARTH_API const hearth_user_info *hearth_user_provider_data_at(const hearth_user *user, size_t index);
/* The provider's own uid (rawId). Borrowed strings; "" when unset. */
HEARTH_API const char *hearth_user_info_uid(const hearth_user_info *info);
HEARTH_API const char *hearth_user_info_provider_id(const hearth_user_info *info);
HEARTH_API const char *hearth_user_info_email(const hearth_user_info *info);
HEARTH_API const char *hearth_user_info_display_name(const hearth_user_info *info);
HEARTH_API const char *hearth_user_info_photo_url(const hearth_user_info *info);
HEARTH_API const char *hearth_user_info_phone_number(const hearth_user_info *info);

/* Operations act on the signed-in user with the snapshot's uid; they fail with
 * HEARTH_ERROR_NO_SIGNED_IN_USER when that user is no longer signed in. Each returns a new future
 * reference (NULL only for an invalid user handle, which sets the last error). Operations that change the user update
 * hearth_auth_current_user; take a new snapshot to see the change. */

/* The ID token: cached unless it expires within 5 minutes or force_refresh != 0. Result:
 * hearth_future_string. */
HEARTH_API hearth_future *hearth_user_get_token(const hearth_user *user, int force_refresh);
/* Reloads the profile from the server. Result: hearth_future_user (the fresh snapshot). */
HEARTH_API hearth_future *hearth_user_reload(const hearth_user *user);
/* NULL keeps a field, "" deletes it. Result: hearth_future_user. */
HEARTH_API hearth_future *hearth_user_update_user_profile(const hearth_user *user, const char *display_name,
                                                          const char *photo_url);
/* Result: none. May fail with HEARTH_ERROR_REQUIRES_RECENT_LOGIN. */
HEARTH_API hearth_future *hearth_user_update_password(const hearth_user *user, const char *password);
/* Sets the email without verifying the new address first (the Firebase SDKs' deprecated updateEmail;
 * prefer hearth_user_send_email_verification_before_updating_email). The new address starts
 * unverified. Result: none. Errors: MISSING_EMAIL (""), INVALID_EMAIL, EMAIL_ALREADY_IN_USE,
 * REQUIRES_RECENT_LOGIN, OPERATION_NOT_ALLOWED (projects with email enumeration protection). */
HEARTH_API hearth_future *hearth_user_update_email(const hearth_user *user, const char *email);
/* Mails the user a link that verifies their address. `settings` (NULL: none) as for
 * hearth_auth_send_password_reset_email. Result: none. */
HEARTH_API hearth_future *hearth_user_send_email_verification(const hearth_user *user,
                                                              const hearth_action_code_settings *settings);
/* Mails `new_email` a link that changes the user's address to it once followed (the address is proven
 * before it is used). `settings` (NULL: none) as for hearth_auth_send_password_reset_email. Result:
 * none. Errors: MISSING_EMAIL (""), INVALID_EMAIL, EMAIL_ALREADY_IN_USE, REQUIRES_RECENT_LOGIN. */
HEARTH_API hearth_future *hearth_user_send_email_verification_before_updating_email(
    const hearth_user *user, const char *new_email, const hearth_action_code_settings *settings);
/* Deletes the account and signs out. Result: none. */
HEARTH_API hearth_future *hearth_user_delete(const hearth_user *user);

/* Links a credential to the user, so the same account is reachable through that provider too (an
 * anonymous user linked to any credential stops being anonymous). Result: auth result. Errors:
 * HEARTH_ERROR_PROVIDER_ALREADY_LINKED (the user already has that provider); CREDENTIAL_ALREADY_IN_USE
 * or EMAIL_ALREADY_IN_USE (it belongs to another account: the failed future's auth result carries an
 * updated credential that signs in to that account); REQUIRES_RECENT_LOGIN. */
HEARTH_API hearth_future *hearth_user_link_with_credential(const hearth_user *user,
                                                           const hearth_credential *credential);
/* Unlinks a provider ("google.com", "password", "phone", ...). Unlinking "password" removes the
 * email, "phone" the phone number. Result: auth result (the updated user). Errors:
 * HEARTH_ERROR_NO_SUCH_PROVIDER when that provider is not linked. */
HEARTH_API hearth_future *hearth_user_unlink(const hearth_user *user, const char *provider_id);
/* Signs in again with a credential of the same user, before sensitive operations (password change,
 * deletion) that fail with REQUIRES_RECENT_LOGIN otherwise. A credential of another account fails
 * with HEARTH_ERROR_USER_MISMATCH and the user stays signed in. Result: none. */
HEARTH_API hearth_future *hearth_user_reauthenticate(const hearth_user *user,
                                                     const hearth_credential *credential);
/* The same; result: auth result. */
HEARTH_API hearth_future *hearth_user_reauthenticate_and_retrieve_data(const hearth_user *user,
                                                                       const hearth_credential *credential);


#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HEARTH_H */
