/*
 * hearth_compat.h — Hearth's Firebase C++ SDK compatibility layer: the few Hearth settings that
 * Firebase's API has no place for. Code written for Firebase needs none of this; include it where you
 * want Hearth's extras (a host libuv loop, persistence choices, provider sign-in on a desktop, the
 * Hearth objects behind the Firebase ones).
 */
#ifndef HEARTH_COMPAT_H
#define HEARTH_COMPAT_H

#include <memory>
#include <mutex>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "hearth.hpp"

namespace hearth {
namespace compat {

/// Hearth's settings for the Apps firebase::App::Create makes from now on: the loop
/// (hearth::AppOptions::set_loop: the host runs it), persistence (file, none, or the host's
/// SessionStorage), its directory, the request timeout, the CA bundle and the auth domain. The API
/// key, app id, project id and name always come from firebase::AppOptions and App::Create. Any thread.
inline void SetDefaultHearthOptions(const hearth::AppOptions& options) {
  detail::AppRegistry& registry = detail::Apps();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.hearth_defaults = options;
}

/// The hearth::App behind a firebase::App (borrowed: valid until the App is deleted); nullptr for null.
inline hearth::App* GetHearthApp(firebase::App* app) {
  firebase::internal::AppInternal* internal = firebase::internal::AppAccess::Internal(app);
  if (internal == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(internal->mutex);
  return internal->hearth_app.get();
}

/// The hearth::auth::Auth behind a firebase::auth::Auth (borrowed: valid until the App is deleted);
/// nullptr for null, or once the App or the Auth is gone.
inline hearth::auth::Auth* GetHearthAuth(firebase::auth::Auth* auth) {
  if (auth == nullptr) return nullptr;
  std::shared_ptr<hearth::App> app = detail::Access::Data(*auth)->Borrow();
  return app ? hearth::auth::Auth::GetAuth(app.get()) : nullptr;
}

/// Gives `auth` a way to show providers' pages (hearth::auth::ProviderFlowOptions: a UI delegate that
/// opens a URL, and where the redirect comes back), so that Auth::SignInWithProvider,
/// User::LinkWithProvider and User::ReauthenticateWithProvider work on a desktop. Until this
/// succeeds they fail with kAuthErrorUnimplemented, as the SDK's desktop build always does. Returns
/// kAuthErrorNone, Hearth's refusal (kAuthErrorInvalidArgument without open_url), or
/// kAuthErrorInvalidArgument for a null Auth or one whose App is gone.
inline hearth::auth::AuthError SetProviderFlowOptions(firebase::auth::Auth* auth,
                                                       const hearth::auth::ProviderFlowOptions& options) {
  hearth::auth::Auth* hearth_auth = GetHearthAuth(auth);
  if (hearth_auth == nullptr) return hearth::auth::kAuthErrorInvalidArgument;
  const hearth::auth::AuthError error = hearth_auth->SetProviderFlowOptions(options);
  if (error == hearth::auth::kAuthErrorNone) {
    const std::shared_ptr<firebase::auth::AuthData>& data = detail::Access::Data(*auth);
    std::lock_guard<std::mutex> lock(data->mutex);
    data->provider_flow_ready = true;
  }
  return error;
}

}  // namespace compat
}  // namespace hearth

#endif  // HEARTH_COMPAT_H
