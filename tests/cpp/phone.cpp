// The helpers declared in phone.h.
#include "phone.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hearth_test {

namespace auth = hearth::auth;

// ---- the emulator's SMS side -----------------------------------------------------------------------

std::vector<SentCode> SentCodes() {
  std::vector<SentCode> codes;
  const HttpResponse response = EmulatorRequest("GET", "/emulator/v1/projects/" + ProjectId() + "/verificationCodes");
  if (response.status != 200) {
    RecordFailure(__FILE__, __LINE__, "could not list verification codes: HTTP " + std::to_string(response.status));
    throw TestAborted();
  }
  // {"verificationCodes":[{flat object}, ...]}: sessionInfo is base64url and holds no braces.
  size_t at = response.body.find('[');
  while (at != std::string::npos) {
    const size_t open = response.body.find('{', at);
    if (open == std::string::npos) break;
    const size_t close = response.body.find('}', open);
    if (close == std::string::npos) break;
    const auto fields = hearth::detail::ParseProfile(response.body.substr(open, close - open + 1));
    auto field = [&fields](const char* name) {
      auto it = fields.find(name);
      return it == fields.end() ? std::string() : it->second;
    };
    codes.push_back(SentCode{field("code"), field("phoneNumber"), field("sessionInfo"), field("locale")});
    at = close + 1;
  }
  return codes;
}

std::string CodeFor(const std::string& verification_id) {
  std::vector<std::string> found;
  for (const SentCode& sent : SentCodes()) {
    if (sent.session_info == verification_id) found.push_back(sent.code);
  }
  REQUIRE_EQ(found.size(), size_t{1});
  return found[0];
}

size_t CodesSentTo(const std::string& phone_number) {
  size_t count = 0;
  for (const SentCode& sent : SentCodes()) count += sent.phone_number == phone_number ? 1 : 0;
  return count;
}

std::string NewPhoneNumber() {
  static std::atomic<int> counter{0};
  // The pid keeps two runs against one emulator apart; the counter, the numbers of one run.
  const long serial = (static_cast<long>(getpid()) * 1000 + ++counter) % 10000000;
  std::string digits = std::to_string(serial);
  digits.insert(0, 7 - digits.size(), '0');
  return "+1555" + digits;
}

std::string MaskedPhoneNumber(const std::string& phone_number) {
  if (phone_number.size() < 6) return phone_number;
  return "+" + std::string(phone_number.size() - 5, '*') + phone_number.substr(phone_number.size() - 4);
}

EmulatorSettings::EmulatorSettings(const std::string& set, const std::string& reset) : reset_(reset) {
  const HttpResponse response = EmulatorRequest("PATCH", "/emulator/v1/projects/" + ProjectId() + "/config", set);
  if (response.status != 200) {
    RecordFailure(__FILE__, __LINE__,
                  "could not change the emulator's settings " + set + ": HTTP " + std::to_string(response.status) + " " +
                      response.body);
    throw TestAborted();
  }
}

EmulatorSettings::~EmulatorSettings() {
  const HttpResponse response = EmulatorRequest("PATCH", "/emulator/v1/projects/" + ProjectId() + "/config", reset_);
  if (response.status != 200) RecordFailure(__FILE__, __LINE__, "could not reset the emulator's settings " + reset_);
}

std::string EmulatorLog() {
  const char* path = std::getenv("HEARTH_EMULATOR_LOG");
  if (!path || !*path) {
    RecordFailure(__FILE__, __LINE__, "HEARTH_EMULATOR_LOG is not set: run this suite through scripts/with-emulator");
    throw TestAborted();
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void MarkEmailVerified(const std::string& uid) {
  const HttpResponse response =
      EmulatorRequest("POST", "/identitytoolkit.googleapis.com/v1/projects/" + ProjectId() + "/accounts:update",
                      "{\"localId\":\"" + uid + "\",\"emailVerified\":true}");
  if (response.status != 200) {
    RecordFailure(__FILE__, __LINE__,
                  "could not verify the email of " + uid + ": HTTP " + std::to_string(response.status) + " " + response.body);
    throw TestAborted();
  }
}

// ---- the client ------------------------------------------------------------------------------------

auth::PhoneAuthProvider::VerificationResult VerifyNumber(auth::Auth* auth, const auth::PhoneAuthOptions& options) {
  hearth::Future<auth::PhoneAuthProvider::VerificationResult> sent =
      auth::PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options);
  REQUIRE(WaitForCompletion(sent, "VerifyPhoneNumber"));
  REQUIRE(sent.result() != nullptr);
  REQUIRE(!sent.result()->verification_id.empty());
  return *sent.result();
}

auth::PhoneAuthProvider::VerificationResult VerifyNumber(auth::Auth* auth, const std::string& phone_number) {
  auth::PhoneAuthOptions options;
  options.phone_number = phone_number;
  return VerifyNumber(auth, options);
}

auth::PhoneAuthCredential PhoneCredential(auth::Auth* auth, const std::string& phone_number) {
  const std::string verification_id = VerifyNumber(auth, phone_number).verification_id;
  const std::string code = CodeFor(verification_id);
  auth::PhoneAuthCredential credential =
      auth::PhoneAuthProvider::GetInstance(auth).GetCredential(verification_id.c_str(), code.c_str());
  REQUIRE(credential.is_valid());
  return credential;
}

auth::User SignInWithPhone(auth::Auth* auth, const std::string& phone_number) {
  hearth::Future<auth::User> signed_in = auth->SignInWithCredential(PhoneCredential(auth, phone_number));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (phone)"));
  REQUIRE(signed_in.result() != nullptr && signed_in.result()->is_valid());
  return *signed_in.result();
}

void RecordingPhoneListener::Record(const std::string& event) {
  if (!app_ || !app_->is_loop_thread()) all_on_loop_thread_ = false;
  std::lock_guard<std::mutex> lock(mutex_);
  events_.push_back(event);
}

void RecordingPhoneListener::OnVerificationCompleted(auth::PhoneAuthCredential) { Record("completed"); }

void RecordingPhoneListener::OnVerificationFailed(const std::string& error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failure_ = error;
  }
  Record("failed");
}

