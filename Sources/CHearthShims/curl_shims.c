#include "hearth_curl_shims.h"

CURLcode hearth_curl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode hearth_curl_easy_setopt_ptr(CURL *easy, CURLoption option, const void *value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode hearth_curl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(easy, option, value);
}
CURLcode hearth_curl_easy_setopt_write_cb(CURL *easy, CURLoption option, hearth_curl_write_cb cb) {
  return curl_easy_setopt(easy, option, cb);
}
CURLcode hearth_curl_easy_setopt_closesocket_cb(CURL *easy, hearth_curl_closesocket_cb cb) {
  return curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, cb);
}
CURLcode hearth_curl_easy_setopt_sockopt_cb(CURL *easy, hearth_curl_sockopt_cb cb) {
  return curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, cb);
}
CURLcode hearth_curl_easy_getinfo_long(CURL *easy, CURLINFO info, long *out) {
  return curl_easy_getinfo(easy, info, out);
}
CURLcode hearth_curl_easy_getinfo_ptr(CURL *easy, CURLINFO info, void **out) {
  return curl_easy_getinfo(easy, info, out);
}
CURLcode hearth_curl_easy_getinfo_socket(CURL *easy, CURLINFO info, curl_socket_t *out) {
  return curl_easy_getinfo(easy, info, out);
}
CURLMcode hearth_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}
CURLMcode hearth_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value) {
  return curl_multi_setopt(multi, option, value);
}
CURLMcode hearth_curl_multi_setopt_socket_cb(CURLM *multi, hearth_curl_socket_cb cb) {
  return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, cb);
}
CURLMcode hearth_curl_multi_setopt_timer_cb(CURLM *multi, hearth_curl_timer_cb cb) {
  return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, cb);
}
