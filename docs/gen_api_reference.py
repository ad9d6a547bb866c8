#!/usr/bin/env python3
"""Generates docs/api-reference.md from the comments of include/hearth.h, and checks the docs.

    python3 docs/gen_api_reference.py            # rewrite docs/api-reference.md   (make docs)
    python3 docs/gen_api_reference.py --check    # fail if it is stale, if a doc names a hearth_* /
                                                 # HEARTH_* identifier the header does not declare, or
                                                 # if a "Hearth C++" table column names something
                                                 # include/hearth.hpp lacks

The header is the manual: every declaration keeps the comment written above it, grouped under the
header's own section banners. Nothing here knows about particular functions, so new declarations
appear in the reference as soon as `make docs` runs, and `make test` fails until it has.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "hearth.h"
OUTPUT = ROOT / "docs" / "api-reference.md"
DOCS = ROOT / "docs"

# Names that docs may mention although hearth.h does not declare them: environment variables of the
# tools around the library.
NOT_IN_HEADER = {
    "HEARTH_LIBRARY",          # the Python binding: which libhearth to load
    "HEARTH_EMULATOR_URL",     # scripts/with-emulator exports it
    "HEARTH_EMULATOR_BIN",     # scripts/with-emulator: which emulator to start
    "HEARTH_PROJECT",          # scripts/with-emulator: the emulator's project id
    "HEARTH_EMULATOR_LOG",     # scripts/with-emulator: the emulator's log file
    "HEARTH_TEST_TIME_SCALE",  # the test programs: how much to scale their time limits
    "hearth_compat",           # the Firebase compatibility headers' own header (hearth_compat.h) and folder
}

BANNER = re.compile(r"^/\* -{20,}\s*$")
BANNER_END = re.compile(r"^ \* -{20,} \*/\s*$")
FUNCTION = re.compile(r"\b(hearth_[a-z0-9_]+)\s*\(")
CALLBACK_TYPE = re.compile(r"\(\s*\*\s*(hearth_[a-z0-9_]+)\s*\)")
TYPE_NAME = re.compile(r"^\}\s*(hearth_[a-z0-9_]+)\s*;|^typedef\s+struct\s+\w+\s+(hearth_[a-z0-9_]+)\s*;")


@dataclass
class Item:
    """A comment and the declarations it describes (either may be empty)."""

    prose: List[str] = field(default_factory=list)
    code: List[str] = field(default_factory=list)

    def functions(self) -> List[str]:
        names: List[str] = []
        for statement in " ".join(self.code).split(";"):
            if "HEARTH_API" in statement:
                match = FUNCTION.search(statement)
                if match:
                    names.append(match.group(1))
        return names

    def types(self) -> List[str]:
        names = []
        for line in self.code:
            for match in CALLBACK_TYPE.finditer(line):
                if line.lstrip().startswith("typedef"):
                    names.append(match.group(1))
            match = TYPE_NAME.match(line.strip())
            if match:
                names.append(match.group(1) or match.group(2))
        return names


@dataclass
class Section:
    title: str
    intro: List[str] = field(default_factory=list)
    items: List[Item] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------
# Reading the header
# ---------------------------------------------------------------------------------------------------
def comment_text(lines: List[str]) -> List[str]:
    """The text of a /* ... */ comment, without its delimiters and leading stars."""
    text = []
    for index, line in enumerate(lines):
        if index == 0:
            line = line.split("/*", 1)[1]
        if line.rstrip().endswith("*/"):
            line = line.rstrip()[:-2]
        stripped = line.rstrip()
        if index > 0:
            stripped = re.sub(r"^\s*\* ?", "", stripped, count=1) if stripped.lstrip().startswith("*") else stripped.strip()
        text.append(stripped.rstrip() if index > 0 else stripped.strip())
    while text and not text[0].strip():
        text.pop(0)
    while text and not text[-1].strip():
        text.pop()
    return text


def is_skipped(line: str) -> bool:
    """Preprocessor plumbing and the extern "C" wrapper: not part of the API."""
    stripped = line.strip()
    if stripped.startswith("#"):
        return not (stripped.startswith("#define HEARTH_") and not stripped.startswith("#define HEARTH_API")
                    and not stripped.startswith("#define HEARTH_H"))
    return stripped in ('extern "C" {', '} /* extern "C" */', "}")


def read_header(text: str) -> Tuple[List[str], List[Section]]:
    lines = text.splitlines()
    overview: List[str] = []
    sections: List[Section] = []
    i = 0
    # The file's opening comment: the contract every function follows.
    if lines and lines[0].startswith("/*"):
        end = next(n for n, line in enumerate(lines) if line.rstrip().endswith("*/"))
        overview = comment_text(lines[: end + 1])
        i = end + 1

    section = Section("Basics")
    item = Item()
    depth = 0

    def flush() -> None:
        nonlocal item
        if item.prose or item.code:
            section.items.append(item)
        item = Item()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if depth == 0 and BANNER.match(line):
            flush()
            if section.items or section.intro:
                sections.append(section)
            j = i + 1
            while not BANNER_END.match(lines[j]):
                j += 1
            body = [re.sub(r"^ \* ?", "", l).rstrip() for l in lines[i + 1:j]]
            section = Section(body[0].strip(), [l for l in body[1:]])
            while section.intro and not section.intro[0].strip():
                section.intro.pop(0)
            i = j + 1
            continue
        if depth == 0 and not stripped:
            flush()
            i += 1
            continue
        if depth == 0 and is_skipped(line):
            # The export macro's #if block: skip to its #endif.
            if stripped.startswith("#if defined(_WIN32)"):
                while not lines[i].strip().startswith("#endif"):
                    i += 1
            i += 1
            continue
        if depth == 0 and stripped.startswith("/*"):
            if item.code:
                flush()
            j = i
            while "*/" not in lines[j]:
                j += 1
            if item.prose:
                item.prose.append("")
            item.prose.extend(comment_text(lines[i:j + 1]))
            i = j + 1
            continue
        item.code.append(line.rstrip())
        code_only = re.sub(r"/\*.*?\*/", "", line)
        depth += code_only.count("{") - code_only.count("}")
        i += 1
    flush()
    sections.append(section)
    return overview, [s for s in sections if s.items or s.intro]


# ---------------------------------------------------------------------------------------------------
# Writing Markdown
# ---------------------------------------------------------------------------------------------------
CODE_WORTHY = re.compile(r"[_*]|<[\w.]|[\w.]>|\(\)$")
CALL = re.compile(r"[A-Za-z_][\w:.]*\([^()\n]*\)")


def inline(text: str) -> str:
    """Puts identifiers and other text Markdown would mangle (a_b, *x, <y>, f(a, b)) in backticks;
    text the header already quotes with backticks stays as it is."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(part if part.startswith("`") else inline_calls(part) for part in parts)


def inline_calls(text: str) -> str:
    out = []
    at = 0
    for call in CALL.finditer(text):
        out.append(inline_tokens(text[at:call.start()]))
        span = call.group(0)
        out.append(f"`{span}`" if CODE_WORTHY.search(span.replace("()", "_")) else inline_tokens(span))
        at = call.end()
    out.append(inline_tokens(text[at:]))
    return "".join(out)


def inline_tokens(text: str) -> str:
    out = []
    for token in re.split(r"(\s+)", text):
        if not token or token.isspace():
            out.append(token)
            continue
        lead = re.match(r"^[(\[\"']*", token).group(0)
        trail = re.search(r"[)\]\"'.,;:!?]*$", token[len(lead):]).group(0)
        core = token[len(lead): len(token) - len(trail)]
        if core and CODE_WORTHY.search(core) and "`" not in core:
            token = f"{lead}`{core}`{trail}"
        out.append(token)
    return "".join(out)


