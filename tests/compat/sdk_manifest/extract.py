#!/usr/bin/env python3
"""Lists the public declarations of the Firebase C++ SDK headers the compatibility layer covers.

Run by hand against a checkout of firebase/firebase-cpp-sdk (it is not part of `make test`; its output,
the manifest, is committed and checked by tests/compat/sdk_manifest/probe.py):

    tests/compat/sdk_manifest/extract.py --sdk /path/to/firebase-cpp-sdk --version v13.11.0 \
        --output tests/compat/sdk_manifest/firebase-cpp-sdk.jsonl

The headers are parsed by clang (`-Xclang -ast-dump=json`) as a desktop Linux build sees them: no
SWIG, no DOXYGEN, no INTERNAL_EXPERIMENTAL, no Android or Apple parts. Every declaration a program
can name from outside is listed: namespaces' classes, functions, variables, enums and their values,
typedefs; classes' public constructors, destructors, methods, operators, fields, static members,
nested types and bases; and the macros the headers define. Types are kept as the SDK spells them, so
the probes can be written in the same scope (the declaring namespace or a class derived from the
declaring class) where those spellings resolve.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# The headers named by issue 16; everything they include comes along.
ROOT_HEADERS = [
    "firebase/app.h",
    "firebase/auth.h",
    "firebase/auth/credential.h",
    "firebase/auth/user.h",
    "firebase/auth/types.h",
    "firebase/future.h",
    "firebase/variant.h",
    "firebase/util.h",
    "firebase/log.h",
]
INCLUDE_DIRS = ["app/src/include", "auth/src/include"]


def run_clang(clang, sdk, args, source):
    with tempfile.NamedTemporaryFile("w", suffix=".cc", dir=sdk, delete=False) as tu:
        tu.write(source)
        path = tu.name
    try:
        cmd = [clang, "-std=c++17", "-x", "c++"] + ["-I" + d for d in INCLUDE_DIRS] + args + [os.path.basename(path)]
        return subprocess.run(cmd, cwd=sdk, check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)


class Locator:
    """Follows clang's JSON locations, which name a file only when it changes from the previous one."""

    def __init__(self):
        self.file = None
        self.where = {}

    def visit(self, node):
        if isinstance(node, list):
            for item in node:
                self.visit(item)
            return
        if not isinstance(node, dict):
            return
        if "offset" in node or "spellingLoc" in node or "expansionLoc" in node:
            self.location(node)
            return
        for key, value in node.items():
            if key == "loc":
                file, offset = self.location(value)
                if "id" in node:
                    self.where.setdefault(node["id"], {})["loc"] = (file, offset)
            elif key == "range":
                begin = self.location(value.get("begin", {}))
                end = self.location(value.get("end", {}))
                if "id" in node:
                    self.where.setdefault(node["id"], {})["range"] = (begin, end)
            else:
                self.visit(value)

    def location(self, loc):
        if not loc:
            return (self.file, None)
        if "spellingLoc" in loc or "expansionLoc" in loc:
            self.location(loc.get("spellingLoc", {}))
            return self.location(loc.get("expansionLoc", {}))
        if "file" in loc:
            self.file = loc["file"]
        end = loc.get("offset")
        if end is not None and "tokLen" in loc:
            end = (end, loc["tokLen"])
        return (self.file, end)


