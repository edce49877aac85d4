// satori's own fork of opentype.js (the renderer parses fonts with it, so that satori and our measuring share one parser); same API as opentype.js.
declare module "@shuding/opentype.js" {
  export * from "opentype.js";
}
