/*
 * hearth_compat/assert.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * What the Firebase C++ SDK's desktop build does when a caller breaks a precondition that leaves no
 * value to return (a Variant read as a type it does not hold, a compiler-string mismatch): it logs the
 * message at its assert level, which prints "ASSERT: <message>" and aborts.
 */
#ifndef HEARTH_COMPAT_ASSERT_H
#define HEARTH_COMPAT_ASSERT_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace hearth {
namespace compat {
namespace detail {

[[noreturn]] inline void AssertionFailed(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

[[noreturn]] inline void AssertionFailed(const char* format, ...) {
  std::va_list arguments;
  va_start(arguments, format);
  std::fputs("ASSERT: ", stdout);
  std::vfprintf(stdout, format, arguments);
  std::fputs("\n", stdout);
  va_end(arguments);
  std::fflush(stdout);
  std::abort();
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

#endif  // HEARTH_COMPAT_ASSERT_H