class Extractor:
    def __init__(self, sdk, ast, locator):
        self.sdk = sdk
        self.ast = ast
        self.where = locator.where
        self.entries = []
        self.sources = {}
        self.defined = set()  # qualified names of classes with a definition
        self.declared = {}    # qualified class name -> header of a forward declaration
        self.namespaces = set()

    def header_of(self, node):
        loc = self.where.get(node.get("id"), {}).get("loc")
        if not loc or not loc[0]:
            return None
        for base in INCLUDE_DIRS:
            if loc[0].startswith(base + "/"):
                return loc[0][len(base) + 1:]
        return None

    def text_of(self, node):
        """The declaration's source text up to its body, whitespace collapsed."""
        rng = self.where.get(node.get("id"), {}).get("range")
        if not rng:
            return ""
        (file, begin), (end_file, end) = rng
        if not file or begin is None or end is None or file != end_file:
            return ""
        begin = begin[0] if isinstance(begin, tuple) else begin
        end = end[0] + end[1] if isinstance(end, tuple) else end
        if file not in self.sources:
            with open(os.path.join(self.sdk, file), "rb") as f:
                self.sources[file] = f.read()
        # clang's offsets count bytes.
        text = self.sources[file][begin:end].decode("utf-8")
        text = re.sub(r"//[^\n]*", "", text)
        # Cut at the body or at a constructor's member-initializer list (both outside parentheses).
        depth = 0
        for i, c in enumerate(text):
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0 and (c == "{" or (c == ":" and text[i - 1] != ":" and text[i + 1:i + 2] != ":"
                                               and re.search(r"(\)|noexcept|const)\s*$", text[:i]))):
                text = text[:i]
                break
        return " ".join(text.replace("{", " {").split()).rstrip(" ;")

    def add(self, **entry):
        self.entries.append(entry)

    # ---- walking ---------------------------------------------------------------------------------------

    def run(self):
        for node in self.ast.get("inner", []):
            if node.get("kind") == "NamespaceDecl" and node.get("name") == "firebase":
                self.namespace(node, ["firebase"])

    def namespace(self, node, scope):
        header = self.header_of(node)
        qualified = "::".join(scope)
        if header and qualified not in self.namespaces:
            self.namespaces.add(qualified)
            self.add(kind="namespace", scope="::".join(scope[:-1]), name=scope[-1], header=header)
        for child in node.get("inner", []):
            self.namespace_member(child, scope)

    def namespace_member(self, node, scope):
        kind = node.get("kind")
        header = self.header_of(node)
        if node.get("isImplicit") or header is None:
            return
        qualified = "::".join(scope)
        if kind == "NamespaceDecl":
            self.namespace(node, scope + [node["name"]])
        elif kind == "CXXRecordDecl":
            self.record(node, scope, header, template=None)
        elif kind == "ClassTemplateDecl":
            params = [p for p in node.get("inner", []) if p.get("kind") == "TemplateTypeParmDecl"]
            for child in node.get("inner", []):
                if child.get("kind") == "CXXRecordDecl":
                    self.record(child, scope, header, template=[p["name"] for p in params])
        elif kind == "FunctionDecl":
            self.function(node, qualified, header)
        elif kind == "VarDecl":
            self.add(kind="variable", scope=qualified, name=node["name"], type=node["type"]["qualType"],
                     static=node.get("storageClass") == "static", header=header, decl=self.text_of(node))
        elif kind == "EnumDecl":
            self.enum(node, qualified, header, None)
        elif kind in ("TypedefDecl", "TypeAliasDecl"):
            self.add(kind="typedef", scope=qualified, name=node["name"], type=node["type"]["qualType"],
                     header=header, decl=self.text_of(node))
        elif kind in ("CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl", "FunctionTemplateDecl"):
            pass  # out-of-line definitions of members declared in their class
        elif kind in ("FullComment", "UsingDirectiveDecl"):
            pass
        else:
            raise SystemExit(f"unhandled namespace member {kind} {node.get('name')} in {header}")

    def function(self, node, scope, header):
        params = [p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
        self.add(kind="function", scope=scope, name=node["name"], type=node["type"]["qualType"],
                 params=[p["type"]["qualType"] for p in params], defaults=sum(1 for p in params if "init" in p),
                 header=header, decl=self.text_of(node))

    def enum(self, node, scope, header, access_scope):
        name = node.get("name", "")
        self.add(kind="enum", scope=scope, name=name, scoped=node.get("scopedEnumTag") is not None,
                 header=header, decl=self.text_of(node).split("{")[0].strip())
        for value in node.get("inner", []):
            if value.get("kind") != "EnumConstantDecl":
                continue
            self.add(kind="enumerator", scope=scope, enum=name, name=value["name"],
                     value=self.enumerator_value(node, value), header=header)

    @staticmethod
    def enumerator_value(enum, value):
        # Values follow clang's evaluation: rebuild it from explicit initializers and implicit +1 steps.
        values = []
        previous = -1
        for item in enum.get("inner", []):
            if item.get("kind") != "EnumConstantDecl":
                continue
            current = previous + 1
            for expr in item.get("inner", []):
                if expr.get("kind") == "ConstantExpr" and "value" in expr:
                    current = int(expr["value"])
            values.append((item["name"], current))
            previous = current
        return dict(values)[value["name"]]

    def record(self, node, scope, header, template):
        name = node.get("name")
        qualified = "::".join(scope + [name])
        if not node.get("completeDefinition"):
            if qualified not in self.declared:
                self.declared[qualified] = (scope, name, node.get("tagUsed"), header, template)
            return
        self.defined.add(qualified)
        bases = [{"access": b["access"], "type": b["type"]["qualType"], "virtual": b.get("isVirtual", False)}
                 for b in node.get("bases", [])]
        data = node.get("definitionData", {})
        self.add(kind="class", scope="::".join(scope), name=name, tag=node.get("tagUsed"), template=template,
                 bases=bases, abstract=bool(data.get("isAbstract")), polymorphic=bool(data.get("isPolymorphic")),
                 header=header)
        class_entry = self.entries[-1]
        access = "public" if node.get("tagUsed") in ("struct", "union") else "private"
        owner = scope + [name]
        virtual_dtor = False
        for child in node.get("inner", []):
            kind = child.get("kind")
            if kind == "AccessSpecDecl":
                access = child["access"]
                continue
            if child.get("isImplicit") or kind in ("FullComment", "FriendDecl"):
                continue
            if kind == "CXXDestructorDecl" and child.get("virtual"):
                virtual_dtor = True
            if access != "public":
                continue
            self.member(child, owner, header, template)
        # A destructor is virtual when declared so here or in a base (the bases are listed earlier).
        class_entry["virtual_destructor"] = virtual_dtor or any(
            e["kind"] == "class" and e.get("virtual_destructor") and e["name"] == b["type"].split("::")[-1]
            for b in bases for e in self.entries)

    def member(self, node, owner, header, template):
        kind = node.get("kind")
        owner_name = "::".join(owner)
        common = dict(owner=owner_name, header=header, decl=self.text_of(node))
        if kind == "CXXMethodDecl":
            params = [p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
            self.add(kind="method", name=node["name"], type=node["type"]["qualType"],
                     params=[p["type"]["qualType"] for p in params], defaults=sum(1 for p in params if "init" in p),
                     static=node.get("storageClass") == "static", virtual=bool(node.get("virtual")),
                     pure=bool(node.get("pure")), deleted=bool(node.get("explicitlyDeleted")), **common)
        elif kind == "CXXConstructorDecl":
            params = [p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
            self.add(kind="constructor", name=node["name"], params=[p["type"]["qualType"] for p in params],
                     defaults=sum(1 for p in params if "init" in p), explicit=common["decl"].startswith("explicit "),
                     deleted=bool(node.get("explicitlyDeleted")), **common)
        elif kind == "CXXDestructorDecl":
            self.add(kind="destructor", name=node["name"], virtual=bool(node.get("virtual")), **common)
        elif kind == "FieldDecl":
            self.add(kind="field", name=node["name"], type=node["type"]["qualType"], **common)
        elif kind == "VarDecl":
            self.add(kind="static_member", name=node["name"], type=node["type"]["qualType"], **common)
        elif kind == "EnumDecl":
            self.enum(node, owner_name, header, owner_name)
        elif kind in ("TypedefDecl", "TypeAliasDecl"):
            self.add(kind="member_typedef", name=node["name"], type=node["type"]["qualType"], **common)
        elif kind == "CXXRecordDecl":
            self.record(node, owner, header, template=None)
        elif kind == "FunctionTemplateDecl":
            params = [p["name"] for p in node.get("inner", []) if p.get("kind") == "TemplateTypeParmDecl"]
            for fn in node.get("inner", []):
                if fn.get("kind") in ("CXXConstructorDecl", "CXXMethodDecl"):
                    args = [p["type"]["qualType"] for p in fn.get("inner", []) if p.get("kind") == "ParmVarDecl"]
                    self.add(kind="template_" + ("constructor" if fn["kind"] == "CXXConstructorDecl" else "method"),
                             name=fn["name"], template_params=params, params=args, type=fn["type"]["qualType"],
                             explicit=common["decl"].split(">", 1)[-1].strip().startswith("explicit "),
                             deleted=bool(fn.get("explicitlyDeleted")), **common)
                    break
        else:
            raise SystemExit(f"unhandled member {kind} {node.get('name')} of {owner_name}")

    def finish(self):
        for qualified, (scope, name, tag, header, template) in sorted(self.declared.items()):
            if qualified not in self.defined:
                self.add(kind="opaque_class", scope="::".join(scope), name=name, tag=tag, template=template,
                         header=header)
        return self.entries


def scalar_specializations(ast):
    """The types Variant(T) accepts: the SDK's explicit specializations of Variant::set_value_t."""
    types = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("kind") == "CXXMethodDecl" and node.get("name") == "set_value_t":
                params = [p for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
                if params:
                    types.append(params[0]["type"]["qualType"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(ast)
    seen = []
    for t in types:
        if t != "T" and t not in seen:
            seen.append(t)
    return seen


def macros(compilers, sdk, source):
    """Macros the SDK headers define, with the compilers that see each (platform.h defines some per
    compiler), and object-like ones' integer value when they have one."""
    merged = {}
    for label, compiler in compilers:
        for entry in macros_of(compiler, sdk, source):
            known = merged.setdefault(entry["name"], dict(entry, compilers=[]))
            known["compilers"].append(label)
    return list(merged.values())


def macros_of(compiler, sdk, source):
    out = run_clang(compiler, sdk, ["-E", "-dD"], source)
    found = {}
    current = None
    for line in out.splitlines():
        marker = re.match(r'# \d+ "([^"]+)"', line)
        if marker:
            current = marker.group(1)
            continue
        if not current or not any(current.startswith(d + "/") for d in INCLUDE_DIRS):
            continue
        m = re.match(r"#define (\w+)(\([^)]*\))?\s*(.*)$", line)
        if m:
            header = current.split("/include/", 1)[1]
            value = m.group(3).strip()
            entry = dict(kind="macro", name=m.group(1), header=header,
                         arity=None if m.group(2) is None else len([a for a in m.group(2)[1:-1].split(",") if a.strip()]))
            if m.group(2) is None and re.fullmatch(r"\(?-?\d+\)?", value):
                entry["value"] = int(value.strip("()"))
            found[m.group(1)] = entry
        m = re.match(r"#undef (\w+)", line)
        if m:
            found.pop(m.group(1), None)
    return list(found.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sdk", required=True, help="a checkout (or export) of firebase/firebase-cpp-sdk")
    parser.add_argument("--version", required=True, help="the release the checkout is at, e.g. v13.11.0")
    parser.add_argument("--commit", default="", help="the commit the checkout is at")
    parser.add_argument("--clang", default="clang++")
    parser.add_argument("--gxx", default="g++", help="GCC's C++ compiler, for the macros platform.h sets per compiler")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    source = "".join(f'#include "{h}"\n' for h in ROOT_HEADERS)
    ast = json.loads(run_clang(args.clang, args.sdk, ["-fsyntax-only", "-Xclang", "-ast-dump=json"], source))
    locator = Locator()
    locator.visit(ast)
    extractor = Extractor(args.sdk, ast, locator)
    extractor.run()
    entries = extractor.finish()
    entries += macros([("clang", args.clang), ("gcc", args.gxx)], args.sdk, source)

    with open(args.output, "w") as out:
        meta = {"kind": "meta", "sdk": "firebase/firebase-cpp-sdk", "version": args.version, "commit": args.commit,
                "headers": ROOT_HEADERS, "platform": "desktop Linux (no SWIG, DOXYGEN or INTERNAL_EXPERIMENTAL)",
                "variant_scalar_types": scalar_specializations(ast)}
        out.write(json.dumps(meta) + "\n")
        for entry in entries:
            out.write(json.dumps(entry, sort_keys=True) + "\n")
    print(f"{len(entries)} declarations -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
