// Phone number sign-in through PhoneAuthProvider: Firebase's test numbers, SMS codes from the emulator,
// wrong and expired codes, re-entrancy and resending, the listener form, linking, conflicts, updating
// and reauthenticating, app verification, and bad input.
#include "federated.h"
#include "phone.h"

#include <cstring>

using namespace hearth_test;
namespace auth = hearth::auth;
using auth::AuthResult;
using auth::PhoneAuthCredential;
using auth::PhoneAuthOptions;
using auth::PhoneAuthProvider;
using auth::User;
using hearth::Future;

namespace {

using VerificationResult = PhoneAuthProvider::VerificationResult;

PhoneAuthOptions OptionsFor(const std::string& phone_number) {
  PhoneAuthOptions options;
  options.phone_number = phone_number;
  return options;
}

}  // namespace

// ---- the provider and its types (no emulator) -------------------------------------------------------

HEARTH_TEST(testPhoneProviderTypesMatchTheCppSdk) {
  CHECK_EQ(std::string(PhoneAuthProvider::kProviderId), std::string("phone"));
  const PhoneAuthOptions options;
  CHECK(options.force_resending_token == nullptr);
  CHECK(options.phone_number.empty());
  CHECK_EQ(options.timeout_milliseconds, uint32_t{0});
  CHECK(options.ui_parent == nullptr);
  CHECK(!options.multi_factor_session.is_valid());
  CHECK(!options.multi_factor_hint.is_valid());

  const PhoneAuthProvider::ForceResendingToken none;
  CHECK(!none.is_valid());
  CHECK(none == PhoneAuthProvider::ForceResendingToken());
  const PhoneAuthProvider::ForceResendingToken token(hearth::detail::kAdopt, "opaque-token");
  PhoneAuthProvider::ForceResendingToken copy = none;
  copy = token;
  CHECK(copy == token);
  CHECK(copy != none);
  CHECK(token.is_valid());
  CHECK_EQ(std::string(copy.c_token()), std::string("opaque-token"));
}

HEARTH_TEST(testGetCredentialMakesAPhoneCredentialAndRefusesMalformedArguments) {
  // GetCredential needs no Auth: the inert provider of a null Auth makes credentials too.
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(nullptr);
  const PhoneAuthCredential credential = provider.GetCredential("verification-id", "123456");
  CHECK(credential.is_valid());
  CHECK_EQ(credential.provider(), std::string("phone"));
  CHECK_EQ(credential.sms_code(), std::string(""));
  // A PhoneAuthCredential is a Credential: copies and slices stay valid.
  const auth::Credential sliced = credential;
  CHECK(sliced.is_valid());
  CHECK_EQ(sliced.provider(), std::string("phone"));

  CHECK(!provider.GetCredential(nullptr, "123456").is_valid());
  CHECK(!provider.GetCredential("verification-id", nullptr).is_valid());
  CHECK(!provider.GetCredential("\xff\xfe", "123456").is_valid());
  CHECK(!provider.GetCredential("verification-id", "12\xc3").is_valid());
  CHECK(!PhoneAuthCredential().is_valid());
  CHECK_EQ(PhoneAuthCredential().provider(), std::string(""));
}

HEARTH_TEST(testTheProviderOfANullAuthStartsNothing) {
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(nullptr);
  CHECK(&provider == &PhoneAuthProvider::GetInstance(nullptr));
  RecordingPhoneListener listener(nullptr);
  CHECK_EQ(provider.VerifyPhoneNumber(OptionsFor(kTestPhoneNumber), &listener), auth::kAuthErrorInvalidArgument);
  CHECK_EQ(provider.VerifyPhoneNumber(OptionsFor(kTestPhoneNumber)).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(provider.VerifyPhoneNumberLastResult().status(), hearth::kFutureStatusInvalid);
  SleepMs(50);
  CHECK(listener.Events().empty());
}

// ---- signing in with a code ---------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testFirebasesDocumentedTestNumberSignsInWithItsFixedCode) {
  // Firebase's documented scenario: a fictional number with a fixed code, app verification disabled
  // for testing, no SMS sent.
  EmulatorSettings numbers("{\"testPhoneNumbers\":{\"+16505554567\":\"123456\"}}", "{\"testPhoneNumbers\":{}}");
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->SetAppVerificationDisabledForTesting(true), auth::kAuthErrorNone);
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  CHECK(&provider == &PhoneAuthProvider::GetInstance(auth));

  // The separators people type are ignored.
  const VerificationResult sent = VerifyNumber(auth, OptionsFor("+1 (650) 555-4567"));
  CHECK(sent.force_resending_token.is_valid());
  const Future<VerificationResult> last = provider.VerifyPhoneNumberLastResult();
  REQUIRE(last.result() != nullptr);
  CHECK_EQ(last.result()->verification_id, sent.verification_id);

  const Future<AuthResult> signed_in = auth->SignInAndRetrieveDataWithCredential(
      provider.GetCredential(sent.verification_id.c_str(), kTestPhoneCode));
  REQUIRE(WaitForCompletion(signed_in, "SignInAndRetrieveDataWithCredential (test number)"));
  const AuthResult& result = *signed_in.result();
  CHECK(result.additional_user_info.is_new_user);
  CHECK_EQ(result.additional_user_info.provider_id, std::string("phone"));
  CHECK_EQ(result.user.phone_number(), std::string(kTestPhoneNumber));
  CHECK(!result.user.is_anonymous());
  CHECK_EQ(result.user.email(), std::string(""));
  CHECK_EQ(ProviderIds(result.user), (std::vector<std::string>{"phone"}));
  CHECK_EQ(ProviderInfo(result.user, "phone").phone_number(), std::string(kTestPhoneNumber));
  CHECK_EQ(auth->current_user().uid(), result.user.uid());
}

