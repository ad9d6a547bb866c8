"""schemathesis hooks for the emulator run (loaded through SCHEMATHESIS_HOOKS)."""
import atexit
import collections
import re

import schemathesis

# 501 answers seen, by message: fields the reference emulator also refuses (emulator-reference.md
# §1: initialEmail, upgradeToFederatedLogin, REVERT_SECOND_FACTOR_ADDITION, tenants, ...).
unimplemented = collections.Counter()


@schemathesis.check
def no_server_error(ctx, response, case):
    """No 5xx. The one exception is the reference emulator's own answer for a feature it does not
    implement: 501 NOT_IMPLEMENTED, reason "unimplemented", in Google's error envelope."""
    if response.status_code < 500:
        return None
    if response.status_code == 501:
        try:
            error = response.json()["error"]
            reasons = {item.get("reason") for item in error.get("errors", [])}
        except Exception:
            error, reasons = None, set()
        if error and error.get("code") == 501 and error.get("status") == "NOT_IMPLEMENTED" and reasons == {"unimplemented"}:
            unimplemented[re.sub(r"\(tenantId .*\)", "(tenantId ...)", error.get("message", ""), flags=re.S)[:80]] += 1
            return None
    raise AssertionError(f"server error {response.status_code}: {response.text[:300]}")


@atexit.register
def _summary():
    if unimplemented:
        print(f"schema: {sum(unimplemented.values())} answers were the reference's 501 NOT_IMPLEMENTED:")
        for message, count in unimplemented.most_common():
            print(f"  {count:5d}  {message}")
