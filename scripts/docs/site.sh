#!/usr/bin/env bash
# The docs site: MkDocs with the Material theme, from PyPI (pinned) into a virtualenv under DSYNC_CACHE, like
# the conformance suites (test/tools.sh names the location).
#
#   scripts/docs/site.sh install            create or update the virtualenv (idempotent; test/setup.sh runs it)
#   scripts/docs/site.sh build [args...]    mkdocs build --strict into site/ (or --site-dir DIR); installs first
#   scripts/docs/site.sh serve [args...]    mkdocs serve: a live preview on http://127.0.0.1:8000
#
# --strict turns every warning into a failure: a link to a missing page or anchor, a page missing from the nav.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/tools.sh

# Pinned: a new release must not change the site, or fail the strict build, by surprise.
DOCS_PYPI=(mkdocs==1.6.1 mkdocs-material==9.8.2)
# Material's banner about its end of life (May 2027) and its successor, printed on every build: the contributor
# note (docs/contributing/docs.md) says what it means for this site.
export NO_MKDOCS_2_WARNING=1

install() {
  if [[ -x "$MKDOCS_BIN" && "$(cat "$DSYNC_DOCS_VENV/.dsync-tools" 2>/dev/null)" == "${DOCS_PYPI[*]}" ]]; then
    echo "cached: ${DOCS_PYPI[*]} in $DSYNC_DOCS_VENV"
    return 0
  fi
  python3 -m venv "$DSYNC_DOCS_VENV"
  "$DSYNC_DOCS_VENV/bin/pip" install -q --disable-pip-version-check "${DOCS_PYPI[@]}"
  echo "${DOCS_PYPI[*]}" >"$DSYNC_DOCS_VENV/.dsync-tools"
  echo "installed ${DOCS_PYPI[*]} in $DSYNC_DOCS_VENV"
}

case "${1:-}" in
  install) install ;;
  build) shift; install >/dev/null; exec "$MKDOCS_BIN" build --strict "$@" ;;
  serve) shift; install >/dev/null; exec "$MKDOCS_BIN" serve "$@" ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
