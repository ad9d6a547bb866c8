// Provider sign-in on a desktop: Auth::SignInWithProvider, User::LinkWithProvider and
// User::ReauthenticateWithProvider through the emulator's pages, with a fake browser that plays the
// person (no real browser), Firebase's documented C++ provider recipes, and the ways a flow ends badly.
#include "federated.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

using hearth::Future;
using hearth::auth::AuthResult;
using hearth::auth::FederatedOAuthProvider;
using hearth::auth::FederatedOAuthProviderData;
using hearth::auth::MicrosoftAuthProvider;
using hearth::auth::ProviderFlowOptions;
using hearth::auth::TwitterAuthProvider;
using hearth::auth::User;
using namespace hearth_test;
namespace auth = hearth::auth;

namespace {

constexpr const char* kHandlerPath = "/emulator/auth/handler";
constexpr const char* kConsentPath = "/emulator/auth/consent";

std::string PathOf(const std::string& url) {
  ParsedUrl parsed;
  return ParseUrl(url, &parsed) ? parsed.path : std::string();
}

std::string QueryValue(const std::string& url, const char* name) {
  const std::map<std::string, std::string> query = QueryOf(url);
  auto it = query.find(name);
  return it == query.end() ? std::string("<missing>") : it->second;
}

// The page a flow opened: the emulator's handler page, or the consent page createAuthUri pointed to.
void CheckPage(const std::string& url, const FederatedOAuthProviderData& data, bool use_create_auth_uri) {
  CHECK_EQ(PathOf(url), std::string(use_create_auth_uri ? kConsentPath : kHandlerPath));
  CHECK_EQ(QueryValue(url, "providerId"), data.provider_id);
  std::string scopes;
  for (const std::string& scope : data.scopes) scopes += (scopes.empty() ? "" : ",") + scope;
  if (!scopes.empty()) CHECK_EQ(QueryValue(url, "scopes"), scopes);
  for (const auto& parameter : data.custom_parameters) {
    if (!PageHasCustomParameter(url, parameter.first, parameter.second)) {
      RecordFailure(__FILE__, __LINE__, "the page lacks " + parameter.first + "=" + parameter.second + ": " + url);
    }
  }
  // Apple and OIDC ID tokens are bound to a nonce: Hearth sends its SHA-256 to the provider.
  const bool wants_nonce = data.provider_id == "apple.com" || data.provider_id.compare(0, 5, "oidc.") == 0;
  CHECK_EQ(PageHasCustomParameter(url, "nonce", ""), wants_nonce);
  if (!use_create_auth_uri) {
    // The loopback receiver on 127.0.0.1 takes the redirect.
    CHECK_EQ(QueryValue(url, "redirectUrl").compare(0, 17, "http://127.0.0.1:"), 0);
  }
}

void CheckVisit(const PageVisit& visit) {
  CHECK_EQ(visit.choice_status, 303);
  CHECK_EQ(visit.location.compare(0, 17, "http://127.0.0.1:"), 0);
  CHECK_EQ(visit.redirect_status, 200);
}

Future<AuthResult> WaitForFlow(const Future<AuthResult>& future, const char* what, int expected = auth::kAuthErrorNone) {
  REQUIRE(WaitForCompletion(future, what, expected));
  return future;
}

// Sign in, reauthenticate, link (and a mismatching reauthentication) through the provider's page.
void RunProviderFlows(const FederatedOAuthProviderData& data, bool use_create_auth_uri) {
  const std::string first_email = NewEmail("flow-first");
  const std::string second_email = NewEmail("flow-second");
  const std::vector<std::string> choices = {Choice(first_email, "First Person", "first_person"),
                                            Choice(first_email), Choice(second_email, "Second Person"),
                                            Choice(first_email)};
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeBrowser browser(ChooseAccounts(choices, auth));
  SetFlowOptions(auth, FlowOptions(&browser, use_create_auth_uri));
  FederatedOAuthProvider provider(data);

  // Sign in: a new user with that identity.
  Future<AuthResult> sign_in = WaitForFlow(auth->SignInWithProvider(&provider), "SignInWithProvider");
  const AuthResult& signed_in = *sign_in.result();
  REQUIRE(signed_in.user.is_valid());
  CHECK(signed_in.additional_user_info.is_new_user);
  CHECK_EQ(signed_in.additional_user_info.provider_id, data.provider_id);
  CHECK_EQ(signed_in.user.email(), first_email);
  CHECK_EQ(signed_in.user.display_name(), std::string("First Person"));
  if (data.provider_id == "twitter.com") CHECK_EQ(signed_in.additional_user_info.user_name, std::string("first_person"));
  REQUIRE(signed_in.credential.is_valid());
  CHECK_EQ(signed_in.credential.provider(), data.provider_id);
  CHECK(!signed_in.credential.id_token().empty());
  const std::string raw_id = ProviderInfo(signed_in.user, data.provider_id).uid();
  CHECK(!raw_id.empty());
  CHECK_EQ(auth->current_user().uid(), signed_in.user.uid());
  CHECK_EQ(auth->SignInWithProviderLastResult().result()->user.uid(), signed_in.user.uid());
  REQUIRE(browser.WaitForVisits(1));
  CheckPage(browser.Visits()[0].opened_url, data, use_create_auth_uri);
  CheckVisit(browser.Visits()[0]);

  // Reauthenticate as the same identity.
  Future<AuthResult> reauth =
      WaitForFlow(auth->current_user().ReauthenticateWithProvider(&provider), "ReauthenticateWithProvider");
  CHECK_EQ(reauth.result()->user.uid(), signed_in.user.uid());
  CHECK(!reauth.result()->additional_user_info.is_new_user);
  CHECK_EQ(reauth.result()->additional_user_info.provider_id, data.provider_id);
  CHECK_EQ(signed_in.user.ReauthenticateWithProviderLastResult().error(), 0);

  // Link the provider to another account (a second identity).
  auth->SignOut();
  const User other = CreateUser(auth, NewEmail("flow-owner"));
  Future<AuthResult> link = WaitForFlow(other.LinkWithProvider(&provider), "LinkWithProvider");
  CHECK_EQ(link.result()->user.uid(), other.uid());
  CHECK_EQ(link.result()->additional_user_info.provider_id, data.provider_id);
  std::vector<std::string> linked = {data.provider_id, "password"};
  std::sort(linked.begin(), linked.end());
  CHECK_EQ(ProviderIds(auth->current_user()), linked);
  CHECK_NE(ProviderInfo(auth->current_user(), data.provider_id).uid(), raw_id);
  CHECK_EQ(other.LinkWithProviderLastResult().result()->user.uid(), other.uid());

  // The first identity is not this account's: reauthenticating with it is a mismatch.
  Future<AuthResult> mismatch = WaitForFlow(auth->current_user().ReauthenticateWithProvider(&provider),
                                            "ReauthenticateWithProvider (another identity)", auth::kAuthErrorUserMismatch);
  CHECK_EQ(auth->current_user().uid(), other.uid());

  REQUIRE(browser.WaitForVisits(4));
  for (const PageVisit& visit : browser.Visits()) {
    CheckPage(visit.opened_url, data, use_create_auth_uri);
    CheckVisit(visit);
  }
}

FederatedOAuthProviderData TwitterData() {
  FederatedOAuthProviderData data(TwitterAuthProvider::kProviderId);
  data.custom_parameters["lang"] = "fr";
  return data;
}

FederatedOAuthProviderData MicrosoftData() {
  FederatedOAuthProviderData data(MicrosoftAuthProvider::kProviderId);
  data.custom_parameters["tenant"] = "contoso.onmicrosoft.com";
  data.custom_parameters["prompt"] = "consent";
  data.scopes = {"mail.read", "calendars.read"};
  return data;
}

FederatedOAuthProviderData AppleData() {
  return FederatedOAuthProviderData("apple.com", {"email", "name"}, {{"locale", "fr_FR"}});
}

FederatedOAuthProviderData OidcData() { return FederatedOAuthProviderData("oidc.corp", {"openid", "profile"}, {}); }

// What the docs' snippets call to wait: here, sleep a little.
void Wait(int milliseconds) { SleepMs(milliseconds); }

template <typename T>
void WaitWhilePending(const Future<T>& future) {
  const int64_t deadline = NowMs() + kOperationTimeoutMs;
  while (future.status() == hearth::kFutureStatusPending && NowMs() < deadline) Wait(10);
}

}  // namespace