def prose(lines: Iterable[str]) -> List[str]:
    """Comment lines as Markdown: setext underlines become headings, lists end cleanly."""
    lines = list(lines)
    out: List[str] = []
    in_list = False
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if re.fullmatch(r"-{3,}", following.strip()) and line.strip():
            out.extend(["", f"### {line.strip()}", ""])
            in_list = False
            continue
        if re.fullmatch(r"-{3,}", line.strip()):
            continue
        is_marker = bool(re.match(r"^(- |\d+\. )", line))
        if not line.strip():
            in_list = False
            out.append("")
            continue
        if is_marker and not in_list and out and out[-1] != "":
            out.append("")
        if in_list and not is_marker and not line.startswith(" "):
            out.append("")
            in_list = False
        if is_marker:
            in_list = True
        out.append(inline(line))
    return out


def anchor(name: str) -> str:
    return f'<a id="{name}"></a>'


def render(overview: List[str], sections: List[Section]) -> str:
    out: List[str] = [
        "# Hearth C API reference",
        "",
        "<!-- Generated by docs/gen_api_reference.py from include/hearth.h: do not edit by hand. "
        "Run `make docs` after changing the header; `make test` fails while this file is stale. -->",
        "",
        f"Every declaration of `include/hearth.h` (version {version(sections)}), with the comment the "
        "header gives it, in the header's order. The C++ wrapper (`include/hearth.hpp`) and the Python "
        "binding (`bindings/python`) build on these functions; their own guides are the quick starts "
        "in this folder.",
        "",
        "## Contents",
        "",
        "- [Conventions](#conventions)",
    ]
    for section in sections:
        functions = [name for item in section.items for name in item.functions()]
        out.append(f"- [{section.title}](#{slug(section.title)})"
                   + (f": {len(functions)} function{'s' if len(functions) != 1 else ''}" if functions else ""))
    out += ["", "## Conventions", ""]
    out += prose(overview)
    for section in sections:
        out += ["", f"## {section.title}", ""]
        if section.intro:
            out += prose(section.intro) + [""]
        functions = [name for item in section.items for name in item.functions()]
        if functions:
            out.append("Functions: " + ", ".join(f"[`{name}`](#{name})" for name in functions) + ".")
            out.append("")
        for item in section.items:
            names = item.functions() + item.types()
            if names:
                out.append("".join(anchor(name) for name in names))
            if item.prose:
                out += prose(item.prose)
                out.append("")
            if item.code:
                out += ["```c"] + item.code + ["```", ""]
    total = sum(len(item.functions()) for section in sections for item in section.items)
    out += ["---", "", f"{total} functions.", ""]
    return "\n".join(line.rstrip() for line in out).replace("\n\n\n", "\n\n")


