#!/bin/sh
# make_test_pki.sh DIR: writes a throwaway PKI for the TLS tests into DIR, dated from this machine's
# clock (so it is never "not yet valid" on a machine whose clock is behind, and never expires):
#
#   ca.pem                       the test root CA: the only file a client is told to trust
#   valid.pem + valid.key        leaf for the production host names (and 127.0.0.1, localhost),
#                                signed by the root
#   chain.pem + chain.key        same names, signed by an intermediate; chain.pem holds leaf + intermediate
#   wrong-host.pem + .key        signed by the root, for wrong.example.com only
#   expired.pem + .key           right names, signed by the root, expired yesterday
#   not-yet-valid.pem + .key     right names, signed by the root, valid from tomorrow
#   untrusted.pem + .key         right names, signed by another CA that nobody trusts
#
# Needs only the openssl command. Keys are P-256 (fast to make); nothing here is secret.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
cd "$1"

names="DNS:identitytoolkit.googleapis.com,DNS:securetoken.googleapis.com,DNS:localhost,IP:127.0.0.1"
stamp() { date -u -d "$1" +%Y%m%d%H%M%SZ; }
yesterday=$(stamp "-1 day")
next_week=$(stamp "+7 days")

mkdir -p issued
cat > openssl.cnf <<'EOF'
[ca]
default_ca = test_ca
[test_ca]
database = $ENV::PKI_DB
serial = $ENV::PKI_DB.serial
new_certs_dir = issued
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
[root]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical,CA:true,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $ENV::PKI_SAN
authorityKeyIdentifier = keyid
EOF

quiet() { "$@" > openssl.log 2>&1 || { cat openssl.log >&2; exit 1; }; }

# request NAME CN: NAME.key and NAME.csr
request() {
  quiet openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
    -keyout "$1.key" -out "$1.csr"
}

# authority NAME: a fresh database for certificates NAME signs
authority() {
  : > "$1.db"
  echo 1000 > "$1.db.serial"
}

# sign ISSUER NAME EXTENSIONS START END [SAN]: NAME.pem from NAME.csr
sign() {
  PKI_DB="$1.db" PKI_SAN="${6:-$names}" quiet openssl ca -batch -notext -config openssl.cnf \
    -cert "$1.pem" -keyfile "$1.key" -extensions "$3" -startdate "$4" -enddate "$5" \
    -in "$2.csr" -out "$2.pem"
}

# selfsign NAME CN: a root CA
selfsign() {
  request "$1" "$2"
  authority "$1"
  PKI_DB="$1.db" PKI_SAN="$names" quiet openssl ca -batch -notext -config openssl.cnf -selfsign \
    -keyfile "$1.key" -extensions root -startdate "$yesterday" -enddate "$next_week" \
    -in "$1.csr" -out "$1.pem"
}

selfsign ca "Hearth test root CA"
selfsign other-ca "Hearth untrusted CA"

request intermediate "Hearth test intermediate CA"
sign ca intermediate intermediate "$yesterday" "$next_week"
authority intermediate

request valid identitytoolkit.googleapis.com
sign ca valid leaf "$yesterday" "$next_week"

request chain identitytoolkit.googleapis.com
sign intermediate chain leaf "$yesterday" "$next_week"
cat intermediate.pem >> chain.pem

request wrong-host wrong.example.com
sign ca wrong-host leaf "$yesterday" "$next_week" "DNS:wrong.example.com"

request expired identitytoolkit.googleapis.com
sign ca expired leaf "$(stamp "-30 days")" "$yesterday"

request not-yet-valid identitytoolkit.googleapis.com
sign ca not-yet-valid leaf "$(stamp "+1 day")" "$next_week"

request untrusted identitytoolkit.googleapis.com
sign other-ca untrusted leaf "$yesterday" "$next_week"

rm -rf issued ./*.csr ./*.db* openssl.log openssl.cnf
