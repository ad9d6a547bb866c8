#!/usr/bin/env python3
"""Checks that the compatibility headers declare every public declaration of the Firebase C++ SDK.

Reads the manifest extract.py made from the SDK's own headers (firebase-cpp-sdk.jsonl), writes one
C++ probe per declaration, and compiles them all against include/compat (and nothing of the SDK):

- member functions: a pointer to member of the exact type (so name, parameters, constness, static-ness
  and return type must match), a call with only the required arguments when some have defaults, and
  an `override` of each virtual one in a derived class;
- constructors: std::is_constructible with the SDK's parameters, explicit ones not implicit and
  implicit single-argument ones implicit (template constructors with the types the SDK accepts);
- fields, static members, typedefs, variables: their exact types; enumerators: type and value;
- classes: bases (public), abstract, polymorphic, virtual destructor; opaque classes and namespaces:
  that they are declared; macros: defined, with the same integer value.

Each probe is compiled under its own #line file name, so the compiler's errors name the declarations
that are missing or differ. Exit status 0 when every probe compiles.

    tests/compat/sdk_manifest/probe.py --cxx c++ --include include/compat --include include
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANIFEST = os.path.join(HERE, "firebase-cpp-sdk.jsonl")

# The class template's parameter is instantiated with this type.
TEMPLATE_ARGUMENT = "int"


def load(path):
    with open(path) as f:
        entries = [json.loads(line) for line in f if line.strip()]
    meta = entries[0]
    if meta.get("kind") != "meta":
        raise SystemExit(f"{path}: the first line is not the manifest's metadata")
    return meta, entries[1:]


class Probes:
    def __init__(self, meta, entries):
        self.meta = meta
        self.entries = entries
        self.classes = {}
        for e in entries:
            if e["kind"] == "class":
                self.classes[join(e["scope"], e["name"])] = e
        self.chunks = []

    # ---- naming ----------------------------------------------------------------------------------------

    def template_of(self, qualified):
        entry = self.classes.get(qualified)
        return entry.get("template") if entry else None

    def spelled(self, qualified):
        """The class as a type: class templates instantiated, enclosing classes resolved."""
        parts = qualified.split("::")
        out = []
        for i in range(len(parts)):
            name = parts[i]
            template = self.template_of("::".join(parts[: i + 1]))
            if template:
                name += "<" + ", ".join(TEMPLATE_ARGUMENT for _ in template) + ">"
            out.append(name)
        return "::" + "::".join(out)

    def substitute(self, text, owner):
        """Types of a class template's members, with its parameters instantiated."""
        for scope in self.owner_chain(owner):
            template = self.template_of(scope)
            for parameter in template or []:
                text = re.sub(r"\b%s\b" % re.escape(parameter), TEMPLATE_ARGUMENT, text)
        return text

    def owner_chain(self, owner):
        """The owner and the classes enclosing it (outermost last)."""
        chain = []
        parts = owner.split("::")
        for i in range(len(parts), 0, -1):
            qualified = "::".join(parts[:i])
            if qualified in self.classes:
                chain.append(qualified)
        return chain

    def namespace_of(self, owner):
        chain = self.owner_chain(owner)
        outermost = chain[-1] if chain else owner
        return self.classes[outermost]["scope"] if outermost in self.classes else outermost

    # ---- emitting ----------------------------------------------------------------------------------------

    def emit(self, index, namespace, code):
        opening = "".join(f"namespace {n} {{ " for n in namespace.split("::") if n)
        closing = "}" * len([n for n in namespace.split("::") if n])
        self.chunks.append(f'#line 1 "manifest-entry-{index}"\n{opening}\n{code}\n{closing}\n')

    def in_class(self, index, owner, body):
        """`body` inside a struct derived from the owner, so the SDK's spellings of types resolve as in its
        own declaration: the owner's members by inheritance, the nested types of the classes enclosing
        it by aliases (deriving from those could fail for reasons of their own, like private
        destructors)."""
        chain = self.owner_chain(owner)
        aliases = ""
        for enclosing in chain[1:]:
            if self.template_of(enclosing):
                continue
            for e in self.entries:
                nested_class = e["kind"] in ("class", "opaque_class", "enum") and e.get("scope") == enclosing
                nested_type = e["kind"] == "member_typedef" and e.get("owner") == enclosing
                if nested_class or nested_type:
                    aliases += f"using {e['name']} = {self.spelled(join(enclosing, e['name']))};\n"
        self.emit(index, self.namespace_of(owner), f"struct probe_{index} : public {self.spelled(owner)} {{\n{aliases}{body}\n}};")

    def run(self):
        for index, e in enumerate(self.entries):
            getattr(self, "probe_" + e["kind"])(index, e)
        return "".join(self.chunks)

    @staticmethod
    def split_function_type(type_text, params):
        """'R (P1, P2) const' -> ('R', 'const')."""
        params_text = "(" + ", ".join(params) + ")"
        at = type_text.rfind(params_text)
        if at < 0:
            raise SystemExit(f"cannot split function type {type_text!r} with {params!r}")
        return type_text[:at].strip(), type_text[at + len(params_text):].strip()

    # ---- kinds -------------------------------------------------------------------------------------------

    def probe_namespace(self, index, e):
        self.emit(index, "", f"inline void probe_{index}() {{ using namespace ::{join(e['scope'], e['name'])}; }}")

    def probe_class(self, index, e):
        qualified = join(e["scope"], e["name"])
        owner = self.spelled(qualified)
        lines = [f"using probe_type = {owner};"]
        for base in e["bases"]:
            base_type = self.substitute(base["type"], qualified)
            lines.append(f"static_assert(std::is_base_of<{base_type}, {owner}>::value, \"base {base_type}\");")
            if base["access"] == "public":
                lines.append(f"static_assert(std::is_convertible<{owner}*, {base_type}*>::value, \"public base {base_type}\");")
        lines.append(f"static_assert(std::is_abstract<{owner}>::value == {cpp_bool(e['abstract'])}, \"abstract\");")
        lines.append(f"static_assert(std::is_polymorphic<{owner}>::value == {cpp_bool(e['polymorphic'])}, \"polymorphic\");")
        lines.append(f"static_assert(std::has_virtual_destructor<{owner}>::value == "
                     f"{cpp_bool(e.get('virtual_destructor', False))}, \"virtual destructor\");")
        self.in_class(index, qualified, "\n".join(lines))

    def probe_opaque_class(self, index, e):
        self.emit(index, "", f"using probe_{index} = ::{join(e['scope'], e['name'])}*;")

    def probe_method(self, index, e):
        owner = e["owner"]
        spelled = self.spelled(owner)
        fn_type = self.substitute(e["type"], owner)
        params = [self.substitute(p, owner) for p in e["params"]]
        name = e["name"]
        lines = [f"using probe_signature = {fn_type};"]
        if e.get("deleted"):
            return
        if e["static"]:
            lines.append(f"static void check() {{ probe_signature* p = &{spelled}::{name}; (void)p; }}")
        else:
            lines.append(f"static void check() {{ probe_signature {member_of(spelled)} p = &{spelled}::{name}; (void)p; }}")
        if e.get("defaults"):
            required = params[: len(params) - e["defaults"]]
            args = ", ".join(f"std::declval<{p}>()" for p in required)
            target = f"{spelled}::{name}" if e["static"] else f"std::declval<{spelled}&>().{name}"
            lines.append(f"using probe_call = decltype({target}({args}));")
        if e.get("virtual"):
            returns, qualifiers = self.split_function_type(fn_type, params)
            lines.append(f"{returns} {name}({', '.join(params)}) {qualifiers} override;")
        self.in_class(index, owner, "\n".join(lines))

    def concrete(self, owner):
        """Declarations overriding every pure virtual method of the owner (and its bases)."""
        overrides = []
        for e in self.entries:
            if e["kind"] == "method" and e.get("pure") and self.is_base_or_same(e["owner"], owner):
                fn_type = self.substitute(e["type"], e["owner"])
                params = [self.substitute(p, e["owner"]) for p in e["params"]]
                returns, qualifiers = self.split_function_type(fn_type, params)
                overrides.append(f"{returns} {e['name']}({', '.join(params)}) {qualifiers} override;")
        return overrides

    def is_base_or_same(self, base, derived):
        if base == derived:
            return True
        entry = self.classes.get(derived)
        if not entry:
            return False
        scope = entry["scope"]
        for b in entry["bases"]:
            candidate = b["type"] if b["type"].startswith("firebase::") else join(scope, b["type"])
            if self.is_base_or_same(base, candidate):
                return True
        return False

    def probe_constructor(self, index, e):
        owner = e["owner"]
        spelled = self.spelled(owner)
        params = [self.substitute(p, owner) for p in e["params"]]
        if e.get("deleted"):
            self.in_class(index, owner, f"static_assert(!std::is_constructible<{spelled}{''.join(', ' + p for p in params)}>::value, "
                                        f"\"deleted constructor\");")
            return
        entry = self.classes.get(owner, {})
        lines = []
        target = spelled
        if entry.get("abstract"):
            # An abstract class is built through a concrete subclass that inherits its constructors.
            lines.append(f"struct concrete : {spelled} {{ using {spelled}::{spelled.split('::')[-1].split('<')[0]}; "
                         + " ".join(self.concrete(owner)) + " };")
            target = "concrete"
        for count in range(len(params) - e.get("defaults", 0), len(params) + 1):
            args = "".join(", " + p for p in params[:count])
            lines.append(f"static_assert(std::is_constructible<{target}{args}>::value, \"constructor\");")
        if len(params) - e.get("defaults", 0) <= 1 <= len(params) and not entry.get("abstract"):
            convertible = "!" if e.get("explicit") else ""
            lines.append(f"static_assert({convertible}std::is_convertible<{params[0]}, {spelled}>::value, "
                         f"\"{'explicit' if e.get('explicit') else 'implicit'} constructor\");")
        self.in_class(index, owner, "\n".join(lines))

    def probe_destructor(self, index, e):
        spelled = self.spelled(e["owner"])
        lines = [f"static_assert(std::is_destructible<{spelled}>::value || std::is_abstract<{spelled}>::value, \"destructor\");"]
        if e.get("virtual"):
            lines.append(f"static_assert(std::has_virtual_destructor<{spelled}>::value, \"virtual destructor\");")
        self.in_class(index, e["owner"], "\n".join(lines))

    def probe_field(self, index, e):
        spelled = self.spelled(e["owner"])
        field_type = self.substitute(e["type"], e["owner"])
        self.in_class(index, e["owner"], f"using probe_field = {field_type};\n"
                                         f"static_assert(std::is_same<decltype(&{spelled}::{e['name']}), probe_field {member_of(spelled)}>::value, \"field type\");")

    def probe_static_member(self, index, e):
        spelled = self.spelled(e["owner"])
        self.in_class(index, e["owner"], f"static_assert(std::is_same<decltype({spelled}::{e['name']}), "
                                         f"{self.substitute(e['type'], e['owner'])}>::value, \"static member type\");")

    def probe_member_typedef(self, index, e):
        spelled = self.spelled(e["owner"])
        self.in_class(index, e["owner"], f"static_assert(std::is_same<{spelled}::{e['name']}, "
                                         f"{self.substitute(e['type'], e['owner'])}>::value, \"typedef\");")

    def probe_enum(self, index, e):
        qualified = "::" + join(e["scope"], e["name"])
        code = f"static_assert(std::is_enum<{qualified}>::value, \"enum\");"
        if e["scope"] in self.classes:
            self.in_class(index, e["scope"], code)
        else:
            self.emit(index, e["scope"], code)

    def probe_enumerator(self, index, e):
        enum = "::" + join(e["scope"], e["enum"])
        value = "::" + join(e["scope"], e["name"])
        self.emit(index, "", f"static_assert(std::is_same<decltype({value}), {enum}>::value, \"enumerator type\");\n"
                             f"static_assert(static_cast<long long>({value}) == {e['value']}LL, \"enumerator value\");")

    def probe_function(self, index, e):
        lines = [f"using probe_signature_{index} = {e['type']};",
                 f"inline void probe_{index}() {{ probe_signature_{index}* p = &::{join(e['scope'], e['name'])}; (void)p; }}"]
        if e.get("defaults"):
            required = e["params"][: len(e["params"]) - e["defaults"]]
            args = ", ".join(f"std::declval<{p}>()" for p in required)
            lines.append(f"using probe_call_{index} = decltype(::{join(e['scope'], e['name'])}({args}));")
        self.emit(index, e["scope"], "\n".join(lines))

    def probe_variable(self, index, e):
        self.emit(index, e["scope"], f"static_assert(std::is_same<decltype(::{join(e['scope'], e['name'])}), {e['type']}>::value, "
                                     f"\"variable type\");")

    def probe_typedef(self, index, e):
        self.emit(index, e["scope"], f"static_assert(std::is_same<::{join(e['scope'], e['name'])}, {e['type']}>::value, \"typedef\");")

    def probe_template_constructor(self, index, e):
        owner = e["owner"]
        spelled = self.spelled(owner)
        scalars = self.meta["variant_scalar_types"]
        parameters = e["template_params"]
        lines = []
        for arguments in self.instantiations(parameters, scalars):
            params = []
            for p in e["params"]:
                for name, value in zip(parameters, arguments):
                    p = re.sub(r"\b%s\b" % name, f"probe_id<{value}>", p)
                params.append(p)
            lines.append(f"static_assert(std::is_constructible<{spelled}{''.join(', ' + p for p in params)}>::value, "
                         f"\"template constructor\");")
            if len(params) == 1:
                convertible = "!" if e.get("explicit") else ""
                lines.append(f"static_assert({convertible}std::is_convertible<{params[0]}, {spelled}>::value, \"conversion\");")
        self.in_class(index, owner, "\n".join(lines))

    @staticmethod
    def instantiations(parameters, scalars):
        if len(parameters) == 1:
            return [(t,) for t in scalars]
        # Maps: every scalar as key with a string value, and a string key with every scalar value.
        return [(t, "const char *") for t in scalars] + [("const char *", t) for t in scalars]

    def probe_template_method(self, index, e):
        raise SystemExit(f"no probe for template method {e['owner']}::{e['name']}")

    def probe_macro(self, index, e):
        conditions = {"clang": "defined(__clang__)", "gcc": "defined(__GNUC__) && !defined(__clang__)"}
        guard = " || ".join(f"({conditions[c]})" for c in e.get("compilers", ["clang", "gcc"]))
        code = [f"#if {guard}", f"#ifndef {e['name']}", f"#error missing macro {e['name']}", "#endif"]
        if "value" in e:
            code += [f"#if ({e['name']}) != ({e['value']})", f"#error macro {e['name']} is not {e['value']}", "#endif"]
        code.append("#endif")
        self.chunks.append(f'#line 1 "manifest-entry-{index}"\n' + "\n".join(code) + "\n")


