#!/usr/bin/env python3
"""Generates the bad-input program: every function of include/hearth.h, every parameter, bad values.

    python3 tests/badinput/gen.py --output out/badinput.c     # write the C cases (make test-bad-input)
    python3 tests/badinput/gen.py --run out/badinput [FN...]  # under scripts/with-emulator: set up the
                                                              # accounts the fixtures sign in to, run

Per parameter: NULL for each pointer; "", invalid UTF-8 (three kinds) and a 1 MiB string for each
`const char *`; released and foreign (another kind's) handles; second-factor state of one app used with
another app's auth; options structs never initialized (struct_size 0) or with an out-of-range enum;
out-of-range integers. Then the function with valid arguments from a thread of its own and from a loop
thread. Bad values must make the call report failure the way its return type does (NULL, 0, or, where it
reports an error code, as a status or a future's error, the code of the header's convention:
INVALID_HANDLE for handles, INVALID_ARGUMENT for the rest; see `failure_check` and `cases_for`).
Values that may be legitimate ("", 1 MiB, most integers, documented optional NULLs) must only not crash
or hang.

The header is read with docs/gen_api_reference.py's parser. Parameters are understood by their C type
(TYPES below). A function whose parameter or return type is not in TYPES makes generation fail, so a
new function cannot go untested; tables naming a function or parameter the header lacks fail too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs"))
import gen_api_reference as api  # noqa: E402  (the header parser the API reference uses)

PROTOTYPE = re.compile(r"HEARTH_API\s+(?P<ret>.+?)\b(?P<name>hearth_[a-z0-9_]+)\s*\((?P<params>.*)\)\s*$", re.S)


@dataclass
class Param:
    ctype: str  # normalized: "const char *", "hearth_user *", "callback", "char[]", ...
    name: str


@dataclass
class Function:
    name: str
    ret: str
    params: List[Param]
    prose: str


# ---------------------------------------------------------------------------------------------------
# Reading the header
# ---------------------------------------------------------------------------------------------------
def split_params(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def parse_param(text: str) -> Param:
    text = " ".join(text.split())
    pointer_to_function = re.match(r"^.*\(\s*\*\s*(\w+)\s*\)\s*\(.*\)$", text)
    if pointer_to_function:
        return Param("callback:" + re.sub(r"\s*\*\s*\w+\s*\)", "*)", text, count=1), pointer_to_function.group(1))
    array = re.match(r"^(.*?)(\w+)\s*\[[^\]]*\]$", text)
    if array:
        return Param(array.group(1).strip() + "[]", array.group(2))
    match = re.match(r"^(.*?)(\w+)$", text)
    ctype = re.sub(r"\s*\*", " *", match.group(1).strip()).replace("* *", "**").strip()
    return Param(ctype, match.group(2))


def read_functions() -> List[Function]:
    _, sections = api.read_header(api.HEADER.read_text(encoding="utf-8"))
    functions = []
    for section in sections:
        for item in section.items:
            prose = " ".join(item.prose)
            for statement in " ".join(item.code).split(";"):
                if "HEARTH_API" not in statement:
                    continue
                match = PROTOTYPE.search(" ".join(statement.split()))
                if not match:
                    raise SystemExit(f"gen.py: cannot read the declaration: {statement.strip()}")
                params_text = match.group("params").strip()
                params = [] if params_text in ("", "void") else [parse_param(p) for p in split_params(params_text)]
                ret = re.sub(r"\s*\*", " *", match.group("ret").strip()).strip()
                functions.append(Function(match.group("name"), ret, params, prose))
    exported = len(re.findall(r"^HEARTH_API\b", api.HEADER.read_text(encoding="utf-8"), flags=re.M))
    if exported != len(functions):
        raise SystemExit(f"gen.py: the header exports {exported} functions but {len(functions)} were read")
    return functions


# ---------------------------------------------------------------------------------------------------
# What each parameter type is, and its values
# ---------------------------------------------------------------------------------------------------
@dataclass
class Kind:
    valid: str                      # C expression of a valid value
    released: Optional[str] = None  # a released / dead handle of this kind
    foreign: Optional[str] = None   # a live handle of another kind
    uninitialized: Optional[str] = None  # an options struct never initialized
    bad_enum: Optional[str] = None  # an options struct with an out-of-range enum field
    other_app: Optional[str] = None  # state of another app
    nullable: bool = True           # a pointer (NULL is a case)
    ints: Tuple[str, ...] = ()      # out-of-range integers
    string: bool = False
    local: Optional[str] = None     # the C type of the local variable; None: pass inline


def handle(ctype: str, valid: str, released: Optional[str] = None, foreign: str = "fx_foreign()") -> Kind:
    return Kind(valid, released=released, foreign=f"({ctype})({foreign})", local=ctype)


# The first value past hearth_operation's last (the header's enum grows as operations are added).
PAST_LAST_OPERATION = 1 + max(int(value) for value in re.findall(
    r"^\s*HEARTH_OP_\w+\s*=\s*(\d+)", api.HEADER.read_text(encoding="utf-8"), flags=re.M))

TYPES: Dict[str, Kind] = {}
for const in ("", "const "):
    TYPES.update({
        f"{const}hearth_app *": handle(f"{const}hearth_app *", "fx_app()", "fx_released_app()", "fx_foreign_app()"),
        f"{const}hearth_user *": handle(f"{const}hearth_user *", "fx_user()", "fx_released_user()"),
        f"{const}hearth_credential *": handle(f"{const}hearth_credential *", "fx_credential()",
                                              "fx_released_credential()"),
        f"{const}hearth_future *": handle(f"{const}hearth_future *", "fx_future()", "fx_released_future()"),
        f"{const}hearth_oauth_provider *": handle(f"{const}hearth_oauth_provider *", "fx_provider()",
                                                  "fx_released_provider()", "fx_credential()"),
        f"{const}hearth_multi_factor_assertion *": handle(f"{const}hearth_multi_factor_assertion *", "fx_assertion()",
                                                          "fx_released_assertion()"),
    })
TYPES.update({
    "hearth_auth *": handle("hearth_auth *", "fx_auth()", "fx_released_auth()"),
    "const hearth_auth_result *": handle("const hearth_auth_result *", "fx_auth_result()", "fx_released_auth_result()"),
    "const hearth_user_info *": handle("const hearth_user_info *", "fx_user_info()", "fx_released_user_info()"),
    "const hearth_multi_factor_resolver *": handle("const hearth_multi_factor_resolver *", "fx_resolver()"),
    "const hearth_multi_factor_info *": handle("const hearth_multi_factor_info *", "fx_mf_info()"),
    "const hearth_multi_factor_session *": handle("const hearth_multi_factor_session *", "fx_mf_session()"),
    "const hearth_totp_secret *": handle("const hearth_totp_secret *", "fx_totp_secret()"),
    "const hearth_action_code_info *": handle("const hearth_action_code_info *", "fx_action_code_info()",
                                              "fx_released_action_code_info()"),
    "hearth_storage_reply *": handle("hearth_storage_reply *", "fx_reply()", "fx_stale_reply()"),
    "const char *": Kind('"badin"', string=True, local="const char *"),
    "char *": Kind("fx_out_buffer()", local="char *"),
    "char[]": Kind("fx_out_buffer()", local="char *"),
    "void *": Kind("fx_user_data()", local="void *"),
    "hearth_app **": Kind("fx_app_out()", local="hearth_app **"),
    "hearth_app_options *": Kind("fx_app_options()", local="hearth_app_options *"),
    "const hearth_app_options *": Kind("fx_app_options()", uninitialized="fx_zero_app_options()",
                                       bad_enum="fx_bad_enum_app_options()", local="const hearth_app_options *"),
    "hearth_provider_flow_options *": Kind("fx_flow_options()", local="hearth_provider_flow_options *"),
    "const hearth_provider_flow_options *": Kind("fx_flow_options()", uninitialized="fx_zero_flow_options()",
                                                 local="const hearth_provider_flow_options *"),
    "hearth_phone_auth_options *": Kind("fx_phone_options()", local="hearth_phone_auth_options *"),
    "const hearth_phone_auth_options *": Kind("fx_phone_options()", uninitialized="fx_zero_phone_options()",
                                              other_app="fx_other_app_phone_options()",
                                              local="const hearth_phone_auth_options *"),
    "hearth_action_code_settings *": Kind("fx_action_code_settings()", local="hearth_action_code_settings *"),
    "const hearth_action_code_settings *": Kind("fx_action_code_settings()",
                                                uninitialized="fx_zero_action_code_settings()",
                                                local="const hearth_action_code_settings *"),
    "const hearth_phone_listener *": Kind("fx_phone_listener()", uninitialized="fx_zero_phone_listener()",
                                          local="const hearth_phone_listener *"),
    "int": Kind("0", nullable=False, ints=("-1", "INT_MIN", "INT_MAX"), local="int"),
    # Enums passed by value: values outside the enum (a host may cast any int).
    "hearth_log_level": Kind("HEARTH_LOG_WARNING", nullable=False,
                             ints=("(hearth_log_level)-1", "(hearth_log_level)5", "(hearth_log_level)INT_MAX"),
                             local="hearth_log_level"),
    "hearth_operation": Kind("HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY", nullable=False,
                             ints=("(hearth_operation)-1", f"(hearth_operation){PAST_LAST_OPERATION}",
                                   "(hearth_operation)INT_MAX"),
                             local="hearth_operation"),
    "int64_t": Kind("1000", nullable=False, ints=("INT64_MIN", "-1", "INT64_MAX"), local="int64_t"),
    "uint16_t": Kind("9099", nullable=False, ints=("0",), local="uint16_t"),
    "size_t": Kind("0", nullable=False, ints=("SIZE_MAX", "(size_t)1 << 40"), local="size_t"),
    "uint64_t": Kind("1", nullable=False, ints=("0", "UINT64_MAX"), local="uint64_t"),
    "hearth_log_cb": Kind("fx_log_cb"),
    "hearth_completion_cb": Kind("fx_completion_cb"),
    "hearth_auth_state_cb": Kind("fx_auth_cb"),
    "hearth_id_token_cb": Kind("fx_auth_cb"),
    "hearth_post_cb": Kind("fx_post_cb"),
    "hearth_release_cb": Kind("fx_release_cb"),
})

# Valid values by parameter name (the type's own otherwise).
VALID_BY_NAME: Dict[str, str] = {
    "email": '"badin-user@example.com"', "new_email": '"badin-new@example.com"', "password": '"badin-pass-1"',
    "provider_id": '"github.com"', "host": '"127.0.0.1"', "url": '"com.example.badin:/oauth"',
    "language_code": '"en"', "tenant_id": '"badin-tenant"', "code": '"123456"', "verification_id": '"badin-verification"',
    "base32_secret": '"JBSWY3DPEHPK3PXP"', "algorithm": '"SHA1"', "enrollment_id": '"badin-factor"',
    "key": '"prompt"', "value": '"login"', "scope": '"email"', "token": '"{\\"uid\\":\\"badin\\"}"',
    "input": '"abc"', "account_name": '"badin"', "issuer": '"Hearth"', "display_name": '"Badin"',
    "photo_url": '"https://example.com/badin.png"', "data": '"{}"', "digits": "6", "period_seconds": "30",
    "unix_time": "59", "out_size": "128", "timeout_ms": "1000", "disabled": "1", "level": "HEARTH_LOG_WARNING",
    "link": '"com.example.badin:/finish?mode=signIn&oobCode=badin-code&apiKey=fake-api-key"',
    "new_password": '"badin-pass-2"',
}


def length_of(params: List[Param], index: int) -> Optional[int]:
    """A `size_t length` right after a `const char *data` is that string's length, always (a wrong
    length is a buffer overrun of the caller's, not bad input)."""
    p = params[index]
    if p.ctype == "size_t" and p.name == "length" and index > 0 and params[index - 1].ctype == "const char *":
        return index - 1
    return None


