"""Wrong argument types raise TypeError and unusable values ValueError, for every public function and
method of the binding: never a ctypes error, an AttributeError, or a crash.

The cases are generated from the public API itself (``hearth.__all__`` and each class's public methods,
by their annotations): for every parameter, values of wrong types and bad values of the right type,
with valid values in the other parameters. A public callable whose class has no receiver below, or a
parameter whose annotation has no bad values below, fails the suite, so new API gets covered.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest

import hearth

NUL = "nul\x00inside"
SURROGATE = "lone \ud800 surrogate"  # not encodable as UTF-8


class _Thing:
    """An object of no type the binding knows."""


# Annotation (as written in the binding) -> (values that must raise TypeError, that must raise ValueError).
BAD: Dict[str, Tuple[Tuple[Any, ...], Tuple[Any, ...]]] = {
    "str": ((None, 42, b"bytes", _Thing()), (NUL, SURROGATE)),
    "Optional[str]": ((42, b"bytes", _Thing()), (NUL, SURROGATE)),
    "int": (("1", 1.5, None, _Thing()), ()),
    "bool": (("yes", None, 1.5, _Thing()), ()),
    "float": (("1", None, _Thing()), (float("nan"), float("inf"))),
    "Optional[float]": (("1", _Thing()), (float("nan"),)),
    "Credential": ((None, "credential", 42, _Thing()), ()),
    "MultiFactorAssertion": ((None, "assertion", _Thing()), ()),
    "MultiFactorSession": ((None, "session", _Thing()), ()),
    "'TotpSecret'": ((None, "secret", _Thing()), ()),
    "Union[str, MultiFactorInfo]": ((None, 42, _Thing()), (NUL,)),
    "ProfileValue": ((42, b"bytes", _Thing()), (NUL, SURROGATE)),
    "TotpTime": (("now", _Thing()), ()),
    "Mapping[str, str]": ((42, "k=v", {1: "x"}, {"k": 1}), ({"k": NUL},)),
    "Optional[Mapping[str, str]]": ((42, {1: "x"}, {"k": 1}), ({"k": NUL},)),
    "Iterable[str]": ((42, [1], [None]), ([NUL],)),
    "Persistence": ((42, None, _Thing()), ("bogus",)),
    "Optional[PathLikeStr]": ((42, _Thing()), ("dir\x00name",)),
    "Callable[[], object]": ((None, 42, "fn"), ()),
    "Optional[Callable[[], object]]": ((42, "fn"), ()),
    "Callable[['Future[T]'], object]": ((None, 42, "fn"), ()),
    "Optional[MultiFactorSession]": (("session", 42, _Thing()), ()),
    "Optional[MultiFactorInfo]": (("hint", 42, _Thing()), ()),
    "CodeSent": ((None, 42, "fn"), ()),
    "Optional[VerificationFailed]": ((42, "fn"), ()),
    "Optional[CodeAutoRetrievalTimeout]": ((42, "fn"), ()),
    "OpenUrl": ((None, 42, "fn"), ()),
    "OAuthProvider": ((None, "github.com", 42, _Thing()), ()),
    "AuthStateListener": ((None, 42, "fn"), ()),
    "ListenerHandle": ((None, 42, "handle", _Thing()), ()),
    "ActionCodeSettings": ((None, 42, "com.example:/x", {"url": "com.example:/x"}, _Thing()), ()),
    "Optional[ActionCodeSettings]": ((42, "com.example:/x", {"url": "com.example:/x"}, _Thing()), ()),
    "User": ((None, "user", 42, _Thing()), ()),
}

# Valid values by parameter name (annotation defaults below); receivers come from `receivers`.
VALID_BY_NAME: Dict[str, Any] = {
    "email": "wrong-types@example.com", "new_email": "wrong-types-new@example.com",
    "password": "wrong-types-1", "host": "127.0.0.1", "port": 9099, "provider_id": "github.com",
    "code": "123456", "secret": "JBSWY3DPEHPK3PXP", "algorithm": "SHA1", "url": "com.example:/x",
    "text": "abc", "scope": "email", "api_key": "fake-api-key", "persistence": "none",
    "custom_parameters": {"prompt": "login"}, "scopes": ("email",), "timeout": 0.01,
    "request_timeout": 5.0, "digits": 6, "period": 30, "account_name": "ada", "issuer": "Hearth",
    "id_token": "header.payload.signature",
}

# Text that stays in Python (never reaches C): any str is a fine value.
PYTHON_ONLY_TEXT = {("error_from_code", "message")}

# Parameters that cannot be reached without an account this module does not make.
SKIPPED = {
    ("TotpMultiFactorGenerator", "assertion_for_enrollment", "code"):
        "needs a TotpSecret (a verified account); covered by test_multi_factor.py",
}


def valid_for(annotation: str, name: str, pool: Dict[str, Any]) -> Any:
    if name in VALID_BY_NAME:
        return VALID_BY_NAME[name]
    by_annotation = {
        "str": "value", "Optional[str]": None, "int": 0, "bool": False, "float": 1.0, "Optional[float]": None,
        "Credential": pool["credential"], "TotpTime": None, "ProfileValue": hearth.KEEP,
        "Callable[[], object]": lambda: None, "Callable[['Future[T]'], object]": lambda future: None,
        "Optional[Callable[[], object]]": None,
        "Union[str, MultiFactorInfo]": "factor", "Optional[PathLikeStr]": None,
        "Optional[MultiFactorSession]": None, "Optional[MultiFactorInfo]": None,
        "CodeSent": lambda *args: None, "Optional[VerificationFailed]": None,
        "Optional[CodeAutoRetrievalTimeout]": None, "OpenUrl": lambda url: True,
        "OAuthProvider": pool["OAuthProvider"], "AuthStateListener": lambda auth: None,
        "ListenerHandle": pool["listener"], "User": pool["User"],
        "MultiFactorAssertion": hearth.TotpMultiFactorGenerator.assertion_for_sign_in("factor", "123456"),
        # Only TotpMultiFactorGenerator.generate_secret takes one, as its one parameter (always replaced).
        "MultiFactorSession": _Thing(), "'TotpSecret'": _Thing(),
        "ActionCodeSettings": hearth.ActionCodeSettings(url="com.example:/x", handle_code_in_app=True),
        "Optional[ActionCodeSettings]": None,
    }
    if annotation in by_annotation:
        return by_annotation[annotation]
    pytest.fail(f"no valid value for a parameter {name}: {annotation}")


# Public classes whose methods are called on an instance made here; classes listed in NOT_CALLED are
# records or interfaces the host implements.
NOT_CALLED = {
    "SessionStorage": "an interface the host implements; Hearth calls it",
    "AuthStateListener": "a Protocol", "OpenUrl": "a Protocol",
    "UserInfo": "a record", "UserMetadata": "a record", "AuthResult": "a record",
    "AdditionalUserInfo": "a record", "MultiFactorInfo": "a record", "PhoneVerification": "a record",
    "Nonce": "a record", "ErrorCode": "an IntEnum", "ActionCodeInfo": "a record (made by check_action_code)",
    "ActionCodeOperation": "an IntEnum",
    "MultiFactorResolver": "needs an account with a second factor: its one method is covered by "
                           "test_multi_factor.py; its argument check is the same as enroll's",
    "TotpSecret": "needs a verified account: its methods are covered in test_multi_factor.py",
}
# Methods that take no argument or are not the binding's own API surface.
CONSTRUCTED_BY_HEARTH = {"Auth", "Future", "ListenerHandle", "Credential", "MultiFactorSession",
                         "MultiFactorAssertion", "MultiFactorUser", "User"}


def public_callables() -> Iterator[Tuple[str, Optional[str], str, Callable[..., Any]]]:
    """(qualified name, class name or None, method name, function) for every public callable."""
    for name in hearth.__all__:
        obj = getattr(hearth, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue
        if inspect.isclass(obj):
            for attribute, value in vars(obj).items():
                if attribute.startswith("_") and attribute != "__init__":
                    continue
                if attribute == "__init__" and name in CONSTRUCTED_BY_HEARTH:
                    continue  # made by Hearth, not by hosts
                function = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
                if inspect.isfunction(function):
                    yield f"{name}.{attribute}", name, attribute, function
        elif inspect.isfunction(obj):
            yield name, None, name, obj


def parameter_cases() -> List[Any]:
    cases = []
    for qualified, owner, method, function in public_callables():
        if owner in NOT_CALLED:
            continue
        parameters = [p for p in inspect.signature(function).parameters.values()
                      if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                      and not p.name.startswith("_")]
        for parameter in parameters:
            if (owner, method, parameter.name) in SKIPPED:
                continue
            annotation = parameter.annotation if isinstance(parameter.annotation, str) else str(parameter.annotation)
            cases.append(pytest.param(owner, method, parameter.name, annotation, id=f"{qualified}({parameter.name})"))
    return cases


@pytest.fixture
def pool(make_app: Callable[..., hearth.App]) -> Dict[str, Any]:
    app = make_app()
    user = app.auth.sign_in_anonymously().result(timeout=10).user
    return {
        "App": make_app(), "Auth": app.auth, "User": user, "MultiFactorUser": user.multi_factor,
        "Future": app.auth.sign_in_anonymously(), "OAuthProvider": hearth.OAuthProvider("github.com"),
        "credential": hearth.EmailAuthProvider.credential("wrong-types@example.com", "wrong-types-1"),
        "listener": app.auth.add_auth_state_listener(lambda auth: None),
    }


def call(owner: Optional[str], method: str, pool: Dict[str, Any], arguments: Dict[str, Any]) -> Any:
    if owner is None:
        return getattr(hearth, method)(**arguments)
    cls = getattr(hearth, owner)
    if method == "__init__":
        return cls(**arguments)
    raw = inspect.getattr_static(cls, method)
    if isinstance(raw, (staticmethod, classmethod)):
        return getattr(cls, method)(**arguments)
    if owner not in pool:
        pytest.fail(f"no {owner} to call {owner}.{method} on: add one to the pool fixture or NOT_CALLED")
    return getattr(pool[owner], method)(**arguments)


def arguments_for(owner: Optional[str], method: str, pool: Dict[str, Any]) -> Dict[str, Any]:
    function = getattr(hearth, method) if owner is None else inspect.getattr_static(getattr(hearth, owner), method)
    if isinstance(function, (staticmethod, classmethod)):
        function = function.__func__
    arguments = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in ("self", "cls") or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.name.startswith("_"):
            continue
        if parameter.default is not parameter.empty and parameter.name not in VALID_BY_NAME:
            continue
        arguments[parameter.name] = valid_for(str(parameter.annotation), parameter.name, pool)
    return arguments


@pytest.mark.parametrize("owner, method, name, annotation", parameter_cases())
def test_wrong_types_raise_type_error_and_bad_values_value_error(owner, method, name, annotation, pool):
    if annotation not in BAD:
        pytest.fail(f"no bad values for the annotation {annotation!r}: add them to BAD")
    wrong_types, bad_values = BAD[annotation]
    if (method, name) in PYTHON_ONLY_TEXT:
        bad_values = ()
    for expected, values in ((TypeError, wrong_types), (ValueError, bad_values)):
        for value in values:
            arguments = arguments_for(owner, method, pool)
            if name == "persistence_dir":
                arguments["persistence"] = "file"  # where a directory applies
            arguments[name] = value
            try:
                result = call(owner, method, pool, arguments)
            except expected:
                continue
            except Exception as error:  # noqa: BLE001 - anything else is the failure being looked for
                pytest.fail(f"{name}={value!r} raised {type(error).__name__}: {error}, not {expected.__name__}")
            if isinstance(result, hearth.Future):
                result.exception(timeout=10)  # it was started: let it finish before the app closes
            pytest.fail(f"{name}={value!r} was accepted (returned {type(result).__name__}), "
                        f"not {expected.__name__}")


def test_every_public_class_is_covered_or_listed():
    classes = {name for name in hearth.__all__ if inspect.isclass(getattr(hearth, name))
               and not issubclass(getattr(hearth, name), BaseException)}
    covered = {"App", "Auth", "User", "MultiFactorUser", "Future", "OAuthProvider", "ListenerHandle",
               "Credential", "MultiFactorSession", "MultiFactorAssertion",
               "ActionCodeSettings"}  # a value: its constructor is its one callable
    static_only = {name for name in classes if all(
        isinstance(value, (staticmethod, classmethod)) or not inspect.isfunction(value) or
        (attribute.startswith("_") and attribute != "__init__")
        for attribute, value in vars(getattr(hearth, name)).items())}
    missing = classes - covered - set(NOT_CALLED) - static_only
    assert not missing, f"public classes with no receiver in test_wrong_types.py: {sorted(missing)}"


def test_a_user_of_a_closed_app_raises_instead_of_crashing(make_app):
    app = make_app()
    user = app.auth.sign_in_anonymously().result(timeout=10).user
    app.close()
    for method, arguments in (("get_token", {}), ("reload", {}), ("update_profile", {"display_name": "x"}),
                              ("update_password", {"password": "pw-123456"}),
                              ("update_email", {"email": "moved@example.com"}), ("delete", {}),
                              ("unlink", {"provider_id": "password"}),
                              ("link_with_credential",
                               {"credential": hearth.EmailAuthProvider.credential("c@example.com", "pw-123456")})):
        try:
            future = getattr(user, method)(**arguments)
        except (ValueError, hearth.AuthError):
            continue
        error = future.exception(timeout=10)
        assert isinstance(error, hearth.AuthError), f"{method} on a closed app's user: {error!r}"
