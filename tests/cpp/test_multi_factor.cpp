// Multi-factor authentication: enrolling SMS and TOTP second factors after a password or a provider
// sign-in, signing in with them through MultiFactorResolver, unenrolling, TOTP codes (the library's
// RFC 6238 helper checked against our own), and bad input.
#include "federated.h"
#include "phone.h"

#include <cstring>

using namespace hearth_test;
namespace auth = hearth::auth;
using auth::AuthResult;
using auth::MultiFactorAssertion;
using auth::MultiFactorInfo;
using auth::MultiFactorResolver;
using auth::MultiFactorSession;
using auth::PhoneAuthOptions;
using auth::PhoneAuthProvider;
using auth::PhoneMultiFactorGenerator;
using auth::TotpMultiFactorGenerator;
using auth::TotpSecret;
using auth::User;
using hearth::Future;

namespace {

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", in base32.
constexpr const char* kRfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

// Counts auth-state notifications.
class CountingAuthStateListener : public auth::AuthStateListener {
 public:
  void OnAuthStateChanged(auth::Auth*) override { ++calls; }
  std::atomic<int> calls{0};
};

MultiFactorSession NewSession(const User& user) {
  const Future<MultiFactorSession> session = user.multi_factor().GetSession();
  REQUIRE(WaitForCompletion(session, "multi_factor().GetSession()"));
  REQUIRE(session.result() != nullptr);
  REQUIRE(session.result()->is_valid());
  return *session.result();
}

// Enrolls `phone_number` as an SMS second factor of `user`; the updated user (and the verification's
// resend token in *token when given).
User EnrollPhone(auth::Auth* auth, const User& user, const std::string& phone_number, const char* display_name,
                 PhoneAuthProvider::ForceResendingToken* token = nullptr) {
  PhoneAuthOptions options;
  options.phone_number = phone_number;
  options.multi_factor_session = NewSession(user);
  const PhoneAuthProvider::VerificationResult sent = VerifyNumber(auth, options);
  if (token) *token = sent.force_resending_token;
  const std::string verification_id = sent.verification_id;
  const MultiFactorAssertion assertion = PhoneMultiFactorGenerator::GetAssertion(
      PhoneAuthProvider::GetInstance(auth).GetCredential(verification_id.c_str(), CodeFor(verification_id).c_str()));
  REQUIRE(assertion.is_valid());
  CHECK_EQ(assertion.factor_id(), std::string("phone"));
  const Future<User> enrolled = user.multi_factor().Enroll(assertion, display_name);
  REQUIRE(WaitForCompletion(enrolled, "multi_factor().Enroll (phone)"));
  return *enrolled.result();
}

// Enrolls an authenticator app for `user`; the updated user, and the shared secret in *secret_key.
User EnrollTotp(const User& user, const char* display_name, std::string* secret_key) {
  const Future<TotpSecret> generated = TotpMultiFactorGenerator::GenerateSecret(NewSession(user));
  REQUIRE(WaitForCompletion(generated, "TotpMultiFactorGenerator::GenerateSecret"));
  const TotpSecret secret = *generated.result();
  REQUIRE(secret.is_valid());
  *secret_key = secret.shared_secret_key();
  // What the user's authenticator app shows, computed here from the secret.
  const std::string code = TotpCode(*secret_key, UnixTime());
  const MultiFactorAssertion assertion = TotpMultiFactorGenerator::GetAssertionForEnrollment(secret, code.c_str());
  REQUIRE(assertion.is_valid());
  CHECK_EQ(assertion.factor_id(), std::string("totp"));
  const Future<User> enrolled = user.multi_factor().Enroll(assertion, display_name);
  REQUIRE(WaitForCompletion(enrolled, "multi_factor().Enroll (totp)"));
  return *enrolled.result();
}

// A password account with a verified email, signed in.
User VerifiedPasswordUser(auth::Auth* auth, const std::string& email) {
  const User created = CreateUser(auth, email);
  MarkEmailVerified(created.uid());
  return created;
}

// A sign-in that must stop at the second factor; its resolver.
MultiFactorResolver RequireSecondFactor(const hearth::FutureBase& sign_in, auth::Auth* auth) {
  REQUIRE(WaitForCompletion(sign_in, "first factor", auth::kAuthErrorSecondFactorRequired));
  CHECK(!auth->current_user().is_valid());
  const MultiFactorResolver resolver = MultiFactorResolver::FromFuture(sign_in);
  REQUIRE(resolver.is_valid());
  return resolver;
}

MultiFactorInfo HintOf(const MultiFactorResolver& resolver, const char* factor_id) {
  for (const MultiFactorInfo& hint : resolver.hints()) {
    if (hint.factor_id() == factor_id) return hint;
  }
  RecordFailure(__FILE__, __LINE__, std::string("no ") + factor_id + " hint");
  throw TestAborted();
}

// Texts the hint's phone and answers with the code; the resolved sign-in.
Future<AuthResult> ResolveWithPhone(auth::Auth* auth, const MultiFactorResolver& resolver, const MultiFactorInfo& hint) {
  PhoneAuthOptions options;
  options.multi_factor_session = resolver.session();
  options.multi_factor_hint = hint;
  const std::string verification_id = VerifyNumber(auth, options).verification_id;
  const MultiFactorAssertion assertion = PhoneMultiFactorGenerator::GetAssertion(
      PhoneAuthProvider::GetInstance(auth).GetCredential(verification_id.c_str(), CodeFor(verification_id).c_str()));
  return resolver.ResolveSignIn(assertion);
}

}  // namespace

