// A program written for the Firebase C++ SDK, built unchanged against an installed Hearth: with
// pkg-config hearth-compat, or CMake's Hearth::firebase_compat. It is configured the desktop SDK's
// way: google-services.json in the working directory, the emulator through USE_AUTH_EMULATOR and
// AUTH_EMULATOR_PORT.
#include <stdio.h>
#include <unistd.h>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "firebase/future.h"

int main() {
  firebase::App* app = firebase::App::Create();
  if (app == nullptr) return 1;
  firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);
  firebase::Future<firebase::auth::AuthResult> sign_in = auth->SignInAnonymously();
  while (sign_in.status() == firebase::kFutureStatusPending) usleep(10 * 1000);
  if (sign_in.error() != firebase::auth::kAuthErrorNone) {
    printf("sign-in failed: %d %s\n", sign_in.error(), sign_in.error_message());
    return 1;
  }
  printf("firebase compat signed in %s\n", sign_in.result()->user.uid().c_str());
  delete auth;
  delete app;
  return 0;
}
