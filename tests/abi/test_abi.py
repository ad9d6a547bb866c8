"""libhearth's ABI: what it exports, how it identifies itself, and how its options structs age.

Each test reads as a promise to hosts that link libhearth.so and include hearth.h / hearth.hpp."""
import os
import re
import shutil
import subprocess

import pytest

from abi_support import HEADER, INCLUDE, ROOT, c_test_names, header_macro, run


def declared_functions() -> set[str]:
    """Every function hearth.h declares, as the C compiler sees them (gcc's -aux-info lists each
    prototype with the file that declares it, whatever the header's formatting)."""
    if shutil.which("gcc") is None:
        pytest.fail("gcc is needed to list the header's declarations")
    probe = subprocess.run(["gcc", "-std=c11", f"-I{INCLUDE}", "-fsyntax-only", "-aux-info", "/dev/stdout",
                            "-x", "c", "-"], input="#include <hearth.h>\n", capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    names = set()
    for line in probe.stdout.splitlines():
        if f"{HEADER}:" not in line:
            continue
        match = re.search(r"\b(\w+) \(", line.split("*/", 1)[1])
        assert match, f"unexpected -aux-info line: {line}"
        names.add(match.group(1))
    return names


def dynamic_symbols(library) -> dict[str, str]:
    """name -> nm type letter of every symbol in the library's dynamic symbol table it defines."""
    result = run(["nm", "-D", "--defined-only", library])
    assert result.returncode == 0, result.stderr
    symbols = {}
    for line in result.stdout.splitlines():
        fields = line.split()
        assert len(fields) == 3, f"unexpected nm line: {line}"
        symbols[fields[2].split("@", 1)[0]] = fields[1]
    return symbols


def dynamic_section(library) -> str:
    result = run(["readelf", "-d", library])
    assert result.returncode == 0, result.stderr
    return result.stdout


# ------------------------------------------------------------------------------------------------
# Exports
# ------------------------------------------------------------------------------------------------

def test_the_library_exports_exactly_the_functions_the_header_declares(library):
    declared = declared_functions()
    exported = set(dynamic_symbols(library))
    assert "hearth_version" in declared and len(declared) > 100, "the header's function list looks wrong"
    assert not (exported - declared), f"exported but not declared in hearth.h: {sorted(exported - declared)}"
    assert not (declared - exported), f"declared in hearth.h but not exported: {sorted(declared - exported)}"


def test_every_export_is_a_function_named_hearth_something(library):
    symbols = dynamic_symbols(library)
    assert symbols
    assert {name: kind for name, kind in symbols.items() if kind != "T" or not name.startswith("hearth_")} == {}


def test_the_library_carries_the_soname_of_its_major_version(library):
    expected = f"libhearth.so.{header_macro('HEARTH_VERSION_MAJOR')}"
    assert re.findall(r"\(SONAME\)\s+Library soname: \[(.*)\]", dynamic_section(library)) == [expected]


# ------------------------------------------------------------------------------------------------
# Signatures: the Swift functions behind the exports take and return what the header declares
# (@_cdecl does not check that; a mismatch is undefined behaviour in the host)
# ------------------------------------------------------------------------------------------------

# Size classes of the scalar types either side spells; every pointer (handles are void * to Swift,
# callbacks are function pointers) is "pointer".
SCALARS = {
    "void": "void", "_Bool": "8", "bool": "8", "char": "8", "signed char": "8", "unsigned char": "8",
    "uint16_t": "16", "int16_t": "16", "short": "16", "unsigned short": "16",
    "int": "32", "unsigned int": "32", "int32_t": "32", "uint32_t": "32",
    "int64_t": "64", "uint64_t": "64", "long": "64", "unsigned long": "64", "size_t": "64", "ptrdiff_t": "64",
    "NSInteger": "64", "NSUInteger": "64",  # how swiftc spells Swift's Int and UInt
    "float": "f32", "double": "f64",
}
QUALIFIERS = {"const", "volatile", "struct", "enum", "_Nullable", "_Nonnull", "_Null_unspecified", "extern",
              "SWIFT_EXTERN"}


def split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    return parts + [current] if current.strip() else parts


def type_class(declaration: str, named: bool) -> str:
    """What a parameter or return type is at the machine level; `named`: the text ends with a name."""
    if "(" in declaration or "*" in declaration or "[" in declaration:
        return "pointer"
    words = [w for w in declaration.split() if w not in QUALIFIERS]
    if named and len(words) > 1:
        words = words[:-1]
    spelled = " ".join(words)
    if spelled.endswith("_cb"):  # hearth_*_cb: function pointer typedefs
        return "pointer"
    if spelled.startswith("hearth_") and spelled not in SCALARS:
        return "32"  # enums passed by value
    assert spelled in SCALARS, f"unknown C type {spelled!r} in {declaration!r}"
    return SCALARS[spelled]


def signature(return_type: str, parameters: str, named: bool) -> tuple:
    params = [p.strip() for p in split_top_level(parameters)]
    if params in ([], ["void"]):
        params = []
    return (type_class(return_type, False), tuple(type_class(p, named) for p in params))


def header_signatures() -> dict[str, tuple]:
    probe = subprocess.run(["gcc", "-std=c11", f"-I{INCLUDE}", "-fsyntax-only", "-aux-info", "/dev/stdout",
                            "-x", "c", "-"], input="#include <hearth.h>\n", capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    found = {}
    for line in probe.stdout.splitlines():
        if f"{HEADER}:" not in line:
            continue
        match = re.fullmatch(r"extern (.*?)\b(hearth_\w+) \((.*)\);", line.split("*/", 1)[1].strip())
        assert match, f"unexpected -aux-info line: {line}"
        found[match.group(2)] = signature(match.group(1), match.group(3), named=False)
    return found


def swift_signatures(library, tmp_path) -> dict[str, tuple]:
    """The C view of Sources/Hearth's @_cdecl functions, as swiftc prints it (-emit-clang-header-path),
    type-checked against the modules of the build that produced `library`."""
    swiftc = shutil.which(os.environ.get("SWIFTC", "swiftc"))
    if swiftc is None:
        pytest.fail("swiftc is needed to read the Swift side of the ABI")
    build = library.parent  # <scratch>/<triple>/release
    # The C targets' module maps, which SwiftPM generates into the build.
    c_target_maps = [build / f"{target}.build" / "module.modulemap" for target in ("CHearthShims", "CHearthWire", "CHearthCrypto")]
    layers = [build / "Modules" / f"{target}.swiftmodule" for target in ("HearthTransport", "HearthBackend", "HearthAuth")]
    assert all(m.exists() for m in layers + c_target_maps), \
        f"{build} lacks the modules of the build that produced the library"
    sources = sorted((ROOT / "Sources" / "Hearth").glob("*.swift"))
    generated = tmp_path / "Hearth-Swift.h"
    package = ROOT.name.lower().replace("-", "_")  # SwiftPM's identity of the root package
    result = run([swiftc, "-typecheck", "-parse-as-library", "-module-name", "Hearth", "-package-name", package,
                  *sources, "-I", build / "Modules",
                  *[arg for m in ("CHearthHeader", "CLibUV", "CCurl")
                    for arg in ("-Xcc", f"-fmodule-map-file={ROOT / 'Sources' / m / 'module.modulemap'}")],
                  *[arg for m in c_target_maps for arg in ("-Xcc", f"-fmodule-map-file={m}")],
                  "-emit-clang-header-path", generated], timeout=300)
    assert result.returncode == 0, result.stderr
    found = {}
    for match in re.finditer(r"SWIFT_EXTERN (.*?)\b(hearth_\w+)\((.*?)\) SWIFT_NOEXCEPT", generated.read_text()):
        found[match.group(2)] = signature(match.group(1), match.group(3), named=True)
    return found


def test_every_function_takes_and_returns_what_the_header_declares(library, tmp_path):
    declared = header_signatures()
    implemented = swift_signatures(library, tmp_path)
    assert set(implemented) == set(declared), (sorted(set(implemented) ^ set(declared)))
    mismatches = {name: {"hearth.h": declared[name], "Swift": implemented[name]}
                  for name in declared if declared[name] != implemented[name]}
    assert mismatches == {}


# ------------------------------------------------------------------------------------------------
# Version
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("test", c_test_names("version"))
def test_version(build_c, test):
    result = run([build_c("version"), test])
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------------------------------------
# The headers compile cleanly wherever a host may include them
# ------------------------------------------------------------------------------------------------

STRICT = ["-Wall", "-Wextra", "-Werror", "-pedantic"]
# Further warnings engine codebases commonly turn into errors; the public headers must not trip them.
STRICTER_C = ["-Wstrict-prototypes", "-Wmissing-prototypes", "-Wshadow", "-Wcast-qual", "-Wconversion"]
STRICTER_CXX = ["-Wold-style-cast", "-Wconversion", "-Wsign-conversion", "-Wzero-as-null-pointer-constant",
                "-Wnon-virtual-dtor"]

C_SOURCE = """#include <hearth.h>
int main(void) { return hearth_version() == 0; }
"""
CXX_HEADER_ONLY_SOURCE = """#include <hearth.h>
int main() { return hearth_version() == nullptr; }
"""
CXX_WRAPPER_SOURCE = """#include <hearth.hpp>
int main() {
  hearth::AppOptions options;
  options.set_api_key("key");
  return hearth_version() == nullptr || options.api_key() == nullptr;
}
"""

# The Firebase compatibility headers (include/compat), every one of them, with Hearth's bridge.
CXX_COMPAT_SOURCE = """#include "firebase/app.h"
#include "firebase/auth.h"
#include "firebase/auth/credential.h"
#include "firebase/auth/types.h"
#include "firebase/auth/user.h"
#include "firebase/future.h"
#include "firebase/log.h"
#include "firebase/util.h"
#include "firebase/variant.h"
#include "hearth_compat.h"
int main() {
  firebase::AppOptions options;
  options.set_api_key("key");
  return firebase::Variant(options.api_key()).is_string() ? 0 : 1;
}
"""

HEADER_BUILDS = [(cc, std, "c", C_SOURCE, STRICTER_C) for cc in ("gcc", "clang") for std in ("c99", "c11")] + [
    (cxx, "c++17", "c++", source, STRICTER_CXX)
    for cxx in ("g++", "clang++")
    for source in (CXX_HEADER_ONLY_SOURCE, CXX_WRAPPER_SOURCE, CXX_COMPAT_SOURCE)
]


def header_build_id(build):
    kind = "compat" if "firebase/" in build[3] else "hpp" if "hpp" in build[3] else "h"
    return f"{build[0]}-{build[1]}-{kind}"


@pytest.mark.parametrize("compiler,std,language,source,stricter", HEADER_BUILDS,
                         ids=[header_build_id(b) for b in HEADER_BUILDS])
def test_the_headers_compile_cleanly_with_strict_warnings(tmp_path, compiler, std, language, source, stricter):
    if shutil.which(compiler) is None:
        pytest.fail(f"{compiler} is not installed")
    result = run([compiler, f"-std={std}", *STRICT, *stricter, f"-I{INCLUDE}", f"-I{INCLUDE}/compat", "-x", language,
                  "-c", "-", "-o", tmp_path / "probe.o"], input=source)
    assert result.returncode == 0, result.stderr


# ------------------------------------------------------------------------------------------------
# Options structs versioned by struct_size
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("test", c_test_names("options_struct_size"))
def test_options_struct_size(build_c, tmp_path, test):
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        pytest.fail("run under scripts/with-emulator (FIREBASE_AUTH_EMULATOR_HOST is not set)")
    environment = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    result = run([build_c("options_struct_size"), test], env=environment, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------------------------------------
# The export macro: right for building and for using a DLL on Windows, and for symbol visibility on
# ELF / Mach-O. Only Linux builds here, so the Windows branches are checked as the preprocessor sees
# them with _WIN32 defined (what MSVC, MinGW and clang-cl define).
# ------------------------------------------------------------------------------------------------

def preprocessed_declaration(defines: list[str], function: str = "hearth_app_create") -> str:
    result = run(["gcc", "-E", "-P", *[f"-D{d}" for d in defines], f"-I{INCLUDE}", "-x", "c", HEADER])
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    match = re.search(r"([^;{}]*\b" + function + r"\s*\([^;]*;)", text)
    assert match, f"{function} is not declared with {defines}"
    return match.group(1).strip()


@pytest.mark.parametrize("defines,expected", [
    (["_WIN32"], "__declspec(dllimport)"),                                  # a host using hearth.dll
    (["_WIN32", "HEARTH_BUILDING_DLL"], "__declspec(dllexport)"),            # building hearth.dll
    (["__CYGWIN__", "HEARTH_BUILDING_DLL"], "__declspec(dllexport)"),
    (["_WIN32", "HEARTH_STATIC"], None),                                     # a static hearth.lib
    (["_WIN32", "HEARTH_STATIC", "HEARTH_BUILDING_DLL"], None),
    ([], '__attribute__((visibility("default")))'),                         # ELF / Mach-O
], ids=["windows-host", "windows-dll-build", "cygwin-dll-build", "windows-static", "windows-static-build", "elf"])
def test_the_export_macro_marks_every_declaration_for_its_platform(defines, expected):
    for function in ("hearth_app_create", "hearth_version", "hearth_future_release", "hearth_auth_last_result"):
        declaration = preprocessed_declaration(defines, function)
        if expected is None:
            assert "__declspec" not in declaration and "visibility" not in declaration, declaration
        else:
            assert declaration.startswith(expected), declaration


def test_functions_stay_exported_from_a_library_built_with_hidden_visibility(tmp_path):
    """A host that embeds Hearth in its own shared object with -fvisibility=hidden (engines often do)
    still exports the hearth_* functions, because HEARTH_API asks for default visibility."""
    source = tmp_path / "embed.c"
    source.write_text('#include <hearth.h>\n'
                      'const char *hearth_version(void) { return "embedded"; }\n'
                      'int internal_helper(void) { return 1; }\n')
    library = tmp_path / "libembed.so"
    result = run(["gcc", "-shared", "-fPIC", "-fvisibility=hidden", f"-I{INCLUDE}", source, "-o", library])
    assert result.returncode == 0, result.stderr
    exported = dynamic_symbols(library)
    assert "hearth_version" in exported
    assert "internal_helper" not in exported


# ------------------------------------------------------------------------------------------------
# One version, written in hearth.h
# ------------------------------------------------------------------------------------------------

def header_version() -> tuple[str, int]:
    major, minor, patch = (int(header_macro(f"HEARTH_VERSION_{part}")) for part in ("MAJOR", "MINOR", "PATCH"))
    return f"{major}.{minor}.{patch}", major * 10000 + minor * 100 + patch


def test_the_library_reports_the_headers_version_as_text_and_number(library, tmp_path):
    text, number = header_version()
    probe = tmp_path / "probe.c"
    probe.write_text('#include <hearth.h>\n#include <stdio.h>\n'
                     'int main(void) { printf("%s %d %d\\n", hearth_version(), hearth_version_number(), '
                     'HEARTH_VERSION_NUMBER); return 0; }\n')
    binary = tmp_path / "probe"
    result = run(["gcc", f"-I{INCLUDE}", probe, "-o", binary, f"-L{library.parent}", "-lhearth",
                  f"-Wl,-rpath,{library.parent}"])
    assert result.returncode == 0, result.stderr
    output = run([binary])
    assert output.returncode == 0, output.stderr
    assert output.stdout.split() == [text, str(number), str(number)]


def test_every_other_copy_of_the_version_agrees_with_the_header():
    """hearth.h's numbers are the source. Swift reads them (HearthVersion, the emulator's export
    metadata), the Makefile and scripts/install.sh read them; the Python package must repeat them in
    pyproject.toml and __version__ (pip reads static metadata), and the benchmark's raw-libcurl client
    sends the same X-Client-Version as Hearth: those copies are checked here."""
    text, _ = header_version()
    pyproject = (ROOT / "bindings" / "python" / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"$', pyproject, re.M).group(1) == text
    init = (ROOT / "bindings" / "python" / "hearth" / "__init__.py").read_text()
    assert re.search(r'^__version__ = "([^"]+)"$', init, re.M).group(1) == text
    for client in ("raw_curl.c", "pybench.py"):
        copies = re.findall(r"Hearth/(\d+\.\d+\.\d+)", (ROOT / "bench" / "clients" / client).read_text())
        assert copies and set(copies) == {text}, (client, copies)
    # No Swift source spells a version of its own.
    version = re.compile(r'"[^"\n]*(?<![\d.])\d+\.\d+\.\d+(?![\d.])[^"\n]*"')
    literals = {str(path.relative_to(ROOT)): version.findall(path.read_text())
                for path in (ROOT / "Sources").rglob("*.swift")}
    assert {path: found for path, found in literals.items() if found} == {}
