/// The HTML of a fake identity provider's sign-in page: the identities already linked for this
/// provider, a form for a new one, and Cancel. Plain forms, no script and no external resources,
/// so it works in any browser, headless or not, and with a screen reader.
struct FakeIdpPage {
    var providerId: String
    /// Where the forms post the choice.
    var action: String
    /// The flow's parameters, sent back with every choice.
    var carriedFields: [(name: String, value: String)]
    /// Where the browser goes afterwards, shown so the person knows; nil when it stays here.
    var returnTarget: String?
    var scopes: [String]
    var customParameters: [(name: String, value: String)]
    var accounts: [ProviderUserInfo]
    /// The app's `login_hint`: that account is offered first, or the new-account form starts with it.
    var loginHint: String?

    func render() -> String {
        let providerName = HTML.escape(IdentityProviders.displayName(providerId))
        let buttonName = HTML.escape(Self.capitalized(providerId))
        let hint = loginHint.map(EmailAddress.canonical)
        let isHinted = { (account: ProviderUserInfo) in account.email != nil && account.email == hint }
        let ordered = accounts.filter(isHinted) + accounts.filter { !isHinted($0) }
        let hintMatchesAccount = ordered.first.map(isHinted) ?? false

        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in with \(providerName) – hearth-emulator</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <main>
            <h1>Sign in with \(providerName)</h1>
            <p class="note">This page is hearth-emulator's stand-in for <strong>\(HTML.escape(providerId))</strong>. \
            No real account, password or network is involved.</p>

            """
        if let returnTarget {
            html += "<p>After you choose, your browser returns to <code>\(HTML.escape(returnTarget))</code>.</p>\n"
        }
        if !scopes.isEmpty || !customParameters.isEmpty {
            html += "<dl class=\"request\">\n"
            if !scopes.isEmpty { html += "<dt>Scopes</dt><dd>\(HTML.escape(scopes.joined(separator: ", ")))</dd>\n" }
            for (name, value) in customParameters {
                html += "<dt>\(HTML.escape(name))</dt><dd>\(HTML.escape(value))</dd>\n"
            }
            html += "</dl>\n"
        }

        html += "<section aria-labelledby=\"existing-heading\">\n<h2 id=\"existing-heading\">Existing accounts</h2>\n"
        if ordered.isEmpty {
            html += "<p>No \(HTML.escape(providerId)) account has signed in to this project yet.</p>\n"
        } else {
            html += "<ul class=\"accounts\">\n"
            for (index, account) in ordered.enumerated() {
                let suggested = index == 0 && hintMatchesAccount
                html += "<li><form method=\"post\" action=\"\(HTML.escape(action))\">\(hiddenFields)"
                html += "<input type=\"hidden\" name=\"rawId\" value=\"\(HTML.escape(account.rawId))\">"
                html += "<button type=\"submit\" class=\"account\"\(suggested ? " autofocus" : "")>"
                html += "<span class=\"name\">\(HTML.escape(account.displayName ?? account.email ?? account.rawId))</span>"
                if let email = account.email, account.displayName != nil {
                    html += " <span class=\"detail\">\(HTML.escape(email))</span>"
                }
                if let screenName = account.screenName { html += " <span class=\"detail\">@\(HTML.escape(screenName))</span>" }
                if suggested { html += " <span class=\"badge\">suggested by the app</span>" }
                html += "</button></form></li>\n"
            }
            html += "</ul>\n"
        }
        html += "</section>\n"

        let prefilledEmail = hintMatchesAccount ? "" : (loginHint ?? "")
        // Focus starts on the suggested account, or on the email field when there is no account to pick.
        let emailAutofocus = ordered.isEmpty ? " autofocus" : ""
        html += """
            <section aria-labelledby="new-heading">
            <h2 id="new-heading">Add new account</h2>
            <form method="post" action="\(HTML.escape(action))">\(hiddenFields)
            <label for="email-input">Email</label>
            <input id="email-input" name="email" type="email" required autocomplete="off" value="\(HTML.escape(prefilledEmail))"\(emailAutofocus)>
            <label for="display-name-input">Display name <span class="optional">(optional)</span></label>
            <input id="display-name-input" name="displayName" type="text" autocomplete="off">
            <label for="screen-name-input">Screen name <span class="optional">(optional)</span></label>
            <input id="screen-name-input" name="screenName" type="text" autocomplete="off">
            <label for="profile-photo-input">Profile photo URL <span class="optional">(optional)</span></label>
            <input id="profile-photo-input" name="photoUrl" type="url" autocomplete="off">
            <input type="hidden" name="emailVerified" value="false">
            <label class="check"><input id="email-verified-input" name="emailVerified" type="checkbox" value="true" checked> \
            The provider has verified this email</label>
            <div class="actions">
            <button type="submit" id="sign-in">Sign in with \(buttonName)</button>
            <button type="submit" class="secondary" name="generate" value="true" formnovalidate>Auto-generate user information</button>
            </div>
            </form>
            </section>
            <form method="post" action="\(HTML.escape(action))" class="cancel">\(hiddenFields)
            <button type="submit" class="secondary" name="cancel" value="true">Cancel</button>
            </form>
            </main>
            </body>
            </html>

            """
        return html
    }

    private var hiddenFields: String {
        carriedFields.map { "<input type=\"hidden\" name=\"\(HTML.escape($0.name))\" value=\"\(HTML.escape($0.value))\">" }
            .joined()
    }

    /// "google.com" → "Google.com", as the reference widget's button reads.
    static func capitalized(_ providerId: String) -> String {
        providerId.prefix(1).uppercased() + providerId.dropFirst()
    }

    static let style = """
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f3f4f6;color:#111827}\
        main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.15)}\
        h1{font-size:1.5rem;margin:0 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}\
        .note{background:#fef3c7;border-left:4px solid #b45309;padding:.5rem .75rem}\
        code{overflow-wrap:anywhere}dl.request{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}\
        dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\
        ul.accounts{list-style:none;margin:0;padding:0}ul.accounts li{margin:.4rem 0}\
        button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}\
        button.secondary{background:#fff;color:#1d4ed8}\
        button.account{width:100%;text-align:left;background:#fff;color:#111827;border-color:#9ca3af}\
        .detail{color:#374151}.badge{font-size:.85rem;background:#dbeafe;color:#1e3a8a;padding:0 .4rem;border-radius:4px}\
        label{display:block;margin-top:.75rem;font-weight:600}label.check{font-weight:400}.optional{font-weight:400;color:#4b5563}\
        input[type=email],input[type=text],input[type=url]{box-sizing:border-box;width:100%;padding:.45rem;font:inherit;border:1px solid #6b7280;border-radius:4px}\
        .actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}form.cancel{margin-top:1.5rem}\
        :focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
        """
}
