/*
 * hearth_compat/log.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * firebase::SetLogLevel / GetLogLevel on top of Hearth's logging: the Firebase level is kept here and
 * mapped onto hearth::SetLogLevel (Verbose and Debug -> Debug, Assert -> Off: Hearth has no assertion
 * messages), and one sink prints Hearth's messages, and the layer's own, to stdout the way the SDK's
 * desktop build prints its log ("LEVEL: message").
 */
#ifndef HEARTH_COMPAT_LOG_H
#define HEARTH_COMPAT_LOG_H

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "firebase/log.h"
#include "hearth.hpp"

namespace hearth {
namespace compat {
namespace detail {

struct LogSettings {
  std::atomic<int> level{firebase::kLogLevelInfo};
  std::once_flag sink_once;
};

// Never destroyed: loop threads may log while static destructors run.
inline LogSettings& CompatLog() {
  static LogSettings* settings = new LogSettings();
  return *settings;
}

inline const char* LevelPrefix(firebase::LogLevel level) {
  switch (level) {
    case firebase::kLogLevelVerbose: return "VERBOSE: ";
    case firebase::kLogLevelDebug: return "DEBUG: ";
    case firebase::kLogLevelInfo: return "INFO: ";
    case firebase::kLogLevelWarning: return "WARNING: ";
    case firebase::kLogLevelError: return "ERROR: ";
    case firebase::kLogLevelAssert: return "ASSERT: ";
  }
  return "";
}

inline void PrintLogLine(firebase::LogLevel level, const char* message) {
  std::fprintf(stdout, "%s%s\n", LevelPrefix(level), message ? message : "");
  std::fflush(stdout);
}

inline hearth::LogLevel ToHearthLevel(int level) {
  if (level <= firebase::kLogLevelDebug) return hearth::kLogLevelDebug;
  if (level == firebase::kLogLevelInfo) return hearth::kLogLevelInfo;
  if (level == firebase::kLogLevelWarning) return hearth::kLogLevelWarning;
  if (level == firebase::kLogLevelError) return hearth::kLogLevelError;
  return hearth::kLogLevelOff;
}

inline firebase::LogLevel FromHearthLevel(hearth::LogLevel level) {
  switch (level) {
    case hearth::kLogLevelDebug: return firebase::kLogLevelDebug;
    case hearth::kLogLevelInfo: return firebase::kLogLevelInfo;
    case hearth::kLogLevelWarning: return firebase::kLogLevelWarning;
    default: return firebase::kLogLevelError;
  }
}

// Installs the stdout sink once per process, then hands Hearth the current level.
inline void ApplyLogLevel() {
  std::call_once(CompatLog().sink_once, [] {
    hearth::SetLogCallback([](hearth::LogLevel level, const char* message) {
      PrintLogLine(FromHearthLevel(level), message);
    });
  });
  hearth::SetLogLevel(ToHearthLevel(CompatLog().level.load()));
}

// The layer's own messages (configuration files, App creation), filtered like Hearth's.
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void Log(firebase::LogLevel level, const char* format, ...) {
  if (static_cast<int>(level) < CompatLog().level.load()) return;
  char message[1024];
  std::va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  PrintLogLine(level, message);
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

namespace firebase {

inline void SetLogLevel(LogLevel level) {
  hearth::compat::detail::CompatLog().level.store(static_cast<int>(level));
  hearth::compat::detail::ApplyLogLevel();
}

inline LogLevel GetLogLevel() { return static_cast<LogLevel>(hearth::compat::detail::CompatLog().level.load()); }

}  // namespace firebase

#endif  // HEARTH_COMPAT_LOG_H