# ---------------------------------------------------------------------------------------------------
# What the header documents: where NULL or odd integers are fine, how failure shows
# ---------------------------------------------------------------------------------------------------
# NULL means "none / keep / default / clear" here (header comments); such calls must only not crash.
NULL_OK: Set[Tuple[str, str]] = {
    ("hearth_free", "ptr"),
    ("hearth_auth_add_auth_state_listener", "release"),         # "(NULL: none)"
    ("hearth_auth_add_id_token_listener", "release"),
    ("hearth_log_set_callback", "callback"),                    # "a NULL callback turns it off"
    ("hearth_auth_set_language_code", "language_code"),         # "NULL or "" clears it"
    ("hearth_auth_set_tenant_id", "tenant_id"),                 # "NULL: none, the project's own users"
    ("hearth_credential_create_google", "id_token"), ("hearth_credential_create_google", "access_token"),  # "and/or"
    ("hearth_credential_create_oauth", "id_token"), ("hearth_credential_create_oauth", "access_token"),
    ("hearth_credential_create_oauth_with_nonce", "access_token"),     # "or NULL"
    ("hearth_credential_create_apple", "authorization_code"), ("hearth_credential_create_apple", "given_name"),
    ("hearth_credential_create_apple", "family_name"),                 # "optionally"
    ("hearth_user_update_user_profile", "display_name"), ("hearth_user_update_user_profile", "photo_url"),
    ("hearth_user_multi_factor_enroll", "display_name"),        # "(NULL: none)"
    ("hearth_totp_code_generate", "algorithm"),                 # "(NULL: "SHA1")"
    ("hearth_storage_reply_set", "data"),                       # with length 0: nothing stored
    ("hearth_auth_send_password_reset_email", "settings"),      # "(NULL: none)"
    ("hearth_user_send_email_verification", "settings"),
    ("hearth_user_send_email_verification_before_updating_email", "settings"),
}
# The string is bytes, not text: invalid UTF-8 is data.
BYTES_OK: Set[Tuple[str, str]] = {
    ("hearth_storage_reply_set", "data"),
}
# Out-of-range integers the header says are errors (None: every value the type's list tries).
INT_FAILS: Dict[Tuple[str, str], Optional[Set[str]]] = {
    ("hearth_log_set_callback", "level"): None,      # "HEARTH_ERROR_INVALID_ARGUMENT for a level outside"
    ("hearth_auth_last_result", "operation"): None,  # "an operation outside hearth_operation"
    ("hearth_future_string_at", "index"): None,
    ("hearth_user_provider_data_at", "index"): None,  # "NULL when out of range"
    ("hearth_user_multi_factor_at", "index"): None,
    ("hearth_multi_factor_resolver_hint_at", "index"): None,
    ("hearth_totp_code_generate", "digits"): None,
    ("hearth_totp_code_generate", "period_seconds"): {"-1", "INT_MIN"},  # INT_MAX is a (long) period
    ("hearth_auth_remove_auth_state_listener", "listener_id"): None,
    ("hearth_auth_remove_id_token_listener", "listener_id"): None,
}
# Valid values for one function's parameter, where the type's and the name's do not fit.
VALID_FOR: Dict[Tuple[str, str], str] = {
    ("hearth_free", "ptr"): "fx_hearth_memory()",
}
# Functions returning a value that cannot signal failure (the value itself is the answer).
NO_FAILURE_VALUE: Set[str] = {"hearth_error_name", "hearth_error_message", "hearth_version", "hearth_last_error_message"}
# Integer results whose failure value is not 0 / non-zero by the rules in failure_check.
FAIL_VALUE: Dict[str, str] = {
    "hearth_future_status": "HEARTH_FUTURE_INVALID",
    "hearth_future_error": "HEARTH_ERROR_INVALID_HANDLE",
    "hearth_action_code_info_operation": "HEARTH_ACTION_CODE_OPERATION_UNKNOWN",
}
# int functions that return error codes although their comment does not say "returns 0".
STATUS_INT: Set[str] = {"hearth_auth_remove_auth_state_listener", "hearth_auth_remove_id_token_listener"}
RETURNS = {"hearth_future *", "int", "hearth_error", "hearth_future_state", "hearth_action_code_operation", "size_t",
           "uint64_t", "void", "void *"}
