/* Typed wrappers for libcurl's variadic setopt/getinfo functions, which Swift cannot call.
 * One wrapper per argument kind; no logic lives here. */
#ifndef HEARTH_CURL_SHIMS_H
#define HEARTH_CURL_SHIMS_H

#include <curl/curl.h>

/* Internal to libhearth: hidden, so the shared library exports only the hearth_* functions of
 * include/hearth.h (tests/abi checks the export list against that header). */
#pragma GCC visibility push(hidden)

typedef size_t (*hearth_curl_write_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*hearth_curl_socket_cb)(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp);
typedef int (*hearth_curl_timer_cb)(CURLM *multi, long timeout_ms, void *userp);
typedef int (*hearth_curl_closesocket_cb)(void *clientp, curl_socket_t item);
typedef int (*hearth_curl_sockopt_cb)(void *clientp, curl_socket_t curlfd, curlsocktype purpose);

CURLcode hearth_curl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode hearth_curl_easy_setopt_ptr(CURL *easy, CURLoption option, const void *value);
CURLcode hearth_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);
CURLcode hearth_curl_easy_setopt_write_cb(CURL *easy, CURLoption option, hearth_curl_write_cb cb);
CURLcode hearth_curl_easy_setopt_closesocket_cb(CURL *easy, hearth_curl_closesocket_cb cb);
CURLcode hearth_curl_easy_setopt_sockopt_cb(CURL *easy, hearth_curl_sockopt_cb cb);
CURLcode hearth_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *out);
CURLcode hearth_curl_easy_getinfo_ptr(CURL *easy, CURLINFO info, void **out);
CURLcode hearth_curl_easy_getinfo_socket(CURL *easy, CURLINFO info, curl_socket_t *out);

CURLMcode hearth_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode hearth_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value);
CURLMcode hearth_curl_multi_setopt_socket_cb(CURLM *multi, hearth_curl_socket_cb cb);
CURLMcode hearth_curl_multi_setopt_timer_cb(CURLM *multi, hearth_curl_timer_cb cb);

#pragma GCC visibility pop

#endif