HEARTH_EMULATOR_TEST(testACodeReadFromTheEmulatorSignsInAndSignsInAgainToTheSameAccount) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string number = NewPhoneNumber();
  const VerificationResult sent = VerifyNumber(auth, number);
  bool listed = false;
  for (const SentCode& code : SentCodes()) {
    if (code.session_info != sent.verification_id) continue;
    listed = true;
    CHECK_EQ(code.phone_number, number);
    CHECK_EQ(code.code.size(), size_t{6});
  }
  REQUIRE(listed);
  const std::string code = CodeFor(sent.verification_id);
  const Future<User> first =
      auth->SignInWithCredential(PhoneAuthProvider::GetInstance(auth).GetCredential(sent.verification_id.c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(first, "SignInWithCredential (listed code)"));
  CHECK_EQ(first.result()->phone_number(), number);

  // A used code is gone; a new verification signs in to the same account.
  const Future<User> reused =
      auth->SignInWithCredential(PhoneAuthProvider::GetInstance(auth).GetCredential(sent.verification_id.c_str(), code.c_str()));
  CHECK(WaitForCompletion(reused, "SignInWithCredential (used code)", auth::kAuthErrorInvalidVerificationId));
  auth->SignOut();
  PhoneAuthOptions resend = OptionsFor(number);
  PhoneAuthProvider::ForceResendingToken token = sent.force_resending_token;
  resend.force_resending_token = &token;
  const VerificationResult again = VerifyNumber(auth, resend);
  CHECK_NE(again.verification_id, sent.verification_id);
  const Future<AuthResult> second = auth->SignInAndRetrieveDataWithCredential(PhoneAuthProvider::GetInstance(auth).GetCredential(
      again.verification_id.c_str(), CodeFor(again.verification_id).c_str()));
  REQUIRE(WaitForCompletion(second, "SignInAndRetrieveDataWithCredential (again)"));
  CHECK_EQ(second.result()->user.uid(), first.result()->uid());
  CHECK(!second.result()->additional_user_info.is_new_user);
}

HEARTH_EMULATOR_TEST(testAWrongCodeFailsWithInvalidVerificationCodeAndTheRightOneStillWorks) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const VerificationResult sent = VerifyNumber(auth, NewPhoneNumber());
  const std::string code = CodeFor(sent.verification_id);
  const std::string wrong = code == "000000" ? "111111" : "000000";
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const Future<User> refused = auth->SignInWithCredential(provider.GetCredential(sent.verification_id.c_str(), wrong.c_str()));
  CHECK(WaitForCompletion(refused, "SignInWithCredential (wrong code)", auth::kAuthErrorInvalidVerificationCode));
  CHECK(!auth->current_user().is_valid());
  const Future<User> accepted = auth->SignInWithCredential(provider.GetCredential(sent.verification_id.c_str(), code.c_str()));
  CHECK(WaitForCompletion(accepted, "SignInWithCredential (right code)"));
  // Missing parts fail before any request, with the C++ SDK's codes.
  CHECK(WaitForCompletion(auth->SignInWithCredential(provider.GetCredential("", "123456")), "empty verification id",
                          auth::kAuthErrorMissingVerificationId));
  CHECK(WaitForCompletion(auth->SignInWithCredential(provider.GetCredential(sent.verification_id.c_str(), "")),
                          "empty code", auth::kAuthErrorMissingVerificationCode));
  CHECK(WaitForCompletion(auth->SignInWithCredential(provider.GetCredential("no-such-session", "123456")),
                          "unknown verification id", auth::kAuthErrorInvalidVerificationId));
}

