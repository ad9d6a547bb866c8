#!/usr/bin/env python3
"""schemathesis against the running emulator (HEARTH_EMULATOR_URL), for the operations of
tests/schema/firebase-auth-emulator-openapi.json (see SOURCE.md) that it implements: every answer is checked
for 5xx (tests/schema/hooks.py: only Firebase's emulator's own 501s pass, firebase_refusals.py), for
conformance of documented responses to their schema, and for content type. Error answers (Google's
envelope) are undocumented in the description, so status-code conformance does not apply.

The emulator is first asked which operations answer 501 NOT_IMPLEMENTED to any request: they must be
exactly the ones Firebase's emulator has no handler for. Usage: scripts/with-emulator
tests/schema/run_schemathesis.py [-n N]"""
import argparse, json, os, re, subprocess, sys, urllib.request, urllib.error

from firebase_refusals import STUB_OPERATIONS

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPEC = os.environ.get("HEARTH_OPENAPI", os.path.join(ROOT, "tests", "schema", "firebase-auth-emulator-openapi.json"))
PROJECT = os.environ.get("HEARTH_PROJECT", "demo-hearth")


def served_spec(spec):
    """The description with every path as the emulator serves it: Google's hosts become the first path
    segment (https://identitytoolkit.googleapis.com/v1/x -> /identitytoolkit.googleapis.com/v1/x), and
    the emulator-only paths (server "") stay at the root. schemathesis then needs one base URL."""
    default = spec["servers"][0]["url"]
    paths = {}
    for path, item in spec["paths"].items():
        item = dict(item)
        servers = item.pop("servers", None)
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item and "servers" in item[method]:
                servers = item[method].pop("servers")
        server = (servers or [{"url": default}])[0]["url"]
        host = server.split("://", 1)[1] if "://" in server else ""
        paths[(f"/{host}" if host else "") + path] = item
    served = dict(spec, paths=paths)
    served.pop("servers", None)
    return served


def implemented(url, spec):
    """(operationId, method, path) of every operation the emulator answers with something other than
    501 NOT_IMPLEMENTED; a path it does not serve at all (404) is an error."""
    found, skipped, missing = [], [], []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            concrete = re.sub(r"\{[^}]+\}", PROJECT, path)
            data = b"{}" if method in ("post", "put", "patch") else None
            req = urllib.request.Request(f"{url}{concrete}?key=fake-api-key", data=data, method=method.upper(),
                                         headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
            entry = (op["operationId"], method.upper(), path)
            (skipped if status == 501 else missing if status == 404 else found).append(entry)
    return found, skipped, missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", "--max-examples", type=int, default=int(os.environ.get("SCHEMA_EXAMPLES", "100")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SCHEMA_SEED", "20261122")))
    args = ap.parse_args()
    url = os.environ["HEARTH_EMULATOR_URL"]
    spec = served_spec(json.load(open(SPEC)))
    found, skipped, missing = implemented(url, spec)
    print(f"schema: {len(found)} implemented operations, {len(skipped)} answer 501 as in Firebase's emulator "
          "(skipped)", flush=True)
    for op_id, method, path in found:
        print(f"  {method:6} {path}", flush=True)
    if missing:
        print("schema: paths of the description the emulator does not serve (404):", file=sys.stderr)
        for op_id, method, path in missing:
            print(f"  {method} {path} ({op_id})", file=sys.stderr)
        return 1
    # A 501 for a whole operation is parity only where Firebase's emulator has no handler either.
    gaps = [entry for entry in skipped if entry[0] not in STUB_OPERATIONS]
    unstubbed = sorted(STUB_OPERATIONS - {entry[0] for entry in skipped})
    if gaps or unstubbed:
        for op_id, method, path in gaps:
            print(f"schema: {method} {path} ({op_id}) answers 501, but Firebase's emulator serves it",
                  file=sys.stderr)
        for op_id in unstubbed:
            print(f"schema: {op_id} does not answer 501 as Firebase's emulator does", file=sys.stderr)
        return 1
    report_dir = os.path.abspath(os.environ.get("SCHEMA_REPORT_DIR", os.path.join(ROOT, "out", "schema")))
    os.makedirs(report_dir, exist_ok=True)
    served_path = os.path.join(report_dir, "served-openapi.json")
    with open(served_path, "w") as f:
        json.dump(spec, f)
    ops = found
    env = dict(os.environ, SCHEMATHESIS_HOOKS="hooks", PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    status = 0
    # Twice: as an admin (the Admin SDKs' "owner" token) and as an app (API key only), since the
    # emulator takes different paths for each (admin-only fields, 401/403 answers).
    for caller, headers in (("admin", ["-H", "Authorization: Bearer owner", "-H", "x-goog-api-key: fake-api-key"]),
                            ("app", ["-H", "x-goog-api-key: fake-api-key"])):
        print(f"schema: as {caller}", flush=True)
        cmd = ["schemathesis", "run", served_path, "--url", url, *headers,
               "--checks", "no_server_error,response_schema_conformance,content_type_conformance",
               "--max-examples", str(args.max_examples), "--seed", str(args.seed),
               "--generation-database", "none", "--phases", "examples,fuzzing,stateful",
               "--workers", "2", "--no-color", "--warnings", "off", "--continue-on-failure",
               "--report", "junit", "--report-dir", os.path.join(report_dir, caller)]
        for op_id in sorted({op[0] for op in ops}):
            cmd += ["--include-operation-id", op_id]
        # schemathesis and Hypothesis keep state in the working directory: keep it out of the tree.
        status |= subprocess.call(cmd, env=env, cwd=report_dir)
    return 1 if status else 0

if __name__ == "__main__":
    sys.exit(main())