def member_of(spelled):
    """'::a::B' -> 'a::B::*' (a leading '::' right after a type name would be read as part of it)."""
    return spelled.lstrip(":") + "::*"


def join(scope, name):
    return f"{scope}::{name}" if scope else name


def cpp_bool(value):
    return "true" if value else "false"


def describe(entry):
    where = entry.get("owner") or entry.get("scope") or ""
    name = join(where, entry.get("name", "")) if entry["kind"] not in ("macro",) else entry["name"]
    detail = entry.get("decl") or entry.get("type") or ""
    return f"{entry['kind']:<20} {name}" + (f"   [{detail}]" if detail else "")


def mutations(entries):
    """Declarations the headers do not have, or have differently: the probe must name every one."""
    def find(kind, owner, name, **extra):
        for e in entries:
            if e["kind"] == kind and (e.get("owner") or e.get("scope")) == owner and e.get("name") == name and all(
                    e.get(k) == v for k, v in extra.items()):
                return dict(e)
        raise SystemExit(f"self-test: no {kind} {owner}::{name} in the manifest")

    missing = find("method", "firebase::auth::Auth", "SignInAnonymously")
    missing["name"] = "SignInWithMagic"
    wrong_parameter = find("method", "firebase::auth::Auth", "SignInWithCustomToken")
    wrong_parameter["type"] = "Future<AuthResult> (const std::string &)"
    wrong_parameter["params"] = ["const std::string &"]
    wrong_constness = find("method", "firebase::auth::User", "GetToken")
    wrong_constness["type"] = "Future<std::string> (bool) const"
    not_virtual = find("method", "firebase::auth::Auth", "SignOut")
    not_virtual["virtual"] = True
    wrong_field = find("field", "firebase::auth::AdditionalUserInfo", "profile")
    wrong_field["type"] = "std::map<std::string, std::string>"
    wrong_value = find("enumerator", "firebase::auth", "kAuthErrorFailure")
    wrong_value["value"] = 2
    wrong_static = find("static_member", "firebase::auth::EmailAuthProvider", "kProviderId")
    wrong_static["type"] = "const char *"
    not_polymorphic = find("class", "firebase::auth", "Credential")
    not_polymorphic["polymorphic"] = True
    not_explicit = find("constructor", "firebase::FutureHandle", "FutureHandle", params=["FutureHandleId"])
    not_explicit["explicit"] = False
    missing_macro = {"kind": "macro", "name": "FIREBASE_NOT_A_MACRO", "header": "firebase/app.h",
                     "compilers": ["clang", "gcc"]}
    wrong_macro = dict(next(e for e in entries if e["kind"] == "macro" and e["name"] == "FIREBASE_PLATFORM_LINUX"))
    wrong_macro["value"] = 0
    missing_class = {"kind": "opaque_class", "scope": "firebase::auth", "name": "NotAnSdkClass", "tag": "class",
                     "template": None, "header": "firebase/auth.h"}
    return [missing, wrong_parameter, wrong_constness, not_virtual, wrong_field, wrong_value, wrong_static,
            not_polymorphic, not_explicit, missing_macro, wrong_macro, missing_class]


