"""schemathesis hooks for the emulator run (loaded through SCHEMATHESIS_HOOKS)."""
import atexit
import collections

import schemathesis

from firebase_refusals import is_firebase_refusal

# Firebase's own 501 answers seen, by operation and message.
refusals = collections.Counter()


def _operation_id(case):
    definition = getattr(case.operation, "definition", None)
    raw = getattr(definition, "raw", None) or {}
    return raw.get("operationId") or case.operation.label


@schemathesis.check
def no_server_error(ctx, response, case):
    """No 5xx, except what Firebase's emulator answers the same request with:
    - 501 NOT_IMPLEMENTED (reason "unimplemented", Google's envelope) for exactly the operations and
      fields it refuses itself (firebase_refusals.py); any other 501 is hearth-emulator's own gap;
    - 500 INTERNAL BLOCKING_FUNCTION_ERROR_RESPONSE, when a generated config named a blocking function
      that cannot be reached (a valid absolute URI, like "a:", is enough)."""
    if response.status_code < 500:
        return None
    try:
        error = response.json()["error"]
        reasons = {item.get("reason") for item in error.get("errors", [])}
        message = error.get("message", "")
    except Exception:
        error, reasons, message = None, set(), ""
    if response.status_code == 501 and error and error.get("status") == "NOT_IMPLEMENTED" \
            and reasons == {"unimplemented"}:
        operation_id = _operation_id(case)
        if is_firebase_refusal(operation_id, case.body, message):
            refusals[f"{operation_id}: {message}"[:120]] += 1
            return None
        raise AssertionError(f"501 that Firebase's emulator does not give for {operation_id}: {message!r} "
                             f"(body {str(case.body)[:200]})")
    if response.status_code == 500 and error and error.get("status") == "INTERNAL" \
            and message.startswith("BLOCKING_FUNCTION_ERROR_RESPONSE : (("):
        refusals[f"blocking function: {message}"[:120]] += 1
        return None
    raise AssertionError(f"server error {response.status_code}: {response.text[:300]}")


@atexit.register
def _summary():
    if refusals:
        print(f"schema: {sum(refusals.values())} answers were Firebase's emulator's own 5xx:")
        for message, count in refusals.most_common():
            print(f"  {count:5d}  {message}")
