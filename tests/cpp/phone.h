// Helpers for the phone and multi-factor tests: the emulator's SMS codes and settings, verified emails,
// fresh phone numbers, and an RFC 6238 (TOTP) computation of our own to check the library's.
#ifndef HEARTH_TESTS_CPP_PHONE_H
#define HEARTH_TESTS_CPP_PHONE_H

#include "harness.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hearth_test {

// ---- the emulator's SMS side -----------------------------------------------------------------------

// One entry of GET /emulator/v1/projects/{p}/verificationCodes.
struct SentCode {
  std::string code;
  std::string phone_number;
  std::string session_info;
  std::string locale;
};
// Every code the emulator holds, oldest first (codes survive the wipe between tests).
std::vector<SentCode> SentCodes();
// The code sent for a verification id (its sessionInfo); REQUIREs exactly one.
std::string CodeFor(const std::string& verification_id);
// How many codes were sent to a number.
size_t CodesSentTo(const std::string& phone_number);

// A fresh number per call, "+1555" and 7 digits, that no other test uses.
std::string NewPhoneNumber();
// "+*******4567": how sign-in hints mask a number.
std::string MaskedPhoneNumber(const std::string& phone_number);

// Changes emulator settings (PATCH .../config) for the test's duration and puts them back afterwards.
// `set` and `reset` are JSON objects, e.g. {"smsCodeTtlSeconds":1} and {"smsCodeTtlSeconds":300}.
class EmulatorSettings {
 public:
  EmulatorSettings(const std::string& set, const std::string& reset);
  ~EmulatorSettings();
  EmulatorSettings(const EmulatorSettings&) = delete;
  EmulatorSettings& operator=(const EmulatorSettings&) = delete;

 private:
  std::string reset_;
};

// Firebase's documented fictional number and its fixed code.
constexpr const char* kTestPhoneNumber = "+16505554567";
constexpr const char* kTestPhoneCode = "123456";

// The emulator's output so far (scripts/with-emulator's HEARTH_EMULATOR_LOG); REQUIREs that it is set.
std::string EmulatorLog();

// Marks an account's email verified through the admin API (second factors need it).
void MarkEmailVerified(const std::string& uid);

// ---- the client ------------------------------------------------------------------------------------

// Verifies a number (Future form), REQUIRing success: the verification id and resend token.
hearth::auth::PhoneAuthProvider::VerificationResult VerifyNumber(hearth::auth::Auth* auth,
                                                                  const hearth::auth::PhoneAuthOptions& options);
hearth::auth::PhoneAuthProvider::VerificationResult VerifyNumber(hearth::auth::Auth* auth,
                                                                  const std::string& phone_number);
// Verifies `phone_number` and returns the credential with the code the emulator sent.
hearth::auth::PhoneAuthCredential PhoneCredential(hearth::auth::Auth* auth, const std::string& phone_number);
// Signs in (or up) with a phone number, REQUIRing success.
hearth::auth::User SignInWithPhone(hearth::auth::Auth* auth, const std::string& phone_number);

// Records what a PhoneAuthProvider::Listener is told, and whether it was told on the loop thread.
class RecordingPhoneListener : public hearth::auth::PhoneAuthProvider::Listener {
 public:
  explicit RecordingPhoneListener(hearth::App* app) : app_(app) {}

  void OnVerificationCompleted(hearth::auth::PhoneAuthCredential credential) override;
  void OnVerificationFailed(const std::string& error) override;
  void OnCodeSent(const std::string& verification_id,
                  const hearth::auth::PhoneAuthProvider::ForceResendingToken& force_resending_token) override;
  void OnCodeAutoRetrievalTimeOut(const std::string& verification_id) override;

  // "sent", "failed", "timeout", "completed", in order.
  std::vector<std::string> Events() const;
  bool WaitForEvents(size_t count, int64_t timeout_ms = kOperationTimeoutMs) const;
  std::string verification_id() const;
  std::string timed_out_verification_id() const;
  hearth::auth::PhoneAuthProvider::ForceResendingToken token() const;
  std::string failure() const;
  int64_t sent_at_ms() const;
  int64_t timed_out_at_ms() const;
  // False if any callback ran outside the app's loop thread.
  bool all_on_loop_thread() const { return all_on_loop_thread_; }

 protected:
  void Record(const std::string& event);

 private:
  hearth::App* const app_;
  mutable std::mutex mutex_;
  std::vector<std::string> events_;
  std::string verification_id_, timed_out_verification_id_, failure_;
  hearth::auth::PhoneAuthProvider::ForceResendingToken token_;
  int64_t sent_at_ms_ = 0, timed_out_at_ms_ = 0;
  std::atomic<bool> all_on_loop_thread_{true};
};

// ---- RFC 6238, computed here ------------------------------------------------------------------------

// Decodes RFC 4648 base32 (upper or lower case, '=' padding optional); false on other characters.
bool Base32Decode(const std::string& text, std::vector<uint8_t>* out);
// HMAC-SHA-1 (RFC 2104 over FIPS 180-4).
std::vector<uint8_t> HmacSha1(const std::vector<uint8_t>& key, const std::vector<uint8_t>& message);
// The TOTP code (HMAC-SHA-1) for a base32 secret at unix_time; "" for bad base32.
std::string TotpCode(const std::string& base32_secret, int64_t unix_time, int digits = 6, int period = 30);
// Seconds since the Unix epoch.
int64_t UnixTime();

}  // namespace hearth_test

#endif  // HEARTH_TESTS_CPP_PHONE_H