// ---- the flows, per provider and page -------------------------------------------------------------

HEARTH_EMULATOR_TEST(testTwitterFlowsThroughTheEmulatorPage) { RunProviderFlows(TwitterData(), false); }
HEARTH_EMULATOR_TEST(testTwitterFlowsThroughCreateAuthUri) { RunProviderFlows(TwitterData(), true); }
HEARTH_EMULATOR_TEST(testMicrosoftFlowsWithATenantThroughTheEmulatorPage) { RunProviderFlows(MicrosoftData(), false); }
HEARTH_EMULATOR_TEST(testMicrosoftFlowsWithATenantThroughCreateAuthUri) { RunProviderFlows(MicrosoftData(), true); }
HEARTH_EMULATOR_TEST(testAppleFlowsWithANonceThroughTheEmulatorPage) { RunProviderFlows(AppleData(), false); }
HEARTH_EMULATOR_TEST(testAppleFlowsWithANonceThroughCreateAuthUri) { RunProviderFlows(AppleData(), true); }
HEARTH_EMULATOR_TEST(testOidcFlowsThroughTheEmulatorPage) { RunProviderFlows(OidcData(), false); }
HEARTH_EMULATOR_TEST(testOidcFlowsThroughCreateAuthUri) { RunProviderFlows(OidcData(), true); }

// ---- Firebase's documented C++ recipes, with only the namespace changed ----------------------------

HEARTH_EMULATOR_TEST(testAppleProviderRecipeFromFirebasesDocs) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string apple_email = NewEmail("apple-recipe");
  const std::string linked_email = NewEmail("apple-linked");
  FakeBrowser browser(ChooseAccounts({Choice(apple_email), Choice(apple_email), Choice(linked_email)}, auth));
  // Hearth's desktop flow needs a UI delegate; the rest is the documented code.
  SetFlowOptions(auth, FlowOptions(&browser));

  hearth::auth::FederatedOAuthProviderData provider_data("apple.com");
  provider_data.scopes.push_back("email");
  provider_data.scopes.push_back("name");
  provider_data.custom_parameters["language"] = "fr";
  hearth::auth::FederatedOAuthProvider provider(provider_data);

  hearth::Future<hearth::auth::AuthResult> result = auth->SignInWithProvider(&provider);
  WaitWhilePending(result);
  REQUIRE_EQ(result.error(), hearth::auth::kAuthErrorNone);
  hearth::auth::User user = result.result()->user;
  CHECK_EQ(user.email(), apple_email);
  CHECK_EQ(result.result()->additional_user_info.provider_id, std::string("apple.com"));

  // Reauthenticate before a sensitive operation.
  hearth::Future<hearth::auth::AuthResult> reauth_result = user.ReauthenticateWithProvider(&provider);
  WaitWhilePending(reauth_result);
  CHECK_EQ(reauth_result.error(), hearth::auth::kAuthErrorNone);
  CHECK_EQ(reauth_result.result()->user.uid(), user.uid());

  // Link Apple to an account signed in some other way.
  auth->SignOut();
  hearth::auth::User existing = CreateUser(auth, NewEmail("apple-owner"));
  hearth::Future<hearth::auth::AuthResult> link_result = existing.LinkWithProvider(&provider);
  WaitWhilePending(link_result);
  CHECK_EQ(link_result.error(), hearth::auth::kAuthErrorNone);
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"apple.com", "password"}));

  REQUIRE(browser.WaitForVisits(3));
  for (const PageVisit& visit : browser.Visits()) {
    CHECK(PageHasCustomParameter(visit.opened_url, "language", "fr"));
    CHECK_EQ(QueryValue(visit.opened_url, "scopes"), std::string("email,name"));
  }
}