// ---- TOTP codes (no emulator) -----------------------------------------------------------------------

HEARTH_TEST(testOurRfc6238MatchesTheRfcTestVectors) {
  // RFC 6238 appendix B, SHA-1, 8 digits.
  CHECK_EQ(TotpCode(kRfcSecret, 59, 8), std::string("94287082"));
  CHECK_EQ(TotpCode(kRfcSecret, 1111111109, 8), std::string("07081804"));
  CHECK_EQ(TotpCode(kRfcSecret, 1234567890, 8), std::string("89005924"));
  CHECK_EQ(TotpCode(kRfcSecret, 20000000000, 8), std::string("65353130"));
  // RFC 2202 HMAC-SHA-1 test case 2.
  const std::string key = "Jefe", data = "what do ya want for nothing?";
  const std::vector<uint8_t> mac =
      HmacSha1(std::vector<uint8_t>(key.begin(), key.end()), std::vector<uint8_t>(data.begin(), data.end()));
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t byte : mac) hex += std::string{kHex[byte >> 4], kHex[byte & 15]};
  CHECK_EQ(hex, std::string("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"));
}

HEARTH_TEST(testTheLibrarysTotpCodesMatchOurs) {
  const int64_t times[] = {0, 59, 1111111109, 1234567890, 2000000000, UnixTime()};
  for (int64_t t : times) {
    char code[16] = {0};
    REQUIRE_EQ(hearth_totp_code_generate(kRfcSecret, "SHA1", 6, 30, t, code, sizeof code), 0);
    CHECK_EQ(std::string(code), TotpCode(kRfcSecret, t));
    REQUIRE_EQ(hearth_totp_code_generate(kRfcSecret, "SHA1", 8, 30, t, code, sizeof code), 0);
    CHECK_EQ(std::string(code), TotpCode(kRfcSecret, t, 8));
    CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, t), TotpCode(kRfcSecret, t));
    // Lower case and padding are the same secret.
    CHECK_EQ(TotpMultiFactorGenerator::GenerateCode("gezdgnbvgy3tqojqgezdgnbvgy3tqojq", t), TotpCode(kRfcSecret, t));
  }
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, 59, 8), std::string("94287082"));
  // Bad input gives "" (the C function an error), never a crash.
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(nullptr, 59), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode("not base32!", 59), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, -1), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, 59, 0), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, 59, 6, 0), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode(kRfcSecret, 59, 6, 30, "MD5"), std::string(""));
  CHECK_EQ(TotpMultiFactorGenerator::GenerateCode("\xff\xfe", 59), std::string(""));
  char small[6];
  CHECK_EQ(hearth_totp_code_generate(kRfcSecret, "SHA1", 6, 30, 59, small, sizeof small),
           static_cast<int>(HEARTH_ERROR_INVALID_ARGUMENT));
  CHECK_EQ(hearth_totp_code_generate(kRfcSecret, "SHA1", 6, 30, 59, nullptr, 16), static_cast<int>(HEARTH_ERROR_INVALID_ARGUMENT));
}