# Accessors that return a hearth_error: they answer, they do not fail (header, "Errors").
ERROR_ACCESSORS: Set[str] = {"hearth_future_error", "hearth_last_error_code"}
# Functions returning something other than a hearth_error or a future that report a synchronous failure
# in the last error: constructors and retains (NULL), hearth_app_create, listener ids (0), new strings.
SETS_LAST_ERROR_TOO: Set[str] = {"hearth_auth_add_auth_state_listener", "hearth_auth_add_id_token_listener",
                                 "hearth_totp_secret_qr_code_url"}


def sets_last_error(function: Function) -> bool:
    """The header's "Errors" rule: which functions leave a failure in hearth_last_error_code/_message."""
    if function.ret == "hearth_error":
        return function.name not in ERROR_ACCESSORS
    if function.ret == "hearth_future *":
        return True
    return "_create" in function.name or function.name.endswith("_retain") or function.name in SETS_LAST_ERROR_TOO


def failure_check(function: Function, call: str, must_fail: str) -> str:
    """The C statement that runs `call` and checks how it reported failure."""
    ret = function.ret
    if ret == "hearth_future *":
        return f"bi_future({call}, {must_fail});"
    if function.name in NO_FAILURE_VALUE:
        return f"bi_pointer({call}, 0, 1);"
    if ret == "void":
        return f"{call}; bi_void();"
    if ret in ("int", "hearth_error", "hearth_future_state", "hearth_action_code_operation"):
        if function.name in FAIL_VALUE:
            return f"bi_int({call}, {must_fail}, {FAIL_VALUE[function.name]}, 0);"
        status = ret == "hearth_error" or function.name in STATUS_INT or re.search(r"\breturns 0\b", function.prose, re.I)
        return f"bi_int({call}, {must_fail}, 0, {1 if status else 0});"
    if ret in ("size_t", "uint64_t"):
        return f"bi_int((long long)({call}), {must_fail}, 0, 0);"
    if ret.endswith("*"):
        return f"bi_pointer({call}, {must_fail}, 1);"
    raise SystemExit(f"gen.py: no failure rule for {function.name}'s return type {ret!r}")