HEARTH_EMULATOR_TEST(testMicrosoftProviderRecipeFromFirebasesDocs) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("ms-recipe");
  FakeBrowser browser(ChooseAccounts({Choice(email), Choice(email), Choice(NewEmail("ms-linked"))}, auth));
  SetFlowOptions(auth, FlowOptions(&browser, /*use_create_auth_uri=*/true));

  hearth::auth::FederatedOAuthProviderData provider_data(hearth::auth::MicrosoftAuthProvider::kProviderId);
  provider_data.custom_parameters["prompt"] = "consent";
  provider_data.custom_parameters["login_hint"] = "user@firstadd.onmicrosoft.com";
  provider_data.custom_parameters["tenant"] = "TENANT_ID";
  provider_data.scopes.push_back("mail.read");
  provider_data.scopes.push_back("calendars.read");
  hearth::auth::FederatedOAuthProvider provider(provider_data);

  hearth::Future<hearth::auth::AuthResult> result = auth->SignInWithProvider(&provider);
  WaitWhilePending(result);
  REQUIRE_EQ(result.error(), hearth::auth::kAuthErrorNone);
  const hearth::auth::AuthResult auth_result = *result.result();
  CHECK_EQ(auth_result.user.email(), email);
  // The OAuth tokens Microsoft returned (access token, ID token).
  CHECK(auth_result.credential.is_valid());
  CHECK(!auth_result.credential.access_token().empty());

  hearth::auth::User user = auth->current_user();
  hearth::Future<hearth::auth::AuthResult> reauth = user.ReauthenticateWithProvider(&provider);
  WaitWhilePending(reauth);
  CHECK_EQ(reauth.error(), hearth::auth::kAuthErrorNone);

  auth->SignOut();
  hearth::auth::User existing = CreateUser(auth, NewEmail("ms-owner"));
  hearth::Future<hearth::auth::AuthResult> link = existing.LinkWithProvider(&provider);
  WaitWhilePending(link);
  CHECK_EQ(link.error(), hearth::auth::kAuthErrorNone);

  REQUIRE(browser.WaitForVisits(3));
  const std::string page = browser.Visits()[0].opened_url;
  CHECK(PageHasCustomParameter(page, "prompt", "consent"));
  CHECK(PageHasCustomParameter(page, "login_hint", "user@firstadd.onmicrosoft.com"));
  CHECK(PageHasCustomParameter(page, "tenant", "TENANT_ID"));
  CHECK_EQ(QueryValue(page, "scopes"), std::string("mail.read,calendars.read"));
}

HEARTH_EMULATOR_TEST(testTwitterProviderRecipeFromFirebasesDocs) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  FakeBrowser browser(ChooseAccount(Choice(NewEmail("tw-recipe"), "Tweety", "tweety"), auth));
  SetFlowOptions(auth, FlowOptions(&browser));

  hearth::auth::FederatedOAuthProviderData provider_data(hearth::auth::TwitterAuthProvider::kProviderId);
  provider_data.custom_parameters["lang"] = "fr";
  hearth::auth::FederatedOAuthProvider provider(provider_data);

  hearth::Future<hearth::auth::AuthResult> result = auth->SignInWithProvider(&provider);
  WaitWhilePending(result);
  REQUIRE_EQ(result.error(), hearth::auth::kAuthErrorNone);
  CHECK_EQ(result.result()->user.display_name(), std::string("Tweety"));
  CHECK_EQ(result.result()->additional_user_info.user_name, std::string("tweety"));
  REQUIRE(browser.WaitForVisits(1));
  CHECK(PageHasCustomParameter(browser.Visits()[0].opened_url, "lang", "fr"));
}

// ---- redirect targets ----------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testACustomSchemeRedirectIsHandedOverWithHandleUrl) {
  for (const bool use_create_auth_uri : {false, true}) {
    TestApp fixture;
    auth::Auth* auth = fixture.auth();
    struct Offers {
      std::atomic<int> foreign_scheme{-1}, wrong_state{-1}, ours{-1};
      std::string location;
    };
    auto offers = std::make_shared<Offers>();
    const std::string email = NewEmail("scheme");
    FakeBrowser browser([auth, offers, email](const std::string& url) {
      PageVisit visit;
      const HttpResponse page = HttpGet(ChoiceUrl(url, Choice(email)));
      visit.choice_status = page.status;
      auto location = page.headers.find("location");
      if (location == page.headers.end()) return visit;
      visit.location = location->second;
      // The host is opened with URLs that are not Hearth's, too.
      std::string foreign = visit.location;
      foreign.replace(0, std::strlen("com.example.game"), "com.example.other");
      offers->foreign_scheme = auth->HandleUrl(foreign) ? 1 : 0;
      offers->wrong_state = auth->HandleUrl(WithForgedCorrelation(visit.location)) ? 1 : 0;
      offers->ours = auth->HandleUrl(visit.location) ? 1 : 0;
      visit.handed_to_app = offers->ours == 1;
      return visit;
    });
    ProviderFlowOptions options = FlowOptions(&browser, use_create_auth_uri);
    options.redirect_uri = "com.example.game:/oauth";
    SetFlowOptions(auth, options);
    CHECK(!auth->HandleUrl("com.example.game:/oauth?state=nothing-pending"));

    FederatedOAuthProvider provider(FederatedOAuthProviderData("github.com"));
    Future<AuthResult> flow = auth->SignInWithProvider(&provider);
    REQUIRE(WaitForCompletion(flow, use_create_auth_uri ? "custom scheme (createAuthUri)" : "custom scheme (emulator page)"));
    CHECK_EQ(flow.result()->user.email(), email);
    REQUIRE(browser.WaitForVisits(1));
    const PageVisit visit = browser.Visits()[0];
    CHECK_EQ(visit.choice_status, 303);
    CHECK_EQ(visit.location.compare(0, 23, "com.example.game:/oauth"), 0);
    CHECK_EQ(offers->foreign_scheme.load(), 0);
    CHECK_EQ(offers->wrong_state.load(), 0);
    CHECK_EQ(offers->ours.load(), 1);
    if (!use_create_auth_uri) CHECK_EQ(QueryValue(visit.opened_url, "redirectUrl"), std::string("com.example.game:/oauth"));
    // Done: the same URL again is nobody's.
    CHECK(!auth->HandleUrl(visit.location));
    CHECK(!auth->HandleUrl(nullptr));
  }
}

