/// `GET /emulator/auth/iframe?apiKey=&appName=`: the helper frame the Firebase JS SDK embeds in
/// emulator mode (in place of `https://<authDomain>/__/auth/iframe`). It relays the auth event of
/// a popup or redirect sign-in on `/emulator/auth/handler` to the SDK through `gapi.iframes`
/// (loaded from apis.google.com, as Firebase's emulator's frame does): an event posted to it
/// (`{eventType: "sendAuthEvent", data: {authEvent, storageKey}}`) goes to the SDK at once, or is
/// kept in sessionStorage (`firebase:redirectEvent:<apiKey>:<appName>`) until the SDK connects;
/// it answers the SDK's `webStorageSupport` question.
enum AuthIframePage {
    static let path = "/emulator/auth/iframe"

    static let operation = Operation("emulator.auth.iframe", access: .open) { _, _ throws(ApiError) in
        Reply.html(page)
    }

    static let page = """
        <!DOCTYPE html>
        <meta charset="utf-8">
        <title>hearth-emulator auth frame</title>
        <script>
        (function () {
          var params = new URLSearchParams(window.location.search);
          var apiKey = params.get('apiKey');
          var appName = params.get('appName');
          if (!apiKey || !appName) {
            window.alert('hearth-emulator: the auth frame needs the apiKey and appName query parameters.');
            return;
          }
          var key = 'firebase:redirectEvent:' + apiKey + ':' + appName;
          var parent = null;

          function deliver(event) {
            parent.send('authEvent', {
              type: 'authEvent',
              authEvent: event || { type: 'unknown', error: { code: 'auth/no-auth-event' } }
            }, function (replies) {
              var last = replies && replies.length ? replies[replies.length - 1] : null;
              if (!last || last.status !== 'ACK') {
                window.alert('hearth-emulator: the SDK did not take the auth event.');
              }
            }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
          }

          window.addEventListener('message', function (message) {
            var data = message.data;
            if (!data || typeof data !== 'object' || data.eventType !== 'sendAuthEvent') return;
            if (data.data && data.data.storageKey && data.data.storageKey !== apiKey + ':' + appName) {
              window.alert('hearth-emulator: an auth event for another app reached this frame.');
              return;
            }
            var event = data.data ? data.data.authEvent : null;
            if (parent) {
              deliver(event);
            } else {
              window.sessionStorage.setItem(key, JSON.stringify(event));
            }
          });

          window.gapi_onload = function () {
            gapi.load('gapi.iframes', {
              callback: function () {
                parent = gapi.iframes.getContext().getParentIframe();
                parent.register('webStorageSupport', function () {
                  return { status: 'ACK', webStorageSupport: true };
                }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
                var stored = window.sessionStorage.getItem(key);
                window.sessionStorage.removeItem(key);
                var event = null;
                if (stored) {
                  try { event = JSON.parse(stored); } catch (error) {
                    window.alert('hearth-emulator: the kept auth event is unreadable.');
                    return;
                  }
                }
                deliver(event);
              },
              timeout: 10000,
              ontimeout: function () {
                window.alert('hearth-emulator: gapi.iframes did not load (is apis.google.com reachable?).');
              }
            });
          };
        })();
        </script>
        <script src="https://apis.google.com/js/api.js"></script>

        """
}
