/*
 * firebase/internal/platform.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * Which platform the code is built for, with the Firebase C++ SDK's macro names: exactly one of
 * FIREBASE_PLATFORM_ANDROID, _IOS, _TVOS, _OSX, _WINDOWS, _LINUX, _UNKNOWN is 1, the others 0;
 * FIREBASE_PLATFORM_DESKTOP and FIREBASE_PLATFORM_MOBILE group them. On Linux the compiler and
 * standard library are named too (FIREBASE_COMPILER_*, FIREBASE_STANDARD_*, and the pair as
 * FIREBASE_LINUX_BUILD_CONFIG_STRING, which App checks with CheckCompilerString).
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_PLATFORM_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_PLATFORM_H_

#ifdef __APPLE__
#include <TargetConditionals.h>
#endif

#if defined(__ANDROID__)
#define FIREBASE_PLATFORM_ANDROID 1
#elif defined(TARGET_OS_IOS) && TARGET_OS_IOS
#define FIREBASE_PLATFORM_IOS 1
#elif defined(TARGET_OS_TV) && TARGET_OS_TV
#define FIREBASE_PLATFORM_TVOS 1
#elif defined(TARGET_OS_OSX) && TARGET_OS_OSX
#define FIREBASE_PLATFORM_OSX 1
#elif defined(_WIN32)
#define FIREBASE_PLATFORM_WINDOWS 1
#elif defined(__linux__)
#define FIREBASE_PLATFORM_LINUX 1
#else
#define FIREBASE_PLATFORM_UNKNOWN 1
#endif

#ifndef FIREBASE_PLATFORM_ANDROID
#define FIREBASE_PLATFORM_ANDROID 0
#endif
#ifndef FIREBASE_PLATFORM_IOS
#define FIREBASE_PLATFORM_IOS 0
#endif
#ifndef FIREBASE_PLATFORM_TVOS
#define FIREBASE_PLATFORM_TVOS 0
#endif
#ifndef FIREBASE_PLATFORM_OSX
#define FIREBASE_PLATFORM_OSX 0
#endif
#ifndef FIREBASE_PLATFORM_WINDOWS
#define FIREBASE_PLATFORM_WINDOWS 0
#endif
#ifndef FIREBASE_PLATFORM_LINUX
#define FIREBASE_PLATFORM_LINUX 0
#endif
#ifndef FIREBASE_PLATFORM_UNKNOWN
#define FIREBASE_PLATFORM_UNKNOWN 0
#endif

#if FIREBASE_PLATFORM_LINUX
#include <stdexcept>  // defines the standard library's version macros
#if defined(__clang__)
#define FIREBASE_COMPILER_CLANG 1
#elif defined(__GNUC__)
#define FIREBASE_COMPILER_GCC 1
#endif
#if defined(_LIBCPP_VERSION)
#define FIREBASE_STANDARD_LIBCPP 1
#elif defined(__GLIBCXX__)
#define FIREBASE_STANDARD_LIBSTDCPP 1
#endif
// The SDK's labels for the four combinations (as it spells them).
#if defined(FIREBASE_COMPILER_CLANG) && defined(FIREBASE_STANDARD_LIBCPP)
#define FIREBASE_LINUX_BUILD_CONFIG_STRING "clang_libstdcpp"
#elif defined(FIREBASE_COMPILER_CLANG) && defined(FIREBASE_STANDARD_LIBSTDCPP)
#define FIREBASE_LINUX_BUILD_CONFIG_STRING "clang_libcpp"
#elif defined(FIREBASE_COMPILER_GCC) && defined(FIREBASE_STANDARD_LIBCPP)
#define FIREBASE_LINUX_BUILD_CONFIG_STRING "gcc_libstdcpp"
#elif defined(FIREBASE_COMPILER_GCC) && defined(FIREBASE_STANDARD_LIBSTDCPP)
#define FIREBASE_LINUX_BUILD_CONFIG_STRING "gcc_libcpp"
#else
// Header-only, the layer builds with any compiler; the label then says so instead of stopping.
#define FIREBASE_LINUX_BUILD_CONFIG_STRING "other"
#endif
#endif  // FIREBASE_PLATFORM_LINUX

#define FIREBASE_PLATFORM_MOBILE (FIREBASE_PLATFORM_IOS || FIREBASE_PLATFORM_ANDROID)
#define FIREBASE_PLATFORM_DESKTOP (FIREBASE_PLATFORM_LINUX || FIREBASE_PLATFORM_WINDOWS || FIREBASE_PLATFORM_OSX)

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_PLATFORM_H_