void RecordingPhoneListener::OnCodeSent(const std::string& verification_id,
                                        const auth::PhoneAuthProvider::ForceResendingToken& force_resending_token) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    verification_id_ = verification_id;
    token_ = force_resending_token;
    sent_at_ms_ = NowMs();
  }
  Record("sent");
}

void RecordingPhoneListener::OnCodeAutoRetrievalTimeOut(const std::string& verification_id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    timed_out_verification_id_ = verification_id;
    timed_out_at_ms_ = NowMs();
  }
  Record("timeout");
}

std::vector<std::string> RecordingPhoneListener::Events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_;
}

bool RecordingPhoneListener::WaitForEvents(size_t count, int64_t timeout_ms) const {
  return WaitUntil([this, count] { return Events().size() >= count; }, timeout_ms);
}

std::string RecordingPhoneListener::verification_id() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return verification_id_;
}

std::string RecordingPhoneListener::timed_out_verification_id() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return timed_out_verification_id_;
}

auth::PhoneAuthProvider::ForceResendingToken RecordingPhoneListener::token() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return token_;
}

std::string RecordingPhoneListener::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

int64_t RecordingPhoneListener::sent_at_ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sent_at_ms_;
}

int64_t RecordingPhoneListener::timed_out_at_ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return timed_out_at_ms_;
}

// ---- RFC 6238 ----------------------------------------------------------------------------------------

bool Base32Decode(const std::string& text, std::vector<uint8_t>* out) {
  out->clear();
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a';
    else if (c >= '2' && c <= '7') value = c - '2' + 26;
    else if (c == '=') break;
    else return false;
    bits = (bits << 5) | static_cast<uint32_t>(value);
    count += 5;
    if (count >= 8) {
      count -= 8;
      out->push_back(static_cast<uint8_t>((bits >> count) & 0xFF));
    }
  }
  return true;
}

namespace {

uint32_t RotateLeft(uint32_t value, int bits) { return (value << bits) | (value >> (32 - bits)); }

std::vector<uint8_t> Sha1(const std::vector<uint8_t>& input) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  std::vector<uint8_t> data = input;
  const uint64_t bit_length = static_cast<uint64_t>(input.size()) * 8;
  data.push_back(0x80);
  while (data.size() % 64 != 56) data.push_back(0);
  for (int i = 7; i >= 0; --i) data.push_back(static_cast<uint8_t>(bit_length >> (i * 8)));
  for (size_t block = 0; block < data.size(); block += 64) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = static_cast<uint32_t>(data[block + 4 * i]) << 24 | static_cast<uint32_t>(data[block + 4 * i + 1]) << 16 |
             static_cast<uint32_t>(data[block + 4 * i + 2]) << 8 | static_cast<uint32_t>(data[block + 4 * i + 3]);
    }
    for (int i = 16; i < 80; ++i) w[i] = RotateLeft(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
      else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
      else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
      else f = b ^ c ^ d, k = 0xCA62C1D6;
      const uint32_t next = RotateLeft(a, 5) + f + e + k + w[i];
      e = d, d = c, c = RotateLeft(b, 30), b = a, a = next;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
  }
  std::vector<uint8_t> digest;
  for (uint32_t word : h) {
    for (int i = 3; i >= 0; --i) digest.push_back(static_cast<uint8_t>(word >> (i * 8)));
  }
  return digest;
}

}  // namespace

std::vector<uint8_t> HmacSha1(const std::vector<uint8_t>& key, const std::vector<uint8_t>& message) {
  std::vector<uint8_t> block = key.size() > 64 ? Sha1(key) : key;
  block.resize(64, 0);
  std::vector<uint8_t> inner, outer;
  for (uint8_t byte : block) {
    inner.push_back(byte ^ 0x36);
    outer.push_back(byte ^ 0x5C);
  }
  inner.insert(inner.end(), message.begin(), message.end());
  const std::vector<uint8_t> inner_digest = Sha1(inner);
  outer.insert(outer.end(), inner_digest.begin(), inner_digest.end());
  return Sha1(outer);
}

std::string TotpCode(const std::string& base32_secret, int64_t unix_time, int digits, int period) {
  std::vector<uint8_t> key;
  if (!Base32Decode(base32_secret, &key) || key.empty()) return "";
  const uint64_t counter = static_cast<uint64_t>(unix_time / period);
  std::vector<uint8_t> message;
  for (int i = 7; i >= 0; --i) message.push_back(static_cast<uint8_t>(counter >> (i * 8)));
  const std::vector<uint8_t> mac = HmacSha1(key, message);
  // Dynamic truncation (RFC 4226 section 5.3).
  const int offset = mac.back() & 0x0F;
  const uint32_t binary = (static_cast<uint32_t>(mac[offset]) & 0x7F) << 24 | static_cast<uint32_t>(mac[offset + 1]) << 16 |
                          static_cast<uint32_t>(mac[offset + 2]) << 8 | static_cast<uint32_t>(mac[offset + 3]);
  uint32_t modulus = 1;
  for (int i = 0; i < digits; ++i) modulus *= 10;
  std::string code = std::to_string(binary % modulus);
  code.insert(0, static_cast<size_t>(digits) - code.size(), '0');
  return code;
}

int64_t UnixTime() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace hearth_test
