/**
 * What the renderer has spent loading things since the isolate started:
 * WebAssembly instances, fonts (fetch and parse) and pictures (fetch and
 * decode). Totals of work, not wall time (loads overlap). The render
 * benchmark reads them before and after a cold render to say where its time
 * went; nothing else depends on them.
 */
export interface LoadStats {
  /** Instantiating the pixel module and its first call (V8 compiles WebAssembly functions on first use). */
  wasmMs: number;
  /** Warming up the pixel module's functions and satori's first layout while the first fonts and pictures are fetched. */
  warmUpMs: number;
  fontFetchMs: number;
  fontParseMs: number;
  fontsLoaded: number;
  pictureFetchMs: number;
  pictureDecodeMs: number;
  picturesDecoded: number;
}

const totals: LoadStats = { wasmMs: 0, warmUpMs: 0, fontFetchMs: 0, fontParseMs: 0, fontsLoaded: 0, pictureFetchMs: 0, pictureDecodeMs: 0, picturesDecoded: 0 };

export function noteLoad(key: keyof LoadStats, amount: number) {
  totals[key] += amount;
}

export function loadStats(): LoadStats {
  return { ...totals };
}