HEARTH_TEST(testMultiFactorValueTypesAreSafeWhenInvalid) {
  const MultiFactorInfo info;
  CHECK(!info.is_valid());
  CHECK_EQ(info.uid(), std::string(""));
  CHECK_EQ(info.factor_id(), std::string(""));
  CHECK_EQ(info.display_name(), std::string(""));
  CHECK_EQ(info.phone_number(), std::string(""));
  CHECK_EQ(info.enrollment_timestamp(), uint64_t{0});
  CHECK(!MultiFactorSession().is_valid());
  CHECK(!MultiFactorAssertion().is_valid());
  CHECK_EQ(MultiFactorAssertion().factor_id(), std::string(""));
  const TotpSecret secret;
  CHECK(!secret.is_valid());
  CHECK_EQ(secret.shared_secret_key(), std::string(""));
  CHECK_EQ(secret.code_length(), 0);
  CHECK_EQ(secret.GenerateQrCodeUrl("a@example.com", "Hearth"), std::string(""));
  CHECK_EQ(secret.GenerateCode(59), std::string(""));

  CHECK(!PhoneMultiFactorGenerator::GetAssertion(auth::PhoneAuthCredential()).is_valid());
  CHECK(!TotpMultiFactorGenerator::GetAssertionForEnrollment(secret, "123456").is_valid());
  CHECK(!TotpMultiFactorGenerator::GetAssertionForSignIn(nullptr, "123456").is_valid());
  CHECK(!TotpMultiFactorGenerator::GetAssertionForSignIn("enrollment", nullptr).is_valid());
  CHECK(!TotpMultiFactorGenerator::GetAssertionForSignIn("enrollment", "12\xff").is_valid());
  const MultiFactorAssertion for_sign_in = TotpMultiFactorGenerator::GetAssertionForSignIn("enrollment", "123456");
  CHECK(for_sign_in.is_valid());
  const MultiFactorAssertion copy = for_sign_in;
  CHECK(copy.c_assertion() == for_sign_in.c_assertion());
  CHECK_EQ(TotpMultiFactorGenerator::GenerateSecret(MultiFactorSession()).status(), hearth::kFutureStatusInvalid);

  const MultiFactorResolver none = MultiFactorResolver::FromFuture(Future<AuthResult>());
  CHECK(!none.is_valid());
  CHECK(none.hints().empty());
  CHECK(!none.session().is_valid());
  CHECK_EQ(none.ResolveSignIn(for_sign_in).status(), hearth::kFutureStatusInvalid);

  const User nobody;
  CHECK(nobody.multi_factor().enrolled_factors().empty());
  CHECK_EQ(nobody.multi_factor().GetSession().status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.multi_factor().Enroll(for_sign_in).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.multi_factor().Unenroll("enrollment").status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(std::string(PhoneMultiFactorGenerator::kFactorId), std::string("phone"));
  CHECK_EQ(std::string(TotpMultiFactorGenerator::kFactorId), std::string("totp"));
}

// ---- phone second factor ----------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testAPhoneSecondFactorEnrolledAfterAPasswordSignInFinishesTheNextSignIn) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("mfa-phone");
  const User user = VerifiedPasswordUser(auth, email);
  CHECK(user.multi_factor().enrolled_factors().empty());
  const std::string number = NewPhoneNumber();
  const uint64_t before_ms = static_cast<uint64_t>(UnixTime() - 5) * 1000;
  const User enrolled = EnrollPhone(auth, user, number, "Work phone");
  CHECK_EQ(enrolled.uid(), user.uid());
  const std::vector<MultiFactorInfo> factors = enrolled.multi_factor().enrolled_factors();
  REQUIRE_EQ(factors.size(), size_t{1});
  const MultiFactorInfo factor = factors[0];
  CHECK_EQ(factor.factor_id(), std::string("phone"));
  CHECK_EQ(factor.display_name(), std::string("Work phone"));
  CHECK_EQ(factor.phone_number(), number);
  CHECK(!factor.uid().empty());
  CHECK(factor.enrollment_timestamp() >= before_ms);
  CHECK(factor.enrollment_timestamp() <= static_cast<uint64_t>(UnixTime() + 5) * 1000);
  CHECK_EQ(auth->current_user().multi_factor().enrolled_factors().size(), size_t{1});
  // The phone number is a second factor, not the account's own.
  CHECK_EQ(enrolled.phone_number(), std::string(""));

  auth->SignOut();
  CountingAuthStateListener listener;
  auth->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&listener] { return listener.calls.load() == 1; }));

  const MultiFactorResolver resolver = RequireSecondFactor(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), auth);
  const std::vector<MultiFactorInfo> hints = resolver.hints();
  REQUIRE_EQ(hints.size(), size_t{1});
  CHECK_EQ(hints[0].factor_id(), std::string("phone"));
  CHECK_EQ(hints[0].uid(), factor.uid());
  CHECK_EQ(hints[0].display_name(), std::string("Work phone"));
  CHECK_EQ(hints[0].phone_number(), MaskedPhoneNumber(number));
  CHECK(resolver.session().is_valid());
  SleepMs(100);
  CHECK_EQ(listener.calls.load(), 1);

  // A wrong code is refused and the resolver can be used again.
  PhoneAuthOptions options;
  options.multi_factor_session = resolver.session();
  options.multi_factor_hint = hints[0];
  const std::string verification_id = VerifyNumber(auth, options).verification_id;
  const std::string code = CodeFor(verification_id);
  const std::string wrong = code == "000000" ? "111111" : "000000";
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const Future<AuthResult> refused = resolver.ResolveSignIn(
      PhoneMultiFactorGenerator::GetAssertion(provider.GetCredential(verification_id.c_str(), wrong.c_str())));
  CHECK(WaitForCompletion(refused, "ResolveSignIn (wrong code)", auth::kAuthErrorInvalidVerificationCode));
  CHECK(!auth->current_user().is_valid());

  const Future<AuthResult> resolved = resolver.ResolveSignIn(
      PhoneMultiFactorGenerator::GetAssertion(provider.GetCredential(verification_id.c_str(), code.c_str())));
  REQUIRE(WaitForCompletion(resolved, "ResolveSignIn (phone)"));
  CHECK_EQ(resolved.result()->user.uid(), user.uid());
  CHECK_EQ(resolved.result()->user.email(), email);
  CHECK_EQ(auth->current_user().uid(), user.uid());
  // Auth-state listeners are told once, when the second factor resolves the sign-in.
  REQUIRE(WaitUntil([&listener] { return listener.calls.load() >= 2; }));
  SleepMs(200);
  CHECK_EQ(listener.calls.load(), 2);
  auth->RemoveAuthStateListener(&listener);
}