HEARTH_EMULATOR_TEST(testAnExpiredVerificationFailsWithSessionExpired) {
  EmulatorSettings ttl("{\"smsCodeTtlSeconds\":1}", "{\"smsCodeTtlSeconds\":300}");
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const VerificationResult sent = VerifyNumber(auth, NewPhoneNumber());
  const std::string code = CodeFor(sent.verification_id);
  SleepMs(1500);
  const Future<User> expired = auth->SignInWithCredential(
      PhoneAuthProvider::GetInstance(auth).GetCredential(sent.verification_id.c_str(), code.c_str()));
  CHECK(WaitForCompletion(expired, "SignInWithCredential (expired)", auth::kAuthErrorSessionExpired));
  CHECK(!auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testVerifyingANumberTwiceQuicklySendsOneCodeAndGivesTheSameVerificationId) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const std::string number = NewPhoneNumber();
  const Future<VerificationResult> first = provider.VerifyPhoneNumber(OptionsFor(number));
  const Future<VerificationResult> second = provider.VerifyPhoneNumber(OptionsFor(number));
  REQUIRE(WaitForCompletion(first, "VerifyPhoneNumber (first)"));
  REQUIRE(WaitForCompletion(second, "VerifyPhoneNumber (second, while the first was in flight)"));
  CHECK(first != second);
  CHECK_EQ(second.result()->verification_id, first.result()->verification_id);
  CHECK(second.result()->force_resending_token == first.result()->force_resending_token);
  // Still fresh: a third request after the first finished gets the same answer.
  const VerificationResult third = VerifyNumber(auth, number);
  CHECK_EQ(third.verification_id, first.result()->verification_id);
  CHECK_EQ(CodesSentTo(number), size_t{1});
}

HEARTH_EMULATOR_TEST(testTheForceResendingTokenSendsANewCode) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const std::string number = NewPhoneNumber();
  const VerificationResult first = VerifyNumber(auth, number);
  REQUIRE(first.force_resending_token.is_valid());
  PhoneAuthProvider::ForceResendingToken token = first.force_resending_token;
  PhoneAuthOptions resend = OptionsFor(number);
  resend.force_resending_token = &token;
  const VerificationResult second = VerifyNumber(auth, resend);
  CHECK_NE(second.verification_id, first.verification_id);
  CHECK(second.force_resending_token != first.force_resending_token);
  CHECK_EQ(CodesSentTo(number), size_t{2});
  // A default token forces nothing: the new code is fresh, so no third SMS.
  PhoneAuthProvider::ForceResendingToken none;
  PhoneAuthOptions plain = OptionsFor(number);
  plain.force_resending_token = &none;
  CHECK_EQ(VerifyNumber(auth, plain).verification_id, second.verification_id);
  CHECK_EQ(CodesSentTo(number), size_t{2});

  const Future<User> signed_in = auth->SignInWithCredential(
      provider.GetCredential(second.verification_id.c_str(), CodeFor(second.verification_id).c_str()));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (resent code)"));
  CHECK_EQ(signed_in.result()->phone_number(), number);
}

HEARTH_EMULATOR_TEST(testAVerificationIdStoredByTheHostSignsInAfterTheAppIsCreatedAgain) {
  const std::string number = NewPhoneNumber();
  std::string stored_verification_id;
  {
    // The player asks for the SMS, then the game is closed.
    TestApp before;
    stored_verification_id = VerifyNumber(before.auth(), number).verification_id;
  }
  TestApp after;
  auth::Auth* auth = after.auth();
  const std::string code = CodeFor(stored_verification_id);
  const Future<User> signed_in = auth->SignInWithCredential(
      PhoneAuthProvider::GetInstance(auth).GetCredential(stored_verification_id.c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (stored verification id)"));
  CHECK_EQ(signed_in.result()->phone_number(), number);
}

HEARTH_EMULATOR_TEST(testTheLanguageCodeSendsTheSmsInFrench) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  auth->set_language_code("fr");
  const std::string number = NewPhoneNumber();
  const VerificationResult sent = VerifyNumber(auth, number);
  std::string locale = "<not listed>";
  for (const SentCode& code : SentCodes()) {
    if (code.session_info == sent.verification_id) locale = code.locale;
  }
  CHECK_EQ(locale, std::string("fr"));
  const std::string french = "\"Votre code de validation est " + CodeFor(sent.verification_id) + ".\"";
  CHECK(WaitUntil([&french] { return EmulatorLog().find(french) != std::string::npos; }, 5000));
  const std::string log = EmulatorLog();
  const size_t line = log.find(number);
  REQUIRE(line != std::string::npos);
  const std::string sms_line = log.substr(line, log.find('\n', line) - line);
  CHECK(sms_line.find("X-Firebase-Locale fr") != std::string::npos);
  CHECK(sms_line.find("locale fr") != std::string::npos);
}

HEARTH_EMULATOR_TEST(testUseAppLanguageSendsTheNextSmsWithoutALocale) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  auth->set_language_code("fr");
  auth->UseAppLanguage();
  const std::string number = NewPhoneNumber();
  const VerificationResult sent = VerifyNumber(auth, number);
  std::string locale = "<not listed>";
  for (const SentCode& code : SentCodes()) {
    if (code.session_info == sent.verification_id) locale = code.locale;
  }
  CHECK_EQ(locale, std::string("en"));  // what the emulator records when the request names no locale
  const std::string english = "use the code " + CodeFor(sent.verification_id) + ".";
  CHECK(WaitUntil([&english] { return EmulatorLog().find(english) != std::string::npos; }, 5000));
  const std::string log = EmulatorLog();
  const size_t line = log.find(number);
  REQUIRE(line != std::string::npos);
  CHECK(log.substr(line, log.find('\n', line) - line).find("no X-Firebase-Locale") != std::string::npos);
}