HEARTH_EMULATOR_TEST(testTheLoopbackReceiverListensOnTheChosenPort) {
  uint16_t port = 0;
  {
    const ListeningSocket probe;
    port = probe.port();
  }
  REQUIRE_NE(port, 0);
  TestApp fixture;
  FakeBrowser browser(ChooseAccount(Choice(NewEmail("port"))));
  ProviderFlowOptions options = FlowOptions(&browser);
  options.loopback_port = port;
  SetFlowOptions(fixture.auth(), options);
  FederatedOAuthProvider provider(FederatedOAuthProviderData("yahoo.com"));
  REQUIRE(WaitForCompletion(fixture.auth()->SignInWithProvider(&provider), "SignInWithProvider on a chosen port"));
  REQUIRE(browser.WaitForVisits(1));
  ParsedUrl redirect;
  REQUIRE(ParseUrl(QueryValue(browser.Visits()[0].opened_url, "redirectUrl"), &redirect));
  CHECK_EQ(redirect.host, std::string("127.0.0.1"));
  CHECK_EQ(redirect.port, port);
}

// ---- bad input and flows that end badly ----------------------------------------------------------

HEARTH_EMULATOR_TEST(testAnUnknownProviderIdFailsWithInvalidProviderId) {
  TestApp fixture;
  FakeBrowser browser;
  SetFlowOptions(fixture.auth(), FlowOptions(&browser));
  FederatedOAuthProvider provider(FederatedOAuthProviderData("MadeUpProvider"));
  CHECK(WaitForCompletion(fixture.auth()->SignInWithProvider(&provider), "SignInWithProvider (MadeUpProvider)",
                          auth::kAuthErrorInvalidProviderId));
  FederatedOAuthProvider empty;
  CHECK(WaitForCompletion(fixture.auth()->SignInWithProvider(&empty), "SignInWithProvider (no provider id)",
                          auth::kAuthErrorInvalidProviderId));
  const User user = SignInAnonymously(fixture.auth());
  CHECK(WaitForCompletion(user.LinkWithProvider(&provider), "LinkWithProvider (MadeUpProvider)",
                          auth::kAuthErrorInvalidProviderId));
  CHECK(browser.OpenedUrls().empty());
}

