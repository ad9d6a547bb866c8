/*
 * firebase/internal/common.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * The configuration macros of the Firebase C++ SDK, which its headers and some applications test:
 * what the language and standard library offer (move operators, std::function, snprintf), symbol
 * keeping for module registration, FIREBASE_DEPRECATED, FIREBASE_ARRAYSIZE and FIREBASE_STRLEN.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_COMMON_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_COMMON_H_

#include <utility>

// C++11 and later have rvalue references (STLport has no std::move).
#if (__cplusplus >= 201103L || (defined(_MSC_VER) && _MSC_VER >= 1600)) && !defined(_STLPORT_VERSION)
#define FIREBASE_USE_MOVE_OPERATORS
#endif

#if !defined(_STLPORT_VERSION)
#define FIREBASE_USE_STD_FUNCTION
#endif

#if defined(_STLPORT_VERSION)
#include <cstddef>
namespace firebase {
template <std::size_t Length, std::size_t Alignment>
struct AlignedStorage {
  struct type {
    alignas(Alignment) unsigned char data[Length];
  };
};
}  // namespace firebase
#define FIREBASE_ALIGNED_STORAGE ::firebase::AlignedStorage
#else
#include <type_traits>
#define FIREBASE_ALIGNED_STORAGE std::aligned_storage
#endif

// Visual Studio 2013 and older lack snprintf and explicitly defaulted methods.
#if !(defined(_MSC_VER) && _MSC_VER <= 1800)
#define FIREBASE_USE_SNPRINTF
#define FIREBASE_USE_EXPLICIT_DEFAULT_METHODS
#endif

// Module registration: a header names a module's initializer so the linker keeps it.
#if !defined(_WIN32) && !defined(__CYGWIN__)
#define FIREBASE_APP_KEEP_SYMBOL __attribute__((used))
#else
#define FIREBASE_APP_KEEP_SYMBOL
#endif
#define FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_NAME(module_name) g_##module_name##_initializer
#define FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_VARIABLE(module_name)              \
  namespace firebase {                                                                 \
  extern void* FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_NAME(module_name);          \
  } /* namespace firebase */
#define FIREBASE_APP_REGISTER_CALLBACKS_REFERENCE(module_name)                          \
  FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_VARIABLE(module_name)                     \
  namespace firebase {                                                                 \
  static void* module_name##_ref FIREBASE_APP_KEEP_SYMBOL =                             \
      &FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_NAME(module_name);                   \
  } /* namespace firebase */

#ifndef FIREBASE_DEPRECATED
#if defined(__GNUC__)
#define FIREBASE_DEPRECATED __attribute__((deprecated))
#elif defined(_MSC_VER)
#define FIREBASE_DEPRECATED __declspec(deprecated)
#else
#define FIREBASE_DEPRECATED
#endif
#endif

// Number of elements of an array, and the length of a string literal, at compile time.
#define FIREBASE_ARRAYSIZE(x) (sizeof(x) / sizeof((x)[0]))
#define FIREBASE_STRLEN(s) (FIREBASE_ARRAYSIZE(s) - sizeof((s)[0]))

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_COMMON_H_