HEARTH_EMULATOR_TEST(testEnrollingNeedsAVerifiedEmailAndOneFactorPerNumber) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const User unverified = CreateUser(auth, NewEmail("mfa-unverified"));
  PhoneAuthOptions options;
  options.phone_number = NewPhoneNumber();
  options.multi_factor_session = NewSession(unverified);
  const Future<PhoneAuthProvider::VerificationResult> refused = PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options);
  CHECK(WaitForCompletion(refused, "VerifyPhoneNumber (enrolling, unverified email)", auth::kAuthErrorUnverifiedEmail));
  const Future<TotpSecret> no_secret = TotpMultiFactorGenerator::GenerateSecret(NewSession(unverified));
  CHECK(WaitForCompletion(no_secret, "GenerateSecret (unverified email)", auth::kAuthErrorUnverifiedEmail));

  MarkEmailVerified(unverified.uid());
  const std::string number = NewPhoneNumber();
  PhoneAuthProvider::ForceResendingToken token;
  const User enrolled = EnrollPhone(auth, unverified, number, nullptr, &token);
  CHECK_EQ(enrolled.multi_factor().enrolled_factors().at(0).display_name(), std::string(""));
  // Within the freshness window the same request would get the used verification id back without
  // asking the server: force a new one.
  PhoneAuthOptions again;
  again.phone_number = number;
  again.force_resending_token = &token;
  again.multi_factor_session = NewSession(enrolled);
  const Future<PhoneAuthProvider::VerificationResult> twice = PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(again);
  CHECK(WaitForCompletion(twice, "VerifyPhoneNumber (enrolling the same number)", auth::kAuthErrorSecondFactorAlreadyEnrolled));
}