// ---- the listener form ----------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testTheListenerIsToldTheCodeWasSentThenThatAutoRetrievalTimedOut) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string number = NewPhoneNumber();
  RecordingPhoneListener listener(fixture.app());
  PhoneAuthOptions options = OptionsFor(number);
  options.timeout_milliseconds = 300;
  const int64_t started = NowMs();
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options, &listener), auth::kAuthErrorNone);
  REQUIRE(listener.WaitForEvents(2));
  CHECK_EQ(listener.Events(), (std::vector<std::string>{"sent", "timeout"}));
  CHECK(listener.all_on_loop_thread());
  CHECK_EQ(listener.timed_out_verification_id(), listener.verification_id());
  CHECK(listener.token().is_valid());
  CHECK(listener.timed_out_at_ms() - listener.sent_at_ms() >= 250);
  CHECK(listener.timed_out_at_ms() - started < 10000);
  // Never OnVerificationCompleted: a desktop reads no SMS. Nothing more arrives.
  SleepMs(400);
  CHECK_EQ(listener.Events().size(), size_t{2});

  const std::string code = CodeFor(listener.verification_id());
  const Future<User> signed_in = auth->SignInWithCredential(
      PhoneAuthProvider::GetInstance(auth).GetCredential(listener.verification_id().c_str(), code.c_str()));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (listener's verification id)"));
  CHECK_EQ(signed_in.result()->phone_number(), number);
}

namespace {

// Also records the error code of a failure (the Hearth extra).
class CodedPhoneListener : public RecordingPhoneListener {
 public:
  using RecordingPhoneListener::RecordingPhoneListener;
  void OnVerificationFailedWithError(auth::AuthError error, const std::string& message) override {
    error_ = error;
    OnVerificationFailed(message);
  }
  std::atomic<int> error_{0};
};

}  // namespace

HEARTH_EMULATOR_TEST(testTheListenerIsToldVerificationFailedForABadNumberBeforeAnyRequest) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const size_t codes_before = SentCodes().size();
  RecordingPhoneListener plain(fixture.app());
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor("+1 650 CALL-NOW"), &plain),
             auth::kAuthErrorNone);
  REQUIRE(plain.WaitForEvents(1));
  SleepMs(100);
  CHECK_EQ(plain.Events(), (std::vector<std::string>{"failed"}));
  CHECK(!plain.failure().empty());
  CHECK(plain.all_on_loop_thread());

  CodedPhoneListener coded(fixture.app());
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor("16505554567"), &coded),
             auth::kAuthErrorNone);
  REQUIRE(coded.WaitForEvents(1));
  CHECK_EQ(coded.Events(), (std::vector<std::string>{"failed"}));
  CHECK_EQ(coded.error_.load(), static_cast<int>(auth::kAuthErrorInvalidPhoneNumber));
  // The message never repeats the number.
  CHECK(coded.failure().find("6505554567") == std::string::npos);

  CodedPhoneListener empty(fixture.app());
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor(""), &empty), auth::kAuthErrorNone);
  REQUIRE(empty.WaitForEvents(1));
  CHECK_EQ(empty.error_.load(), static_cast<int>(auth::kAuthErrorMissingPhoneNumber));
  CHECK_EQ(SentCodes().size(), codes_before);
}