def version(sections: List[Section]) -> str:
    """MAJOR.MINOR.PATCH from the header's HEARTH_VERSION_* numbers."""
    parts = {}
    for section in sections:
        for item in section.items:
            for line in item.code:
                match = re.match(r"#define HEARTH_VERSION_(MAJOR|MINOR|PATCH) (\d+)$", line.strip())
                if match:
                    parts[match.group(1)] = match.group(2)
    if len(parts) != 3:
        return "unknown"
    return f"{parts['MAJOR']}.{parts['MINOR']}.{parts['PATCH']}"


def slug(title: str) -> str:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


# ---------------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------------
def declared_names(header_text: str) -> Set[str]:
    """Every hearth_* / HEARTH_* identifier the header declares or defines."""
    code = re.sub(r"/\*.*?\*/", " ", header_text, flags=re.S)
    return set(re.findall(r"\b(?:hearth|HEARTH)_[A-Za-z0-9_]+\b", code))


# The page that lists what changed: its tables' first column ("Before") names identifiers the header no
# longer declares, on purpose; everything else on it is checked like any page.
CHANGES = DOCS / "api-changes.md"


def check_names(header_text: str, paths: Iterable[Path]) -> List[str]:
    known = declared_names(header_text) | NOT_IN_HEADER
    problems = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if path == CHANGES and line.startswith("|"):
                line = "|" + line[1:].split("|", 1)[-1]  # drop the "Before" cell
            for name in re.findall(r"\b(?:hearth|HEARTH)_[A-Za-z0-9_]+\b", line):
                # A prefix ending in "_" (e.g. "hearth_user_*" or "HEARTH_ERROR_") names a family.
                if name.endswith("_") and any(k.startswith(name) for k in known):
                    continue
                if name not in known:
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {name} is not declared in include/hearth.h")
    return problems


def check_cpp_column(wrapper_text: str, path: Path) -> List[str]:
    """In tables with a "Hearth C++" column, every identifier quoted in that column exists in
    hearth.hpp (the porting guide must not promise C++ calls the wrapper lacks)."""
    problems = []
    column = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            column = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if "Hearth C++" in cells:
            column = cells.index("Hearth C++")
            continue
        if column is None or column >= len(cells) or set(cells[0]) <= set("-: "):
            continue
        quoted = cells[column]
        if quoted.startswith("same"):
            # "same": the Firebase name in the first column is the wrapper's name too.
            quoted = cells[0] + " " + quoted
        for span in re.findall(r"`([^`]*)`", quoted):
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span):
                if name.isupper():  # macros and environment variables: checked elsewhere or not C++
                    continue
                if len(name) > 2 and not re.search(r"\b" + re.escape(name) + r"\b", wrapper_text):
                    problems.append(f"{path.relative_to(ROOT)}:{number}: {name} is not in include/hearth.hpp")
    return problems


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write: fail if docs/api-reference.md is stale or a doc names an "
                             "identifier the header lacks")
    args = parser.parse_args(argv)

    header_text = HEADER.read_text(encoding="utf-8")
    overview, sections = read_header(header_text)
    generated = render(overview, sections)

    exported = len(re.findall(r"^HEARTH_API\b", header_text, flags=re.M))
    listed = sum(len(item.functions()) for section in sections for item in section.items)
    if exported != listed:
        print(f"gen_api_reference: the header exports {exported} functions but {listed} were found", file=sys.stderr)
        return 1

    if not args.check:
        OUTPUT.write_text(generated, encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)} ({listed} functions)")
        return 0

    problems = []
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
    if current != generated:
        diff = list(difflib.unified_diff(current.splitlines(), generated.splitlines(),
                                         "docs/api-reference.md (committed)", "generated from include/hearth.h",
                                         lineterm="", n=1))
        print("\n".join(diff[:40]), file=sys.stderr)
        problems.append("docs/api-reference.md is stale: run `make docs`")
    problems += check_names(header_text, sorted(p for p in DOCS.glob("*.md") if p != OUTPUT))
    wrapper_text = (ROOT / "include" / "hearth.hpp").read_text(encoding="utf-8")
    for path in sorted(DOCS.glob("*.md")):
        problems += check_cpp_column(wrapper_text, path)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"docs: api-reference.md is current ({listed} functions); every hearth_* name in docs/*.md "
          "exists, and every C++ name of the porting tables is in hearth.hpp")
    return 0


if __name__ == "__main__":
    sys.exit(main())
