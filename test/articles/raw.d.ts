// Vite's `?raw` imports: a fixture file's text, bundled into the test (workerd has no file system to read).
declare module "*?raw" {
  const text: string;
  export default text;
}