# ---------------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------------
def kind_of(function: Function, param: Param) -> Kind:
    kind = TYPES.get(param.ctype)
    if kind is None:
        raise SystemExit(f"gen.py: does not know how to call {function.name}: parameter "
                         f"'{param.ctype} {param.name}' has a type with no bad values in TYPES; add them")
    return kind


def valid_value(function: Function, index: int) -> str:
    param = function.params[index]
    kind = kind_of(function, param)
    if (function.name, param.name) in VALID_FOR:
        return VALID_FOR[(function.name, param.name)]
    value = VALID_BY_NAME.get(param.name)
    if value is not None and (kind.string if value.startswith('"') else not kind.nullable):
        return value
    return kind.valid


def c_string(text: str) -> str:
    return json.dumps(text)


# The header's convention (and test_bad_input.c's): where a call reports an error code, a NULL handle
# the function acts on (its first parameter) and a released or foreign handle anywhere give
# INVALID_HANDLE; a NULL required argument (a handle too), invalid UTF-8, an uninitialized options
# struct or an out-of-range value give INVALID_ARGUMENT.
HANDLE = "HEARTH_ERROR_INVALID_HANDLE"
ARGUMENT = "HEARTH_ERROR_INVALID_ARGUMENT"


def cases_for(function: Function) -> List[Tuple[str, Dict[int, str], str]]:
    """(label, {parameter index: value}, must_fail) for every bad value of every parameter; must_fail
    is "0" (must only return), or the error code a failure must carry."""
    cases = []
    for index, param in enumerate(function.params):
        kind = kind_of(function, param)
        key = (function.name, param.name)
        if length_of(function.params, index) is not None:
            continue  # follows its string
        is_handle = kind.released is not None or kind.foreign is not None
        if kind.nullable:
            ok = key in NULL_OK or param.ctype == "void *" and param.name == "user_data"
            code = "0" if ok else HANDLE if is_handle and index == 0 else ARGUMENT
            cases.append((f"{param.name}=NULL", {index: "NULL"}, code))
        if kind.string:
            cases.append((f'{param.name}=""', {index: "bi_empty"}, "0"))
            for label, value in (("not UTF-8", "bi_not_utf8"), ("overlong UTF-8", "bi_overlong"),
                                 ("lone surrogate", "bi_surrogate")):
                cases.append((f"{param.name}={label}", {index: value}, "0" if key in BYTES_OK else ARGUMENT))
            cases.append((f"{param.name}=1 MiB", {index: "bi_long_string()"}, "0"))
        if kind.released:
            cases.append((f"{param.name}=released", {index: kind.released}, HANDLE))
        if kind.foreign:
            cases.append((f"{param.name}=foreign handle", {index: kind.foreign}, HANDLE))
        if kind.uninitialized:
            cases.append((f"{param.name}=struct_size 0", {index: kind.uninitialized}, ARGUMENT))
        if kind.bad_enum:
            cases.append((f"{param.name}=persistence 99", {index: kind.bad_enum}, ARGUMENT))
        if kind.other_app and any(p.ctype == "hearth_auth *" for p in function.params):
            cases.append((f"{param.name}=another app's second-factor session", {index: kind.other_app}, HANDLE))
        for value in kind.ints:
            fails = key in INT_FAILS and (INT_FAILS[key] is None or value in INT_FAILS[key])
            cases.append((f"{param.name}={value}", {index: value}, ARGUMENT if fails else "0"))
        if function.name == "hearth_totp_code_generate" and param.name == "out_size":
            for value in ("0", "6"):  # no room for digits + NUL
                cases.append((f"out_size={value}", {index: value}, ARGUMENT))
    return cases