HEARTH_EMULATOR_TEST(testAnArgumentRefusedDuringTheCallIsReturnedAndToldToTheListenerOnTheLoopThread) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  CHECK_EQ(provider.VerifyPhoneNumber(OptionsFor(NewPhoneNumber()), nullptr), auth::kAuthErrorInvalidArgument);

  CodedPhoneListener listener(fixture.app());
  LoopHold hold(fixture.app());
  CHECK_EQ(provider.VerifyPhoneNumber(OptionsFor("+1650\xff\xfe"), &listener), auth::kAuthErrorInvalidArgument);
  // Never inside the call.
  CHECK(listener.Events().empty());
  hold.Release();
  REQUIRE(listener.WaitForEvents(1));
  CHECK_EQ(listener.Events(), (std::vector<std::string>{"failed"}));
  CHECK_EQ(listener.error_.load(), static_cast<int>(auth::kAuthErrorInvalidArgument));
  CHECK(listener.all_on_loop_thread());

  CodedPhoneListener nul(fixture.app());
  CHECK_EQ(provider.VerifyPhoneNumber(OptionsFor(std::string("+1650555\0" "4567", 13)), &nul),
           auth::kAuthErrorInvalidArgument);
  REQUIRE(nul.WaitForEvents(1));
  CHECK_EQ(nul.error_.load(), static_cast<int>(auth::kAuthErrorInvalidArgument));
}

namespace {

// Counts timeouts in a static, so that a call reaching a destroyed listener would still be seen (if it
// did not crash first).
class TimeoutCountingListener : public RecordingPhoneListener {
 public:
  using RecordingPhoneListener::RecordingPhoneListener;
  void OnCodeAutoRetrievalTimeOut(const std::string& verification_id) override {
    ++timeouts;
    RecordingPhoneListener::OnCodeAutoRetrievalTimeOut(verification_id);
  }
  static std::atomic<int> timeouts;
};
std::atomic<int> TimeoutCountingListener::timeouts{0};

}  // namespace

HEARTH_EMULATOR_TEST(testADestroyedListenerIsToldNothingMore) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  TimeoutCountingListener::timeouts = 0;
  auto listener = std::make_unique<TimeoutCountingListener>(fixture.app());
  PhoneAuthOptions options = OptionsFor(NewPhoneNumber());
  options.timeout_milliseconds = 200;
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options, listener.get()), auth::kAuthErrorNone);
  REQUIRE(listener->WaitForEvents(1));
  CHECK_EQ(listener->Events(), (std::vector<std::string>{"sent"}));
  // Its timeout would come in 200 ms: destroying it ends its calls.
  listener.reset();
  SleepMs(500);
  CHECK_EQ(TimeoutCountingListener::timeouts.load(), 0);

  // Deleting the App after the code was sent: the timeout still to come is dropped.
  TimeoutCountingListener outlives(fixture.app());
  options.phone_number = NewPhoneNumber();
  options.timeout_milliseconds = 300;
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(options, &outlives), auth::kAuthErrorNone);
  REQUIRE(outlives.WaitForEvents(1));
  fixture.Destroy();
  SleepMs(600);
  CHECK_EQ(outlives.Events(), (std::vector<std::string>{"sent"}));
  CHECK_EQ(TimeoutCountingListener::timeouts.load(), 0);
}

namespace {

// Records what it hears without touching the App (which may be gone when the last call comes).
class CountingPhoneListener : public PhoneAuthProvider::Listener {
 public:
  void OnVerificationCompleted(auth::PhoneAuthCredential) override { Add("completed"); }
  void OnVerificationFailed(const std::string&) override {}
  void OnVerificationFailedWithError(auth::AuthError error, const std::string& message) override {
    Add("failed " + std::to_string(error) + (message.empty() ? " (no message)" : ""));
  }
  void OnCodeSent(const std::string&, const PhoneAuthProvider::ForceResendingToken&) override { Add("sent"); }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override { Add("timeout"); }
  std::vector<std::string> Events() {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }

 private:
  void Add(const std::string& event) {
    std::lock_guard<std::mutex> lock(mutex_);
    events_.push_back(event);
  }
  std::mutex mutex_;
  std::vector<std::string> events_;
};

}  // namespace

