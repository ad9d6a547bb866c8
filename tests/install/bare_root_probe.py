"""Runs inside the bare root, in a virtualenv holding only the wheel: signs up, signs in and gets a
token, and reports which shared objects the process mapped before and after Hearth loaded.

Argument: a scenario name, echoed back. Prints one JSON object. Python 3.9+, standard library only.
"""
import json
import os
import sys

# What Python maps for the modules Hearth's package uses, before Hearth: ssl among them, so the
# root's own libssl and libcrypto are in this process, where a library that wrongly looked for them
# on the system would find them.
import asyncio  # noqa: F401
import concurrent.futures  # noqa: F401
import ctypes
import hashlib  # noqa: F401
import ssl  # noqa: F401
import threading  # noqa: F401


def mapped() -> list:
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(None, 5)
            if len(fields) == 6 and ".so" in os.path.basename(fields[5].strip()):
                paths.add(fields[5].strip())
    return sorted(paths)


report = {"scenario": sys.argv[1], "before": mapped()}
import hearth  # noqa: E402

report["package"] = hearth.__file__
report["library"] = hearth.library_path()
email = f"bare-root-{os.getpid()}@example.com"
password = "bare-Root-Password-42"
try:
    with hearth.App(api_key="bare-root-key", project_id="demo-hearth", persistence="none") as app:
        auth = app.auth
        created = auth.create_user_with_email_and_password(email, password).result(timeout=30)
        auth.sign_out()
        signed_in = auth.sign_in_with_email_and_password(email, password).result(timeout=30)
        token = signed_in.user.get_token().result(timeout=30)
    report.update(signed_in=True, created_uid=created.user.uid, signed_in_uid=signed_in.user.uid,
                  token_segments=len(token.split(".")))
except hearth.AuthError as error:
    report.update(signed_in=False, error=type(error).__name__, message=error.message)
report["after"] = mapped()

# The libcurl Hearth loaded, in its own words (it is mapped already: this opens no new library).
curl = [path for path in report["after"] if os.path.basename(path).startswith("libcurl")]
if len(curl) == 1:
    library = ctypes.CDLL(curl[0])
    library.curl_version.restype = ctypes.c_char_p
    report["curl_version"] = library.curl_version().decode()
print(json.dumps(report))