def check(meta, entries, args):
    """Compiles the probes; the indices of the entries the compiler named, and its output."""
    probes = Probes(meta, entries)
    body = probes.run()
    headers = "".join(f'#include "{h}"\n' for h in meta["headers"])
    source = ("// Generated by tests/compat/sdk_manifest/probe.py from the Firebase C++ SDK's manifest.\n"
              + headers + "#include <type_traits>\n#include <utility>\n"
              + "template <typename T> using probe_id = T;  // a type as one token, for substitutions\n" + body)
    if args.keep:
        with open(args.keep, "w") as f:
            f.write(source)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.cpp")
        with open(path, "w") as f:
            f.write(source)
        cmd = [args.cxx] + args.flags.split() + ["-fsyntax-only"] + [f"-I{d}" for d in args.include] + [path]
        result = subprocess.run(cmd, capture_output=True, text=True)
    output = result.stdout + result.stderr
    failed = sorted({int(m) for m in re.findall(r"manifest-entry-(\d+)", output)})
    return result.returncode == 0 and not failed, failed, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--manifest", default=DEFAULT_MANIFEST)
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--include", action="append", default=[], help="include directory (repeatable)")
    parser.add_argument("--flags", default="-std=c++17 -Wall -Wextra -Werror -pedantic")
    parser.add_argument("--keep", help="write the generated probe source here")
    parser.add_argument("--self-test", action="store_true",
                        help="also check that the probe names declarations the headers lack or declare differently")
    args = parser.parse_args()

    meta, entries = load(args.manifest)
    label = f"{meta['sdk']} {meta['version']} ({meta['commit'][:12]})"
    ok, failed, output = check(meta, entries, args)
    if not ok:
        print(f"compat headers miss or differ from {len(failed)} of {len(entries)} public declarations of {label}:")
        for index in failed:
            print("  " + describe(entries[index]))
        if not failed:
            print("the probe did not compile, but no declaration was named; compiler output:")
        print("\n--- compiler output ---\n" + output[-20000:])
        return 1
    print(f"the headers declare all {len(entries)} public declarations of {label}")
    if args.self_test:
        mutated = mutations(entries)
        ok, failed, output = check(meta, entries + mutated, args)
        expected = list(range(len(entries), len(entries) + len(mutated)))
        if failed != expected:
            print("self-test: the probe should have named exactly the changed declarations "
                  f"{expected}, but named {failed}")
            for index in sorted(set(expected) - set(failed)):
                print("  not noticed: " + describe((entries + mutated)[index]))
            print("\n--- compiler output ---\n" + output[-20000:])
            return 1
        print(f"self-test: the probe names each of {len(mutated)} declarations the headers lack or declare differently")
    return 0


if __name__ == "__main__":
    sys.exit(main())