HEARTH_EMULATOR_TEST(testDeletingTheAppWhileTheCodeIsBeingSentTellsTheListenerItWasCancelled) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const int blackhole = ListeningSocketThatNeverAnswers();
  REQUIRE(blackhole > 0);
  REQUIRE_EQ(auth->UseEmulator("127.0.0.1", static_cast<uint32_t>(blackhole)), auth::kAuthErrorNone);
  CountingPhoneListener listener;
  REQUIRE_EQ(PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor(NewPhoneNumber()), &listener),
             auth::kAuthErrorNone);
  SleepMs(50);
  CHECK(listener.Events().empty());
  fixture.Destroy();
  // Hearth's own loop: before delete returned, exactly once.
  CHECK_EQ(listener.Events(), std::vector<std::string>{"failed " + std::to_string(auth::kAuthErrorCancelled)});
  SleepMs(100);
  CHECK_EQ(listener.Events(), std::vector<std::string>{"failed " + std::to_string(auth::kAuthErrorCancelled)});
}

HEARTH_EMULATOR_TEST(testAVerificationRefusedAtOnceIsToldOnTheLoopThreadOnce) {
  TestApp fixture;
  CountingPhoneListener listener;
  PhoneAuthOptions options = OptionsFor("+1555");
  options.phone_number.push_back('\0');  // refused by the wrapper before Hearth sees it
  LoopHold hold(fixture.app());
  CHECK_EQ(PhoneAuthProvider::GetInstance(fixture.auth()).VerifyPhoneNumber(options, &listener),
           auth::kAuthErrorInvalidArgument);
  CHECK(listener.Events().empty());  // never inside the call
  hold.Release();
  CHECK(WaitUntil([&] { return listener.Events().size() == 1; }));
  SleepMs(50);
  CHECK_EQ(listener.Events(), std::vector<std::string>{"failed " + std::to_string(auth::kAuthErrorInvalidArgument)});
}

// ---- linking, conflicts, updating, reauthenticating -------------------------------------------------

HEARTH_EMULATOR_TEST(testLinkingAPhoneNumberToAnEmailUser) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("phone-link");
  const User user = CreateUser(auth, email);
  const std::string number = NewPhoneNumber();
  const Future<AuthResult> linked = user.LinkWithCredential(PhoneCredential(auth, number));
  REQUIRE(WaitForCompletion(linked, "LinkWithCredential (phone)"));
  const User after = linked.result()->user;
  CHECK_EQ(after.uid(), user.uid());
  CHECK_EQ(after.phone_number(), number);
  CHECK_EQ(after.email(), email);
  CHECK_EQ(ProviderIds(after), (std::vector<std::string>{"password", "phone"}));
  CHECK_EQ(auth->current_user().phone_number(), number);

  // Linking a second number fails: the user has the provider already.
  const Future<AuthResult> twice = after.LinkWithCredential(PhoneCredential(auth, NewPhoneNumber()));
  CHECK(WaitForCompletion(twice, "LinkWithCredential (second number)", auth::kAuthErrorProviderAlreadyLinked));

  // The number now signs in to the email account.
  auth->SignOut();
  TestApp other("phone-link-other");
  CHECK_EQ(SignInWithPhone(other.auth(), number).uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testLinkingANumberAnotherAccountOwnsGivesAnUpdatedCredentialThatSignsInToTheOwner) {
  const std::string number = NewPhoneNumber();
  std::string owner_uid;
  {
    TestApp owner("phone-owner");
    owner_uid = SignInWithPhone(owner.auth(), number).uid();
  }
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const User user = CreateUser(auth, NewEmail("phone-conflict"));
  const Future<AuthResult> linked = user.LinkWithCredential(PhoneCredential(auth, number));
  REQUIRE(WaitForCompletion(linked, "LinkWithCredential (owned number)", auth::kAuthErrorCredentialAlreadyInUse));
  REQUIRE(linked.result() != nullptr);
  CHECK(!linked.result()->user.is_valid());
  const auth::Credential updated = linked.result()->additional_user_info.updated_credential;
  REQUIRE(updated.is_valid());
  CHECK_EQ(updated.provider(), std::string("phone"));
  // The user stays as they were.
  CHECK_EQ(auth->current_user().uid(), user.uid());
  CHECK_EQ(auth->current_user().phone_number(), std::string(""));

  // Firebase's recipe: sign in to the owner with the updated credential (a temporary proof, no SMS).
  const size_t codes = CodesSentTo(number);
  const Future<User> owner = auth->SignInWithCredential(updated);
  REQUIRE(WaitForCompletion(owner, "SignInWithCredential (updated credential)"));
  CHECK_EQ(owner.result()->uid(), owner_uid);
  CHECK_EQ(owner.result()->phone_number(), number);
  CHECK_EQ(CodesSentTo(number), codes);
}

