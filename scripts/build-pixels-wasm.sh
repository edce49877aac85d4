#!/usr/bin/env bash
# Compiles the pin renderer's pixel module (JPEG encoder, resampling) (workers/render/wasm/pixels.c) to
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
"$CLANG" --target=wasm32 -O3 -msimd128 -ffast-math -nostdlib -fno-builtin \
  -fuse-ld="$LINKER" -Wl,--no-entry -Wl,--strip-all -Wl,--initial-memory=131072 \
  -o "$out" workers/render/wasm/pixels.c
echo "build-pixels-wasm: wrote $out ($(wc -c < "$out") bytes)"
