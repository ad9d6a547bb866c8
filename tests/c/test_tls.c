/* test_tls.c — the CA bundle option as hosts give it. (Certificates themselves are checked in the Swift
 * suite, TransportTLSTests: production names routed to a local HTTPS server with a CA made at test time.) */
#include "test.h"

/* hearth_app_create with this ca_bundle_path (untracked: the caller destroys what it gets). */
static int create_with_bundle(const char *path, hearth_app **app) {
  hearth_app_options options;
  t_options(&options);
  options.ca_bundle_path = path;
  *app = NULL;
  return hearth_app_create(&options, app);
}

TEST(a_ca_bundle_path_that_is_not_a_readable_file_fails_app_creation, MODE_NONE) {
  const char *dir = t_temp_dir();
  const char *unreadable[] = {"", "/nonexistent/ca.pem", dir, t_printf("%s/missing.pem", dir)};
  for (size_t i = 0; i < sizeof unreadable / sizeof *unreadable; i++) {
    hearth_app *app;
    int rc = create_with_bundle(unreadable[i], &app);
    if (rc != HEARTH_ERROR_INVALID_ARGUMENT)
      t_fail(__FILE__, __LINE__, "ca_bundle_path \"%s\": %s", unreadable[i], hearth_error_name(rc));
    if (app) {
      t_fail(__FILE__, __LINE__, "ca_bundle_path \"%s\" created an app", unreadable[i]);
      hearth_app_destroy(app);
    }
  }
}

TEST(a_readable_ca_bundle_file_is_accepted, MODE_NONE) {
  /* Whether it holds certificates shows only when a request verifies a server with it. */
  const char *path = t_printf("%s/bundle.pem", t_temp_dir());
  const char *text = "not checked until a request needs it\n";
  t_write_file(path, text, strlen(text));
  hearth_app_options options;
  t_options(&options);
  options.ca_bundle_path = path;
  CHECK(t_app_create(&options) != NULL);
}
