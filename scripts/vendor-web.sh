#!/usr/bin/env bash
# Fetches the vendored web libraries again and checks them, byte for byte, against
# Web/vendor/SHA256SUMS:
#
#   scripts/vendor-web.sh            fetch, check, and write them into Web/vendor
#   scripts/vendor-web.sh --check    fetch and check the fetched and the committed files; write nothing
#
# The libraries come from PyPI wheels that ship their dist files unchanged, pinned
# by version and by the wheel's own SHA-256 (pip refuses any other wheel):
#   Swagger UI 5.33.1  (Apache-2.0)    in drf-spectacular-sidecar 2026.10.1
#   Leaflet 1.9.4      (BSD-2-Clause)  in django-js-lib-leaflet 1.9.4.1
# Each lands in Web/vendor/<name>-<version>/ with its licence; the server answers
# the files of such a versioned folder as immutable.
#
# To move to another version: change the pins and the folder names below, run
# with UPDATE=1 (writes the files and a new SHA256SUMS), read the diff, and point
# Web/index.html or Web/docs.html at the new folder.
#
# Any mismatch (a wheel, a file, or a committed copy) stops with a message and
# exit status 1.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENDOR="$ROOT/Web/vendor"
SUMS="$VENDOR/SHA256SUMS"

SWAGGER_UI=swagger-ui-5.33.1
LEAFLET=leaflet-1.9.4
# name==version --hash=sha256:<the wheel's digest>, as pip's hash-checking mode takes them.
WHEELS=(
    "drf-spectacular-sidecar==2026.10.1 --hash=sha256:fe1d005d8ac9b5d0472f2fe5deeb2e7d6dcffaa24118044f22578b4b8c4b31f2"
    "django-js-lib-leaflet==1.9.4.1 --hash=sha256:ca775a52be5c6aa33c164f7293c032fc50f617c6a5184bf71c2a608a743ccc33"
)
SIDECAR_DIST=drf_spectacular_sidecar/static/drf_spectacular_sidecar/swagger-ui-dist
LEAFLET_DIST=js_lib_leaflet/static/js_lib_leaflet
# <folder under Web/vendor>/<file> <- <path inside the unpacked wheels>
FILES=(
    "$SWAGGER_UI/LICENSE $SIDECAR_DIST/LICENSE"
    "$SWAGGER_UI/swagger-ui-bundle.js $SIDECAR_DIST/swagger-ui-bundle.js"
    "$SWAGGER_UI/swagger-ui-bundle.js.LICENSE.txt $SIDECAR_DIST/swagger-ui-bundle.js.LICENSE.txt"
    "$SWAGGER_UI/swagger-ui.css $SIDECAR_DIST/swagger-ui.css"
    "$SWAGGER_UI/swagger-ui.css.map $SIDECAR_DIST/swagger-ui.css.map"
    "$SWAGGER_UI/favicon-32x32.png $SIDECAR_DIST/favicon-32x32.png"
    "$LEAFLET/LICENSE django_js_lib_leaflet-1.9.4.1.dist-info/LICENSE"
    "$LEAFLET/leaflet.js $LEAFLET_DIST/leaflet.js"
    "$LEAFLET/leaflet.js.map $LEAFLET_DIST/leaflet.js.map"
    "$LEAFLET/leaflet.css $LEAFLET_DIST/leaflet.css"
    "$LEAFLET/images/layers.png $LEAFLET_DIST/images/layers.png"
    "$LEAFLET/images/layers-2x.png $LEAFLET_DIST/images/layers-2x.png"
    "$LEAFLET/images/marker-icon.png $LEAFLET_DIST/images/marker-icon.png"
    "$LEAFLET/images/marker-icon-2x.png $LEAFLET_DIST/images/marker-icon-2x.png"
    "$LEAFLET/images/marker-shadow.png $LEAFLET_DIST/images/marker-shadow.png"
)

fail() {
    echo "vendor-web: $*" >&2
    exit 1
}

mode=write
case "${1:-}" in
    "") ;;
    --check) mode=check ;;
    *) fail "usage: scripts/vendor-web.sh [--check]" ;;
esac

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

printf '%s\n' "${WHEELS[@]}" >"$WORK/requirements.txt"
python3 -m pip download --quiet --no-deps --only-binary :all: --require-hashes \
    -r "$WORK/requirements.txt" -d "$WORK/wheels" \
    || fail "pip download of the pinned wheels failed (or a wheel's SHA-256 is not the pinned one)"
mkdir "$WORK/unpacked" "$WORK/vendor"
for wheel in "$WORK"/wheels/*.whl; do
    python3 -m zipfile -e "$wheel" "$WORK/unpacked"
done
for entry in "${FILES[@]}"; do
    read -r target source <<<"$entry"
    [[ -f "$WORK/unpacked/$source" ]] || fail "the wheel has no $source"
    mkdir -p "$(dirname "$WORK/vendor/$target")"
    cp "$WORK/unpacked/$source" "$WORK/vendor/$target"
done

if [[ "${UPDATE:-0}" == 1 ]]; then
    [[ $mode == write ]] || fail "UPDATE=1 writes: not with --check"
    (cd "$WORK/vendor" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum) >"$WORK/SHA256SUMS"
    rm -rf "${VENDOR:?}/$SWAGGER_UI" "${VENDOR:?}/$LEAFLET"
    mkdir -p "$VENDOR"
    cp -R "$WORK/vendor/." "$VENDOR/"
    cp "$WORK/SHA256SUMS" "$SUMS"
    echo "vendor-web: wrote $(wc -l <"$SUMS") files and a new $SUMS: review the diff"
    exit 0
fi

[[ -f "$SUMS" ]] || fail "no $SUMS"
listed=$(cut -d' ' -f3- "$SUMS" | LC_ALL=C sort)
fetched=$(cd "$WORK/vendor" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
[[ "$listed" == "$fetched" ]] || fail "the files fetched are not the files SHA256SUMS lists:
$(diff <(echo "$listed") <(echo "$fetched"))"
(cd "$WORK/vendor" && sha256sum --check --quiet --strict "$SUMS") \
    || fail "a fetched file's SHA-256 is not the one in $SUMS (above)"
echo "vendor-web: the ${#FILES[@]} fetched files match $SUMS"

if [[ $mode == write ]]; then
    for entry in "${FILES[@]}"; do
        read -r target _ <<<"$entry"
        mkdir -p "$(dirname "$VENDOR/$target")"
        cp "$WORK/vendor/$target" "$VENDOR/$target"
    done
fi
committed=$(cd "$VENDOR" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort)
[[ "$listed" == "$committed" ]] || fail "Web/vendor holds other files than SHA256SUMS lists:
$(diff <(echo "$listed") <(echo "$committed"))"
(cd "$VENDOR" && sha256sum --check --quiet --strict "$SUMS") \
    || fail "a file in Web/vendor is not the one in $SUMS (above)"
echo "vendor-web: Web/vendor matches $SUMS"
