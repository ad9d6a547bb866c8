// The smallest C++ host: signs in anonymously against the emulator (FIREBASE_AUTH_EMULATOR_HOST) with
// hearth.hpp and prints the library version and the new user's uid.
#include <hearth.hpp>

#include <cstdio>

int main() {
  hearth::AppOptions options;
  options.set_api_key("install-test-key");
  options.set_persistence(hearth::kPersistenceNone);
  hearth::App* app = hearth::App::Create(options);
  if (app == nullptr) return 2;
  hearth::auth::Auth* auth = hearth::auth::Auth::GetAuth(app);
  hearth::Future<hearth::auth::AuthResult> signed_in = auth->SignInAnonymously();
  signed_in.Wait(15000);
  int status = 1;
  if (signed_in.error() == hearth::auth::kAuthErrorNone && signed_in.result() != nullptr) {
    std::printf("hearth %s signed in %s\n", hearth_version(), signed_in.result()->user.uid().c_str());
    status = 0;
  } else {
    const char* message = signed_in.error_message();
    std::fprintf(stderr, "sign-in failed: %d %s\n", signed_in.error(), message ? message : "");
  }
  delete app;
  return status;
}