// ---- TOTP second factor ------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testATotpSecondFactorEnrolledAfterAPasswordSignInFinishesTheNextSignIn) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("mfa-totp");
  const User user = VerifiedPasswordUser(auth, email);

  const Future<TotpSecret> generated = TotpMultiFactorGenerator::GenerateSecret(NewSession(user));
  REQUIRE(WaitForCompletion(generated, "TotpMultiFactorGenerator::GenerateSecret"));
  const TotpSecret secret = *generated.result();
  REQUIRE(secret.is_valid());
  const std::string key = secret.shared_secret_key();
  std::vector<uint8_t> key_bytes;
  CHECK(Base32Decode(key, &key_bytes));
  CHECK(key_bytes.size() >= 10);
  CHECK_EQ(secret.code_length(), 6);
  CHECK_EQ(secret.code_interval_seconds(), 30);
  CHECK_EQ(secret.hashing_algorithm(), std::string("SHA1"));
  const std::string qr = secret.GenerateQrCodeUrl(email.c_str(), "Hearth Game");
  CHECK_EQ(qr.rfind("otpauth://totp/", 0), size_t{0});
  CHECK(qr.find("secret=" + key) != std::string::npos);
  CHECK(qr.find("issuer=Hearth%20Game") != std::string::npos);
  CHECK(qr.find("digits=6") != std::string::npos);
  CHECK(qr.find("period=30") != std::string::npos);
  CHECK_EQ(secret.GenerateQrCodeUrl(nullptr, "Hearth"), std::string(""));
  CHECK_EQ(secret.GenerateQrCodeUrl(email.c_str(), "\xff"), std::string(""));

  // The library's code (hearth_totp_code_generate, also through the wrapper) is RFC 6238's, as we
  // compute it ourselves.
  const int64_t now = UnixTime();
  char library_code[16] = {0};
  REQUIRE_EQ(hearth_totp_code_generate(key.c_str(), secret.hashing_algorithm().c_str(), secret.code_length(),
                                       secret.code_interval_seconds(), now, library_code, sizeof library_code),
             0);
  const std::string ours = TotpCode(key, now);
  CHECK_EQ(std::string(library_code), ours);
  CHECK_EQ(secret.GenerateCode(now), ours);

  // A wrong code does not enroll.
  const std::string wrong = ours == "000000" ? "111111" : "000000";
  const Future<User> refused =
      user.multi_factor().Enroll(TotpMultiFactorGenerator::GetAssertionForEnrollment(secret, wrong.c_str()), "Authenticator");
  CHECK(WaitForCompletion(refused, "Enroll (wrong TOTP code)", auth::kAuthErrorInvalidVerificationCode));

  const Future<User> enrolled =
      user.multi_factor().Enroll(TotpMultiFactorGenerator::GetAssertionForEnrollment(secret, library_code), "Authenticator");
  REQUIRE(WaitForCompletion(enrolled, "Enroll (TOTP, the library's code)"));
  const std::vector<MultiFactorInfo> factors = enrolled.result()->multi_factor().enrolled_factors();
  REQUIRE_EQ(factors.size(), size_t{1});
  CHECK_EQ(factors[0].factor_id(), std::string("totp"));
  CHECK_EQ(factors[0].display_name(), std::string("Authenticator"));
  CHECK_EQ(factors[0].phone_number(), std::string(""));
  CHECK(factors[0].enrollment_timestamp() > 0);

  auth->SignOut();
  CountingAuthStateListener listener;
  auth->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&listener] { return listener.calls.load() == 1; }));
  const MultiFactorResolver resolver = RequireSecondFactor(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), auth);
  const MultiFactorInfo hint = HintOf(resolver, "totp");
  CHECK_EQ(hint.uid(), factors[0].uid());
  CHECK_EQ(hint.display_name(), std::string("Authenticator"));

  const Future<AuthResult> wrong_sign_in =
      resolver.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn(hint.uid().c_str(), wrong.c_str()));
  CHECK(WaitForCompletion(wrong_sign_in, "ResolveSignIn (wrong TOTP code)", auth::kAuthErrorInvalidVerificationCode));
  // The host kept the shared secret; the code is computed here.
  const std::string code = TotpCode(key, UnixTime());
  const Future<AuthResult> resolved =
      resolver.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn(hint.uid().c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(resolved, "ResolveSignIn (TOTP)"));
  CHECK_EQ(resolved.result()->user.uid(), user.uid());
  CHECK_EQ(auth->current_user().uid(), user.uid());
  REQUIRE(WaitUntil([&listener] { return listener.calls.load() >= 2; }));
  SleepMs(200);
  CHECK_EQ(listener.calls.load(), 2);
  auth->RemoveAuthStateListener(&listener);
}