HEARTH_EMULATOR_TEST(testReservedCustomParametersAreRefusedWithInvalidArgument) {
  TestApp fixture;
  FakeBrowser browser;
  SetFlowOptions(fixture.auth(), FlowOptions(&browser));
  for (const char* reserved : {"state", "redirect_uri", "client_id", "response_type", "scope", "Response_Mode"}) {
    FederatedOAuthProvider provider(FederatedOAuthProviderData("microsoft.com", {}, {{reserved, "mine"}}));
    Future<AuthResult> future = fixture.auth()->SignInWithProvider(&provider);
    REQUIRE(WaitForCompletion(future, reserved, auth::kAuthErrorInvalidArgument));
    // The message names the parameter.
    CHECK(std::strstr(future.error_message(), reserved) != nullptr);
  }
  const User user = SignInAnonymously(fixture.auth());
  FederatedOAuthProvider with_state(FederatedOAuthProviderData("apple.com", {}, {{"state", "x"}}));
  CHECK(WaitForCompletion(user.LinkWithProvider(&with_state), "LinkWithProvider (state)", auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(user.ReauthenticateWithProvider(&with_state), "ReauthenticateWithProvider (state)",
                          auth::kAuthErrorInvalidArgument));
  FederatedOAuthProvider empty_scope(FederatedOAuthProviderData("apple.com", {""}, {}));
  Future<AuthResult> scope = fixture.auth()->SignInWithProvider(&empty_scope);
  CHECK(WaitForCompletion(scope, "an empty scope", auth::kAuthErrorInvalidArgument));
  CHECK(std::strstr(scope.error_message(), "scope") != nullptr);
  Future<AuthResult> no_provider = fixture.auth()->SignInWithProvider(nullptr);
  CHECK(WaitForCompletion(no_provider, "SignInWithProvider(nullptr)", auth::kAuthErrorInvalidArgument));
  CHECK(browser.OpenedUrls().empty());
  CHECK_EQ(fixture.auth()->current_user().uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testAFlowNeedsFlowOptions) {
  TestApp fixture;
  FederatedOAuthProvider provider(TwitterData());
  Future<AuthResult> future = fixture.auth()->SignInWithProvider(&provider);
  CHECK(WaitForCompletion(future, "SignInWithProvider without options", auth::kAuthErrorInvalidArgument));
  ProviderFlowOptions without_delegate;
  CHECK_EQ(fixture.auth()->SetProviderFlowOptions(without_delegate), auth::kAuthErrorInvalidArgument);
  FakeBrowser browser;
  ProviderFlowOptions negative = FlowOptions(&browser);
  negative.timeout_ms = -1;
  CHECK_EQ(fixture.auth()->SetProviderFlowOptions(negative), auth::kAuthErrorInvalidArgument);
  ProviderFlowOptions bad_redirect = FlowOptions(&browser);
  bad_redirect.redirect_uri = "\xff\xfe";
  CHECK_EQ(fixture.auth()->SetProviderFlowOptions(bad_redirect), auth::kAuthErrorInvalidArgument);
}

HEARTH_EMULATOR_TEST(testAReplacedUiDelegateIsFreedOnceNoFlowNeedsItAndTheLastWhenTheAppGoes) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  auto first_capture = std::make_shared<int>(1);
  auto second_capture = std::make_shared<int>(2);
  std::weak_ptr<int> first_watch = first_capture, second_watch = second_capture;
  FakeBrowser browser;
  ProviderFlowOptions first = FlowOptions(&browser);
  first.open_url = [first_capture, inner = first.open_url](const std::string& url) { return inner(url); };
  first_capture.reset();
  SetFlowOptions(auth, first);
  first.open_url = nullptr;  // our copy goes; the wrapper keeps its own
  ProviderFlowOptions second = FlowOptions(&browser);
  second.open_url = [second_capture, inner = second.open_url](const std::string& url) { return inner(url); };
  second_capture.reset();
  CHECK(!first_watch.expired());
  SetFlowOptions(auth, second);
  second.open_url = nullptr;
  // Replaced, with no flow using it: Hearth releases it (on a loop turn) and the wrapper frees it.
  CHECK(WaitUntil([&] { return first_watch.expired(); }));
  CHECK(!second_watch.expired());
  // Refused options are freed by the wrapper at once, never handed to Hearth.
  auto refused_capture = std::make_shared<int>(3);
  std::weak_ptr<int> refused_watch = refused_capture;
  ProviderFlowOptions refused = FlowOptions(&browser);
  refused.open_url = [refused_capture](const std::string&) { return true; };
  refused_capture.reset();
  refused.timeout_ms = -1;
  CHECK_EQ(auth->SetProviderFlowOptions(refused), auth::kAuthErrorInvalidArgument);
  refused.open_url = nullptr;
  CHECK(refused_watch.expired());
  // The delegate in place is freed when the App goes, before delete returns (Hearth's own loop).
  fixture.Destroy();
  CHECK(second_watch.expired());
}

HEARTH_EMULATOR_TEST(testASecondFlowWhilePendingIsRefusedAndCancelEndsTheFirst) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("after-cancel");
  auto pages = std::make_shared<std::atomic<int>>(0);
  // The person ignores the first page; on the next one they choose an account.
  FakeBrowser browser([pages, email](const std::string& url) {
    if (pages->fetch_add(1) == 0) return PageVisit();
    return ChooseAccount(Choice(email))(url);
  });
  SetFlowOptions(auth, FlowOptions(&browser));
  FederatedOAuthProvider provider(MicrosoftData());
  Future<AuthResult> first = auth->SignInWithProvider(&provider);
  REQUIRE(WaitUntil([&browser] { return browser.OpenedUrls().size() == 1; }));
  // The visit runs on a thread of its own: until it has counted the first page, a slow machine could
  // let the third flow's visit take the "ignore" turn (then that flow waits forever).
  REQUIRE(browser.WaitForVisits(1));
  CHECK_EQ(first.status(), hearth::kFutureStatusPending);

  Future<AuthResult> second = auth->SignInWithProvider(&provider);
  CHECK(WaitForCompletion(second, "a second flow", auth::kAuthErrorWebContextAlreadyPresented));
  CHECK_EQ(first.status(), hearth::kFutureStatusPending);
  const User nobody = auth->current_user();
  CHECK(!nobody.is_valid());

  auth->CancelProviderFlow();
  CHECK(WaitForCompletion(first, "the cancelled flow", auth::kAuthErrorWebContextCancelled));
  CHECK(!auth->current_user().is_valid());
  // Its receiver is gone.
  const std::string redirect = QueryValue(browser.OpenedUrls()[0], "redirectUrl");
  CHECK(HttpGet(redirect + "?state=x").connection_refused);

  // A new flow can start.
  Future<AuthResult> third = auth->SignInWithProvider(&provider);
  REQUIRE(WaitForCompletion(third, "a flow after the cancelled one"));
  CHECK_EQ(third.result()->user.email(), email);
  CHECK_EQ(browser.OpenedUrls().size(), size_t{2});
  // Cancelling with nothing pending does nothing.
  auth->CancelProviderFlow();
  CHECK(auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testAFlowThatTimesOutIsCancelled) {
  TestApp fixture;
  FakeBrowser browser;
  ProviderFlowOptions options = FlowOptions(&browser);
  options.timeout_ms = 300;
  SetFlowOptions(fixture.auth(), options);
  FederatedOAuthProvider provider(AppleData());
  const int64_t started = NowMs();
  Future<AuthResult> future = fixture.auth()->SignInWithProvider(&provider);
  CHECK(WaitForCompletion(future, "a flow nobody answers", auth::kAuthErrorWebContextCancelled));
  CHECK(NowMs() - started >= 250);
  CHECK_EQ(browser.OpenedUrls().size(), size_t{1});
}

HEARTH_EMULATOR_TEST(testADelegateThatCannotShowTheUrlCancelsTheFlow) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeBrowser browser;
  ProviderFlowOptions refusing = FlowOptions(&browser);
  refusing.open_url = browser.Delegate(false);
  SetFlowOptions(auth, refusing);
  FederatedOAuthProvider provider(OidcData());
  CHECK(WaitForCompletion(auth->SignInWithProvider(&provider), "open_url returned false",
                          auth::kAuthErrorWebContextCancelled));
  CHECK_EQ(browser.OpenedUrls().size(), size_t{1});

  ProviderFlowOptions throwing = FlowOptions(&browser);
  throwing.open_url = [](const std::string&) -> bool { throw std::runtime_error("no browser here"); };
  SetFlowOptions(auth, throwing);
  CHECK(WaitForCompletion(auth->SignInWithProvider(&provider), "open_url threw", auth::kAuthErrorWebContextCancelled));
}