HEARTH_EMULATOR_TEST(testUpdatingThePhoneNumberReplacesIt) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string first = NewPhoneNumber();
  const User user = SignInWithPhone(auth, first);
  const std::string second = NewPhoneNumber();
  const Future<User> updated = user.UpdatePhoneNumberCredential(PhoneCredential(auth, second));
  REQUIRE(WaitForCompletion(updated, "UpdatePhoneNumberCredential"));
  CHECK_EQ(updated.result()->uid(), user.uid());
  CHECK_EQ(updated.result()->phone_number(), second);
  CHECK_EQ(ProviderInfo(*updated.result(), "phone").phone_number(), second);
  CHECK_EQ(auth->current_user().phone_number(), second);
  const Future<User> last = user.UpdatePhoneNumberCredentialLastResult();
  REQUIRE(last.result() != nullptr);
  CHECK_EQ(last.result()->phone_number(), second);

  // The old number is free again: it signs up a new account.
  TestApp other("phone-update-other");
  CHECK_NE(SignInWithPhone(other.auth(), first).uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testUpdatingToANumberAnotherAccountOwnsFailsWithCredentialAlreadyInUse) {
  const std::string owned = NewPhoneNumber();
  {
    TestApp owner("phone-update-owner");
    SignInWithPhone(owner.auth(), owned);
  }
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string mine = NewPhoneNumber();
  const User user = SignInWithPhone(auth, mine);
  const Future<User> updated = user.UpdatePhoneNumberCredential(PhoneCredential(auth, owned));
  REQUIRE(WaitForCompletion(updated, "UpdatePhoneNumberCredential (owned number)", auth::kAuthErrorCredentialAlreadyInUse));
  CHECK(!updated.result()->is_valid());
  CHECK_EQ(auth->current_user().phone_number(), mine);
  // The updated credential is on the C future (a Future<User> has no AdditionalUserInfo).
  const hearth_auth_result* conflict = hearth_future_auth_result(updated.c_future());
  REQUIRE(conflict != nullptr);
  const hearth_credential* proof = hearth_auth_result_updated_credential(conflict);
  REQUIRE(proof != nullptr);
  CHECK_EQ(std::string(hearth_credential_provider(proof)), std::string("phone"));
}

HEARTH_EMULATOR_TEST(testUpdatingThePhoneNumberOfAnInvalidUserOrWithAnInvalidCredential) {
  CHECK_EQ(User().UpdatePhoneNumberCredential(PhoneAuthCredential()).status(), hearth::kFutureStatusInvalid);
  TestApp fixture;
  const User user = SignInAnonymously(fixture.auth());
  CHECK(WaitForCompletion(user.UpdatePhoneNumberCredential(PhoneAuthCredential()), "UpdatePhoneNumberCredential (invalid)",
                          auth::kAuthErrorInvalidArgument));
}

HEARTH_EMULATOR_TEST(testReauthenticatingWithThePhoneNumberAndAsAnotherUser) {
  const std::string someone_else = NewPhoneNumber();
  {
    TestApp other("phone-reauth-other");
    SignInWithPhone(other.auth(), someone_else);
  }
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string number = NewPhoneNumber();
  const VerificationResult sent = VerifyNumber(auth, number);
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const Future<User> signed_in =
      auth->SignInWithCredential(provider.GetCredential(sent.verification_id.c_str(), CodeFor(sent.verification_id).c_str()));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (phone)"));
  const User user = *signed_in.result();

  // The same number again: the first code is used up, so ask for a new one.
  PhoneAuthProvider::ForceResendingToken token = sent.force_resending_token;
  PhoneAuthOptions again = OptionsFor(number);
  again.force_resending_token = &token;
  const VerificationResult resent = VerifyNumber(auth, again);
  const Future<void> reauthenticated =
      user.Reauthenticate(provider.GetCredential(resent.verification_id.c_str(), CodeFor(resent.verification_id).c_str()));
  CHECK(WaitForCompletion(reauthenticated, "Reauthenticate (phone)"));
  CHECK_EQ(user.ReauthenticateLastResult().status(), hearth::kFutureStatusComplete);
  CHECK_EQ(user.ReauthenticateLastResult().error(), 0);

  const Future<AuthResult> mismatch = user.ReauthenticateAndRetrieveData(PhoneCredential(auth, someone_else));
  CHECK(WaitForCompletion(mismatch, "ReauthenticateAndRetrieveData (another account's number)", auth::kAuthErrorUserMismatch));
  CHECK_EQ(auth->current_user().uid(), user.uid());
  CHECK_EQ(auth->current_user().phone_number(), number);
}

// ---- app verification ---------------------------------------------------------------------------------

