/*
 * firebase/log.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * The log level, as in the Firebase C++ SDK: messages at GetLogLevel() and above are printed to
 * stdout, one per line, prefixed with their level ("INFO: ", "WARNING: ", ...); the default is
 * kLogLevelInfo. The messages are Hearth's (and the layer's own), not the Firebase SDK's, and never
 * contain passwords, tokens, codes or API keys. kLogLevelVerbose shows what kLogLevelDebug shows;
 * kLogLevelAssert shows only assertion failures (which abort). The layer prints through
 * hearth::SetLogCallback, installed when the first App is created or the level is first set; a
 * program that calls hearth::SetLogCallback itself after that receives the messages instead.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_LOG_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_LOG_H_

namespace firebase {

/// Severity of a message, least to most severe. Values are the SDK's.
enum LogLevel {
  kLogLevelVerbose = 0,
  kLogLevelDebug,
  kLogLevelInfo,
  kLogLevelWarning,
  kLogLevelError,
  kLogLevelAssert,
};

/// Prints messages of `level` and above from now on (any thread).
void SetLogLevel(LogLevel level);

/// The level set last (kLogLevelInfo until then).
LogLevel GetLogLevel();

}  // namespace firebase

#include "hearth_compat/log.h"

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_LOG_H_