// ---- after a provider sign-in ----------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testSecondFactorsEnrolledAfterAProviderSignInFinishItsNextSignIns) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeIdentity google;
  google.sub = NewSubject("g-mfa");
  google.email = NewEmail("google-mfa");
  google.email_verified = 1;
  const std::string id_token = google.Json();
  const Future<AuthResult> first =
      auth->SignInAndRetrieveDataWithCredential(auth::GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr));
  REQUIRE(WaitForCompletion(first, "Google sign-in"));
  const User user = first.result()->user;
  REQUIRE(user.is_email_verified());

  const std::string number = NewPhoneNumber();
  const User with_phone = EnrollPhone(auth, user, number, "Phone");
  std::string key;
  const User with_both = EnrollTotp(with_phone, "Authenticator", &key);
  CHECK_EQ(with_both.multi_factor().enrolled_factors().size(), size_t{2});

  // With the phone.
  auth->SignOut();
  const MultiFactorResolver by_phone = RequireSecondFactor(
      auth->SignInAndRetrieveDataWithCredential(auth::GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr)), auth);
  CHECK_EQ(by_phone.hints().size(), size_t{2});
  const MultiFactorInfo phone_hint = HintOf(by_phone, "phone");
  CHECK_EQ(phone_hint.phone_number(), MaskedPhoneNumber(number));
  const Future<AuthResult> resolved_by_phone = ResolveWithPhone(auth, by_phone, phone_hint);
  REQUIRE(WaitForCompletion(resolved_by_phone, "ResolveSignIn (phone, after Google)"));
  CHECK_EQ(resolved_by_phone.result()->user.uid(), user.uid());
  CHECK_EQ(ProviderIds(resolved_by_phone.result()->user), (std::vector<std::string>{"google.com"}));

  // With the authenticator, after SignInWithCredential (a Future<User>).
  auth->SignOut();
  const MultiFactorResolver by_totp =
      RequireSecondFactor(auth->SignInWithCredential(auth::GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr)), auth);
  const MultiFactorInfo totp_hint = HintOf(by_totp, "totp");
  const std::string code = TotpCode(key, UnixTime());
  const Future<AuthResult> resolved_by_totp =
      by_totp.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn(totp_hint.uid().c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(resolved_by_totp, "ResolveSignIn (TOTP, after Google)"));
  CHECK_EQ(auth->current_user().uid(), user.uid());
}

// ---- unenrolling -------------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testUnenrollingEveryFactorEndsTheSecondStep) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("mfa-unenroll");
  const User user = VerifiedPasswordUser(auth, email);
  const User with_phone = EnrollPhone(auth, user, NewPhoneNumber(), "Phone");
  std::string key;
  const User with_both = EnrollTotp(with_phone, "Authenticator", &key);
  const std::vector<MultiFactorInfo> factors = with_both.multi_factor().enrolled_factors();
  REQUIRE_EQ(factors.size(), size_t{2});
  const MultiFactorInfo phone = factors[0].factor_id() == "phone" ? factors[0] : factors[1];
  const MultiFactorInfo totp = factors[0].factor_id() == "totp" ? factors[0] : factors[1];

  const Future<User> without_phone = with_both.multi_factor().Unenroll(phone);
  REQUIRE(WaitForCompletion(without_phone, "Unenroll (phone, by info)"));
  const std::vector<MultiFactorInfo> left = without_phone.result()->multi_factor().enrolled_factors();
  REQUIRE_EQ(left.size(), size_t{1});
  CHECK_EQ(left[0].uid(), totp.uid());

  // Still one factor: the sign-in stops at it.
  auth->SignOut();
  const MultiFactorResolver resolver = RequireSecondFactor(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), auth);
  REQUIRE_EQ(resolver.hints().size(), size_t{1});
  const std::string code = TotpCode(key, UnixTime());
  const Future<AuthResult> resolved =
      resolver.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn(totp.uid().c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(resolved, "ResolveSignIn (TOTP)"));

  const User signed_in = auth->current_user();
  const Future<User> without_any = signed_in.multi_factor().Unenroll(totp.uid().c_str());
  REQUIRE(WaitForCompletion(without_any, "Unenroll (TOTP, by enrollment id)"));
  CHECK(without_any.result()->multi_factor().enrolled_factors().empty());
  CHECK(auth->current_user().multi_factor().enrolled_factors().empty());
  CHECK(WaitForCompletion(signed_in.multi_factor().Unenroll(totp.uid().c_str()), "Unenroll (again)",
                          auth::kAuthErrorMultiFactorInfoNotFound));
  CHECK(WaitForCompletion(signed_in.multi_factor().Unenroll(nullptr), "Unenroll (NULL)", auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(signed_in.multi_factor().Unenroll(MultiFactorInfo()), "Unenroll (invalid info)",
                          auth::kAuthErrorInvalidArgument));

  // No factor left: the password alone signs in.
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email).uid(), user.uid());
}