HEARTH_EMULATOR_TEST(testALoopbackPortInUseFailsWithInvalidArgument) {
  const ListeningSocket taken;
  REQUIRE_NE(taken.port(), 0);
  TestApp fixture;
  FakeBrowser browser;
  ProviderFlowOptions options = FlowOptions(&browser);
  options.loopback_port = taken.port();
  SetFlowOptions(fixture.auth(), options);
  FederatedOAuthProvider provider(TwitterData());
  CHECK(WaitForCompletion(fixture.auth()->SignInWithProvider(&provider), "loopback port in use",
                          auth::kAuthErrorInvalidArgument));
  CHECK(browser.OpenedUrls().empty());
}

HEARTH_EMULATOR_TEST(testARedirectWithAWrongStateIsRefusedAndTheFlowKeepsWaiting) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  struct Steps {
    std::atomic<int> wrong_state_status{0};
    std::atomic<bool> go_on{false};
  };
  auto steps = std::make_shared<Steps>();
  const std::string email = NewEmail("state");
  FakeBrowser browser([steps, email](const std::string& url) {
    PageVisit visit;
    const HttpResponse page = HttpGet(ChoiceUrl(url, Choice(email)));
    visit.choice_status = page.status;
    auto location = page.headers.find("location");
    if (location == page.headers.end()) return visit;
    visit.location = location->second;
    steps->wrong_state_status = HttpGet(WithForgedCorrelation(visit.location)).status;
    WaitUntil([&steps] { return steps->go_on.load(); });
    const HttpResponse redirect = HttpGet(visit.location);
    visit.redirect_status = redirect.status;
    visit.redirect_body = redirect.body;
    return visit;
  });
  SetFlowOptions(auth, FlowOptions(&browser));
  FederatedOAuthProvider provider(TwitterData());
  Future<AuthResult> flow = auth->SignInWithProvider(&provider);
  REQUIRE(WaitUntil([&steps] { return steps->wrong_state_status.load() != 0; }));
  CHECK_EQ(steps->wrong_state_status.load(), 400);
  SleepMs(100);
  CHECK_EQ(flow.status(), hearth::kFutureStatusPending);
  steps->go_on = true;
  REQUIRE(WaitForCompletion(flow, "the flow after a forged redirect"));
  CHECK_EQ(flow.result()->user.email(), email);
  REQUIRE(browser.WaitForVisits(1));
  const PageVisit visit = browser.Visits()[0];
  CHECK_EQ(visit.redirect_status, 200);
  CHECK(!visit.redirect_body.empty());
  // The receiver stopped listening: a replayed redirect finds nobody.
  const HttpResponse replay = HttpGet(visit.location);
  CHECK(replay.connection_refused);
  CHECK_EQ(replay.status, 0);
}

HEARTH_EMULATOR_TEST(testDeletingTheAppDuringAFlowCancelsIt) {
  FakeBrowser browser;
  TestApp fixture;
  SetFlowOptions(fixture.auth(), FlowOptions(&browser));
  FederatedOAuthProvider provider(MicrosoftData());
  Future<AuthResult> flow = fixture.auth()->SignInWithProvider(&provider);
  REQUIRE(WaitUntil([&browser] { return browser.OpenedUrls().size() == 1; }));
  CHECK_EQ(flow.status(), hearth::kFutureStatusPending);
  fixture.Destroy();
  CHECK_EQ(flow.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(flow.error(), auth::kAuthErrorCancelled);
  const std::string redirect = QueryValue(browser.OpenedUrls()[0], "redirectUrl");
  CHECK(HttpGet(redirect + "?state=late").connection_refused);
}

HEARTH_EMULATOR_TEST(testCancellingOnTheProvidersPageFailsTheFlow) {
  for (const bool use_create_auth_uri : {false, true}) {
    TestApp fixture;
    FakeBrowser browser(ChooseAccount("cancel=1"));
    SetFlowOptions(fixture.auth(), FlowOptions(&browser, use_create_auth_uri));
    FederatedOAuthProvider provider(AppleData());
    Future<AuthResult> flow = fixture.auth()->SignInWithProvider(&provider);
    CHECK(WaitForCompletion(flow, use_create_auth_uri ? "cancel on the consent page" : "cancel on the handler page",
                            auth::kAuthErrorWebContextCancelled));
    CHECK(!fixture.auth()->current_user().is_valid());
    REQUIRE(browser.WaitForVisits(1));
    CHECK_EQ(browser.Visits()[0].choice_status, 303);
    CHECK_EQ(QueryValue(browser.Visits()[0].location, "error"), std::string("access_denied"));
  }
}

HEARTH_EMULATOR_TEST(testAUserSignedOutBeforeTheFlowCannotLinkWithIt) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeBrowser browser(ChooseAccount(Choice(NewEmail("late"))));
  SetFlowOptions(auth, FlowOptions(&browser));
  const User user = CreateUser(auth, NewEmail());
  auth->SignOut();
  FederatedOAuthProvider provider(TwitterData());
  CHECK(WaitForCompletion(user.LinkWithProvider(&provider), "LinkWithProvider after sign-out",
                          auth::kAuthErrorNoSignedInUser));
  CHECK(WaitForCompletion(user.ReauthenticateWithProvider(&provider), "ReauthenticateWithProvider after sign-out",
                          auth::kAuthErrorNoSignedInUser));
}

