#!/usr/bin/env bash
# Compiles the pin renderer's pixel module (JPEG encoding and decoding,
# resampling, blur, outlines: workers/render/wasm/pixels.c, with -ffast-math;
# fills: fills.c, without, so its doubles round as JavaScript's do) to
# WebAssembly. Needs clang and lld with the wasm32 target (Debian: clang-16
# lld-16). The .wasm is committed, so building the app does not need clang;
# `npm test` rebuilds it when clang is present and fails if it differs.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG=${CLANG:-$(command -v clang-16 || command -v clang || true)}
LINKER=$(command -v wasm-ld-16 || command -v wasm-ld || true)
if [ -z "$CLANG" ] || [ -z "$LINKER" ]; then
  echo "build-pixels-wasm: clang or wasm-ld not found (apt-get install clang-16 lld-16)" >&2
  exit 2
fi
out=${1:-workers/render/wasm/pixels.wasm}
objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
common=(--target=wasm32 -O3 -msimd128 -nostdlib -fno-builtin)
"$CLANG" "${common[@]}" -ffast-math -c -o "$objects/pixels.o" workers/render/wasm/pixels.c
"$CLANG" "${common[@]}" -c -o "$objects/fills.o" workers/render/wasm/fills.c
"$CLANG" --target=wasm32 -nostdlib -fuse-ld="$LINKER" -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=131072 \
  -o "$out" "$objects/pixels.o" "$objects/fills.o"
echo "build-pixels-wasm: wrote $out ($(wc -c < "$out") bytes)"