def call_block(function: Function, overrides: Dict[int, str], must_fail: str) -> List[str]:
    lines, args = [], []
    for index, param in enumerate(function.params):
        kind = kind_of(function, param)
        source = length_of(function.params, index)
        if source is not None:
            value = f"(a{source} ? strlen(a{source}) : 0)"
        else:
            value = overrides.get(index, valid_value(function, index))
        if kind.local:
            lines.append(f"{kind.local} a{index} = {value};")
            args.append(f"a{index}")
        else:
            args.append(value)
    lines.append(failure_check(function, f"{function.name}({', '.join(args)})", must_fail))
    return lines


def generate(functions: List[Function]) -> str:
    names = {f.name: f for f in functions}
    tables = [("NULL_OK", NULL_OK), ("BYTES_OK", BYTES_OK), ("INT_FAILS", set(INT_FAILS)),
              ("VALID_FOR", set(VALID_FOR))]
    for table, entries in tables:
        for name, param in entries:
            if name not in names or param not in [p.name for p in names[name].params]:
                raise SystemExit(f"gen.py: {table} names {name}({param}), which the header does not declare")
    for table, entries in (("NO_FAILURE_VALUE", NO_FAILURE_VALUE), ("FAIL_VALUE", set(FAIL_VALUE)),
                           ("STATUS_INT", STATUS_INT), ("ERROR_ACCESSORS", ERROR_ACCESSORS),
                           ("SETS_LAST_ERROR_TOO", SETS_LAST_ERROR_TOO)):
        for name in entries:
            if name not in names:
                raise SystemExit(f"gen.py: {table} names {name}, which the header does not declare")

    out = ["/* Generated by tests/badinput/gen.py from include/hearth.h: do not edit. */",
           '#include "harness.h"', "#include <string.h>", ""]
    for function in functions:
        if function.ret not in RETURNS and not function.ret.endswith("*"):
            raise SystemExit(f"gen.py: does not know how to check {function.name}'s return type {function.ret!r}")
        out.append(f"static void cases_{function.name}(void) {{")
        for label, overrides, must_fail in cases_for(function):
            if sets_last_error(function):
                out.append(f"  {{ bi_begin_sets_last_error({c_string(label)}, {c_string(function.name)});")
            else:
                out.append(f"  {{ bi_begin({c_string(label)});")
            out += ["    " + line for line in call_block(function, overrides, must_fail)]
            out.append("  }")
        if function.name == "hearth_storage_reply_set":
            out.append('  { bi_begin("valid arguments");')
            out += ["    " + line for line in call_block(function, {}, "0")]
            out.append("  }")
        out.append("}")
        out.append(f"static void valid_{function.name}(void) {{")
        out.append('  bi_begin("(valid call on another thread)");')
        out += ["  " + line for line in call_block(function, {}, "0")]
        out.append("}")
        out.append("")
    out.append("const bi_function bi_functions[] = {")
    for function in functions:
        in_load = int(any(p.ctype == "hearth_storage_reply *" for p in function.params))
        out.append(f'  {{"{function.name}", cases_{function.name}, valid_{function.name}, {in_load}}},')
    out.append("};")
    out.append(f"const size_t bi_function_count = {len(functions)};")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------------