// ---- the host's own loop ---------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testProviderFlowsOnAGameEnginesHostLoop) {
  HostLoop host;
  REQUIRE(host.ok());
  host.StartFrameTimer();
  const std::string email = NewEmail("host-loop");
  std::unique_ptr<FakeBrowser> browser;
  {
    TestApp fixture(nullptr, OnLoop(&host));
    auth::Auth* auth = fixture.auth();
    browser.reset(new FakeBrowser(ChooseAccounts({Choice(email), Choice(email), Choice(NewEmail("host-link"))}, auth)));
    SetFlowOptions(auth, FlowOptions(browser.get(), /*use_create_auth_uri=*/false));
    FederatedOAuthProvider provider(MicrosoftData());

    // Nothing happens unless the host runs its loop; the fake browser works on its own thread.
    Future<AuthResult> sign_in = auth->SignInWithProvider(&provider);
    REQUIRE(host.PumpUntil([&sign_in] { return sign_in.status() == hearth::kFutureStatusComplete; }));
    REQUIRE_EQ(sign_in.error(), 0);
    CHECK_EQ(sign_in.result()->user.email(), email);
    CHECK(sign_in.result()->additional_user_info.is_new_user);

    Future<AuthResult> reauth = auth->current_user().ReauthenticateWithProvider(&provider);
    REQUIRE(host.PumpUntil([&reauth] { return reauth.status() == hearth::kFutureStatusComplete; }));
    CHECK_EQ(reauth.error(), 0);
    CHECK_EQ(reauth.result()->user.uid(), sign_in.result()->user.uid());

    // Through createAuthUri too, linking to an anonymous user.
    SetFlowOptions(auth, FlowOptions(browser.get(), /*use_create_auth_uri=*/true));
    auth->SignOut();
    Future<AuthResult> guest = auth->SignInAnonymously();
    REQUIRE(host.PumpUntil([&guest] { return guest.status() == hearth::kFutureStatusComplete; }));
    REQUIRE_EQ(guest.error(), 0);
    Future<AuthResult> link = guest.result()->user.LinkWithProvider(&provider);
    REQUIRE(host.PumpUntil([&link] { return link.status() == hearth::kFutureStatusComplete; }));
    CHECK_EQ(link.error(), 0);
    CHECK_EQ(link.result()->user.uid(), guest.result()->user.uid());
    CHECK(!auth->current_user().is_anonymous());
    REQUIRE(browser->WaitForVisits(3));
    CHECK_EQ(PathOf(browser->Visits()[2].opened_url), std::string(kConsentPath));
  }
  browser.reset();
}

HEARTH_EMULATOR_TEST(testAProviderFlowStartedOnTheLoopThreadKeepsAHearthOnlyHostLoopAlive) {
  // hearth.h: "Calls made on the loop thread and requests in flight keep the loop alive until they are
  // done." A host whose loop holds nothing but Hearth, pumped once per frame with UV_RUN_NOWAIT, must
  // still see its flow end (here by its timeout, as nobody answers the page).
  HostLoop host;
  REQUIRE(host.ok());
  FakeBrowser browser;
  {
    TestApp fixture(nullptr, OnLoop(&host));
    ProviderFlowOptions options = FlowOptions(&browser);
    options.timeout_ms = 500;
    SetFlowOptions(fixture.auth(), options);
    FederatedOAuthProvider provider(TwitterData());
    Future<AuthResult> flow = fixture.auth()->SignInWithProvider(&provider);
    const bool ended = host.PumpUntil([&flow] { return flow.status() == hearth::kFutureStatusComplete; }, 5000);
    CHECK(ended);
    if (ended) CHECK_EQ(flow.error(), auth::kAuthErrorWebContextCancelled);
    CHECK_EQ(browser.OpenedUrls().size(), size_t{1});
  }
}

// ---- the credential only (the Apple SDK's getCredentialWith): Auth::GetCredentialWithProvider ------

namespace {

// Runs the page and returns the credential; nobody is signed in by it.
auth::Credential CredentialFromPage(auth::Auth* auth, FederatedOAuthProvider* provider) {
  Future<auth::Credential> future = auth->GetCredentialWithProvider(provider);
  if (!WaitForCompletion(future, "GetCredentialWithProvider")) throw TestAborted();
  REQUIRE(future.result() != nullptr);
  return *future.result();
}

void RunCredentialFlows(const FederatedOAuthProviderData& data, bool use_create_auth_uri) {
  const std::string email = NewEmail("cpp-credential");
  const std::string stranger = NewEmail("cpp-credential-other");
  const std::string linked_email = NewEmail("cpp-credential-linked");
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeBrowser browser(ChooseAccounts({Choice(email), Choice(email), Choice(stranger), Choice(linked_email)}, auth));
  SetFlowOptions(auth, FlowOptions(&browser, use_create_auth_uri));
  FederatedOAuthProvider provider(data);

  const auth::Credential credential = CredentialFromPage(auth, &provider);
  REQUIRE(browser.WaitForVisits(1));
  const std::string page = browser.OpenedUrls()[0];
  CheckPage(page, data, use_create_auth_uri);
  if (!use_create_auth_uri) CHECK_EQ(QueryValue(page, "authType"), std::string("signInWithRedirect"));
  CheckVisit(browser.Visits()[0]);
  CHECK(credential.is_valid());
  CHECK_EQ(credential.provider(), data.provider_id);
  CHECK(!auth->current_user().is_valid());  // nobody signed in

  // Sign in with it.
  Future<AuthResult> signed_in = auth->SignInAndRetrieveDataWithCredential(credential);
  WaitForFlow(signed_in, "SignInAndRetrieveDataWithCredential");
  const AuthResult& result = *signed_in.result();
  CHECK_EQ(result.user.email(), email);
  CHECK_EQ(result.additional_user_info.provider_id, data.provider_id);
  CHECK(result.additional_user_info.is_new_user);
  CHECK(result.credential.is_valid());
  const User user = auth->current_user();
  CHECK_EQ(user.uid(), result.user.uid());

  // Reauthenticate with a fresh one of the same person; someone else's is refused.
  Future<AuthResult> again = user.ReauthenticateAndRetrieveData(CredentialFromPage(auth, &provider));
  WaitForFlow(again, "ReauthenticateAndRetrieveData");
  CHECK_EQ(again.result()->user.uid(), user.uid());
  Future<void> mismatch = user.Reauthenticate(CredentialFromPage(auth, &provider));
  CHECK(WaitForCompletion(mismatch, "Reauthenticate as someone else", auth::kAuthErrorUserMismatch));
  CHECK_EQ(auth->current_user().uid(), user.uid());

  // Link one to an email account.
  auth->SignOut();
  const User email_user = CreateUser(auth, NewEmail("cpp-credential-link"));
  const auth::Credential to_link = CredentialFromPage(auth, &provider);
  CHECK_EQ(auth->current_user().uid(), email_user.uid());
  Future<AuthResult> linked = email_user.LinkWithCredential(to_link);
  WaitForFlow(linked, "LinkWithCredential");
  bool found = false;
  for (const auto& info : linked.result()->user.provider_data()) {
    found |= info.provider_id() == data.provider_id && info.email() == linked_email;
  }
  CHECK(found);
  CHECK_EQ(browser.OpenedUrls().size(), size_t{4});
}

}  // namespace

