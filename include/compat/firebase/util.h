/*
 * firebase/util.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::ModuleInitializer: runs a list of module initializers (such as one calling
 * Auth::GetAuth) for an App and reports through a Future<void> when all have succeeded. On a desktop
 * every initializer runs at once, in order, and the Future is complete when Initialize returns:
 * error 0 when all returned kInitResultSuccess; otherwise the number of initializers that did not
 * succeed (from the first failing one on), with a message. (On Android the SDK would first try to
 * update Google Play services; the desktop SDK aborts on such a failure.)
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_UTIL_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_UTIL_H_

#include <stddef.h>

#include "firebase/app.h"
#include "firebase/future.h"

namespace firebase {

struct ModuleInitializerData;

class ModuleInitializer {
 public:
  /// Initializes one module for `app`; `context` is Initialize's.
  typedef InitResult (*InitializerFn)(App* app, void* context);

  ModuleInitializer();
  virtual ~ModuleInitializer();

  /// Runs init_fns[0..init_fns_count) in order (see the top of this file). While the Future of an
  /// earlier call is still held (by InitializeLastResult, at least), a new call runs nothing and
  /// returns that Future.
  Future<void> Initialize(App* app, void* context, const InitializerFn* init_fns, size_t init_fns_count);
  /// The same with one initializer.
  Future<void> Initialize(App* app, void* context, InitializerFn init_fn);
  /// The Future of the latest Initialize; invalid before the first.
  Future<void> InitializeLastResult();

 private:
  ModuleInitializer(const ModuleInitializer&) = delete;
  ModuleInitializer& operator=(const ModuleInitializer&) = delete;
  ModuleInitializerData* data_;
};

}  // namespace firebase

#include "hearth_compat/future_api.h"

namespace firebase {

struct ModuleInitializerData {
  Future<void> initialize;
};

inline ModuleInitializer::ModuleInitializer() : data_(new ModuleInitializerData()) {}

inline ModuleInitializer::~ModuleInitializer() { delete data_; }

inline Future<void> ModuleInitializer::Initialize(App* app, void* context, const InitializerFn* init_fns,
                                                   size_t init_fns_count) {
  if (data_->initialize.status() != kFutureStatusInvalid) return data_->initialize;
  if (app == nullptr || (init_fns == nullptr && init_fns_count > 0)) {
    data_->initialize = hearth::compat::detail::CompletedVoidFuture(
        static_cast<int>(init_fns_count), "ModuleInitializer::Initialize needs an App and its initializers.");
    return data_->initialize;
  }
  for (size_t i = 0; i < init_fns_count; ++i) {
    const InitResult result = init_fns[i] ? init_fns[i](app, context) : kInitResultFailedMissingDependency;
    if (result != kInitResultSuccess) {
      // No dependency can be installed on a desktop: what is left fails.
      data_->initialize = hearth::compat::detail::CompletedVoidFuture(
          static_cast<int>(init_fns_count - i), "Unable to initialize due to a missing dependency.");
      return data_->initialize;
    }
  }
  data_->initialize = hearth::compat::detail::CompletedVoidFuture(0, "");
  return data_->initialize;
}

inline Future<void> ModuleInitializer::Initialize(App* app, void* context, InitializerFn init_fn) {
  return Initialize(app, context, &init_fn, 1);
}

inline Future<void> ModuleInitializer::InitializeLastResult() { return data_->initialize; }

}  // namespace firebase

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_UTIL_H_
