"""hearth.App: configuration, persistence, routing, network failures, closing, argument checks."""

from __future__ import annotations

import gc
import logging
import os
import queue
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

import hearth
from hearth_testing import API_KEY, PROJECT, TIMEOUT, Emulator, RecordingProxy, unique_email, wait_until

PASSWORD = "correct-horse-1"


class DictStorage:
    """Host session storage backed by a dict; records which thread each call ran on."""

    def __init__(self, initial: Optional[Dict[str, bytes]] = None) -> None:
        self.data: Dict[str, bytes] = dict(initial or {})
        self.calls: List[Tuple[str, str, int]] = []
        self._lock = threading.Lock()

    def load(self, key: str) -> Optional[bytes]:
        with self._lock:
            self.calls.append(("load", key, threading.get_ident()))
            return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        with self._lock:
            self.calls.append(("save", key, threading.get_ident()))
            self.data[key] = data

    def erase(self, key: str) -> None:
        with self._lock:
            self.calls.append(("erase", key, threading.get_ident()))
            self.data.pop(key, None)

    def kinds(self) -> List[str]:
        with self._lock:
            return [kind for kind, _, _ in self.calls]


class TestApp:
    def test_an_app_has_its_name_and_closes_once(self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app(app_name="named-app")

        assert app.name == "named-app"
        assert app.closed is False
        app.close()
        app.close()
        assert app.closed is True
        assert "closed" in repr(app)

    def test_the_default_name_is_default(self) -> None:
        app = hearth.App(api_key=API_KEY, persistence="none")
        try:
            assert app.name == "[DEFAULT]"
        finally:
            app.close()

    def test_a_with_block_closes_the_app(self) -> None:
        with hearth.App(api_key=API_KEY, project_id=PROJECT, persistence="none") as app:
            app.auth.sign_in_anonymously().result(TIMEOUT)
        assert app.closed

    def test_a_closed_app_refuses_new_operations(self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        auth = app.auth
        app.close()

        with pytest.raises(hearth.AppDestroyedError):
            auth.sign_in_anonymously()
        with pytest.raises(hearth.AppDestroyedError):
            _ = auth.current_user
        with pytest.raises(hearth.AppDestroyedError):
            auth.add_auth_state_listener(lambda _user: None)
        with pytest.raises(hearth.AppDestroyedError):
            _ = app.auth
        with pytest.raises(hearth.AppDestroyedError):
            app.post(lambda: None)
        assert app.is_loop_thread() is False

    def test_snapshots_and_futures_outlive_their_app(self, make_app: Callable[..., hearth.App]) -> None:
        app = make_app()
        email = unique_email()
        future = app.auth.create_user_with_email_and_password(email, PASSWORD)
        user = future.result(TIMEOUT).user
        app.close()

        assert user.email == email
        assert future.result(0).user.uid == user.uid
        with pytest.raises(hearth.AppDestroyedError):
            user.get_token().result(TIMEOUT)

    def test_post_runs_a_function_on_the_loop_thread(self, app: hearth.App) -> None:
        ran: "queue.Queue[Tuple[int, bool]]" = queue.Queue()

        app.post(lambda: ran.put((threading.get_ident(), app.is_loop_thread())))

        thread, on_loop = ran.get(timeout=TIMEOUT)
        assert thread != threading.get_ident()
        assert on_loop is True

    def test_the_native_library_version_matches_the_package(self) -> None:
        assert hearth.library_version() == hearth.__version__
        assert os.path.isfile(hearth.library_path())


class TestLifetime:
    def test_an_unreferenced_app_is_closed_by_garbage_collection(self) -> None:
        app = hearth.App(api_key=API_KEY, persistence="none")
        core = app._core

        del app
        gc.collect()

        assert core.closed

    def test_objects_obtained_from_an_app_keep_it_open(self) -> None:
        auth = hearth.App(api_key=API_KEY, project_id=PROJECT, persistence="none").auth
        gc.collect()

        user = auth.sign_in_anonymously().result(TIMEOUT).user

        assert not auth.app.closed
        assert user.get_token().result(TIMEOUT)
        auth.app.close()

    def test_an_app_left_open_at_exit_is_closed_and_its_pending_callbacks_settle(self, silent_port: int) -> None:
        script = textwrap.dedent(f"""
            import hearth
            app = hearth.App(api_key="k", persistence="none")
            app.auth.use_emulator("127.0.0.1", {silent_port})
            app.auth.add_auth_state_listener(lambda user: None)
            future = app.auth.sign_in_anonymously()
            future.add_done_callback(lambda f: print("settled", type(f.exception()).__name__, flush=True))
            print("exiting", flush=True)
        """)

        completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                                   env=dict(os.environ))

        assert completed.returncode == 0, completed.stderr
        assert completed.stdout.split() == ["exiting", "settled", "CancelledError"]
        assert "Traceback" not in completed.stderr


class TestPersistence:
    def test_a_file_session_is_seen_by_the_next_app_with_the_same_name_and_key(
            self, make_app: Callable[..., hearth.App], tmp_path: Path) -> None:
        first = make_app(app_name="persisted", persistence="file", persistence_dir=tmp_path)
        uid = first.auth.create_user_with_email_and_password(unique_email(), PASSWORD).result(TIMEOUT).user.uid
        first.close()

        second = make_app(app_name="persisted", persistence="file", persistence_dir=tmp_path)

        current = second.auth.current_user
        assert current is not None and current.uid == uid
        token = current.get_token().result(TIMEOUT)
        assert token

    def test_the_session_file_is_private_to_the_owner(self, make_app: Callable[..., hearth.App], tmp_path: Path) -> None:
        app = make_app(app_name="private", persistence="file", persistence_dir=tmp_path)
        app.auth.sign_in_anonymously().result(TIMEOUT)

        def session_files() -> List[Path]:
            return [path for path in tmp_path.rglob("*") if path.is_file()]

        wait_until(lambda: bool(session_files()), what="the session file")
        for path in session_files():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path

    def test_signing_out_ends_the_file_session(self, make_app: Callable[..., hearth.App], tmp_path: Path) -> None:
        first = make_app(app_name="signed-out", persistence="file", persistence_dir=tmp_path)
        first.auth.sign_in_anonymously().result(TIMEOUT)
        first.auth.sign_out()
        first.close()

        second = make_app(app_name="signed-out", persistence="file", persistence_dir=tmp_path)

        assert second.auth.current_user is None

    def test_a_file_session_belongs_to_its_app_name(self, make_app: Callable[..., hearth.App], tmp_path: Path) -> None:
        first = make_app(app_name="one", persistence="file", persistence_dir=tmp_path)
        first.auth.sign_in_anonymously().result(TIMEOUT)
        first.close()

        other = make_app(app_name="two", persistence="file", persistence_dir=tmp_path)

        assert other.auth.current_user is None

    def test_with_no_persistence_the_next_app_starts_signed_out(
            self, make_app: Callable[..., hearth.App], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        monkeypatch.setenv("HOME", str(tmp_path))
        first = make_app(app_name="ephemeral", persistence="none")
        first.auth.sign_in_anonymously().result(TIMEOUT)
        first.close()

        second = make_app(app_name="ephemeral", persistence="none")

        assert second.auth.current_user is None
        assert [p for p in tmp_path.rglob("*") if p.is_file()] == []

    def test_a_storage_object_receives_the_session_and_restores_it(self, make_app: Callable[..., hearth.App]) -> None:
        storage = DictStorage()
        first = make_app(app_name="hosted", persistence=storage)
        assert storage.kinds() == ["load"]
        assert storage.calls[0][2] == threading.get_ident()  # load runs in the creating thread

        uid = first.auth.sign_in_anonymously().result(TIMEOUT).user.uid
        wait_until(lambda: "save" in storage.kinds(), what="the session to be saved")
        save = next(call for call in storage.calls if call[0] == "save")
        assert save[2] != threading.get_ident()  # save runs on the loop thread
        key = save[1]
        assert key == storage.calls[0][1]
        assert storage.data[key]
        first.close()

        second = make_app(app_name="hosted", persistence=storage)

        current = second.auth.current_user
        assert current is not None and current.uid == uid
        second.auth.sign_out()
        wait_until(lambda: "erase" in storage.kinds(), what="the session to be erased")
        assert key not in storage.data

    def test_a_failing_storage_load_starts_signed_out(self, make_app: Callable[..., hearth.App],
                                                    caplog: pytest.LogCaptureFixture) -> None:
        class BrokenStorage(DictStorage):
            def load(self, key: str) -> Optional[bytes]:
                raise OSError("disk on fire")

        app = make_app(app_name="broken", persistence=BrokenStorage())

        assert app.auth.current_user is None
        assert any("disk on fire" in str(record.exc_info[1]) for record in caplog.records if record.exc_info)

    def test_a_failing_storage_save_is_logged_not_raised_into_hearth(
            self, make_app: Callable[..., hearth.App], caplog: pytest.LogCaptureFixture) -> None:
        caplog.set_level(logging.ERROR, logger="hearth")

        class ReadOnlyStorage(DictStorage):
            def save(self, key: str, data: bytes) -> None:
                raise PermissionError("read-only save slot")

        app = make_app(app_name="read-only", persistence=ReadOnlyStorage())
        future = app.auth.sign_in_anonymously()
        future.exception(TIMEOUT)

        wait_until(lambda: any(record.exc_info and "read-only save slot" in str(record.exc_info[1])
                               for record in caplog.records), what="the save failure to be logged")
        assert all(record.name == "hearth" for record in caplog.records if record.exc_info)

    def test_garbage_from_storage_reads_as_signed_out(self, make_app: Callable[..., hearth.App]) -> None:
        storage = DictStorage()
        make_app(app_name="garbage", persistence=storage).close()
        key = storage.calls[0][1]
        storage.data[key] = b"\xff\xfe not json"

        app = make_app(app_name="garbage", persistence=storage)

        assert app.auth.current_user is None


class TestRouting:
    def test_the_emulator_host_variable_routes_requests_to_the_emulator(
            self, auth: hearth.Auth, emulator: Emulator) -> None:
        assert os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")

        uid = auth.sign_in_anonymously().result(TIMEOUT).user.uid

        assert emulator.lookup(uid) is not None

    def test_use_emulator_routes_every_endpoint_including_token_refresh(
            self, auth: hearth.Auth, recording_proxy: RecordingProxy) -> None:
        auth.use_emulator("127.0.0.1", recording_proxy.port)

        user = auth.sign_in_anonymously().result(TIMEOUT).user
        user.get_token(force_refresh=True).result(TIMEOUT)

        paths = recording_proxy.paths()
        assert any(p.startswith("/identitytoolkit.googleapis.com/v1/accounts:signUp") for p in paths), paths
        assert any(p.startswith("/securetoken.googleapis.com/v1/token") for p in paths), paths
        assert all(f"key={API_KEY}" in p for p in paths)

    def test_use_emulator_overrides_the_environment(
            self, make_app: Callable[..., hearth.App], emulator: Emulator, closed_port: int,
            monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{closed_port}")
        app = make_app()
        with pytest.raises(hearth.NetworkRequestFailedError):
            app.auth.sign_in_anonymously().result(TIMEOUT)  # proves the variable was used

        app.auth.use_emulator(emulator.host, emulator.port)
        uid = app.auth.sign_in_anonymously().result(TIMEOUT).user.uid

        assert emulator.lookup(uid) is not None

    def test_the_language_code_round_trips_and_is_sent_as_x_firebase_locale(
            self, auth: hearth.Auth, recording_proxy: RecordingProxy) -> None:
        auth.use_emulator("127.0.0.1", recording_proxy.port)
        email = unique_email()
        auth.create_user_with_email_and_password(email, PASSWORD).result(TIMEOUT)
        assert auth.language_code is None

        auth.language_code = "fr"
        assert auth.language_code == "fr"
        auth.send_password_reset_email(email).result(TIMEOUT)
        auth.language_code = None
        assert auth.language_code is None
        auth.send_password_reset_email(email).result(TIMEOUT)
        auth.language_code = "de"
        auth.language_code = ""
        assert auth.language_code is None

        sent = recording_proxy.matching("accounts:sendOobCode")
        assert [request.header("X-Firebase-Locale") for request in sent] == ["fr", None]
        assert recording_proxy.matching("accounts:signUp")[0].header("X-Firebase-Locale") is None

    def test_the_app_id_is_sent_as_x_firebase_gmpid(
            self, make_app: Callable[..., hearth.App], recording_proxy: RecordingProxy) -> None:
        app = make_app(app_id="1:1234567890:web:abcdef")
        app.auth.use_emulator("127.0.0.1", recording_proxy.port)

        app.auth.sign_in_anonymously().result(TIMEOUT)

        request = recording_proxy.matching("accounts:signUp")[0]
        assert request.header("X-Firebase-GMPID") == "1:1234567890:web:abcdef"
        assert (request.header("X-Client-Version") or "").startswith("Hearth/")


class TestNetworkFailures:
    def test_a_refused_connection_fails_with_network_request_failed(
            self, auth: hearth.Auth, closed_port: int) -> None:
        auth.use_emulator("127.0.0.1", closed_port)

        with pytest.raises(hearth.NetworkRequestFailedError) as raised:
            auth.sign_in_anonymously().result(TIMEOUT)

        assert raised.value.code == hearth.ErrorCode.NETWORK_REQUEST_FAILED
        assert auth.current_user is None

    def test_a_silent_server_fails_after_the_request_timeout(
            self, make_app: Callable[..., hearth.App], silent_port: int) -> None:
        app = make_app(request_timeout=0.5)
        app.auth.use_emulator("127.0.0.1", silent_port)
        started = time.monotonic()

        with pytest.raises(hearth.NetworkRequestFailedError):
            app.auth.sign_in_anonymously().result(TIMEOUT)

        assert 0.4 <= time.monotonic() - started < 5


class TestArgumentChecks:
    def test_app_options_of_the_wrong_type_are_type_errors(self) -> None:
        with pytest.raises(TypeError):
            hearth.App(api_key=None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.App(api_key=API_KEY, project_id=42)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.App(api_key=API_KEY, persistence=object())  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.App(api_key=API_KEY, request_timeout="30")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            hearth.App(API_KEY)  # type: ignore[misc]

    def test_app_options_with_unusable_values_are_value_errors(self) -> None:
        with pytest.raises(ValueError):
            hearth.App(api_key="")
        with pytest.raises(ValueError):
            hearth.App(api_key="key\x00tail")
        with pytest.raises(ValueError):
            hearth.App(api_key=API_KEY, app_name="\ud800")
        with pytest.raises(ValueError):
            hearth.App(api_key=API_KEY, persistence="cloud")
        with pytest.raises(ValueError):
            hearth.App(api_key=API_KEY, request_timeout=0)
        with pytest.raises(ValueError):
            hearth.App(api_key=API_KEY, request_timeout=float("nan"))
        with pytest.raises(ValueError):
            hearth.App(api_key=API_KEY, persistence="none", persistence_dir="/tmp")

    def test_operation_arguments_of_the_wrong_type_are_type_errors(self, auth: hearth.Auth) -> None:
        with pytest.raises(TypeError):
            auth.sign_in_with_email_and_password(123, PASSWORD)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.create_user_with_email_and_password(unique_email(), None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.sign_in_with_custom_token(b'{"uid":"x"}')  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.sign_in_with_credential("password")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.use_emulator("127.0.0.1", "9099")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.use_emulator("127.0.0.1", True)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            auth.language_code = 7  # type: ignore[assignment]
        with pytest.raises(TypeError):
            hearth.EmailAuthProvider.credential("a@example.com", 1234)  # type: ignore[arg-type]

    def test_strings_that_cannot_reach_c_are_value_errors(self, auth: hearth.Auth) -> None:
        with pytest.raises(ValueError, match="NUL"):
            auth.sign_in_with_email_and_password("a\x00b@example.com", PASSWORD)
        with pytest.raises(ValueError, match="UTF-8"):
            auth.sign_in_with_email_and_password("\udc80@example.com", PASSWORD)
        with pytest.raises(ValueError):
            auth.send_password_reset_email("x\x00")
        with pytest.raises(ValueError):
            hearth.EmailAuthProvider.credential("a@example.com", "pass\ud800word")
        with pytest.raises(ValueError):
            auth.use_emulator("127.0.0.1", 70000)
        with pytest.raises(ValueError):
            auth.use_emulator("127.0.0.1", 0)
        with pytest.raises(ValueError):
            auth.language_code = "f\x00r"

    def test_user_operation_arguments_are_checked(self, auth: hearth.Auth) -> None:
        user = auth.sign_in_anonymously().result(TIMEOUT).user
        with pytest.raises(TypeError):
            user.get_token(force_refresh="yes")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            user.update_profile(display_name=42)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            user.update_profile(photo_url="http://x/\x00")
        with pytest.raises(TypeError):
            user.update_password(None)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            user.send_email_verification_before_updating_email("\ud800@example.com")

    def test_credentials_and_providers_are_not_constructed_directly(self) -> None:
        with pytest.raises(TypeError):
            hearth.Credential()
        with pytest.raises(TypeError):
            hearth.EmailAuthProvider()