namespace {

// Plays the person on the emulator's reCAPTCHA page: ticks "I'm not a robot" (the page's form posts its
// query back with notARobot=true), then follows the redirect to the app's loopback receiver.
PageVisit SolveRecaptcha(const std::string& url) {
  PageVisit visit;
  visit.opened_url = url;
  ParsedUrl page;
  if (!ParseUrl(url, &page)) return visit;
  const HttpResponse solved =
      HttpRequest(page.host, page.port, "POST", "/emulator/auth/handler/verify-app",
                  "Content-Type: application/x-www-form-urlencoded\r\n", page.query + "&notARobot=true");
  visit.choice_status = solved.status;
  auto location = solved.headers.find("location");
  if (location == solved.headers.end()) return visit;
  visit.location = location->second;
  const HttpResponse redirected = HttpGet(visit.location);
  visit.redirect_status = redirected.status;
  visit.redirect_body = redirected.body;
  return visit;
}

}  // namespace

HEARTH_EMULATOR_TEST(testWithAppVerificationTheRecaptchaPageIsShownThroughTheUiDelegate) {
  EmulatorSettings required("{\"appVerificationRequired\":true}", "{\"appVerificationRequired\":false}");
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string number = NewPhoneNumber();
  // Disabled for testing (the default against the emulator): no token, so a real number is refused.
  const Future<VerificationResult> unverified = PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor(number));
  CHECK(WaitForCompletion(unverified, "VerifyPhoneNumber (app verification disabled)", auth::kAuthErrorMissingAppCredential));

  REQUIRE_EQ(auth->SetAppVerificationDisabledForTesting(false), auth::kAuthErrorNone);
  // Without a UI delegate there is nowhere to show the page.
  const Future<VerificationResult> nowhere = PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor(number));
  CHECK(WaitForCompletion(nowhere, "VerifyPhoneNumber (no UI delegate)", auth::kAuthErrorMissingAppCredential));

  FakeBrowser browser(&SolveRecaptcha);
  SetFlowOptions(auth, FlowOptions(&browser));
  const VerificationResult sent = VerifyNumber(auth, number);
  REQUIRE(browser.WaitForVisits(1));
  const PageVisit visit = browser.Visits()[0];
  CHECK_EQ(QueryOf(visit.opened_url)["authType"], std::string("verifyApp"));
  CHECK_EQ(visit.choice_status, 303);
  CHECK_EQ(visit.redirect_status, 200);
  const Future<User> signed_in = auth->SignInWithCredential(PhoneAuthProvider::GetInstance(auth).GetCredential(
      sent.verification_id.c_str(), CodeFor(sent.verification_id).c_str()));
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential (after reCAPTCHA)"));
  CHECK_EQ(signed_in.result()->phone_number(), number);

  // A delegate that refuses to show the page cancels the verification.
  FakeBrowser refusing;
  auth::ProviderFlowOptions refuse = FlowOptions(&refusing);
  refuse.open_url = refusing.Delegate(false);
  SetFlowOptions(auth, refuse);
  const Future<VerificationResult> cancelled =
      PhoneAuthProvider::GetInstance(auth).VerifyPhoneNumber(OptionsFor(NewPhoneNumber()));
  CHECK(WaitForCompletion(cancelled, "VerifyPhoneNumber (delegate refused)", auth::kAuthErrorWebContextCancelled));
}

// ---- bad input --------------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testMalformedNumbersFailBeforeAnyRequest) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  PhoneAuthProvider& provider = PhoneAuthProvider::GetInstance(auth);
  const size_t codes_before = SentCodes().size();
  struct Case {
    std::string number;
    int error;
  };
  const Case cases[] = {
      {"", auth::kAuthErrorMissingPhoneNumber},
      {"   ", auth::kAuthErrorMissingPhoneNumber},
      {"16505554567", auth::kAuthErrorInvalidPhoneNumber},
      {"+0165055545", auth::kAuthErrorInvalidPhoneNumber},
      {"+1650555456a", auth::kAuthErrorInvalidPhoneNumber},
      {"+123456", auth::kAuthErrorInvalidPhoneNumber},
      {"+1234567890123456", auth::kAuthErrorInvalidPhoneNumber},
      {"+1650555\xc3\xa9", auth::kAuthErrorInvalidPhoneNumber},
      {"+1650\xff\xfe", auth::kAuthErrorInvalidArgument},
      {std::string("+1650555\0" "4567", 13), auth::kAuthErrorInvalidArgument},
  };
  for (const Case& c : cases) {
    const Future<VerificationResult> refused = provider.VerifyPhoneNumber(OptionsFor(c.number));
    CHECK(WaitForCompletion(refused, ("VerifyPhoneNumber(\"" + c.number + "\")").c_str(), c.error));
    CHECK(refused.error_message() != nullptr && std::strlen(refused.error_message()) > 0);
  }
  CHECK_EQ(SentCodes().size(), codes_before);
}
