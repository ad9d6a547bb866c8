"""The binding itself: it declares the whole C header, maps every error code, loads the library (or
says clearly why not) and documents itself."""

from __future__ import annotations

import ctypes
import inspect
import os
import pydoc
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Dict, List

import hearth
from hearth import _lib

HEADER = Path(__file__).resolve().parents[3] / "include" / "hearth.h"
PACKAGE_DIR = Path(hearth.__file__).resolve().parent  # the imported package
SOURCE_DIR = Path(__file__).resolve().parents[1]  # bindings/python: what `pip install` builds


def header_functions() -> Dict[str, int]:
    """Every exported function of hearth.h with its parameter count."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    functions: Dict[str, int] = {}
    for match in re.finditer(r"HEARTH_API\s+[^;(]*?\b(hearth_\w+)\s*\(", text, flags=re.S):
        depth, commas, index = 1, 0, match.end()
        while depth:  # parameters may hold function pointer types: count top-level commas only
            char = text[index]
            depth += {"(": 1, ")": -1}.get(char, 0)
            commas += char == "," and depth == 1
            index += 1
        parameters = text[match.end():index - 1].strip()
        functions[match.group(1)] = 0 if parameters in ("", "void") else commas + 1
    return functions


def header_error_codes() -> Dict[str, int]:
    enum = re.search(r"typedef enum hearth_error \{(.*?)\} hearth_error;", HEADER.read_text(), flags=re.S)
    assert enum is not None
    return {name: int(value) for name, value in re.findall(r"HEARTH_ERROR_(\w+)\s*=\s*(-?\d+)", enum.group(1))}


class TestDeclarations:
    def test_every_function_of_the_header_is_declared_with_its_arity(self) -> None:
        functions = header_functions()
        assert len(functions) > 90

        declared = {name: len(argtypes) for name, (_, argtypes) in _lib.DECLARATIONS.items()}

        assert declared == functions

    def test_every_handle_result_is_a_pointer_not_an_int(self) -> None:
        text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
        pointer_results = set(re.findall(r"HEARTH_API\s+(?:const\s+)?\w+\s*\*\s*(hearth_\w+)\s*\(", text))
        assert pointer_results

        for name in pointer_results:
            restype = _lib.DECLARATIONS[name][0]
            assert restype in (ctypes.c_void_p, ctypes.c_char_p), f"{name} returns {restype}"

    def test_the_loaded_library_has_the_declared_signatures(self) -> None:
        for name, (restype, argtypes) in _lib.DECLARATIONS.items():
            function = getattr(_lib.lib, name)
            assert function.restype is restype, name
            assert list(function.argtypes) == list(argtypes), name

    def test_the_provider_flow_options_struct_fits_the_library(self) -> None:
        buffer = ctypes.create_string_buffer(4096)
        _lib.lib.hearth_provider_flow_options_init(buffer)
        options = _lib.ProviderFlowOptions.from_buffer(buffer)
        assert options.struct_size == ctypes.sizeof(_lib.ProviderFlowOptions)
        assert options.loopback_port == 0 and options.timeout_ms == 0 and options.use_create_auth_uri == 0
        assert options.redirect_uri is None

    def test_the_phone_options_and_listener_structs_fit_the_library(self) -> None:
        buffer = ctypes.create_string_buffer(4096)
        _lib.lib.hearth_phone_auth_options_init(buffer)
        options = _lib.PhoneAuthOptions.from_buffer(buffer)
        assert options.struct_size == ctypes.sizeof(_lib.PhoneAuthOptions)
        assert options.phone_number is None and options.timeout_ms == 0 and options.force_resending_token is None
        assert options.multi_factor_session is None and options.multi_factor_hint is None
        # hearth_phone_listener: a uint32 size, three function pointers, user_data and release, naturally
        # aligned.
        pointer = ctypes.sizeof(ctypes.c_void_p)
        assert ctypes.sizeof(_lib.PhoneListener) == pointer + 5 * pointer

    def test_the_options_struct_fits_the_library(self) -> None:
        buffer = ctypes.create_string_buffer(4096)
        _lib.lib.hearth_app_options_init(buffer)
        options = _lib.AppOptions.from_buffer(buffer)
        assert options.struct_size == ctypes.sizeof(_lib.AppOptions)
        assert options.persistence == 0  # HEARTH_PERSISTENCE_FILE by default
        assert options.request_timeout_ms in (0, 30000)


class TestErrors:
    def test_error_code_has_every_code_of_the_header(self) -> None:
        assert {code.name: int(code) for code in hearth.ErrorCode} == header_error_codes()

    def test_every_code_maps_to_an_auth_error_carrying_it(self) -> None:
        for code in hearth.ErrorCode:
            if code == hearth.ErrorCode.NONE:
                continue
            error = hearth.error_from_code(code, "detail")
            assert isinstance(error, hearth.AuthError)
            assert error.code == code and isinstance(error.code, int)
            assert error.name == code.name
            assert error.message == "detail"
            assert str(error) == f"{code.name}: detail"

    def test_the_required_conditions_have_their_own_classes(self) -> None:
        expected = {
            "INVALID_CREDENTIAL": hearth.InvalidCredentialError,
            "WRONG_PASSWORD": hearth.WrongPasswordError,
            "USER_NOT_FOUND": hearth.UserNotFoundError,
            "EMAIL_ALREADY_IN_USE": hearth.EmailAlreadyInUseError,
            "WEAK_PASSWORD": hearth.WeakPasswordError,
            "INVALID_EMAIL": hearth.InvalidEmailError,
            "USER_DISABLED": hearth.UserDisabledError,
            "NETWORK_REQUEST_FAILED": hearth.NetworkRequestFailedError,
            "TOO_MANY_REQUESTS": hearth.TooManyRequestsError,
            "REQUIRES_RECENT_LOGIN": hearth.RequiresRecentLoginError,
            "CREDENTIAL_ALREADY_IN_USE": hearth.CredentialAlreadyInUseError,
            "INVALID_CUSTOM_TOKEN": hearth.InvalidCustomTokenError,
            "NO_SIGNED_IN_USER": hearth.NoSignedInUserError,
            "CANCELLED": hearth.CancelledError,
            "INVALID_ARGUMENT": hearth.InvalidArgumentError,
            "USER_TOKEN_EXPIRED": hearth.UserTokenExpiredError,
            "INVALID_USER_TOKEN": hearth.InvalidUserTokenError,
            "OPERATION_NOT_ALLOWED": hearth.OperationNotAllowedError,
            "MISSING_EMAIL": hearth.MissingEmailError,
            "MISSING_PASSWORD": hearth.MissingPasswordError,
            "APP_DESTROYED": hearth.AppDestroyedError,
            "WOULD_DEADLOCK": hearth.WouldDeadlockError,
            "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS": hearth.AccountExistsWithDifferentCredentialsError,
            "PROVIDER_ALREADY_LINKED": hearth.ProviderAlreadyLinkedError,
            "NO_SUCH_PROVIDER": hearth.NoSuchProviderError,
            "USER_MISMATCH": hearth.UserMismatchError,
            "WEB_CONTEXT_ALREADY_PRESENTED": hearth.WebContextAlreadyPresentedError,
            "WEB_CONTEXT_CANCELLED": hearth.WebContextCancelledError,
            "INVALID_PROVIDER_ID": hearth.InvalidProviderIdError,
        }
        for name, cls in expected.items():
            code = hearth.ErrorCode[name]
            assert hearth.exception_class(code) is cls
            assert type(hearth.error_from_code(code)) is cls
            assert issubclass(cls, hearth.AuthError)

    def test_phone_and_multi_factor_conditions_have_their_own_classes(self) -> None:
        expected = {
            "INVALID_PHONE_NUMBER": hearth.InvalidPhoneNumberError,
            "MISSING_PHONE_NUMBER": hearth.MissingPhoneNumberError,
            "INVALID_VERIFICATION_CODE": hearth.InvalidVerificationCodeError,
            "INVALID_VERIFICATION_ID": hearth.InvalidVerificationIdError,
            "MISSING_VERIFICATION_CODE": hearth.MissingVerificationCodeError,
            "MISSING_VERIFICATION_ID": hearth.MissingVerificationIdError,
            "SESSION_EXPIRED": hearth.SessionExpiredError,
            "CAPTCHA_CHECK_FAILED": hearth.CaptchaCheckFailedError,
            "INVALID_APP_CREDENTIAL": hearth.InvalidAppCredentialError,
            "MISSING_APP_CREDENTIAL": hearth.MissingAppCredentialError,
            "MISSING_MULTI_FACTOR_SESSION": hearth.MissingMultiFactorSessionError,
            "MISSING_MULTI_FACTOR_INFO": hearth.MissingMultiFactorInfoError,
            "INVALID_MULTI_FACTOR_SESSION": hearth.InvalidMultiFactorSessionError,
            "MULTI_FACTOR_INFO_NOT_FOUND": hearth.MultiFactorInfoNotFoundError,
            "SECOND_FACTOR_ALREADY_ENROLLED": hearth.SecondFactorAlreadyEnrolledError,
            "MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED": hearth.MaximumSecondFactorCountExceededError,
            "UNSUPPORTED_FIRST_FACTOR": hearth.UnsupportedFirstFactorError,
            "UNVERIFIED_EMAIL": hearth.UnverifiedEmailError,
            "SECOND_FACTOR_REQUIRED": hearth.SecondFactorRequiredError,
        }
        for name, cls in expected.items():
            assert type(hearth.error_from_code(hearth.ErrorCode[name])) is cls, name
        # Malformed or missing numbers are bad input, caught like other unusable values.
        assert issubclass(hearth.InvalidPhoneNumberError, ValueError)
        assert issubclass(hearth.MissingPhoneNumberError, ValueError)

    def test_the_errors_that_name_another_account_carry_its_details(self) -> None:
        conflicts = {hearth.AccountExistsWithDifferentCredentialsError, hearth.EmailAlreadyInUseError,
                     hearth.CredentialAlreadyInUseError}
        for code in hearth.ErrorCode:
            cls = hearth.exception_class(code)
            assert issubclass(cls, hearth.AccountConflictError) is (cls in conflicts), cls
        error = hearth.error_from_code(hearth.ErrorCode.CREDENTIAL_ALREADY_IN_USE)
        assert isinstance(error, hearth.AccountConflictError)
        assert error.updated_credential is None and error.email is None  # until a future fills them in

    def test_an_error_without_detail_uses_the_generic_sentence(self) -> None:
        error = hearth.AuthError(hearth.ErrorCode.WEAK_PASSWORD)
        assert error.message
        assert error.message == hearth._native.hearth_error_message(23).decode()

    def test_an_unknown_code_keeps_its_number(self) -> None:
        error = hearth.error_from_code(4242, "odd")
        assert type(error) is hearth.AuthError
        assert error.code == 4242
        assert error.name == "UNKNOWN"

    def test_invalid_argument_is_also_a_value_error(self) -> None:
        assert issubclass(hearth.InvalidArgumentError, ValueError)


class TestLoading:
    def run_import(self, env: Dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", "import hearth"], env=env, cwd=cwd,
                              capture_output=True, text=True, timeout=60)

    def clean_env(self, pythonpath: Path) -> Dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key != "HEARTH_LIBRARY"}
        env["PYTHONPATH"] = str(pythonpath)
        return env

    def test_a_missing_library_is_an_import_error_that_says_what_to_do(self, tmp_path: Path) -> None:
        shutil.copytree(PACKAGE_DIR, tmp_path / "hearth", ignore=shutil.ignore_patterns("*.so", "__pycache__"))

        completed = self.run_import(self.clean_env(tmp_path), tmp_path)

        assert completed.returncode != 0
        assert "ImportError" in completed.stderr
        assert "HEARTH_LIBRARY" in completed.stderr
        assert "libhearth.so" in completed.stderr

    def test_a_wrong_library_path_is_an_import_error_naming_it(self, tmp_path: Path) -> None:
        env = self.clean_env(PACKAGE_DIR.parent)
        env["HEARTH_LIBRARY"] = str(tmp_path / "nope.so")

        completed = self.run_import(env, tmp_path)

        assert completed.returncode != 0
        assert "ImportError" in completed.stderr and "nope.so" in completed.stderr

    def test_a_library_next_to_the_package_is_found_without_the_variable(self, tmp_path: Path) -> None:
        shutil.copytree(PACKAGE_DIR, tmp_path / "hearth", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        shutil.copy(hearth.library_path(), tmp_path / "hearth" / "libhearth.so")
        env = self.clean_env(tmp_path)

        completed = subprocess.run(
            [sys.executable, "-c", "import hearth; print(hearth.library_path())"],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)

        assert completed.returncode == 0, completed.stderr
        assert completed.stdout.strip() == str((tmp_path / "hearth" / "libhearth.so").resolve())


def build_backend(script: str, env: Dict[str, str]) -> subprocess.CompletedProcess:
    """Runs `script` in bindings/python, where pip runs the PEP 517 hooks (hatchling's)."""
    return subprocess.run([sys.executable, "-c", script], env=env, cwd=SOURCE_DIR, capture_output=True, text=True,
                          timeout=120)


def pip_wheel(env: Dict[str, str], directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                           "--disable-pip-version-check", "--wheel-dir", str(directory), str(SOURCE_DIR)],
                          env=env, capture_output=True, text=True, timeout=300)