// ---- bad input and lifetimes -----------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testInvalidAssertionsAndResolversFailCleanly) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("mfa-bad");
  const User user = VerifiedPasswordUser(auth, email);
  CHECK(WaitForCompletion(user.multi_factor().Enroll(MultiFactorAssertion(), "x"), "Enroll (invalid assertion)",
                          auth::kAuthErrorInvalidArgument));
  // A sign-in assertion cannot enroll.
  CHECK(WaitForCompletion(user.multi_factor().Enroll(TotpMultiFactorGenerator::GetAssertionForSignIn("id", "123456")),
                          "Enroll (sign-in assertion)", auth::kAuthErrorInvalidArgument));
  std::string key;
  const User enrolled = EnrollTotp(user, "Authenticator", &key);
  const MultiFactorSession session = NewSession(enrolled);

  // A successful sign-in has no resolver, nor has a pending one.
  const Future<AuthResult> anonymous = auth->SignInAnonymously();
  CHECK(!MultiFactorResolver::FromFuture(anonymous).is_valid());
  REQUIRE(WaitForCompletion(anonymous, "SignInAnonymously"));
  CHECK(!MultiFactorResolver::FromFuture(anonymous).is_valid());
  auth->SignOut();
  const Future<AuthResult> wrong_password = auth->SignInWithEmailAndPassword(email.c_str(), kTestPasswordBad);
  REQUIRE(WaitForCompletion(wrong_password, "wrong password", auth::kAuthErrorWrongPassword));
  CHECK(!MultiFactorResolver::FromFuture(wrong_password).is_valid());

  Future<AuthResult> sign_in = auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword);
  const MultiFactorResolver resolver = RequireSecondFactor(sign_in, auth);
  // The resolver keeps what it needs: the Future may go.
  sign_in.Release();
  CHECK(WaitForCompletion(resolver.ResolveSignIn(MultiFactorAssertion()), "ResolveSignIn (invalid assertion)",
                          auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(
      resolver.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn("no-such-enrollment", "123456")),
      "ResolveSignIn (unknown enrollment)", auth::kAuthErrorMultiFactorInfoNotFound));
  // Texting a TOTP hint makes no sense.
  PhoneAuthOptions options;
  options.multi_factor_session = resolver.session();
  options.multi_factor_hint = HintOf(resolver, "totp");
  CHECK(WaitForCompletion(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options), "VerifyPhoneNumber (TOTP hint)",
                          auth::kAuthErrorMissingMultiFactorInfo));
  CHECK(!auth->current_user().is_valid());

  // After the App is gone, the resolver's data stays readable and operations fail without a crash.
  const std::vector<MultiFactorInfo> hints = resolver.hints();
  fixture.Destroy();
  CHECK_EQ(hints.at(0).display_name(), std::string("Authenticator"));
  CHECK_EQ(resolver.hints().at(0).factor_id(), std::string("totp"));
  const std::string code = TotpCode(key, UnixTime());
  const Future<AuthResult> late =
      resolver.ResolveSignIn(TotpMultiFactorGenerator::GetAssertionForSignIn(hints.at(0).uid().c_str(), code.c_str()));
  CHECK(WaitForCompletion(late, "ResolveSignIn after the App was deleted", auth::kAuthErrorAppDestroyed));
  CHECK(WaitForCompletion(TotpMultiFactorGenerator::GenerateSecret(session), "GenerateSecret after the App was deleted",
                          auth::kAuthErrorAppDestroyed));
}
