#!/usr/bin/env bash
# A throwaway certificate authority and a server certificate for 127.0.0.1/localhost, made with openssl in DIR:
# the fake Microsoft authority and Graph serve TLS with it (msal-node refuses an http authority), and the test
# processes trust it through NODE_EXTRA_CA_CERTS=DIR/ca.crt (read by Node only at start: test/run.sh exports it).
#   bash test/support/test-ca.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
[ -s "$dir/server.crt" ] && exit 0
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=dsync-test-ca -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
  -extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n') -out "$dir/server.crt" 2>/dev/null