class TestPackaging:
    """The build hook's guards (hatch_build.py). Building, repairing and installing the real wheel is
    tests/install (make test-install), which has the self-contained library this suite does not build."""

    def test_the_wheel_refuses_a_library_that_needs_the_swift_toolchain(self, tmp_path: Path) -> None:
        # The development build links the Swift runtime dynamically (RUNPATH into the toolchain): a
        # wheel with it would import on this machine only.
        built = pip_wheel(dict(os.environ, HEARTH_WHEEL_LIBRARY=hearth.library_path()), tmp_path)
        assert built.returncode != 0
        output = built.stdout + built.stderr
        assert "is not self-contained" in output and "libswiftCore" in output
        assert list(tmp_path.glob("*.whl")) == []

    def test_a_library_path_that_is_not_a_file_is_named(self, tmp_path: Path) -> None:
        built = pip_wheel(dict(os.environ, HEARTH_WHEEL_LIBRARY=str(tmp_path / "missing.so")), tmp_path)
        assert built.returncode != 0
        assert "missing.so is not a file" in built.stdout + built.stderr
        assert list(tmp_path.glob("*.whl")) == []

    def test_there_is_no_editable_install(self, tmp_path: Path) -> None:
        built = build_backend(f"import hatchling.build as b; b.build_editable({str(tmp_path)!r})",
                              dict(os.environ))
        assert built.returncode != 0
        assert "hearth has no editable install" in built.stderr
        assert list(tmp_path.glob("*.whl")) == []

    def test_the_sdist_holds_the_package_the_build_hook_the_native_sources_and_the_metadata(self, tmp_path: Path) -> None:
        built = build_backend(f"import hatchling.build as b; print(b.build_sdist({str(tmp_path)!r}))",
                              dict(os.environ))
        assert built.returncode == 0, built.stderr
        with tarfile.open(tmp_path / built.stdout.strip()) as archive:
            names = set(archive.getnames())
            info = archive.extractfile(f"hearth-{hearth.__version__}/PKG-INFO").read().decode()
        base = f"hearth-{hearth.__version__}"
        assert {f"{base}/pyproject.toml", f"{base}/README.md", f"{base}/hatch_build.py",
                f"{base}/hearth/py.typed", f"{base}/hearth/__init__.py", f"{base}/native/Package.swift",
                f"{base}/native/include/hearth.h", f"{base}/native/Sources/Hearth/exports.map"} <= names
        assert not [name for name in names if name.endswith((".so", ".pyc"))]
        assert f"Version: {hearth.__version__}" in info and "Name: hearth" in info


