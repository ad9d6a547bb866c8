#!/usr/bin/env bash
# Runs a program written for the Firebase C++ SDK the way a desktop Firebase app runs: from a working
# directory holding google-services.json (App::Create() reads it), with the Auth emulator named the
# SDK's way (USE_AUTH_EMULATOR, AUTH_EMULATOR_PORT) and Hearth's own variable unset, so the requests
# reach the emulator only if the compatibility layer honours the SDK's variables. Sessions persist
# under a scratch XDG_DATA_HOME. Run inside scripts/with-emulator.
set -euo pipefail
program="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
[ -n "${FIREBASE_AUTH_EMULATOR_HOST:-}" ] || { echo "run_idiom.sh: run it inside scripts/with-emulator" >&2; exit 2; }
port="${FIREBASE_AUTH_EMULATOR_HOST##*:}"
project="${HEARTH_PROJECT:-demo-hearth}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/google-services.json" <<JSON
{
  "project_info": {
    "project_number": "1234567890",
    "firebase_url": "https://$project.firebaseio.com",
    "project_id": "$project",
    "storage_bucket": "$project.appspot.com"
  },
  "client": [
    {
      "client_info": {
        "mobilesdk_app_id": "1:1234567890:android:0123456789abcdef",
        "android_client_info": { "package_name": "com.example.hearth.compat" }
      },
      "oauth_client": [],
      "api_key": [ { "current_key": "fake-api-key-for-the-emulator" } ],
      "services": { "appinvite_service": { "other_platform_oauth_client": [] } }
    }
  ],
  "configuration_version": "1"
}
JSON
cd "$work"
exec env -u FIREBASE_AUTH_EMULATOR_HOST USE_AUTH_EMULATOR=1 AUTH_EMULATOR_PORT="$port" XDG_DATA_HOME="$work/data" \
  HEARTH_PROJECT="$project" "$program" "$@"