HEARTH_EMULATOR_TEST(testAMicrosoftCredentialFromThePageSignsInReauthenticatesAndLinks) {
  RunCredentialFlows(MicrosoftData(), false);
}
HEARTH_EMULATOR_TEST(testATwitterCredentialThroughCreateAuthUriSignsInReauthenticatesAndLinks) {
  RunCredentialFlows(TwitterData(), true);
}
HEARTH_EMULATOR_TEST(testAnAppleCredentialKeepsItsNonce) { RunCredentialFlows(AppleData(), false); }
HEARTH_EMULATOR_TEST(testAnOidcCredentialThroughCreateAuthUriKeepsItsNonce) { RunCredentialFlows(OidcData(), true); }

HEARTH_EMULATOR_TEST(testGettingACredentialEndsWithWebContextCancelledWhenCancelledRefusedOrTimedOut) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FederatedOAuthProvider provider(MicrosoftData());
  FakeBrowser walks_away;  // looks at the page and does nothing
  SetFlowOptions(auth, FlowOptions(&walks_away));
  Future<auth::Credential> pending = auth->GetCredentialWithProvider(&provider);
  REQUIRE(WaitUntil([&walks_away] { return walks_away.OpenedUrls().size() == 1; }));
  CHECK_EQ(pending.status(), hearth::kFutureStatusPending);
  // The last result is this flow, pending too.
  CHECK_EQ(auth->GetCredentialWithProviderLastResult().status(), hearth::kFutureStatusPending);
  Future<auth::Credential> second = auth->GetCredentialWithProvider(&provider);
  CHECK(WaitForCompletion(second, "a second flow", auth::kAuthErrorWebContextAlreadyPresented));
  auth->CancelProviderFlow();
  CHECK(WaitForCompletion(pending, "the cancelled flow", auth::kAuthErrorWebContextCancelled));
  CHECK(pending.result() != nullptr && !pending.result()->is_valid());
  // The most recent one is the refused second call.
  CHECK_EQ(auth->GetCredentialWithProviderLastResult().error(),
           static_cast<int>(auth::kAuthErrorWebContextAlreadyPresented));

  FakeBrowser refuses;
  ProviderFlowOptions refusing = FlowOptions(&refuses);
  refusing.open_url = refuses.Delegate(false);
  SetFlowOptions(auth, refusing);
  CHECK(WaitForCompletion(auth->GetCredentialWithProvider(&provider), "refused by the UI delegate",
                          auth::kAuthErrorWebContextCancelled));

  ProviderFlowOptions slow = FlowOptions(&walks_away);
  slow.timeout_ms = 300;
  SetFlowOptions(auth, slow);
  const int64_t started = NowMs();
  CHECK(WaitForCompletion(auth->GetCredentialWithProvider(&provider), "timed out", auth::kAuthErrorWebContextCancelled));
  CHECK(NowMs() - started >= 250);
  CHECK(!auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testGettingACredentialRefusesBadInput) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FederatedOAuthProvider provider(TwitterData());
  CHECK(WaitForCompletion(auth->GetCredentialWithProvider(&provider), "without flow options",
                          auth::kAuthErrorInvalidArgument));
  FakeBrowser browser;
  SetFlowOptions(auth, FlowOptions(&browser));
  CHECK(WaitForCompletion(auth->GetCredentialWithProvider(nullptr), "no provider", auth::kAuthErrorInvalidArgument));
  FederatedOAuthProvider unknown(FederatedOAuthProviderData("made-up.example"));
  CHECK(WaitForCompletion(auth->GetCredentialWithProvider(&unknown), "unknown provider",
                          auth::kAuthErrorInvalidProviderId));
  FederatedOAuthProvider reserved(FederatedOAuthProviderData("microsoft.com", {}, {{"redirect_uri", "https://x"}}));
  Future<auth::Credential> refused = auth->GetCredentialWithProvider(&reserved);
  CHECK(WaitForCompletion(refused, "a reserved custom parameter", auth::kAuthErrorInvalidArgument));
  CHECK(std::string(refused.error_message()).find("redirect_uri") != std::string::npos);
  CHECK(browser.OpenedUrls().empty());
}

HEARTH_EMULATOR_TEST(testAPendingCredentialFlowCompletesOnceAsCancelledWhenTheAppIsDeleted) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeBrowser walks_away;
  SetFlowOptions(auth, FlowOptions(&walks_away));
  FederatedOAuthProvider provider(AppleData());
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto error = std::make_shared<std::atomic<int>>(0);
  Future<auth::Credential> pending = auth->GetCredentialWithProvider(&provider);
  pending.OnCompletion([calls, error](const Future<auth::Credential>& done) {
    error->store(done.error());
    calls->fetch_add(1);
  });
  REQUIRE(WaitUntil([&walks_away] { return walks_away.OpenedUrls().size() == 1; }));
  fixture.Destroy();
  CHECK_EQ(calls->load(), 1);  // Hearth's own loop: before delete returned
  CHECK_EQ(error->load(), static_cast<int>(auth::kAuthErrorCancelled));
  SleepMs(50);
  CHECK_EQ(calls->load(), 1);
}