class TestDocumentation:
    def test_help_shows_the_blocking_and_the_asyncio_style(self) -> None:
        text = pydoc.plain(pydoc.render_doc(hearth))
        assert "Blocking style" in text and "asyncio style" in text
        assert "hearth.App(" in text
        assert ".result(timeout=" in text and "await " in text and "asyncio.run(main())" in text

    def test_help_says_where_the_native_library_comes_from(self) -> None:
        text = pydoc.plain(pydoc.render_doc(hearth))
        for place in ("HEARTH_LIBRARY", "bundled", "libhearth.so.0"):
            assert place in text

    def test_every_public_name_and_every_public_member_has_its_own_docstring(self) -> None:
        def documented(obj: object) -> bool:
            doc = vars(obj).get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
            return bool(doc and doc.strip())

        missing: List[str] = []
        for name in hearth.__all__:
            obj = getattr(hearth, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                if not documented(obj):
                    missing.append(name)
            if not inspect.isclass(obj):
                continue
            for attribute, value in vars(obj).items():
                if attribute.startswith("_"):
                    continue
                if isinstance(value, (staticmethod, classmethod)):
                    value = value.__func__
                if (inspect.isfunction(value) or isinstance(value, property)) and not documented(value):
                    missing.append(f"{name}.{attribute}")
        assert missing == []

    def test_public_functions_and_methods_name_every_parameter_in_their_docstring(self) -> None:
        def check(qualified: str, function: object) -> None:
            for parameter in inspect.signature(function).parameters.values():  # type: ignore[arg-type]
                if parameter.name in ("self", "cls") or parameter.kind in (parameter.VAR_POSITIONAL,
                                                                           parameter.VAR_KEYWORD):
                    continue
                if parameter.name not in (inspect.getdoc(function) or ""):
                    undocumented.append(f"{qualified}({parameter.name})")

        undocumented: List[str] = []
        for name in hearth.__all__:
            obj = getattr(hearth, name)
            if inspect.isfunction(obj):
                check(name, obj)
            elif inspect.isclass(obj) and not issubclass(obj, BaseException):
                for attribute, value in vars(obj).items():
                    if isinstance(value, (staticmethod, classmethod)):
                        value = value.__func__
                    if not attribute.startswith("_") and inspect.isfunction(value):
                        check(f"{name}.{attribute}", value)
        assert undocumented == []

    def test_all_lists_every_public_name_and_only_those(self) -> None:
        public = {name for name, value in vars(hearth).items()
                  if not name.startswith("_") and not inspect.ismodule(value)}
        assert public == set(hearth.__all__)
        assert len(hearth.__all__) == len(set(hearth.__all__))

    def test_the_package_is_typed(self) -> None:
        assert (PACKAGE_DIR / "py.typed").is_file()

    def test_public_names_are_exported(self) -> None:
        missing: List[str] = [name for name in hearth.__all__ if not hasattr(hearth, name)]
        assert missing == []

    def test_keep_is_a_readable_singleton(self) -> None:
        assert repr(hearth.KEEP) == "hearth.KEEP"
        assert type(hearth.KEEP)() is hearth.KEEP

    def test_nothing_secret_appears_in_reprs(self) -> None:
        credential = hearth.EmailAuthProvider.credential("ada@example.com", "s3cret-pass")
        assert "s3cret-pass" not in repr(credential)
        assert credential.is_valid