# Accounts the fixtures sign in to (made through the emulator's REST and admin routes)
# ---------------------------------------------------------------------------------------------------
def post(path: str, body: dict, admin: bool = False) -> dict:
    url = os.environ["HEARTH_EMULATOR_URL"] + path
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": "Bearer owner"} if admin else {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def prepare_accounts() -> Dict[str, str]:
    project = os.environ.get("HEARTH_PROJECT", "demo-hearth")
    password = "badin-pass-1"
    env = {"BADIN_PASSWORD": password}
    for variable, email, mfa in (("BADIN_VERIFIED_EMAIL", "badin-verified@example.com", False),
                                 ("BADIN_MFA_EMAIL", "badin-mfa@example.com", True)):
        created = post("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key",
                       {"email": email, "password": password, "returnSecureToken": True})
        fields = {"localId": created["localId"], "emailVerified": True}
        if mfa:
            fields["mfa"] = {"enrollments": [{"mfaEnrollmentId": "badin-factor", "phoneInfo": "+15555550199",
                                              "displayName": "Badin phone"}]}
        post(f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:update", fields, admin=True)
        env[variable] = email
    # An email sign-in code for the action code info fixture (checking a code does not use it up).
    minted = post(f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:sendOobCode",
                  {"requestType": "EMAIL_SIGNIN", "email": "badin-link@example.com", "returnOobLink": True},
                  admin=True)
    env["BADIN_OOB_CODE"] = minted["oobCode"]
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, help="write the generated C here")
    parser.add_argument("--run", metavar="PROGRAM", help="set up the emulator accounts, then run PROGRAM")
    parser.add_argument("functions", nargs="*", help="with --run: only these functions")
    args = parser.parse_args()
    if args.output:
        functions = read_functions()
        text = generate(functions)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        if not args.output.exists() or args.output.read_text() != text:
            args.output.write_text(text)
        cases = sum(len(cases_for(f)) for f in functions)
        print(f"gen.py: {len(functions)} functions, {cases} bad-input cases (+ 2 thread calls each) -> {args.output}")
    if args.run:
        if "HEARTH_EMULATOR_URL" not in os.environ:
            parser.error("--run needs an emulator: run it under scripts/with-emulator")
        os.environ.update(prepare_accounts())
        sys.stdout.flush()
        os.execv(args.run, [args.run, *args.functions])
    if not args.output and not args.run:
        parser.error("nothing to do: give --output and/or --run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
