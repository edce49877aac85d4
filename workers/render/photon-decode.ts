import { photonWasmModule } from "@cf-wasm/photon/workerd";
import type { Bitmap } from "./pixels.ts";

/**
 * Decoding with photon (the image crate, in WebAssembly) for what the pixel
 * module does not decode: PNG, WebP, GIF, progressive JPEG. photon panics on
 * a picture it cannot read, and a panic is a WebAssembly trap that leaves its
 * instance damaged: the input stays allocated and the shadow stack is not
 * unwound, so after about 6,500 such pictures an isolate's photon failed on
 * every picture, good ones too, with "memory access out of bounds"
 * (decision 078). So pictures are decoded in an instance of photon's module
 * of our own, and an instance that trapped is thrown away whole.
 */

interface PhotonExports {
  memory: WebAssembly.Memory;
  __wbindgen_start(): void;
  __wbindgen_malloc(size: number, align: number): number;
  __wbindgen_free(at: number, size: number, align: number): void;
  __wbindgen_externrefs: WebAssembly.Table;
  photonimage_new_from_byteslice(at: number, length: number): number;
  photonimage_get_width(image: number): number;
  photonimage_get_height(image: number): number;
  photonimage_get_raw_pixels(image: number): [number, number];
  __wbg_photonimage_free(image: number, ownership: number): void;
}

let instance: PhotonExports | null = null;
let discarded = 0;

/** The imports photon's module names; the decode path calls none but the externref table's set-up and a panic's message. */
function photonImports(): WebAssembly.Imports {
  const imports: Record<string, Record<string, (...args: number[]) => unknown>> = {};
  for (const { module, name, kind } of WebAssembly.Module.imports(photonWasmModule)) {
    if (kind !== "function") continue;
    imports[module] ??= {};
    imports[module][name] = name.startsWith("__wbindgen_init_externref_table")
      ? () => {
          const table = instance!.__wbindgen_externrefs;
          const offset = table.grow(4);
          table.set(0, undefined);
          table.set(offset, undefined);
          table.set(offset + 1, null);
          table.set(offset + 2, true);
          table.set(offset + 3, false);
        }
      : () => {
          throw new Error(`photon called ${name}, which picture decoding does not provide`);
        };
  }
  return imports;
}

function photon(): PhotonExports {
  if (!instance) {
    instance = new WebAssembly.Instance(photonWasmModule, photonImports()).exports as unknown as PhotonExports;
    instance.__wbindgen_start();
  }
  return instance;
}

/** A picture's pixels (straight RGBA) as photon decodes them, or null when photon cannot read it. */
export function decodeWithPhoton(bytes: Uint8Array): Bitmap | null {
  const wasm = photon();
  try {
    const input = wasm.__wbindgen_malloc(bytes.length, 1) >>> 0;
    new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
    // photon takes the input (a Vec) and frees it.
    const image = wasm.photonimage_new_from_byteslice(input, bytes.length) >>> 0;
    try {
      const width = wasm.photonimage_get_width(image);
      const height = wasm.photonimage_get_height(image);
      const [at, length] = wasm.photonimage_get_raw_pixels(image);
      const data = new Uint8Array(wasm.memory.buffer, at >>> 0, length).slice();
      wasm.__wbindgen_free(at >>> 0, length, 1);
      return { width, height, data };
    } finally {
      wasm.__wbg_photonimage_free(image, 0);
    }
  } catch (error) {
    // A panic (a trap), or a call out of photon we do not serve: this instance is no longer to be trusted.
    instance = null;
    discarded += 1;
    if (error instanceof WebAssembly.RuntimeError || (error instanceof Error && error.message.startsWith("photon called"))) return null;
    throw error;
  }
}

/** photon's memory in bytes (0 before its first picture), and how many instances were thrown away after a trap. */
export function photonMemoryStats(): { bytes: number; discarded: number } {
  return { bytes: instance ? instance.memory.buffer.byteLength : 0, discarded };
}
