"""Fixtures for the hearth-emulator HTTP suite. The suite needs a running emulator
(HEARTH_EMULATOR_URL, set by scripts/with-emulator); without one every test fails."""
import pytest

from emulator_client import Emulator, emulator_url


@pytest.fixture(scope="session")
def base_url() -> str:
    return emulator_url()


@pytest.fixture()
def emu(base_url) -> Emulator:
    """A client on a wiped emulator with default settings."""
    client = Emulator(base_url)
    client.wipe()
    yield client
    client.session.close()
