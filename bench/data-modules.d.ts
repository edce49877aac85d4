// For the Node-side typecheck (tsconfig.node.json) of bench files that import worker modules:
// a data module's default export is its bytes (workers/worker-configuration.d.ts says the same for the worker).
declare module "*.bin" {
  const value: ArrayBuffer;
  export default value;
}
